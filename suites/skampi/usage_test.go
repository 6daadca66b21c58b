package skampi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput: a bad configuration or flag, and a number that sizes an
// allocation or a loop beyond its bound, is refused with one message
// naming file:line and the value, before anything is allocated (no Go
// crash: "fatal error: runtime: out of memory", "internal error:
// makeslice"), as rank 0 reads the command line (mpijob.Command.Check).
// e2e/skampi runs some under mpirun, where every rank exits 2 with
// nothing on stdout.
func TestBadInput(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"maxreps 90000000000\nmeasure A pingpong Send_Recv bytes 1..4\n", `:1: maxreps: "90000000000": want an integer from 1 to 10000000`},
		{"\nmaxreps 9000000000000000\nmeasure A pingpong Send_Recv bytes 1..4\n", `:2: maxreps: "9000000000000000"`},
		{"measure A pingpong Send_Recv bytes 1..4 minreps=20000000 maxreps=20000000\n", `:1: option minreps="20000000"`},
		{"measure A master-worker Send workpieces 1..2G\n", `:1: range "1..2G"`},
		{"measure A pingpong Bsend_Recv bytes 1..2000M\n", `:1: A: the MPI_Bsend buffer`},
		{"epsilon 0.1\nmeasure A pingpong Send_Recv bytes 1..4 gamma=0.5\n", ":2: option gamma=\"0.5\""},
		{"measure A collective Bcast bytes 1..4 procs=64\n", ":1: A: procs=64"},
	} {
		cfg := filepath.Join(t.TempDir(), "t.ski")
		if err := os.WriteFile(cfg, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		err := Command.Check([]string{"-config", cfg, "-o", cfg + ".jsonl"}, 2)
		if want := cfg + c.want; err == nil || strings.Count(err.Error(), want) != 1 {
			t.Errorf("%q: %v, want %q once", c.text, err, want)
		}
	}
	if err := Command.Check([]string{"-epsilon", "1.5"}, 2); err == nil || !strings.Contains(err.Error(), "-epsilon") {
		t.Errorf("-epsilon 1.5: %v", err)
	}
}
