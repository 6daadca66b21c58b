package skampi

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"mpibench/suites/skampi/method"
)

// The measurement names of the default configuration, as the report's
// comparisons use them: sections 2-5 of the paper's appendix A plus
// Gather, Scatter, Allgather and Allreduce. Written here independently
// of default.ski.
var defaultNames = map[string][]string{
	PingPong: {"Pingpong_Bsend_Recv", "Pingpong_Isend_Recv", "Pingpong_Send_Iprobe_Recv", "Pingpong_Send_Irecv",
		"Pingpong_Send_Recv", "Pingpong_Send_Recv_AT", "Pingpong_Sendrecv", "Pingpong_Sendrecv_replace", "Pingpong_Ssend_Recv"},
	MasterWorker: {"MW_Bsend", "MW_Isend", "MW_Recv_Any", "MW_Send", "MW_Ssend", "MW_Waitany",
		"MW_Waitsome_work", "MW_Waitsome", "MW_Waitsome_nodes"},
	Collective: {"Alltoall", "Bcast", "Reduce", "Scan", "Gather", "Scatter", "Allgather", "Allreduce",
		"Alltoall_nodes_64K", "Alltoall_nodes_256", "Barrier_nodes", "Bcast_nodes_64K", "Bcast_nodes_256",
		"Comm_split_nodes", "Reduce_nodes", "Scan_nodes", "Gather_nodes", "Scatter_nodes", "Allgather_nodes", "Allreduce_nodes"},
	Simple: {"Comm_rank", "Comm_size", "Iprobe_fail", "Wtime", "Attr_get"},
}

func TestDefaultConfigCoversAppendixA(t *testing.T) {
	c, err := LoadConfig("")
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for pattern, names := range defaultNames {
		for _, n := range names {
			want++
			m := c.Find(n)
			if m == nil {
				t.Errorf("default configuration lacks %s", n)
				continue
			}
			if m.Pattern != pattern {
				t.Errorf("%s: pattern %s, want %s", n, m.Pattern, pattern)
			}
		}
	}
	if len(c.Measurements) != want {
		t.Errorf("default configuration has %d measurements, want %d", len(c.Measurements), want)
	}
	// The parameter each section of appendix A varies.
	for name, param := range map[string]string{
		"Pingpong_Ssend_Recv": OverBytes, "MW_Waitsome_work": OverWorkpieces, "MW_Waitsome": OverBytes,
		"MW_Waitsome_nodes": OverProcs, "Alltoall_nodes_64K": OverProcs, "Barrier_nodes": OverProcs,
		"Reduce": OverBytes, "Wtime": OverNone,
	} {
		if m := c.Find(name); m != nil && m.Param != param {
			t.Errorf("%s over %s, want %s", name, m.Param, param)
		}
	}
	for name, l := range map[string]int{"Alltoall_nodes_64K": 65536, "Alltoall_nodes_256": 256, "Bcast_nodes_64K": 65536, "Bcast_nodes_256": 256} {
		if m := c.Find(name); m != nil && m.Len != l {
			t.Errorf("%s: len %d, want %d", name, m.Len, l)
		}
	}
	if err := c.Check(2); err != nil {
		t.Errorf("default configuration on 2 processes: %v", err)
	}
	if err := c.Check(1); err == nil {
		t.Error("default configuration accepted on 1 process (ping-pong needs 2)")
	}
}

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig(strings.NewReader(`# test
node "two sockets"
network shm
user me
epsilon 0.05
maxreps 50
measure A pingpong send_recv bytes 1..64K gamma=1.5 budget=40
minreps 3
measure B collective Bcast procs 2..P len=1K step=doubling
measure C master-worker Waitsome workpieces 1..8 procs=3 work=1
measure D simple Wtime none epsilon=0.2 maxreps=9
`), "t.ski")
	if err != nil {
		t.Fatal(err)
	}
	if c.Node != "two sockets" || c.Network != "shm" || c.User != "me" {
		t.Errorf("identity %q %q %q", c.Node, c.Network, c.User)
	}
	a, b, cc, d := c.Find("A"), c.Find("B"), c.Find("C"), c.Find("D")
	if a.Op != "Send_Recv" || a.Lo != 1 || a.Hi != 65536 || a.Gamma != 1.5 || a.Budget != 40 || a.Epsilon != 0.05 || a.MinReps != 8 || a.MaxReps != 50 || a.Line != 7 {
		t.Errorf("A = %+v", *a)
	}
	if b.Hi != 0 || b.Len != 1024 || b.Step != "doubling" || b.MinReps != 3 || !slices.Equal(b.Points(5), []int{2, 4, 5}) {
		t.Errorf("B = %+v, points %v", *b, b.Points(5))
	}
	if cc.Procs != 3 || !slices.Equal(cc.Points(2), []int{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("C = %+v", *cc)
	}
	if d.Epsilon != 0.2 || d.MaxReps != 9 || d.Mode() != "MPI_Wtime" {
		t.Errorf("D = %+v", *d)
	}
}

