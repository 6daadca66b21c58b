package main

// mpibench report and merge: run in process (they never touch MPI) and,
// once, as the built binary outside any launcher.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
)

// reportFile writes a results file of two PingPong lengths and a SKaMPI
// Reduce point, t_max scaled by scale, plus the extra lines, and returns
// its path.
func reportFile(t *testing.T, name, host string, scale float64, extra ...string) string {
	t.Helper()
	var b bytes.Buffer
	ctx := result.Context{Host: host, MPILibrary: "Open MPI v4.1.4", Procs: 2, Args: []string{"mpi1"}}
	recs := []result.Record{
		{Suite: "mpi1", Benchmark: "PingPong", Multi: -1, Group: -1, NProcs: 2, Bytes: 1, TMax: 1 * scale, Context: ctx},
		{Suite: "mpi1", Benchmark: "PingPong", Multi: -1, Group: -1, NProcs: 2, Bytes: 1024, TMax: 10 * scale, Context: ctx},
		{Suite: "skampi", Benchmark: "Reduce", Class: "collective", SkampiFigures: result.SkampiFigures{Param: "bytes", X: 64}, Bytes: 64, NProcs: 2,
			Stats: &stats.Summary{N: 10, Mean: scale, Trimmed: scale, StdErr: 0.01, Min: 1, Median: 1, Max: 1}, Context: ctx},
	}
	w := result.NewWriter(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range extra {
		b.WriteString(e + "\n")
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return path
}

// reportRun runs mpibench in process.
func reportRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestReportCommand(t *testing.T) {
	a := reportFile(t, "a.jsonl", "hostA", 1)
	b := reportFile(t, "b.jsonl", "hostB", 2)
	out := filepath.Join(t.TempDir(), "r.html")
	// Flags after the files, as the usage shows them.
	code, _, stderr := reportRun("report", a, b, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<svg", "a.jsonl (hostA, Open MPI v4.1.4)", "b.jsonl (hostB, Open MPI v4.1.4)"} {
		if !bytes.Contains(page, []byte(s)) {
			t.Errorf("report lacks %q", s)
		}
	}
	if n := bytes.Count(page, []byte(`<figure class="plot"`)); n != 2 {
		t.Errorf("%d plots, want 2 (PingPong, Reduce)", n)
	}
	if n := bytes.Count(page, []byte("<svg")); n != 6 {
		t.Errorf("%d <svg>, want 6 (PingPong, Reduce, each with its ratio panel, and the Changes section's plots of IMB-MPI1 and SKaMPI)", n)
	}
	for _, id := range []string{"changes-mpi1", "changes-skampi"} {
		if !bytes.Contains(page, []byte(`<figure class="plot changes" id="`+id+`">`)) {
			t.Errorf("report lacks the Changes section's plot %s", id)
		}
	}
}

func TestReportFormats(t *testing.T) {
	a := reportFile(t, "a.jsonl", "hostA", 1)
	dir := t.TempDir()
	pdf := filepath.Join(dir, "paper.pdf")
	if code, _, stderr := reportRun("report", "-o", pdf, a); code != 0 {
		t.Fatalf("pdf: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(pdf); !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Errorf("%s is not a PDF", pdf)
	}
	pngs := filepath.Join(dir, "plots")
	if code, _, stderr := reportRun("report", a, "-format", "png", "-o", pngs); code != 0 {
		t.Fatalf("png: exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(pngs, "*.png"))
	if len(files) != 2 {
		t.Fatalf("%d PNG files, want 2", len(files))
	}
	for _, f := range files {
		if b, _ := os.ReadFile(f); !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("%s is not a PNG", f)
		}
	}
}

func TestReportBadInput(t *testing.T) {
	good := reportFile(t, "a.jsonl", "h", 1)
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, []byte("not json\n"), 0o666)
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report"}, "no results file"},
		{[]string{"report", missing}, "missing.jsonl"},
		{[]string{"report", empty}, "empty.jsonl:1: invalid character"},
		{[]string{"report", good, "-bogus"}, "-bogus"},
		{[]string{"report", good, "-format", "svg"}, `-format "svg"`},
		{[]string{"report", good, "-o", filepath.Join(missing, "x", "r.html")}, "r.html"},
		{[]string{"merge", missing}, "missing.jsonl"},
		{[]string{"merge", good, "-o"}, "flag needs an argument"},
		{[]string{"merge", good, "-o", filepath.Join(missing, "x", "m.jsonl")}, "m.jsonl"},
	} {
		code, _, stderr := reportRun(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if code, stdout, _ := reportRun("report", "-h"); code != 0 || !strings.Contains(stdout, "-format") {
		t.Errorf("report -h: exit %d, %q", code, stdout)
	}
}

func TestMergeCommand(t *testing.T) {
	a := reportFile(t, "a.jsonl", "hostA", 1)
	b := reportFile(t, "b.jsonl", "hostB", 4)
	c := reportFile(t, "c.jsonl", "hostC", 2)
	out := filepath.Join(t.TempDir(), "median.jsonl")
	code, _, stderr := reportRun("merge", a, b, c, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, warns, err := result.Read(f, out)
	if err != nil || len(warns) > 0 || len(recs) != 3 {
		t.Fatalf("%d records, %v, %v", len(recs), warns, err)
	}
	// Medians of scale 1, 4, 2: 2.
	if recs[0].TMax != 2 || recs[1].TMax != 20 || recs[2].Stats.Trimmed != 2 || recs[0].Merged != 3 {
		t.Errorf("medians %g %g %g merged %d, want 2 20 2 and 3", recs[0].TMax, recs[1].TMax, recs[2].Stats.Trimmed, recs[0].Merged)
	}
	if recs[0].Context.Host != "hostA" {
		t.Errorf("context of %s, want the first run's", recs[0].Context.Host)
	}
	if !strings.Contains(stderr, "3 runs, 3 measurements") || strings.Contains(stderr, "missing") {
		t.Errorf("stderr %q", stderr)
	}
}

func TestMergePartial(t *testing.T) {
	a := reportFile(t, "a.jsonl", "hostA", 1)
	extra, _ := json.Marshal(result.Record{Suite: "mpi1", Benchmark: "PingPing", NProcs: 2, TMax: 3})
	b := reportFile(t, "b.jsonl", "hostB", 3, string(extra))
	code, stdout, stderr := reportRun("merge", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if recs, warns, err := result.Read(strings.NewReader(stdout), "stdout"); len(recs) != 4 || len(warns) > 0 || err != nil {
		t.Errorf("%d records on stdout (%v, %v), want 4", len(recs), warns, err)
	}
	if !strings.Contains(stderr, "1 missing from some runs") {
		t.Errorf("stderr %q does not count the partial measurement", stderr)
	}
	if !strings.Contains(stdout, `"t_max_us":2,`) {
		t.Errorf("PingPong 1 B median of 1 and 3 is not 2: %s", stdout)
	}
}

// TestReadersRefuseGarbage: JSON that mpibench did not write, or a cut
// line, stops report, merge and compare with exit 2, the file, the line
// and what was wrong, and no output (issue 26: merge wrote an all-zero
// record, report an empty page, both with exit 0).
func TestReadersRefuseGarbage(t *testing.T) {
	good := reportFile(t, "a.jsonl", "h", 1)
	dir := t.TempDir()
	other := filepath.Join(dir, "other.jsonl")
	os.WriteFile(other, []byte(`{"name":"latency","value":1.5}`+"\n"), 0o666)
	cut := reportFile(t, "cut.jsonl", "h", 1, `{"suite": "mpi1", "bench`)
	alien := reportFile(t, "alien.jsonl", "h", 1, `{"suite":"hpl","benchmark":"x"}`)
	for _, c := range []struct {
		file, want string
	}{
		{other, "other.jsonl:1: not an mpibench record: no suite"},
		{cut, "cut.jsonl:5: unexpected end of JSON input"}, // line 1 is the run's header
		{alien, `alien.jsonl:5: not an mpibench record: suite "hpl" is none of mpibench's`},
	} {
		for _, cmd := range [][]string{
			{"report", c.file, "-o", filepath.Join(dir, "r.html")},
			{"merge", c.file, "-o", filepath.Join(dir, "m.jsonl")},
			{"compare", good, c.file, "-json", filepath.Join(dir, "c.jsonl")},
		} {
			code, stdout, stderr := reportRun(cmd...)
			if code != 2 || !strings.Contains(stderr, c.want) || stdout != "" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", cmd, code, stdout, stderr, c.want)
			}
			for _, out := range []string{"r.html", "m.jsonl", "c.jsonl"} {
				if _, err := os.Stat(filepath.Join(dir, out)); err == nil {
					t.Errorf("%q: wrote %s", cmd, out)
				}
			}
		}
	}
}
