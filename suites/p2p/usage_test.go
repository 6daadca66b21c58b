package p2p

import (
	"strings"
	"testing"
)

// TestBadInput: a clear message, with which every rank exits 2, as rank 0
// reads the command line (mpijob.Command.Check); e2e/p2p runs the first
// under mpirun.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"Pingpang"}, `unknown benchmark "Pingpang"`},
		{[]string{"-msglog", "31"}, "-msglog"},
		{[]string{"-iter", "0"}, "-iter"},
		{[]string{"-msgwr", "maybe"}, "-msgwr"},
		{[]string{"-msgsz", "3X"}, "-msgsz"},
		{[]string{"-msglen", "/nonexistent/msglen"}, "/nonexistent/msglen"},
		{[]string{"-list", "-msgsz", "x"}, "-msgsz"}, // -list measures nothing, but reads the line
	} {
		if err := Command.Check(c.args, 2); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("p2p %v: %v, want %q", c.args, err, c.want)
		}
	}
}
