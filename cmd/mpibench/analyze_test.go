//go:build cgo && !nompi

package main

// The MPI binary leaves the plots out and runs mpibench-analyze for report
// and guidelines check (analyze.go).

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportMPIBinaryNoPlots: the MPI binary links no plotting module,
// the analysis binary does (or this check would prove nothing).
func TestReportMPIBinaryNoPlots(t *testing.T) {
	plotting := []string{"gonum.org/v1/plot", "codeberg.org/go-fonts", "codeberg.org/go-latex", "github.com/go-latex"}
	for _, bin := range []string{binPath, filepath.Join(filepath.Dir(binPath), analyzeName)} {
		out, err := exec.Command(goTool(), "version", "-m", bin).CombinedOutput()
		if err != nil {
			t.Fatalf("go version -m %s: %v\n%s", bin, err, out)
		}
		linked := []string{}
		for _, m := range plotting {
			if strings.Contains(string(out), "\t"+m) {
				linked = append(linked, m)
			}
		}
		switch analyze := filepath.Base(bin) == analyzeName; {
		case !analyze && len(linked) > 0:
			t.Errorf("the MPI binary links %q:\n%s", linked, out)
		case analyze && len(linked) == 0:
			t.Errorf("the analysis binary links none of %q: is the check wrong?\n%s", plotting, out)
		}
	}
}

// TestReportWithoutAnalyze: without the analysis binary, report and
// guidelines check stop with exit code 2 and say why and how to build
// it; with it next to mpibench, they are its commands, exit code included.
func TestReportWithoutAnalyze(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mpibench")
	if err := os.Link(binPath, bin); err != nil {
		t.Fatal(err)
	}
	t.Setenv(analyzeEnv, "")
	t.Setenv("PATH", dir)
	in := reportFile(t, "a.jsonl", "hostA", 1)
	for _, args := range [][]string{{"report", in}, {"guidelines", "check", dir}, {"report", "-h"}} {
		r := execute(t, directTimeout, bin, args...)
		noPanic(t, r)
		if r.code != 2 || r.stdout != "" {
			t.Errorf("%q: want exit code 2 and nothing on stdout, got %s", args, r)
		}
		build := "go build -tags nompi -o " + filepath.Join(dir, analyzeName) + " ./cmd/mpibench"
		for _, want := range []string{analyzeName + " not found", "leaves out the plotting", build, "'make'"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%q: stderr lacks %q:\n%s", args, want, r.stderr)
			}
		}
	}
	t.Setenv(analyzeEnv, filepath.Join(dir, "none"))
	if r := execute(t, directTimeout, bin, "report", in); r.code != 2 || !strings.Contains(r.stderr, analyzeEnv+"="+filepath.Join(dir, "none")) {
		t.Errorf("a missing $%s: want exit code 2 naming it, got %s", analyzeEnv, r)
	}
	// An MPI binary in its place must not exec itself forever.
	t.Setenv(analyzeEnv, bin)
	if r := execute(t, directTimeout, bin, "report", in); r.code != 2 || !strings.Contains(r.stderr, "not the analysis binary") {
		t.Errorf("$%s naming an MPI binary: want exit code 2 saying so, got %s", analyzeEnv, r)
	}
	// Next to mpibench: found without PATH or $MPIBENCH_ANALYZE.
	t.Setenv(analyzeEnv, "")
	if err := os.Link(filepath.Join(filepath.Dir(binPath), analyzeName), filepath.Join(dir, analyzeName)); err != nil {
		t.Fatal(err)
	}
	if r := execute(t, directTimeout, bin, "report", "-h"); r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: mpibench report") {
		t.Errorf("report -h through %s: want its usage and exit code 0, got %s", analyzeName, r)
	}
	if r := execute(t, directTimeout, bin, "report", filepath.Join(dir, "none.jsonl")); r.code != 2 || !strings.Contains(r.stderr, "none.jsonl") {
		t.Errorf("report of a missing file through %s: want its exit code 2 and message, got %s", analyzeName, r)
	}
}
