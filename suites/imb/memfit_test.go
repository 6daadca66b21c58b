package imb

import (
	"slices"
	"testing"
)

// TestSplitLengths: the lengths of a case that fit the node's memory are
// kept in order; each other one is left out with its need and the
// bound; -mem's bound (IMB's line) is checked first.
func TestSplitLengths(t *testing.T) {
	const p = 4
	alltoall := func(x int) int64 { return int64(2*p*x + 2*4*p) } // send and receive P·X, counts and displacements
	lens := []int{0, 1024, 65536, 262144, 1 << 20}
	for _, c := range []struct {
		name     string
		limit    int64
		imbLimit float64
		fit      []int
		out      map[int]leftOut
	}{
		{"no bound", 0, 0, lens, nil},
		{"all fit", alltoall(1 << 20), 0, lens, nil},
		{"node: 2 MiB per process", 2 << 20, 0, []int{0, 1024, 65536},
			map[int]leftOut{262144: {need: alltoall(262144), limit: 2 << 20}, 1 << 20: {need: alltoall(1 << 20), limit: 2 << 20}}},
		{"node: not even the smallest", 16, 0, nil, map[int]leftOut{
			0: {need: 32, limit: 16}, 1024: {need: alltoall(1024), limit: 16}, 65536: {need: alltoall(65536), limit: 16},
			262144: {need: alltoall(262144), limit: 16}, 1 << 20: {need: alltoall(1 << 20), limit: 16}}},
		// IMB's need of Alltoall is 2·P·max(X, 4), without the counts.
		{"-mem first", 2 << 20, 1 << 20, []int{0, 1024, 65536},
			map[int]leftOut{262144: {need: 2 << 20, limit: 1 << 20, imb: true}, 1 << 20: {need: 8 << 20, limit: 1 << 20, imb: true}}},
	} {
		m := memBounds{imbNeed: func(x int) float64 { return imbBufferBytes("Alltoall", x, p) }, imbLimit: c.imbLimit,
			nodeNeed: alltoall, nodeLimit: c.limit}
		fit, out := m.split(lens)
		if !slices.Equal(fit, c.fit) || len(out) != len(c.out) {
			t.Errorf("%s: kept %v, left out %v; want %v, %v", c.name, fit, out, c.fit, c.out)
			continue
		}
		for x, o := range c.out {
			if out[x] != o {
				t.Errorf("%s: %d left out as %+v, want %+v", c.name, x, out[x], o)
			}
		}
	}
}

// TestMemoryNeedAvail: the node's memory per process bounds the lengths
// of each case, so the need is that of the longest kept one; a case the
// node cannot run even at its smallest length needs what that length
// needs, which the memory check refuses.
func TestMemoryNeedAvail(t *testing.T) {
	cfg := &Config{Suite: "mpi1", Benchmarks: []string{"PingPong", "Alltoall"}, NPMin: 2, Multi: -1,
		Lengths: []int{1024, 65536, 4 << 20}, avail: 1 << 20}
	got := MemoryNeed(cfg, 4)
	// PingPong at 64 KiB: 128 KiB; Alltoall on 4 at 64 KiB: 512 KiB and
	// 32 bytes (on 2: 256 KiB and 16).
	if want := int64(2*4*65536 + 32); got.Bytes != want || got.What != "Alltoall at 65536 bytes on 4 processes" {
		t.Errorf("need %d (%s), want %d at 64 KiB on 4", got.Bytes, got.What, want)
	}
	cfg.Lengths, cfg.avail = []int{4 << 20}, 1<<20
	got = MemoryNeed(cfg, 2)
	if want := int64(2*2*(4<<20) + 16); got.Bytes != want || got.What != "Alltoall at 4194304 bytes on 2 processes" {
		t.Errorf("smallest length too long: need %d (%s), want %d", got.Bytes, got.What, want)
	}
	// -mem leaves every length out: IMB's lines, no refusal.
	cfg.F.Mem, cfg.avail = "0.000001", 0
	if got = MemoryNeed(cfg, 2); got.Bytes != 0 {
		t.Errorf("-mem leaving out every length: need %d (%s), want 0", got.Bytes, got.What)
	}
}

// TestSkipLine: the line of a length -mem left out is IMB's; that of one
// the node's memory left out says so in the same shape.
func TestSkipLine(t *testing.T) {
	want := `      1048576 out-of-mem.; needs 8.0 MiB per process; this node has 2.0 MiB per process available`
	if got := outOfNodeMem(8<<20+32, 2<<20, 1<<20); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
