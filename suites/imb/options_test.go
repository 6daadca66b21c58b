package imb

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func mustParse(t *testing.T, args ...string) Options {
	t.Helper()
	o, err := ParseArgs(args)
	if err != nil {
		t.Fatalf("ParseArgs(%q): %v", args, err)
	}
	return o
}

// wantUsage fails unless err is a *UsageError whose message contains
// every fragment.
func wantUsage(t *testing.T, what string, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want a usage error", what)
		return
	}
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Errorf("%s: error %v is %T, want *imb.UsageError", what, err, err)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("%s: error %q does not mention %q", what, err, f)
		}
	}
}

func TestParseArgsDefaults(t *testing.T) {
	o := mustParse(t)
	want := Options{Multi: -1}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("ParseArgs() = %+v, want %+v", o, want)
	}
}

func TestParseArgsAnyOrder(t *testing.T) {
	// The 5.1.2 example, with names and flags interleaved.
	o := mustParse(t, "-multi", "0", "PingPong", "-npmin", "3", "Barrier", "-map", "2x7",
		"-input", "sel.txt", "-msglen", "Lengths", "-check", "-json", "out.jsonl", "allreduce")
	want := Options{Benchmarks: []string{"PingPong", "Barrier", "allreduce"}, NPMin: 3, Multi: 0,
		Input: "sel.txt", MsgLen: "Lengths", MapP: 2, MapQ: 7, Check: true, JSON: "out.jsonl"}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("got  %+v\nwant %+v", o, want)
	}
}

func TestParseArgsEqualsAndDoubleDash(t *testing.T) {
	o := mustParse(t, "--npmin=4", "-multi=1", "--map", "3X2", "-input=a b.txt", "--check", "Sendrecv", "--msglen=L")
	want := Options{Benchmarks: []string{"Sendrecv"}, NPMin: 4, Multi: 1, Input: "a b.txt",
		MsgLen: "L", MapP: 3, MapQ: 2, Check: true}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("got  %+v\nwant %+v", o, want)
	}
}

func TestParseArgsMulti(t *testing.T) {
	for _, v := range []string{"0", "1"} {
		o := mustParse(t, "-multi", v)
		if o.Multi != int(v[0]-'0') {
			t.Errorf("-multi %s: Multi = %d", v, o.Multi)
		}
	}
	for _, v := range []string{"2", "-1", "x", "", "01", "1.0", "true"} {
		_, err := ParseArgs([]string{"-multi", v})
		wantUsage(t, "-multi "+v, err, "-multi")
	}
}

func TestParseArgsNPMin(t *testing.T) {
	for _, c := range []struct {
		v    string
		want int
	}{{"1", 1}, {"2", 2}, {"17", 17}} {
		if o := mustParse(t, "-npmin", c.v); o.NPMin != c.want {
			t.Errorf("-npmin %s: NPMin = %d, want %d", c.v, o.NPMin, c.want)
		}
	}
	for _, v := range []string{"0", "-1", "abc", "", "2.5", "3x"} {
		_, err := ParseArgs([]string{"-npmin", v})
		wantUsage(t, "-npmin "+v, err, "-npmin")
	}
}

func TestParseArgsMap(t *testing.T) {
	for _, c := range []struct {
		v    string
		p, q int
	}{{"2x3", 2, 3}, {"2X3", 2, 3}, {"1x4", 1, 4}, {"16x2", 16, 2}} {
		o := mustParse(t, "-map", c.v)
		if o.MapP != c.p || o.MapQ != c.q {
			t.Errorf("-map %s: %dx%d, want %dx%d", c.v, o.MapP, o.MapQ, c.p, c.q)
		}
	}
	for _, v := range []string{"0x2", "2x0", "2x", "x3", "abc", "", "2*3", "2x3x4", "-2x3", "2 x 3"} {
		_, err := ParseArgs([]string{"-map", v})
		wantUsage(t, "-map "+v, err, "-map")
	}
}

