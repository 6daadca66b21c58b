package links

import (
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	c, err := ParseArgs(nil, 4)
	if err != nil || *c != (Config{Size: 16384, Times: 100, Window: 50, Warm: 1, Slow: 20, Matrices: 1024}) {
		t.Errorf("defaults %+v, %v", c, err)
	}
	c, err = ParseArgs([]string{"-size", "0", "-iters", "2", "-window", "3", "-warmup", "0", "-slow", "5", "-o", "x.jsonl",
		"-matrices", "0", "-disk", "2M"}, 2)
	if err != nil || *c != (Config{Size: 0, Times: 2, Window: 3, Warm: 0, Slow: 5, JSON: "x.jsonl", Disk: 2 << 20}) {
		t.Errorf("%+v, %v", c, err)
	}
	for _, bad := range []struct {
		args []string
		np   int
		want string
	}{
		{[]string{"-size", "-1"}, 2, "-size"},
		{[]string{"-size", "1G"}, 2, "-size"},
		{[]string{"-iters", "0"}, 2, "-iters"},
		{[]string{"-window", "0"}, 2, "-window"},
		{[]string{"-warmup", "-1"}, 2, "-warmup"},
		{[]string{"-slow", "150"}, 2, "-slow 150"},
		{[]string{"-slow", "NaN"}, 2, "-slow NaN"},
		{[]string{"-size", "1073741824", "-window", "2"}, 2, "more than 1 GiB"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{nil, 1, "at least 2 processes, got 1"},
		{[]string{"-matrices", "-1"}, 2, "-matrices"},
		{[]string{"-disk", "0"}, 2, "-disk"},
		{nil, 1025, "links on 1025 processes would print three 1025×1025 grids, 3151875 cells, at least 9.0 MiB"},
		{[]string{"-matrices", "2000"}, 2001, "-matrices 2000 allows 2000 processes (-matrices 2001 prints them"},
	} {
		if _, err := ParseArgs(bad.args, bad.np); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v on %d: error %v, want %q", bad.args, bad.np, err, bad.want)
		}
	}
}

// The memory plan counts rank 0's matrices, which grow as P²: at 10,000
// ranks 2.4 GB, which a node's memory check then weighs before any
// buffer.
func TestPlannedMemory(t *testing.T) {
	cfg := &Config{Size: 1024, Times: 3, Window: 4}
	small, big := plannedMemory(cfg, 4), plannedMemory(cfg, 10000)
	if want := int64(3 * 8 * 10000 * 10000); big.Bytes < want || big.Bytes > want+4<<20 {
		t.Errorf("at 10,000 ranks %d bytes, want the matrices' %d and a little", big.Bytes, want)
	}
	if small.Bytes > 1<<20 || !strings.Contains(big.What, "10000×10000 matrices") {
		t.Errorf("at 4 ranks %d bytes; %q", small.Bytes, big.What)
	}
}

// Past -matrices the run is refused; at or under it, or with -matrices
// 0, it goes on.
func TestMatricesLimit(t *testing.T) {
	for _, ok := range []struct {
		args []string
		np   int
	}{{nil, 1024}, {[]string{"-matrices", "0"}, 100000}, {[]string{"-matrices", "5000"}, 5000}} {
		if _, err := ParseArgs(ok.args, ok.np); err != nil {
			t.Errorf("%v on %d: %v", ok.args, ok.np, err)
		}
	}
}

// The disk bound is 16 bytes a time (docs/links.md's cost model), and a
// fixed part per record and for the header: 14.4 GB at 10,000 processes.
// e2e's TestLinksScale holds a real file to a tighter bound.
func TestFileBytes(t *testing.T) {
	if got, want := fileBytes(10000), int64(9*10000*10000*16+3*10000*660+4096+260*10000); got != want {
		t.Errorf("fileBytes(10000) = %d, want %d", got, want)
	}
}
