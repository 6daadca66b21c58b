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
// records (cut "disk"), each with fewer seconds than scheduled; the others
// carry no mark (issue 26: only a stderr line said so).
func TestBeffIODiskCut(t *testing.T) {
	dir := t.TempDir()
	iodir := filepath.Join(dir, "io")
	if err := os.Mkdir(iodir, 0o755); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(dir, "r.jsonl")
	r := e2e.Launch(t, 2, "beffio", "-mem", "4", "-T", "4", "-disk", "80M", "-iodir", iodir, "-json", js)
	e2e.MustSucceed(t, r)
	e2e.AssertEmpty(t, iodir)
	var cut []result.Record
	for _, rec := range e2e.ReadResults(t, js) {
		if rec.Cut != "" {
			cut = append(cut, rec)
			if rec.Cut != result.CutDisk || rec.Mode != "write" || rec.Units == 0 || rec.TMax/1e6 >= rec.SchedSec {
				t.Errorf("%s %s: cut %q, %g s of %g scheduled", rec.Benchmark, rec.Mode, rec.Cut, rec.TMax/1e6, rec.SchedSec)
			}
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