// Every error names the file, the line and the offending value.
func TestParseConfigErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"epsilon 0\nmeasure A simple Wtime none", "t.ski:1: epsilon: \"0\""},
		{"epsilon 2", "t.ski:1: epsilon: \"2\""},
		{"\nfrobnicate 3", "t.ski:2: unknown setting \"frobnicate\""},
		{"measure A pingpong Send_Recv", "t.ski:1: measure \"A pingpong Send_Recv\""},
		{"measure A ring Send_Recv bytes 1..2", "t.ski:1: pattern \"ring\""},
		{"measure A pingpong Bcast bytes 1..2", "t.ski:1: operation \"Bcast\" of pingpong"},
		{"measure A pingpong Send_Recv procs 2..P", "t.ski:1: parameter \"procs\""},
		{"measure A simple Wtime bytes 1..4", "t.ski:1: parameter \"bytes\""},
		{"measure A pingpong Send_Recv bytes", "t.ski:1: A over bytes needs a range"},
		{"measure A pingpong Send_Recv bytes 8..4", "t.ski:1: range \"8..4\""},
		{"measure A pingpong Send_Recv bytes 0..4", "t.ski:1: range \"0..4\""},
		{"measure A pingpong Send_Recv bytes 1..4Q", "t.ski:1: range \"1..4Q\": size \"4Q\""},
		{"measure A pingpong Send_Recv bytes 1-4", "t.ski:1: range \"1-4\""},
		{"measure A master-worker Send procs 1..P", "t.ski:1: range \"1..P\": want 2"},
		{"measure A pingpong Send_Recv bytes 1..4 gamma=1", "t.ski:1: option gamma=\"1\""},
		{"measure A pingpong Send_Recv bytes 1..4 color=red", "t.ski:1: option \"color\""},
		{"measure A pingpong Send_Recv bytes 1..4 fast", "t.ski:1: option \"fast\": want key=value"},
		{"measure A pingpong Send_Recv bytes 1..4 minreps=9 maxreps=3", "t.ski:1: A: maxreps 3 below minreps 9"},
		{"measure A pingpong Send_Recv bytes 1..1M budget=3", "t.ski:1: A: budget 3 below the 21 lengths"},
		{"measure A pingpong Send_Recv none procs=4", "t.ski:1: A: procs=4"},
		{"measure A collective Bcast none work=2", "t.ski:1: A: work=2"},
		{"measure A simple Wtime none\n# c\nmeasure A simple Comm_size none", "t.ski:3: measurement \"A\" defined twice (first at line 1)"},
		{"# nothing\n", "t.ski: no measurements"},
	}
	for _, c := range cases {
		_, err := ParseConfig(strings.NewReader(c.text), "t.ski")
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseConfig(%q) = %v, want an error containing %q", c.text, err, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	cases := []struct{ text, want string }{
		{"measure A pingpong Send_Recv bytes 1..4", "t.ski:1: A: pingpong needs at least 2 processes"},
		{"measure A collective Bcast bytes 1..4 procs=3", "t.ski:1: A: procs=3"},
		{"\nmeasure A collective Bcast procs 4..8", "t.ski:2: A: processes from 4"},
	}
	for i, c := range cases {
		cfg, err := ParseConfig(strings.NewReader(c.text), "t.ski")
		if err != nil {
			t.Fatal(err)
		}
		n := 2
		if i == 0 {
			n = 1
		}
		if err := cfg.Check(n); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%q, %d) = %v, want %q", c.text, n, err, c.want)
		}
	}
	cfg, _ := ParseConfig(strings.NewReader("measure A collective Bcast procs 2..8"), "t.ski")
	if err := cfg.Check(3); err != nil || !slices.Equal(cfg.Measurements[0].Points(3), []int{2, 3}) {
		t.Errorf("procs 2..8 on 3 processes: %v, points %v; want 2, 3", err, cfg.Measurements[0].Points(3))
	}
}

func TestLoadConfigMissing(t *testing.T) {
	_, err := LoadConfig("/nonexistent/x.ski")
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/x.ski") {
		t.Errorf("LoadConfig(missing) = %v", err)
	}
}

// MemoryNeed: send and receive buffers of max(length, 1)·processes bytes,
// a third for MPI_Bsend's attached buffer, and maxreps times of
// sampleBytes for every point and one more; the largest measurement wins.
func TestMemoryNeed(t *testing.T) {
	cfg, err := ParseConfig(strings.NewReader(`
measure A pingpong Send_Recv bytes 1..1M
measure B collective Bcast procs 2..P len=64K
measure C pingpong Bsend_Recv bytes 1..2M
measure D simple Wtime none
`), "t.ski")
	if err != nil {
		t.Fatal(err)
	}
	need := MemoryNeed(cfg, 4)
	// A: 2·1 MiB·2; B: 2·64 KiB·4; C: 3·2 MiB·2 = 12 MiB, the largest,
	// plus the 22 lengths of its grid 1..2M and one more of maxreps times.
	if need.Bytes != 3*(2<<20)*2+sampleBytes*method.DefaultMaxReps*23 || need.What != "C at 2097152 bytes on 2 processes" {
		t.Errorf("MemoryNeed = %+v, want C at 2 MiB on 2 processes, 12 MiB + maxreps·23 times", need)
	}
	cfg.Measurements = cfg.Measurements[1:2]
	// B: 3 points, 2..4 processes.
	if need := MemoryNeed(cfg, 4); need.Bytes != 2*(64<<10)*4+sampleBytes*method.DefaultMaxReps*4 {
		t.Errorf("MemoryNeed(B) = %+v, want 2·64 KiB·4 + maxreps·4 times", need)
	}
}
