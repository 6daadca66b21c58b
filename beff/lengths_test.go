package beff

import (
	"slices"
	"testing"
)

func TestLmax(t *testing.T) {
	for _, c := range []struct{ mem, want int }{
		{1, 8192}, {128, 1 << 20}, {1024, 8 << 20}, {16384, 128 << 20}, {100000, 128 << 20},
	} {
		if got := Lmax(c.mem); got != c.want {
			t.Errorf("Lmax(%d MB) = %d, want %d", c.mem, got, c.want)
		}
	}
}

func TestLengths(t *testing.T) {
	fixed := []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}
	// a = (8192/4096)^(1/8) = 2^(1/8) = 1.0905077; 4096·a^k by hand:
	// 4466.7, 4871.0, 5311.9, 5792.6, 6316.9, 6888.6, 7512.1, 8192.
	want := append(slices.Clone(fixed), 4467, 4871, 5312, 5793, 6317, 6889, 7512, 8192)
	if got := Lengths(8192); !slices.Equal(got, want) {
		t.Errorf("Lengths(8192) = %v\nwant %v", got, want)
	}
	// T3E with 128 MB: L_max = 1 MB, a = 2.
	want = append(slices.Clone(fixed), 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1<<20)
	if got := Lengths(1 << 20); !slices.Equal(got, want) {
		t.Errorf("Lengths(1 MB) = %v\nwant %v", got, want)
	}
	for _, lmax := range []int{8192, 12345, 96416 << 10, 128 << 20} {
		l := Lengths(lmax)
		if len(l) != NLengths || l[NLengths-1] != lmax || !slices.IsSorted(l) {
			t.Errorf("Lengths(%d) = %v: want 21 increasing lengths ending at L_max", lmax, l)
		}
	}
}

func TestNextLoop(t *testing.T) {
	for _, c := range []struct {
		ll      int
		t       float64
		l, next int
		want    int
	}{
		{300, 1e-3, 1, 2, 300},            // predicted 2 ms: below 5 ms, kept
		{300, 2.5e-3, 1, 2, 300},          // predicted exactly 5 ms: kept
		{300, 4e-3, 4096, 8192, 140},      // predicted 8 ms: 300·3.75/8 = 140.6
		{300, 3e-3, 4096, 4467, 300},      // predicted 3.27 ms
		{100, 20e-3, 1000, 2000, 9},       // predicted 40 ms: 100·3.75/40 = 9.4
		{10, 100e-3, 1 << 20, 2 << 20, 1}, // never below 1
		{1, 1e-6, 1, 2, 1},                // never raised
	} {
		if got := NextLoop(c.ll, c.t, c.l, c.next); got != c.want {
			t.Errorf("NextLoop(%d, %g, %d, %d) = %d, want %d", c.ll, c.t, c.l, c.next, got, c.want)
		}
	}
}

func TestFixedLoop(t *testing.T) {
	for _, c := range []struct{ l, lmax, want int }{
		{1, 8192, 300}, {16, 8192, 300}, {32, 8192, 256}, {4096, 8192, 2}, {8192, 8192, 1}, {7512, 8192, 1},
	} {
		if got := FixedLoop(c.l, c.lmax); got != c.want {
			t.Errorf("FixedLoop(%d, %d) = %d, want %d", c.l, c.lmax, got, c.want)
		}
	}
}

// TestMemoryNeed: two buffers of MaxSteps page-aligned L_max slots.
func TestMemoryNeed(t *testing.T) {
	p, err := NewPlan(Options{}, 4, 1024) // L_max = 1024 MB / 128 = 8 MiB
	if err != nil {
		t.Fatal(err)
	}
	steps := 1
	for _, pat := range p.Patterns {
		steps = max(steps, pat.MaxSteps())
	}
	if got, want := MemoryNeed(p).Bytes, int64(2*steps*8*MB); got != want {
		t.Errorf("need %d, want %d (%d steps)", got, want, steps)
	}
}
