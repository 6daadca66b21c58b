package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
)

// reportContext is the context of a fixture run on host.
func reportContext(host string) result.Context {
	return result.Context{Tool: "mpibench 0.1.0", Start: "2026-01-02T03:04:05Z", Host: host,
		Hosts: []string{host}, MPI: "openmpi", MPILibrary: "Open MPI v4.1.4, package: Debian",
		Procs: 4, Args: []string{"mpi1", "-json", "r.jsonl"}}
}

// reportIMB is a PingPong over 0, 1, 10, 100, 1000 bytes with t = 1 +
// bytes/1000·scale µs (t_min, t_avg lower), and a Barrier.
func reportIMB(host string, scale float64) []result.Record {
	var recs []result.Record
	for _, b := range []int{0, 1, 10, 100, 1000} {
		t := 1 + float64(b)/1000*scale
		recs = append(recs, result.Record{Suite: "mpi1", Benchmark: "PingPong", Class: "single",
			Multi: -1, Group: -1, NProcs: 2, Bytes: b, Reps: 1000, TMin: t / 2, TMax: t, TAvg: t * 0.75,
			Context: reportContext(host)})
	}
	recs = append(recs, result.Record{Suite: "mpi1", Benchmark: "Barrier", Class: "collective",
		Multi: -1, Group: -1, NProcs: 4, Reps: 1000, TMin: 3, TMax: 4, TAvg: 3.5, Context: reportContext(host)})
	return recs
}

// reportBeff is pattern ring-1 over three lengths, two methods, two
// repetitions each, and the summary record.
func reportBeff(host string) []result.Record {
	var recs []result.Record
	for _, l := range []int{1, 1024, 1 << 20} {
		for mi, m := range []string{"sendrecv", "alltoallv"} {
			for rep := 1; rep <= 2; rep++ {
				b := float64(l) / 100 * float64(1+mi) * float64(rep)
				recs = append(recs, result.Record{Suite: "beff", Benchmark: "ring-1", Class: "ring",
					Mode: m, Multi: -1, Group: -1, NProcs: 4, Bytes: l, Reps: 10, TMax: 100, BeffFigures: result.BeffFigures{Rep: rep, BMBps: b}, Context: reportContext(host)})
			}
		}
	}
	recs = append(recs, result.Record{Suite: "beff", Benchmark: "b_eff", Class: "summary",
		BeffFigures: result.BeffFigures{Beff: &result.BeffSummary{Beff: 123.5, Procs: 4, PerProc: 30.875}}, Context: reportContext(host)})
	return recs
}

// reportBeffIO is two scatter write patterns, the type total and the
// summary record.
func reportBeffIO(host string) []result.Record {
	c := reportContext(host)
	return []result.Record{
		{Suite: "beffio", Benchmark: "p00", Class: "scatter", Mode: "write", NProcs: 4, Bytes: 1 << 20, TMax: 1e6, BeffIOFigures: result.BeffIOFigures{IOMBps: 400}, Context: c},
		{Suite: "beffio", Benchmark: "p01", Class: "scatter", Mode: "write", NProcs: 4, Bytes: 1024, TMax: 1e6, BeffIOFigures: result.BeffIOFigures{IOMBps: 20}, Context: c},
		{Suite: "beffio", Benchmark: "total", Class: "scatter", Mode: "write", NProcs: 4, TMax: 2e6, BeffIOFigures: result.BeffIOFigures{IOMBps: 210}, Context: c},
		{Suite: "beffio", Benchmark: "b_eff_io", Class: "summary", NProcs: 4, BeffIOFigures: result.BeffIOFigures{BeffIO: &result.BeffIOSummary{BeffIO: 99, Procs: 4}}, Context: c},
	}
}

// reportSKaMPI measures each named measurement: Pingpong_* over bytes,
// *_nodes_* over processes, anything else with no parameter.
func reportSKaMPI(host string, names ...string) []result.Record {
	var recs []result.Record
	for _, name := range names {
		switch {
		case strings.HasPrefix(name, "Pingpong"):
			for _, x := range []int{1, 32, 1024, 65536} {
				recs = append(recs, reportSK(host, name, "pingpong", "bytes", x, 2, x, 10+float64(x)/100))
			}
		case strings.Contains(name, "_nodes"):
			for _, p := range []int{2, 4, 8} {
				recs = append(recs, reportSK(host, name, "collective", "procs", p, p, 256, 5*float64(p)))
			}
		default:
			recs = append(recs, reportSK(host, name, "simple", "none", 0, 1, 0, 0.05))
		}
	}
	return recs
}

