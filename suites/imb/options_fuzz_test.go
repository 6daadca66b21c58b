package imb

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// fuzzArgs splits a fuzzed string into arguments, one per line, so that
// empty arguments and arguments with spaces occur too.
func fuzzArgs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{
		"", "PingPong", "-npmin\n4\nPingPong\nSendrecv", "--npmin=4", "-multi\n0", "-multi=1\nAllreduce",
		"-map\n2x4", "-map=3X1", "-input\nsel.txt\n-msglen\nlens.txt", "-json\nout.jsonl\n-check",
		"-iodir\n/tmp", "-iodir=", "-h", "--help", "-check=1", "-npmin", "-npmin\n0", "-multi\n2",
		"-map\nx", "-map\n-1x2", "-", "--", "-unknown", "-npmin\n99999999999999999999", "-map\n2x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := fuzzArgs(s)
		o, err := ParseArgs(args)
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("ParseArgs(%q): error %v is not a UsageError", args, err)
			}
			return
		}
		switch {
		case o.NPMin < 0:
			t.Errorf("ParseArgs(%q): NPMin %d", args, o.NPMin)
		case o.Multi < -1 || o.Multi > 1:
			t.Errorf("ParseArgs(%q): Multi %d", args, o.Multi)
		case (o.MapP == 0) != (o.MapQ == 0) || o.MapP < 0 || o.MapQ < 0:
			t.Errorf("ParseArgs(%q): map %dx%d", args, o.MapP, o.MapQ)
		case len(o.Benchmarks) > len(args):
			t.Errorf("ParseArgs(%q): %d benchmarks from %d arguments", args, len(o.Benchmarks), len(args))
		}
	})
}

// lineError is how a -input or -msglen error starts: the file, and the
// line where there is one.
var lineError = regexp.MustCompile(`^in\.txt(:[0-9]+)?: `)

func FuzzParseLengths(f *testing.F) {
	for _, s := range []string{
		"0\n1\n2\n4\n1024\n", "# lengths\n\n  8  \n16\n", "", "# only a comment\n", "-1\n", "1.5\n",
		"4 8\n", "99999999999999999999\n", "9223372036854775807\n", "+7\n", "0x10\n", "1\r\n2\r\n",
		strings.Repeat("7", 70000) + "\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lens, err := parseLengths(strings.NewReader(s), "in.txt")
		if err != nil {
			if !lineError.MatchString(err.Error()) {
				t.Fatalf("error %q does not name the file and line", err)
			}
			return
		}
		if len(lens) == 0 {
			t.Fatal("no lengths and no error")
		}
		for _, x := range lens {
			if x < 0 || x > 1<<40 {
				t.Fatalf("length %d out of range", x)
			}
		}
	})
}

func FuzzParseSelection(f *testing.F) {
	for _, s := range []string{
		"PingPong\nSendrecv\n", "# select\n\npingpong\n  Allreduce  \n", "", "#\n", "PingPong Sendrecv\n",
		"NoSuch\n", "PingPong\nPingPong\n", "S_Write_indv\n", "Window\n", "\xff\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, suite := range Suites {
			names, err := parseSelection(suite, strings.NewReader(s), "in.txt")
			if err != nil {
				if !lineError.MatchString(err.Error()) {
					t.Fatalf("%s: error %q does not name the file and line", suite.Name, err)
				}
				continue
			}
			if len(names) == 0 {
				t.Fatalf("%s: no names and no error", suite.Name)
			}
			for _, n := range names {
				if _, ok := suite.Lookup(n); !ok {
					t.Fatalf("%s: selected unknown benchmark %q", suite.Name, n)
				}
			}
		}
	})
}
