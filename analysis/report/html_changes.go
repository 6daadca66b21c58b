package report

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mpibench/analysis/compare"
	"mpibench/internal/textout"
)

// changePoints is the most cases one plot of the Changes section draws:
// a million-record input has some ten thousand cases a suite, which as
// SVG glyphs would be megabytes.
const changePoints = 500

// changeListed is the most significant changes a plot's caption names.
const changeListed = 10

// changePlots is the most plots, one per suite, the section draws: the
// suites mpibench writes are a dozen, but a file may name any.
const changePlots = 20

// htmlChanges is the Changes section of a page of two inputs or more:
// mpibench compare's verdict on every case of each later input against
// the first, counted in a line per input and plotted per suite.
type htmlChanges struct {
	Base    string   // the baseline input (Collector.SetBaseline)
	Lines   []string // per later input: what its comparison found
	Plots   []htmlChangePlot
	LeftOut string // the suites not drawn
}

// htmlChangePlot is one suite's plot of the changes.
type htmlChangePlot struct {
	ID, Title string
	Legend    []htmlLegend // the later inputs' colours
	SVG       template.HTML
	Note      string
	Listed    []string // the largest significant changes, in words
	LeftOut   string
}

// changePoint is one case of one later input.
type changePoint struct {
	input int
	ch    *compare.Change
}

// The kinds of point, each with its glyph: filled for a significant
// change, open for none, a cross where the samples were too few.
const (
	changeSignificant = iota
	changeNot
	changeTooFew
)

// comparison is compare's comparison of input b with input a, made once
// for the summary's verdicts and the Changes section both.
func (c *Collector) comparison(a, b int) *compare.Comparison {
	key := [2]int{a, b}
	if comp, ok := c.comps[key]; ok {
		return comp
	}
	if c.comps == nil {
		c.comps = map[[2]int]*compare.Comparison{}
	}
	comp := compare.Compare(c.sets[a], c.sets[b], compare.DefaultAlpha)
	c.comps[key] = comp
	return comp
}

// changes is the Changes section; nil with one input.
func (c *Collector) changes() (*htmlChanges, error) {
	if len(c.inputs) < 2 {
		return nil, nil
	}
	base := c.baseInput()
	hc := &htmlChanges{Base: c.inputLabel(base)}
	bySuite := map[string][]changePoint{}
	var suites []string
	for i := range c.inputs {
		if i == base {
			continue
		}
		comp := c.comparison(base, i)
		hc.Lines = append(hc.Lines, changeLine(c.inputLabel(i), hc.Base, comp))
		for j := range comp.Changes {
			ch := &comp.Changes[j]
			if bySuite[ch.Suite] == nil {
				suites = append(suites, ch.Suite)
			}
			bySuite[ch.Suite] = append(bySuite[ch.Suite], changePoint{i, ch})
		}
	}
	slices.SortStableFunc(suites, func(a, b string) int { return suiteRank(a) - suiteRank(b) })
	if len(suites) > changePlots {
		hc.LeftOut = pageLeftOut("Changes", suites[changePlots:])
		suites = suites[:changePlots]
	}
	for _, s := range suites {
		p, err := c.changePlot(s, hc.Base, bySuite[s])
		if err != nil {
			return nil, err
		}
		hc.Plots = append(hc.Plots, p)
	}
	return hc, nil
}

// inputLabel is input i's label, its file name when it has no record.
func (c *Collector) inputLabel(i int) string {
	if c.inputs[i].Label != "" {
		return c.inputs[i].Label
	}
	return c.inputs[i].Name
}

// changeLine counts the verdicts of one comparison, and where cases had
// too few samples says, in compare's words, how many launches it needs.
func changeLine(label, base string, comp *compare.Comparison) string {
	var slower, faster, not int
	for i := range comp.Changes {
		ch := &comp.Changes[i]
		switch {
		case ch.Significant && ch.New.Median > ch.Old.Median:
			slower++
		case ch.Significant:
			faster++
		case !ch.TooFew:
			not++
		}
	}
	line := fmt.Sprintf("%s against %s: %s compared: %d significantly slower, %d significantly faster, %d not significant, %d with too few samples for a verdict",
		label, base, plural(len(comp.Changes), "case"), slower, faster, not, comp.TooFew())
	if only := comp.OnlyOld + comp.OnlyNew; only > 0 {
		line += fmt.Sprintf("; %s in one input only, not compared", plural(only, "case"))
	}
	line += "."
	if note := strings.TrimPrefix(comp.TooFewNote(), "too few: "); note != "" {
		line += " " + strings.ToUpper(note[:1]) + note[1:] + "."
	}
	return line
}

// changePlot draws one suite's changes: x the message length, y the
// change in percent, one colour per later input, the glyph the verdict.
func (c *Collector) changePlot(suite, base string, pts []changePoint) (htmlChangePlot, error) {
	title := suiteTitles[suite]
	if title == "" {
		title = suite
	}
	drawn, left := changeCap(pts)
	hp := htmlChangePlot{ID: anchor("changes-" + suite), Title: title + ": change against " + base, LeftOut: left}
	var inputs []int
	for _, p := range drawn {
		if !slices.Contains(inputs, p.input) {
			inputs = append(inputs, p.input)
		}
	}
	slices.Sort(inputs)
	for _, i := range inputs {
		hp.Legend = append(hp.Legend, htmlLegend{Label: c.inputLabel(i), Color: cssColor(plotutil.Color(i)), Style: "solid"})
	}
	hp.Note = fmt.Sprintf("Every case of %s (benchmark, mode, processes, length) that both inputs measured: the change of mpibench compare's figure (a time; above 0 is slower) against %s, in percent of its median, at the message length. %s drawn.",
		title, base, plural(len(drawn), "case"))
	hp.Listed = changeList(drawn)
	svg, err := changeSVG(plotWrap(title+", change against the baseline", 60), drawn)
	if err != nil {
		return htmlChangePlot{}, err
	}
	hp.SVG = template.HTML(svg) // from vgsvg, which escapes every text it draws
	return hp, nil
}