func reportSK(host, name, pattern, param string, x, np, bytes int, t float64) result.Record {
	return result.Record{Suite: "skampi", Benchmark: name, Class: pattern, Mode: "MPI_" + name,
		NProcs: np, Bytes: bytes, Reps: 20, SkampiFigures: result.SkampiFigures{Param: param, X: x, Epsilon: 0.05, Reached: true},
		Stats:   &stats.Summary{N: 20, Mean: t * 1.01, Trimmed: t, StdErr: t / 50, Min: t * 0.9, Median: t, Max: t * 1.5},
		Context: reportContext(host)}
}

// reportAll is one input with records of every suite.
func reportAll(name, host string) Input {
	var recs []result.Record
	recs = append(recs, reportIMB(host, 1)...)
	recs = append(recs, reportBeff(host)...)
	recs = append(recs, reportBeffIO(host)...)
	recs = append(recs, reportSKaMPI(host, "Pingpong_Send_Recv", "Pingpong_Isend_Recv", "Bcast_nodes_256", "Wtime")...)
	return Input{Name: name, Records: recs}
}

func reportIDs(ms []*Measurement) []string {
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	return ids
}

func TestReportGroupIdentity(t *testing.T) {
	ms := Group([]Input{reportAll("a.jsonl", "hostA")})
	want := []string{
		"mpi1-PingPong-np2", "mpi1-Barrier-np4",
		"beff-ring-1-np4", "beffio-scatter-write-np4",
		"skampi-Pingpong_Send_Recv-bytes-np2", "skampi-Pingpong_Isend_Recv-bytes-np2",
		"skampi-Bcast_nodes_256-procs-b256", "skampi-Wtime-none-np1-b0",
	}
	if got := reportIDs(ms); !slices.Equal(got, want) {
		t.Fatalf("measurements\n got %q\nwant %q", got, want)
	}
	// One input: PingPong keeps t_max, t_avg, t_min (they differ); the
	// b_eff pattern its maximum and sendrecv; alltoallv is the maximum
	// everywhere and is left out.
	if n := len(ms[0].Series); n != 3 {
		t.Errorf("PingPong: %d series, want 3 (t_max, t_avg, t_min)", n)
	}
	if n := len(ms[2].Series); n != 2 || ms[2].Series[1].Label != "a.jsonl (hostA, Open MPI v4.1.4) sendrecv" {
		t.Errorf("ring-1: %d series, want 2 (max, sendrecv)", n)
	}
	// The maximum over methods and repetitions at L = 1 MiB: alltoallv
	// rep 2, 2^20/100·2·2.
	max := ms[2].Series[0].Points
	if got, want := max[len(max)-1].Y, float64(1<<20)/100*4; got != want {
		t.Errorf("b at L_max = %g, want %g", got, want)
	}
	if got := len(ms[3].Series[0].Points); got != 2 {
		t.Errorf("b_eff_io scatter write: %d points, want 2 (the total is not plotted)", got)
	}
	if ms[6].LogX || !ms[4].LogX {
		t.Errorf("log x: procs %v (want linear), bytes %v (want log)", ms[6].LogX, ms[4].LogX)
	}
}

func TestReportGroupOverlay(t *testing.T) {
	ms := Group([]Input{reportAll("a.jsonl", "hostA"), reportAll("b.jsonl", "hostB")})
	if len(ms) != 8 {
		t.Fatalf("%d measurements of two like inputs, want 8: %q", len(ms), reportIDs(ms))
	}
	for _, m := range ms {
		if len(m.Series) != 2 {
			t.Errorf("%s: %d series, want one main series per input", m.ID, len(m.Series))
			continue
		}
		if m.Series[0].Input != 0 || m.Series[1].Input != 1 || m.Series[0].Kind != 0 || m.Series[1].Kind != 0 {
			t.Errorf("%s: series %+v %+v", m.ID, *m.Series[0], *m.Series[1])
		}
		if !strings.HasPrefix(m.Series[1].Label, "b.jsonl (hostB, Open MPI v4.1.4)") {
			t.Errorf("%s: label %q", m.ID, m.Series[1].Label)
		}
	}
}

