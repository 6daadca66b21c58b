package beff

import (
	"strings"
	"testing"
)

// TestBadInput: a bad command line is refused before any measurement, the
// flag or the rule named, as rank 0 reads it (mpijob.Command.Check);
// e2e/beff runs one under mpirun, where every rank exits 2 and no -json
// file is made.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		np   int
		args []string
		want string
	}{
		{2, []string{"-mem", "0"}, "-mem"},
		{2, []string{"-mem", "abc"}, "-mem"},
		{2, []string{"-foo"}, "-foo"},
		{2, []string{"-patterns", "foo"}, "-patterns"},
		{1, []string{"-mem", "1"}, "at least 2 processes"},
		// -mem beyond its bound, not a negative L_max
		{2, []string{"-mem", "9000000000000"}, "-mem: want a whole number of MB per process, 1 to 1048576"},
		{2, []string{"-mem", "90000000000000"}, "-mem: want a whole number of MB per process, 1 to 1048576"},
	} {
		err := Command.Check(append(c.args, "-json", "beff.jsonl"), c.np)
		if err == nil || strings.Count(err.Error(), "mpibench beff:") != 1 || strings.Count(err.Error(), c.want) != 1 {
			t.Errorf("%v on %d: %v, want one message naming %s", c.args, c.np, err, c.want)
		}
	}
}
