package tune

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// plan2 is a plan of Bcast with two algorithms, four launches.
func plan2() Plan {
	return Plan{Colls: []Coll{Colls[1]}, NPs: []int{4}, Launches: 4, Alpha: 0.05,
		Algs: map[string][]Alg{"Bcast": {{1, "basic_linear"}, {2, "chain"}}}}
}

func samples(m map[int][]float64) *measurements {
	ms := &measurements{samples: map[algPoint]map[int][]float64{}, failed: map[algPoint]string{}}
	for id, s := range m {
		ms.samples[algPoint{"Bcast", 4, id}] = map[int][]float64{1024: s}
	}
	return ms
}

// Four launches of one algorithm all below the default's four: the
// rank-sum test's smallest p-value for 4 and 4, 2/C(8,4) = 1/35, below
// 0.05; the gain from the medians 11.5 and 6.5.
func TestChooseSignificant(t *testing.T) {
	m := samples(map[int][]float64{0: {10, 11, 12, 13}, 1: {5, 6, 7, 8}, 2: {9, 9.5, 20, 30}})
	ch := chooseAt(plan2(), m, Colls[1], 4, 1024)
	if ch.Chosen.Name != "basic_linear" || ch.Winner.Name != "basic_linear" {
		t.Fatalf("chose %v, winner %v: %s", ch.Chosen, ch.Winner, ch.Why)
	}
	if math.Abs(ch.P-1.0/35) > 1e-12 || math.Abs(ch.Gain-100*5/11.5) > 1e-9 {
		t.Errorf("p %g gain %g, want %g and %g", ch.P, ch.Gain, 1.0/35, 100*5/11.5)
	}
}

// A faster median that the test cannot tell from the default keeps the
// default, and says so with the p-value; so does a default that wins.
func TestChooseKeepsDefault(t *testing.T) {
	m := samples(map[int][]float64{0: {10, 11, 12, 13}, 1: {9, 10.5, 11, 14}, 2: {12, 13, 14, 15}})
	ch := chooseAt(plan2(), m, Colls[1], 4, 1024)
	if !ch.Chosen.IsDefault() || ch.Winner.Name != "basic_linear" || ch.Gain != 0 ||
		!strings.Contains(ch.Why, "not significantly") || ch.P < 0.05 {
		t.Errorf("%+v", ch)
	}
	m = samples(map[int][]float64{0: {1, 2, 3, 4}, 1: {5, 6, 7, 8}, 2: {9, 10, 11, 12}})
	if ch := chooseAt(plan2(), m, Colls[1], 4, 1024); !ch.Chosen.IsDefault() || ch.Why != "the default was the fastest" {
		t.Errorf("%+v", ch)
	}
}

// An algorithm that failed, or was measured in fewer launches than the
// plan's, is never chosen however fast, and its error is kept.
func TestChooseSkipsFailed(t *testing.T) {
	m := samples(map[int][]float64{0: {10, 11, 12, 13}, 1: {1, 2}, 2: {9, 9.5, 9.7, 9.8}})
	m.failed[algPoint{"Bcast", 4, 1}] = "exit status 1: MPI_ERR_UNSUPPORTED_OPERATION"
	ch := chooseAt(plan2(), m, Colls[1], 4, 1024)
	if ch.Chosen.Name != "chain" || ch.Algs[1].Status != "failed" || !strings.Contains(ch.Algs[1].Error, "UNSUPPORTED") {
		t.Errorf("%+v", ch)
	}
	delete(m.failed, algPoint{"Bcast", 4, 1})
	ch = chooseAt(plan2(), m, Colls[1], 4, 1024)
	if ch.Algs[1].Status != "failed" || ch.Algs[1].Error != "measured in 2 of 4 launches" {
		t.Errorf("%+v", ch.Algs[1])
	}
}

// The rules of the choices: the default below the smallest length and
// above the largest, one rule per length between; a collective decided
// without lengths gets one rule, the algorithm chosen at every length or
// the default.
func TestTable(t *testing.T) {
	rd := Alg{3, "recursive_doubling"}
	chs := []Choice{
		{Coll: "Allreduce", NP: 4, Bytes: 4, Chosen: rd},
		{Coll: "Allreduce", NP: 4, Bytes: 1024, Chosen: Default},
		{Coll: "Allreduce", NP: 4, Bytes: 65536, Chosen: rd},
		{Coll: "Alltoallv", NP: 4, Bytes: 4, Chosen: Alg{2, "pairwise"}},
		{Coll: "Alltoallv", NP: 4, Bytes: 64, Chosen: Alg{2, "pairwise"}},
		{Coll: "Alltoallv", NP: 8, Bytes: 4, Chosen: Alg{2, "pairwise"}},
		{Coll: "Alltoallv", NP: 8, Bytes: 64, Chosen: Default},
	}
	got := table(chs, &OpenMPI{})
	want := Table{
		"Allreduce": {{4, 0, Default}, {4, 4, rd}, {4, 1024, Default}, {4, 65536, rd}, {4, 65537, Default}},
		"Alltoallv": {{4, 0, Alg{2, "pairwise"}}, {8, 0, Default}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

// The proof reverts a choice it found significantly slower, and only
// such a choice: not one it found faster, not one without a verdict, not
// a point where the default was kept.
func TestRevert(t *testing.T) {
	chain := Alg{2, "chain"}
	chs := []Choice{
		{Coll: "Bcast", NP: 4, Bytes: 64, Chosen: chain, Gain: 30},
		{Coll: "Bcast", NP: 4, Bytes: 1024, Chosen: chain, Gain: 20},
		{Coll: "Bcast", NP: 4, Bytes: 4096, Chosen: chain, Gain: 10},
		{Coll: "Bcast", NP: 4, Bytes: 8192, Chosen: Default},
	}
	prs := []Proof{
		{Coll: "Bcast", NP: 4, Bytes: 64, Chosen: chain, Change: 407, P: 0.03, Significant: true},
		{Coll: "Bcast", NP: 4, Bytes: 1024, Chosen: chain, Change: -20, P: 0.03, Significant: true},
		{Coll: "Bcast", NP: 4, Bytes: 4096, Chosen: chain, Change: 50, P: 0.2},
		{Coll: "Bcast", NP: 4, Bytes: 8192, Chosen: Default, Change: 60, P: 0.03, Significant: true},
	}
	if n := revert(chs, prs); n != 1 {
		t.Fatalf("%d reverted, want 1", n)
	}
	if !chs[0].Chosen.IsDefault() || chs[0].Gain != 0 || !strings.Contains(chs[0].Why, "+407.0 %, p = 0.030") || !prs[0].Reverted {
		t.Errorf("%+v %+v", chs[0], prs[0])
	}
	for i := 1; i < 4; i++ {
		if prs[i].Reverted || (i < 3 && chs[i].Chosen != chain) {
			t.Errorf("%d: %+v %+v", i, chs[i], prs[i])
		}
	}
}

func TestRotate(t *testing.T) {
	if got := rotate([]int{1, 2, 3}, 4); !reflect.DeepEqual(got, []int{2, 3, 1}) {
		t.Errorf("%v", got)
	}
}
