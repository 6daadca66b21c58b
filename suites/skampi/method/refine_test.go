package method

import (
	"container/heap"
	"errors"
	"math"
	"slices"
	"sort"
	"testing"
)

// kink is the synthetic cost of a protocol switch at m = 10000: latency
// 1 µs and 1 ns/byte below, 5 µs and 2 ns/byte from there on.
func kink(m int) float64 {
	if m < 10000 {
		return 1e-6 + float64(m)*1e-9
	}
	return 5e-6 + float64(m)*2e-9
}

func straight(m int) float64 { return 1e-6 + float64(m)*1e-9 }

// counted wraps f, failing the test if a length is measured twice.
func counted(t *testing.T, f func(int) float64) func(int) (float64, error) {
	seen := map[int]bool{}
	return func(m int) (float64, error) {
		if seen[m] {
			t.Errorf("length %d measured twice", m)
		}
		seen[m] = true
		return f(m), nil
	}
}

func lengths(ps []Point) []int {
	ms := make([]int, len(ps))
	for i, p := range ps {
		ms[i] = p.M
	}
	return ms
}

func pow2s(lo, hi int) []int {
	var ms []int
	for m := lo; m <= hi; m *= 2 {
		ms = append(ms, m)
	}
	return ms
}

func TestGrid(t *testing.T) {
	cases := []struct {
		lo, hi int
		gamma  float64
		want   []int
	}{
		{1, 1024, 2, pow2s(1, 1024)},
		{1, 1000, 2, append(pow2s(1, 512), 1000)},
		{3, 3, 2, []int{3}},
		// √2: 1, 1.41, 2, 2.83, 4, 5.66, 8, 11.3, 16, 22.6, 32 → rounded,
		// the second 1 dropped.
		{1, 32, math.Sqrt2, []int{1, 2, 3, 4, 6, 8, 11, 16, 23, 32}},
		// 100·2^k < 1000: 100, 200, 400, 800; then 1000.
		{100, 1000, 2, []int{100, 200, 400, 800, 1000}},
		// 5·1.5^k < 20: 5, 7.5→8, 11.25→11, 16.875→17; then 20.
		{5, 20, 1.5, []int{5, 8, 11, 17, 20}},
	}
	for _, c := range cases {
		if got := Grid(c.lo, c.hi, c.gamma); !slices.Equal(got, c.want) {
			t.Errorf("Grid(%d, %d, %v) = %v, want %v", c.lo, c.hi, c.gamma, got, c.want)
		}
	}
}

func TestRefineStartsWithGrid(t *testing.T) {
	c, err := Refine{MMin: 1, MMax: 1 << 20, Gamma: 2}.Run(counted(t, kink))
	if err != nil {
		t.Fatal(err)
	}
	grid := pow2s(1, 1<<20)
	if got := lengths(c.Order[:len(grid)]); !slices.Equal(got, grid) {
		t.Errorf("first measurements %v, want the grid %v", got, grid)
	}
	if !sort.SliceIsSorted(c.Points, func(i, j int) bool { return c.Points[i].M < c.Points[j].M }) ||
		len(c.Points) != len(c.Order) {
		t.Errorf("Points not the measured points by m: %v", lengths(c.Points))
	}
	for _, p := range c.Points {
		if p.T != kink(p.M) {
			t.Errorf("point %v does not carry the measured time %v", p, kink(p.M))
		}
	}
}

func TestRefineFindsKink(t *testing.T) {
	c, err := Refine{MMin: 1, MMax: 1 << 20, Gamma: 2, Epsilon: 0.03}.Run(counted(t, kink))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("measured %d points, refinements %v", len(c.Order), lengths(c.Order[21:]))
	if !c.Reached || len(c.Order) <= 21 {
		t.Fatalf("Reached = %v after %d measurements: want refinement that converges", c.Reached, len(c.Order))
	}
	// The two measured lengths that bracket 10000 are close together.
	ms := lengths(c.Points)
	i, _ := slices.BinarySearch(ms, 10000)
	below, above := ms[i-1], ms[i]
	if float64(above)/float64(below) > 1.1 {
		t.Errorf("kink bracketed by %d and %d (ratio %.3f), want within 1.1", below, above, float64(above)/float64(below))
	}
	// Away from the kink the spacing stays the grid's γ = 2.
	for j := 1; j < len(ms); j++ {
		if (ms[j] <= 4096 || ms[j-1] >= 32768) && ms[j] != 2*ms[j-1] {
			t.Errorf("spacing %d → %d away from the kink, want ×2", ms[j-1], ms[j])
		}
	}
	// Every refined point lies in the octave that holds the kink.
	for _, p := range c.Order[21:] {
		if p.M <= 8192 || p.M >= 16384 {
			t.Errorf("refined at %d, outside (8192, 16384)", p.M)
		}
	}
}

func TestRefineStraightLineNeedsNothing(t *testing.T) {
	for _, gamma := range []float64{2, math.Sqrt2} {
		c, err := Refine{MMin: 1, MMax: 1 << 20, Gamma: gamma}.Run(counted(t, straight))
		if err != nil {
			t.Fatal(err)
		}
		if grid := Grid(1, 1<<20, gamma); len(c.Order) != len(grid) || !c.Reached {
			t.Errorf("γ = %v: %d measurements for a grid of %d, Reached = %v, MaxErr = %g",
				gamma, len(c.Order), len(grid), c.Reached, c.MaxErr)
		}
	}
}

