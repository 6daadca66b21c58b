package osu

import (
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/suites/osu/kernel"
)

// TestFanPlan: omb_fan_init's nodes, parents and children from the
// processor names, and OSU's two refusals.
func TestFanPlan(t *testing.T) {
	p := planFan([]string{"b", "a", "c", "a", "b", "c"})
	if p.Err != "" || p.Nodes != 3 || p.PPN != 2 || !slices.Equal(p.At[0], []int{1, 3}) ||
		!slices.Equal(p.At[1], []int{0, 4}) || !slices.Equal(p.At[2], []int{2, 5}) {
		t.Fatalf("plan %+v", p)
	}
	for _, c := range []struct {
		rank  int
		in    bool
		send  bool
		peers []int
	}{
		{1, true, false, []int{0, 2}}, // parent 0 of node "a": the first of each child node
		{3, true, false, []int{4, 5}},
		{4, true, true, []int{3}}, // a child sends to its parent in fan-in
		{4, false, false, []int{3}},
		{3, false, true, []int{4, 5}}, // a parent sends in fan-out
	} {
		send, peers := p.role(c.rank, c.in)
		if send != c.send || !slices.Equal(peers, c.peers) {
			t.Errorf("rank %d in=%v: send %v peers %v, want %v %v", c.rank, c.in, send, peers, c.send, c.peers)
		}
	}
	if p.tailRank(true) != 0 || p.tailRank(false) != 1 {
		t.Errorf("tail ranks %d %d, want 0 (first child of node b) and 1", p.tailRank(true), p.tailRank(false))
	}
	if e := planFan([]string{"x", "x", "x"}).Err; !strings.Contains(e, "more than 1 node") {
		t.Errorf("one node: %q", e)
	}
	if e := planFan([]string{"x", "x", "y"}).Err; !strings.Contains(e, "same ppn") {
		t.Errorf("unequal nodes: %q", e)
	}
}

// TestFanFigures: OSU's bandwidth of the fan tests from the timed ranks'
// mean time, and -z's figures from the tail rank's iterations.
func TestFanFigures(t *testing.T) {
	r := &Run{Size: 3, Opts: &Options{}, Fan: planFan([]string{"a", "b", "c"})}
	s := &kernel.Spec{Window: 4, Iters: 2}
	// rank 0 parent; ranks 1 and 2 children: time, then two iterations each.
	all := []float64{9, 0, 0, 1, 0.25, 0.75, 3, 1, 2}
	in := r.fanFigures(true, s, 8, all) // children's mean time 2 s
	agg := 8 / 1e6 * 4 * 1 * 2.0
	if in.Avg != agg*2/2 || !slices.Equal(in.Samples, []float64{agg / 0.25, agg / 0.75}) {
		t.Errorf("fan-in %+v", in)
	}
	out := r.fanFigures(false, s, 8, all) // the parent's 9 s
	if out.Avg != agg*2/9 || !slices.Equal(out.Times, []float64{0, 0}) {
		t.Errorf("fan-out %+v", out)
	}
}

// TestLatMPProcs: osu_latency_mp's -t (set_processes) and its forks.
func TestLatMPProcs(t *testing.T) {
	for _, c := range []struct {
		args []string
		s, r int
		bad  bool
	}{
		{nil, 2, 2, false},
		{[]string{"-t", "3"}, 0, 3, false},
		{[]string{"-t", "4:1"}, 4, 1, false},
		{[]string{"-t", "0"}, 0, 0, true},
		{[]string{"-t", "1:128"}, 0, 0, true},
		{[]string{"-W", "4"}, 0, 0, true}, // not in OMBOP__PT2PT__LAT_MP
	} {
		o, err := Parse(append([]string{"osu_latency_mp"}, c.args...))
		if (err != nil) != c.bad {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		if c.bad {
			continue
		}
		if s, r := o.Forks(); s != c.s || r != c.r || o.MinSize != 0 {
			t.Errorf("%v: forks %d:%d min %d, want %d:%d min 0", c.args, s, r, o.MinSize, c.s, c.r)
		}
	}
	for _, bad := range [][]string{{"osu_bw_fan_in", "-c"}, {"osu_bw_fan_out", "-t", "2"}, {"osu_init", "-m", "8"},
		{"osu_hello", "-x", "1"}} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%v: taken; OSU 7.4's getopt string has no such option", bad)
		}
	}
}

// TestInitLine: osu_init's line, each rank's time truncated to whole ms
// and the mean of those in integer arithmetic.
func TestInitLine(t *testing.T) {
	rec := &result.Record{NProcs: 3, Samples: []float64{229999.999, 231000, 232500.5}}
	want := "nprocs: 3, min: 229 ms, max: 232 ms, avg: 230 ms" // (229+231+232)/3 = 230
	if got := initLine(rec); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
