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

// TestNextLoop: the looplength n nearest to 3.5355 ms/(tau·√(L'/L)),
// moved by one if n·tau·√(L'/L) leaves 2.5-5 ms, 1..300, by hand. With
// doubling lengths it is ll·2.5 ms/t.
func TestNextLoop(t *testing.T) {
	for _, c := range []struct {
		ll      int
		tau     float64
		l, next int
		want    int
	}{
		{300, 1e-3 / 300, 1, 2, 300},       // 750: at most 300
		{300, 3e-3 / 300, 4096, 8192, 250}, // 300·2.5/3
		{300, 6e-3 / 300, 4096, 8192, 125}, // 300·2.5/6
		{100, 16e-3 / 100, 1000, 2000, 16}, // 15.6
		{20, 1e-3 / 20, 2048, 4096, 50},    // raised again: 20·2.5/1
		{10, 10e-3, 1 << 20, 2 << 20, 1},   // 0.25: never below 1
		{1, 1e-6, 1, 2, 300},               // 2500: raised to the most
		{50, 4e-3 / 50, 4096, 16384, 22},   // ratio 4: 3.5355/(0.08·2) = 22.1
		{1, 1.7e-3, 1, 2, 2},               // 1.47 rounds to 1, 1·2.40 ms is below: 2
		{37, 0, 1, 2, 37},                  // no time (a hung case): kept
	} {
		if got := NextLoop(c.ll, c.tau, c.l, c.next); got != c.want {
			t.Errorf("NextLoop(%d, %g, %d, %d) = %d, want %d", c.ll, c.tau, c.l, c.next, got, c.want)
		}
	}
}

// TestRetune: 0 in the band and where the rule cannot move; else the
// looplength fitted to the shortest time per execution, by hand.
func TestRetune(t *testing.T) {
	for _, c := range []struct {
		ll     int
		t, tau float64
		want   int
	}{
		{100, 3e-3, 30e-6, 0}, {100, 2.5e-3, 25e-6, 0}, {100, 5e-3, 50e-6, 0}, // in the band
		{300, 1e-3, 1e-6 / 3, 0},           // below, but 300 is the most
		{1, 8e-3, 8e-3, 0},                 // above, but 1 is the least
		{100, 1e-3, 10e-6, 300},            // 353.6: at most 300
		{40, 2e-3, 50e-6, 71},              // 70.7
		{100, 10e-3, 100e-6, 35},           // 35.4
		{100, 10e-3, 40e-6, 88},            // a noisy try: 88.4 from an earlier 40 µs
		{88, 9e-3, 40e-6, 88},              // noise again: measured again as it is
		{2, 5.2e-3, 2.6e-3, 1},             // 1.36
		{1, 2.4e-3, 2.4e-3, 2},             // 1.47 rounds to 1, below the band: 2
		{3, 5.1e-3, 1.7e-3, 2},             // 2.08
		{299, 2.49e-3, 2.49e-3 / 299, 300}, // 424.6: at most 300
		{10, 0, 0, 300},                    // no measurable time
	} {
		if got := Retune(c.ll, c.t, c.tau); got != c.want {
			t.Errorf("Retune(%d, %g, %g) = %d, want %d", c.ll, c.t, c.tau, got, c.want)
		}
	}
}

// TestAdaptiveLands simulates the rule on loops whose execution takes
// a + b·L exactly, for a latency-bound, a bandwidth-bound and a mixed
// machine: the 21 lengths of L_max 1 MiB, 300 at 1 byte, each prediction
// retuned up to MaxRetunes times. Every loop must land in 2.5-5 ms unless
// the rule cannot get there (300 below the band, 1 above it).
func TestAdaptiveLands(t *testing.T) {
	for _, m := range []struct{ a, b float64 }{
		{1e-6, 0}, {0, 1e-9}, {2e-6, 2e-10}, {50e-6, 5e-9}, {0.3e-6, 1e-10}, {10e-6, 3e-8},
	} {
		ll, retunes := FirstLoop, 0
		lengths := Lengths(1 << 20)
		for i, l := range lengths {
			loop := func(n int) float64 { return float64(n) * (m.a + m.b*float64(l)) }
			tries := 1
			for ; tries <= MaxRetunes; tries++ {
				next := Retune(ll, loop(ll), loop(1))
				if next == 0 {
					break
				}
				ll = next
				retunes++
			}
			tl := loop(ll)
			if (tl < LoopLow && ll != FirstLoop) || (tl > LoopHigh && ll != 1) {
				t.Errorf("a=%g b=%g L=%d: looplength %d takes %.3g ms after %d tries", m.a, m.b, l, ll, tl*1e3, tries)
			}
			if i+1 < len(lengths) {
				ll = NextLoop(ll, tl/float64(ll), l, lengths[i+1])
			}
		}
		t.Logf("a=%g b=%g: %d retunes over 21 lengths", m.a, m.b, retunes)
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
	if got, want := MemoryNeed(p).Bytes, int64(2*(steps*8*MB+64)); got != want {
		t.Errorf("need %d, want %d (%d steps)", got, want, steps)
	}
}
