package report

import (
	"fmt"
	"html/template"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/plot/plotutil"

	"mpibench/analysis/compare"
	"mpibench/analysis/result"
	"mpibench/internal/textout"
)

// HTML renders the records of every input as one self-contained page:
// a header per input (its runs' context), a table of contents by suite,
// one inline SVG plot per measurement with every input overlaid and the
// latency and bandwidth at its smallest and largest abscissa, and the
// comparisons of the SKaMPI report. Nothing is loaded from elsewhere and
// no script runs; html/template escapes every string of a record.
func HTML(w io.Writer, inputs []Input) error {
	return collect(inputs).HTML(w)
}

// HTML renders the collected records as HTML's page, drawing at most
// pagePlots plots of at most pageSeries series of pagePoints points each
// (a page of a few MB whatever the input); the page says what it left
// out.
func (c *Collector) HTML(w io.Writer) error {
	page, err := c.page()
	if err != nil {
		return err
	}
	return writePage(w, htmlTemplate(), page)
}

// writePage executes a page template and writes the page without the
// control characters that escaping leaves in (an escape sequence of a
// record's string would act on the terminal of whoever prints the file).
func writePage(w io.Writer, t *template.Template, data any) error {
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return err
	}
	_, err := io.WriteString(w, textout.CleanText(b.String()))
	return err
}

// Plots are the figures of the inputs (measurements, comparisons, links
// heat maps), in the order the HTML page shows them: what -format png and
// pdf draw.
func Plots(inputs []Input) []Drawing {
	return collect(inputs).Plots()
}

type htmlPage struct {
	Inputs      []htmlInput
	Colors      []string   // of each input's lines
	Diffs       []htmlDiff // the largest differences between the inputs
	Changes     *htmlChanges
	Runs        int // runs listed under provenance
	Shared      int // plots with two inputs or more
	Suites      []htmlSuite
	Comparisons []htmlPlot
	Absent      []Comparison // comparisons a side of which is missing
	SKaMPI      bool
	LeftOut     []string // plots not drawn, by section
	BaseNote    string   // which input is the baseline, and why; "" with one input
}

type htmlInput struct {
	Name    string
	Label   string
	Records int
	Merged  int // runs merged into the input by mpibench merge
	Runs    []htmlRun

	RunsLeft    int // runs not listed
	FiguresLeft int // headline figures not listed
	figures     int // listed
	// start is the earliest start of the input's runs (zero for none),
	// lastStart the start time string of the record before.
	start     time.Time
	lastStart string
}

// htmlRun is one run (one Context) of an input.
type htmlRun struct {
	Rows    [][2]string
	Figures []string // b_eff, b_eff_io, merged runs
}

type htmlSuite struct {
	ID, Title string
	Plots     []htmlPlot
}

type htmlPlot struct {
	M      *Measurement
	Notes  []string // what the panels after the first show
	Panels []htmlPanel
	Legend []htmlLegend
	// The figures beside the plot, and the series and points not drawn.
	Figures []Figure
	LeftOut string
}

// htmlPanel is one plot of a figure: time, bandwidth or ratio.
type htmlPanel struct {
	Class string
	SVG   template.HTML // from vgsvg, which escapes every text it draws
}

func (c *Collector) page() (*htmlPage, error) {
	page := c.pageTop()
	ms := c.Measurements()
	drawn, size := 0, 0
	left := map[string][]string{}
	var leftOrder []string
	for _, m := range ms {
		title := suiteTitles[m.Suite]
		if title == "" {
			title = m.Suite
		}
		if drawn >= pagePlots || size >= pageSVGBytes {
			if left[title] == nil {
				leftOrder = append(leftOrder, title)
			}
			left[title] = append(left[title], m.Title)
			continue
		}
		drawn++
		hp, err := htmlPlotOf(m, true)
		if err != nil {
			return nil, err
		}
		for _, p := range hp.Panels {
			size += len(p.SVG)
		}
		n := len(page.Suites)
		if n == 0 || page.Suites[n-1].ID != m.Suite {
			page.Suites = append(page.Suites, htmlSuite{ID: m.Suite, Title: title})
			n++
		}
		page.Suites[n-1].Plots = append(page.Suites[n-1].Plots, hp)
		page.SKaMPI = page.SKaMPI || m.Suite == result.SuiteSkampi
	}
	page.Suites = append(page.Suites, c.links.suites()...)
	changes, err := c.changes()
	if err != nil {
		return nil, err
	}
	page.Changes = changes
	shown := map[string]bool{}
	for _, m := range Compare(ms) {
		hp, err := htmlPlotOf(m, false)
		if err != nil {
			return nil, err
		}
		page.Comparisons = append(page.Comparisons, hp)
		shown[m.ID] = true
	}
	for _, cp := range Comparisons {
		if !shown[anchor("compare-"+cp.Section)] {
			page.Absent = append(page.Absent, cp)
		}
	}
	for i, t := range leftOrder {
		if i == pageNames {
			page.LeftOut = append(page.LeftOut, fmt.Sprintf("and %d more sections", len(leftOrder)-i))
			break
		}
		page.LeftOut = append(page.LeftOut, pageLeftOut(t, left[t]))
	}
	return page, nil
}

