package method

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// warmup is the time the synthetic samplers report for the warm-up call:
// so large that counting it would show in Max and Mean.
const warmup = 1e9

// script returns a Sample that reports warmup first and then the times of
// next(i) for i = 0, 1, 2, ..., and a counter of its calls.
func script(next func(i int) float64) (Sample, *int) {
	calls := 0
	return func() (float64, error) {
		calls++
		if calls == 1 {
			return warmup, nil
		}
		return next(calls - 2), nil
	}, &calls
}

func fixed(ts ...float64) func(int) float64 {
	return func(i int) float64 { return ts[i%len(ts)] }
}

func mustRun(t *testing.T, a Adaptive, s Sample, empty float64, d Decide) Result {
	t.Helper()
	r, err := a.Run(s, empty, d)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return r
}

func TestTrimmedIgnoresOutliers(t *testing.T) {
	s, _ := script(fixed(10, 11, 12, 13, 14, 15, 1000, 0.001))
	r := mustRun(t, Adaptive{MinReps: 8, MaxReps: 8, TimeLimit: -1}, s, 0, Local)
	// Sorted: 0.001 10 | 11 12 13 14 | 15 1000; 8/4 = 2 dropped each
	// end, (11+12+13+14)/4 = 12.5. The plain mean 1075.001/8 = 134.375125
	// is pulled up by the 1000; the median is (12+13)/2 = 12.5.
	if r.N != 8 || r.Trimmed != 12.5 {
		t.Errorf("N = %d, Trimmed = %v; want 8, 12.5", r.N, r.Trimmed)
	}
	if math.Abs(r.Mean-1075.001/8) > 1e-9 || r.Min != 0.001 || r.Max != 1000 || r.Median != 12.5 {
		t.Errorf("summary %+v: want Mean 1075.001/8, Min 0.001, Median 12.5, Max 1000", r.Summary)
	}
}

func TestConstantStopsAtMinReps(t *testing.T) {
	s, _ := script(fixed(1e-6))
	// σ = 0 from the second sample on, so only MinReps holds it back.
	r := mustRun(t, Adaptive{MinReps: 5, MaxReps: 100}, s, 0, Local)
	if r.N != 5 || !r.Reached || r.RelErr != 0 {
		t.Errorf("N = %d, Reached = %v, RelErr = %v; want 5, true, 0", r.N, r.Reached, r.RelErr)
	}
}

func TestZeroPolicyUsesDefaults(t *testing.T) {
	s, _ := script(fixed(1e-6))
	if r := mustRun(t, Adaptive{}, s, 0, Local); r.N != DefaultMinReps {
		t.Errorf("N = %d, want DefaultMinReps = %d", r.N, DefaultMinReps)
	}
	// The trimmed mean of 1, 3, 1, 3, ... µs has half ones and half
	// threes, relative error 1/(2√(n/2)): ε = 3 % needs n > 555, ε = 0.1 %
	// half a million, more than the default bound.
	s, _ = script(fixed(1e-6, 3e-6))
	if r := mustRun(t, Adaptive{}, s, 0, Local); r.N != 556 || !r.Reached {
		t.Errorf("N = %d, Reached = %v; want 556, true", r.N, r.Reached)
	}
	s, _ = script(fixed(1e-6, 3e-6))
	if r := mustRun(t, Adaptive{Epsilon: 0.001}, s, 0, Local); r.N != DefaultMaxReps || r.Reached || r.Stop != StopMaxReps {
		t.Errorf("N = %d, Reached = %v; want DefaultMaxReps = %d, false", r.N, r.Reached, DefaultMaxReps)
	}
}

func TestNoisyStopsWhenErrorCrossesEpsilon(t *testing.T) {
	// Samples 1, 3, 1, 3, ...; ε = 0.1. The rule looks at the trimmed
	// mean: the middle half [n/4, 3n/4] of the sorted samples.
	// Even n: it holds n/4 ones and n/4 threes, x̄ = 2, σ = 1,
	//   σ/√(n/2) / x̄ = 1/(2√(n/2)) < 0.1 ⇔ n > 50; n = 50 is 0.1 exactly.
	// Odd n = 51 (26 ones, 25 threes): [12.75, 38.25] holds 13.25 of
	//   ones and 12.25 of threes, x̄ = 50/25.5 = 1.96078, the share of
	//   ones p = 53/102, σ² = 4p(1−p) = 0.99846, σ/√25.5 = 0.19788,
	//   /x̄ = 0.10092, not yet.
	// n = 52: 1/(2·√26) = 0.09806 < 0.1: stop at 52.
	s, _ := script(fixed(1, 3))
	r := mustRun(t, Adaptive{Epsilon: 0.1, MinReps: 2, MaxReps: 1000, TimeLimit: -1}, s, 0, Local)
	if r.N != 52 || !r.Reached || r.Stop != StopEpsilon {
		t.Fatalf("N = %d, Reached = %v, Stop %q; want 52, true, epsilon", r.N, r.Reached, r.Stop)
	}
	if want := 1 / (2 * math.Sqrt(26)); math.Abs(r.RelErr-want) > 1e-12 {
		t.Errorf("RelErr = %v, want %v", r.RelErr, want)
	}
}

