package imb

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLengthLine2021: the lines of a -msglen file as IMB 2021.11's
// load_msg_sizes reads them (sscanf "%d%s", then k/K or m/M as the first
// letter of the word after the number).
func TestLengthLine2021(t *testing.T) {
	for line, want := range map[string]int64{"0": 0, "4096": 4096, "4k": 4096, "4K": 4096, "4 k": 4096,
		"4KB": 4096, "4kib": 4096, "1M": 1 << 20, "1m": 1 << 20, "2 MB": 2 << 20, "+8": 8, "  16": 16} {
		if got, err := lengthLine2021(line); err != nil || got != want {
			t.Errorf("lengthLine2021(%q) = %d, %v; want %d", line, got, err, want)
		}
	}
	for _, line := range []string{"1G", "4.5", "4 bytes", "x", "k", "4#", "4 # four"} {
		if _, err := lengthLine2021(line); !errors.Is(err, strconv.ErrSyntax) {
			t.Errorf("lengthLine2021(%q): %v, want a syntax error", line, err)
		}
	}
	for _, line := range []string{"99999999999999999999", "9007199254740992k", "9000000000000M"} {
		if _, err := lengthLine2021(line); !errors.Is(err, strconv.ErrRange) {
			t.Errorf("lengthLine2021(%q): %v, want a range error", line, err)
		}
	}
}

// TestMsgLenSuffixes: k and M in a -msglen file are lengths under -imb
// 2021 and in IMB 2021's own suites, an error in IMB 3.0's mpi1 (whose
// files hold integers), and a negative length is an error in both.
func TestMsgLenSuffixes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lens")
	if err := os.WriteFile(path, []byte("# lengths\n4k\n1M\n0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s    *Suite
		args []string
		ok   bool
	}{
		{MPI1Suite, []string{"-imb", "2021"}, true},
		{EXTSuite, []string{"-imb", "2021"}, true},
		{NBCSuite, nil, true},
		{MPI1Suite, nil, false},
	} {
		o, err := ParseArgs(append(c.args, "-msglen", path))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := Resolve(c.s, o, 2, nil)
		switch {
		case c.ok && (err != nil || !slices.Equal(cfg.Lengths, []int{4096, 1 << 20, 0})):
			t.Errorf("%s %q: %v, %v; want 4096, 1048576, 0", c.s.Name, c.args, cfg, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), `"4k" is not a message length`)):
			t.Errorf("%s %q: %v; want 4k refused", c.s.Name, c.args, err)
		}
	}
	// io reads them under the name IMB-IO (IO_suite.cpp's reader is the same).
	func() {
		defer func(was bool) { DropIn = was }(DropIn)
		DropIn = true
		o, _ := ParseArgs([]string{"-msglen", path})
		if cfg, err := Resolve(IOSuite, o, 2, nil); err != nil || !slices.Equal(cfg.Lengths, []int{4096, 1 << 20, 0}) {
			t.Errorf("IMB-IO -msglen: %v, %v", cfg, err)
		}
	}()
	if _, err := parseLengthsAs(strings.NewReader("-4\n"), "f", true); err == nil {
		t.Error("-4 under IMB 2021: accepted")
	}
}

// TestDropInArgs: under an Intel program name an unknown flag and every
// name IMB-MPI1 does not know are ignored, each an "Invalid benchmark
// name" of the header, in the order IMB prints them; nothing valid left
// is the default list, or the -include names alone.
func TestDropInArgs(t *testing.T) {
	defer func(was bool) { DropIn = was }(DropIn)
	DropIn = true
	for _, c := range []struct {
		args, names, invalid []string
	}{
		{[]string{"-imb", "2021", "PingPong", "-foo", "3", "-iter", "10"}, []string{"PingPong"}, []string{"-foo", "3"}},
		{[]string{"-imb", "2021", "-npmin", "2", "--bogus=1", "pingpong"}, []string{"PingPong"}, []string{"--bogus=1"}},
		{[]string{"-imb", "2021", "NoSuch", "-check"}, defaultNames2021, []string{"NoSuch"}},
		{[]string{"-imb", "2021", "NoSuch", "-include", "Bcast,Nope"}, []string{"Bcast"}, []string{"NoSuch", "Nope"}},
		{[]string{"-imb", "2021", "-exclude", "Nope,Barrier", "Barrier", "Bcast"}, []string{"Bcast"}, nil},
	} {
		o, err := ParseArgs(c.args)
		if err != nil {
			t.Errorf("ParseArgs(%q): %v", c.args, err)
			continue
		}
		cfg, err := Resolve(MPI1Suite, o, 2, c.args)
		if err != nil || !slices.Equal(cfg.Benchmarks, c.names) || !slices.Equal(cfg.Invalid, c.invalid) {
			t.Errorf("%q: %v, %v; want %q and invalid %q", c.args, cfg, err, c.names, c.invalid)
		}
	}
	// An -input file's unknown names are invalid names too.
	sel := filepath.Join(t.TempDir(), "sel")
	if err := os.WriteFile(sel, []byte("# selection\nPingPong first\nNope\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o, _ := ParseArgs([]string{"-imb", "2021", "-input", sel})
	if cfg, err := Resolve(MPI1Suite, o, 2, nil); err != nil || !slices.Equal(cfg.Benchmarks, []string{"PingPong"}) ||
		!slices.Equal(cfg.Invalid, []string{"Nope"}) {
		t.Errorf("-input: %v, %v; want PingPong and invalid Nope", cfg, err)
	}
	// A known flag keeps its value, and its errors stay errors.
	if _, err := ParseArgs([]string{"-imb", "2021", "-iter", "x"}); err == nil {
		t.Error("-iter x: accepted")
	}
	// Without a drop-in name, an unknown flag is an error as before.
	DropIn = false
	if _, err := ParseArgs([]string{"-imb", "2021", "-foo"}); err == nil {
		t.Error("mpi1 -imb 2021 -foo: accepted")
	}
}
