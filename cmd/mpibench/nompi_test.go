package main

// The analysis-only binary (README.md, "Without MPI"): built without MPI,
// with -tags nompi and with CGO_ENABLED=0, it runs report, merge,
// guidelines check, list and -h, and refuses every MPI command with exit
// code 2 and a message saying how to get the MPI build.

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/guideline"
	"mpibench/analysis/result"
)

func TestNoMPIBinary(t *testing.T) {
	builds := []struct {
		name  string
		env   string
		flags []string
	}{
		{"tags", "", []string{"-tags", "nompi"}},
		{"nocgo", "CGO_ENABLED=0", nil},
	}
	for _, b := range builds {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			bin := buildNoMPI(t, b.env, b.flags...)
			noMPIAnalysis(t, bin)
			noMPIRefusal(t, bin)
		})
	}
}

// buildNoMPI builds mpibench with the extra environment and flags, and
// checks that the binary links no MPI library.
func buildNoMPI(t *testing.T, env string, flags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mpibench")
	args := append(append([]string{"build"}, flags...), "-o", bin, "mpibench/cmd/mpibench")
	cmd := exec.Command(goTool(), args...)
	cmd.Env = os.Environ()
	if env != "" {
		cmd.Env = append(cmd.Env, env)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s go %s: %v\n%s", env, strings.Join(args, " "), err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	libs, _ := f.ImportedLibraries()
	for _, l := range libs {
		if strings.Contains(l, "mpi") {
			t.Errorf("%s go %s: the binary links %s", env, strings.Join(args, " "), l)
		}
	}
	return bin
}

// noMPIAnalysis runs the commands that need no MPI.
func noMPIAnalysis(t *testing.T, bin string) {
	a := reportFile(t, "a.jsonl", "hostA", 1)
	b := reportFile(t, "b.jsonl", "hostB", 3)
	dir := t.TempDir()
	html, merged := filepath.Join(dir, "r.html"), filepath.Join(dir, "m.jsonl")
	mustSucceed(t, execute(t, directTimeout, bin, "report", a, "-o", html))
	if page, err := os.ReadFile(html); err != nil || !strings.Contains(string(page), "<svg") {
		t.Errorf("report: no plot in %s (%v)", html, err)
	}
	mustSucceed(t, execute(t, directTimeout, bin, "merge", a, b, "-o", merged))
	if f, err := os.Open(merged); err != nil {
		t.Error(err)
	} else {
		recs, _, err := result.Read(f, merged)
		f.Close()
		if err != nil || len(recs) != 3 || recs[0].Merged != 2 {
			t.Errorf("merge: %d records (%v), want 3 medians of 2 runs", len(recs), err)
		}
	}
	r := execute(t, directTimeout, bin, "guidelines", "check", gcheckDir(t, true))
	mustSucceed(t, r)
	if !strings.Contains(r.stdout, "T(64) > T(128)") {
		t.Errorf("guidelines check: the planted violation is not found:\n%s", r)
	}
	// What needs no MPI prints the same as the MPI build (this test).
	for _, args := range []string{"list", "-h", "version", "mpi1 -h", "skampi -h", "guidelines nrep -h"} {
		r := execute(t, directTimeout, bin, strings.Fields(args)...)
		mustSucceed(t, r)
		if _, want, _ := reportRun(strings.Fields(args)...); r.stdout != want || want == "" {
			t.Errorf("%s: stdout is not the MPI build's %q:\n%s", args, want, r)
		}
	}
}

// noMPIRefusal runs every MPI command of the registry, and some with
// arguments: each must stop at once with exit code 2 and say how to get
// the MPI build.
func noMPIRefusal(t *testing.T, bin string) {
	for _, args := range append(mpiCommandLines(), "ext PingPong", "mpi1 -npmin 2 -bogus", "osu osu_latency") {
		r := execute(t, directTimeout, bin, strings.Fields(args)...)
		noPanic(t, r)
		if r.code != 2 || r.stdout != "" {
			t.Errorf("%s: want exit code 2 and nothing on stdout, got %s", args, r)
		}
		for _, want := range []string{"built without MPI", "Open MPI or MPICH", "go build ./cmd/mpibench", "-tags mpich"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%s: stderr lacks %q: %q", args, want, r.stderr)
			}
		}
	}
}

// mpiCommandLines are the registry's MPI commands, each step of a command
// that has steps (its synopsis "guidelines nrep|measure") on its own.
func mpiCommandLines() []string {
	var lines []string
	for _, c := range commands() {
		if !c.MPI {
			continue
		}
		next, _, _ := strings.Cut(strings.TrimPrefix(c.Synopsis, c.Name+" "), " ")
		if !strings.Contains(next, "|") || strings.ContainsAny(next, "[]") {
			lines = append(lines, c.Name)
			continue
		}
		for _, step := range strings.Split(next, "|") {
			lines = append(lines, c.Name+" "+step)
		}
	}
	return lines
}

// TestMPICommandLines: every MPI command of mpibench -h is among them,
// the steps of guidelines apart.
func TestMPICommandLines(t *testing.T) {
	got := mpiCommandLines()
	for _, want := range []string{"mpi1", "ext", "io", "p2p", "nbc", "mpi4", "rma", "beff", "beffio", "skampi",
		"links", "guidelines nrep", "guidelines measure", "osu"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if slices.Contains(got, "guidelines") {
		t.Errorf("%q runs guidelines without a step", got)
	}
}

// gcheckDir writes guideline.Synthetic's launches into a new directory,
// one launch-<k>.jsonl per launch, as guidelines measure does.
func gcheckDir(t *testing.T, plant bool) string {
	t.Helper()
	dir := t.TempDir()
	recs := guideline.Synthetic(4, 10, plant)
	files := map[int]*os.File{}
	for i := range recs {
		l := recs[i].Launch
		if files[l] == nil {
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("launch-%d.jsonl", l)))
			if err != nil {
				t.Fatal(err)
			}
			files[l] = f
		}
		if err := result.NewWriter(files[l]).Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