func TestMaxRepsBound(t *testing.T) {
	// At ε = 1 % the 1, 3 sequence would need n > 5000.
	s, _ := script(fixed(1, 3))
	r := mustRun(t, Adaptive{Epsilon: 0.01, MinReps: 2, MaxReps: 40, TimeLimit: -1}, s, 0, Local)
	if r.N != 40 || len(r.Samples) != 40 || r.Reached || r.Stop != StopMaxReps {
		t.Errorf("N = %d, samples %d, Reached = %v; want 40, 40, false", r.N, len(r.Samples), r.Reached)
	}
}

func TestTickRule(t *testing.T) {
	// Constant 0.25 s samples, Tick 0.25 s, ε = 0.125: the total must
	// reach 0.25/0.125 = 2 s, so n = 8 although σ = 0 from n = 2 on.
	// (Binary fractions, so the sums are exact.)
	s, _ := script(fixed(0.25))
	r := mustRun(t, Adaptive{Epsilon: 0.125, MinReps: 2, MaxReps: 100, Tick: 0.25, TimeLimit: -1}, s, 0, Local)
	if r.N != 8 || !r.Reached {
		t.Errorf("with Tick: N = %d, Reached = %v; want 8, true", r.N, r.Reached)
	}
	s, _ = script(fixed(0.25))
	if r := mustRun(t, Adaptive{Epsilon: 0.125, MinReps: 2, MaxReps: 100}, s, 0, Local); r.N != 2 {
		t.Errorf("without Tick: N = %d, want 2", r.N)
	}
	// A clock too coarse for the count bound: never Reached.
	s, _ = script(fixed(0.25))
	r = mustRun(t, Adaptive{Epsilon: 0.125, MinReps: 2, MaxReps: 5, Tick: 0.25, TimeLimit: -1}, s, 0, Local)
	if r.N != 5 || r.Reached {
		t.Errorf("coarse clock: N = %d, Reached = %v; want 5, false", r.N, r.Reached)
	}
}

func TestWarmupMadeAndNotCounted(t *testing.T) {
	s, calls := script(fixed(2, 2))
	r := mustRun(t, Adaptive{MinReps: 4, MaxReps: 4, TimeLimit: -1}, s, 0, Local)
	if *calls != 5 {
		t.Errorf("sample called %d times, want 4 repetitions + 1 warm-up", *calls)
	}
	if r.N != 4 || r.Max != 2 || slices.Contains(r.Samples, warmup) {
		t.Errorf("warm-up time counted: %+v, samples %v", r.Summary, r.Samples)
	}
}

func TestDecideCalledEveryRepetition(t *testing.T) {
	var votes []bool
	record := func(stop bool) (bool, error) {
		votes = append(votes, stop)
		return stop, nil
	}
	s, _ := script(fixed(1e-6))
	r := mustRun(t, Adaptive{MinReps: 6, MaxReps: 50}, s, 0, record)
	want := []bool{false, false, false, false, false, true}
	if r.N != 6 || !slices.Equal(votes, want) {
		t.Errorf("N = %d, votes %v; want 6, %v", r.N, votes, want)
	}
}

func TestDecideWins(t *testing.T) {
	// Another rank's vote to stop early is obeyed (N = 1 < MinReps) ...
	always := func(stop bool) (bool, error) { return true, nil }
	s, _ := script(fixed(1, 3))
	if r := mustRun(t, Adaptive{MinReps: 8, MaxReps: 50}, s, 0, always); r.N != 1 || r.Reached {
		t.Errorf("decide true: N = %d, Reached = %v; want 1, false", r.N, r.Reached)
	}
	// ... and so is its vote to go on past the point where this rank's
	// samples are precise, as the timing rank's broadcast would be.
	calls := 0
	fifth := func(stop bool) (bool, error) { calls++; return calls == 5, nil }
	s, _ = script(fixed(1e-6))
	if r := mustRun(t, Adaptive{MinReps: 2, MaxReps: 50}, s, 0, fifth); r.N != 5 || !r.Reached {
		t.Errorf("decide at 5: N = %d, Reached = %v; want 5, true", r.N, r.Reached)
	}
	// MaxReps is a hard bound even against a Decide that never stops.
	var votes []bool
	never := func(stop bool) (bool, error) { votes = append(votes, stop); return false, nil }
	s, _ = script(fixed(1e-6))
	if r := mustRun(t, Adaptive{MinReps: 2, MaxReps: 7}, s, 0, never); r.N != 7 || len(votes) != 7 || !votes[6] {
		t.Errorf("decide false: N = %d, votes %v; want 7 with the last vote true", r.N, votes)
	}
}

