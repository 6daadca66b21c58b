package tune

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// mpichCall is a call as MPICH's selection sees it.
type mpichCall struct {
	coll      string // MPICH's name
	np, size  int    // size: the one the collective's keys compare
	count     int
	inter     bool
	inplace   bool
	noncommut bool
	hierarchy string // parent, node, node_roots, flat
}

// evalSelection walks sel as MPICH's search does (csel.c): the first key
// of an object that holds leads on, a leaf ends the walk; "" when no key
// holds. A key it does not know fails the test. imbPath tells whether
// every key of imbFacts on the way decided as for mpibench's calls: then
// mpibench's calls can come to the leaf.
func evalSelection(t *testing.T, sel selNode, c mpichCall) (leaf string, imbPath bool) {
	t.Helper()
	imb := mpichCall{np: c.np, size: c.size, count: c.count, hierarchy: c.hierarchy}
	imbPath = true
	for n := sel; ; {
		if n.isLeaf() {
			return n[0].key, imbPath
		}
		next := selNode(nil)
		for _, e := range n {
			holds := keyHolds(t, e.key, c)
			if fam, _, _ := strings.Cut(e.key, "="); imbFacts[fam] != "" && holds != keyHolds(t, e.key, imb) {
				imbPath = false
			}
			if holds {
				next = e.val
				break
			}
		}
		if next == nil {
			return "", imbPath
		}
		n = next
	}
}

// keyHolds is one key's test (csel.c's operators), for one node with every
// rank of the communicator.
func keyHolds(t *testing.T, key string, c mpichCall) bool {
	t.Helper()
	pof2 := 1
	for pof2*2 <= c.np {
		pof2 *= 2
	}
	yes := func(b bool) string { return map[bool]string{true: "yes", false: "no"}[b] }
	switch key {
	case "comm_type=intra":
		return !c.inter
	case "comm_type=inter":
		return c.inter
	case "comm_size=pow2":
		return c.np == pof2
	case "comm_size=node_comm_size":
		return c.hierarchy == "parent"
	case "comm_size=any", "avg_msg_size=any", "total_msg_size=any", "count=any", "comm_hierarchy=any":
		return true
	case "count<pow2":
		return c.count < pof2
	case "is_sendbuf_inplace=yes", "is_sendbuf_inplace=no":
		return key == "is_sendbuf_inplace="+yes(c.inplace)
	case "is_commutative=yes", "is_commutative=no":
		return key == "is_commutative="+yes(!c.noncommut)
	case "is_op_built_in=yes", "is_block_regular=yes", "is_node_consecutive=yes":
		return true
	case "is_op_built_in=no", "is_block_regular=no", "is_node_consecutive=no":
		return false
	}
	if fam, val, ok := strings.Cut(key, "="); ok {
		switch fam {
		case "collective":
			return val == c.coll
		case "comm_hierarchy":
			return val == c.hierarchy
		}
	}
	for _, op := range []struct {
		prefix string
		value  int
		le     bool
	}{
		{"comm_size<=", c.np, true}, {"comm_size<", c.np, false},
		{"avg_msg_size<=", c.size, true}, {"avg_msg_size<", c.size, false},
		{"total_msg_size<=", c.size, true}, {"total_msg_size<", c.size, false},
		{"count<=", c.count, true}, {"comm_avg_ppn<=", c.np, true},
	} {
		if v, ok := strings.CutPrefix(key, op.prefix); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("key %q", key)
			}
			return op.value < n || op.le && op.value == n
		}
	}
	t.Fatalf("a key the test does not know: %q", key)
	return false
}

