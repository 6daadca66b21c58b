package skampi

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Every number that sizes an allocation or a loop is bounded: a value
// beyond is a ConfigError naming the file, the line and the value, before
// anything is allocated.
func TestConfigBounds(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"maxreps 90000000000\nmeasure A pingpong Send_Recv bytes 1..4\n", `b.ski:1: maxreps: "90000000000": want an integer from 1 to 10000000`},
		{"maxreps 9000000000000000\nmeasure A pingpong Send_Recv bytes 1..4\n", `b.ski:1: maxreps: "9000000000000000"`},
		{"maxreps 10000001\nmeasure A pingpong Send_Recv bytes 1..4\n", `b.ski:1: maxreps: "10000001"`},
		{"minreps 10000001\nmeasure A pingpong Send_Recv bytes 1..4\n", `b.ski:1: minreps: "10000001"`},
		{"measure A pingpong Send_Recv bytes 1..4 maxreps=90000000000\n", `b.ski:1: option maxreps="90000000000"`},
		{"measure A pingpong Send_Recv bytes 1..4 minreps=99999999\n", `b.ski:1: option minreps="99999999"`},
		{"budget 1000001\nmeasure A pingpong Send_Recv bytes 1..4\n", `b.ski:1: budget: "1000001"`},
		{"measure A pingpong Send_Recv bytes 1..4 budget=9223372036854775807\n", `b.ski:1: option budget=`},
		{"measure A master-worker Send none work=1000001\n", `b.ski:1: option work="1000001"`},
		{"measure A master-worker Send workpieces 1..1G\n", `b.ski:1: range "1..1G": want at most 1000000 workpieces`},
		{"\nmeasure A pingpong Send_Recv bytes 1..4G\n", `b.ski:2: range "1..4G"`},
		{"len 2G\nmeasure A collective Bcast none\n", `b.ski:1: len: size "2G"`},
		// Without a budget the grid is still bounded.
		{"gamma 1.0000000001\nmeasure A pingpong Send_Recv bytes 1..1G\n", "b.ski:2: A: gamma 1.0000000001 is so close to 1"},
	} {
		_, err := ParseConfig(strings.NewReader(c.text), "b.ski")
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want a ConfigError with %q", c.text, err, c.want)
		}
	}
	// The bounds themselves are accepted.
	c, err := ParseConfig(strings.NewReader("minreps 10000000\nmaxreps 10000000\nbudget 1000000\n"+
		"measure A pingpong Send_Recv bytes 1..2047M\nmeasure B master-worker Send workpieces 1..1000000\n"+
		"measure C master-worker Send none work=1000000\n"), "b.ski")
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Find("A"); m.MinReps != MaxReps || m.MaxReps != MaxReps || m.Budget != MaxBudget {
		t.Errorf("A: %+v", m)
	}
}

// Check refuses what would overflow a C int of the kernels on a job of
// that size: the pieces of a master-worker repetition and the size of
// the MPI_Bsend buffer.
func TestCheckIntBounds(t *testing.T) {
	c, err := ParseConfig(strings.NewReader("measure W master-worker Send none work=1000000\n"), "b.ski")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(2148); err != nil {
		t.Errorf("2147 workers × 10^6 pieces fit an int: %v", err)
	}
	if err := c.Check(2149); err == nil || !strings.Contains(err.Error(), "b.ski:1: W: 2148 workers with 1000000 workpieces") {
		t.Errorf("2148 workers × 10^6 pieces: %v", err)
	}
	c, err = ParseConfig(strings.NewReader("measure B pingpong Bsend_Recv bytes 1..1G\nmeasure S pingpong Send_Recv bytes 1..1G\n"), "b.ski")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(2); err == nil || !strings.Contains(err.Error(), "b.ski:1: B: the MPI_Bsend buffer for 1073741824 bytes to 2 processes") {
		t.Errorf("Bsend of 1 GiB to 2 processes: %v", err)
	}
	c.Measurements = c.Measurements[1:]
	if err := c.Check(2); err != nil {
		t.Errorf("Send_Recv of 1 GiB: %v", err)
	}
}

// MemoryNeed counts the times kept per repetition, so that a large
// maxreps is refused by the memory check, and saturates instead of
// overflowing.
func TestMemoryNeedReps(t *testing.T) {
	c, err := ParseConfig(strings.NewReader("maxreps 10000000\nbudget 26\nmeasure A pingpong Send_Recv bytes 1..1M\n"), "b.ski")
	if err != nil {
		t.Fatal(err)
	}
	need := MemoryNeed(c, 2)
	want := int64(2*(1<<20)*2 + sampleBytes*10_000_000*27)
	if need.Bytes != want || need.What != "A at 1048576 bytes on 2 processes, 26 points of up to 10000000 repetitions" {
		t.Errorf("MemoryNeed = %+v, want %d bytes", need, want)
	}
	m := c.Measurements[0]
	m.MaxReps, m.Budget = math.MaxInt, math.MaxInt
	if got := MemoryNeed(&Config{Measurements: []Measurement{m}}, 2); got.Bytes != math.MaxInt64 {
		t.Errorf("MemoryNeed of unbounded repetitions = %d, want MaxInt64", got.Bytes)
	}
}
