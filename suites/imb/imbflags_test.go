package imb

import (
	"slices"
	"testing"
)

// TestIMBBufferBytes: IMB 2021.11's s_alloc + r_alloc, written out by
// hand from IMB_mem_manager.c for X = 100 bytes (and 0, counted as 4) on
// 8 processes.
func TestIMBBufferBytes(t *testing.T) {
	for _, c := range []struct {
		name string
		x    int
		want float64
	}{
		{"Alltoall", 100, 1600}, {"Ialltoallv_pure", 100, 1600}, {"Alltoall_persist", 100, 1600},
		{"Allgather", 100, 900}, {"Igatherv", 100, 900}, {"Scatter_persist_pure", 100, 900},
		{"Exchange", 100, 300}, {"Barrier", 100, 0}, {"Open_Close", 100, 0},
		{"Ibarrier", 100, 200}, {"Barrier_persist", 100, 200},
		{"Exchange_put", 100, 400}, {"Compare_and_swap", 100, 400},
		{"PingPong", 100, 200}, {"Unidir_Put", 0, 8}, {"Reduce_scatter", 100, 200},
	} {
		if got := imbBufferBytes(c.name, c.x, 8); got != c.want {
			t.Errorf("%s at %d bytes on 8: %g, want %g", c.name, c.x, got, c.want)
		}
	}
}

// TestMemFlag: -mem's values, its limit by suite and IMB, the split of
// the lengths and IMB's line.
func TestMemFlag(t *testing.T) {
	var f Flags2021
	for _, bad := range []string{"0", "-1", "x", "NaN", "Inf", ""} {
		if f.setIMBFlag("mem", bad) == nil {
			t.Errorf("-mem %q accepted", bad)
		}
	}
	if f.memLimit(MPI1Suite) != 0 || f.memLimit(NBCSuite) != 1<<30 {
		t.Errorf("defaults: mpi1 %g, nbc %g; want none and 1 GiB", f.memLimit(MPI1Suite), f.memLimit(NBCSuite))
	}
	if err := f.setIMBFlag("mem", "0.5"); err != nil || f.memLimit(MPI1Suite) != 1<<29 {
		t.Errorf("-mem 0.5: %v, limit %g", err, f.memLimit(MPI1Suite))
	}
	need := func(x int) float64 { return imbBufferBytes("Alltoall", x, 2) }
	fit, over := memBounds{imbNeed: need, imbLimit: 1000}.split([]int{0, 64, 4096})
	if !slices.Equal(fit, []int{0, 64}) || len(over) != 1 || over[4096] != (leftOut{need: 16384, limit: 1000, imb: true}) {
		t.Errorf("fit %v, over %v", fit, over)
	}
	want := `         4096 out-of-mem.; needed X=   0.001 GB; use flag "-mem X" or MAX_MEM_USAGE>=X (IMB_mem_info.h)`
	if got := outOfMem(need(4096), 4096); got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	for _, bad := range []string{"1", "ON", ""} {
		if f.setIMBFlag("imb_barrier", bad) == nil {
			t.Errorf("-imb_barrier %q accepted", bad)
		}
	}
}

// TestEXT2021Layout: under -imb 2021 the window is max(X, 4) bytes and
// Window counts MSGS_NONAGGR; IMB 3.0's stay.
func TestEXT2021Layout(t *testing.T) {
	if rmaWindowSize2021(0) != 4 || rmaWindowSize2021(1024) != 1024 || rmaBufferSize2021([]int{0, 1, 64}) != 64 {
		t.Error("IMB 2021 window sizes")
	}
	win, put := &EXT[0], &EXT[2]
	f := &Flags2021{IMB: imb2021}
	if f.windowMode(win, NoMode) != NonAggregate || f.windowMode(put, Aggregate) != Aggregate {
		t.Error("-imb 2021: Window must count MSGS_NONAGGR, Unidir_Put its mode's count")
	}
	if (&Flags2021{}).windowMode(win, NoMode) != NoMode {
		t.Error("IMB 3.0: Window must count MSGSPERSAMPLE")
	}
}

// TestMemNeedOffCache: under -off_cache -mem's need is IMB's s_alloc +
// r_alloc with the slots (worked by hand from helper_IMB_functions.h):
// PingPong at 1 MiB with -off_cache 8 has slots of (2^20/64 + 1)·64 =
// 1048640 bytes, floor((2·8·2^20 + 1048640 − 1) / 1048640) = 16 of them
// in each buffer; IMB-IO has none, nor does it without the flag.
func TestMemNeedOffCache(t *testing.T) {
	var f Flags2021
	if err := f.setIMBFlag("imb", "2021"); err != nil {
		t.Fatal(err)
	}
	set := f.settings(&MPI1Suite.Settings)
	b := f.lookup(MPI1Suite, "PingPong")
	if got := f.memNeed(MPI1Suite, set, b, 1<<20, 2); got != 2<<20 {
		t.Errorf("without -off_cache: %g, want %d", got, 2<<20)
	}
	if err := f.Types.setOffCache("8"); err != nil {
		t.Fatal(err)
	}
	if got, want := f.memNeed(MPI1Suite, set, b, 1<<20, 2), 2*16*1048640.0; got != want {
		t.Errorf("-off_cache 8, PingPong 1 MiB: %g, want %g", got, want)
	}
	if got := f.memNeed(IOSuite, set, b, 1<<20, 2); got != 2<<20 {
		t.Errorf("io: %g, want %d (IMB-IO allocates no slots)", got, 2<<20)
	}
	want := `      1048576 out-of-mem.; needed X=   0.032 GB; use flag "-mem X" or MAX_MEM_USAGE>=X (IMB_mem_info.h)`
	if got := outOfMem(f.memNeed(MPI1Suite, set, b, 1<<20, 2), 1<<20); got != want {
		t.Errorf("line %q, want %q", got, want)
	}
}
