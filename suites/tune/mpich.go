package tune

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"mpibench/internal/textout"
	"mpibench/mpi"
)

// MPICH is MPICH's collective selection (MPICH 4.0, device ch4): the
// algorithms read from its MPI_T control variables, forced by them, and
// decided by a selection JSON file read in place of the library's own
// (docs/tune.md, "MPICH").
type MPICH struct {
	// Library is the shared object of the MPICH the launches run with,
	// where MPICH keeps its own selection; "" is the one this process
	// runs with (mpibench's MPICH build links the launches' library).
	Library string
	// vars lists the control variables; nil: mpi.ControlVars (tests give
	// the captured ones of MPICH 4.0.2).
	vars func() ([]mpi.ControlVar, error)
}

// Name is the library's name.
func (m *MPICH) Name() string { return "MPICH" }

// Algorithms reads the algorithms from the library's control variables.
func (m *MPICH) Algorithms() (map[string][]Alg, error) {
	list := m.vars
	if list == nil {
		list = mpi.ControlVars
	}
	vars, err := list()
	if err != nil {
		return nil, fmt.Errorf("MPICH's control variables: %v", err)
	}
	return mpichAlgorithms(vars)
}

// Force makes MPICH use a for c: its control variable set to the name,
// auto for the default. MPICH checks the name at MPI_Init and refuses
// one it does not know; an algorithm that does not fit the call (smp on
// a communicator without a node hierarchy, recursive doubling at a size
// not a power of two) falls back to MPICH's own choice silently
// (MPIR_CVAR_COLLECTIVE_FALLBACK=silent, the default).
func (m *MPICH) Force(c Coll, a Alg) []string {
	name := a.Name
	if a.IsDefault() {
		name = "auto"
	}
	return []string{mpichAlgVar(c) + "=" + name}
}

// RulesEnv makes MPICH read its selection from the file at path, made
// absolute: every rank opens it at MPI_Init, wherever it starts, and
// MPICH 4.0.2 crashes on a file it cannot open (docs/tune.md).
func (m *MPICH) RulesEnv(path string) []string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return []string{"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=" + path}
}

// mpichSizeKey is the size MPICH's selection compares for c: the message
// of one process (avg_msg_size) where MPICH defines it (csel.c,
// get_avg_msgsize: Allreduce, Bcast, Reduce, Alltoall; any other asserts),
// else the whole (total_msg_size); Barrier has none.
func mpichSizeKey(c Coll) string {
	switch c.Name {
	case "Allreduce", "Bcast", "Reduce", "Alltoall":
		return "avg_msg_size"
	case "Barrier":
		return ""
	}
	return "total_msg_size"
}

// Metric is the size MPICH's selection compares (MPICH 4.0.2, csel.c,
// get_avg_msgsize and get_total_msgsize) for the call mpibench makes under
// IMB-MPI1 2021's definitions (IMB_*.c of src_c; suites/imb/case.go):
//   - Bcast, Alltoall: avg_msg_size, the count of bytes: IMB's length
//     (Alltoall's to each process);
//   - Allreduce, Reduce: avg_msg_size of IMB's floats, the length rounded
//     down to 4 bytes;
//   - Allgather, Allgatherv, Alltoallv, Gather, Scatter: total_msg_size,
//     np blocks of the length (MPICH multiplies the receive or send count
//     by the communicator size, or adds the counts);
//   - Reduce_scatter, Reduce_scatter_block: total_msg_size, np blocks of
//     the length in floats (IMB 2021 gives every process the length:
//     recvcounts[i] = size/s_size);
//   - Barrier: 0, it has no size.
func (m *MPICH) Metric(c Coll, np, bytes int) int {
	switch c.Name {
	case "Bcast", "Alltoall":
		return bytes
	case "Allreduce", "Reduce":
		return bytes / 4 * 4
	case "Allgather", "Allgatherv", "Alltoallv", "Gather", "Scatter":
		return bytes * np
	case "Reduce_scatter", "Reduce_scatter_block":
		return bytes / 4 * 4 * np
	}
	return 0
}

