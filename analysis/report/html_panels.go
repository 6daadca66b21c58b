package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotutil"

	"mpibench/analysis/stats"
	"mpibench/internal/textout"
)

// bandwidth is the measurement's throughput panel: the main series of
// every input at the points whose records carry a throughput (IMB's
// Mbytes/sec, in MB of 10^6 bytes), nil when none does.
func (m *Measurement) bandwidth() *Measurement {
	return m.derived("-bw", "MB/s", // gonum/plot pads the top by a long rotated label
		"The records' throughput (IMB's Mbytes/sec) in MB of 10^6 bytes.",
		func(p Point) (float64, bool) { return p.BW, p.BW > 0 })
}

// derived is a panel of another figure of the measurement's records: the
// main series of every input at the points that have it (pick gives it
// and whether the point has it), nil when none has.
func (m *Measurement) derived(suffix, ylabel, note string, pick func(Point) (float64, bool)) *Measurement {
	b := &Measurement{ID: m.ID + suffix, Suite: m.Suite, Title: m.Title, XLabel: m.XLabel,
		YLabel: ylabel, LogX: m.LogX, Note: note}
	for _, s := range m.Series {
		if s.Kind != 0 {
			continue
		}
		t := &Series{Label: s.Label, Name: s.Name, Input: s.Input}
		for _, p := range s.Points {
			if y, ok := pick(p); ok {
				t.Points = append(t.Points, Point{X: p.X, Y: y, Bytes: p.Bytes, N: 1, Lo: y, Hi: y})
			}
		}
		if len(t.Points) > 0 {
			b.Series = append(b.Series, t)
		}
	}
	if len(b.Series) == 0 {
		return nil
	}
	return b
}

// ratioBase is the main series the ratios are taken against: the
// baseline input's, else that of the first input that has the
// measurement; nil when fewer than two inputs have it.
func (m *Measurement) ratioBase() *Series {
	var base *Series
	n := 0
	for _, s := range m.Series {
		if s.Kind != 0 {
			continue
		}
		n++
		if base == nil || base.Input != m.base && (s.Input == m.base || s.Input < base.Input) {
			base = s
		}
	}
	if n < 2 {
		return nil
	}
	return base
}

// ratio is the measurement's ratio panel: every other input's main
// series divided by the baseline's at the abscissae both have, on a
// linear axis where the ratios stay within a factor of 4 (log beyond);
// nil when fewer than two inputs have the measurement.
func (m *Measurement) ratio() *Measurement {
	base := m.ratioBase()
	if base == nil {
		return nil
	}
	r := &Measurement{ID: m.ID + "-ratio", Suite: m.Suite, Title: m.Title, XLabel: m.XLabel,
		YLabel: "ratio", LogX: m.LogX, Ref: 1,
		Note: fmt.Sprintf("Ratio: each input's %s divided by that of the baseline (%s) at the abscissae both have; %s.",
			m.quantity(), base.Label, map[string]string{"time": "below 1 is faster", "bandwidth": "above 1 is faster"}[m.quantity()])}
	for _, s := range m.Series {
		if s.Kind != 0 || s == base {
			continue
		}
		t := &Series{Label: s.Label, Name: s.Name, Input: s.Input}
		for _, d := range pairPoints(base, s) {
			y := d.new / d.old
			t.Points = append(t.Points, Point{X: d.x, Y: y, Bytes: d.bytes, N: 1, Lo: y, Hi: y})
		}
		r.Series = append(r.Series, t)
	}
	r.LinearY = ratioSpan(r) <= 4
	return r
}

// ratioSpan is the largest ratio over the smallest, counting the line at
// 1: beyond a few times a linear axis squeezes the small ratios onto the
// line, and the plot takes a log axis.
func ratioSpan(r *Measurement) float64 {
	lo, hi := 1.0, 1.0
	for _, s := range r.Series {
		for _, p := range s.Points {
			lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
		}
	}
	return hi / lo
}

// quantity is what the measurement plots: time, or bandwidth (b_eff,
// b_eff_io), for which a larger figure is better.
func (m *Measurement) quantity() string {
	if strings.HasPrefix(m.YLabel, "time") {
		return "time"
	}
	return "bandwidth"
}

