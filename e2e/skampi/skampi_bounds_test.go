package skampi

import (
	"strings"
	"testing"

	"mpibench/e2e"
)

// A configuration whose repetitions (or any other number that sizes an
// allocation or a loop) exceed their bound ends every rank with exit 2
// and one message naming file:line and the value, before anything is
// allocated: no Go crash ("fatal error: runtime: out of memory",
// "internal error: makeslice"). The table of them is suites/skampi's
// TestBadInput, read in process.
func TestSkampiBounds(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"maxreps 90000000000\nmeasure A pingpong Send_Recv bytes 1..4\n", `:1: maxreps: "90000000000": want an integer from 1 to 10000000`},
	} {
		cfg := skampiWrite(t, c.text)
		r := e2e.Launch(t, 2, "skampi", "-config", cfg, "-o", cfg+".jsonl")
		e2e.NoPanic(t, r)
		want := cfg + c.want
		if r.Code != 2 || r.Stdout != "" || strings.Count(r.Stderr, want) != 1 ||
			strings.Contains(r.Stderr, "fatal error") || strings.Contains(r.Stderr, "internal error") {
			t.Errorf("%q: want exit 2, no output, %q once in stderr; got %s", c.text, want, r)
		}
	}
}

// A results file that cannot be opened is named by -json, the flag of
// every suite, also when it was given as -o, its older name.
func TestSkampiResultsFlagName(t *testing.T) {
	cfg := skampiWrite(t, skampiTiny)
	for _, flag := range []string{"-json", "-o"} {
		r := e2e.Launch(t, 2, "skampi", "-config", cfg, flag, cfg+".missing/r.jsonl")
		e2e.NoPanic(t, r)
		if want := "mpibench skampi: -json: "; r.Code != 2 || strings.Count(r.Stderr, want) != 1 {
			t.Errorf("%s: want exit 2 and %q once; got %s", flag, want, r)
		}
	}
}
