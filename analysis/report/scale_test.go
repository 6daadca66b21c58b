package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// scalePingPong is a PingPong record of the run started at start.
func scalePingPong(start string, bytes int, tmax float64) result.Record {
	ctx := reportContext("h")
	ctx.Start = start
	return result.Record{Suite: "mpi1", Benchmark: "PingPong", Class: "single", Multi: -1, Group: -1,
		NProcs: 2, Bytes: bytes, Reps: 100, TMin: tmax / 2, TMax: tmax, TAvg: tmax * 0.75, Context: ctx}
}

// TestAggregateRepeated appends three runs to one file: each length is
// one point, the median of its runs, shaded from the smallest to the
// largest; a length of one run only stays as it is.
func TestAggregateRepeated(t *testing.T) {
	recs := []result.Record{
		scalePingPong("run1", 8, 5), scalePingPong("run1", 1024, 2), scalePingPong("run1", 4096, 7),
		scalePingPong("run2", 8, 1), scalePingPong("run2", 1024, 4),
		scalePingPong("run3", 8, 3),
	}
	ms := Group([]Input{{Name: "a", Records: recs}})
	if len(ms) != 1 || !strings.Contains(ms[0].Note, "the median, shaded from the smallest to the largest") {
		t.Fatalf("measurements %d, note %q", len(ms), ms[0].Note)
	}
	tmax := ms[0].Series[0]
	// Medians by hand: 8 B of 5, 1, 3 is 3; 1 KiB of 2, 4 is (2+4)/2 = 3.
	want := []Point{
		{X: 8, Y: 3, Bytes: 8, Time: 3, MBps: 8.0 / 3, N: 3, Lo: 1, Hi: 5},
		{X: 1024, Y: 3, Bytes: 1024, Time: 3, MBps: 1024.0 / 3, N: 2, Lo: 2, Hi: 4},
		{X: 4096, Y: 7, Bytes: 4096, Time: 7, MBps: 4096.0 / 7, N: 1, Lo: 7, Hi: 7},
	}
	if tmax.Label != "a (h, Open MPI v4.1.4) t_max" || len(tmax.Points) != len(want) {
		t.Fatalf("series %q with %d points, want t_max with %d", tmax.Label, len(tmax.Points), len(want))
	}
	for i, p := range tmax.Points {
		if p != want[i] {
			t.Errorf("point %d: %+v, want %+v", i, p, want[i])
		}
	}
	// t_min is t_max/2 at every run: its median is half as large.
	if p := ms[0].Series[2].Points[1]; p.Y != 1.5 || p.Lo != 1 || p.Hi != 2 {
		t.Errorf("t_min at 1 KiB: %+v, want median 1.5 from 1 to 2", p)
	}
	var b bytes.Buffer
	if err := HTML(&b, []Input{{Name: "a", Records: recs}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "a: 6 records") || !strings.Contains(b.String(), "<path") {
		t.Errorf("page does not count the six records or draws nothing")
	}
}

// TestAggregateRate: b_eff_io plots a bandwidth; its median is the
// bandwidth's and the time stated beside it the median time.
func TestAggregateRate(t *testing.T) {
	var recs []result.Record
	for _, run := range []struct {
		mbps, t float64
	}{{10, 8}, {30, 2}, {20, 4}} {
		recs = append(recs, result.Record{Suite: "beffio", Benchmark: "p01", Class: "scatter", Mode: "write",
			NProcs: 2, Bytes: 1 << 20, TMax: run.t, BeffIOFigures: result.BeffIOFigures{IOMBps: run.mbps}, Context: reportContext("h")})
	}
	recs = append(recs, result.Record{Suite: "beffio", Benchmark: "p02", Class: "scatter", Mode: "write",
		NProcs: 2, Bytes: 1 << 20, TMax: 9, BeffIOFigures: result.BeffIOFigures{IOMBps: 99}, Context: reportContext("h")})
	ms := Group([]Input{{Name: "a", Records: recs}})
	ps := ms[0].Series[0].Points
	// Two patterns of one chunk size stay two points; p01's three runs are one.
	if len(ps) != 2 {
		t.Fatalf("%d points, want 2: %+v", len(ps), ps)
	}
	want := Point{X: 1 << 20, Y: 20, Bytes: 1 << 20, Time: 4, MBps: 20, N: 3, Lo: 10, Hi: 30}
	if ps[0] != want {
		t.Errorf("p01: %+v, want %+v", ps[0], want)
	}
	if ps[1].Y != 99 || ps[1].N != 1 {
		t.Errorf("p02: %+v", ps[1])
	}
}

// TestPageCap gives a page more plots, series, points and runs than it
// draws, and checks that it draws the caps and says what it left out.
func TestPageCap(t *testing.T) {
	var recs []result.Record
	// pagePlots+3 measurements, the first with pagePoints+40 lengths.
	for i := range pagePlots + 3 {
		r := scalePingPong("run0", 8, 2)
		r.Benchmark = fmt.Sprintf("B%03d", i)
		recs = append(recs, r)
	}
	for x := range pagePoints + 40 {
		r := scalePingPong("run0", x+1, float64(x+1))
		r.Benchmark = "B000"
		recs = append(recs, r)
	}
	// pageRuns+2 runs: the later ones are counted, not listed.
	for i := range pageRuns + 2 {
		r := scalePingPong(fmt.Sprintf("run%d", i+1), 8, 2)
		r.Benchmark = "B000"
		recs = append(recs, r)
	}
	// pageSeries+1 inputs: one main series each in the shared plot.
	inputs := []Input{{Name: "a", Records: recs}}
	for i := range pageSeries {
		r := scalePingPong("r", 8, 2)
		r.Benchmark = "B000"
		inputs = append(inputs, Input{Name: fmt.Sprintf("in%d", i), Records: []result.Record{r}})
	}
	var b bytes.Buffer
	if err := HTML(&b, inputs); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, `<figure class="plot"`); n != pagePlots {
		t.Errorf("%d plots drawn, want %d", n, pagePlots)
	}
	for _, want := range []string{
		fmt.Sprintf("draws at most %d plots", pagePlots),
		"IMB-MPI1: 3 plots not drawn: B200, 2 processes; B201, 2 processes; B202, 2 processes",
		"40 points not drawn (at most 300 per series, evenly spread)",
		"1 series not drawn (at most 16 per plot)",
		fmt.Sprintf("%d more runs not listed", pageRuns+2+1-pageRuns),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page does not say %q", want)
		}
	}
	// B000's plot draws pagePoints points of its first series: as many
	// markers and more (the other series, the legend).
	fig := regexp.MustCompile(`(?s)<figure class="plot" id="mpi1-B000[^"]*">.*?</figure>`).FindString(page)
	if fig == "" || strings.Count(fig, "<path") < pagePoints {
		t.Errorf("plot of B000 has %d paths, want at least %d", strings.Count(fig, "<path"), pagePoints)
	}
	if len(page) > 20<<20 {
		t.Errorf("page of %d bytes", len(page))
	}
}