// pair is one abscissa two series share: the base's figure and the
// other's.
type pair struct {
	x        float64
	bytes    int
	old, new float64
}

// pairPoints are the abscissae of a at which b has a point, both
// figures positive and finite.
func pairPoints(a, b *Series) []pair {
	at := make(map[float64]float64, len(a.Points))
	for _, p := range a.Points {
		at[p.X] = p.Y
	}
	var out []pair
	for _, p := range b.Points {
		old, ok := at[p.X]
		if ok && old > 0 && p.Y > 0 && !math.IsInf(old, 0) && !math.IsInf(p.Y, 0) {
			out = append(out, pair{x: p.X, bytes: p.Bytes, old: old, new: p.Y})
		}
	}
	return out
}

// htmlLegend is one line of a figure's legend: the series' label, its
// colour and line style, written in HTML once for every panel.
type htmlLegend struct {
	Label, Color, Style string
}

func legendOf(m *Measurement) []htmlLegend {
	var out []htmlLegend
	for _, s := range m.Series {
		style := "solid"
		if s.Kind != 0 {
			style = "dashed"
		}
		out = append(out, htmlLegend{Label: s.Label, Color: cssColor(plotutil.Color(s.Input)), Style: style})
	}
	return out
}

func cssColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// htmlDiff is one line of the summary: the largest difference between
// one input and the first in one measurement.
type htmlDiff struct {
	ID, Title   string
	Label, Base string // the input and the baseline
	At          string // the abscissa, with its unit
	Old, New    string // the figures with their unit
	Change      string // in percent, signed
	Median      string // the median change over every abscissa both have
	Verdict     string // slower, faster
	Significant string // the test's verdict, "–" where there is none
	size        float64
	x           float64
	input, base int    // the inputs compared
	caseID      string // result.Identity of the records compared; "" for none
}

// pageDiffs is the number of lines of the summary.
const pageDiffs = 20

// differences are the largest differences of the page: for every
// measurement and every input after the first, the abscissa where the
// figure differs most from the baseline's (by the ratio, either way),
// largest first, at most pageDiffs; none where the figures are equal.
func differences(ms []*Measurement, labels []string, cases map[pointRef]string) []htmlDiff {
	var out []htmlDiff
	for _, m := range ms {
		base := m.ratioBase()
		if base == nil {
			continue
		}
		for _, s := range m.Series {
			if s.Kind == 0 && s != base {
				if d, ok := largestDiff(m, base, s); ok && d.size > 0 {
					d.Label, d.Base = labels[s.Input], labels[base.Input]
					d.input, d.base = s.Input, base.Input
					d.caseID = cases[pointRef{s, d.x}]
					out = append(out, d)
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b htmlDiff) int { return cmp.Compare(b.size, a.size) })
	return out[:min(len(out), pageDiffs)]
}

func largestDiff(m *Measurement, base, s *Series) (htmlDiff, bool) {
	ps := pairPoints(base, s)
	if len(ps) == 0 {
		return htmlDiff{}, false
	}
	best := slices.MaxFunc(ps, func(a, b pair) int {
		return cmp.Compare(math.Abs(math.Log(a.new/a.old)), math.Abs(math.Log(b.new/b.old)))
	})
	ratios := make([]float64, len(ps))
	for i, p := range ps {
		ratios[i] = p.new / p.old
	}
	unit := " µs"
	if m.quantity() != "time" {
		unit = " MB/s"
	}
	worse := best.new > best.old
	if m.quantity() != "time" {
		worse = !worse
	}
	verdict := "faster"
	switch {
	case best.new == best.old:
		verdict = "same"
	case worse:
		verdict = "slower"
	}
	return htmlDiff{ID: m.ID, Title: m.Title, x: best.x,
		At:  m.xText(Point{X: best.x, Bytes: best.bytes}),
		Old: textout.Number(best.old) + unit, New: textout.Number(best.new) + unit,
		Change: fmt.Sprintf("%+.1f %%", 100*(best.new/best.old-1)), Verdict: verdict,
		Median:      fmt.Sprintf("%+.1f %% (%s)", 100*(stats.Median(ratios)-1), plural(len(ratios), "point")),
		Significant: "–", size: math.Abs(math.Log(best.new / best.old))}, true
}

// plural is n with the noun, an s added unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
