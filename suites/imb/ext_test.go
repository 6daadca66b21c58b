package imb

import (
	"slices"
	"testing"

	"mpibench/suites/imb/kernel"
)

// The expectations here come from sections 4.2.2.2, 4.2.3, 5.2.8.2 and
// 7.1 of the IMB guide and IMB's benchmark table (IMB_parse_name_ext.c,
// IMB_bnames_ext.h), written down independently of ext.go.

func TestEXTTable(t *testing.T) {
	type row struct {
		name      string
		class     Class
		reduction bool
		factor    float64
		timeScale float64
		modes     int // 2: aggregate, then non-aggregate; 0: no MODE line
		op        kernel.RMAOp
		flow      RMAFlow
	}
	want := []row{
		{"Window", Collective, true, 0, 1, 0, 0, RMAWindowCycle},
		{"Unidir_Get", SingleTransfer, false, 1, 1, 2, kernel.RMAGet, RMAOneWay},
		{"Unidir_Put", SingleTransfer, false, 1, 1, 2, kernel.RMAPut, RMAOneWay},
		{"Bidir_Get", SingleTransfer, false, 1, 1, 2, kernel.RMAGet, RMATwoWay},
		{"Bidir_Put", SingleTransfer, false, 1, 1, 2, kernel.RMAPut, RMATwoWay},
		{"Accumulate", Collective, true, 0, 1, 2, kernel.RMAAccumulate, RMAToRoot},
	}
	if len(EXT) != len(want) {
		t.Fatalf("EXT has %d benchmarks, want %d", len(EXT), len(want))
	}
	for i, w := range want {
		b := EXT[i]
		if b.RMA == nil || b.IO != nil || b.NoBytes {
			t.Fatalf("%s: RMA %v IO %v NoBytes %v, want an RMA spec only", b.Name, b.RMA, b.IO, b.NoBytes)
		}
		got := row{b.Name, b.Class, b.Reduction, b.Factor, b.TimeScale, len(b.Modes), b.RMA.Op, b.RMA.Flow}
		if got != w {
			t.Errorf("EXT[%d] = %+v, want %+v", i, got, w)
		}
		if w.modes == 2 && !slices.Equal(b.Modes, []Mode{Aggregate, NonAggregate}) {
			t.Errorf("%s: modes %v, want aggregate then non-aggregate", b.Name, b.Modes)
		}
	}
	if got := EXTSuite.Names(); !slices.Equal(got, []string{"Window", "Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put", "Accumulate"}) {
		t.Errorf("EXT suite order %v", got)
	}
}

func extBench(t *testing.T, name string) *Benchmark {
	t.Helper()
	b, ok := EXTSuite.Lookup(name)
	if !ok {
		t.Fatalf("no EXT benchmark %s", name)
	}
	return b
}

// TestEXTRoles: Unidir moves data from rank 0 to rank 1 (rank 0 puts,
// rank 1 gets), Bidir both ways, Accumulate from every rank to root 0.
func TestEXTRoles(t *testing.T) {
	cases := []struct {
		name    string
		targets []int // per rank; -1: fences only
		sources []int // per rank: whose pattern it holds afterwards; -1 none
	}{
		{"Unidir_Put", []int{1, -1}, []int{-1, 0}},
		{"Unidir_Get", []int{-1, 0}, []int{-1, 0}},
		{"Bidir_Put", []int{1, 0}, []int{1, 0}},
		{"Bidir_Get", []int{1, 0}, []int{1, 0}},
		{"Accumulate", []int{0}, []int{-1}},
		{"Accumulate", []int{0, 0, 0, 0}, []int{-1, -1, -1, -1}},
	}
	for _, c := range cases {
		s := extBench(t, c.name).RMA
		for r, want := range c.targets {
			if got := s.target(r); got != want {
				t.Errorf("%s: target(%d) = %d, want %d", c.name, r, got, want)
			}
		}
		for r, want := range c.sources {
			if got := s.source(r); got != want {
				t.Errorf("%s: source(%d) = %d, want %d", c.name, r, got, want)
			}
		}
	}
}