func TestReportFigures(t *testing.T) {
	// t = 1 + bytes/1000·3: 1 µs at 0 B, 4 µs at 1000 B, 250 MB/s.
	ms := Group([]Input{{Name: "a", Records: reportIMB("h", 3)}})
	fs := ms[0].Figures()
	if len(fs) != 1 {
		t.Fatalf("%d figures, want one for t_max", len(fs))
	}
	f := fs[0]
	if f.First.Time != 1 || f.First.MBps != 0 || f.FirstX != "0 B" {
		t.Errorf("smallest: %+v at %s, want 1 µs, no bandwidth, at 0 B", f.First, f.FirstX)
	}
	if f.Last.Time != 4 || f.Last.MBps != 250 || f.LastX != "1000 B" {
		t.Errorf("largest: %+v at %s, want 4 µs, 250 MB/s, at 1000 B", f.Last, f.LastX)
	}
	// SKaMPI over processes: the length stays 256 B.
	ms = Group([]Input{{Name: "a", Records: reportSKaMPI("h", "Bcast_nodes_256")}})
	f = ms[0].Figures()[0]
	if f.Last.Time != 40 || f.Last.MBps != 6.4 || f.LastX != "processes 8 (256 B)" {
		t.Errorf("Bcast_nodes_256 at 8 processes: %+v %q", f.Last, f.LastX)
	}
	var b bytes.Buffer
	if err := HTML(&b, []Input{{Name: "a", Records: reportIMB("h", 3)}}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"latency 1 µs", "latency 4 µs, bandwidth 250 MB/s"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("page lacks %q", s)
		}
	}
}

func TestReportEscape(t *testing.T) {
	bad := "<script>alert(1)</script>"
	in := reportAll("<b>x</b>.jsonl", bad)
	for i := range in.Records {
		in.Records[i].Context.Args = []string{bad}
	}
	in.Records = append(in.Records, reportSKaMPI("h", "<img src=x onerror=alert(2)>")...)
	var b bytes.Buffer
	if err := HTML(&b, []Input{in}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, s := range []string{"<script", "<img", "<b>x"} {
		if strings.Contains(page, s) {
			t.Errorf("page holds %q unescaped", s)
		}
	}
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the host name is not on the page, escaped")
	}
}

func TestReportComparisons(t *testing.T) {
	one := Input{Name: "a", Records: reportSKaMPI("h", "Pingpong_Send_Recv", "Reduce")}
	if got := Compare(Group([]Input{one})); len(got) != 0 {
		t.Errorf("comparisons with one side only: %q", reportIDs(got))
	}
	both := Input{Name: "a", Records: reportSKaMPI("h", "Pingpong_Send_Recv", "Pingpong_Ssend_Recv", "Reduce", "Scan")}
	other := Input{Name: "b", Records: reportSKaMPI("h2", "Pingpong_Send_Recv", "Pingpong_Ssend_Recv")}
	got := Compare(Group([]Input{both, other}))
	if ids := reportIDs(got); !slices.Equal(ids, []string{"compare-6.2", "compare-6.13"}) {
		t.Fatalf("comparisons %q, want 6.2 and 6.13", ids)
	}
	// 6.2 over two inputs: Send (solid) and Ssend (dashed) of each.
	if n := len(got[0].Series); n != 4 {
		t.Errorf("6.2: %d series, want 4", n)
	}
	var b bytes.Buffer
	if err := HTML(&b, []Input{both}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.Contains(page, `id="compare-6.2"`) || strings.Contains(page, `id="compare-6.1"`) {
		t.Error("page shows the wrong comparisons")
	}
	if !strings.Contains(page, "6.1 Pingpong_Send_Recv / Pingpong_Isend_Recv") {
		t.Error("page does not list 6.1 as not shown")
	}
}

func TestReportHTMLStructure(t *testing.T) {
	inputs := []Input{reportAll("a.jsonl", "hostA"), reportAll("b.jsonl", "hostB")}
	var b bytes.Buffer
	if err := HTML(&b, inputs); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	plots := len(Plots(inputs))
	if plots != 9 { // 8 measurements and comparison 6.1
		t.Errorf("%d plots, want 9", plots)
	}
	// Two inputs: every measurement gets a ratio panel beside its plot
	// (the comparison does not); no record carries a throughput.
	ratios := strings.Count(page, `<div class="panel ratio">`)
	if ratios != 8 || strings.Contains(page, `<div class="panel bandwidth">`) {
		t.Errorf("%d ratio panels, want 8, and no bandwidth panel", ratios)
	}
	// The Changes section: one plot per suite compare compares (b_eff
	// and b_eff_io too, SKaMPI).
	changes := strings.Count(page, `<div class="panel changes">`)
	if changes != 4 {
		t.Errorf("%d plots of changes, want 4 (mpi1, beff, beffio, skampi)", changes)
	}
	if n := strings.Count(page, "<svg"); n != plots+ratios+changes {
		t.Errorf("%d <svg> elements, want one per plot, ratio and changes plot, %d", n, plots+ratios+changes)
	}
	if n := strings.Count(page, `<figure class="plot"`); n != plots {
		t.Errorf("%d figures, want %d", n, plots)
	}
	if strings.Contains(page, "<?xml") {
		t.Error("inline SVG keeps its XML prolog")
	}
	for _, s := range []string{
		">message length (bytes)</text>", ">time (µs)</text>", ">b (MB/s)</text>",
		">chunk size l (bytes)</text>", ">processes</text>",
		">1k</text>", ">100</text>", ">0</text>", // log ticks, zero bytes
		`<a href="#mpi1">IMB-MPI1</a>`, `<a href="#skampi">SKaMPI</a>`, `<a href="#comparisons">`,
		"b_eff = 123.500 MB/s", "b_eff_io = 99.000 MB/s", "b_eff_io scatter write on 4 processes: 210.000 MB/s",
		"a.jsonl (hostA, Open MPI v4.1.4)", "b.jsonl (hostB, Open MPI v4.1.4)",
	} {
		if !strings.Contains(page, s) {
			t.Errorf("page lacks %q", s)
		}
	}
	// Self-contained: nothing to fetch, nothing to run.
	for _, re := range []string{`<script`, `<link`, `src=`, `url\(`, `@import`, `href="http`} {
		if regexp.MustCompile(re).MatchString(page) {
			t.Errorf("page matches %s", re)
		}
	}
}

func TestReportLogTicks(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks{zero: 0.5}).Ticks(0.5, 2e6) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"1", "10", "100", "1k", "10k", "100k", "1M", "0"}
	if !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	// Inside one decade every tick is labelled.
	n := 0
	for _, tk := range (logTicks{}).Ticks(2, 8) {
		if tk.Label != "" {
			n++
		}
	}
	if n != 7 {
		t.Errorf("%d labels between 2 and 8, want 7", n)
	}
}

