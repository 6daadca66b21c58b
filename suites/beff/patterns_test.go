package beff

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/patterns.golden")

func TestDimsCreate(t *testing.T) {
	for _, c := range []struct {
		n, nd int
		want  []int
	}{
		{2, 2, []int{2, 1}}, {2, 3, []int{2, 1, 1}}, {4, 2, []int{2, 2}}, {4, 3, []int{2, 2, 1}},
		{6, 3, []int{3, 2, 1}}, {7, 2, []int{7, 1}}, {8, 2, []int{4, 2}}, {8, 3, []int{2, 2, 2}},
		{12, 2, []int{4, 3}}, {12, 3, []int{3, 2, 2}}, {16, 3, []int{4, 2, 2}}, {24, 3, []int{4, 3, 2}},
		{36, 2, []int{6, 6}}, {64, 3, []int{4, 4, 4}},
	} {
		if got := DimsCreate(c.n, c.nd); !slices.Equal(got, c.want) {
			t.Errorf("DimsCreate(%d, %d) = %v, want %v", c.n, c.nd, got, c.want)
		}
	}
}

// TestCartSize pins the reduction rules of the version 3.1 page for
// P = 2..16, worked out by hand: P <= 4 unchanged; P > 4 even; P > 8 the
// largest even size without a dimension 1.
func TestCartSize(t *testing.T) {
	want2 := map[int]int{2: 2, 3: 3, 4: 4, 5: 4, 6: 6, 7: 6, 8: 8, 9: 8, 10: 10, 11: 10, 12: 12, 13: 12, 14: 14, 15: 14, 16: 16}
	want3 := map[int]int{2: 2, 3: 3, 4: 4, 5: 4, 6: 6, 7: 6, 8: 8, 9: 8, 10: 8, 11: 8, 12: 12, 13: 12, 14: 12, 15: 12, 16: 16}
	for p := 2; p <= 16; p++ {
		if got := CartSize(p, 2); got != want2[p] {
			t.Errorf("CartSize(%d, 2) = %d, want %d", p, got, want2[p])
		}
		if got := CartSize(p, 3); got != want3[p] {
			t.Errorf("CartSize(%d, 3) = %d, want %d", p, got, want3[p])
		}
	}
}

func names(ps []*Pattern) string {
	var n []string
	for _, p := range ps {
		n = append(n, p.Name)
	}
	return strings.Join(n, " ")
}

func TestCartesianNames(t *testing.T) {
	for _, c := range []struct {
		p    int
		want string
	}{
		{2, "cart-1d-x cart-2d-x cart-2d-xy cart-3d-x cart-3d-xyz"},                     // 2x1, 2x1x1
		{3, "cart-1d-x cart-2d-x cart-2d-xy cart-3d-x cart-3d-xyz"},                     // 3x1, 3x1x1
		{4, "cart-1d-x cart-2d-x cart-2d-y cart-2d-xy cart-3d-x cart-3d-y cart-3d-xyz"}, // 2x2, 2x2x1
		{7, "cart-1d-x cart-2d-x cart-2d-y cart-2d-xy cart-3d-x cart-3d-y cart-3d-xyz"}, // 3x2, 3x2x1
		{8, "cart-1d-x cart-2d-x cart-2d-y cart-2d-xy cart-3d-x cart-3d-y cart-3d-z cart-3d-xyz"},
	} {
		if got := names(CartesianPatterns(c.p, Cartesian)); got != c.want {
			t.Errorf("P=%d: %s\nwant %s", c.p, got, c.want)
		}
	}
}

func TestSplitRings(t *testing.T) {
	for _, c := range []struct {
		p, size int
		want    []int
	}{
		{2, 2, []int{2}}, {3, 2, []int{3}}, {5, 2, []int{2, 3}}, {7, 2, []int{2, 2, 3}},
		{7, 4, []int{4, 3}}, {6, 4, []int{6}}, {8, 4, []int{4, 4}}, {10, 4, []int{5, 5}}, {9, 4, []int{4, 5}},
		{16, 8, []int{8, 8}}, {11, 8, []int{11}}, {13, 8, []int{6, 7}}, {16, 16, []int{16}},
	} {
		if got := SplitRings(c.p, c.size); !slices.Equal(got, c.want) {
			t.Errorf("SplitRings(%d, %d) = %v, want %v", c.p, c.size, got, c.want)
		}
	}
}

