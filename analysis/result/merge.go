package result

import (
	"math"
	"strconv"

	"mpibench/analysis/stats"
)

// Identity is the key under which Merge matches the records of several
// runs: everything that says what was measured and nothing that says what
// came out. It joins the suite, benchmark, class, mode (IMB aggregate
// mode, b_eff method, b_eff_io access, SKaMPI operation), the process
// count and layout (np, multi, group, groups, map), the message length,
// the b_eff_io memory chunk, the SKaMPI varied parameter and its value,
// the b_eff repetition and the check flag. Two records of one run with
// the same Identity are two samples of the same measurement.
func Identity(r *Record) string {
	return string(appendIdentity(nil, r))
}

// appendIdentity appends Identity without fmt, which took a seventh of
// the time of a merge of a million records.
func appendIdentity(b []byte, r *Record) []byte {
	num := func(name string, v int) {
		b = append(b, name...)
		b = strconv.AppendInt(b, int64(v), 10)
	}
	ints := func(v []int) {
		b = append(b, '[')
		for i, n := range v {
			if i > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(n), 10)
		}
		b = append(b, ']')
	}
	for _, s := range []string{r.Suite, r.Benchmark, r.Class, r.Mode} {
		b = append(append(b, s...), '|')
	}
	num("np=", r.NProcs)
	num("|multi=", r.Multi)
	num("|group=", r.Group)
	b = append(b, "|groups=["...)
	for i, g := range r.Groups {
		if i > 0 {
			b = append(b, ' ')
		}
		ints(g)
	}
	b = append(b, "]|map="...)
	ints(r.Map)
	num("|bytes=", r.Bytes)
	num("|mem=", r.MemBytes)
	num("|"+r.Param+"=", r.X)
	num("|rep=", r.Rep)
	if r.Links != nil {
		num("|rank=", r.Links.Rank)
	}
	b = append(b, "|check="...)
	return strconv.AppendBool(b, r.Check)
}

// MergeResult is what Merge returns besides the records.
type MergeResult struct {
	Records []Record
	Runs    int // runs merged
	Partial int // identities missing from at least one run
}

// Merge matches the records of several runs by Identity and returns one
// record per identity, in order of first appearance, holding the median
// of every measured figure (SKaMPI section 3.3: the median filters the
// outliers that competing jobs or interrupts leave in single runs). The
// rest, Context included, is the first record's; Merged counts the
// records that went into it. An identity missing from some runs keeps the
// median of the runs that have it and is counted in Partial. A record
// that measured nothing (Record.Skipped: a length left out for memory)
// adds no figure: where some run measured the identity, the median is of
// the runs that did; where none did, the first such record stands for it.
func Merge(runs [][]Record) MergeResult {
	m := NewMerger()
	for i, run := range runs {
		for j := range run {
			m.Add(i, &run[j])
		}
	}
	return m.Result(len(runs))
}

// Merger is Merge for records that come one at a time (a results file
// is scanned, not held): it keeps the first record of each identity and
// only the figures of the others, and those only where they are not 0.
type Merger struct {
	byID  map[string]*mergeAcc
	order []*mergeAcc
	key   []byte // the identity being looked up
}

// NewMerger returns an empty Merger.
func NewMerger() *Merger { return &Merger{byID: map[string]*mergeAcc{}} }

// mergeAcc is what a Merger keeps of one identity.
type mergeAcc struct {
	first   Record
	n       int
	runs    int // distinct runs seen
	lastRun int
	reached bool
	figs    [len(mergeFloats) + 1]mergeCol // mergeFloats, then Reps
	stats   [8]mergeCol                    // over the records with Stats
	beff    [len(beffFloats)]mergeCol
	beffIO  mergeCol
	links   [3][]mergeCol // links' t_min_us, t_avg_us, t_max_us, by partner

	// The runs whose record of the identity measured nothing (Skipped).
	skipRuns, skipLast int
}

// mergeCol is the values of one figure; nil vals while all were 0, so
// that the figures a suite does not fill cost nothing.
type mergeCol struct {
	vals []float64
	n    int
}

func (c *mergeCol) add(v float64) {
	if v == 0 && c.vals == nil {
		c.n++
		return
	}
	if c.vals == nil {
		c.vals = make([]float64, c.n, c.n+8)
	}
	c.vals = append(c.vals, v)
	c.n++
}

func (c *mergeCol) median() float64 {
	if c.vals == nil {
		return 0
	}
	return stats.Median(c.vals)
}

// Add takes record r of run run: runs numbered from 0 and added one
// after the other (a run is counted again when it comes back).
func (m *Merger) Add(run int, r *Record) {
	m.key = appendIdentity(m.key[:0], r)
	a := m.byID[string(m.key)]
	if a == nil {
		a = &mergeAcc{first: *r, lastRun: -1, skipLast: -1, reached: true}
		m.byID[string(m.key)] = a
		m.order = append(m.order, a)
	}
	if r.Skipped() {
		a.skip(run)
		return
	}
	if a.n == 0 {
		a.first = *r // the first measured record, not a left-out one
	}
	a.add(run, r)
}

// skip counts a record that measured nothing (Record.Skipped): it adds
// no figure; an identity no run measured stays the first such record.
func (a *mergeAcc) skip(run int) {
	if run != a.skipLast {
		a.skipRuns++
		a.skipLast = run
	}
}

