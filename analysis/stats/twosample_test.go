package stats

import (
	"math"
	"testing"
)

// The reference values of this file come from SciPy 1.10.1 (Debian
// bookworm's python3-scipy), run with /usr/bin/python3:
//
//	stats.mannwhitneyu(x, y, alternative=alt, method='auto')
//	stats.ks_2samp(x, y, alternative=alt, method='exact')
//
// for each pair below and alt in 'two-sided', 'greater', 'less'. The
// samples were drawn by numpy.random.default_rng(20160523) and rounded to
// three decimals; "ties", "alltied" and "rounded" hold tied values.
// stats/testdata/scipy_twosample.py (with scipy_cases.py) prints the
// tables below.
var testPairs = map[string][2][]float64{
	"small": {[]float64{1.1, 2.3, 3.5, 4.2, 5.9},
		[]float64{2.0, 3.1, 6.4, 7.7, 8.5, 9.0}},
	"ties": {[]float64{1.0, 2.0, 2.0, 3.0, 5.0},
		[]float64{2.0, 3.0, 4.0, 4.0, 6.0, 7.0}},
	"launches": {[]float64{11.615, 10.191, 10.247, 10.676, 9.548, 12.238, 9.79, 10.601, 8.508, 9.76},
		[]float64{11.314, 9.981, 11.594, 13.238, 8.806, 10.565, 12.15, 10.469, 11.572, 11.539}},
	"eight": {[]float64{1.368, 0.804, -0.906, -0.078, -0.496, -0.949, 1.423, 0.522},
		[]float64{1.007, -0.142, 0.388, -2.036, 1.085, 0.007, 0.66, -1.512, -0.748, 1.704, 0.421, -1.955, 1.9, 1.095, 1.271, 2.093, 1.592, 2.151, 1.077, 0.215, -0.278, 0.429, -0.06, 0.65, 0.847, 0.414, -0.259, 1.193, 1.526, -0.069}},
	"alltied": {[]float64{3.0, 3.0, 3.0},
		[]float64{3.0, 3.0}},
	"rounded": {[]float64{4.0, 7.0, 6.0, 8.0, 8.0, 5.0, 6.0, 7.0, -0.0, 6.0, 7.0, 1.0, 5.0, 4.0, 2.0, 4.0, 3.0, 2.0, 6.0, 4.0, 6.0, 7.0, 6.0, 2.0, 8.0, 7.0, 7.0, 4.0, 6.0, 5.0, 6.0, 5.0, 3.0, 5.0, 5.0, 5.0, 6.0, 4.0, 6.0, 6.0},
		[]float64{7.0, 7.0, 9.0, 9.0, 4.0, 7.0, 7.0, 5.0, 6.0, 8.0, 6.0, 3.0, 6.0, 9.0, 3.0, 6.0, 10.0, 4.0, 10.0, 6.0, 5.0, 9.0, 4.0, 3.0, 3.0, 7.0, 7.0, 7.0, 9.0, 5.0, 6.0, 2.0, 8.0, 6.0, 6.0}},
	"unequal": {[]float64{-0.487, 0.632, 0.372, -0.883, -1.91, 1.232, 0.946},
		[]float64{2.016, 0.124, 1.082, 1.871, 0.839, 2.378, 0.999, 0.522, 1.563, 0.267, 0.793, 1.224}},
	"large": {[]float64{0.778, 1.246, 0.325, 1.035, 0.071, 0.598, 3.945, 0.896, 0.313, 0.746, 0.038, 0.403, 0.821, 0.961, 1.07, 0.309, 1.898, 1.69, 1.204, 0.527, 0.193, 1.306, 1.512, 4.113, 0.571, 0.241, 0.303, 0.501, 5.221, 0.227, 0.125, 0.692, 0.145, 0.277, 0.013, 0.302, 1.446, 0.671, 0.309, 0.031, 0.345, 0.098, 1.275, 0.361, 0.997, 0.961, 1.137, 0.321, 0.051, 0.378, 2.422, 0.314, 2.099, 0.248, 0.158, 1.01, 1.233, 0.837, 0.204, 2.704},
		[]float64{0.463, 1.522, 0.259, 0.688, 0.008, 0.1, 0.369, 0.261, 0.979, 0.049, 1.351, 0.171, 0.147, 0.228, 2.007, 0.153, 0.498, 3.334, 0.783, 0.447, 1.115, 1.241, 2.454, 2.068, 0.843, 0.134, 0.352, 0.035, 0.769, 0.072, 0.179, 2.131, 0.46, 2.294, 3.534, 1.009, 3.63, 2.155, 3.83, 0.151, 2.34, 1.395, 1.996, 0.198, 0.187}},
}

