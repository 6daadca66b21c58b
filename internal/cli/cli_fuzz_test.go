package cli

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "-n\n4", "--n=1", "-n\n0", "-n\n-3", "-n\nx", "-n", "-s\nfile", "-h", "-help", "-h=false",
		"extra", "-n\n2\nextra", "--", "-", "-unknown", "-n\n99999999999999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var args []string
		if s != "" {
			args = strings.Split(s, "\n")
		}
		n, str, help := 7, "", false
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.Func("n", "", Count(&n, "things"))
		fs.StringVar(&str, "s", "", "")
		err := Parse(fs, args, &help, "t")
		var ue *UsageError
		switch {
		case err != nil && !errors.As(err, &ue):
			t.Fatalf("Parse(%q): %v is not a UsageError", args, err)
		case err == nil && (n < 1 || fs.NArg() > 0):
			t.Fatalf("Parse(%q): n %d, %d arguments left", args, n, fs.NArg())
		}
	})
}
