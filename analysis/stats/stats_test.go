package stats

import (
	"math"
	"slices"
	"testing"
)

// close reports whether a and b agree to about 12 significant digits;
// the references below are computed by hand, so they are exact up to the
// rounding of the last operation.
func close(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// want is a Summary computed by hand, one case per row.
var summaryCases = []struct {
	name string
	x    []float64
	want Summary
}{
	{
		// n = 1: no spread; the one sample has weight 1/2 (its interval
		// [0, 1] inside [1/4, 3/4]), so the trimmed mean is 7, σ = 0.
		name: "one",
		x:    []float64{7},
		want: Summary{N: 1, Mean: 7, Trimmed: 7, StdErr: 0, TrimmedStdErr: 0, Min: 7, Median: 7, Max: 7},
	},
	{
		// n = 2: x̄ = 2, deviations ±1, σ² = (1+1)/2 = 1, σ/√2 = 1/√2.
		// Trimmed: [1/2, 3/2] keeps half of each sample, mean 2, σ = 1,
		// σ/√(2/2) = 1. Median (1+3)/2 = 2.
		name: "two",
		x:    []float64{3, 1},
		want: Summary{N: 2, Mean: 2, Trimmed: 2, StdErr: 1 / math.Sqrt2, TrimmedStdErr: 1, Min: 1, Median: 2, Max: 3},
	},
	{
		// n = 4, even: x̄ = 10/4 = 2.5; squared deviations 2.25+0.25+0.25+2.25
		// = 5, σ² = 5/4, σ = √1.25, σ/√4 = √1.25/2. Trim 1 from each end:
		// {2, 3} → 2.5, σ = 1/2, σ/√2. Median (2+3)/2 = 2.5.
		name: "four",
		x:    []float64{4, 1, 3, 2},
		want: Summary{N: 4, Mean: 2.5, Trimmed: 2.5, StdErr: math.Sqrt(1.25) / 2, TrimmedStdErr: 0.5 / math.Sqrt2, Min: 1, Median: 2.5, Max: 4},
	},
	{
		// n = 5, odd, one outlier: x̄ = 110/5 = 22; deviations −21, −20,
		// −19, −18, 78, squares 441+400+361+324+6084 = 7610, σ² = 1522,
		// σ/√5 = √(1522/5) = √304.4. Trimmed: weights 0, 3/4, 1, 3/4, 0 on
		// 1 2 3 4 100, (1.5+3+3)/2.5 = 3, so the outlier 100 is ignored;
		// σ² = (3/4+3/4)/2.5 = 0.6, σ/√2.5 = √0.24. Median 3.
		name: "odd with outlier",
		x:    []float64{100, 3, 1, 4, 2},
		want: Summary{N: 5, Mean: 22, Trimmed: 3, StdErr: math.Sqrt(304.4), TrimmedStdErr: math.Sqrt(0.24), Min: 1, Median: 3, Max: 100},
	},
	{
		// n = 6 with ties: Σ = 25, x̄ = 25/6; deviations −13/6 (three
		// times), 5/6 (twice), 29/6; Σd² = (3·169 + 2·25 + 841)/36 = 1398/36,
		// σ² = 1398/216, σ/√6 = √(1398/1296). Trimmed: weights 0, 1/2, 1,
		// 1, 1/2, 0 on 2 2 2 5 5 9: (1+2+5+2.5)/3 = 3.5, every kept
		// sample 1.5 away, σ = 1.5, σ/√3 = √0.75. Median (2+5)/2 = 3.5.
		name: "ties",
		x:    []float64{5, 2, 9, 2, 5, 2},
		want: Summary{N: 6, Mean: 25.0 / 6, Trimmed: 3.5, StdErr: math.Sqrt(1398.0 / 1296), TrimmedStdErr: math.Sqrt(0.75), Min: 2, Median: 3.5, Max: 9},
	},
}

func TestSummarize(t *testing.T) {
	for _, c := range summaryCases {
		got := Summarize(c.x)
		if got.N != c.want.N || !close(got.Mean, c.want.Mean) || !close(got.Trimmed, c.want.Trimmed) ||
			!close(got.StdErr, c.want.StdErr) || !close(got.TrimmedStdErr, c.want.TrimmedStdErr) || got.Min != c.want.Min || !close(got.Median, c.want.Median) ||
			got.Max != c.want.Max {
			t.Errorf("%s: Summarize(%v) = %+v, want %+v", c.name, c.x, got, c.want)
		}
	}
}

// The single functions must agree with the Summary row by row.
func TestFunctions(t *testing.T) {
	for _, c := range summaryCases {
		w := c.want
		checks := []struct {
			what      string
			got, want float64
		}{
			{"Mean", Mean(c.x), w.Mean},
			{"TrimmedMean", TrimmedMean(c.x), w.Trimmed},
			{"StdErr", StdErr(c.x), w.StdErr},
			{"TrimmedStdErr", TrimmedStdErr(c.x), w.TrimmedStdErr},
			{"StdDev", StdDev(c.x), w.StdErr * math.Sqrt(float64(w.N))},
			{"Min", Min(c.x), w.Min},
			{"Median", Median(c.x), w.Median},
			{"Max", Max(c.x), w.Max},
		}
		for _, k := range checks {
			if !close(k.got, k.want) {
				t.Errorf("%s: %s(%v) = %v, want %v", c.name, k.what, c.x, k.got, k.want)
			}
		}
	}
}

func TestStdDevDividesByN(t *testing.T) {
	// {2, 4, 4, 4, 5, 5, 7, 9}: x̄ = 5, Σd² = 9+1+1+1+0+0+4+16 = 32,
	// 32/8 = 4, σ = 2 (with n−1 it would be √(32/7) ≈ 2.14).
	x := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	if got := StdDev(x); !close(got, 2) {
		t.Errorf("StdDev = %v, want 2", got)
	}
	if got := StdErr(x); !close(got, 2/math.Sqrt(8)) {
		t.Errorf("StdErr = %v, want 2/√8", got)
	}
}

// The trimmed mean drops exactly a quarter at each end for every
// remainder of n mod 4; each case has an asymmetric middle, so that
// dropping ⌊n/4⌋ whole samples (SKaMPI 5) gives another figure (old).
// Weights in quarters from [4(i−1), 4i] ∩ [n, 3n] of the sorted samples.
func TestTrimmedQuarter(t *testing.T) {
	cases := []struct {
		x             []float64
		mean, se, old float64
	}{
		// n = 8 (4k): 0.5 1 | 2 3 4 5 | 6 100, mean 3.5, σ² = (2.25+0.25)·2/4
		// = 5/4, σ/√4 = √5/4. Old: the same middle.
		{[]float64{100, 1, 2, 3, 4, 5, 6, 0.5}, 3.5, math.Sqrt(5) / 4, 3.5},
		// n = 9 (4k+1): weights 0 0 3 4 4 4 3 0 0 on 0.5 1 2 3 4 5 10 11 100:
		// (6+12+16+20+30)/18 = 14/3; Σw(x−14/3)²/18 = 20/3, /4.5 = 40/27.
		// Old: {2 3 4 5 10} = 4.8.
		{[]float64{0.5, 1, 2, 3, 4, 5, 10, 11, 100}, 14.0 / 3, math.Sqrt(40.0 / 27), 4.8},
		// n = 10 (4k+2): weights 0 0 2 4 4 4 4 2 0 0 on 0.5 1 2 3 4 5 6 17 50 90:
		// (4+72+34)/20 = 5.5; Σw(x−5.5)²/20 = 65/4, /5 = 13/4.
		// Old: {2 .. 6, 17} = 37/6.
		{[]float64{90, 0.5, 1, 2, 3, 4, 5, 6, 17, 50}, 5.5, math.Sqrt(13) / 2, 37.0 / 6},
		// n = 11 (4k+3): weights 0 0 1 4 4 4 4 4 1 0 0 on
		// 0.25 0.5 1 2 3 4 5 6 29 40 90: (1+80+29)/22 = 5;
		// Σw(x−5)² = 16+4·(9+4+1+0+1)+576 = 652, /22, /5.5: 652/121.
		// Old: {1 .. 6, 29} = 50/7.
		{[]float64{0.25, 0.5, 1, 2, 3, 4, 5, 6, 29, 40, 90}, 5, math.Sqrt(652) / 11, 50.0 / 7},
	}
	for _, c := range cases {
		m, se, rel := TrimmedMean(c.x), TrimmedStdErr(c.x), TrimmedRelErr(c.x)
		if !close(m, c.mean) || !close(se, c.se) || !close(rel, c.se/c.mean) || close(m, c.old) && len(c.x)%4 != 0 {
			t.Errorf("n = %d: trimmed %v ± %v (rel %v), want %v ± %v (rel %v)",
				len(c.x), m, se, rel, c.mean, c.se, c.se/c.mean)
		}
	}
	if got := TrimmedRelErr([]float64{0, 0, 0, 0}); !math.IsInf(got, 1) {
		t.Errorf("TrimmedRelErr of zeros = %v, want +Inf", got)
	}
}

func TestQuantile(t *testing.T) {
	x := []float64{50, 10, 40, 20, 30}
	cases := []struct{ p, want float64 }{
		{0, 10},
		{1, 50},
		{0.5, 30},
		{0.1, 14},  // h = 4·0.1 = 0.4: 10 + 0.4·(20−10)
		{0.9, 46},  // h = 3.6: 40 + 0.6·(50−40)
		{0.25, 20}, // h = 1 exactly
	}
	for _, c := range cases {
		if got := Quantile(x, c.p); !close(got, c.want) {
			t.Errorf("Quantile(%v, %v) = %v, want %v", x, c.p, got, c.want)
		}
	}
	// n = 2: h = 0.25 between 1 and 3.
	if got := Quantile([]float64{3, 1}, 0.25); !close(got, 1.5) {
		t.Errorf("Quantile({3,1}, 0.25) = %v, want 1.5", got)
	}
	for _, p := range []float64{-0.1, 1.1, math.NaN()} {
		if got := Quantile(x, p); !math.IsNaN(got) {
			t.Errorf("Quantile(x, %v) = %v, want NaN", p, got)
		}
	}
}

func TestEmpty(t *testing.T) {
	for name, f := range map[string]func([]float64) float64{
		"Mean": Mean, "StdDev": StdDev, "StdErr": StdErr, "TrimmedMean": TrimmedMean, "TrimmedStdErr": TrimmedStdErr,
		"Median": Median, "Min": Min, "Max": Max,
	} {
		if got := f(nil); !math.IsNaN(got) {
			t.Errorf("%s(nil) = %v, want NaN", name, got)
		}
	}
	if got := Summarize(nil); got != (Summary{}) {
		t.Errorf("Summarize(nil) = %+v, want the zero Summary", got)
	}
	if got := (Summary{}).RelErr(); !math.IsInf(got, 1) {
		t.Errorf("empty RelErr = %v, want +Inf", got)
	}
}

func TestInputUntouched(t *testing.T) {
	x := []float64{3, 1, 2, 5, 4}
	orig := slices.Clone(x)
	Summarize(x)
	TrimmedMean(x)
	Median(x)
	Quantile(x, 0.3)
	if !slices.Equal(x, orig) {
		t.Errorf("input reordered: %v, was %v", x, orig)
	}
}

func TestRelErrAndShift(t *testing.T) {
	s := Summarize([]float64{4, 1, 3, 2})
	// √1.25/2 / 2.5
	if got := s.RelErr(); !close(got, math.Sqrt(1.25)/5) {
		t.Errorf("RelErr = %v, want √1.25/5", got)
	}
	if got := RelErr([]float64{4, 1, 3, 2}); !close(got, math.Sqrt(1.25)/5) {
		t.Errorf("RelErr func = %v, want √1.25/5", got)
	}
	if got := RelErr([]float64{0, 0}); !math.IsInf(got, 1) {
		t.Errorf("RelErr of zeros = %v, want +Inf", got)
	}
	if got := (Summary{N: 3, Mean: 0, StdErr: 0}).RelErr(); !math.IsInf(got, 1) {
		t.Errorf("RelErr with zero mean = %v, want +Inf", got)
	}
	sh := s.Shift(-0.5)
	want := Summary{N: 4, Mean: 2, Trimmed: 2, StdErr: s.StdErr, TrimmedStdErr: s.TrimmedStdErr, Min: 0.5, Median: 2, Max: 3.5}
	if sh != want {
		t.Errorf("Shift(-0.5) = %+v, want %+v", sh, want)
	}
	if got := (Summary{}).Shift(1); got != (Summary{}) {
		t.Errorf("empty Shift = %+v, want zero", got)
	}
}
