package osu

import (
	"strings"
	"testing"
)

// TestBadInput: a bad flag is refused with the flag or the rule named,
// once, before any output, as rank 0 reads the command line
// (mpijob.Command.Check); e2e/osu runs one under mpirun, where every rank
// exits 2, and a bad process count, which the job checks when it runs.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		np   int
		args []string
		want string
	}{
		{2, []string{"mbw_mr", "-m", "1:4G"}, "osu_mbw_mr has no large-count kernel"}, // big.go
		// Refused while parsing, before the header (options.go): OSU
		// 7.4's osu_reduce has no -D, and -D takes no -c.
		{2, []string{"reduce", "-D", "cont"}, "invalid option -D"},
		{2, []string{"ibcast", "-c", "-D", "cont"}, "derived data types do not support validation"},
	} {
		if err := Command.Check(c.args, c.np); err == nil || strings.Count(err.Error(), c.want) != 1 {
			t.Errorf("%v on %d: %v, want %q once", c.args, c.np, err, c.want)
		}
	}
}
