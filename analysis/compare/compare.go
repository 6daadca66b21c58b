// Package compare is mpibench compare: for every case measured in two
// sets of records, the old and the new median, the change in percent and
// whether it is significant by the Wilcoxon rank-sum (Mann-Whitney U)
// test of package stats, the test PGMPI's guideline check uses (and which
// stats checks against SciPy). It reads records and needs no MPI.
//
// The samples a case is tested on are its repeated launches when both
// sides measured it at least twice (one value per record: runs appended
// to a file, or several files concatenated), else the per-repetition
// samples of the records that carry them (SKaMPI, PGMPI). Launches come
// first because they are the independent units: repetitions of one
// launch share its placement, its clock and its neighbours, and a test on
// them alone finds differences between launches that are not changes.
package compare

import (
	"math"
	"slices"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
)

// DefaultAlpha is the significance level of benchstat and of PGMPI.
const DefaultAlpha = 0.05

// The units a case was tested on.
const (
	UnitLaunches = "launches"    // one value per record
	UnitSamples  = "repetitions" // the records' per-repetition samples, pooled
)

// Key names a case: the fields of result.Identity, which merge matches
// runs by (suite, benchmark, class, mode, process count and layout,
// message length, b_eff_io memory chunk, SKaMPI parameter and value, b_eff
// repetition), of which ID is the whole and the rest what the tables show.
type Key struct {
	ID        string `json:"id"`
	Suite     string `json:"suite"`
	Benchmark string `json:"benchmark"`
	Class     string `json:"class,omitempty"`
	Mode      string `json:"mode,omitempty"`
	NProcs    int    `json:"np"`
	Multi     int    `json:"multi"`
	Group     int    `json:"group"`
	Bytes     int    `json:"bytes"`
	Param     string `json:"param,omitempty"`
	X         int    `json:"x,omitempty"`
	Rep       int    `json:"rep,omitempty"`
	Pair      []int  `json:"pair,omitempty"` // links: [src, dst]
}

// Side is one side of a case: its file, the number of records and of
// samples tested, and their median, minimum and maximum in µs.
type Side struct {
	File    string  `json:"file"`
	Records int     `json:"records"`
	N       int     `json:"n"`
	Median  float64 `json:"median_us"`
	Min     float64 `json:"min_us"`
	Max     float64 `json:"max_us"`
}

// Change is the verdict on one case, one line of compare's table and of
// its JSON Lines output.
type Change struct {
	Key
	Metric string `json:"metric"` // the figure compared, e.g. t_max_us (metric)
	Unit   string `json:"unit"`   // UnitLaunches or UnitSamples
	Old    Side   `json:"old"`
	New    Side   `json:"new"`
	// Delta is 100·(new median − old median)/old median: positive is
	// slower, every figure compared being a time. 0 when the old median
	// is not positive.
	Delta float64 `json:"change_pct"`
	// P is the two-sided rank-sum test's p-value.
	P float64 `json:"p_value"`
	// TooFew: even the most extreme ordering of samples this many could
	// not reach Alpha, so no verdict is possible ("~" like benchstat).
	TooFew      bool    `json:"too_few,omitempty"`
	Significant bool    `json:"significant"`
	Alpha       float64 `json:"alpha"`
}

// Slower reports whether c is a significant slowdown of more than pct
// percent.
func (c *Change) Slower(pct float64) bool {
	return c.Significant && c.Delta > pct
}

// Comparison is every case of Old measured in New too, in the order of
// Old, with the count of cases measured on one side only.
type Comparison struct {
	Old, New string
	Alpha    float64
	Changes  []Change
	OnlyOld  int // cases of Old that New did not measure
	OnlyNew  int
	// Geomean is the geometric mean of new median / old median over the
	// cases with positive medians, as benchstat's summary line; 0 if none.
	Geomean float64
}

// Slower are the significant slowdowns beyond pct percent.
func (c *Comparison) Slower(pct float64) []Change {
	var s []Change
	for _, ch := range c.Changes {
		if ch.Slower(pct) {
			s = append(s, ch)
		}
	}
	return s
}

// Set is the records of one file reduced to what compare needs, grouped
// by case in order of first appearance.
type Set struct {
	File  string
	order []string
	cases map[string]*group
}

// group is the points of one case in one file.
type group struct {
	key    Key
	metric string
	points []point
}

// NewSet returns an empty Set for the file name.
func NewSet(file string) *Set {
	return &Set{File: file, cases: map[string]*group{}}
}

// Add keeps the figure of r if r has one compare compares (see Metric).
func (s *Set) Add(r *result.Record) {
	if r.Links != nil {
		// links compares pair by pair, as its records of version 1 were.
		for _, pr := range result.LinksPairs(r, nil) {
			s.Add(&pr)
		}
		return
	}
	p, metric, ok := measure(r)
	if !ok {
		return
	}
	id := result.Identity(r)
	g := s.cases[id]
	if g == nil {
		g = &group{key: keyOf(id, r), metric: metric}
		s.cases[id] = g
		s.order = append(s.order, id)
	}
	g.points = append(g.points, p)
}

