package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"

	"mpibench/analysis/matrix"
	"mpibench/analysis/result"
	"mpibench/internal/textout"
)

// LinksSlow is the threshold, in percent, at which the report flags the
// slow pairs of a links matrix whose records do not carry the run's -slow
// (context.slow_pct, recorded since it is): links' default -slow.
const LinksSlow = 20

// slowPct is the threshold of m: its run's -slow, else LinksSlow.
func slowPct(m *matrix.Matrix) float64 {
	if m.SlowPct != nil {
		return *m.SlowPct
	}
	return LinksSlow
}

// linkSet collects the links records of every input as matrices (only
// their values are kept) and draws them as heat maps.
type linkSet struct {
	inputs []linkInput
}

type linkInput struct {
	index int
	label string
	b     matrix.Builder
}

// add takes r if it is a links record and reports whether it was.
func (s *linkSet) add(input int, label string, r *result.Record) bool {
	if r.Suite != result.SuiteLinks {
		return false
	}
	n := len(s.inputs)
	if n == 0 || s.inputs[n-1].index != input {
		s.inputs = append(s.inputs, linkInput{index: input, label: label})
		n++
	}
	return s.inputs[n-1].b.Add(r)
}

// suites is the links section of the page: one heat map per figure,
// process count and length of every input, its slow pairs in the
// caption; nil without links records.
func (s *linkSet) suites() []htmlSuite {
	var plots []htmlPlot
	for _, in := range s.inputs {
		for _, m := range in.b.Matrices() {
			plots = append(plots, linkPlot(in, m))
		}
	}
	if plots == nil {
		return nil
	}
	return []htmlSuite{{ID: result.SuiteLinks, Title: "Every link at once (links)", Plots: plots}}
}

// figures are the heat maps for -format png and pdf, in the page's order.
func (s *linkSet) figures() []Drawing {
	var out []Drawing
	for _, in := range s.inputs {
		for _, m := range in.b.Matrices() {
			out = append(out, &heatFigure{id: linkID(in, m), title: linkTitle(in, m), m: m, slow: m.Slow(slowPct(m))})
		}
	}
	return out
}

func linkID(in linkInput, m *matrix.Matrix) string {
	return anchor(fmt.Sprintf("links-%d-%s-np%d-%d", in.index, m.Mode, m.P, m.Bytes))
}

func linkTitle(in linkInput, m *matrix.Matrix) string {
	return fmt.Sprintf("%s, %s, %d processes", in.label, map[string]string{matrix.Send: "send bandwidth",
		matrix.Recv: "receive bandwidth", matrix.Latency: "latency"}[m.Mode], m.P)
}

func linkPlot(in linkInput, m *matrix.Matrix) htmlPlot {
	id := linkID(in, m)
	pct := slowPct(m)
	slow := m.Slow(pct)
	note := fmt.Sprintf("%s. Row: sender, column: receiver; darker is worse. %d slow pairs (worse by more than %s%% than the median of the other pairs of their row or column, outlined)",
		m.Title(), len(slow), textout.Number(pct))
	var list []string
	for i, p := range slow {
		if i == 20 {
			list = append(list, fmt.Sprintf("and %d more", len(slow)-i))
			break
		}
		list = append(list, fmt.Sprintf("%s → %s %s %s (row median %s, column median %s)", m.Label(p.Src), m.Label(p.Dst),
			textout.Number(p.Value), m.Unit(), textout.Number(p.RowMedian), textout.Number(p.ColMedian)))
	}
	if len(list) > 0 {
		note += ": " + strings.Join(list, "; ")
	}
	title := linkTitle(in, m)
	return htmlPlot{M: &Measurement{ID: id, Suite: result.SuiteLinks, Title: title, Note: note + "."},
		Panels: []htmlPanel{{Class: "heat", SVG: heatMap(m, slow)}}}
}

// heatMaxCells is the most rows (and columns) a heat map draws: past it
// the ranks are taken in blocks, so that the page stays about the same
// size at any P (64² cells: about 0.4 MB of SVG a figure).
const heatMaxCells = 64