// pageTop is the top of the page: the inputs, their colours, the largest
// differences between them with compare's verdicts, the runs.
func (c *Collector) pageTop() *htmlPage {
	page := &htmlPage{Inputs: c.inputs, BaseNote: c.baseNote()}
	var labels []string
	for i, in := range c.inputs {
		page.Colors = append(page.Colors, cssColor(plotutil.Color(i)))
		page.Runs += len(in.Runs) + in.RunsLeft
		labels = append(labels, in.Label)
	}
	for _, m := range c.Measurements() {
		if m.ratioBase() != nil {
			page.Shared++
		}
	}
	page.Diffs = differences(c.Measurements(), labels, c.g.cases)
	verdicts(page.Diffs, c.comparison)
	return page
}

// The caps of a page: a page drawing every point of every record of a
// million-record file would be hundreds of MB that no browser opens.
const (
	pagePlots   = 200 // plots drawn, comparisons aside
	pageSeries  = 16  // series of one plot
	pagePoints  = 300 // points of one series
	pageRuns    = 20  // runs listed per input
	pageFigures = 60  // headline figures listed per input
	pageNames   = 10  // titles named of the plots left out of a section, and sections
)

// pageSVGBytes bounds the plots of a page (a figure of pageSeries series
// of pagePoints points in its three panels, time, bandwidth and ratio, is
// about 2 MB): the page stays under 20 MB. A variable for the test.
var pageSVGBytes = 15 << 20

// pageLeftOut says which plots of a section were not drawn.
func pageLeftOut(section string, titles []string) string {
	named := titles[:min(len(titles), pageNames)]
	text := fmt.Sprintf("%s: %d plots not drawn: %s", section, len(titles), strings.Join(named, "; "))
	if len(titles) > len(named) {
		text += fmt.Sprintf("; and %d more", len(titles)-len(named))
	}
	return text
}

// htmlPlotOf draws a measurement's figure: its time (or bandwidth) plot
// and, with panels, the bandwidth plot where its records carry a
// throughput and the ratio plot where two inputs or more have it.
func htmlPlotOf(m *Measurement, panels bool) (htmlPlot, error) {
	drawn, left := capMeasurement(m)
	hp := htmlPlot{M: m, Legend: legendOf(drawn), Figures: m.Figures(), LeftOut: left}
	type panel struct {
		class, title string
		m            *Measurement
	}
	ps := []panel{{"main", m.quantity(), drawn}}
	if panels {
		if b := drawn.bandwidth(); b != nil {
			ps = append(ps, panel{"bandwidth", "bandwidth", b})
		}
		if a := drawn.auxPanel(); a != nil {
			ps = append(ps, panel{m.Aux.Class, m.Aux.Title, a})
		}
		if r := drawn.ratio(); r != nil {
			ps = append(ps, panel{"ratio", plotWrap(m.quantity()+" relative to "+drawn.ratioBase().Label, 60), r})
		}
	}
	for i, p := range ps {
		if i > 0 {
			hp.Notes = append(hp.Notes, p.m.Note)
		}
		svg, err := p.m.panelSVG(p.title)
		if err != nil {
			return htmlPlot{}, err
		}
		hp.Panels = append(hp.Panels, htmlPanel{Class: p.class, SVG: template.HTML(svg)})
	}
	return hp, nil
}