// Len is the number of cases in s.
func (s *Set) Len() int { return len(s.order) }

// SetOf is a Set of recs.
func SetOf(file string, recs []result.Record) *Set {
	s := NewSet(file)
	for i := range recs {
		s.Add(&recs[i])
	}
	return s
}

func keyOf(id string, r *result.Record) Key {
	var pair []int
	if r.Suite == result.SuiteLinks && len(r.Groups) == 1 {
		pair = r.Groups[0]
	}
	return Key{Pair: pair, ID: id, Suite: r.Suite, Benchmark: r.Benchmark, Class: r.Class, Mode: r.Mode,
		NProcs: r.NProcs, Multi: r.Multi, Group: r.Group, Bytes: r.Bytes, Param: r.Param, X: r.X, Rep: r.Rep}
}

// Compare compares every case of old with the same case of new at
// significance level alpha.
func Compare(old, new *Set, alpha float64) *Comparison {
	c := &Comparison{Old: old.File, New: new.File, Alpha: alpha}
	logSum, logs := 0.0, 0
	for _, id := range old.order {
		n := new.cases[id]
		if n == nil {
			c.OnlyOld++
			continue
		}
		ch := compareCase(old.cases[id], n, alpha)
		ch.Old.File, ch.New.File = old.File, new.File
		c.Changes = append(c.Changes, ch)
		if ch.Old.Median > 0 && ch.New.Median > 0 {
			logSum += math.Log(ch.New.Median / ch.Old.Median)
			logs++
		}
	}
	for _, id := range new.order {
		if old.cases[id] == nil {
			c.OnlyNew++
		}
	}
	if logs > 0 {
		c.Geomean = math.Exp(logSum / float64(logs))
	}
	return c
}

// compareCase tests the samples of one case.
func compareCase(old, new *group, alpha float64) Change {
	ch := Change{Key: old.key, Metric: old.metric, Alpha: alpha}
	var x, y []float64
	x, y, ch.Unit = samplesOf(old.points, new.points)
	ch.Old = side(x, len(old.points))
	ch.New = side(y, len(new.points))
	if ch.Old.Median > 0 {
		ch.Delta = 100 * (ch.New.Median - ch.Old.Median) / ch.Old.Median
	}
	t := stats.RankSum(x, y, stats.TwoSided)
	ch.P = t.P
	ch.TooFew = MinP(len(x), len(y)) > alpha
	ch.Significant = !ch.TooFew && t.P < alpha
	return ch
}

// samplesOf picks what a case is tested on: the launches when both sides
// have two or more, else the pooled repetitions when every record of the
// case carries them, else the launches (then too few for a verdict).
func samplesOf(old, new []point) (x, y []float64, unit string) {
	if len(old) >= 2 && len(new) >= 2 {
		return values(old), values(new), UnitLaunches
	}
	if all := slices.Concat(old, new); !slices.ContainsFunc(all, func(p point) bool { return len(p.samples) == 0 }) {
		return pooled(old), pooled(new), UnitSamples
	}
	return values(old), values(new), UnitLaunches
}

func values(ps []point) []float64 {
	v := make([]float64, len(ps))
	for i, p := range ps {
		v[i] = p.value
	}
	return v
}

func pooled(ps []point) []float64 {
	var v []float64
	for _, p := range ps {
		v = append(v, p.samples...)
	}
	return v
}

func side(x []float64, records int) Side {
	return Side{Records: records, N: len(x), Median: stats.Median(x), Min: stats.Min(x), Max: stats.Max(x)}
}

// MinP is the smallest two-sided p-value the rank-sum test can give
// samples of n1 and n2 distinct values: both orderings with one sample
// wholly below the other, 2/C(n1+n2, n1). Below it no difference can be
// significant however large (n1 = n2 = 3: 0.1; 4 and 4: 0.029), which
// benchstat reports as "~" with "need more samples".
func MinP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	// C(n1+n2, n1) as a running product, exact enough in float64.
	c := 1.0
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// LaunchesNeeded is the fewest launches of each side with which the
// test can reach alpha at all: the smallest n with MinP(n, n) < alpha
// (4 at 0.05, 5 at 0.01). Fewer give "too few" whatever the change.
func LaunchesNeeded(alpha float64) int {
	n := 1
	for MinP(n, n) >= alpha && n < 1000 {
		n++
	}
	return n
}

// TooFew is the number of cases without a verdict.
func (c *Comparison) TooFew() int {
	n := 0
	for i := range c.Changes {
		if c.Changes[i].TooFew {
			n++
		}
	}
	return n
}