func TestReportPNGPDF(t *testing.T) {
	ms := Plots([]Input{reportAll("a.jsonl", "hostA")})
	dir := t.TempDir()
	paths, err := WritePNG(dir, ms)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(ms) {
		t.Fatalf("%d PNG files, want %d", len(paths), len(ms))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 1000 || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s: %d bytes, not a PNG", filepath.Base(p), len(b))
		}
	}
	var pdf bytes.Buffer
	if err := WritePDF(&pdf, ms); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) || !bytes.Contains(pdf.Bytes(), []byte("%%EOF")) {
		t.Errorf("not a PDF: %q", pdf.Bytes()[:min(20, pdf.Len())])
	}
	if n := bytes.Count(pdf.Bytes(), []byte("/Type /Page\n")) + bytes.Count(pdf.Bytes(), []byte("/Type /Page ")); n != len(ms) {
		t.Errorf("PDF has %d pages, want one per plot, %d", n, len(ms))
	}
	if err := WritePDF(&pdf, nil); err == nil {
		t.Error("a PDF of no plots is not an error")
	}
	// Both formats the same way (issue 26: png wrote 0 plots, exit 0).
	empty := filepath.Join(t.TempDir(), "none")
	if paths, err := WritePNG(empty, nil); err == nil || len(paths) != 0 {
		t.Errorf("PNGs of no plots: %v, %v", paths, err)
	}
	if _, err := os.Stat(empty); err == nil {
		t.Error("PNGs of no plots made their directory")
	}
}

// A plot whose figures are zero or NaN keeps a linear axis and draws.
func TestReportDegenerate(t *testing.T) {
	recs := []result.Record{
		{Suite: "mpi1", Benchmark: "Barrier", NProcs: 2, TMax: 0, Context: reportContext("h")},
		{Suite: "skampi", Benchmark: "Wtime", SkampiFigures: result.SkampiFigures{Param: "none"}, Stats: &stats.Summary{N: 1, Trimmed: math.NaN()}, Context: reportContext("h")},
	}
	var b bytes.Buffer
	if err := HTML(&b, []Input{{Name: "z", Records: recs}}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "<svg"); n != 2 {
		t.Errorf("%d plots, want 2", n)
	}
}

// gonum/plot clips a title wider than the plot: long ones are wrapped.
func TestReportWrap(t *testing.T) {
	title := "Pingpong_Send_Recv (MPI_Send), pingpong over the message length, 2 processes"
	got := plotWrap(title, 60)
	lines := strings.Split(got, "\n")
	if len(lines) != 2 || strings.ReplaceAll(got, "\n", " ") != title {
		t.Errorf("wrapped %q", got)
	}
	for _, l := range lines {
		if len(l) > 60 {
			t.Errorf("line %q longer than 60", l)
		}
	}
	if got := plotWrap("short", 60); got != "short" {
		t.Errorf("wrapped %q", got)
	}
}
