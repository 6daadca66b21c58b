// Package stats is the pure statistics of mpibench: means, spread,
// order statistics and the Summary every measurement records. It imports
// nothing from the project, so reports and analyses can use it without MPI.
//
// Conventions shared by every function here:
//   - No function modifies its argument; the order statistics sort a copy.
//   - An empty sample has no statistics: the functions return NaN, except
//     Summarize, which returns the zero Summary (N = 0) so that it stays
//     encodable as JSON.
//   - Spread is the population form SKaMPI uses (Reussner et al., section
//     3.1): σ = sqrt(Σ(x−x̄)²/n), divided by n, not n−1.
package stats

import (
	"math"
	"slices"
)

// Mean is the arithmetic mean x̄ = Σx/n.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	return sum / float64(len(x))
}

// StdDev is the population standard deviation σ = sqrt(Σ(x−x̄)²/n). It
// makes two passes (mean first) rather than using Σx² − (Σx)²/n, which
// cancels badly when the spread is tiny next to the mean, as it is for
// repeated timings of one call.
func StdDev(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	m := Mean(x)
	ss := 0.0
	for _, v := range x {
		d := v - m
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(x)))
}

// StdErr is the standard error of the mean σ/√n with σ from StdDev. For
// one sample it is 0, which says nothing: callers that stop on it must
// insist on at least two samples.
func StdErr(x []float64) float64 {
	return StdDev(x) / math.Sqrt(float64(len(x)))
}

// RelErr is StdErr/Mean, the relative standard error σ_x̄/x̄ that SKaMPI
// stops on. It is +Inf when the mean is not positive (timings too coarse
// to tell, or no samples), so that no precision threshold is ever met by
// accident.
func RelErr(x []float64) float64 {
	m := Mean(x)
	if !(m > 0) {
		return math.Inf(1)
	}
	return StdErr(x) / m
}

// Quantile is the p-quantile, 0 ≤ p ≤ 1, interpolated linearly between
// order statistics: with the sorted samples s and h = (n−1)·p, it is
// s[⌊h⌋] + (h−⌊h⌋)·(s[⌊h⌋+1] − s[⌊h⌋]) (Hyndman and Fan's type 7, the
// default of R and NumPy). Quantile(x, 0) is the minimum, Quantile(x, 1)
// the maximum. A p outside [0, 1] or NaN gives NaN.
func Quantile(x []float64, p float64) float64 {
	if len(x) == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	return quantileSorted(sorted(x), p)
}

// Median is Quantile(x, 0.5): the middle sample for odd n, the mean of the
// two middle samples for even n.
func Median(x []float64) float64 {
	return Quantile(x, 0.5)
}

// Min is the smallest sample.
func Min(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return slices.Min(x)
}

// Max is the largest sample.
func Max(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return slices.Max(x)
}

func sorted(x []float64) []float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s
}

func quantileSorted(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}
