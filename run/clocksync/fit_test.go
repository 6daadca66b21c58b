package clocksync

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.15g, want %.15g (±%g)", what, got, want, tol)
	}
}

// TestFitDrift: a line with noise, fitted against the exact solution of
// the normal equations computed with rationals (Python fractions):
// a = 2501/250, b = 999/500, slope SE = sqrt(0.00036/3/10), max residual
// 3/250.
func TestFitDrift(t *testing.T) {
	noise := []float64{0.01, -0.01, 0, 0.01, -0.01}
	var pts []Point
	for i, e := range noise {
		x := float64(i)
		pts = append(pts, Point{X: x, Off: 10 + 2*x + e, RTT: 0.002})
	}
	f := FitPoints(pts)
	if !f.Drift {
		t.Fatalf("slope %g (SE %g) not kept", f.Slope, f.SlopeSE)
	}
	near(t, "intercept", f.Intercept, 2501.0/250, 1e-12)
	near(t, "slope", f.Slope, 999.0/500, 1e-12)
	near(t, "slope SE", f.SlopeSE, 0.0034641016151377548, 1e-12)
	near(t, "error", f.Err, 3.0/250+0.001, 1e-12)
}

// TestFitNoDrift: slope 1.1 with standard error 0.5196 (hand computed:
// x̄ = 1.5, ȳ = 2.75, Sxx = 5, Sxy = 5.5, residual SS 2.7) is not 3 SE
// from 0, so the model is the mean offset 2.75 and the error the largest
// distance from it, 2.25, plus half the round trip.
func TestFitNoDrift(t *testing.T) {
	pts := []Point{{0, 1, 0.5}, {1, 3, 0.5}, {2, 2, 0.5}, {3, 5, 0.5}}
	f := FitPoints(pts)
	if f.Drift || f.Slope != 0 {
		t.Fatalf("drift kept: slope %g", f.Slope)
	}
	near(t, "slope SE", f.SlopeSE, math.Sqrt(1.35/5), 1e-12)
	near(t, "intercept", f.Intercept, 2.75, 1e-12)
	near(t, "error", f.Err, 2.25+0.25, 1e-12)
}

// TestFitLargeClock: an exact drift of 10 ppm at clock values near 10^6 s
// (MPICH's MPI_Wtime counts from boot) over 20 ms is recovered: the
// centred sums keep the precision.
func TestFitLargeClock(t *testing.T) {
	var pts []Point
	for i := range 20 {
		x := 1e6 + float64(i)*1e-3
		pts = append(pts, Point{X: x, Off: -3.5 + 1e-5*x})
	}
	f := FitPoints(pts)
	m := f.Model()
	for _, x := range []float64{1e6, 1e6 + 0.5, 1e6 + 100} {
		near(t, "global", m.Global(x), x-3.5+1e-5*x, 1e-9)
		near(t, "local", m.Local(m.Global(x)), x, 1e-9)
	}
}

// TestThen: a client 2 s behind and 1 ppm fast against a reference that
// is itself 5 s ahead of rank 0 with no drift: global = (t + 2 + 1e-6·t) - 5.
func TestThen(t *testing.T) {
	client := Model{A: 2, S: 1 + 1e-6, Err: 1e-6}
	ref := Model{A: -5, S: 1, Err: 2e-6}
	g := client.Then(ref)
	for _, x := range []float64{0, 10, 1e5} {
		near(t, "global", g.Global(x), x+2+1e-6*x-5, 1e-9)
	}
	near(t, "error", g.Err, 3e-6, 1e-18)
}

// TestTally: late repetitions are excluded and counted; the others' time
// is the latest end minus their start.
func TestTally(t *testing.T) {
	r := Tally([]float64{10.5, 11.9, 12.2}, []float64{0.5e-6, 2.1e-6, 1.9e-6}, 10, 1, 2e-6)
	if r.Valid != 2 || r.Invalid != 1 {
		t.Fatalf("valid %d invalid %d, want 2 and 1", r.Valid, r.Invalid)
	}
	near(t, "rep 0", r.Times[0], 0.5, 1e-12)
	near(t, "rep 2", r.Times[1], 0.2, 1e-12)
	near(t, "mean", r.Mean(), 0.35, 1e-12)
	near(t, "median", r.Median(), 0.35, 1e-12)
	near(t, "start lag", r.StartLag(), 1.9e-6, 1e-18)
}

func TestParseMethod(t *testing.T) {
	for in, want := range map[string]string{"on": Barrier, "barrier": Barrier, "off": None, "none": None, "window": Window} {
		if got, err := ParseMethod(in); err != nil || got != want {
			t.Errorf("ParseMethod(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseMethod("windows"); err == nil {
		t.Error("ParseMethod(windows) accepted")
	}
}

// TestFast: of round trips 1, 2, 2, 3, 9 µs (median 2) the 9 µs point goes,
// 4 µs and below stay.
func TestFast(t *testing.T) {
	pts := []Point{{0, 0, 2e-6}, {1, 0, 9e-6}, {2, 0, 1e-6}, {3, 0, 3e-6}, {4, 0, 2e-6}}
	got := Fast(pts)
	if len(got) != 4 {
		t.Fatalf("kept %v, want 4 points", got)
	}
	for _, p := range got {
		if p.X == 1 {
			t.Errorf("kept the slow point %v", p)
		}
	}
}
