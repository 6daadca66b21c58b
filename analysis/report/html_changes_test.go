package report

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotutil"

	"mpibench/analysis/compare"

	"mpibench/analysis/result"
)

// changeRecords is compare's planted-record helper (noisy in
// compare/compare_test.go) for the report: launches × cases IMB
// PingPong records, case c of 2^c bytes, whose t_max is 10·(1 +
// 0.01·c) times a noise factor exp(σ·N(0,1)), σ = 3 %, and case c times
// factor[c] where factor has one (a planted change).
func changeRecords(rng *rand.Rand, host string, cases, launches int, factor map[int]float64) []result.Record {
	const sigma = 0.03
	var recs []result.Record
	for l := 0; l < launches; l++ {
		for c := 0; c < cases; c++ {
			t := 10 * (1 + 0.01*float64(c)) * math.Exp(sigma*rng.NormFloat64())
			if f, ok := factor[c]; ok {
				t *= f
			}
			recs = append(recs, result.Record{Suite: result.SuiteMPI1, Benchmark: "PingPong", Class: "single",
				Multi: -1, Group: -1, NProcs: 2, Bytes: 1 << c, Reps: 1000, TMax: t, TAvg: t, TMin: t,
				Context: reportContext(host)})
		}
	}
	return recs
}

// changeInputs are two inputs of twelve cases, launches each: the
// second with case 7 10 % slower and case 3 15 % faster.
func changeInputs(launches int) []Input {
	rng := rand.New(rand.NewPCG(1, 2016))
	return []Input{
		{Name: "a.jsonl", Records: changeRecords(rng, "hostA", 12, launches, nil)},
		{Name: "b.jsonl", Records: changeRecords(rng, "hostB", 12, launches, map[int]float64{7: 1.10, 3: 0.85})},
	}
}

// changePage is the HTML page of inputs and its Changes section.
func changePage(t *testing.T, inputs []Input) (string, string) {
	t.Helper()
	var b bytes.Buffer
	if err := HTML(&b, inputs); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	_, section, _ := strings.Cut(page, `<h2 id="changes">`)
	section, _, _ = strings.Cut(section, "</section>")
	return page, section
}

// changeGlyphCount counts the glyphs of the second input's colour in an
// SVG of the section: filled circles, open circles (drawn with
// changeStroke) and the strokes of crosses (two each).
func changeGlyphCount(svg string) (filled, open, cross int) {
	col := strings.ToUpper(cssColor(plotutil.Color(1)))
	arc := `A3.5,3.5 0 1 1 `
	for _, path := range regexp.MustCompile(`<path d="[^"]*" style="[^"]*"`).FindAllString(svg, -1) {
		switch {
		case strings.Contains(path, arc) && strings.Contains(path, `style="fill:`+col+`"`):
			filled++
		case strings.Contains(path, arc) && strings.Contains(path, "fill:none;stroke:"+col+";stroke-width:1.5"):
			open++
		case strings.Contains(path, "fill:none;stroke:"+col+";stroke-width:1.5"):
			cross++
		}
	}
	return filled, open, cross
}

// Ten launches a side, two planted changes among twelve cases: the
// Changes section counts them, draws them filled and the ten unchanged
// cases open, and names the two, the slower one with its sign.
func TestReportChanges(t *testing.T) {
	page, section := changePage(t, changeInputs(10))
	if section == "" || !strings.Contains(page, `<a href="#changes">Changes</a>`) {
		t.Fatal("no Changes section, or not in the contents")
	}
	if !strings.Contains(section, "12 cases compared: 1 significantly slower, 1 significantly faster, 10 not significant, 0 with too few samples for a verdict.") {
		t.Errorf("count line:\n%s", section)
	}
	if strings.Count(section, "<svg") != 1 || !strings.Contains(section, `id="changes-mpi1"`) || !strings.Contains(section, "● significant change (α = 0.05)") {
		t.Errorf("want one plot, IMB-MPI1's, with the glyphs' legend:\n%s", section)
	}
	if f, o, x := changeGlyphCount(section); f != 2 || o != 10 || x != 0 {
		t.Errorf("%d filled, %d open, %d cross strokes; want 2 planted filled, 10 open", f, o, x)
	}
	listed := regexp.MustCompile(`<li>mpi1 PingPong np=2 (\d+)B: (&#43;|-)`).FindAllStringSubmatch(section, -1)
	if len(listed) != 2 || listed[0][1] != "8" || listed[0][2] != "-" || listed[1][1] != "128" || listed[1][2] != "&#43;" {
		t.Errorf("listed %v, want 8B faster and 128B slower", listed)
	}
	if strings.Index(page, `<h2 id="summary">`) > strings.Index(page, `<h2 id="changes">`) ||
		strings.Index(page, `<h2 id="changes">`) > strings.Index(page, `<h2 id="mpi1">`) {
		t.Error("the Changes section is not between the summary and the figures")
	}
}