// capMeasurement is the measurement as the page draws it: its first
// pageSeries series, each thinned to pagePoints points evenly spread
// over its abscissae (the first and the last kept); and what that left
// out, in words ("" for nothing).
func capMeasurement(m *Measurement) (*Measurement, string) {
	series, points := 0, 0
	c := *m
	if len(c.Series) > pageSeries {
		series = len(c.Series) - pageSeries
		c.Series = c.Series[:pageSeries]
	}
	c.Series = slices.Clone(c.Series)
	for i, s := range c.Series {
		if len(s.Points) <= pagePoints {
			continue
		}
		t := *s
		t.Points = make([]Point, pagePoints)
		for j := range t.Points {
			t.Points[j] = s.Points[j*(len(s.Points)-1)/(pagePoints-1)]
		}
		points += len(s.Points) - pagePoints
		c.Series[i] = &t
	}
	var parts []string
	if series > 0 {
		parts = append(parts, fmt.Sprintf("%d series not drawn (at most %d per plot)", series, pageSeries))
	}
	if points > 0 {
		parts = append(parts, fmt.Sprintf("%d points not drawn (at most %d per series, evenly spread)", points, pagePoints))
	}
	return &c, strings.Join(parts, "; ")
}

// htmlContext lists the set fields of a Context under their JSON names,
// by reflection so that fields added later (node, network, user) show
// without a change here.
func htmlContext(c result.Context) [][2]string {
	var rows [][2]string
	v := reflect.ValueOf(c)
	for i := 0; i < v.NumField(); i++ {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			name = v.Type().Field(i).Name
		}
		if text := htmlValue(v.Field(i)); text != "" {
			rows = append(rows, [2]string{name, text})
		}
	}
	return rows
}

func htmlValue(v reflect.Value) string {
	if v.IsZero() {
		return ""
	}
	if v.Kind() == reflect.Pointer {
		// The value, never the address (links' slow_pct printed as
		// 0x2f202ab13b28: the same inputs gave another page each time).
		return htmlValue(v.Elem())
	}
	if v.Kind() == reflect.Map {
		// IMB 2021's options: "iter=50,40,100 msglog=3:10", by name.
		var parts []string
		for _, k := range v.MapKeys() {
			parts = append(parts, fmt.Sprintf("%v=%v", k.Interface(), v.MapIndex(k).Interface()))
		}
		slices.Sort(parts)
		return strings.Join(parts, " ")
	}
	if v.Kind() == reflect.Slice {
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = fmt.Sprint(v.Index(i).Interface())
		}
		return strings.Join(parts, " ")
	}
	return fmt.Sprint(v.Interface())
}

// htmlFigures are the headline figures a record carries.
func htmlFigures(r *result.Record) []string {
	var fs []string
	if r.Beff != nil {
		fs = append(fs, fmt.Sprintf("b_eff = %.3f MB/s on %d processes (%.3f MB/s per process)", r.Beff.Beff, r.Beff.Procs, r.Beff.PerProc))
	}
	if r.BeffIO != nil {
		fs = append(fs, fmt.Sprintf("b_eff_io = %.3f MB/s, reached on %d processes", r.BeffIO.BeffIO, r.BeffIO.Procs))
	}
	if r.Suite == result.SuiteBeffIO && r.Benchmark == "total" {
		fs = append(fs, fmt.Sprintf("b_eff_io %s %s on %d processes: %.3f MB/s", r.Class, r.Mode, r.NProcs, r.IOMBps))
	}
	return fs
}

var htmlFuncs = template.FuncMap{
	"pagePlots": func() int { return pagePlots },
	"pageMB":    func() int { return pageSVGBytes >> 20 },
	"fig":       figureText,
	// The launches a side compare's test needs at the page's level.
	"launchesNeeded": func() int { return compare.LaunchesNeeded(compare.DefaultAlpha) },
}

// figureText states a point's latency and bandwidth: "latency 4 µs,
// bandwidth 250 MB/s"; a bandwidth test's point (OSU's osu_bw), which has
// no latency, its bandwidth only; a bandwidth of 0 (no bytes) as "–".
func figureText(p Point) string {
	bw := "–"
	if p.MBps != 0 {
		bw = textout.Number(p.MBps) + " MB/s"
	}
	if p.Time == 0 {
		return "bandwidth " + bw
	}
	return "latency " + textout.Number(p.Time) + " µs, bandwidth " + bw
}

// htmlTemplate is parsed on first use: a rank, which never draws, would
// otherwise parse it at start-up and keep its allocations (docs/memory.md).
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(htmlFuncs).Parse(htmlText))
})