// The rewritten selection of MPICH 4.0.2 chooses, for every collective,
// exactly what the table says where it names an algorithm for calls like
// mpibench's that pass MPICH's checks of the algorithm (smp with a node
// hierarchy, recursive doubling at a power of two ...), and MPICH's own
// choice for every other call: other process counts, sizes, in place,
// not commutative, intercommunicators, other hierarchies.
func TestMPICHWriteRulesKeepsDefaults(t *testing.T) {
	def := mpichDefault(t)
	m := &MPICH{Library: fakeLibrary(t, def)}
	algs, err := mpichAlgorithms(mpichVars(t))
	if err != nil {
		t.Fatal(err)
	}
	table := Table{}
	for _, c := range Colls {
		as := algs[c.Name]
		table[c.Name] = []Rule{
			{2, 0, as[0]}, {2, 4, as[0]}, {2, 1024, Default}, {2, 65536, as[len(as)-1]},
			{4, 0, Default}, {4, 16, as[1]}, {4, 64, as[2%len(as)]},
			{8, 0, Default}, {8, 1024, Default},
		}
		if mpichSizeKey(c) == "" { // Barrier: one rule a process count
			table[c.Name] = []Rule{{2, 0, as[0]}, {4, 0, as[1]}, {8, 0, Default}}
		}
	}
	var b strings.Builder
	if err := m.WriteRules(&b, table); err != nil {
		t.Fatal(err)
	}
	tuned, err := parseSelection([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := parseSelection(def)
	checked := 0
	for _, c := range Colls {
		tunedCalls := 0
		for _, call := range mpichCalls(m, c) {
			want, imbPath := evalSelection(t, orig, call.mpichCall)
			if a := tableAlg(table[c.Name], call.np, call.bytes); imbPath && !a.IsDefault() &&
				guardsHold(t, c, a, call.mpichCall) {
				want = "algorithm=" + mpichContainer(c, a)
				tunedCalls++
			}
			if got, _ := evalSelection(t, tuned, call.mpichCall); got != want || want == "" {
				t.Fatalf("%s %+v at %d bytes: %q, want %q", c.Name, call.mpichCall, call.bytes, got, want)
			}
			checked++
		}
		if tunedCalls == 0 {
			t.Errorf("%s: no call takes a tuned algorithm", c.Name)
		}
	}
	t.Logf("%d calls checked", checked)
}

// guardsHold tells whether MPICH's checks of a hold for the call.
func guardsHold(t *testing.T, c Coll, a Alg, call mpichCall) bool {
	for _, g := range mpichGuards[c.Lib()+"/"+a.Name] {
		if keyHolds(t, g.key, call) != g.pass {
			return false
		}
	}
	return true
}

// tableAlg is the rule's algorithm for IMB length bytes at np: the last
// rule of np at or below it.
func tableAlg(rules []Rule, np, bytes int) Alg {
	a := Default
	for _, r := range rules {
		if r.NP == np && r.Bytes <= bytes {
			a = r.Alg
		}
	}
	return a
}

type imbCall struct {
	mpichCall
	bytes int // IMB's length
}

// mpichCalls are the calls of c the test tries: process counts about the
// table's, IMB lengths about its rules, every condition.
func mpichCalls(m *MPICH, c Coll) []imbCall {
	var calls []imbCall
	for _, np := range []int{1, 2, 3, 4, 5, 7, 8, 9, 16} {
		for _, bytes := range []int{0, 1, 3, 4, 8, 15, 16, 63, 64, 1000, 1023, 1024, 4096, 12288, 65535, 65536, 1 << 20} {
			for _, v := range []mpichCall{{}, {inplace: true}, {noncommut: true}, {inter: true},
				{hierarchy: "node"}, {hierarchy: "flat"}, {hierarchy: "node_roots"}} {
				call := v
				call.coll, call.np, call.size = c.Lib(), np, m.Metric(c, np, bytes)
				call.count = bytes / 4
				if call.hierarchy == "" {
					call.hierarchy = "parent"
				}
				calls = append(calls, imbCall{call, bytes})
			}
		}
	}
	return calls
}

// The structure the rewrite gives a tuned collective: the process counts
// as comm_size<= branches before anything of MPICH's own.
func TestMPICHWriteRulesShape(t *testing.T) {
	def := mpichDefault(t)
	m := &MPICH{Library: fakeLibrary(t, def)}
	table := Table{"Bcast": {{2, 0, Alg{ID: 2, Name: "nb"}}, {2, 2048, Default}, {3, 0, Alg{ID: 1, Name: "binomial"}}}}
	var b strings.Builder
	if err := m.WriteRules(&b, table); err != nil {
		t.Fatal(err)
	}
	tuned, _ := parseSelection([]byte(b.String()))
	orig, _ := parseSelection(def)
	if len(tuned) != len(orig) {
		t.Fatalf("%d collectives, want %d", len(tuned), len(orig))
	}
	for i := range orig {
		if tuned[i].key != orig[i].key {
			t.Fatalf("collective %d: %s, want %s", i, tuned[i].key, orig[i].key)
		}
		if tuned[i].key != "collective=bcast" && fmt.Sprint(tuned[i].val) != fmt.Sprint(orig[i].val) {
			t.Errorf("%s changed", tuned[i].key)
		}
	}
	var keys []string
	for _, e := range tuned[0].val {
		keys = append(keys, e.key)
	}
	if got := strings.Join(keys, " "); got != "comm_size<=1 comm_size<=2 comm_size<=3 comm_size=any" {
		t.Errorf("bcast: %s", got)
	}
}
