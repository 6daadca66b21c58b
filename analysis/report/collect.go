package report

import (
	"cmp"
	"slices"
	"strings"

	"mpibench/analysis/compare"
	"mpibench/analysis/result"
)

// Collector builds a report from records handed to it one at a time,
// so that a results file of a million records is scanned, not held: it
// keeps one point per abscissa and series (repeated measurements keep
// only their plotted values, aggregated when the report is made) and
// the header of each input.
type Collector struct {
	g      *grouper
	inputs []htmlInput
	runs   map[string]int // run key → index in the current input's Runs
	label  string
	last   *result.Context // of the record before, and its index in runs
	lastJ  int
	ms     []*Measurement                 // made by Measurements
	sets   []*compare.Set                 // each input's cases, for the summary's verdicts and the Changes section
	comps  map[[2]int]*compare.Comparison // made by comparison
	links  linkSet                        // the links records, drawn as heat maps (links.go)
	// baseline is what SetBaseline was given; base the input it chose.
	baseline string
	base     int
}

// NewCollector returns an empty Collector.
func NewCollector() *Collector {
	return &Collector{g: &grouper{byID: map[string]*Measurement{}}}
}

// Input starts the next input; its records follow with Add.
func (c *Collector) Input(name string) {
	c.inputs = append(c.inputs, htmlInput{Name: name})
	c.sets = append(c.sets, compare.NewSet(name))
	c.runs = map[string]int{}
	c.label = ""
	c.last = nil
}

// Add takes the next record of the current input.
func (c *Collector) Add(r *result.Record) {
	i := len(c.inputs) - 1
	in := &c.inputs[i]
	if in.Records == 0 {
		c.label = inputLabel(in.Name, r)
		in.Label = c.label
	}
	in.Records++
	in.Merged = max(in.Merged, r.Merged)
	in.noteStart(r.Context.Start)
	if r.Skipped() {
		return // a length left out measured nothing: no point, no figure
	}
	c.addRun(in, r)
	if c.links.add(i, c.label, r) {
		return
	}
	c.g.add(i, c.label, r)
	c.sets[i].Add(r)
}

// addRun files the record's headline figures under its run (one results
// file may hold several runs appended to it), listing at most pageRuns
// runs and pageFigures figures; the rest are counted.
func (c *Collector) addRun(in *htmlInput, r *result.Record) {
	j := c.runIndex(in, &r.Context)
	if j < 0 {
		return
	}
	for _, f := range htmlFigures(r) {
		if in.figures >= pageFigures {
			in.FiguresLeft++
			continue
		}
		in.figures++
		in.Runs[j].Figures = append(in.Runs[j].Figures, f)
	}
}

// runIndex is the index of the record's run in in.Runs, -1 for a run
// not listed; the records of a run come together, so that the run of
// the record before is the first guess.
func (c *Collector) runIndex(in *htmlInput, ctx *result.Context) int {
	if l := c.last; l != nil && l.Start == ctx.Start && l.Host == ctx.Host && slices.Equal(l.Args, ctx.Args) {
		return c.lastJ
	}
	key := ctx.Start + "\x00" + strings.Join(ctx.Args, "\x00") + "\x00" + ctx.Host
	j, ok := c.runs[key]
	if !ok {
		j = -1
		if len(in.Runs) < pageRuns {
			j = len(in.Runs)
			in.Runs = append(in.Runs, htmlRun{Rows: htmlContext(*ctx)})
		} else {
			in.RunsLeft++
		}
		c.runs[key] = j
	}
	last := *ctx
	c.last, c.lastJ = &last, j
	return j
}

// Measurements are the plots of every input's records, in suite order
// and within a suite in order of first appearance; repeated measurements
// of a point are one point, their median, with their spread.
func (c *Collector) Measurements() []*Measurement {
	if c.ms != nil {
		return c.ms
	}
	for _, m := range c.g.order {
		spread := false
		for _, s := range m.Series {
			spread = s.aggregate() || spread
			slices.SortStableFunc(s.Points, func(a, b Point) int {
				return cmp.Compare(a.X, b.X)
			})
		}
		if spread {
			m.Note += " Measured more than once (runs appended to one file): the median, shaded from the smallest to the largest."
		}
		m.Note += runNote(m)
		m.LogX = m.LogX && groupPositiveX(m)
		groupPrune(m, len(c.inputs))
	}
	c.base = c.baseInput()
	for _, m := range c.g.order {
		m.base = c.base
	}
	c.ms = slices.Clone(c.g.order)
	slices.SortStableFunc(c.ms, func(a, b *Measurement) int {
		return suiteRank(a.Suite) - suiteRank(b.Suite)
	})
	return c.ms
}

// Plots are the measurements, the comparisons and the links heat maps,
// in the order the HTML page shows them: what -format png and pdf draw.
func (c *Collector) Plots() []Drawing {
	ms := c.Measurements()
	var out []Drawing
	for _, m := range append(slices.Clone(ms), Compare(ms)...) {
		out = append(out, m)
	}
	return append(out, c.links.figures()...)
}

// collect feeds inputs held in memory to a Collector.
func collect(inputs []Input) *Collector {
	c := NewCollector()
	for _, in := range inputs {
		c.Input(in.Name)
		for j := range in.Records {
			c.Add(&in.Records[j])
		}
	}
	return c
}
