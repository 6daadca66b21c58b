package guideline

import (
	"fmt"
	"math"
	"slices"

	"mpibench/analysis/stats"
)

// Options are the thresholds of a check, with the paper's defaults in
// DefaultOptions.
type Options struct {
	Alpha     float64 // significance level of every test
	Test      string  // "wilcoxon" (rank-sum) or "ks" (Kolmogorov-Smirnov)
	Split     string  // GL2 rule: SplitMedian (the paper's) or SplitTest
	Tolerance float64 // GL2: T(m_j) must exceed k·T(m_i) by more than this fraction of it
}

// The two GL2 rules. SplitMedian is the paper's (004 section IV-C2): the
// shape of the time of k messages of size m_i is unknown, so the paper
// does not scale the distribution at m_i and test it but compares medians,
// with a 5 % tolerance. SplitTest is the one-sided test of the medians at
// m_j against the medians at m_i scaled by k·(1+tolerance), which the paper
// rejects; it is kept as an option, as a stricter filter against noise.
const (
	SplitMedian = "median"
	SplitTest   = "test"
)

// DefaultOptions: 95 % confidence, the rank-sum test, GL2 by the median
// rule with 5 % tolerance.
var DefaultOptions = Options{Alpha: 0.05, Test: "wilcoxon", Split: SplitMedian, Tolerance: 0.05}

// Validate says what is wrong with the options, if anything.
func (o Options) Validate() error {
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return fmt.Errorf("alpha %v: want a level between 0 and 1", o.Alpha)
	}
	if o.Test != "wilcoxon" && o.Test != "ks" {
		return fmt.Errorf("test %q: want wilcoxon or ks", o.Test)
	}
	if o.Split != SplitMedian && o.Split != SplitTest {
		return fmt.Errorf("split rule %q: want %s or %s", o.Split, SplitMedian, SplitTest)
	}
	if !(o.Tolerance >= 0) {
		return fmt.Errorf("tolerance %v: want 0 or more", o.Tolerance)
	}
	return nil
}

// greater tests whether x is significantly larger than y: the one-sided
// alternative of every guideline check.
func (o Options) greater(x, y []float64) float64 {
	if o.Test == "ks" {
		return stats.KolmogorovSmirnov(x, y, stats.Greater).P
	}
	return stats.RankSum(x, y, stats.Greater).P
}

// Finding is one violation: at volume Size the side that should be faster
// was significantly slower.
type Finding struct {
	Size   int     // n of a pattern guideline; the larger size m_j of GL1 and GL2
	From   int     // GL1 and GL2: the smaller size m_i
	Factor int     // GL2: k, the smallest with k·m_i ≥ m_j
	P      float64 // p-value of the one-sided test; NaN for GL2 by the median rule
	Slow   float64 // median over launches of the slower side: T(m_j), or the function
	Fast   float64 // of the faster side: T(m_i), k·T(m_i), or the mock-up
}

// Row is one guideline checked for one function on one process count: a
// row of the paper's Table IV, with its violations.
type Row struct {
	Guideline Guideline
	Function  string
	Findings  []Finding
}

// Label names the row as the tables do: the function, and for a pattern
// guideline its mock-up.
func (r Row) Label() string {
	if r.Guideline.Kind == Pattern {
		return r.Function + " <= " + r.Guideline.Mapping
	}
	return r.Function
}

// Group is the check of one process count.
type Group struct {
	Procs    int
	Launches int   // R: the most medians any size has
	Sizes    []int // every volume measured, ascending
	Rows     []Row // in guideline order, then function order
}

// Result is the whole check.
type Result struct {
	Options    Options
	Guidelines []Guideline
	Groups     []Group
}

// Check verifies the guidelines on the data.
func Check(d *Data, gs []Guideline, o Options) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	res := &Result{Options: o, Guidelines: gs}
	for _, p := range d.Procs {
		res.Groups = append(res.Groups, checkProcs(d, gs, o, p))
	}
	return res, nil
}

func checkProcs(d *Data, gs []Guideline, o Options, p int) Group {
	g := Group{Procs: p}
	sizes := map[int]bool{}
	for k, bySize := range d.Medians {
		if k.Procs != p {
			continue
		}
		for n, ms := range bySize {
			sizes[n] = true
			g.Launches = max(g.Launches, len(ms))
		}
	}
	for n := range sizes {
		g.Sizes = append(g.Sizes, n)
	}
	slices.Sort(g.Sizes)
	for _, gl := range gs {
		for _, f := range d.Functions(p) {
			if !gl.Applies(f) {
				continue
			}
			if gl.Kind == Pattern && d.Medians[Key{p, gl.Right}] == nil {
				continue // mock-up not measured: nothing to check
			}
			row := Row{Guideline: gl, Function: f}
			row.Findings = checkRow(d.Medians[Key{p, f}], d.Medians[Key{p, gl.Right}], gl.Kind, o)
			g.Rows = append(g.Rows, row)
		}
	}
	return g
}