// changeCap is the points a plot draws, at most changePoints: the
// significant changes first, then the largest; and what it left out, in
// words. A case whose old median is not positive has no change in
// percent and is not drawn.
func changeCap(pts []changePoint) ([]changePoint, string) {
	var drawn []changePoint
	noPct := 0
	for _, p := range pts {
		if p.ch.Old.Median > 0 {
			drawn = append(drawn, p)
		} else {
			noPct++
		}
	}
	slices.SortStableFunc(drawn, func(a, b changePoint) int {
		if a.ch.Significant != b.ch.Significant {
			if a.ch.Significant {
				return -1
			}
			return 1
		}
		return cmp.Compare(math.Abs(b.ch.Delta), math.Abs(a.ch.Delta))
	})
	var parts []string
	if len(drawn) > changePoints {
		parts = append(parts, fmt.Sprintf("%d cases not drawn (at most %d per plot: the significant changes first, then the largest)",
			len(drawn)-changePoints, changePoints))
		drawn = drawn[:changePoints]
	}
	if noPct > 0 {
		parts = append(parts, fmt.Sprintf("%s not drawn: a first median at or below 0 has no change in percent", plural(noPct, "case")))
	}
	return drawn, strings.Join(parts, "; ")
}

// changeList names the largest significant changes of pts, which
// changeCap sorted so.
func changeList(pts []changePoint) []string {
	var out []string
	for _, p := range pts {
		if !p.ch.Significant || len(out) == changeListed {
			break
		}
		out = append(out, fmt.Sprintf("%s: %s (%s)", p.ch.Label(), changePercent(p.ch.Delta), p.ch.New.File))
	}
	return out
}

// changePercent is a signed change in percent, written plainly.
func changePercent(d float64) string {
	sign := "+"
	if d < 0 {
		sign = "-"
	}
	return sign + textout.Number(math.Abs(d)) + " %"
}

// changeKind is the verdict a point's glyph shows.
func changeKind(ch *compare.Change) int {
	switch {
	case ch.Significant:
		return changeSignificant
	case ch.TooFew:
		return changeTooFew
	}
	return changeNot
}

// changeGlyphs are the glyphs of the kinds: filled, open, a cross.
var changeGlyphs = [...]draw.GlyphDrawer{changeSignificant: draw.CircleGlyph{}, changeNot: ringGlyph{}, changeTooFew: crossGlyph{}}

// changeStroke is the line width of the open glyphs: gonum/plot's own
// RingGlyph and CrossGlyph draw 0.5 pt, too faint to tell from filled.
const changeStroke = 1.5

// ringGlyph is an open circle drawn with changeStroke.
type ringGlyph struct{}

func (ringGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(changeStroke)})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}

// crossGlyph is an × drawn with changeStroke.
type crossGlyph struct{}

func (crossGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(changeStroke)})
	r := sty.Radius * vg.Length(math.Sqrt2/2)
	for _, d := range []vg.Point{{X: r, Y: r}, {X: r, Y: -r}} {
		var p vg.Path
		p.Move(pt.Sub(d))
		p.Line(pt.Add(d))
		c.Stroke(p)
	}
}

// changeSVG draws the points as a panel of the page: a log length axis
// (0 bytes at half the smallest length, labelled "0", as the other
// plots), a linear change axis with a line at 0.
func changeSVG(title string, pts []changePoint) ([]byte, error) {
	p := newPanel(title, "message length (bytes)", "change (%)")
	if err := plotRef(p, 0); err != nil {
		return nil, err
	}
	zero := changeZero(pts)
	logX := zero > 0
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{zero: zero}
	}
	groups := map[[2]int]plotter.XYs{}
	var keys [][2]int
	for _, pt := range pts {
		x := float64(pt.ch.Bytes)
		if logX && x <= 0 {
			x = zero
		}
		k := [2]int{pt.input, changeKind(pt.ch)}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], plotter.XY{X: x, Y: pt.ch.Delta})
	}
	// The open and crossed glyphs first: a filled one stays on top.
	slices.SortStableFunc(keys, func(a, b [2]int) int { return b[1] - a[1] })
	for _, k := range keys {
		s, err := plotter.NewScatter(groups[k])
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(k[0]), Radius: vg.Points(3.5), Shape: changeGlyphs[k[1]]}
		p.Add(s)
	}
	plotPad(&p.X, logX)
	plotPad(&p.Y, false)
	return sizedSVG(p, panelWidth, panelHeight)
}

// changeZero is where a zero length is drawn on the log axis: half the
// smallest positive length; 0 when there is none (a linear axis then).
func changeZero(pts []changePoint) float64 {
	small := math.Inf(1)
	for _, p := range pts {
		if p.ch.Bytes > 0 {
			small = math.Min(small, float64(p.ch.Bytes))
		}
	}
	if math.IsInf(small, 1) {
		return 0
	}
	return small / 2
}
