// Package tune is mpibench tune: it measures every algorithm the MPI
// library offers for each collective mpibench times, over a grid of
// process counts and message lengths, writes the library's own tuning
// file (Open MPI's coll/tuned dynamic rules file, MPICH's collective
// selection JSON) from the differences that are significant, and proves
// the gain by rerunning with the file against the library's defaults in
// interleaved launches.
//
// The driving process runs no MPI job of its own: like launch, it starts
// one fresh job per algorithm (a crashed algorithm ends its own launch,
// not the run). Every launch is mpi1 under IMB 2021's definitions
// (-imb 2021), so each point is measured by the same kernels as mpi1, and
// compared by the same rank-sum test on launches as compare.
package tune

import (
	"io"
	"strings"
)

// Coll is a collective tune measures, named as each side names it.
type Coll struct {
	Name   string // the IMB-MPI1 2021 benchmark: "Allreduce"
	OMPIID int    // Open MPI's COLLTYPE_T, the collective's ID in a rules file
}

// Lib is the name both libraries give the collective, the IMB name in
// lower case: coll_tuned_<Lib>_algorithm (Open MPI),
// MPIR_CVAR_<upper(Lib)>_INTRA_ALGORITHM and "collective=<Lib>" (MPICH).
func (c Coll) Lib() string { return strings.ToLower(c.Name) }

// Colls are the collectives tune can measure, in the order of its tables.
// Open MPI's IDs are COLLTYPE_T of ompi/mca/coll/base/coll_base_functions.h
// (ALLGATHER = 0 ... SCATTER = 15), the numbers its rules file reader
// expects.
var Colls = []Coll{
	{"Allreduce", 2},
	{"Bcast", 7},
	{"Reduce", 11},
	{"Allgather", 0},
	{"Allgatherv", 1},
	{"Alltoall", 3},
	{"Alltoallv", 4},
	{"Gather", 9},
	{"Scatter", 15},
	{"Reduce_scatter", 12},
	{"Reduce_scatter_block", 13},
	{"Barrier", 6},
}

// CollNamed is the collective of the IMB name, case-insensitive.
func CollNamed(name string) (Coll, bool) {
	for _, c := range Colls {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return Coll{}, false
}

// Alg is one algorithm of a collective as the library numbers and names
// it. ID 0 is the library's own choice (Open MPI "ignore", MPICH "auto"),
// which tune calls "default".
type Alg struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// Default is the library's own choice.
var Default = Alg{ID: 0, Name: "default"}

// IsDefault reports whether a is the library's own choice.
func (a Alg) IsDefault() bool { return a.ID == 0 }

// Rule is one line of a tuning decision: at communicator size NP, from the
// IMB message length Bytes up to the next rule's, the algorithm Alg (the
// default: the library decides).
type Rule struct {
	NP    int `json:"np"`
	Bytes int `json:"bytes"`
	Alg   Alg `json:"alg"`
}

// Table is the decision tune writes: per collective (its IMB name), the
// rules sorted by NP, then Bytes. Every NP's rules start at Bytes 0.
type Table map[string][]Rule

// Library is what tune needs of one MPI library.
type Library interface {
	// Name is the library as the docs name it: "Open MPI", "MPICH".
	Name() string
	// Algorithms discovers, from the library itself, the algorithms it
	// offers per collective (IMB name), the default left out.
	Algorithms() (map[string][]Alg, error)
	// Force is the environment (KEY=VALUE) that makes the library use a
	// for c in every launch.
	Force(c Coll, a Alg) []string
	// WriteRules writes t as the library's tuning file.
	WriteRules(w io.Writer, t Table) error
	// RulesEnv is the environment that makes the library read the tuning
	// file at path.
	RulesEnv(path string) []string
	// Metric is the message size the library's decision compares with
	// its rules for c with IMB message length bytes at np processes.
	Metric(c Coll, np, bytes int) int
}