func TestCorrection(t *testing.T) {
	s, _ := script(fixed(2, 2, 4, 8))
	r := mustRun(t, Adaptive{MinReps: 4, MaxReps: 4, TimeLimit: -1}, s, 0.5, Local)
	// Raw 2 2 4 8: mean 4, trimmed (2+4)/2 = 3, median 3, min 2, max 8,
	// σ = √((4+4+0+16)/4) = √6, stderr √6/2; trimmed σ = 1, its stderr
	// 1/√2; every location figure − 0.5.
	want := r.Summary
	want.Mean, want.Trimmed, want.Min, want.Median, want.Max = 3.5, 2.5, 1.5, 2.5, 7.5
	if r.Summary != want || math.Abs(r.StdErr-math.Sqrt(6)/2) > 1e-15 || math.Abs(r.TrimmedStdErr-1/math.Sqrt2) > 1e-15 {
		t.Errorf("corrected summary %+v, want %+v with StdErr √6/2, TrimmedStdErr 1/√2", r.Summary, want)
	}
	if r.Correction != 0.5 || !slices.Equal(r.Samples, []float64{2, 2, 4, 8}) {
		t.Errorf("Correction %v, samples %v; want 0.5 and the raw samples", r.Correction, r.Samples)
	}
	if math.Abs(r.RelErr-1/(3*math.Sqrt2)) > 1e-15 {
		t.Errorf("RelErr %v is not of the raw trimmed mean (1/√2 / 3)", r.RelErr)
	}
}

func TestErrors(t *testing.T) {
	boom := errors.New("boom")
	failWarmup := func() (float64, error) { return 0, boom }
	if _, err := (Adaptive{}).Run(failWarmup, 0, Local); !errors.Is(err, boom) {
		t.Errorf("warm-up error: got %v", err)
	}
	calls := 0
	failThird := func() (float64, error) {
		calls++
		if calls == 4 { // warm-up + 2 good repetitions
			return 0, boom
		}
		return 1, nil
	}
	r, err := (Adaptive{MinReps: 10, MaxReps: 10, TimeLimit: -1}).Run(failThird, 0, Local)
	if !errors.Is(err, boom) || r.N != 2 {
		t.Errorf("sample error: got %v with N = %d, want boom with N = 2", err, r.N)
	}
	failDecide := func(bool) (bool, error) { return false, boom }
	s, _ := script(fixed(1))
	if _, err := (Adaptive{}).Run(s, 0, failDecide); !errors.Is(err, boom) {
		t.Errorf("decide error: got %v", err)
	}
	for _, a := range []Adaptive{
		{Epsilon: -0.1}, {Epsilon: math.NaN()}, {MinReps: -1}, {MinReps: 10, MaxReps: 5}, {Tick: -1}, {Tick: math.Inf(1)},
		{TimeLimit: math.NaN()}, {TimeLimit: math.Inf(1)},
	} {
		s, calls := script(fixed(1))
		if _, err := a.Run(s, 0, Local); err == nil || *calls != 0 {
			t.Errorf("%+v: err = %v after %d calls, want an error before any call", a, err, *calls)
		}
	}
}

