package guideline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// gcheckDir writes synthetic launches into a new directory, one
// launch-<k>.jsonl per launch, as the measuring side does.
func gcheckDir(t *testing.T, plant bool) string {
	t.Helper()
	dir := t.TempDir()
	bufs := map[int]*bytes.Buffer{}
	recs := Synthetic(4, 10, plant)
	for i := range recs {
		l := recs[i].Launch
		if bufs[l] == nil {
			bufs[l] = &bytes.Buffer{}
		}
		if err := result.NewWriter(bufs[l]).Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for l, b := range bufs {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("launch-%d.jsonl", l)), b.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// gcheckRunArgs runs mpibench guidelines check with args.
func gcheckRunArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := CheckMain(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestGcheckPlanted(t *testing.T) {
	dir := gcheckDir(t, true)
	tmp := t.TempDir()
	html, js := filepath.Join(tmp, "r.html"), filepath.Join(tmp, "v.jsonl")
	code, out, errs := gcheckRunArgs(dir, "-o", html, "-json", js)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"4           m     1/10", "4           s     1/10", "4           p     1/15",
		"T(64) > T(128)", "T(1024) > 2 T(512)", "MPI_Gather <= MPI_Allgather(n)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(js)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, _, err := result.Read(f, js)
	if err != nil || len(recs) != 4 {
		t.Fatalf("violation records: %d, %v", len(recs), err)
	}
	var ids []string
	for _, r := range recs {
		ids = append(ids, fmt.Sprintf("%s %s %d", r.Guideline, r.Benchmark, r.Bytes))
	}
	if got := strings.Join(ids, ", "); got != "GL1 MPI_Bcast 128, GL2 MPI_Allreduce 1024, GL3 MPI_Gather 4, GL3 MPI_Gather 8" {
		t.Errorf("violations: %s", got)
	}
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	// One plot per violated guideline and function: GL1, GL2, GL3.
	if n := strings.Count(page, `<figure class="guideline"`); n != 3 {
		t.Errorf("%d plots, want 3", n)
	}
	for _, id := range []string{`id="p4-GL1-MPI_Bcast"`, `id="p4-GL2-MPI_Allreduce"`, `id="p4-GL3-MPI_Gather"`} {
		if !strings.Contains(page, id) {
			t.Errorf("html lacks %s", id)
		}
	}
	if strings.Count(page, "<svg") != 3 || !strings.Contains(page, "Gather_as_Allgather") {
		t.Errorf("html: want 3 svg plots and the mock-up's legend")
	}
}

func TestGcheckClean(t *testing.T) {
	dir := gcheckDir(t, false)
	html := filepath.Join(t.TempDir(), "r.html")
	for _, test := range []string{"wilcoxon", "ks"} {
		code, out, errs := gcheckRunArgs("-test", test, dir, "-o", html)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.HasSuffix(out, "\nnone\n") || !strings.Contains(out, "4           p     0/15") {
			t.Errorf("%s: clean data reported violations:\n%s", test, out)
		}
		b, _ := os.ReadFile(html)
		if !strings.Contains(string(b), "No guideline is violated.") {
			t.Errorf("%s: html does not say no guideline is violated", test)
		}
	}
}

// The report names the GL2 rule it used: the paper's median rule by
// default, the scaled-distribution test with -split test.
func TestGcheckSplitRule(t *testing.T) {
	dir := gcheckDir(t, true)
	js := filepath.Join(t.TempDir(), "v.jsonl")
	for _, c := range []struct{ args, want []string }{
		{nil, []string{"split-robustness (GL2): median rule of PGMPI IV-C2", "T(1024) > 2 T(512)", "median +", `"test":"median"`}},
		{[]string{"-split", "test"}, []string{"split-robustness (GL2): Wilcoxon rank-sum test of T(m_j) against the distribution at m_i scaled by 1.05·k (-split test, not the paper's rule)",
			"T(1024) > 2 T(512)", `"test":"wilcoxon"`}},
	} {
		code, out, errs := gcheckRunArgs(append([]string{dir, "-json", js}, c.args...)...)
		b, _ := os.ReadFile(js)
		out += string(b)
		for _, want := range c.want {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("%q: exit %d %s, output lacks %q:\n%s", c.args, code, errs, want, out)
			}
		}
		os.Remove(js)
	}
	if code, _, errs := gcheckRunArgs(dir, "-split", "scaled"); code != 2 || !strings.Contains(errs, `split rule "scaled": want median or test`) {
		t.Errorf("-split scaled: exit %d, %s", code, errs)
	}
}

func TestGcheckGuidelineFile(t *testing.T) {
	dir := gcheckDir(t, true)
	file := filepath.Join(t.TempDir(), "g.txt")
	os.WriteFile(file, []byte("# only GL7\nGL7 MPI_Scatter <= Scatter_as_Bcast MPI_Bcast(n)\n"), 0o666)
	code, out, errs := gcheckRunArgs(dir, "-guidelines", file)
	if code != 0 || !strings.Contains(out, "4           p     0/1") || !strings.Contains(out, "4           m     0/0") {
		t.Errorf("exit %d, %s\n%s", code, errs, out)
	}
	code, out, _ = gcheckRunArgs("-defaults")
	if code != 0 || !strings.Contains(out, "GL17 MPI_Reduce_scatter") {
		t.Errorf("-defaults: exit %d\n%s", code, out)
	}
}

func TestGcheckBadInput(t *testing.T) {
	dir := gcheckDir(t, false)
	bad := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(bad, []byte("GL1 * monotone\n"), 0o666)
	empty := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{nil, "no results file named"},
		{[]string{filepath.Join(empty, "missing")}, "no such file or directory"},
		{[]string{empty}, "no launch-*.jsonl files"},
		{[]string{dir, "-alpha", "1.5"}, "alpha 1.5: want a level between 0 and 1"},
		{[]string{dir, "-alpha", "x"}, "invalid value \"x\" for flag -alpha"},
		{[]string{dir, "-test", "t"}, "test \"t\": want wilcoxon or ks"},
		{[]string{dir, "-guidelines", bad}, bad + ":1: \"GL1 * monotone\": want id, left, relation, right and mapping, got 3 fields"},
		{[]string{dir, dir}, "want one directory, got 2"},
	}
	for _, c := range cases {
		code, _, errs := gcheckRunArgs(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q", c.args, code, errs, c.want)
		}
	}
	os.WriteFile(filepath.Join(empty, "launch-1.jsonl"), []byte(`{"suite":"mpi1"}`+"\n"), 0o666)
	if code, _, errs := gcheckRunArgs(empty); code != 2 || !strings.Contains(errs, "no pgmpi function or mock-up records") {
		t.Errorf("no records: exit %d, %s", code, errs)
	}
}
