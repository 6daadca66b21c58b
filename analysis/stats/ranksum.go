package stats

import (
	"cmp"
	"math"
	"slices"
)

// Alternative is the hypothesis a two-sample test looks for, stated about
// the first sample x against the second y.
type Alternative int

const (
	TwoSided Alternative = iota // x and y come from different distributions
	Greater                     // x is stochastically greater: its values tend to be larger
	Less                        // x is stochastically smaller
)

func (a Alternative) String() string {
	return [...]string{"two-sided", "greater", "less"}[a]
}

// Test is the verdict of a two-sample test with what it rests on, so that
// a caller can say how much to trust it.
type Test struct {
	Statistic float64 // U of x for RankSum, D for KolmogorovSmirnov
	P         float64 // p-value; NaN when a sample is empty
	N1, N2    int     // sample sizes
	Exact     bool    // the p-value comes from the exact null distribution
}

// RankSum is the Wilcoxon rank-sum (Mann-Whitney U) test of x against y,
// the same as scipy.stats.mannwhitneyu(x, y, alternative=alt,
// method='auto') of SciPy 1.10: the statistic is U of x (rank sum of x
// minus n1(n1+1)/2, ties ranked by their mean rank); the p-value is exact
// when a sample has at most 8 values and no value is tied (the exact
// distribution assumes distinct values), else from the normal
// approximation with tie and continuity correction.
func RankSum(x, y []float64, alt Alternative) Test {
	n1, n2 := len(x), len(y)
	t := Test{N1: n1, N2: n2, P: math.NaN()}
	if n1 == 0 || n2 == 0 {
		return t
	}
	ranks, tie := rankAverage(append(slices.Clone(x), y...))
	r1 := 0.0
	for _, r := range ranks[:n1] {
		r1 += r
	}
	u1 := r1 - float64(n1*(n1+1))/2
	u2 := float64(n1*n2) - u1
	t.Statistic = u1
	// As SciPy does, every alternative is the upper tail of some U.
	u, f := u1, 1.0
	switch alt {
	case Less:
		u = u2
	case TwoSided:
		u, f = math.Max(u1, u2), 2
	}
	t.Exact = (n1 <= 8 || n2 <= 8) && tie == 0
	if t.Exact {
		t.P = f * rankSumUpper(int(u), n1, n2)
	} else {
		t.P = f * rankSumNormal(u, n1, n2, tie)
	}
	t.P = math.Min(math.Max(t.P, 0), 1)
	return t
}

// rankAverage ranks v from 1, giving tied values the mean of their
// ranks, and returns Σ(t³−t) over the groups of t tied values.
func rankAverage(v []float64) ([]float64, float64) {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	ranks := make([]float64, len(v))
	tie := 0.0
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		mean := float64(i+j+1) / 2 // ranks i+1..j
		for _, k := range idx[i:j] {
			ranks[k] = mean
		}
		t := float64(j - i)
		tie += t*t*t - t
		i = j
	}
	return ranks, tie
}

// rankSumNormal is P(U ≥ u) under the normal approximation, with the
// variance reduced for ties and 0.5 subtracted for continuity. When every
// value is tied the variance is 0 and the p-value 1, as in SciPy.
func rankSumNormal(u float64, n1, n2 int, tie float64) float64 {
	n := float64(n1 + n2)
	mu := float64(n1*n2) / 2
	s := math.Sqrt(float64(n1*n2) / 12 * ((n + 1) - tie/(n*(n-1))))
	num := u - mu - 0.5
	if s == 0 {
		return 1
	}
	return normalUpper(num / s)
}

// normalUpper is the upper tail 1 − Φ(z) of the standard normal.
func normalUpper(z float64) float64 {
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// rankSumUpper is the exact P(U ≥ u) for samples of n1 and n2 distinct
// values. By symmetry it is P(U ≤ n1·n2 − u), summed from the counts of
// rankSumCounts.
func rankSumUpper(u, n1, n2 int) float64 {
	counts := rankSumCounts(n1, n2)
	total := 0.0
	for _, c := range counts {
		total += c
	}
	sum := 0.0
	for k := 0; k <= n1*n2-u && k < len(counts); k++ {
		sum += counts[k]
	}
	return sum / total
}

// rankSumCounts are the numbers of arrangements of n1 and n2 values with
// U = 0, 1, …, n1·n2: the coefficients of the Gaussian binomial
// [n1+n2 choose m]_q = Π_{i=1..m} (1 − q^(n+i)) / (1 − q^i), m the smaller
// size. After step i the polynomial is [n+i choose i]_q, whose
// coefficients are counts, so each step costs O(m·n) and the whole
// O(m²·n): cheap for the small sizes the exact test is used for.
func rankSumCounts(n1, n2 int) []float64 {
	m, n := min(n1, n2), max(n1, n2)
	c := make([]float64, m*n+1)
	c[0] = 1
	for i := 1; i <= m; i++ {
		// Multiply by 1 − q^(n+i): from the top, so each term uses the
		// old coefficient.
		for k := len(c) - 1; k >= n+i; k-- {
			c[k] -= c[k-n-i]
		}
		// Divide by 1 − q^i: a running sum with stride i.
		for k := i; k < len(c); k++ {
			c[k] += c[k-i]
		}
	}
	return c
}