// WriteRules writes MPICH's own selection with the collectives of t
// rewritten: at each process count of their rules, the message sizes of
// the rules that name an algorithm get it, every other size, count and
// collective keeps MPICH's choice (mpichTuned).
func (m *MPICH) WriteRules(w io.Writer, t Table) error {
	lib, name, err := m.library()
	if err != nil {
		return err
	}
	sel, err := mpichDefaultSelection(lib, name)
	if err != nil {
		return err
	}
	for coll := range t {
		if _, ok := CollNamed(coll); !ok {
			return fmt.Errorf("the table names %q, not a collective tune measures", coll)
		}
	}
	for _, c := range Colls {
		if len(t[c.Name]) == 0 {
			continue
		}
		i := sel.find("collective=" + c.Lib())
		if i < 0 {
			return fmt.Errorf("%s: MPICH's own selection has no collective=%s", name, c.Lib())
		}
		if sel[i].val, err = m.tuned(c, sel[i].val, t[c.Name], lib, name); err != nil {
			return err
		}
	}
	tw := textout.New(w)
	sel.write(tw, "")
	tw.WriteString("\n")
	return tw.Err()
}

// library reads the library's shared object and names it.
func (m *MPICH) library() ([]byte, string, error) {
	name := m.Library
	if name == "" {
		var err error
		if name, err = mpi.LibraryFile(); err != nil {
			return nil, "", fmt.Errorf("MPICH's library: %v", err)
		}
	}
	b, err := os.ReadFile(name)
	return b, name, err
}

// mpichContainer is the algorithm's name in the selection: MPICH's
// containers are MPIR_<Coll>_intra_<name>, the nonblocking one
// MPIR_<Coll>_allcomm_nb (csel_container.c).
func mpichContainer(c Coll, a Alg) string {
	if a.Name == "nb" {
		return "MPIR_" + c.Name + "_allcomm_nb"
	}
	return "MPIR_" + c.Name + "_intra_" + a.Name
}

// sizeRange is a range of MPICH's sizes, from From to the next range's,
// with its algorithm.
type sizeRange struct {
	From int
	Alg  Alg
}

// mpichRanges are the rules of one process count as ranges of MPICH's
// sizes: sorted, a range before the first rule's kept for the default,
// neighbours with one algorithm merged, and a range that comes to no size
// (two lengths of one size, 1 and 2 bytes of floats) dropped for the one
// after it. MPICH reads its sizes with atoi: they stop at MaxInt32.
func (m *MPICH) mpichRanges(c Coll, np int, rules []Rule) []sizeRange {
	rs := append([]Rule(nil), rules...)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Bytes < rs[j].Bytes })
	out := []sizeRange{{From: 0, Alg: Default}}
	for _, r := range rs {
		from := min(m.Metric(c, np, r.Bytes), math.MaxInt32)
		if last := &out[len(out)-1]; last.From == from {
			last.Alg = r.Alg
		} else {
			out = append(out, sizeRange{From: from, Alg: r.Alg})
		}
	}
	merged := out[:1]
	for _, r := range out[1:] {
		if r.Alg.ID != merged[len(merged)-1].Alg.ID {
			merged = append(merged, r)
		}
	}
	return merged
}