const htmlText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mpibench report</title>
<style>
body { font-family: sans-serif; font-size: 15px; line-height: 1.4; margin: 1em 2em; color: #222; max-width: 1320px; }
h1, h2, h3 { font-weight: normal; }
h2 { border-bottom: 1px solid #999; margin-top: 1.5em; }
h3 { margin: 0.2em 0; }
table { border-collapse: collapse; }
table.ctx { font-size: 90%; margin: 0.3em 0; }
table.ctx td, table.diffs td, table.diffs th { border: 1px solid #ccc; padding: 0.15em 0.5em; vertical-align: top; }
table.ctx td:first-child { color: #555; }
table.diffs th { background: #f2f2f2; font-weight: normal; text-align: left; }
table.diffs td.plot { min-width: 10em; }
table.diffs td.input { min-width: 8em; }
div.wide { overflow-x: auto; }
table.diffs td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.slower { color: #a00; } .faster { color: #070; }
details.provenance { margin: 1em 0; }
details.provenance > summary { cursor: pointer; font-size: 110%; }
ul.inputs { list-style: none; padding: 0; }
ul.toc { columns: 3 20em; font-size: 95%; }
figure.plot { margin: 1.2em 0 2em 0; }
.legend { font-size: 14px; margin: 0.3em 0; }
.legend span.entry { display: inline-block; margin-right: 1.5em; }
span.swatch { display: inline-block; width: 2.2em; border-top: 3px solid; vertical-align: middle; margin-right: 0.4em; }
.panels { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: flex-start; }
.panel svg { display: block; width: 600px; max-width: 100%; height: auto; background: #fff; }
.panels figcaption { flex: 1 1 20em; max-width: 600px; }
.note, .figs { font-size: 90%; color: #444; }
</style>
</head>
<body>
<h1>mpibench report</h1>
<ul class="inputs">
{{range $i, $in := .Inputs}}<li class="legend"><span class="swatch" style="border-color: {{index $.Colors $i}}"></span>{{$in.Label}}: {{$in.Records}} records</li>
{{end}}</ul>
{{with .BaseNote}}<p class="note" id="baseline">{{.}}</p>
{{end}}{{if .Diffs}}<h2 id="summary">Largest differences</h2>
<p class="note">Per plot and input, the abscissa where the plotted figure differs most from the baseline's (time: t_max, or SKaMPI's trimmed mean; b_eff, b_eff_io: bandwidth), largest first; and the median change over every abscissa both inputs have. Significant: the two-sided Wilcoxon rank-sum test at α = 0.05 of mpibench compare, on the repeated launches of the case (runs appended to a file, merged files) or else on its records' per-repetition samples; fewer than {{launchesNeeded}} launches a side of records without per-repetition samples are too few to tell.</p>
<div class="wide"><table class="diffs">
<tr><th>plot</th><th>at</th><th>input</th><th>baseline</th><th>this input</th><th>change</th><th></th><th>median change</th><th>significant</th></tr>
{{range .Diffs}}<tr><td class="plot"><a href="#{{.ID}}">{{.Title}}</a></td><td class="num">{{.At}}</td><td class="input">{{.Label}}</td><td class="num">{{.Old}}</td><td class="num">{{.New}}</td><td class="num">{{.Change}}</td><td class="{{.Verdict}}">{{.Verdict}}</td><td class="num">{{.Median}}</td><td>{{.Significant}}</td></tr>
{{end}}</table></div>
{{else if .Shared}}<p class="note">The inputs agree at every point of the {{.Shared}} plots they share.</p>
{{else if gt (len .Inputs) 1}}<p class="note">The inputs share no plot: nothing to compare.</p>
{{end}}<details class="provenance" id="inputs"><summary>Provenance: hosts, MPI library, command line of the {{.Runs}} runs</summary>
{{range $i, $in := .Inputs}}<section class="input">
<h3>{{$in.Label}}</h3>
<p>{{$in.Name}}: {{$in.Records}} records{{if $in.Merged}}, medians of up to {{$in.Merged}} runs (mpibench merge){{end}}.</p>
{{range $in.Runs}}<table class="ctx">
{{range .Rows}}<tr><td>{{index . 0}}</td><td>{{index . 1}}</td></tr>
{{end}}</table>
{{if .Figures}}<ul class="figs">{{range .Figures}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{end}}{{if .RunsLeft}}<p class="note left-out">{{.RunsLeft}} more runs not listed.</p>
{{end}}{{if .FiguresLeft}}<p class="note left-out">{{.FiguresLeft}} more figures not listed.</p>
{{end}}</section>
{{end}}</details>
<h2 id="contents">Contents</h2>
{{if .LeftOut}}<div class="note left-out"><p>This page draws at most {{pagePlots}} plots and {{pageMB}} MB of them; left out:</p>
<ul>{{range .LeftOut}}<li>{{.}}</li>{{end}}</ul></div>
{{end}}
<ul class="toc">
{{with .Changes}}<li><a href="#changes">Changes</a>
<ul>{{range .Plots}}<li><a href="#{{.ID}}">{{.Title}}</a></li>{{end}}</ul></li>
{{end}}{{range .Suites}}<li><a href="#{{.ID}}">{{.Title}}</a>
<ul>{{range .Plots}}<li><a href="#{{.M.ID}}">{{.M.Title}}</a></li>{{end}}</ul></li>
{{end}}{{if .Comparisons}}<li><a href="#comparisons">Comparisons</a>
<ul>{{range .Comparisons}}<li><a href="#{{.M.ID}}">{{.M.Title}}</a></li>{{end}}</ul></li>{{end}}
</ul>
{{with .Changes}}{{template "changes" .}}{{end}}{{range .Suites}}<section class="suite">
<h2 id="{{.ID}}">{{.Title}}</h2>
{{range .Plots}}{{template "plot" .}}{{end}}
</section>
{{end}}{{if .SKaMPI}}<section class="suite">
<h2 id="comparisons">Comparisons</h2>
<p class="note">Section 6 of the SKaMPI report: pairs of measurements drawn together.</p>
{{range .Comparisons}}{{template "plot" .}}{{end}}
{{if .Absent}}<p class="note">Not shown, a measurement missing:
{{range .Absent}}{{.Section}} {{.A}} / {{.B}}; {{end}}</p>{{end}}
</section>{{end}}
</body>
</html>
{{define "changes"}}<section class="suite changes">
<h2 id="changes">Changes</h2>
<p class="note">The verdict of mpibench compare on every case that another input shares with the baseline, {{.Base}}: the two-sided Wilcoxon rank-sum test at α = 0.05 on the repeated launches of the case (runs appended to a file, files concatenated), else on its records' per-repetition samples.</p>
<ul class="counts">{{range .Lines}}<li>{{.}}</li>
{{end}}</ul>
{{if .LeftOut}}<p class="note left-out">{{.LeftOut}}</p>
{{end}}{{range .Plots}}<figure class="plot changes" id="{{.ID}}">
<h3>{{.Title}}</h3>
<div class="legend">{{range .Legend}}<span class="entry"><span class="swatch" style="border-color: {{.Color}}"></span>{{.Label}}</span>
{{end}}<span class="entry">● significant change (α = 0.05)</span>
<span class="entry">○ not significant</span>
<span class="entry">× too few samples for a verdict</span></div>
<div class="panels">
<div class="panel changes">{{.SVG}}</div>
<figcaption>
<p class="note">{{.Note}}</p>
{{if .Listed}}<p class="note">Largest significant changes:</p>
<ul class="figs">{{range .Listed}}<li>{{.}}</li>{{end}}</ul>
{{else}}<p class="note">No significant change.</p>
{{end}}{{if .LeftOut}}<p class="note left-out">{{.LeftOut}}</p>{{end}}
</figcaption>
</div>
</figure>
{{end}}</section>
{{end}}
{{define "plot"}}<figure class="plot" id="{{.M.ID}}">
<h3>{{.M.Title}}</h3>
<div class="legend">{{range .Legend}}<span class="entry"><span class="swatch" style="border-color: {{.Color}}; border-top-style: {{.Style}}"></span>{{.Label}}</span>
{{end}}</div>
<div class="panels">
{{range .Panels}}<div class="panel {{.Class}}">{{.SVG}}</div>
{{end}}<figcaption>
<p class="note">{{.M.Note}}</p>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{if .LeftOut}}<p class="note left-out">{{.LeftOut}}</p>{{end}}
{{if .Figures}}<ul class="figs">{{range .Figures}}<li>{{.Label}}: {{if .Single}}at {{.FirstX}}: {{fig .First}}{{else}}smallest, at {{.FirstX}}: {{fig .First}}; largest, at {{.LastX}}: {{fig .Last}}{{end}}</li>{{end}}</ul>{{end}}
</figcaption>
</div>
</figure>
{{end}}`
