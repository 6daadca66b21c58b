package beffio

import (
	"os"
	"strings"
	"testing"
)

// TestBadInput: a bad command line, -T and -mem beyond their bounds
// included, is refused before any measurement with the flag and the bound
// named, as rank 0 reads it (mpijob.Command.Check): not a watchdog that
// fires at once ("waited more than -699580h") or after 60 s, an
// MPI_ERR_ARG of the file view, or a negative L_max. e2e/beffio runs one
// of each under mpirun, where every rank exits 2, and a missing -iodir,
// which every rank checks when the job runs.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-T", "99999999999", "-iodir", dir}, "-T: want a number of seconds greater than 0, at most 1000000"},
		{[]string{"-T", "1e308", "-iodir", dir}, "-T: want a number of seconds"},
		{[]string{"-mem", "9999999999", "-iodir", dir}, "-mem: want a whole number of MB per process, 1 to 1048576"},
		{[]string{"-T", "1", "-mem", "1", "-iodir", dir, "-T", "-1"}, "beffio"},
		{[]string{"-T", "1", "-mem", "1", "-iodir", dir, "-mem", "0"}, "beffio"},
		{[]string{"-T", "1", "-mem", "1", "-iodir", dir, "-bogus"}, "beffio"},
		{[]string{"-T", "1", "-mem", "1", "-iodir", dir, "-partitions", "9"}, "beffio"},
		// -disk values that are not sizes
		{[]string{"-T", "1", "-mem", "1", "-iodir", dir, "-disk", "0"}, "-disk"},
		{[]string{"-T", "1", "-mem", "1", "-iodir", dir, "-disk", "12X"}, "-disk"},
	} {
		if err := Command.Check(c.args, 2); err == nil || strings.Count(err.Error(), c.want) != 1 {
			t.Errorf("%q: %v, want %q once", c.args, err, c.want)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("files left in -iodir: %v", left)
	}
}