// TestPageBytes fills plots to every cap (series, points, all three
// panels: time, bandwidth and ratio) and checks
// that such a plot stays far under the page's bound, which the page may
// pass by one plot, and that the bound stops the drawing with a notice.
func TestPageBytes(t *testing.T) {
	var inputs []Input
	for i := range pageSeries + 1 {
		var recs []result.Record
		for m := range 3 {
			for x := range pagePoints + 10 {
				r := scalePingPong("r", x, 1+float64(x*(i+1)))
				r.Benchmark = fmt.Sprintf("B%d", m)
				r.MBps = float64(x+1) / r.TMax // a bandwidth panel too
				recs = append(recs, r)
			}
		}
		inputs = append(inputs, Input{Name: fmt.Sprintf("in%d", i), Records: recs})
	}
	var full bytes.Buffer
	if err := HTML(&full, inputs); err != nil {
		t.Fatal(err)
	}
	perPlot := full.Len() / 3
	t.Logf("a plot of %d series of %d points: %d bytes", pageSeries, pagePoints, perPlot)
	if perPlot > (20<<20-pageSVGBytes)/2 {
		t.Errorf("a full plot is %d bytes: a page of %d MB of plots and one more could pass 20 MB", perPlot, pageSVGBytes>>20)
	}
	defer func(n int) { pageSVGBytes = n }(pageSVGBytes)
	pageSVGBytes = perPlot / 2
	var b bytes.Buffer
	if err := HTML(&b, inputs); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `<figure class="plot"`); n != 1 {
		t.Errorf("%d plots drawn, want 1", n)
	}
	if !strings.Contains(b.String(), "IMB-MPI1: 2 plots not drawn: B1, 2 processes; B2, 2 processes") {
		t.Error("page does not say which plots it left out")
	}
}