// TestNeighbours pins some neighbour lists worked out by hand.
func TestNeighbours(t *testing.T) {
	find := func(ps []*Pattern, name string) *Pattern {
		for _, p := range ps {
			if p.Name == name {
				return p
			}
		}
		t.Fatalf("no pattern %s in %s", name, names(ps))
		return nil
	}
	for _, c := range []struct {
		ps   []*Pattern
		name string
		rank int
		want []Step
	}{
		{CartesianPatterns(2, Cartesian), "cart-1d-x", 0, []Step{{1, 1}, {1, 1}}}, // ring of 2: ping and pong
		{CartesianPatterns(3, Cartesian), "cart-1d-x", 0, []Step{{1, 2}, {2, 1}}},
		{CartesianPatterns(4, Cartesian), "cart-2d-x", 1, []Step{{3, 3}, {3, 3}}}, // 2x2: (0,1) -> (1,1)
		{CartesianPatterns(4, Cartesian), "cart-2d-xy", 0, []Step{{2, 2}, {2, 2}, {1, 1}, {1, 1}}},
		{CartesianPatterns(6, Cartesian), "cart-2d-x", 1, []Step{{3, 5}, {5, 3}}}, // 3x2: (0,1)
		{CartesianPatterns(9, Cartesian), "cart-2d-y", 8, nil},                    // 4x2 on 8: rank 8 idles
		{CartesianPatterns(8, Cartesian), "cart-3d-xyz", 7, []Step{{3, 3}, {3, 3}, {5, 5}, {5, 5}, {6, 6}, {6, 6}}},
		{CartesianPatterns(12, Cartesian), "cart-3d-xyz", 0, []Step{{4, 8}, {8, 4}, {2, 2}, {2, 2}, {1, 1}, {1, 1}}},
		{RingPatterns(5), "ring-1", 0, []Step{{1, 1}, {1, 1}}},
		{RingPatterns(5), "ring-1", 3, []Step{{4, 2}, {2, 4}}},
		{RingPatterns(7), "ring-2", 6, []Step{{4, 5}, {5, 4}}},
		{AnalysisPatterns(5, false), "worst-cycle", 0, []Step{{4, 2}, {2, 4}}}, // cycle 0 4 1 3 2
		{AnalysisPatterns(5, false), "best-bisection", 3, []Step{{None, 2}, {2, None}}},
		{AnalysisPatterns(5, false), "worst-bisection", 0, []Step{{3, None}, {None, 3}}},
		{AnalysisPatterns(5, false), "worst-bisection", 4, nil},
		{AnalysisPatterns(3, false), PingPong, 1, []Step{{None, 0}, {0, None}}},
	} {
		p := find(c.ps, c.name)
		if got := p.Steps[c.rank]; !slices.Equal(got, c.want) && len(got)+len(c.want) > 0 {
			t.Errorf("%s P=%d rank %d: %v, want %v", c.name, len(p.Steps), c.rank, got, c.want)
		}
	}
}

// TestConsistent checks every pattern for P = 2..16, both pattern sets:
// every send has its receive with the same tag (step index), a process
// sends twice to one process only as the ping and pong 2k, 2k+1 of a ring
// of two (one Alltoallv block of both), at most 6 steps, and the message
// counts: two per process in every ring, also a ring of two.
func TestConsistent(t *testing.T) {
	for p := 2; p <= 16; p++ {
		for _, rings := range []bool{false, true} {
			for _, pat := range Patterns(p, rings, 3, 7) {
				consistent(t, p, pat)
			}
		}
	}
}