// tuned is collective c's selection with its rules: per process count
// with a rule that names an algorithm, a branch "comm_size<=np" (the
// branches before it, and "comm_size<=np-1" where a count is skipped,
// keep orig); in it, orig with its leaves split by size.
// The comm_size keys come first, where MPICH prunes the tree per
// communicator (prune_tree, which reads "comm_size<X" right, unlike its
// search, which takes it for <=), so that orig is walked as in the
// library's own.
func (m *MPICH) tuned(c Coll, orig selNode, rules []Rule, lib []byte, name string) (selNode, error) {
	byNP := map[int][]Rule{}
	for _, r := range rules {
		byNP[r.NP] = append(byNP[r.NP], r)
	}
	nps := make([]int, 0, len(byNP))
	for np := range byNP {
		nps = append(nps, np)
	}
	sort.Ints(nps)
	var out selNode
	prev := 0
	for _, np := range nps {
		ranges := m.mpichRanges(c, np, byNP[np])
		if len(ranges) == 1 && ranges[0].Alg.IsDefault() {
			continue
		}
		if err := checkContainers(c, ranges, lib, name); err != nil {
			return nil, err
		}
		if np-1 > prev {
			out = append(out, selEntry{fmt.Sprintf("comm_size<=%d", np-1), orig})
		}
		out = append(out, selEntry{fmt.Sprintf("comm_size<=%d", np), splitLeaves(c, orig, ranges, true)})
		prev = np
	}
	if len(out) == 0 {
		return orig, nil
	}
	return append(out, selEntry{"comm_size=any", orig}), nil
}

// checkContainers refuses an algorithm whose container the library does
// not know: MPICH asserts on it at MPI_Init ("unrecognized key").
func checkContainers(c Coll, ranges []sizeRange, lib []byte, name string) error {
	for _, r := range ranges {
		if r.Alg.IsDefault() {
			continue
		}
		key := "algorithm=" + mpichContainer(c, r.Alg)
		if !bytes.Contains(lib, append([]byte(key), 0)) {
			return fmt.Errorf("%s %s: %s does not know the selection's %s", c.Name, r.Alg.Name, name, key)
		}
	}
	return nil
}

// imbFacts are the conditions of mpibench's calls (IMB 2021's) that
// MPICH's selection tests besides the sizes: an intracommunicator, MPI_SUM
// (commutative, built in), separate send and receive buffers, equal
// Reduce_scatter counts, a single thread (-thread_level single). A leaf
// reached only by a call unlike these keeps its algorithm: the tuned one
// was measured under these, and MPICH calls a selected algorithm without
// checking that it fits (the forcing variables check).
var imbFacts = map[string]string{
	"comm_type":          "intra",
	"is_commutative":     "yes",
	"is_op_built_in":     "yes",
	"is_sendbuf_inplace": "no",
	"is_block_regular":   "yes",
	"is_multi_threaded":  "no",
}

// imbTakes tells whether key holds for mpibench's calls: yes, no, or not
// known from the key alone (a size).
func imbTakes(key string) (holds, known bool) {
	fam, val, ok := strings.Cut(key, "=")
	want, fact := imbFacts[fam]
	if !ok || !fact {
		return false, false
	}
	return val == want, true
}

// splitLeaves is n with every leaf that mpibench's calls can reach split
// by the ranges: the ranges' algorithms where they name one, the leaf's
// where they keep the default. reach says whether mpibench's calls can
// come to n.
func splitLeaves(c Coll, n selNode, ranges []sizeRange, reach bool) selNode {
	if n.isLeaf() {
		if !reach {
			return n
		}
		return sizeChain(c, n, ranges)
	}
	out := make(selNode, len(n))
	for i, e := range n {
		holds, known := imbTakes(e.key)
		out[i] = selEntry{e.key, splitLeaves(c, e.val, ranges, reach && (holds || !known))}
		if known && holds {
			reach = false // mpibench's calls stop at this key: none come to the next
		}
	}
	return out
}

// sizeChain is leaf split by the ranges: "avg_msg_size<NEXT" per range,
// "avg_msg_size=any" for the last (total_msg_size for the collectives
// MPICH sizes so); Barrier, without sizes, takes its one range.
func sizeChain(c Coll, leaf selNode, ranges []sizeRange) selNode {
	key := mpichSizeKey(c)
	if key == "" {
		return algLeaf(c, ranges[len(ranges)-1].Alg, leaf)
	}
	var out selNode
	for i, r := range ranges {
		cond := key + "=any"
		if i+1 < len(ranges) {
			cond = fmt.Sprintf("%s<%d", key, ranges[i+1].From)
		}
		out = append(out, selEntry{cond, algLeaf(c, r.Alg, leaf)})
	}
	return out
}

