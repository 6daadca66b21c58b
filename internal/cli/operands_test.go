package cli

import (
	"errors"
	"flag"
	"io"
	"slices"
	"testing"
)

// Flags and operands come in any order; -h is flag.ErrHelp, any other
// error a UsageError.
func TestOperands(t *testing.T) {
	for _, c := range []struct {
		args, want []string
		o          string
	}{
		{[]string{"a", "-o", "x", "b"}, []string{"a", "b"}, "x"},
		{[]string{"-o", "x"}, []string{}, "x"},
		{[]string{"a", "--", "-o"}, []string{"a", "-o"}, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o := fs.String("o", "", "")
		got, err := Operands(fs, c.args)
		if err != nil || !slices.Equal(got, c.want) || *o != c.o {
			t.Errorf("%q: %q -o %q, %v; want %q -o %q", c.args, got, *o, err, c.want, c.o)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := Operands(fs, []string{"a", "-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
	var ue *UsageError
	if _, err := Operands(fs, []string{"a", "-x"}); !errors.As(err, &ue) {
		t.Errorf("-x: %v, want a UsageError", err)
	}
}