func TestParseArgsErrors(t *testing.T) {
	cases := []struct {
		args []string
		frag string
	}{
		{[]string{"-foo"}, "-foo"},
		{[]string{"PingPong", "--bogus=1"}, "--bogus"},
		{[]string{"-iterations", "10"}, "-iterations"}, // -iter is IMB 2021's flag (flags2021.go)
		{[]string{"-npmin"}, "npmin"},
		{[]string{"PingPong", "-multi"}, "multi"},
		{[]string{"-input"}, "input"},
		{[]string{"-msglen"}, "msglen"},
		{[]string{"-map"}, "map"},
		{[]string{"-json"}, "json"},
	}
	for _, c := range cases {
		_, err := ParseArgs(c.args)
		wantUsage(t, strings.Join(c.args, " "), err, c.frag)
	}
}

func TestParseArgsHelpAndCheck(t *testing.T) {
	for _, h := range []string{"-h", "-help", "--help", "--h"} {
		if o := mustParse(t, "PingPong", h); !o.Help {
			t.Errorf("%s: Help not set", h)
		}
	}
	if o := mustParse(t, "-check"); !o.Check || o.Help {
		t.Errorf("-check: %+v", o)
	}
	if o := mustParse(t, "PingPong"); o.Check || o.Help {
		t.Errorf("no flags: %+v", o)
	}
}

// writeFile writes a temporary file and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResolveDefaults(t *testing.T) {
	args := []string{"x"}
	c, err := Resolve(MPI1Suite, Options{Multi: -1}, 4, args)
	if err != nil {
		t.Fatal(err)
	}
	// Every IMB 3.0 benchmark; IMB 2021's run when named.
	if !slices.Equal(c.Benchmarks, MPI1Suite.Names()[:13]) {
		t.Errorf("default selection %v, want every IMB 3.0 benchmark %v", c.Benchmarks, MPI1Suite.Names()[:13])
	}
	if c.NPMin != 2 || c.Multi != -1 || c.Lengths != nil || c.Check || c.MapP != 0 || !slices.Equal(c.Args, args) {
		t.Errorf("defaults: %+v", c)
	}
	c, err = Resolve(MPI1Suite, Options{NPMin: 3, Multi: 1, MapP: 2, MapQ: 2, Check: true, JSON: "r.jsonl"}, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.NPMin != 3 || c.Multi != 1 || c.MapP != 2 || c.MapQ != 2 || !c.Check || c.JSON != "r.jsonl" {
		t.Errorf("options not carried over: %+v", c)
	}
}

func TestResolveNames(t *testing.T) {
	o := Options{Benchmarks: []string{"allreduce", "PINGPONG", "AllReduce", "barrier", "pingpong"}, Multi: -1}
	c, err := Resolve(MPI1Suite, o, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Allreduce", "PingPong", "Barrier"}; !slices.Equal(c.Benchmarks, want) {
		t.Errorf("Benchmarks = %v, want %v", c.Benchmarks, want)
	}
	_, err = Resolve(MPI1Suite, Options{Benchmarks: []string{"PingPong", "Pingpang"}, Multi: -1}, 2, nil)
	wantUsage(t, "unknown name", err, `"Pingpang"`, "PingPong", "Reduce_scatter", "Barrier")
}

func TestResolveInputFile(t *testing.T) {
	sel := writeFile(t, "IMB_SELECT", `#
# IMB benchmark selection file
#
# every line must be a comment (beginning with #), or it
# must contain exactly 1 IMB benchmark name
#
#PingPong
  sendrecv

Reduce_Scatter   
   # indented comment
BARRIER
SendRecv
`)
	c, err := Resolve(MPI1Suite, Options{Input: sel, Multi: -1}, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Sendrecv", "Reduce_scatter", "Barrier"}; !slices.Equal(c.Benchmarks, want) {
		t.Errorf("Benchmarks = %v, want %v", c.Benchmarks, want)
	}
	// Command-line names come first, then the file's; repeats dropped.
	c, err = Resolve(MPI1Suite, Options{Benchmarks: []string{"barrier", "Exchange"}, Input: sel, Multi: -1}, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Barrier", "Exchange", "Sendrecv", "Reduce_scatter"}; !slices.Equal(c.Benchmarks, want) {
		t.Errorf("Benchmarks = %v, want %v", c.Benchmarks, want)
	}
}