// The figures and the stop decision of a point, recomputed by hand from
// its samples for n = 4k, 4k+1, 4k+2, 4k+3 (k = 2). The trimmed mean keeps
// exactly the middle half: sorted sample i covers [i−1, i] and counts
// with its part of [n/4, 3n/4]; rel = σ/√(n/2) / trimmed, σ² the weighted
// Σw(x−x̄)²/Σw. Each middle is asymmetric, so dropping ⌊n/4⌋ whole
// samples, or stopping on the plain mean, gives other figures.
var byHand = []struct {
	samples      []float64 // µs, in the order taken
	trimmed, rel float64
}{
	// 0.5 1 | 2 3 4 5 | 6 100: x̄ = 3.5, σ² = 5/4, σ/√4 = √5/4.
	{[]float64{100, 1, 2, 3, 4, 5, 6, 0.5}, 3.5, math.Sqrt(5) / 4 / 3.5},
	// Weights 0 0 3/4 1 1 1 3/4 0 0 on 0.5 1 2 3 4 5 10 11 100:
	// x̄ = (1.5+3+4+5+7.5)/4.5 = 14/3; Σw(x−x̄)² = 30, σ² = 20/3,
	// σ²/4.5 = 40/27.
	{[]float64{0.5, 1, 2, 3, 4, 5, 10, 11, 100}, 14.0 / 3, math.Sqrt(40.0/27) / (14.0 / 3)},
	// Weights 0 0 1/2 1 1 1 1 1/2 0 0 on 0.5 1 2 3 4 5 6 17 50 90:
	// x̄ = (1+18+8.5)/5 = 5.5; Σw(x−x̄)² = 81.25, σ² = 65/4, σ²/5 = 13/4.
	{[]float64{90, 0.5, 1, 2, 3, 4, 5, 6, 17, 50}, 5.5, math.Sqrt(13) / 2 / 5.5},
	// Weights 0 0 1/4 1 1 1 1 1 1/4 0 0 on 0.25 0.5 1 2 3 4 5 6 29 40 90:
	// x̄ = (0.25+20+7.25)/5.5 = 5; Σw(x−x̄)² = 4+15+144 = 163,
	// σ² = 163/5.5, σ²/5.5 = 652/121.
	{[]float64{0.25, 0.5, 1, 2, 3, 4, 5, 6, 29, 40, 90}, 5, math.Sqrt(652) / 11 / 5},
}

func TestStopDecisionByHand(t *testing.T) {
	for _, c := range byHand {
		n := len(c.samples)
		us := make([]float64, n)
		for i, x := range c.samples {
			us[i] = x * 1e-6
		}
		for _, f := range []float64{1.001, 0.999} {
			s, _ := script(fixed(us...))
			a := Adaptive{Epsilon: c.rel * f, MinReps: n, MaxReps: n, TimeLimit: -1}
			r := mustRun(t, a, s, 0.25e-6, Local)
			wantStop := StopEpsilon // ε just above rel: reached
			if f < 1 {
				wantStop = StopMaxReps // just below: the count bound ends it
			}
			if r.N != n || r.Stop != wantStop || r.Reached != (f > 1) {
				t.Errorf("n = %d, ε = rel·%v: N = %d, stop %q, reached %v; want %d, %q, %v",
					n, f, r.N, r.Stop, r.Reached, n, wantStop, f > 1)
			}
			if f < 1 {
				continue
			}
			if math.Abs(r.Trimmed-(c.trimmed-0.25)*1e-6) > 1e-18 || math.Abs(r.RelErr-c.rel) > 1e-12 ||
				math.Abs(r.TrimmedStdErr-c.rel*c.trimmed*1e-6) > 1e-18 {
				t.Errorf("n = %d: trimmed %v (corrected by 0.25 µs), rel %v; want %v µs, %v",
					n, r.Trimmed, r.RelErr, c.trimmed-0.25, c.rel)
			}
		}
	}
}

// The time bound stops a point whose samples add up to TimeLimit, before
// MinReps, not reached; a negative limit is none.
func TestTimeLimit(t *testing.T) {
	s, _ := script(fixed(0.25))
	r := mustRun(t, Adaptive{MinReps: 8, MaxReps: 100, TimeLimit: 1}, s, 0, Local)
	if r.N != 4 || r.Reached || r.Stop != StopTime || r.Policy.TimeLimit != 1 {
		t.Errorf("N = %d, reached %v, stop %q, policy %+v; want 4 samples of 0.25 s, false, time_limit",
			r.N, r.Reached, r.Stop, r.Policy)
	}
	s, _ = script(fixed(0.25))
	if r := mustRun(t, Adaptive{MinReps: 8, MaxReps: 100, TimeLimit: -1}, s, 0, Local); r.N != 8 || r.Stop != StopEpsilon {
		t.Errorf("no limit: N = %d, stop %q; want 8, epsilon", r.N, r.Stop)
	}
	s, _ = script(fixed(1e-6))
	if r := mustRun(t, Adaptive{}, s, 0, Local); r.Policy.TimeLimit != DefaultTimeLimit || r.Policy.MaxReps != DefaultMaxReps {
		t.Errorf("zero policy recorded as %+v, want the defaults filled in", r.Policy)
	}
}
