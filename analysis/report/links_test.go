package report

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/matrix"
	"mpibench/analysis/result"
)

// linksRecords is a 3-process links run with one slow link, 1 → 2, and
// hosts named by host.
func linksRecords(host string) []result.Record {
	var recs []result.Record
	for _, mode := range []string{"send", "recv", "latency"} {
		for s := 0; s < 3; s++ {
			for d := 0; d < 3; d++ {
				if s == d {
					continue
				}
				r := result.Record{Suite: result.SuiteLinks, Benchmark: "links", Class: "pair", Mode: mode, NProcs: 3,
					Groups: [][]int{{s, d}}, Bytes: 1024, Reps: 3, Window: 4, TAvg: 2, MBps: 500,
					PairHosts: []string{host, host}, Context: result.Context{Host: host, MPILibrary: "Open MPI"}}
				if s == 1 && d == 2 {
					r.TAvg, r.MBps = 20, 50
				}
				recs = append(recs, r)
			}
		}
	}
	return recs
}

// Three heat maps, the slow pair outlined and listed, every host name
// escaped, no line plot of the links records.
func TestReportLinks(t *testing.T) {
	bad := "<script>alert(1)</script>"
	var b bytes.Buffer
	if err := HTML(&b, []Input{{Name: "links.jsonl", Records: linksRecords(bad)}}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`id="links"`, "send bandwidth, 3 processes", "receive bandwidth, 3 processes",
		"latency, 3 processes", `stroke="#ff2020"`,
		"&lt;script&gt;alert(1)&lt;/script&gt;:1 → &lt;script&gt;alert(1)&lt;/script&gt;:2 50 MB/s"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, `<rect x=`); n != 3*9+3 {
		t.Errorf("%d squares and outlines, want 3·9 squares and 3 slow pairs outlined", n)
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "t_max") {
		t.Errorf("unescaped host or a line plot of links records:\n%s", page)
	}
	checkLinksDrawn(t, Plots([]Input{{Name: "links.jsonl", Records: linksRecords("h")}}))
}

// checkLinksDrawn: -format png and pdf draw the page's three heat maps
// and nothing else (they once wrote no plot, and exited 0 for png and 2
// for pdf).
func checkLinksDrawn(t *testing.T, ds []Drawing) {
	t.Helper()
	var names []string
	for _, d := range ds {
		if _, ok := d.(*heatFigure); !ok {
			t.Errorf("%s: a %T, want a links heat map", d.Name(), d)
		}
		names = append(names, d.Name())
	}
	want := []string{"links-0-send-np3-1024", "links-0-recv-np3-1024", "links-0-latency-np3-1024"}
	if !slices.Equal(names, want) {
		t.Fatalf("drawings %q, want %q", names, want)
	}
	paths, err := WritePNG(t.TempDir(), ds)
	if err != nil || len(paths) != 3 {
		t.Fatalf("WritePNG: %v, %v", paths, err)
	}
	var pdf bytes.Buffer
	if err := WritePDF(&pdf, ds); err != nil || pdf.Len() == 0 {
		t.Fatalf("WritePDF: %d bytes, %v", pdf.Len(), err)
	}
}

// TestReportLinksSlow: the report flags slow pairs at the run's -slow
// (context.slow_pct): at 95 % the bandwidths of 50 MB/s against 500 are
// no longer slow (90 % worse), the latency of 20 µs against 2 still is;
// without slow_pct it is links' default, 20 %.
func TestReportLinksSlow(t *testing.T) {
	recs := linksRecords("h")
	pct := 95.0
	for i := range recs {
		recs[i].Context.SlowPct = &pct
	}
	for _, c := range []struct {
		recs    []result.Record
		pct     string
		outline int
	}{{recs, "95", 1}, {linksRecords("h"), "20", 3}} {
		var b bytes.Buffer
		if err := HTML(&b, []Input{{Name: "links.jsonl", Records: c.recs}}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if n := strings.Count(page, `<rect x=`); n != 3*9+c.outline {
			t.Errorf("-slow %s: %d squares and outlines, want 3·9 and %d outlined", c.pct, n, c.outline)
		}
		if n := strings.Count(page, "worse by more than "+c.pct+"%"); n != 3 {
			t.Errorf("-slow %s: the threshold in %d of 3 captions", c.pct, n)
		}
	}
}

func TestHeatColour(t *testing.T) {
	if heatColour(0) != "#440154" || heatColour(1) != "#fde725" || heatColour(0.5) != "#21918c" || heatColour(-3) != "#440154" {
		t.Errorf("%s %s %s", heatColour(0), heatColour(1), heatColour(0.5))
	}
}

// Past heatMaxCells ranks the heat map draws blocks of ranks, each with
// its worst pair, and says so; the block of the slow pair is outlined.
func TestHeatMapBlocks(t *testing.T) {
	const p = 200 // blocks of 4: 50×50 squares
	m := &matrix.Matrix{Mode: matrix.Latency, P: p, Hosts: make([]string, p), V: make([][]float64, p)}
	for s := range m.V {
		m.V[s] = make([]float64, p)
		for d := range m.V[s] {
			m.V[s][d] = 2
		}
		m.V[s][s] = math.NaN()
	}
	m.V[101][7] = 50 // in the block of ranks 100-103 → 4-7
	svg := string(heatMap(m, m.Slow(20)))
	if n := strings.Count(svg, "<title>"); n != 50*50 {
		t.Errorf("%d squares, want 2500", n)
	}
	for _, want := range []string{"a square is 4×4 ranks, its worst pair", "ranks 100-103 → 4-7: worst 50 µs", "ranks 0-3 → 0-3: worst 2 µs"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in the heat map", want)
		}
	}
	if n := strings.Count(svg, `stroke="#ff2020"`); n != 1 {
		t.Errorf("%d outlined squares, want 1 (the slow pair's block)", n)
	}
	small := string(heatMap(linksMatrix(t), nil))
	if strings.Contains(small, "a square is") {
		t.Error("a 3-rank map says it aggregates")
	}
}

func linksMatrix(t *testing.T) *matrix.Matrix {
	t.Helper()
	ms := matrix.FromRecords(linksRecords("h"))
	if len(ms) == 0 {
		t.Fatal("no matrix")
	}
	return ms[0]
}
