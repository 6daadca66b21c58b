package report

// Every renderer, the HTML of package plots and the texts of package
// report, fed one hostile results file.

import (
	"bytes"
	"mpibench/suites/beff/befftext"
	"mpibench/suites/imb/imbtext"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
)

// escapeBad is a string a hostile results file may carry: markup, an
// attribute break-out, an ampersand and a terminal escape sequence.
const escapeBad = "<script>alert(1)</script>\"><img onerror=x>&\x1b[31m"

// escapeHTML is escapeBad as html/template and vgsvg write it, with the
// escape character replaced.
const escapeHTML = "&lt;script&gt;alert(1)&lt;/script&gt;&#34;&gt;&lt;img onerror=x&gt;&amp;?[31m"

// escapeInput is an input whose host, arguments and benchmark names are
// escapeBad.
func escapeInput() Input {
	in := reportAll("r.jsonl", escapeBad)
	in.Records = append(in.Records, reportSKaMPI(escapeBad, "Pingpong_"+escapeBad)...)
	for i := range in.Records {
		in.Records[i].Context.Args = []string{escapeBad}
		if in.Records[i].Benchmark == "PingPong" {
			in.Records[i].Benchmark = escapeBad
		}
	}
	return in
}

// escapePage: no markup or escape character of escapeBad is left, and its
// escaped form is on the page, in an SVG plot and outside.
func escapePage(t *testing.T, what, page string) {
	t.Helper()
	for _, s := range []string{"<script", "<img", "\x1b"} {
		if strings.Contains(page, s) {
			t.Errorf("%s holds %q", what, s)
		}
	}
	start, end := strings.Index(page, "<svg"), strings.LastIndex(page, "</svg>")
	if start < 0 || end < start {
		t.Fatalf("%s has no SVG plot", what)
	}
	if !strings.Contains(page[start:end], escapeHTML) {
		t.Errorf("%s: the SVG lacks the escaped string %q", what, escapeHTML)
	}
	if !strings.Contains(page[:start], escapeHTML) {
		t.Errorf("%s: the page outside the SVG lacks the escaped string %q", what, escapeHTML)
	}
}

func TestEscapeHTML(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, []Input{escapeInput()}); err != nil {
		t.Fatal(err)
	}
	escapePage(t, "report", b.String())
}

func TestEscapeGuidelineHTML(t *testing.T) {
	gp := guidelineTestPlot()
	gp.Title = escapeBad
	gp.Labels[0] = escapeBad
	var b bytes.Buffer
	if err := GuidelineHTML(&b, GuidelinePage{Text: escapeBad, Plots: []GuidelinePlot{gp}}); err != nil {
		t.Fatal(err)
	}
	escapePage(t, "guideline page", b.String())
}

// escapeText: a text for a terminal keeps escapeBad's markup (it is not
// HTML) but has no control character other than the line break and the
// tab, and shows the escape character as '?'.
func escapeText(t *testing.T, what, text string) {
	t.Helper()
	for _, r := range text {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) {
			t.Errorf("%s holds the control character %U", what, r)
			break
		}
	}
	if clean := textout.Clean(escapeBad); !strings.Contains(text, clean) {
		t.Errorf("%s lacks %q:\n%s", what, clean, text)
	}
}

func TestEscapeIMBText(t *testing.T) {
	in := escapeInput()
	var b bytes.Buffer
	r := imbtext.NewIMBText(&b)
	h := result.Header{Context: in.Records[0].Context, Suite: "mpi1", Part: "MPI-1", Multi: -1, Check: true,
		Benchmarks: []string{escapeBad}}
	if err := r.Start(h); err != nil {
		t.Fatal(err)
	}
	for i := range in.Records[:5] {
		if err := r.Row(&in.Records[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Comment(escapeBad); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish([]string{escapeBad}); err != nil {
		t.Fatal(err)
	}
	escapeText(t, "IMB text", b.String())
}

func TestEscapeBeffText(t *testing.T) {
	recs := reportBeff(escapeBad)
	for i := range recs {
		recs[i].Context.Args = []string{escapeBad}
		if recs[i].Beff == nil {
			recs[i].Benchmark = escapeBad
		}
	}
	recs[len(recs)-1].Beff.Uname = escapeBad
	var b bytes.Buffer
	if err := befftext.BeffText(&b, recs); err != nil {
		t.Fatal(err)
	}
	escapeText(t, "b_eff text", b.String())
}

func TestEscapeBeffIOText(t *testing.T) {
	recs := reportBeffIO(escapeBad)
	for i := range recs {
		recs[i].Context.Args = []string{escapeBad}
	}
	recs[len(recs)-1].BeffIO.Uname = escapeBad
	var b bytes.Buffer
	if err := befftext.BeffIOText(&b, recs); err != nil {
		t.Fatal(err)
	}
	escapeText(t, "b_eff_io text", b.String())
}