func (a *mergeAcc) add(run int, r *Record) {
	a.n++
	if run != a.lastRun {
		a.runs++
		a.lastRun = run
	}
	a.reached = a.reached && r.Reached
	for i, f := range mergeFloats {
		a.figs[i].add(*f(r))
	}
	a.figs[len(mergeFloats)].add(float64(r.Reps))
	if r.Stats != nil {
		for i, v := range summaryFigures(r.Stats) {
			a.stats[i].add(v)
		}
	}
	if a.first.Beff != nil {
		for i, f := range beffFloats {
			// A record without the summary counts with the first's figure.
			src := a.first.Beff
			if r.Beff != nil {
				src = r.Beff
			}
			a.beff[i].add(*f(src))
		}
	}
	if a.first.BeffIO != nil {
		src := a.first.BeffIO
		if r.BeffIO != nil {
			src = r.BeffIO
		}
		a.beffIO.add(src.BeffIO)
	}
	if a.first.Links != nil && r.Links != nil {
		for i, v := range linksArrays(r.Links) {
			if a.links[i] == nil {
				a.links[i] = make([]mergeCol, len(v))
			}
			for k := range min(len(v), len(a.links[i])) {
				a.links[i][k].add(v[k])
			}
		}
	}
}

func linksArrays(l *Links) [3][]float64 { return [3][]float64{l.TMin, l.TAvg, l.TMax} }

// Result is the merged records of runs runs.
func (m *Merger) Result(runs int) MergeResult {
	res := MergeResult{Runs: runs}
	for _, a := range m.order {
		res.Records = append(res.Records, a.record())
		if a.runs < runs && (a.n > 0 || a.skipRuns < runs) {
			res.Partial++
		}
	}
	return res
}

func (a *mergeAcc) record() Record {
	if a.n == 0 {
		return a.first // every run left it out: one record says so
	}
	out := a.first
	out.Merged = a.n
	for i, f := range mergeFloats {
		*f(&out) = a.figs[i].median()
	}
	// Adaptive repetition counts (SKaMPI, b_eff) differ between runs.
	out.Reps = int(math.Round(a.figs[len(mergeFloats)].median()))
	out.Stats = a.summary()
	out.Reached = a.reached
	// The raw samples, the relative error they give and why they
	// stopped belong to one run; the median record has none of its own.
	out.Samples, out.RelErr, out.Stop = nil, nil, ""
	if a.first.Beff != nil {
		// The per-pattern table stays the first run's.
		s := *a.first.Beff
		for i, f := range beffFloats {
			*f(&s) = a.beff[i].median()
		}
		out.Beff = &s
	}
	if a.first.BeffIO != nil {
		// The partition table stays the first run's.
		s := *a.first.BeffIO
		s.BeffIO = a.beffIO.median()
		out.BeffIO = &s
	}
	if a.first.Links != nil {
		l := *a.first.Links
		var arrays [3][]float64
		for i, cols := range a.links {
			for k := range cols {
				arrays[i] = append(arrays[i], cols[k].median())
			}
		}
		l.TMin, l.TAvg, l.TMax = arrays[0], arrays[1], arrays[2]
		out.Links = &l
	}
	return out
}

// mergeFloats are the measured float figures of a Record, each taken as
// the median over the merged records.
var mergeFloats = [...]func(*Record) *float64{
	func(r *Record) *float64 { return &r.TMin },
	func(r *Record) *float64 { return &r.TMax },
	func(r *Record) *float64 { return &r.TAvg },
	func(r *Record) *float64 { return &r.MBps },
	func(r *Record) *float64 { return &r.Defects },
	func(r *Record) *float64 { return &r.TOvrl },
	func(r *Record) *float64 { return &r.TPure },
	func(r *Record) *float64 { return &r.TCPU },
	func(r *Record) *float64 { return &r.Overlap },
	func(r *Record) *float64 { return &r.CPUMflops },
	func(r *Record) *float64 { return &r.BMBps },
	func(r *Record) *float64 { return &r.IOMBps },
	func(r *Record) *float64 { return &r.Correction },
	func(r *Record) *float64 { return &r.MsgRate },
}

// beffFloats are the headline figures of a b_eff summary.
var beffFloats = [...]func(*BeffSummary) *float64{
	func(b *BeffSummary) *float64 { return &b.Beff },
	func(b *BeffSummary) *float64 { return &b.PerProc },
	func(b *BeffSummary) *float64 { return &b.PrimaryAvg },
	func(b *BeffSummary) *float64 { return &b.RandomAvg },
	func(b *BeffSummary) *float64 { return &b.PingPong },
	func(b *BeffSummary) *float64 { return &b.BeffLmax },
	func(b *BeffSummary) *float64 { return &b.PerProcLmax },
	func(b *BeffSummary) *float64 { return &b.PerProcPrim },
}

// summaryFigures are a Summary's figures in the order summary reads them.
func summaryFigures(s *stats.Summary) [8]float64 {
	return [8]float64{float64(s.N), s.Mean, s.Trimmed, s.StdErr, s.TrimmedStdErr, s.Min, s.Median, s.Max}
}

// summary takes the median of each Summary figure over the records
// that have one: a figure of one run is not combined with another figure
// of the same run, so the result need not be the Summary of any sample
// set, which is what a median of runs means.
func (a *mergeAcc) summary() *stats.Summary {
	if a.stats[0].n == 0 {
		return nil
	}
	var v [8]float64
	for i := range v {
		v[i] = a.stats[i].median()
	}
	return &stats.Summary{N: int(math.Round(v[0])), Mean: v[1], Trimmed: v[2], StdErr: v[3],
		TrimmedStdErr: v[4], Min: v[5], Median: v[6], Max: v[7]}
}