// heatMap draws m as an SVG grid: one square per pair coloured from the
// worst value (dark) to the best (light), the diagonal blank, the slow
// pairs outlined in red, rank labels when there is room, and a legend.
// Past heatMaxCells ranks a square is a block of ranks showing its worst
// pair, outlined when it holds a slow pair, and the legend says so.
// Every text is escaped here: the SVG goes into the page as it is.
func heatMap(m *matrix.Matrix, slow []matrix.Pair) template.HTML {
	const side, margin, legend = 480.0, 60.0, 40.0
	blk := (m.P + heatMaxCells - 1) / heatMaxCells
	n := (m.P + blk - 1) / blk
	cell := side / float64(n)
	lo, _, hi := m.Summary()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" font-family="sans-serif" font-size="12">`,
		margin+side+10, margin+side+legend, margin+side+10, margin+side+legend)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := heatWorstIn(m, i*blk, j*blk, blk)
			fill := "#eee"
			if !math.IsNaN(v) {
				fill = heatColour(heatShare(m, v, lo, hi))
			}
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s</title></rect>`,
				margin+float64(j)*cell, margin+float64(i)*cell, cell, cell, fill,
				html.EscapeString(heatTip(m, i*blk, j*blk, blk, v)))
		}
	}
	outlined := map[[2]int]bool{}
	for _, p := range slow {
		c := [2]int{p.Src / blk, p.Dst / blk}
		if outlined[c] {
			continue
		}
		outlined[c] = true
		fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="none" stroke="#ff2020" stroke-width="3"/>`,
			margin+float64(c[1])*cell+1, margin+float64(c[0])*cell+1, cell-2, cell-2)
	}
	heatLabels(&b, m, cell, margin)
	text := fmt.Sprintf("%s: worst %s, best %s %s", m.Mode, textout.Number(heatWorst(m, lo, hi)), textout.Number(heatBest(m, lo, hi)), m.Unit())
	if blk > 1 {
		text += fmt.Sprintf("; a square is %d×%d ranks, its worst pair", blk, blk)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g">%s</text>`, margin, margin+side+25, html.EscapeString(text))
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text above is escaped
}

// heatWorstIn is the worst value of the senders s0… and receivers d0…
// of a blk×blk block (NaN when it has none): one pair when blk is 1.
func heatWorstIn(m *matrix.Matrix, s0, d0, blk int) float64 {
	w := math.NaN()
	for s := s0; s < min(s0+blk, m.P); s++ {
		for d := d0; d < min(d0+blk, m.P); d++ {
			v := m.V[s][d]
			switch {
			case math.IsNaN(v):
			case math.IsNaN(w), m.HigherBetter() && v < w, !m.HigherBetter() && v > w:
				w = v
			}
		}
	}
	return w
}

// heatTip is a square's tooltip: the pair, or the block and its worst.
func heatTip(m *matrix.Matrix, s0, d0, blk int, v float64) string {
	if blk == 1 {
		return fmt.Sprintf("%s → %s: %s %s", m.Label(s0), m.Label(d0), textout.Number(v), m.Unit())
	}
	return fmt.Sprintf("ranks %d-%d → %d-%d: worst %s %s", s0, min(s0+blk, m.P)-1, d0, min(d0+blk, m.P)-1,
		textout.Number(v), m.Unit())
}

// heatLabels writes the rank labels of the rows and columns when a
// cell is tall enough to carry one.
func heatLabels(b *strings.Builder, m *matrix.Matrix, cell, margin float64) {
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle">receiver</text>`, margin+240, 14.0)
	fmt.Fprintf(b, `<text x="14" y="%g" transform="rotate(-90 14 %g)" text-anchor="middle">sender</text>`, margin+240, margin+240)
	if cell < 12 {
		return
	}
	for i := 0; i < m.P && cell*float64(m.P) <= 480; i++ { // one rank a square
		c := margin + (float64(i)+0.5)*cell
		fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle">%d</text>`, c, margin-6, i)
		fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="end" dominant-baseline="middle">%d</text>`, margin-6, c, i)
	}
}

// heatShare places v between the worst (0) and the best (1) value.
func heatShare(m *matrix.Matrix, v, lo, hi float64) float64 {
	if !(hi > lo) {
		return 1
	}
	f := (v - lo) / (hi - lo)
	if !m.HigherBetter() {
		f = 1 - f
	}
	return f
}

func heatWorst(m *matrix.Matrix, lo, hi float64) float64 {
	if m.HigherBetter() {
		return lo
	}
	return hi
}

func heatBest(m *matrix.Matrix, lo, hi float64) float64 {
	if m.HigherBetter() {
		return hi
	}
	return lo
}

// heatColour runs from dark purple (worst) through teal to light yellow
// (best), the ends of viridis, which stays readable in grey.
func heatColour(f float64) string {
	stops := [][3]float64{{68, 1, 84}, {33, 145, 140}, {253, 231, 37}}
	f = math.Max(0, math.Min(1, f)) * float64(len(stops)-1)
	i := min(int(f), len(stops)-2)
	t := f - float64(i)
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(stops[i][k] + t*(stops[i+1][k]-stops[i][k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}
