package stats

import (
	"math"
)

// ksExactMax is the largest n1·n2 for which KolmogorovSmirnov walks the
// exact lattice-path distribution (O(n1·n2) steps); beyond it the
// asymptotic formulas serve.
const ksExactMax = 1e8

// KolmogorovSmirnov is the two-sample Kolmogorov-Smirnov test of x against
// y. Alt is stated like RankSum's: Greater means x is stochastically
// greater, its empirical CDF F lying below y's G somewhere, so the
// statistic is D = max(G − F), which is SciPy's alternative 'less';
// Less is SciPy's 'greater', D = max(F − G); TwoSided is max|F − G|.
//
// The p-value matches scipy.stats.ks_2samp(x, y, alternative, method='exact')
// of SciPy 1.10, which method='auto' picks for samples of up to 10000: the
// probability that a random interleaving of n1 and n2 distinct values
// reaches D, computed here by walking the lattice of paths with
// probabilities rather than counts, so nothing overflows. Past
// n1·n2 = 10^8 it is asymptotic: Hodges' formula 5.3 for one side, as
// SciPy; Kolmogorov's limit distribution for both (SciPy uses the exact
// one-sample distribution there, so the two differ slightly).
func KolmogorovSmirnov(x, y []float64, alt Alternative) Test {
	n1, n2 := len(x), len(y)
	t := Test{N1: n1, N2: n2, P: math.NaN()}
	if n1 == 0 || n2 == 0 {
		return t
	}
	up, down := ksSpread(x, y) // max(F−G) and max(G−F), in units of 1/lcm
	lcm := n1 / gcd(n1, n2) * n2
	h := 0
	switch alt {
	case Greater:
		h = down
	case Less:
		h = up
	default:
		h = max(up, down)
	}
	t.Statistic = float64(h) / float64(lcm)
	if h == 0 {
		t.P, t.Exact = 1, true
		return t
	}
	if float64(n1)*float64(n2) <= ksExactMax {
		t.P, t.Exact = ksExact(n1, n2, h, alt), true
	} else {
		t.P = ksAsymptotic(n1, n2, t.Statistic, alt)
	}
	t.P = math.Min(math.Max(t.P, 0), 1)
	return t
}

// ksSpread returns max(F−G) and max(G−F) over all values, F and G the
// empirical CDFs of x and y, as integers in units of 1/lcm(n1, n2) so
// that equal differences compare equal. Tied values step both CDFs
// together, as SciPy's searchsorted(side='right') does.
func ksSpread(x, y []float64) (up, down int) {
	a, b := sorted(x), sorted(y)
	n1, n2 := len(a), len(b)
	lcm := n1 / gcd(n1, n2) * n2
	i, j := 0, 0
	for i < n1 || j < n2 {
		v := math.Inf(1)
		if i < n1 {
			v = a[i]
		}
		if j < n2 {
			v = math.Min(v, b[j])
		}
		for i < n1 && a[i] == v {
			i++
		}
		for j < n2 && b[j] == v {
			j++
		}
		d := i*(lcm/n1) - j*(lcm/n2)
		up, down = max(up, d), max(down, -d)
	}
	return up, down
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// ksExact is the probability that a uniformly random interleaving of n1
// x-values and n2 y-values reaches the boundary h (in units of
// 1/lcm) on the side alt looks at. The walk takes an x with probability
// (n1−i)/(n1−i+n2−j) from (i, j); the mass that has touched the boundary
// is taken out, and what is left at the end is P(D < h).
func ksExact(n1, n2, h int, alt Alternative) float64 {
	lcm := n1 / gcd(n1, n2) * n2
	inside := func(i, j int) bool {
		d := i*(lcm/n1) - j*(lcm/n2)
		switch alt {
		case Greater:
			return -d < h
		case Less:
			return d < h
		}
		return d < h && -d < h
	}
	p := make([]float64, n2+1) // p[j]: mass at (i, j) for the current i
	p[0] = 1
	for i := 0; i <= n1; i++ {
		for j := 0; j <= n2; j++ {
			if i > 0 || j > 0 {
				from := 0.0
				if i > 0 {
					from += p[j] * float64(n1-i+1) / float64(n1-i+1+n2-j)
				}
				if j > 0 {
					from += p[j-1] * float64(n2-j+1) / float64(n1-i+n2-j+1)
				}
				p[j] = from
			}
			if !inside(i, j) {
				p[j] = 0
			}
		}
	}
	return 1 - p[n2]
}

// ksAsymptotic is the large-sample p-value of D = d.
func ksAsymptotic(n1, n2 int, d float64, alt Alternative) float64 {
	m, n := float64(max(n1, n2)), float64(min(n1, n2))
	en := m * n / (m + n)
	z := math.Sqrt(en) * d
	if alt != TwoSided {
		return math.Exp(-2*z*z - 2*z*(m+2*n)/math.Sqrt(m*n*(m+n))/3)
	}
	// Kolmogorov: P(K > z) = 2 Σ (−1)^(k−1) exp(−2k²z²).
	sum := 0.0
	for k := 1; k <= 100; k++ {
		term := math.Exp(-2 * float64(k*k) * z * z)
		if k%2 == 0 {
			term = -term
		}
		sum += term
		if math.Abs(term) < 1e-16 {
			break
		}
	}
	return 2 * sum
}
