package beffio

import (
	"strings"
	"testing"
	"time"

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
