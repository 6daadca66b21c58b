package imb

// Mutation tests of mpi1 -check: the mutant binary (mutant_test.go) plays
// one broken kernel loop, and -check must report defects for every
// benchmark the mutant breaks at every length, 1 byte included, while the
// real loops report none.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"mpibench/e2e"
)

// checkLengths are testdata/check_lengths.txt: 1 byte, lengths that are
// no multiple of 4, and several 256-byte runs of the pattern.
var checkLengths = []int{1, 3, 4, 1024, 4096}

// mpi1DataBenchmarks are the benchmarks that move data (not Barrier).
var mpi1DataBenchmarks = []string{"PingPong", "PingPing", "Sendrecv", "Exchange", "Bcast", "Allgather",
	"Allgatherv", "Alltoall", "Alltoallv", "Reduce", "Reduce_scatter", "Allreduce"}

// mpi1Mutants are the mutants of mpi1's loops, each with the benchmarks
// it breaks and whether it also runs on 3 processes, where a root has
// more than one other rank to rotate to, the neighbours left and right
// differ, and Reduce_scatter's counts are uneven (MPICH's tests stay at 2).
var mpi1Mutants = []struct {
	name       string
	benchmarks []string
	wide       bool
}{
	{"wrong-rank", []string{"PingPong", "PingPing", "Sendrecv", "Exchange"}, true},
	{"no-rotation", []string{"Bcast", "Reduce"}, true},
	{"short-reduce", []string{"Reduce", "Reduce_scatter", "Allreduce"}, true},
	{"displ", []string{"Allgatherv", "Alltoallv"}, true},
	{"first-only", mpi1DataBenchmarks, false},
}

func TestCheckMPI1Mutants(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	// The real loops on 3 processes (TestCheckAllBenchmarks runs the
	// release binary's on 2 and 4).
	np := min(3, e2e.MaxRanks())
	t.Run(fmt.Sprintf("real/np%d", np), func(t *testing.T) {
		for _, r := range runMutant(t, bin, "", np, mpi1DataBenchmarks) {
			if r.Defects != 0 {
				t.Errorf("real kernels: %v", r)
			}
		}
	})
	for _, m := range mpi1Mutants {
		for _, np := range []int{2, 3} {
			if np > 2 && (!m.wide || np > e2e.MaxRanks()) {
				continue
			}
			t.Run(fmt.Sprintf("%s/np%d", m.name, np), func(t *testing.T) {
				for _, r := range runMutant(t, bin, m.name, np, m.benchmarks) {
					// A reduction of fewer than 4 bytes carries no float.
					if info(t, r.Benchmark).reduction && r.Bytes < 4 {
						continue
					}
					if r.Defects <= 0 {
						t.Errorf("mutant %s passed -check: %v", m.name, r)
					}
				}
			})
		}
	}
}

// runMutant runs mpi1 -check with the given benchmarks on np processes
// (-npmin np: the collectives at np only) as mutant m ("" for the real
// kernels). It checks the exit code (3 for defects, else 0) and that every
// benchmark has a record at every length, and returns the records. -iter
// 20: 20 repetitions instead of up to 1000 at every length; the first-only
// mutant needs more than one, no check needs more (at np 3, oversubscribed,
// the 1000 cost 30 s a run on the 2-core machine).
func runMutant(t *testing.T, bin, m string, np int, benchmarks []string) []e2e.Record {
	t.Helper()
	t.Setenv(e2e.MutantEnv, m)
	js := filepath.Join(t.TempDir(), "check.jsonl")
	argv := e2e.LauncherArgs(np)
	argv[len(argv)-1] = bin
	argv = append(argv, "mpi1", "-check", "-npmin", strconv.Itoa(np), "-msglen", e2e.Testdata(t, "check_lengths.txt"), "-iter", "20", "-json", js)
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, benchmarks...)...)
	e2e.NoPanic(t, r)
	want := 0
	if m != "" {
		want = 3
	}
	if r.Code != want {
		t.Fatalf("want exit code %d, got %s", want, r)
	}
	recs := e2e.ReadRecords(t, js)
	for _, b := range benchmarks {
		var lens []int
		for _, rec := range recs {
			if rec.Benchmark == b {
				lens = append(lens, rec.Bytes)
			}
		}
		if want := expectedLengths(info(t, b), checkLengths); !slices.Equal(lens, want) {
			t.Errorf("%s: lengths %v, want %v", b, lens, want)
		}
	}
	return recs
}
