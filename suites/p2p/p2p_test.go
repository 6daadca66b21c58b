package p2p

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGrids: IMB-P2P's grids (checked against its C code for 1..64
// processes) and which process counts the stencils run on.
func TestGrids(t *testing.T) {
	for _, c := range []struct{ n, x2, y2, x3, y3, z3 int }{
		{2, 1, 2, 1, 2, 1}, {4, 2, 2, 2, 2, 1}, {8, 4, 2, 2, 2, 2}, {12, 3, 4, 2, 3, 2},
		{16, 4, 4, 4, 2, 2}, {27, 9, 3, 3, 3, 3}, {64, 8, 8, 4, 4, 4},
	} {
		x, y := Grid2D(c.n)
		a, b, z := Grid3D(c.n)
		if x != c.x2 || y != c.y2 || a != c.x3 || b != c.y3 || z != c.z3 {
			t.Errorf("n=%d: 2-D %dx%d, 3-D %dx%dx%d; want %dx%d, %dx%dx%d", c.n, x, y, a, b, z, c.x2, c.y2, c.x3, c.y3, c.z3)
		}
	}
	s2, _ := Lookup("stencil2d")
	s3, _ := Lookup("Stencil3D")
	pp, _ := Lookup("PINGPONG")
	if s2.Valid(2) || !s2.Valid(4) || s3.Valid(4) || !s3.Valid(8) || pp.Valid(3) || !pp.Valid(4) {
		t.Error("wrong validity")
	}
	if got := s3.Title(16); got != "Stencil3D (2 x 2 x 4)" {
		t.Errorf("title %q", got)
	}
}

// TestNeighbours: -x, +x, -y, +y (, -z, +z) on periodic grids, x fastest.
func TestNeighbours(t *testing.T) {
	s2, _ := Lookup("Stencil2D")
	if got := s2.Neighbours(4, 6); !slices.Equal(got, []int{5, 5, 2, 0}) { // x 2, y 3: rank 4 is (0, 2)
		t.Errorf("2-D: %v", got)
	}
	s3, _ := Lookup("Stencil3D")
	if got := s3.Neighbours(5, 8); !slices.Equal(got, []int{4, 4, 7, 7, 1, 1}) { // 2x2x2: rank 5 is (1, 0, 1)
		t.Errorf("3-D: %v", got)
	}
	pp, _ := Lookup("PingPong")
	if pp.Neighbours(0, 4) != nil {
		t.Error("PingPong has neighbours")
	}
}

// TestIterations: IMB-P2P's get_iters.
func TestIterations(t *testing.T) {
	c := &Config{IterMax: DefaultIterMax, Numerator: DefaultNumerator}
	for _, w := range []struct{ x, iters, warm int }{
		// 800 MiB / 8 KiB = 102400, capped at 100000
		{0, 100000, 10000}, {1, 100000, 10000}, {8192, 100000, 10000}, {4194304, 200, 20}, {1 << 30, 1, 0},
	} {
		if i, wu := c.Iterations(w.x); i != w.iters || wu != w.warm {
			t.Errorf("length %d: %d, %d; want %d, %d", w.x, i, wu, w.iters, w.warm)
		}
	}
	c = &Config{IterMax: 8, Numerator: 1 << 20}
	for x, want := range map[int][2]int{200000: {5, 1}, 1048576: {1, 0}, 3000000: {1, 0}, 600000: {2, 1}} {
		if i, wu := c.Iterations(x); i != want[0] || wu != want[1] {
			t.Errorf("-iter 8,1, length %d: %d, %d; want %v", x, i, wu, want)
		}
	}
}

// TestParseArgs: IMB-P2P's flags, lengths in its order, names.
func TestParseArgs(t *testing.T) {
	dir := t.TempDir()
	msglen := filepath.Join(dir, "lens")
	os.WriteFile(msglen, []byte("# c\n4\n\n2k\n1M\n"), 0o644)
	for _, c := range []struct {
		args  []string
		names []string
		lens  []int
	}{
		{nil, nil, nil},
		{[]string{"-msglog", "3"}, nil, []int{0, 1, 2, 4, 8}},
		{[]string{"-msglog", "2:4", "-msgsz", "5k"}, nil, []int{4, 8, 16, 5120}},
		{[]string{"-msgsz", "7", "-msglen", msglen}, nil, []int{4, 2048, 1 << 20}},
		{[]string{"pingpong,STENCIL2D", "Corandom", "-iter", "5,2"}, []string{"PingPong", "Stencil2D", "Corandom"}, nil},
	} {
		cfg, err := ParseArgs(c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if c.names == nil {
			c.names = []string{"PingPong", "PingPing", "Unirandom", "Birandom", "Corandom", "Stencil2D", "Stencil3D", "SendRecv_Replace"}
		}
		if c.lens == nil {
			c.lens = append([]int{0}, powers(0, 22)...)
		}
		if !slices.Equal(cfg.Benchmarks, c.names) || !slices.Equal(cfg.Lengths, c.lens) {
			t.Errorf("%v: %v %v", c.args, cfg.Benchmarks, cfg.Lengths)
		}
	}
	cfg, _ := ParseArgs([]string{"-iter", "5,2", "-msgwr", "off", "-msgrd", "No", "-pause", "-1", "-check"})
	if cfg.IterMax != 5 || cfg.Numerator != 2<<20 || cfg.TouchSend || cfg.TouchRecv || cfg.PauseUsec != -1 || !cfg.Check {
		t.Errorf("flags: %+v", cfg)
	}
	for _, bad := range [][]string{{"Foo"}, {"-msglog", "2:1"}, {"-msglog", "31"}, {"-iter", "1,0"}, {"-msgsz", "-1"},
		{"-msgsz", "3G"}, {"-msgrd", "perhaps"}, {"-pause", "x"}, {"-msglen", filepath.Join(dir, "none")}} {
		if _, err := ParseArgs(bad); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(bad[0], "-")) && bad[0] != "Foo" {
			t.Errorf("%v: error %v", bad, err)
		}
	}
}

// TestOptions: the IMB-P2P flags given, with their values as typed
// (-msgsz's joined), are the records' context.options; none given, none.
func TestOptions(t *testing.T) {
	c, err := ParseArgs([]string{"PingPong", "-msgsz", "1K", "-iter", "10,1", "-msgsz", "2", "-msgwr", "off", "-pause", "0"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"msgsz": "1K,2", "iter": "10,1", "msgwr": "off", "pause": "0"}
	if len(c.Options) != len(want) {
		t.Errorf("options %v, want %v", c.Options, want)
	}
	for k, v := range want {
		if c.Options[k] != v {
			t.Errorf("options %v, want %v", c.Options, want)
		}
	}
	if c, _ := ParseArgs(nil); c.Options != nil {
		t.Errorf("no flags: options %v", c.Options)
	}
}
