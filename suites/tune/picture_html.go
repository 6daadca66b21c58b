package tune

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"strings"
	"sync"

	"mpibench/internal/textout"
)

// WriteHTML writes the picture of a tune run as one self-contained page:
// per library and collective a map of the grid (rows process counts,
// columns message lengths) whose cells are coloured by the algorithm the
// tuning file selects and say the proof's change, a legend, and a table
// of the points where the default was not the fastest or that were
// rerun. The maps are inline SVG written here, no script runs, nothing is
// loaded from elsewhere, and the same records give the same bytes.
// html/template and html.EscapeString escape every string of a record.
func WriteHTML(w io.Writer, choices []Choice, proofs []Proof) error {
	var page htmlPage
	for i, p := range panelsOf(choices, proofs) {
		page.Panels = append(page.Panels, htmlPanelOf(i, p))
	}
	var b strings.Builder
	if err := pageTemplate().Execute(&b, page); err != nil {
		return err
	}
	// Escaping leaves control characters in: an escape sequence in an
	// algorithm's name would act on the terminal that prints the file.
	_, err := io.WriteString(w, textout.CleanText(b.String()))
	return err
}

type htmlPage struct{ Panels []htmlPanel }

type htmlPanel struct {
	ID, Title string
	Legend    []legendEntry
	Map       template.HTML
	Summary   string
	Rows      []htmlRow
	Failed    []htmlFailed
}

type legendEntry struct{ Colour, Name string }

// htmlRow is a point of the table; its figures are written out already.
type htmlRow struct {
	NP                                  int
	Bytes, Chosen, Winner, Gain, P, Why string
	Change, ProofP                      string
	Slower                              bool // the proof found the file slower
}

type htmlFailed struct {
	NP    int
	Bytes string
	Algs  []failedAlg
}

type failedAlg struct{ Name, Error string }

func htmlPanelOf(i int, p *panel) htmlPanel {
	colours := colourMap(p.algs())
	hp := htmlPanel{
		ID:      fmt.Sprintf("c%d", i+1), // not the names: they are the records'
		Title:   p.title(),
		Legend:  legendOf(p, colours),
		Map:     svgMap(p, colours),
		Summary: p.summary(),
	}
	for _, pt := range p.points() {
		if pt.listed() {
			hp.Rows = append(hp.Rows, htmlRowOf(pt))
		}
		if f := pt.failed(); len(f) > 0 {
			hp.Failed = append(hp.Failed, htmlFailedOf(pt, f))
		}
	}
	return hp
}

// defaultColour is the neutral grey of the cells where the library
// decides; the palette has no grey.
const defaultColour = "#d0d0d0"

// palette are light colours under which black text stays legible
// (ColorBrewer Set3 without its grey); past its end the colours repeat,
// and the legend and each cell's tooltip still name the algorithm.
var palette = []string{"#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
	"#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f"}

func colourMap(algs []Alg) map[Alg]string {
	m := map[Alg]string{}
	for i, a := range algs {
		m[a] = palette[i%len(palette)]
	}
	return m
}

// colour is the fill of a selected algorithm.
func colour(colours map[Alg]string, a Alg) string {
	if a.IsDefault() {
		return defaultColour
	}
	return colours[a]
}

// legendOf lists the default when the panel keeps it somewhere, then the
// chosen algorithms with their IDs.
func legendOf(p *panel, colours map[Alg]string) []legendEntry {
	var out []legendEntry
	for _, pt := range p.points() {
		if pt.chosen().IsDefault() {
			out = append(out, legendEntry{defaultColour, "default"})
			break
		}
	}
	for _, a := range p.algs() {
		out = append(out, legendEntry{colours[a], fmt.Sprintf("%s (%d)", algName(a), a.ID)})
	}
	return out
}

func htmlFailedOf(pt *point, ms []Measured) htmlFailed {
	f := htmlFailed{NP: pt.np, Bytes: textout.Bytes(pt.bytes)}
	for _, m := range ms {
		f.Algs = append(f.Algs, failedAlg{algName(m.Alg), m.Error})
	}
	return f
}

func htmlRowOf(pt *point) htmlRow {
	r := htmlRow{NP: pt.np, Bytes: textout.Bytes(pt.bytes), Chosen: algName(pt.chosen())}
	if c := pt.choice; c != nil {
		r.Winner, r.P, r.Why = algName(c.Winner), significance(c.P, c.Alpha), c.Why
		if g, ok := winnerGain(c); ok {
			r.Gain = textout.Number(g) + " %" // the winner's: never slower
		}
	}
	if pr := pt.proof; pr != nil {
		r.Change, r.ProofP = pct(pr.Change), textout.Number(pr.P)
		if pr.Significant {
			r.Change += "*"
		}
		r.Slower = pr.Significant && pr.Change > 0
	}
	return r
}

// The map's geometry, in pixels: cells, and the margins of the labels.
const (
	cellW, cellH    = 84.0, 28.0
	mapLeft, mapTop = 64.0, 44.0
)

