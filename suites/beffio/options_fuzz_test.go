package beffio

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{
		"", "-mem\n64", "-T\n60", "-T=0.5", "-T\n0", "-T\nInf", "-T\nNaN", "-T\n1e308", "-iodir\n/tmp", "-iodir=",
		"-partitions\n1,2,4", "-partitions\n2,2", "-partitions\n0", "-partitions\n", "-partitions\n 1 , 3 ",
		"-json\nout.jsonl", "-h", "extra",
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
		if !(o.T > 0) || math.IsInf(o.T, 0) || o.Mem < 0 || o.IODir == "" {
			t.Fatalf("ParseArgs(%q): T %g mem %d iodir %q", args, o.T, o.Mem, o.IODir)
		}
		seen := map[int]bool{}
		for _, p := range o.Partitions {
			if p < 1 || seen[p] {
				t.Fatalf("ParseArgs(%q): partitions %v", args, o.Partitions)
			}
			seen[p] = true
		}
	})
}
