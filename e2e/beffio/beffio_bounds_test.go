package beffio

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mpibench/analysis/result"
	"mpibench/e2e"
	"mpibench/suites/beffio"
)

// -T beyond its bound: exit 2 at once on every rank with a message naming
// the flag and the bound, not a watchdog that fires at once ("waited more
// than -699580h") or after 60 s (-mem, and the other bounds: the suites'
// TestBadInput, read in process).
func TestBeffIOBounds(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"beffio", "-T", "99999999999", "-iodir", dir}, "-T: want a number of seconds greater than 0, at most 1000000"},
	} {
		start := time.Now()
		r := e2e.Launch(t, 2, c.args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || strings.Count(r.Stderr, c.want) != 1 || strings.Contains(r.Stdout, "b_eff") {
			t.Errorf("%q: want exit 2 and %q once, got %s", c.args, c.want, r)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("%q: took %v", c.args, d)
		}
	}
	e2e.AssertEmpty(t, dir)
}

// TestBeffIODiskCut: time-driven patterns that the -disk bound stops
// before their scheduled time are marked where their figures stand: on
// their rows of the patterns table, in a line under it, and in their
// records (cut "disk"); the others carry no mark (issue 26: only a stderr
// line said so). A pattern is cut exactly when it made the most calls the
// plan's disk bound allows it (beffio.Plan.Bound, for these flags). Its
// time is no test of the cut: the loop reads the clock before each call,
// and one call can outlast the schedule (p18's one write of 2 MiB on
// tmpfs took 0.12 s of 0.04 s under MPICH).
func TestBeffIODiskCut(t *testing.T) {
	dir := t.TempDir()
	iodir := filepath.Join(dir, "io")
	if err := os.Mkdir(iodir, 0o755); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(dir, "r.jsonl")
	args := []string{"-mem", "4", "-T", "4", "-disk", "80M", "-iodir", iodir, "-json", js}
	plan := diskPlan(t, args, 2)
	r := e2e.Launch(t, 2, append([]string{"beffio"}, args...)...)
	e2e.MustSucceed(t, r)
	e2e.AssertEmpty(t, iodir)
	var cut []result.Record
	for _, rec := range e2e.ReadResults(t, js) {
		if rec.Cut != "" {
			cut = append(cut, rec)
		}
		if rec.Benchmark == "total" || rec.SchedSec == 0 {
			if rec.Cut != "" {
				t.Errorf("%s %s %s: cut %q; only time-driven patterns can be cut", rec.Class, rec.Benchmark, rec.Mode, rec.Cut)
			}
			continue
		}
		var no int
		if _, err := fmt.Sscanf(rec.Benchmark, "p%d", &no); err != nil {
			t.Fatalf("pattern %q: %v", rec.Benchmark, err)
		}
		bound := plan.MaxReps[0][no]
		if (rec.Cut == result.CutDisk) != (int64(rec.Reps) == bound) || rec.Reps < 1 || int64(rec.Reps) > bound {
			t.Errorf("%s %s: cut %q after %d calls, %g s of %g scheduled; the disk bound allows %d calls",
				rec.Benchmark, rec.Mode, rec.Cut, rec.Reps, rec.TMax/1e6, rec.SchedSec, bound)
		}
	}
	rows := 0
	for _, line := range strings.Split(r.Stdout, "\n") {
		if strings.HasSuffix(line, "  < -disk") {
			rows++
		}
	}
	note := fmt.Sprintf("# < -disk: %d time-driven patterns stopped at the -disk bound", len(cut))
	if len(cut) == 0 || rows != len(cut) || !strings.Contains(r.Stdout, note) {
		t.Errorf("%d records cut, %d rows marked, note %q:\n%s", len(cut), rows, note, r.Stdout)
	}
}

// diskPlan is the plan of mpibench beffio args on np processes, with its
// disk bound set as the run sets it from -disk.
func diskPlan(t *testing.T, args []string, np int) *beffio.Plan {
	t.Helper()
	o, err := beffio.ParseArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	p, err := beffio.NewPlan(o, np, o.Mem)
	if err != nil {
		t.Fatal(err)
	}
	p.Bound(o.Disk)
	return p
}