func TestRefineBudget(t *testing.T) {
	const budget = 24 // the 21 grid points and 3 refinements
	c, err := Refine{MMin: 1, MMax: 1 << 20, Budget: budget}.Run(counted(t, kink))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Order) != budget || c.Reached || c.MaxErr < DefaultEpsilon {
		t.Errorf("%d measurements, Reached = %v, MaxErr = %v; want %d, false, ≥ ε", len(c.Order), c.Reached, c.MaxErr, budget)
	}
	// The worst segment first: the first refinement splits the kink's
	// octave at √(8192·16384) = 11585.2 → 11585.
	if c.Order[21].M != 11585 {
		t.Errorf("first refinement at %d, want 11585", c.Order[21].M)
	}
	if _, err := (Refine{MMin: 1, MMax: 1 << 20, Budget: 20}).Run(counted(t, kink)); err == nil {
		t.Error("budget below the grid: no error")
	}
}

func TestRefineLoneSegment(t *testing.T) {
	// Grid 100, 150: one segment, no neighbours, relative width 0.5 ≥ ε,
	// so it is split at √15000 = 122.47 → 122; then the halves predict
	// each other exactly on a straight line.
	c, err := Refine{MMin: 100, MMax: 150}.Run(counted(t, straight))
	if err != nil {
		t.Fatal(err)
	}
	if got := lengths(c.Order); !slices.Equal(got, []int{100, 150, 122}) {
		t.Errorf("order %v, want [100 150 122]", got)
	}
}

func TestRefineUnsplittable(t *testing.T) {
	// Grid 1, 2, 3: √2 rounds to 1 and √6 to 2, so nothing can be split
	// however bent the curve; Run ends without measuring again.
	c, err := Refine{MMin: 1, MMax: 3}.Run(counted(t, func(m int) float64 { return float64(m * m * m) }))
	if err != nil {
		t.Fatal(err)
	}
	if got := lengths(c.Points); !slices.Equal(got, []int{1, 2, 3}) || !c.Reached {
		t.Errorf("points %v, Reached = %v; want [1 2 3], true", got, c.Reached)
	}
}

func TestRefineOnePoint(t *testing.T) {
	c, err := Refine{MMin: 64, MMax: 64}.Run(counted(t, kink))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Points) != 1 || c.Points[0] != (Point{64, kink(64)}) || len(c.Order) != 1 || !c.Reached {
		t.Errorf("got %+v, want the one point 64", c)
	}
}

func TestRefineErrors(t *testing.T) {
	for _, r := range []Refine{
		{MMin: 0, MMax: 10}, {MMin: 10, MMax: 5}, {MMin: 1, MMax: 10, Gamma: 1},
		{MMin: 1, MMax: 10, Gamma: -2}, {MMin: 1, MMax: 10, Epsilon: -1}, {MMin: 1, MMax: 10, Budget: -1},
		{MMin: 1, MMax: 1 << 30, Gamma: 1 + 1e-12},
	} {
		if _, err := r.Run(counted(t, straight)); err == nil {
			t.Errorf("%+v: no error", r)
		}
	}
	boom := errors.New("boom")
	n := 0
	failing := func(m int) (float64, error) {
		if n++; n == 3 {
			return 0, boom
		}
		return straight(m), nil
	}
	c, err := Refine{MMin: 1, MMax: 64}.Run(failing)
	if !errors.Is(err, boom) || len(c.Order) != 2 {
		t.Errorf("got %v with %d points, want boom with 2", err, len(c.Order))
	}
}

func TestProcs(t *testing.T) {
	cases := []struct {
		got, want []int
	}{
		{ProcsLinear(2, 6), []int{2, 3, 4, 5, 6}},
		{ProcsLinear(0, 2), []int{1, 2}},
		{ProcsLinear(5, 4), nil},
		{ProcsDoubling(2, 16), []int{2, 4, 8, 16}},
		{ProcsDoubling(2, 12), []int{2, 4, 8, 12}},
		{ProcsDoubling(1, 1), []int{1}},
		{ProcsDoubling(3, 2), nil},
	}
	for i, c := range cases {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("case %d: %v, want %v", i, c.got, c.want)
		}
	}
}

// After every split, each queued segment must carry the estimate its
// current neighbours give, the queue must be a heap on it, and the list
// must link the points in order: a split changes its neighbours'
// estimates too.
func TestRefineInvariants(t *testing.T) {
	r, _ := Refine{MMin: 1, MMax: 1 << 20, Gamma: math.Sqrt2}.normalized()
	rn := &refinement{Refine: r, measure: counted(t, kink)}
	if err := rn.start(Grid(r.MMin, r.MMax, r.Gamma)); err != nil {
		t.Fatal(err)
	}
	for step := 0; rn.q.Len() > 0 && rn.q[0].err >= r.Epsilon; step++ {
		if err := rn.split(heap.Pop(&rn.q).(*segment)); err != nil {
			t.Fatal(err)
		}
		for s := rn.first; s != nil; s = s.next {
			if s.next != nil && (s.next.prev != s || s.next.b != s.c) {
				t.Fatalf("step %d: list broken at %v–%v", step, s.b, s.c)
			}
			if s.index >= 0 && (rn.q[s.index] != s || s.err != s.estimate()) {
				t.Fatalf("step %d: segment %d–%d queued with estimate %v, fresh %v",
					step, s.b.M, s.c.M, s.err, s.estimate())
			}
		}
		for i := 1; i < rn.q.Len(); i++ {
			if rn.q.Less(i, (i-1)/2) {
				t.Fatalf("step %d: queue not a heap at %d", step, i)
			}
		}
	}
}
