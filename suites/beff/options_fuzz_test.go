package beff

import (
	"errors"
	"strings"
	"testing"
)

func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{
		"", "-mem\n1024", "-patterns\nrings", "-patterns=cartesian\n-looplength\nfixed", "-seed\n0", "-seed\n-1",
		"-random\n0", "-random\n5\n-json\nout.jsonl", "-h", "-mem\nx", "extra", "-patterns\nRings", "-seed=18446744073709551616",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var args []string
		if s != "" {
			args = strings.Split(s, "\n")
		}
		o, err := ParseArgs(args)
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("ParseArgs(%q): %v is not a UsageError", args, err)
			}
			return
		}
		switch {
		case o.Patterns != Cartesian && o.Patterns != Ring:
			t.Fatalf("ParseArgs(%q): patterns %q", args, o.Patterns)
		case o.Looplength != "adaptive" && o.Looplength != "fixed":
			t.Fatalf("ParseArgs(%q): looplength %q", args, o.Looplength)
		case o.Mem < 0 || o.Random < 1:
			t.Fatalf("ParseArgs(%q): mem %d random %d", args, o.Mem, o.Random)
		}
	})
}