// TestEXTOpenFence: IMB's aggregate Put/Get kernels fence once more before
// their barriers; non-aggregate kernels and Accumulate do not.
func TestEXTOpenFence(t *testing.T) {
	for _, b := range EXT[1:] {
		for _, m := range b.Modes {
			want := m == Aggregate && b.Name != "Accumulate"
			if got := b.RMA.openFence(m); got != want {
				t.Errorf("%s %v: opening fence %v, want %v", b.Name, m, got, want)
			}
		}
	}
}

var extTestLens = []int{0, 1, 4, 1000, 1024, 41943, 65536, 419430, 1 << 20, 4 << 20}

// TestEXTSections: in aggregate mode the n_sample transfers of a sample go
// to disjoint consecutive sections that fill the window exactly; in
// non-aggregate mode (M = 1) every transfer uses the window's one section.
func TestEXTSections(t *testing.T) {
	set := &EXTSuite.Settings
	for _, x := range extTestLens {
		for _, m := range []Mode{Aggregate, NonAggregate} {
			reps := set.Repetitions(x, m)
			wantM := 1
			if m == Aggregate {
				wantM = reps
			}
			if got := rmaSections(set, x, m); got != wantM {
				t.Errorf("x=%d %v: M = %d, want %d", x, m, got, wantM)
			}
			size := rmaWindowSize(set, x, m)
			if size != wantM*x {
				t.Errorf("x=%d %v: window %d bytes, want M·x = %d", x, m, size, wantM*x)
			}
			covered := 0
			for i := 0; i < reps; i++ {
				off := rmaOffset(i, x, m)
				want := 0
				if m == Aggregate {
					want = covered // right after the previous section: disjoint, no gap
				}
				if off != want || off+x > size {
					t.Fatalf("x=%d %v: transfer %d at %d, want %d inside the %d-byte window", x, m, i, off, want, size)
				}
				covered = off + x
			}
			if covered != size {
				t.Errorf("x=%d %v: transfers cover %d of %d window bytes", x, m, covered, size)
			}
		}
	}
}

// TestEXTRepetitionCounts: the counts the runner executes (section
// 5.2.8): MSGSPERSAMPLE 1000 aggregate and MSGS_NONAGGR 100 non-aggregate,
// bounded by OVERALL_VOL/X (40 MiB); the Window benchmark has no mode and
// runs MSGSPERSAMPLE.
func TestEXTRepetitionCounts(t *testing.T) {
	set := &EXTSuite.Settings
	for _, x := range extTestLens {
		bound := 1 << 30
		if x > 0 {
			bound = max(1, 40*(1<<20)/x)
		}
		if got, want := set.Repetitions(x, Aggregate), min(1000, bound); got != want {
			t.Errorf("aggregate x=%d: %d repetitions, want %d", x, got, want)
		}
		if got, want := set.Repetitions(x, NonAggregate), min(100, bound); got != want {
			t.Errorf("non-aggregate x=%d: %d repetitions, want %d", x, got, want)
		}
		if got, want := set.Repetitions(x, NoMode), min(1000, bound); got != want {
			t.Errorf("Window x=%d: %d repetitions, want %d", x, got, want)
		}
	}
}

// TestEXTBufferSize: each buffer holds the largest window, never more than
// max(X, OVERALL_VOL) (section 7.1: 2·max(X, OVERALL_VOL) per process).
func TestEXTBufferSize(t *testing.T) {
	set := &EXTSuite.Settings
	for _, b := range EXT {
		for _, x := range extTestLens {
			got := rmaBufferSize(&b, set, []int{0, x})
			want := x // Window: a window of x bytes
			if b.Modes != nil {
				want = set.Repetitions(x, Aggregate) * x
			}
			if got != want || got > max(x, set.OverallVol) {
				t.Errorf("%s x=%d: buffer %d bytes, want %d <= max(x, OVERALL_VOL)", b.Name, x, got, want)
			}
		}
	}
	lens := []int{0, 1, 65536, 1024}
	if got := rmaBufferSize(extBench(t, "Unidir_Put"), set, lens); got != 640*65536 {
		t.Errorf("buffer for %v: %d, want 640·65536", lens, got)
	}
}