// algLeaf is the leaf of algorithm a, leaf itself for the default, a
// guarded by the conditions MPICH checks before it runs a forced
// algorithm (mpichGuards): MPICH runs the algorithm its selection names
// without them, so the file tests them, and where one fails leaf stands.
func algLeaf(c Coll, a Alg, leaf selNode) selNode {
	if a.IsDefault() {
		return leaf
	}
	alg := selNode{{"algorithm=" + mpichContainer(c, a), selNode{}}}
	gs := mpichGuards[c.Lib()+"/"+a.Name]
	for i := len(gs) - 1; i >= 0; i-- {
		alg = gs[i].around(alg, leaf)
	}
	return alg
}

// guard is a condition of an algorithm as selection keys: key and its
// complement, the algorithm where key holds (or, with !pass, where it
// fails: "count<pow2" fails for a count of at least the power of two).
type guard struct {
	key, other string
	pass       bool
}

// around is alg where the guard holds, leaf where not.
func (g guard) around(alg, leaf selNode) selNode {
	if g.pass {
		return selNode{{g.key, alg}, {g.other, leaf}}
	}
	return selNode{{g.key, leaf}, {g.other, alg}}
}

var (
	parentComm  = guard{"comm_hierarchy=parent", "comm_hierarchy=any", true}
	pow2Size    = guard{"comm_size=pow2", "comm_size=any", true}
	commutative = guard{"is_commutative=yes", "is_commutative=no", true}
	builtinOp   = guard{"is_op_built_in=yes", "is_op_built_in=no", true}
	notInPlace  = guard{"is_sendbuf_inplace=no", "is_sendbuf_inplace=yes", true}
	inPlace     = guard{"is_sendbuf_inplace=yes", "is_sendbuf_inplace=no", true}
	countPof2   = guard{"count<pow2", "count=any", false}
)

// mpichGuards are the checks of MPICH 4.0.2 before a forced algorithm
// (MPII_COLLECTIVE_FALLBACK_CHECK in src/mpi/coll/mpir_coll.c) for the
// collectives tune measures, by "collective/algorithm". A forced
// algorithm that fails one falls back to MPICH's choice, silently: tune
// may have measured that choice under the algorithm's name, and an
// algorithm run where it does not fit breaks (smp asserts a node
// hierarchy; pairwise_sendrecv_replace works in place only).
var mpichGuards = map[string][]guard{
	"barrier/smp":                            {parentComm},
	"bcast/smp":                              {parentComm},
	"allgather/recursive_doubling":           {pow2Size},
	"allgatherv/recursive_doubling":          {pow2Size},
	"alltoall/brucks":                        {notInPlace},
	"alltoall/pairwise":                      {notInPlace},
	"alltoall/scattered":                     {notInPlace},
	"alltoall/pairwise_sendrecv_replace":     {inPlace},
	"alltoallv/scattered":                    {notInPlace},
	"alltoallv/pairwise_sendrecv_replace":    {inPlace},
	"reduce/smp":                             {commutative, parentComm},
	"reduce/reduce_scatter_gather":           {builtinOp, countPof2},
	"allreduce/smp":                          {commutative, parentComm},
	"allreduce/reduce_scatter_allgather":     {builtinOp, countPof2},
	"reduce_scatter/pairwise":                {commutative},
	"reduce_scatter/recursive_halving":       {commutative},
	"reduce_scatter_block/noncommutative":    {pow2Size},
	"reduce_scatter_block/pairwise":          {commutative},
	"reduce_scatter_block/recursive_halving": {commutative},
}