func checkRow(fn, mock map[int][]float64, k Kind, o Options) []Finding {
	switch k {
	case Monotony:
		return checkMonotony(fn, o)
	case Split:
		return checkSplit(fn, o)
	}
	return checkPattern(fn, mock, o)
}

// checkMonotony compares each pair of adjacent sizes m_i < m_j: a
// violation when the medians at m_i are significantly larger than at m_j.
func checkMonotony(fn map[int][]float64, o Options) []Finding {
	var out []Finding
	ns := keys(fn)
	for i := 0; i+1 < len(ns); i++ {
		small, large := fn[ns[i]], fn[ns[i+1]]
		if p := o.greater(small, large); p < o.Alpha {
			out = append(out, Finding{Size: ns[i+1], From: ns[i], P: p,
				Slow: stats.Median(small), Fast: stats.Median(large)})
		}
	}
	return out
}

// checkSplit asks, for each size m_j, whether sending k messages of a
// smaller size m_i, k the smallest with k·m_i ≥ m_j, would be faster.
// Only the largest violating m_i (smallest k) is reported, as the paper
// does, or the many small sizes would repeat the same violation.
func checkSplit(fn map[int][]float64, o Options) []Finding {
	var out []Finding
	ns := keys(fn)
	for j := len(ns) - 1; j > 0; j-- {
		for i := j - 1; i >= 0; i-- {
			if ns[i] <= 0 {
				break
			}
			k := (ns[j] + ns[i] - 1) / ns[i]
			if f, ok := splitViolated(fn[ns[j]], fn[ns[i]], k, o); ok {
				f.Size, f.From, f.Factor = ns[j], ns[i], k
				out = append(out, f)
				break
			}
		}
	}
	slices.Reverse(out)
	return out
}

// splitViolated decides GL2 for one pair: large holds the medians at m_j,
// small those at m_i. By the median rule (the paper's, IV-C2) it is a
// violation when median(large) > (1+tolerance)·k·median(small), the
// tolerance keeping marginal differences out. (The paper's R script,
// pgmpir.R check_split_guideline, compares k·t + (1+tol)·k·t, about
// 2.05·k·t, with median(large): contrary to its text, so not followed.)
// By the test rule the medians at m_j are tested against the medians at
// m_i scaled by (1+tolerance)·k.
func splitViolated(large, small []float64, k int, o Options) (Finding, bool) {
	f := Finding{P: math.NaN(), Slow: stats.Median(large), Fast: float64(k) * stats.Median(small)}
	if o.Split == SplitTest {
		f.P = o.greater(large, scale(small, float64(k)*(1+o.Tolerance)))
		return f, f.P < o.Alpha
	}
	return f, f.Slow > (1+o.Tolerance)*f.Fast
}

// checkPattern compares function and mock-up at every volume both have:
// a violation when the function is significantly slower.
func checkPattern(fn, mock map[int][]float64, o Options) []Finding {
	var out []Finding
	for _, n := range keys(fn) {
		m, ok := mock[n]
		if !ok {
			continue
		}
		if p := o.greater(fn[n], m); p < o.Alpha {
			out = append(out, Finding{Size: n, P: p, Slow: stats.Median(fn[n]), Fast: stats.Median(m)})
		}
	}
	return out
}

// Mark is how the tables mark a violation: the stars of its p-value, or
// "x" for one found by the median rule, which has none.
func (f Finding) Mark() string {
	if math.IsNaN(f.P) {
		return "x"
	}
	return Stars(f.P)
}

// Stars marks the significance of a violation as R does: *** below 0.001,
// ** below 0.01, * below 0.05, and "." for a violation only at a level
// above 0.05.
func Stars(p float64) string {
	switch {
	case p < 0.001:
		return "***"
	case p < 0.01:
		return "**"
	case p < 0.05:
		return "*"
	case math.IsNaN(p):
		return ""
	}
	return "."
}

func scale(x []float64, f float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = f * v
	}
	return out
}

func keys(m map[int][]float64) []int {
	var ns []int
	for n := range m {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}