// closeP reports whether a p-value agrees with SciPy's to 1e-9 relative:
// both sides round differently, and nothing here needs more.
func closeP(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// rankSumCases: U of x and the p-value of mannwhitneyu(x, y, alt).
// "small", "eight" and "unequal" (a sample of at most 8, no ties) are
// exact, the others asymptotic with tie and continuity correction.
var rankSumCases = []struct {
	pair string
	alt  Alternative
	u, p float64
}{
	{"small", TwoSided, 7.0, 0.17748917748917747},
	{"small", Greater, 7.0, 0.9372294372294373},
	{"small", Less, 7.0, 0.08874458874458874},
	{"ties", TwoSided, 6.5, 0.13862587987892763},
	{"ties", Greater, 6.5, 0.9521476244125593},
	{"ties", Less, 6.5, 0.06931293993946382},
	{"launches", TwoSided, 32.0, 0.18587673236587576},
	{"launches", Greater, 32.0, 0.9190137947599369},
	{"launches", Less, 32.0, 0.09293836618293788},
	{"eight", TwoSided, 97.0, 0.4279135731247986},
	{"eight", Greater, 97.0, 0.7962541202579158},
	{"eight", Less, 97.0, 0.2139567865623993},
	{"alltied", TwoSided, 3.0, 1.0},
	{"alltied", Greater, 3.0, 1.0},
	{"alltied", Less, 3.0, 1.0},
	{"rounded", TwoSided, 494.0, 0.026960762839223926},
	{"rounded", Greater, 494.0, 0.9868870362480605},
	{"rounded", Less, 494.0, 0.013480381419611963},
	{"unequal", TwoSided, 18.0, 0.04493133285702945},
	{"unequal", Greater, 18.0, 0.9820790664443918},
	{"unequal", Less, 18.0, 0.022465666428514726},
	{"large", TwoSided, 1291.0, 0.7048338253592723},
	{"large", Greater, 1291.0, 0.6499845379729285},
	{"large", Less, 1291.0, 0.35241691267963615},
}

func TestGuidelineRankSumScipy(t *testing.T) {
	for _, c := range rankSumCases {
		xy := testPairs[c.pair]
		got := RankSum(xy[0], xy[1], c.alt)
		if !closeP(got.Statistic, c.u) || !closeP(got.P, c.p) {
			t.Errorf("%s %v: U = %v, p = %.17g; scipy U = %v, p = %.17g", c.pair, c.alt, got.Statistic, got.P, c.u, c.p)
		}
	}
}

// ksCases: D and the p-value of ks_2samp(x, y, alternative, method='exact');
// SciPy's 'greater' (F of x above G of y: x smaller) is our Less and its
// 'less' our Greater.
var ksCases = []struct {
	pair string
	alt  Alternative
	d, p float64
}{
	{"small", TwoSided, 0.6666666666666666, 0.10822510822510821},   // alternative='two-sided'
	{"small", Less, 0.6666666666666666, 0.05411255411255411},       // alternative='greater'
	{"small", Greater, 0.0, 1.0},                                   // alternative='less'
	{"ties", TwoSided, 0.4666666666666667, 0.474025974025974},      // alternative='two-sided'
	{"ties", Less, 0.4666666666666667, 0.23809523809523808},        // alternative='greater'
	{"ties", Greater, 0.0, 1.0},                                    // alternative='less'
	{"launches", TwoSided, 0.4, 0.41752365281777043},               // alternative='two-sided'
	{"launches", Less, 0.4, 0.2097902097902098},                    // alternative='greater'
	{"launches", Greater, 0.0, 1.0},                                // alternative='less'
	{"eight", TwoSided, 0.26666666666666666, 0.6748456327004216},   // alternative='two-sided'
	{"eight", Less, 0.26666666666666666, 0.3506553887808257},       // alternative='greater'
	{"eight", Greater, 0.1, 0.8321513523001588},                    // alternative='less'
	{"alltied", TwoSided, 0.0, 1.0},                                // alternative='two-sided'
	{"alltied", Less, 0.0, 1.0},                                    // alternative='greater'
	{"alltied", Greater, 0.0, 1.0},                                 // alternative='less'
	{"rounded", TwoSided, 0.23214285714285715, 0.2258099935439834}, // alternative='two-sided'
	{"rounded", Less, 0.23214285714285715, 0.11303429891917242},    // alternative='greater'
	{"rounded", Greater, 0.0, 1.0},                                 // alternative='less'
	{"unequal", TwoSided, 0.4642857142857143, 0.22102484718583787}, // alternative='two-sided'
	{"unequal", Less, 0.4642857142857143, 0.11052234659045805},     // alternative='greater'
	{"unequal", Greater, 0.0, 1.0},                                 // alternative='less'
	{"large", TwoSided, 0.16666666666666666, 0.433130042011513},    // alternative='two-sided'
	{"large", Less, 0.16666666666666666, 0.21865228601787573},      // alternative='greater'
	{"large", Greater, 0.12222222222222222, 0.43339569467790634},   // alternative='less'
}

func TestGuidelineKSScipy(t *testing.T) {
	for _, c := range ksCases {
		xy := testPairs[c.pair]
		got := KolmogorovSmirnov(xy[0], xy[1], c.alt)
		if !closeP(got.Statistic, c.d) || !closeP(got.P, c.p) {
			t.Errorf("%s %v: D = %v, p = %.17g; scipy D = %v, p = %.17g", c.pair, c.alt, got.Statistic, got.P, c.d, c.p)
		}
	}
}

// An empty sample has no test: NaN, which no level accepts.
func TestGuidelineTestEmpty(t *testing.T) {
	for _, got := range []Test{RankSum(nil, []float64{1}, Greater), KolmogorovSmirnov([]float64{1}, nil, Greater)} {
		if !math.IsNaN(got.P) {
			t.Errorf("empty sample: p = %v, want NaN", got.P)
		}
	}
}

// The exact and the asymptotic rank-sum p-values must be chosen as SciPy
// chooses them: a wrong choice would still pass for some pairs above.
func TestGuidelineRankSumMethod(t *testing.T) {
	for pair, exact := range map[string]bool{"small": true, "eight": true, "unequal": true, "ties": false, "launches": false, "large": false} {
		xy := testPairs[pair]
		if got := RankSum(xy[0], xy[1], Greater).Exact; got != exact {
			t.Errorf("%s: exact = %v, want %v", pair, got, exact)
		}
	}
}
