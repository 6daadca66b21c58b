package imb

import (
	"math"
	"slices"
	"testing"

	"mpibench/analysis/result"
)

func TestDefaultNamesAreIMB30(t *testing.T) {
	want := []string{"PingPong", "PingPing", "Sendrecv", "Exchange", "Bcast", "Allgather", "Allgatherv",
		"Alltoall", "Alltoallv", "Reduce", "Reduce_scatter", "Allreduce", "Barrier"}
	if got := MPI1Suite.DefaultNames(); !slices.Equal(got, want) {
		t.Errorf("DefaultNames() = %v, want %v", got, want)
	}
	for _, b := range MPI1From2021 {
		if b.Since != 2021 {
			t.Errorf("%s: Since %d, want 2021", b.Name, b.Since)
		}
		if got, ok := MPI1Suite.Lookup(b.Name); !ok || got.Kernel != b.Kernel {
			t.Errorf("%s is not in the mpi1 table", b.Name)
		}
	}
}

func TestPairCounts(t *testing.T) {
	for _, c := range []struct {
		p, pmin int
		want    []int
	}{
		{1, 2, []int{1}}, {2, 2, []int{2}}, {3, 2, []int{2}}, {3, 3, []int{2}}, {4, 2, []int{2, 4}},
		{7, 2, []int{2, 4, 6}}, {8, 3, []int{4, 8}}, {12, 2, []int{2, 4, 8, 12}},
	} {
		if got := MPI1Suite.ProcessCounts(c.p, c.pmin, ParallelTransferMsgRate); !slices.Equal(got, c.want) {
			t.Errorf("P=%d npmin=%d: %v, want %v", c.p, c.pmin, got, c.want)
		}
	}
	uni, _ := MPI1Suite.Lookup("Uniband")
	if _, bad := MPI1Suite.invalid(uni, 1); !bad {
		t.Error("Uniband on 1 process is not invalid")
	}
	if _, bad := MPI1Suite.invalid(uni, 2); bad {
		t.Error("Uniband on 2 processes is invalid")
	}
}

func TestRates2021(t *testing.T) {
	bi, _ := MPI1Suite.Lookup("Biband")
	r := &result.Record{NProcs: 4, Bytes: 1000, TMax: 10}
	rates2021(r, bi, 64)
	// 2 · 64 messages · 2 pairs in 10 µs
	if want := 2 * 64 * 2 / 10e-6; math.Abs(r.MsgRate-want) > 1e-6*want || r.Window != 64 {
		t.Errorf("Biband: msg rate %g window %d, want %g 64", r.MsgRate, r.Window, want)
	}
	if want := r.MsgRate * 1000 / 1e6; math.Abs(r.MBps-want) > 1e-9*want {
		t.Errorf("Biband: %g MB/s, want %g", r.MBps, want)
	}
	pp, _ := MPI1Suite.Lookup("PingPongAnySource")
	r = &result.Record{NProcs: 2, Bytes: 16, TMax: 2}
	if rates2021(r, pp, 64); r.MBps != 8 || r.MsgRate != 0 || r.Window != 0 {
		t.Errorf("PingPongAnySource: %+v, want 8 MB/s (MB = 10^6) and no msg rate", r)
	}
}

func TestWindowSizeFlag(t *testing.T) {
	o, err := ParseArgs([]string{"Uniband", "-window_size", "8"})
	if err != nil || o.Window != 8 {
		t.Fatalf("-window_size 8: %v %+v", err, o)
	}
	c, err := Resolve(MPI1Suite, o, 2, nil)
	if err != nil || c.windowSize() != 8 {
		t.Fatalf("Resolve: %v, window %d", err, c.windowSize())
	}
	for _, v := range []string{"0", "-1", "x", ""} {
		if _, err := ParseArgs([]string{"-window_size", v}); err == nil {
			t.Errorf("-window_size %q accepted", v)
		}
	}
	o.Benchmarks = nil
	if _, err := Resolve(EXTSuite, o, 2, nil); err == nil {
		t.Error("ext accepted -window_size")
	}
	if c, _ := Resolve(MPI1Suite, Options{Multi: -1}, 2, nil); c.windowSize() != 256 {
		t.Errorf("default window %d, want IMB 2021.11's 256", c.windowSize())
	}
}
