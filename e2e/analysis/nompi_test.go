package analysis

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
	"mpibench/e2e"
)

func TestNoMPIBinary(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
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
	cmd := exec.Command(e2e.GoTool(), args...)
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
	a, b := e2e.Testdata(t, "results-a.jsonl"), e2e.Testdata(t, "results-b.jsonl")
	dir := t.TempDir()
	html, merged := filepath.Join(dir, "r.html"), filepath.Join(dir, "m.jsonl")
	e2e.MustSucceed(t, e2e.Execute(t, e2e.DirectTimeout, bin, "report", a, "-o", html))
	if page, err := os.ReadFile(html); err != nil || !strings.Contains(string(page), "<svg") {
		t.Errorf("report: no plot in %s (%v)", html, err)
	}
	e2e.MustSucceed(t, e2e.Execute(t, e2e.DirectTimeout, bin, "merge", a, b, "-o", merged))
	if f, err := os.Open(merged); err != nil {
		t.Error(err)
	} else {
		recs, _, err := result.Read(f, merged)
		f.Close()
		if err != nil || len(recs) != 3 || recs[0].Merged != 2 {
			t.Errorf("merge: %d records (%v), want 3 medians of 2 runs", len(recs), err)
		}
	}
	r := e2e.Execute(t, e2e.DirectTimeout, bin, "guidelines", "check", gcheckDir(t, true))
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stdout, "T(64) > T(128)") {
		t.Errorf("guidelines check: the planted violation is not found:\n%s", r)
	}
	// What needs no MPI prints the same as the MPI build.
	for _, args := range []string{"list", "-h", "version", "mpi1 -h", "skampi -h", "guidelines nrep -h"} {
		r := e2e.Execute(t, e2e.DirectTimeout, bin, strings.Fields(args)...)
		e2e.MustSucceed(t, r)
		if want := e2e.Direct(t, strings.Fields(args)...).Stdout; r.Stdout != want || want == "" {
			t.Errorf("%s: stdout is not the MPI build's %q:\n%s", args, want, r)
		}
	}
}

// noMPIRefusal runs every MPI command of the help, and some with
// arguments: each must stop at once with exit code 2 and say how to get
// the MPI build.
func noMPIRefusal(t *testing.T, bin string) {
	for _, args := range append(mpiCommandLines(t), "ext PingPong", "mpi1 -npmin 2 -bogus", "osu osu_latency") {
		r := e2e.Execute(t, e2e.DirectTimeout, bin, strings.Fields(args)...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || r.Stdout != "" {
			t.Errorf("%s: want exit code 2 and nothing on stdout, got %s", args, r)
		}
		for _, want := range []string{"built without MPI", "Open MPI or MPICH", "go build ./cmd/mpibench", "-tags mpich"} {
			if !strings.Contains(r.Stderr, want) {
				t.Errorf("%s: stderr lacks %q: %q", args, want, r.Stderr)
			}
		}
	}
}

// mpiCommandLines are the MPI commands of the MPI build's help (the lines
// "mpirun -np P mpibench NAME ..."), each step of a command that has
// steps (its synopsis "guidelines nrep|measure") on its own.
func mpiCommandLines(t *testing.T) []string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(e2e.Direct(t, "-h").Stdout, "\n") {
		synopsis, ok := strings.CutPrefix(strings.TrimSpace(l), "mpirun -np P mpibench ")
		if !ok {
			continue
		}
		f := strings.Fields(synopsis)
		if len(f) < 2 || !strings.Contains(f[1], "|") || strings.ContainsAny(f[1], "[]") {
			lines = append(lines, f[0])
			continue
		}
		for _, step := range strings.Split(f[1], "|") {
			lines = append(lines, f[0]+" "+step)
		}
	}
	return lines
}

// TestMPICommandLines: every MPI command of mpibench -h is among them,
// the steps of guidelines apart.
func TestMPICommandLines(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	got := mpiCommandLines(t)
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
