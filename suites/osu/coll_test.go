package osu

import (
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/mpi"
)

// TestCollCounts: osu_reduce_scatter.c's split and the v-variants' equal
// counts at displacements p·n; osu_reduce_scatter_persistent.c's split
// below np elements, one each to the first size ranks (size in bytes:
// here 4 bytes, one MPI_INT).
func TestCollCounts(t *testing.T) {
	for _, c := range []struct {
		kind          mpi.OSUCollKind
		n, np, ones   int
		counts, disps []int32
	}{
		{mpi.OSUReduceScatter, 5, 3, 5, []int32{2, 2, 1}, nil},
		{mpi.OSUReduceScatter, 6, 3, 6, []int32{2, 2, 2}, nil},
		{mpi.OSUReduceScatter, 2, 3, 2, []int32{1, 1, 0}, nil},
		{mpi.OSUReduceScatter, 1, 3, 4, []int32{1, 1, 1}, nil},
		{mpi.OSUReduceScatter, 1, 6, 4, []int32{1, 1, 1, 1, 0, 0}, nil},
		{mpi.OSUAllgatherv, 3, 2, 3, []int32{3, 3}, []int32{0, 3}},
		{mpi.OSUScatterv, 1, 4, 1, []int32{1, 1, 1, 1}, []int32{0, 1, 2, 3}},
	} {
		counts, disps := collCounts(c.kind, c.n, c.np, c.ones)
		if !slices.Equal(counts, c.counts) || (c.disps != nil && !slices.Equal(disps, c.disps)) {
			t.Errorf("kind %d, %d elements, %d ranks: counts %v displs %v, want %v %v", c.kind, c.n, c.np, counts,
				disps, c.counts, c.disps)
		}
	}
}

// TestCollText: the header and row of a non-blocking test and of
// osu_barrier, against lines of OSU 7.4's binaries.
func TestCollText(t *testing.T) {
	ib, _ := Lookup("osu_iallreduce")
	b, _ := Lookup("barrier")
	var sb strings.Builder
	tx := NewText(&sb)
	o := &Options{Full: true, Validate: true}
	rec := &result.Record{Bytes: 4, TAvg: 22.7, OSU: &result.OSU{Validation: "Pass",
		NBC: &result.OSUNBC{Overall: 22.7, Compute: 7.79, Init: 0.31, Wait: 14.48, Pure: 7.01, PureMin: 6.7,
			PureMax: 7.26}}}
	if err := tx.Header(ib, o); err != nil {
		t.Fatal(err)
	}
	if err := tx.Row(ib, o, rec); err != nil {
		t.Fatal(err)
	}
	if err := tx.Header(b, &Options{Full: true}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Row(b, &Options{Full: true}, &result.Record{TAvg: 0.65, TMin: 0.65, TMax: 0.66, Reps: 10,
		OSU: &result.OSU{}}); err != nil {
		t.Fatal(err)
	}
	want := "# Size             Overall(us)         Compute(us)      Coll. Init(us)        MPI_Test(us)" +
		"        MPI_Wait(us)      Pure Comm.(us)       Min Comm.(us)       Max Comm.(us)          Overlap(%)" +
		"          Validation\n" +
		"4                        22.70                7.79                0.31                0.00" +
		"               14.48                7.01                6.70                7.26                0.00" +
		"                Pass\n" +
		"# Avg Latency(us)     Min Latency(us)     Max Latency(us)  Iterations\n" +
		"             0.65                0.65                0.66          10\n"
	if sb.String() != want {
		t.Errorf("got\n%s\nwant\n%s", sb.String(), want)
	}
}

// TestCollBarriersCoverEveryTest: every collective test has OSU's barrier
// layout written down (a missing one would run with none), and no layout
// names a test that does not exist.
func TestCollBarriersCoverEveryTest(t *testing.T) {
	names := map[string]bool{}
	for _, c := range slices.Concat(blocking, nonBlocking, neighbourhood, neighbourhoodNB, persistentColl) {
		names[c.name] = true
		if _, ok := collBarriers[c.name]; !ok {
			t.Errorf("%s: no barrier layout in collBarriers", c.name)
		}
	}
	for n := range collBarriers {
		if !names[n] {
			t.Errorf("collBarriers names %s, which is not a collective test", n)
		}
	}
	if len(names) != 54 {
		t.Errorf("%d collective tests, want OSU 7.4's 15 blocking, 15 non-blocking, 10 neighbourhood and 14 "+
			"persistent tests that mpibench has", len(names))
	}
}