func consistent(t *testing.T, p int, pat *Pattern) {
	t.Helper()
	if len(pat.Steps) != p {
		t.Fatalf("%s P=%d: %d ranks", pat.Name, p, len(pat.Steps))
	}
	for r, st := range pat.Steps {
		if len(st) > 6 {
			t.Errorf("%s P=%d rank %d: %d steps", pat.Name, p, r, len(st))
		}
		to, from := map[int]int{}, map[int]int{} // rank -> last step + 1
		for s, x := range st {
			if x.To == r || x.From == r {
				t.Errorf("%s P=%d rank %d step %d: talks to itself", pat.Name, p, r, s)
			}
			pairOK := func(prev int) bool { return prev == 0 || (s%2 == 1 && prev == s) }
			if x.To != None {
				if !pairOK(to[x.To]) || s >= len(pat.Steps[x.To]) || pat.Steps[x.To][s].From != r {
					t.Errorf("%s P=%d: send %d->%d step %d unmatched", pat.Name, p, r, x.To, s)
				}
				to[x.To] = s + 1
			}
			if x.From != None {
				if !pairOK(from[x.From]) || s >= len(pat.Steps[x.From]) || pat.Steps[x.From][s].To != r {
					t.Errorf("%s P=%d: receive %d<-%d step %d unmatched", pat.Name, p, r, x.From, s)
				}
				from[x.From] = s + 1
			}
		}
	}
	want := -1
	switch {
	case pat.Group == Random || pat.Group == Ring || pat.Name == "worst-cycle" || pat.Name == "cart-1d-x":
		want = 2 * p
	case pat.Name == PingPong:
		want = 2
	case strings.HasSuffix(pat.Name, "bisection"):
		want = p / 2 * 2
	}
	if want >= 0 && pat.Messages() != want {
		t.Errorf("%s P=%d: %d messages, want %d", pat.Name, p, pat.Messages(), want)
	}
}

// TestMessagesLength2 pins the case: on 2x2 every process sends
// to its left and its right neighbour in each direction, the same process,
// so cart-2d-x has 4·2 = 8 messages (b_eff.c's pong removal gave 4), and
// every two-process ring has 2 per process.
func TestMessagesLength2(t *testing.T) {
	want := map[string]int{"cart-1d-x": 8, "cart-2d-x": 8, "cart-2d-y": 8, "cart-2d-xy": 16,
		"cart-3d-x": 8, "cart-3d-y": 8, "cart-3d-xyz": 16}
	for _, pat := range CartesianPatterns(4, Cartesian) {
		if pat.Messages() != want[pat.Name] {
			t.Errorf("P=4 %s [%s]: %d messages, want %d", pat.Name, pat.Layout, pat.Messages(), want[pat.Name])
		}
	}
	for _, pat := range Patterns(2, true, 1, 1) {
		if pat.Group != Analysis && pat.Messages() != 4 {
			t.Errorf("P=2 %s: %d messages, want 4", pat.Name, pat.Messages())
		}
	}
	if got := Bandwidth(1000, 8, 10, 1e-3); got != 80 {
		t.Errorf("b(L=1000, 8 messages, looplength 10, 1 ms) = %g MB/s, want 80", got)
	}
}

func TestRandomOrder(t *testing.T) {
	a, b := RandomOrder(16, 1, 1), RandomOrder(16, 1, 1)
	if !slices.Equal(a, b) {
		t.Error("same seed, different order")
	}
	if slices.Equal(a, RandomOrder(16, 1, 2)) || slices.Equal(a, RandomOrder(16, 2, 1)) {
		t.Error("different pattern or seed, same order")
	}
	s := slices.Clone(a)
	slices.Sort(s)
	if !slices.Equal(s, seq(0, 16)) {
		t.Errorf("not a permutation: %v", a)
	}
}

// TestGolden pins every pattern's neighbour lists for P = 2..16, both
// pattern sets (3 random patterns, seed 1), in testdata/patterns.golden;
// go test -update rewrites it after a deliberate change.
func TestGolden(t *testing.T) {
	var b strings.Builder
	for p := 2; p <= 16; p++ {
		for _, rings := range []bool{false, true} {
			fmt.Fprintf(&b, "P=%d rings=%v\n", p, rings)
			for _, pat := range Patterns(p, rings, 3, 1) {
				fmt.Fprintf(&b, "  %s %s [%s] messages=%d methods=%v\n", pat.Name, pat.Group, pat.Layout, pat.Messages(), pat.Methods)
				for r, st := range pat.Steps {
					fmt.Fprintf(&b, "    %d:", r)
					for _, s := range st {
						fmt.Fprintf(&b, " %d<%d", s.To, s.From)
					}
					b.WriteString("\n")
				}
			}
		}
	}
	const path = "testdata/patterns.golden"
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s line %d:\ngot  %s\nwant %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
}