// Single launches of IMB (no per-repetition samples): every case too
// few, drawn as a cross, and the line says how many launches the test
// needs; one input, no section.
func TestReportChangesTooFew(t *testing.T) {
	_, section := changePage(t, changeInputs(1))
	need := fmt.Sprintf("the rank-sum test needs at least %d launches of each side", compare.LaunchesNeeded(compare.DefaultAlpha))
	if !strings.Contains(section, "0 not significant, 12 with too few samples for a verdict.") || !strings.Contains(section, need) ||
		!strings.Contains(section, "No significant change.") {
		t.Errorf("section:\n%s", section)
	}
	if f, o, x := changeGlyphCount(section); f != 0 || o != 0 || x != 24 {
		t.Errorf("%d filled, %d open, %d cross strokes; want 12 crosses of 2", f, o, x)
	}
	page, _ := changePage(t, changeInputs(1)[:1])
	if strings.Contains(page, `id="changes"`) {
		t.Error("a page of one input has a Changes section")
	}
}

// A plot draws at most changePoints cases, the significant ones first
// and then the largest changes, and says how many it left out; a case
// with no old median to take a percentage of is left out and counted.
func TestReportChangesCap(t *testing.T) {
	var pts []changePoint
	for i := 0; i < changePoints+100; i++ {
		ch := &compare.Change{Delta: float64(i % 50), Significant: i%97 == 0}
		ch.Old.Median = 1
		pts = append(pts, changePoint{1, ch})
	}
	pts = append(pts, changePoint{1, &compare.Change{Delta: 0}})
	drawn, left := changeCap(pts)
	if len(drawn) != changePoints || !drawn[0].ch.Significant || !drawn[6].ch.Significant || drawn[7].ch.Significant || drawn[7].ch.Delta != 49 {
		t.Errorf("%d drawn, first %+v, eighth %+v", len(drawn), drawn[0].ch, drawn[7].ch)
	}
	if !strings.Contains(left, "100 cases not drawn (at most 500 per plot") || !strings.Contains(left, "1 case not drawn: a first median at or below 0") {
		t.Errorf("left out: %q", left)
	}
}

// A suite and a benchmark named with markup: the Changes section's plot
// title (in the SVG) and its caption carry them escaped.
func TestReportChangesEscape(t *testing.T) {
	in := changeInputs(10)
	for i := range in {
		for j := range in[i].Records {
			in[i].Records[j].Suite = escapeBad
			in[i].Records[j].Benchmark = escapeBad
		}
	}
	page, section := changePage(t, in)
	for _, s := range []string{"<script", "<img", "\x1b"} {
		if strings.Contains(page, s) {
			t.Errorf("the page holds %q", s)
		}
	}
	svgStart := strings.Index(section, "<svg")
	if svgStart < 0 || !strings.Contains(section[svgStart:], escapeHTML) || !strings.Contains(section[:svgStart], escapeHTML) {
		t.Errorf("the Changes section lacks the escaped name in or before its SVG:\n%s", section)
	}
}

// More suites than changePlots: the first are drawn, the rest named.
func TestReportChangesSuites(t *testing.T) {
	in := changeInputs(2)
	for i := range in {
		for j := range in[i].Records {
			in[i].Records[j].Suite = fmt.Sprintf("s%02d", j%(changePlots+5)) // 12 cases × 2 launches: 24 suites, and mpi1 below
		}
		in[i].Records = append(in[i].Records, changeRecords(rand.New(rand.NewPCG(2, 3)), "hostC", 12, 1, nil)...)
	}
	_, section := changePage(t, in)
	if n := strings.Count(section, "<svg"); n != changePlots {
		t.Errorf("%d plots, want %d", n, changePlots)
	}
	if !strings.Contains(section, "Changes: 5 plots not drawn: s19; s20; s21; s22; s23") {
		t.Errorf("no note of the suites left out:\n%s", section[:min(len(section), 3000)])
	}
}
