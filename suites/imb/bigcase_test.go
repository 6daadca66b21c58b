package imb

import (
	"slices"
	"strings"
	"testing"
)

// TestBigMsgLog: -msglog takes up to 32 for mpi1's large-count
// benchmarks; beyond, or for the others, a usage error names the flag.
func TestBigMsgLog(t *testing.T) {
	for _, v := range []string{"32", "31:32", "0:31"} {
		o, err := ParseArgs([]string{"-msglog", v, "PingPong", "Bcast", "Reduce"})
		if err != nil {
			t.Fatalf("-msglog %s: %v", v, err)
		}
		c, err := Resolve(MPI1Suite, o, 2, nil)
		if err != nil {
			t.Fatalf("-msglog %s: %v", v, err)
		}
		lens := planLengths(c.F.settings(&MPI1Suite.Settings), nil, mustLookup(t, "PingPong"))
		if want := 1 << c.F.MsgLog[1]; slices.Max(lens) != want {
			t.Errorf("-msglog %s: longest length %d, want %d", v, slices.Max(lens), want)
		}
	}
	for _, v := range []string{"33", "64", "0:99999999999999999999", "-1:31"} {
		if _, err := ParseArgs([]string{"-msglog", v}); err == nil || !strings.Contains(err.Error(), "<= 32") {
			t.Errorf("-msglog %s: error %v, want one naming the bound 32", v, err)
		}
	}
	for _, c := range []struct {
		suite *Suite
		args  []string
		frag  string
	}{
		{MPI1Suite, []string{"-msglog", "31"}, `-msglog "31": lengths of 2 GiB and more run for PingPong, PingPing, Sendrecv, Exchange, Bcast, Reduce, Allreduce only, not for Allgather, Allgatherv, Alltoall`},
		{MPI1Suite, []string{"-msglog", "3:32", "PingPong", "Reduce_scatter"}, `-msglog "3:32"`},
		{EXTSuite, []string{"-msglog", "31"}, "mpibench mpi1 only"},
	} {
		o, err := ParseArgs(c.args)
		if err == nil {
			_, err = Resolve(c.suite, o, 2, nil)
		}
		if err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("%s %v: error %v, want %q", c.suite.Name, c.args, err, c.frag)
		}
	}
}

func mustLookup(t *testing.T, name string) *Benchmark {
	b, ok := MPI1Suite.Lookup(name)
	if !ok {
		t.Fatalf("no benchmark %s", name)
	}
	return b
}

// TestBigLengthsFile: -msglen lengths are 64-bit; one beyond int64 is
// refused, and under -msglog 32 a length above 2 GiB stays exact.
func TestBigLengthsFile(t *testing.T) {
	lens, err := parseLengths(strings.NewReader("2147483656\n4294967296\n"), "f")
	if err != nil || !slices.Equal(lens, []int{2147483656, 4294967296}) {
		t.Errorf("lengths %v, %v", lens, err)
	}
	set := (&Flags2021{MsgLog: []int{0, 32}}).settings(&MPI1Suite.Settings)
	if got, _ := set.AdjustLengths([]int{2147483656, 1 << 33}, 4); !slices.Equal(got, []int{2147483656, 1 << 32}) {
		t.Errorf("-msglog 32: adjusted %v, want [2147483656 4294967296]", got)
	}
	_, err = parseLengths(strings.NewReader("9223372036854775808\n"), "f")
	if err == nil || !strings.Contains(err.Error(), "f:1: message length 9223372036854775808 overflows a 64-bit integer") {
		t.Errorf("2^63: error %v", err)
	}
}

// TestBigMemoryNeed: PingPong and Bcast hold one buffer of the longest
// length (with room for the int kernels' receive buffer behind the longest
// shorter length); the others the usual two.
func TestBigMemoryNeed(t *testing.T) {
	const g = 1 << 30
	for _, c := range []struct {
		bench string
		lens  []int
		want  int64
	}{
		{"PingPong", nil, 4 * g},                       // 0 .. 2^32: max(4 GiB, 1 GiB + 1 GiB)
		{"Bcast", []int{2*g + 8}, 2*g + 8},             // one length: one buffer
		{"PingPong", []int{2*g - 1, 2*g + 8}, 4*g - 1}, // 2 GiB - 1 rounded up to a page, plus itself
		{"PingPing", []int{2*g + 8}, 2 * (2*g + 8)},    // send and receive
		{"Exchange", []int{2*g + 8}, 4 * (2*g + 8)},    // two halves each
		{"Allreduce", []int{2*g + 8}, 2 * (2*g + 8)},   // floats, send and receive
		{"PingPong", []int{1 << 20}, 2 << 20},          // below 2 GiB: as always
	} {
		cfg := &Config{Suite: "mpi1", Benchmarks: []string{c.bench}, NPMin: 2, Multi: -1, Lengths: c.lens,
			F: Flags2021{MsgLog: []int{0, 32}}}
		got := MemoryNeed(cfg, 2)
		if got.Bytes-2*4*2 != c.want {
			t.Errorf("%s %v: need %d (%s), want %d + 16", c.bench, c.lens, got.Bytes, got.What, c.want)
		}
	}
}
