package report

import (
	"fmt"
	"html/template"
	"io"
	"reflect"
	"strings"

	"mpibench/result"
)

// HTML renders the records of every input as one self-contained page:
// a header per input (its runs' context), a table of contents by suite,
// one inline SVG plot per measurement with every input overlaid and the
// latency and bandwidth at its smallest and largest abscissa, and the
// comparisons of the SKaMPI report. Nothing is loaded from elsewhere and
// no script runs; html/template escapes every string of a record.
func HTML(w io.Writer, inputs []Input) error {
	page, err := htmlBuild(inputs)
	if err != nil {
		return err
	}
	return writePage(w, htmlTemplate, page)
}

// writePage executes a page template and writes the page without the
// control characters that escaping leaves in (an escape sequence of a
// record's string would act on the terminal of whoever prints the file).
func writePage(w io.Writer, t *template.Template, data any) error {
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return err
	}
	_, err := io.WriteString(w, CleanText(b.String()))
	return err
}

// Plots are the measurements of the inputs followed by the comparisons,
// in the order the HTML page shows them: what -format png and pdf draw.
func Plots(inputs []Input) []*Measurement {
	ms := Group(inputs)
	return append(ms, Compare(ms)...)
}

type htmlPage struct {
	Inputs      []htmlInput
	Suites      []htmlSuite
	Comparisons []htmlPlot
	Absent      []Comparison // comparisons a side of which is missing
	SKaMPI      bool
}

type htmlInput struct {
	Name    string
	Label   string
	Records int
	Merged  int // runs merged into the input by mpibench merge
	Runs    []htmlRun
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
	M       *Measurement
	SVG     template.HTML // from vgsvg, which escapes every text it draws
	Figures []Figure
}

func htmlBuild(inputs []Input) (*htmlPage, error) {
	page := &htmlPage{}
	for _, in := range inputs {
		page.Inputs = append(page.Inputs, htmlInputOf(in))
	}
	ms := Group(inputs)
	for _, m := range ms {
		hp, err := htmlPlotOf(m)
		if err != nil {
			return nil, err
		}
		n := len(page.Suites)
		if n == 0 || page.Suites[n-1].ID != m.Suite {
			title := suiteTitles[m.Suite]
			if title == "" {
				title = m.Suite
			}
			page.Suites = append(page.Suites, htmlSuite{ID: m.Suite, Title: title})
			n++
		}
		page.Suites[n-1].Plots = append(page.Suites[n-1].Plots, hp)
		page.SKaMPI = page.SKaMPI || m.Suite == "skampi"
	}
	shown := map[string]bool{}
	for _, m := range Compare(ms) {
		hp, err := htmlPlotOf(m)
		if err != nil {
			return nil, err
		}
		page.Comparisons = append(page.Comparisons, hp)
		shown[m.ID] = true
	}
	for _, c := range Comparisons {
		if !shown[anchor("compare-"+c.Section)] {
			page.Absent = append(page.Absent, c)
		}
	}
	return page, nil
}

func htmlPlotOf(m *Measurement) (htmlPlot, error) {
	svg, err := m.SVG()
	if err != nil {
		return htmlPlot{}, err
	}
	return htmlPlot{M: m, SVG: template.HTML(svg), Figures: m.Figures()}, nil
}

// htmlInputOf describes an input: one run per distinct context, since
// one results file may hold several runs appended to it.
func htmlInputOf(in Input) htmlInput {
	hi := htmlInput{Name: in.Name, Label: InputLabel(in), Records: len(in.Records), Merged: htmlMerged(in)}
	index := map[string]int{}
	for _, r := range in.Records {
		key := r.Context.Start + "\x00" + strings.Join(r.Context.Args, "\x00") + "\x00" + r.Context.Host
		i, ok := index[key]
		if !ok {
			i = len(hi.Runs)
			index[key] = i
			hi.Runs = append(hi.Runs, htmlRun{Rows: htmlContext(r.Context)})
		}
		hi.Runs[i].Figures = append(hi.Runs[i].Figures, htmlFigures(&r)...)
	}
	return hi
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
	if r.Suite == "beffio" && r.Benchmark == "total" {
		fs = append(fs, fmt.Sprintf("b_eff_io %s %s on %d processes: %.3f MB/s", r.Class, r.Mode, r.NProcs, r.IOMBps))
	}
	return fs
}

// htmlMerged is the largest Merged of an input's records, for its header.
func htmlMerged(in Input) int {
	n := 0
	for _, r := range in.Records {
		n = max(n, r.Merged)
	}
	return n
}

var htmlFuncs = template.FuncMap{
	"us": func(v float64) string { return fmt.Sprintf("%.4g µs", v) },
	"mbps": func(v float64) string {
		if v == 0 {
			return "–"
		}
		return fmt.Sprintf("%.4g MB/s", v)
	},
}

var htmlTemplate = template.Must(template.New("report").Funcs(htmlFuncs).Parse(htmlText))

const htmlText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mpibench report</title>
<style>
body { font-family: sans-serif; margin: 1em 2em; color: #222; max-width: 70em; }
h1, h2, h3 { font-weight: normal; }
h2 { border-bottom: 1px solid #999; margin-top: 2em; }
table.ctx { border-collapse: collapse; font-size: 90%; }
table.ctx td { border: 1px solid #ccc; padding: 0.1em 0.5em; vertical-align: top; }
table.ctx td:first-child { color: #555; }
figure { margin: 1em 0; }
figure svg { width: 100%; max-width: 16cm; height: auto; background: #fff; }
.note, .figs { font-size: 90%; color: #444; }
</style>
</head>
<body>
<h1>mpibench report</h1>
<h2 id="inputs">Inputs</h2>
{{range $i, $in := .Inputs}}<section class="input">
<h3>{{$in.Label}}</h3>
<p>{{$in.Name}}: {{$in.Records}} records{{if $in.Merged}}, medians of up to {{$in.Merged}} runs (mpibench merge){{end}}.</p>
{{range $in.Runs}}<table class="ctx">
{{range .Rows}}<tr><td>{{index . 0}}</td><td>{{index . 1}}</td></tr>
{{end}}</table>
{{if .Figures}}<ul class="figs">{{range .Figures}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{end}}</section>
{{end}}
<h2 id="contents">Contents</h2>
<ul class="toc">
{{range .Suites}}<li><a href="#{{.ID}}">{{.Title}}</a>
<ul>{{range .Plots}}<li><a href="#{{.M.ID}}">{{.M.Title}}</a></li>{{end}}</ul></li>
{{end}}{{if .Comparisons}}<li><a href="#comparisons">Comparisons</a>
<ul>{{range .Comparisons}}<li><a href="#{{.M.ID}}">{{.M.Title}}</a></li>{{end}}</ul></li>{{end}}
</ul>
{{range .Suites}}<section class="suite">
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
{{define "plot"}}<figure class="plot" id="{{.M.ID}}">
<h3>{{.M.Title}}</h3>
{{.SVG}}
<figcaption>
<p class="note">{{.M.Note}}</p>
{{if .Figures}}<ul class="figs">{{range .Figures}}<li>{{.Label}}: {{if .Single}}at {{.FirstX}}: latency {{us .First.Time}}, bandwidth {{mbps .First.MBps}}{{else}}smallest, at {{.FirstX}}: latency {{us .First.Time}}, bandwidth {{mbps .First.MBps}}; largest, at {{.LastX}}: latency {{us .Last.Time}}, bandwidth {{mbps .Last.MBps}}{{end}}</li>{{end}}</ul>{{end}}
</figcaption>
</figure>
{{end}}`