func TestResolveInputFileErrors(t *testing.T) {
	bad := writeFile(t, "sel", "# selection\nPingPong\n\nWindow\n")
	_, err := Resolve(MPI1Suite, Options{Input: bad, Multi: -1}, 2, nil)
	wantUsage(t, "unknown name in file", err, bad+":4", `"Window"`, "PingPong", "Allgatherv", "Barrier")

	two := writeFile(t, "sel", "PingPong\nPingPong Barrier\n")
	_, err = Resolve(MPI1Suite, Options{Input: two, Multi: -1}, 2, nil)
	wantUsage(t, "two names on a line", err, two+":2")

	empty := writeFile(t, "sel", "# nothing\n\n   \n#Barrier\n")
	_, err = Resolve(MPI1Suite, Options{Input: empty, Multi: -1}, 2, nil)
	wantUsage(t, "no names", err, empty)

	missing := filepath.Join(t.TempDir(), "no-such-file")
	_, err = Resolve(MPI1Suite, Options{Input: missing, Multi: -1}, 2, nil)
	wantUsage(t, "missing input file", err, missing)
}

func TestResolveMsgLen(t *testing.T) {
	// Sample 2's Lengths file, with a comment and blank lines around.
	p := writeFile(t, "Lengths", "0\n100\n# a comment\n\n1000\n10000\n  100000  \n1000000\n")
	c, err := Resolve(MPI1Suite, Options{MsgLen: p, Benchmarks: []string{"PingPing", "Allreduce"}, Multi: 0, MapP: 2, MapQ: 2}, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 100, 1000, 10000, 100000, 1000000}; !slices.Equal(c.Lengths, want) {
		t.Errorf("Lengths = %v, want %v", c.Lengths, want)
	}
}

func TestResolveMsgLenErrors(t *testing.T) {
	neg := writeFile(t, "L", "0\n16\n-5\n")
	_, err := Resolve(MPI1Suite, Options{MsgLen: neg, Multi: -1}, 2, nil)
	wantUsage(t, "negative length", err, neg+":3", "-5")

	neg1 := writeFile(t, "L", "# lengths\n-1\n")
	_, err = Resolve(MPI1Suite, Options{MsgLen: neg1, Multi: -1}, 2, nil)
	wantUsage(t, "length -1", err, neg1+":2", "-1")

	nan := writeFile(t, "L", "8\n\n1.5\n")
	_, err = Resolve(MPI1Suite, Options{MsgLen: nan, Multi: -1}, 2, nil)
	wantUsage(t, "non-integer length", err, nan+":3", "1.5")

	word := writeFile(t, "L", "abc\n")
	_, err = Resolve(MPI1Suite, Options{MsgLen: word, Multi: -1}, 2, nil)
	wantUsage(t, "word", err, word+":1", "abc")

	two := writeFile(t, "L", "1 2\n")
	_, err = Resolve(MPI1Suite, Options{MsgLen: two, Multi: -1}, 2, nil)
	wantUsage(t, "two lengths on a line", err, two+":1")

	empty := writeFile(t, "L", "")
	_, err = Resolve(MPI1Suite, Options{MsgLen: empty, Multi: -1}, 2, nil)
	wantUsage(t, "empty file", err, empty)

	comments := writeFile(t, "L", "# only\n\n")
	_, err = Resolve(MPI1Suite, Options{MsgLen: comments, Multi: -1}, 2, nil)
	wantUsage(t, "comments only", err, comments)

	missing := filepath.Join(t.TempDir(), "Lengths.missing")
	_, err = Resolve(MPI1Suite, Options{MsgLen: missing, Multi: -1}, 2, nil)
	wantUsage(t, "missing file", err, missing)

	dir := t.TempDir() // a directory opens but cannot be read as lines
	_, err = Resolve(MPI1Suite, Options{MsgLen: dir, Multi: -1}, 2, nil)
	wantUsage(t, "directory", err, dir)
}

