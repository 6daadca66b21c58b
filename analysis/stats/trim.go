package stats

import "math"

// The trimmed mean of SKaMPI (Reussner et al., section 3.1): "we ignore
// the 25% slowest and the 25% fastest run times for computing the
// average". Exactly a quarter is dropped at each end for every n, also
// when n is not a multiple of 4: the sorted samples x_(1) ≤ … ≤ x_(n)
// are laid end to end on [0, n], x_(i) covering [i−1, i], and each
// sample is weighted by the part of its interval inside the middle half
// [n/4, 3n/4]. For n = 4k that is weight 1 for x_(k+1) … x_(3k) and 0
// for the rest, the plain mean of the middle 2k; otherwise the sample
// that straddles n/4 (and the one that straddles 3n/4) counts with the
// fraction of it that lies inside: n = 5 keeps x_(2) and x_(4) with
// weight 3/4 and x_(3) whole, n = 6 weights 1/2, 1, 1, 1/2. This is the
// interquartile mean. It differs from SKaMPI 5, which drops ⌊n/4⌋ whole
// samples (measurement.c, extract_final_results) and so keeps 3 of 5
// samples (20 % dropped at each end) or 17 of 33 (24 %): with the
// weights the figure is the same functional of the sample distribution
// whatever n's remainder, and the adaptive rule may stop at any n
// without changing what is averaged. The weights always add up to n/2.

// trimQuarters is the weight of the i-th smallest of n samples (i from
// 1) in quarters: the length of [4(i−1), 4i] ∩ [n, 3n], 0 to 4. Integer
// arithmetic keeps the weights exact.
func trimQuarters(i, n int) int {
	return max(0, min(4*i, 3*n)-max(4*(i-1), n))
}

// trimmed returns the weighted mean of the sorted samples s and the
// standard error of that mean, σ/√(n/2) with σ² = Σw(x−x̄)²/Σw: the
// paper's σ_x̄ = σ/√n (σ divided by n, not n−1) applied to the samples
// that are averaged, Σw = n/2 of them.
func trimmed(s []float64) (mean, stderr float64) {
	n := len(s)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	kept := float64(2 * n) // Σ of the weights in quarters
	sum := 0.0
	for i, x := range s {
		sum += float64(trimQuarters(i+1, n)) * x
	}
	mean = sum / kept
	ss := 0.0
	for i, x := range s {
		d := x - mean
		ss += float64(trimQuarters(i+1, n)) * d * d
	}
	sigma := math.Sqrt(ss / kept)
	return mean, sigma / math.Sqrt(float64(n)/2)
}

// TrimmedMean is the mean of the middle half of the samples, a quarter
// dropped at each end exactly (see above). It resists outliers like the
// median does but, unlike the median, averages away the clock's finite
// resolution (Reussner et al., 3.1).
func TrimmedMean(x []float64) float64 {
	m, _ := trimmed(sorted(x))
	return m
}

// TrimmedStdErr is the standard error of TrimmedMean: σ/√(n/2), σ the
// population standard deviation of the middle half, weighted as
// TrimmedMean weights it.
func TrimmedStdErr(x []float64) float64 {
	_, e := trimmed(sorted(x))
	return e
}

// TrimmedRelErr is TrimmedStdErr/TrimmedMean, the relative standard
// error SKaMPI's stopping rule compares with ε when the trimmed mean is
// the reported figure. It is +Inf when the trimmed mean is not positive
// (or there are no samples), so that no threshold is met by accident.
func TrimmedRelErr(x []float64) float64 {
	return TrimmedRelErrSorted(sorted(x))
}

// TrimmedRelErrSorted is TrimmedRelErr of samples already sorted in
// increasing order, without the copy and the sort: for a caller that
// keeps its samples sorted as they come.
func TrimmedRelErrSorted(s []float64) float64 {
	m, e := trimmed(s)
	if !(m > 0) {
		return math.Inf(1)
	}
	return e / m
}
