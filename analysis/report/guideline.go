package report

import (
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// GuidelinePlot is one violated guideline drawn as the PGMPI paper's
// Fig. 3 draws one: the distribution of the per-launch medians at each
// size, for the function and (for a pattern guideline) its mock-up side
// by side, the violated sizes shaded and marked with their significance.
type GuidelinePlot struct {
	ID     string        // anchor, e.g. "p4-GL3-MPI_Gather"
	Title  string        // e.g. "GL3 MPI_Gather <= MPI_Allgather(n), 4 processes"
	Labels []string      // the two sides, e.g. "MPI_Gather", "Gather_as_Allgather"; one for GL1, GL2
	Sizes  []string      // column labels, one per size
	Values [][][]float64 // [side][size]: the per-launch medians, µs
	Marks  []string      // per size: the stars of a violation, "" where none
}

// GuidelinePage is the HTML report of a guideline check: the text tables
// and one plot per violated guideline.
type GuidelinePage struct {
	Text  string
	Plots []GuidelinePlot
}

// GuidelineHTML writes the page, self-contained, with inline SVG plots.
func GuidelineHTML(w io.Writer, page GuidelinePage) error {
	type shown struct {
		GuidelinePlot
		SVG template.HTML // from vgsvg, which escapes every text it draws
	}
	var plots []shown
	for _, gp := range page.Plots {
		svg, err := gp.SVG()
		if err != nil {
			return err
		}
		plots = append(plots, shown{gp, template.HTML(svg)})
	}
	return writePage(w, guidelineTemplate(), struct {
		Text  string
		Plots []shown
	}{page.Text, plots})
}

// Plot draws the box plots: sides at offsets around each size's index,
// shading behind the violated sizes, the stars above them.
func (gp GuidelinePlot) Plot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = plotWrap(gp.Title, 60)
	p.X.Label.Text = "communication volume n [bytes]"
	p.Y.Label.Text = "median run-time per launch [µs]"
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	lo, hi := gp.span()
	for i, mark := range gp.Marks {
		if mark == "" {
			continue
		}
		shade, err := plotter.NewPolygon(plotter.XYs{{X: float64(i) - 0.5, Y: lo}, {X: float64(i) + 0.5, Y: lo},
			{X: float64(i) + 0.5, Y: hi}, {X: float64(i) - 0.5, Y: hi}})
		if err != nil {
			return nil, err
		}
		shade.Color = color.NRGBA{R: 0xff, A: 0x30}
		shade.LineStyle.Width = 0
		p.Add(shade)
		labels, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: float64(i), Y: hi}}, Labels: []string{mark}})
		if err != nil {
			return nil, err
		}
		p.Add(labels)
	}
	if err := gp.addBoxes(p); err != nil {
		return nil, err
	}
	p.X.Tick.Marker = indexTicks(gp.Sizes)
	p.X.Min, p.X.Max = -0.6, float64(len(gp.Sizes))-0.4
	p.Y.Min, p.Y.Max = lo, hi+0.08*(hi-lo)
	return p, nil
}

func (gp GuidelinePlot) addBoxes(p *plot.Plot) error {
	width := 0.7 / float64(max(len(gp.Labels), 1))
	for side, label := range gp.Labels {
		col := plotutil.Color(side)
		offset := (float64(side) - float64(len(gp.Labels)-1)/2) * width
		drawn := false
		for i, vs := range gp.Values[side] {
			if len(vs) == 0 {
				continue
			}
			box, err := plotter.NewBoxPlot(vg.Points(10), float64(i)+offset, plotter.Values(vs))
			if err != nil {
				return err
			}
			box.FillColor = plotFade(col)
			box.BoxStyle.Color, box.MedianStyle.Color, box.WhiskerStyle.Color = col, col, col
			p.Add(box)
			drawn = true
		}
		if drawn {
			p.Legend.Add(label, boxThumb{col})
		}
	}
	return nil
}

// boxThumb is a legend entry: a box of the side's colour.
type boxThumb struct{ c color.Color }

func (t boxThumb) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(plotFade(t.c), []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
}

// span is the range of every value, widened a little.
func (gp GuidelinePlot) span() (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, side := range gp.Values {
		for _, vs := range side {
			for _, v := range vs {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		return 0, 1
	}
	d := math.Max(hi-lo, math.Abs(hi)*0.01+1e-9)
	return lo - 0.05*d, hi + 0.1*d
}

// indexTicks labels the integer abscissae with the sizes: the sizes are
// drawn evenly spaced, as the paper's figures do, not to scale.
type indexTicks []string

func (t indexTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for i, s := range t {
		if float64(i) >= min && float64(i) <= max {
			ticks = append(ticks, plot.Tick{Value: float64(i), Label: s})
		}
	}
	return ticks
}

// SVG renders the plot as an <svg> element to inline in HTML.
func (gp GuidelinePlot) SVG() ([]byte, error) {
	if len(gp.Values) != len(gp.Labels) {
		return nil, fmt.Errorf("%s: %d sides of values for %d labels", gp.Title, len(gp.Values), len(gp.Labels))
	}
	p, err := gp.Plot()
	if err != nil {
		return nil, err
	}
	return inlineSVG(p)
}

// guidelineTemplate is parsed on first use, as htmlTemplate.
var guidelineTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("guidelines").Parse(guidelineText))
})

const guidelineText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mpibench guideline check</title>
<style>
body { font-family: sans-serif; margin: 1em 2em; color: #222; max-width: 70em; }
h1, h2, h3 { font-weight: normal; }
h2 { border-bottom: 1px solid #999; margin-top: 2em; }
pre { font-size: 85%; overflow-x: auto; }
figure { margin: 1em 0; }
figure svg { width: 100%; max-width: 16cm; height: auto; background: #fff; }
.note { font-size: 90%; color: #444; }
</style>
</head>
<body>
<h1>mpibench guideline check</h1>
<h2 id="tables">Tables</h2>
<pre>{{.Text}}</pre>
<h2 id="violations">Violated guidelines</h2>
{{if not .Plots}}<p>No guideline is violated.</p>{{end}}
{{range .Plots}}<figure class="guideline" id="{{.ID}}">
<h3>{{.Title}}</h3>
{{.SVG}}
<figcaption class="note">Boxes: the medians of the launches at each size. Shaded: sizes where the
guideline is violated; * p &lt; 0.05, ** p &lt; 0.01, *** p &lt; 0.001.</figcaption>
</figure>
{{end}}
</body>
</html>
`