func TestResolveMap(t *testing.T) {
	for _, c := range []struct{ p, q, size int }{{2, 3, 6}, {2, 2, 4}, {1, 4, 4}, {4, 1, 4}} {
		if _, err := Resolve(MPI1Suite, Options{MapP: c.p, MapQ: c.q, Multi: -1}, c.size, nil); err != nil {
			t.Errorf("-map %dx%d on %d: %v", c.p, c.q, c.size, err)
		}
	}
	for _, c := range []struct{ p, q, size int }{{2, 3, 4}, {2, 3, 7}, {2, 2, 6}, {3, 3, 1}} {
		_, err := Resolve(MPI1Suite, Options{MapP: c.p, MapQ: c.q, Multi: -1}, c.size, nil)
		wantUsage(t, "map not fitting", err, "-map")
	}
}

func TestResolveOneProcess(t *testing.T) {
	for _, names := range [][]string{{"PingPong"}, {"pingping", "PINGPONG"}} {
		_, err := Resolve(MPI1Suite, Options{Benchmarks: names, Multi: -1}, 1, nil)
		wantUsage(t, "single transfers on 1 process", err, "2")
	}
	sel := writeFile(t, "sel", "PingPing\n")
	_, err := Resolve(MPI1Suite, Options{Input: sel, Multi: -1}, 1, nil)
	wantUsage(t, "single transfers from a file on 1 process", err)

	for _, names := range [][]string{{"PingPong", "Barrier"}, {"Barrier"}, {"Allreduce"}, {"Sendrecv"}, {"PingPing", "Exchange"}, nil} {
		if _, err := Resolve(MPI1Suite, Options{Benchmarks: names, Multi: -1}, 1, nil); err != nil {
			t.Errorf("%v on 1 process: %v", names, err)
		}
	}
	if _, err := Resolve(MPI1Suite, Options{Benchmarks: []string{"PingPong"}, Multi: -1}, 2, nil); err != nil {
		t.Errorf("PingPong on 2 processes: %v", err)
	}
}

func TestParseArgsRejectsValueOnSwitches(t *testing.T) {
	for _, a := range []string{"-check=0", "-check=false", "-h=1", "--help=yes", "---npmin"} {
		if _, err := ParseArgs([]string{a, "3"}); err == nil {
			t.Errorf("ParseArgs(%q) accepted", a)
		}
	}
}

func TestIODirFlag(t *testing.T) {
	o, err := ParseArgs([]string{"-iodir", "/scratch/me", "P_Write_Indv"})
	if err != nil || o.IODir != "/scratch/me" {
		t.Fatalf("ParseArgs -iodir = %+v, %v", o, err)
	}
	if _, err := Resolve(MPI1Suite, Options{IODir: "/tmp", Multi: -1}, 2, nil); err == nil || !strings.Contains(err.Error(), "-iodir") {
		t.Errorf("mpi1 with -iodir: error %v, want one naming -iodir", err)
	}
	if _, err := ParseArgs([]string{"-iodir="}); err == nil {
		t.Error("empty -iodir accepted")
	}
	c, err := Resolve(IOSuite, Options{Multi: -1}, 1, nil)
	if err != nil || c.IODir != "." || c.NPMin != 1 || c.Suite != "io" {
		t.Errorf("io defaults: %+v, %v; want iodir ., npmin 1", c, err)
	}
}