// svgMap draws the panel's grid. Every text from a record is escaped
// here, so the result is safe as template.HTML.
func svgMap(p *panel, colours map[Alg]string) template.HTML {
	w := mapLeft + cellW*float64(len(p.sizes)) + 4
	h := mapTop + cellH*float64(len(p.nps)) + 4
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" font-family="sans-serif" font-size="12">`+"\n",
		w, h, w, h)
	fmt.Fprintf(&b, `<text x="%g" y="14">message length</text>`+"\n", mapLeft)
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">np</text>`+"\n", mapLeft-8, mapTop-8)
	for j, size := range p.sizes {
		fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n",
			mapLeft+cellW*(float64(j)+0.5), mapTop-8, textout.Bytes(size))
	}
	for i, np := range p.nps {
		y := mapTop + cellH*float64(i)
		fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">%d</text>`+"\n", mapLeft-8, y+cellH/2+4, np)
		for j, size := range p.sizes {
			svgCell(&b, p.at[[2]int{np, size}], mapLeft+cellW*float64(j), y, colours)
		}
	}
	b.WriteString("</svg>")
	return template.HTML(b.String())
}

// svgCell draws one cell at x, y: blank and outlined where the grid has
// no point (a ragged grid).
func svgCell(b *strings.Builder, pt *point, x, y float64, colours map[Alg]string) {
	if pt == nil {
		fmt.Fprintf(b, `<rect x="%g" y="%g" width="%g" height="%g" fill="#fff" stroke="#ccc"><title>not measured</title></rect>`+"\n",
			x+1, y+1, cellW-2, cellH-2)
		return
	}
	fmt.Fprintf(b, `<rect x="%g" y="%g" width="%g" height="%g" fill="%s" stroke="#fff" stroke-width="2"><title>%s</title></rect>`+"\n",
		x, y, cellW, cellH, colour(colours, pt.chosen()), html.EscapeString(cellTip(pt)))
	text := cellChange(pt.proof)
	if text == "" {
		return
	}
	fill := "#000"
	if pt.proof.Significant && pt.proof.Change > 0 {
		fill = "#a00" // the file made it slower: the proof failed here
	}
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle" fill="%s">%s</text>`+"\n",
		x+cellW/2, y+cellH/2+4, fill, html.EscapeString(text))
}

// cellTip is a cell's tooltip: "np 4, 1 KiB: ring; proof −23.41 %, p 0.001".
func cellTip(pt *point) string {
	s := fmt.Sprintf("np %d, %s: %s", pt.np, textout.Bytes(pt.bytes), algName(pt.chosen()))
	if pr := pt.proof; pr != nil {
		s += fmt.Sprintf("; proof %s, p %s", pct(pr.Change), textout.Number(pr.P))
	}
	return s
}

// pageTemplate is parsed on first use, as the report's is: every rank of
// every command links this package and never draws (docs/memory.md).
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("tune").Parse(pageText))
})

const pageText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mpibench tune</title>
<style>
body { font-family: sans-serif; font-size: 15px; line-height: 1.4; margin: 1em 2em; color: #222; max-width: 1320px; }
h1, h2 { font-weight: normal; }
h2 { border-bottom: 1px solid #999; margin-top: 1.5em; }
table { border-collapse: collapse; font-size: 90%; margin: 0.5em 0; }
td, th { border: 1px solid #ccc; padding: 0.15em 0.5em; vertical-align: top; }
th { background: #f2f2f2; font-weight: normal; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.slower { color: #a00; }
.legend span.entry { display: inline-block; margin-right: 1.5em; }
span.swatch { display: inline-block; width: 1.2em; height: 1em; vertical-align: middle; margin-right: 0.4em; border: 1px solid #999; }
div.wide { overflow-x: auto; }
.note { font-size: 90%; color: #444; }
</style>
</head>
<body>
<h1>mpibench tune</h1>
<p class="note">Per collective, the algorithm the tuning file selects at each process count (rows) and message length (columns); grey: the library's own choice is kept. A cell gives the proof's change, the tuned launches' median against the default's: negative is faster, * significant (p &lt; α), ~ not significant, blank where the point was not rerun. In the tables, the measured gain is how much faster the fastest algorithm's median was than the default's.</p>
{{if not .Panels}}<p>No choices and no proofs.</p>
{{else}}<ul>
{{range .Panels}}<li><a href="#{{.ID}}">{{.Title}}</a></li>
{{end}}</ul>
{{end}}{{range .Panels}}<section id="{{.ID}}">
<h2>{{.Title}}</h2>
<p class="legend">{{range .Legend}}<span class="entry"><span class="swatch" style="background: {{.Colour}}"></span>{{.Name}}</span>{{end}}</p>
<div class="wide">
{{.Map}}
</div>
<p class="note">{{.Summary}}</p>
{{if .Rows}}<div class="wide"><table>
<tr><th>np</th><th>bytes</th><th>chosen</th><th>fastest</th><th>measured gain</th><th>p</th><th>proof change</th><th>proof p</th><th>why the default was kept</th></tr>
{{range .Rows}}<tr><td class="num">{{.NP}}</td><td class="num">{{.Bytes}}</td><td>{{.Chosen}}</td><td>{{.Winner}}</td><td class="num">{{.Gain}}</td><td class="num">{{.P}}</td><td class="num{{if .Slower}} slower{{end}}">{{.Change}}</td><td class="num">{{.ProofP}}</td><td>{{.Why}}</td></tr>
{{end}}</table></div>
{{end}}{{if .Failed}}<p>Failed algorithms:</p>
<ul>
{{range .Failed}}<li>np {{.NP}}, {{.Bytes}}: {{range $i, $m := .Algs}}{{if $i}}; {{end}}{{$m.Name}}{{with $m.Error}} ({{.}}){{end}}{{end}}</li>
{{end}}</ul>
{{end}}</section>
{{end}}</body>
</html>
`
