package imb

import (
	"errors"
	"strings"
	"testing"
)

// The rule of IMB 2021.11's IMB_init_buffers_iter against counts worked
// out by hand.
func TestProbeReps(t *testing.T) {
	for _, c := range []struct {
		t1, secs        float64
		sel, msgs, want int
	}{
		{1e-6, 10, 1000, 1000, 1000}, // below 1/MSGSPERSAMPLE: MSGSPERSAMPLE
		{0.004, 10, 1000, 1000, 250}, // 1 s / 4 ms
		{0.003, 10, 100, 1000, 100},  // 333, at most n_sample
		{0.3, 10, 50, 50, 3},         // 3.33 rounded
		{0.15, 10, 50, 50, 7},        // 6.67 rounded
		{2, 10, 50, 50, 1},           // over a second: one
		{0.01, 0.5, 50, 50, 5},       // bound 0.5 s: a 0.05 s probe
		{0.11, 0.5, 50, 50, 1},       // longer than the probe: one
		{0.01, 100, 1000, 1000, 100}, // the probe stays at 1 s above a 10 s bound
	} {
		if got := probeReps(c.t1, c.secs, c.sel, c.msgs); got != c.want {
			t.Errorf("probeReps(%g, %g, %d, %d) = %d, want %d", c.t1, c.secs, c.sel, c.msgs, got, c.want)
		}
	}
}

func TestBoundReps(t *testing.T) {
	for _, c := range []struct {
		t, secs   float64
		sel, want int
	}{
		{0.3, 10, 50, 34},      // 1 + 33.3
		{0.11, 0.5, 50, 5},     // 1 + 4.55
		{0.25, 0.5, 50, 3},     // 1 + 2 exactly
		{20, 10, 1000, 1},      // one repetition is over the bound
		{1e-9, 10, 1000, 1000}, // too fast to tell: n_sample
		{1e-7, 1e9, 7, 7},      // past the int range: n_sample
		{0.001, 10, 1000, 10001},
	} {
		if got := boundReps(c.t, c.secs, c.sel); got != c.want {
			t.Errorf("boundReps(%g, %g, %d) = %d, want %d", c.t, c.secs, c.sel, got, c.want)
		}
	}
}

func TestMonotoneReps(t *testing.T) {
	for _, c := range []struct {
		n, x, sel int
		prev      []lenReps
		want      int
	}{
		{34, 1024, 50, []lenReps{{0, 50}, {512, 40}}, 34}, // below both
		{45, 1024, 50, []lenReps{{0, 50}, {512, 40}}, 40}, // no more than 512 B had
		{5, 8, 50, []lenReps{{16, 20}}, 20},               // -msglen 16, 8: no fewer than 16 B had
		{5000, 0, 1000, nil, 1000},                        // at most n_sample
		{7, 64, 1000, nil, 7},
	} {
		if got := monotone(c.n, c.x, c.sel, c.prev); got != c.want {
			t.Errorf("monotone(%d, %d, %d, %v) = %d, want %d", c.n, c.x, c.sel, c.prev, got, c.want)
		}
	}
}

// TestSkipProbe: the second probe is left out where n_sample repetitions
// of the first take at most half the bound, so small lengths keep IMB
// 3.0's counts at the price of one repetition.
func TestSkipProbe(t *testing.T) {
	for _, c := range []struct {
		t1, secs float64
		sel      int
		want     bool
	}{
		{1e-6, 10, 1000, true},  // 1 ms of 5 s
		{0.005, 10, 1000, true}, // 5 s of 5 s
		{0.0051, 10, 1000, false},
		{0.11, 0.5, 50, false}, // a non-blocking IMB-IO sample
		{0.001, 0.5, 50, true},
	} {
		if got := skipProbe(c.t1, c.secs, c.sel); got != c.want {
			t.Errorf("skipProbe(%g, %g, %d) = %v, want %v", c.t1, c.secs, c.sel, got, c.want)
		}
	}
}

func TestTimeFlag(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want float64
	}{{"0.5", 0.5}, {"10", 10}, {"off", NoTimeLimit}, {"OFF", NoTimeLimit}, {"1e-3", 0.001}} {
		o, err := ParseArgs([]string{"-time", c.arg})
		if err != nil || o.Time != c.want {
			t.Errorf("-time %s: %g, %v; want %g", c.arg, o.Time, err, c.want)
		}
	}
	for _, bad := range []string{"0", "-1", "abc", "NaN", "Inf", "", "1s"} {
		_, err := ParseArgs([]string{"-time=" + bad})
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "-time") {
			t.Errorf("-time %q: want a usage error naming -time, got %v", bad, err)
		}
	}
	for _, s := range []*Suite{MPI1Suite, EXTSuite, IOSuite} {
		c, err := Resolve(s, Options{Multi: -1}, 2, nil)
		if err != nil || c.TimeLimit != map[string]float64{"mpi1": 10, "ext": 10, "io": 0.5}[s.Name] {
			t.Errorf("%s: default bound %v, %v", s.Name, c, err)
		}
		c, err = Resolve(s, Options{Multi: -1, Time: NoTimeLimit}, 2, nil)
		if err != nil || c.TimeLimit != NoTimeLimit {
			t.Errorf("%s -time off: %v, %v", s.Name, c, err)
		}
	}
}

// TestCountFixed: a count of 1 skips the probes, and the whole rule of
// IMB 2021.11 gives 1 there whatever the probes would have measured, so
// the skip changes no count.
func TestCountFixed(t *testing.T) {
	for sel, want := range map[int]bool{0: true, 1: true, 2: false, 1000: false} {
		if got := countFixed(sel); got != want {
			t.Errorf("countFixed(%d) = %v, want %v", sel, got, want)
		}
	}
	prevs := [][]lenReps{nil, {{1 << 20, 40}}, {{1 << 30, 2}, {1 << 32, 1}}, {{1 << 33, 7}}}
	for _, tm := range []float64{1e-9, 1e-6, 0.01, 0.5, 3, 40} {
		for _, secs := range []float64{0.5, 10, 1e9} {
			for _, prev := range prevs {
				n := monotone(boundReps(tm, secs, 1), 1<<31, 1, prev)
				if n != 1 {
					t.Errorf("t %g, bound %g, before %v: IMB's rule gives %d at a count of 1, want 1", tm, secs, prev, n)
				}
			}
		}
	}
}
