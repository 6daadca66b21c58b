package mpijob

import (
	"strings"
	"testing"
)

// splitArgs splits a fuzzed string into arguments, one per line.
func splitArgs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// FuzzSplitCommon: the common flags never panic, keep every other
// argument in order, and yield a timeout that is off, default or positive.
func FuzzSplitCommon(f *testing.F) {
	for _, s := range []string{
		"", "-timeout\n30", "-timeout=0.5\n-resume\nPingPong", "--timeout\n0", "-timeout", "-timeout\n-1",
		"-resume=1", "-msglen\nf\n-resume", "--\n-resume", "-timeout\nNaN", "-timeout\n1e309", "-timeout\n1e-12",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := splitArgs(s)
		c, rest, err := splitCommon(args)
		if err != nil {
			return
		}
		if c.timeout < -1 {
			t.Fatalf("splitCommon(%q): timeout %v", args, c.timeout)
		}
		if len(rest) > len(args) {
			t.Fatalf("splitCommon(%q): rest %q longer than the arguments", args, rest)
		}
		j := 0
		for _, a := range rest {
			for j < len(args) && args[j] != a {
				j++
			}
			if j == len(args) {
				t.Fatalf("splitCommon(%q): rest %q is not a subsequence", args, rest)
			}
			j++
		}
	})
}
