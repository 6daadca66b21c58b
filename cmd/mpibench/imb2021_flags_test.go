package main

// Integration tests of IMB 2021's flags in mpi1 and ext (imb/flags2021.go):
// each changes the plan as IMB-MPI1 2021.11 defines it, is recorded in the
// records' context.options, and a bad value exits 2 naming flag and value.

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rec2021 is what these tests read of a record.
type rec2021 struct {
	Benchmark string  `json:"benchmark"`
	Bytes     int     `json:"bytes"`
	Reps      int     `json:"reps"`
	Mode      string  `json:"mode"`
	Defects   float64 `json:"defects"`
	TimeLimit float64 `json:"time_limit_s"`
	Context   struct {
		Options map[string]string `json:"options"`
	} `json:"context"`
}

// run2021 runs mpibench on 2 processes and returns its records.
func run2021(t *testing.T, args ...string) []rec2021 {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.jsonl")
	mustSucceed(t, launch(t, 2, append(args, "-json", out)...))
	return readJSONL[rec2021](t, out)
}

// rows2021 lists benchmark, bytes and repetitions of recs as "B/x/n".
func rows2021(recs []rec2021) []string {
	var s []string
	for _, r := range recs {
		s = append(s, r.Benchmark+"/"+strconv.Itoa(r.Bytes)+"/"+strconv.Itoa(r.Reps))
	}
	return s
}

// TestIMB2021FlagsPlan: -msglog sets the lengths, -iter the counts (the
// volume bound in MiB), -zero_size off drops 0, -include and -exclude the
// list (included first), -warm_up is accepted; all in context.options.
func TestIMB2021FlagsPlan(t *testing.T) {
	recs := run2021(t, "mpi1", "PingPong", "Allreduce", "Barrier", "-msglog", "16:17", "-iter", "50,1",
		"-zero_size", "off", "-exclude", "allreduce", "-include", "Sendrecv", "-warm_up", "off", "-time", "off")
	// 1 MiB per sample: 16 repetitions of 64 KiB, 8 of 128 KiB; Barrier 50.
	want := []string{"Sendrecv/65536/16", "Sendrecv/131072/8", "PingPong/65536/16", "PingPong/131072/8", "Barrier/0/50"}
	if got := rows2021(recs); !slices.Equal(got, want) {
		t.Errorf("rows %v\nwant %v", got, want)
	}
	wantOpts := map[string]string{"msglog": "16:17", "iter": "50,1,100", "zero_size": "off", "exclude": "allreduce",
		"include": "Sendrecv", "warm_up": "off"}
	for _, r := range recs {
		if !mapsEqual(r.Context.Options, wantOpts) {
			t.Fatalf("%s: context.options %v, want %v", r.Benchmark, r.Context.Options, wantOpts)
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestIMB2021IterPolicy: off runs MSGSPERSAMPLE at every length without the
// -time bound; multiple_np IMB's hyperbola, a multiple of the process
// count; -check finds no defect under either.
func TestIMB2021IterPolicy(t *testing.T) {
	recs := run2021(t, "mpi1", "PingPong", "Reduce", "-iter_policy", "off", "-iter", "30", "-msglog", "3", "-check")
	want := []string{"PingPong/0/30", "PingPong/1/30", "PingPong/2/30", "PingPong/4/30", "PingPong/8/30",
		"Reduce/0/30", "Reduce/4/30", "Reduce/8/30"}
	if got := rows2021(recs); !slices.Equal(got, want) {
		t.Errorf("-iter_policy off: rows %v\nwant %v", got, want)
	}
	for _, r := range recs {
		if r.TimeLimit != -1 || r.Defects != 0 {
			t.Errorf("-iter_policy off: %s %d bytes: time_limit_s %g (want -1, unbounded), defects %g",
				r.Benchmark, r.Bytes, r.TimeLimit, r.Defects)
		}
	}
	recs = run2021(t, "mpi1", "Bcast", "-iter_policy", "multiple_np", "-iter", "100", "-msglog", "4", "-check")
	// n = round(100·16/(2x+16)), down to even, at least 2: x = 0, 1, 2, 4, 8, 16.
	want = []string{"Bcast/0/100", "Bcast/1/88", "Bcast/2/80", "Bcast/4/66", "Bcast/8/50", "Bcast/16/32"}
	if got := rows2021(recs); !slices.Equal(got, want) {
		t.Errorf("-iter_policy multiple_np: rows %v\nwant %v", got, want)
	}
}

// TestIMB2021FlagsExt: ext takes the flags: -iter's third value is the
// non-aggregate count.
func TestIMB2021FlagsExt(t *testing.T) {
	recs := run2021(t, "ext", "Unidir_Put", "-msglog", "1:2", "-zero_size", "off", "-iter", "20,1,5", "-time", "off")
	var got []string
	for _, r := range recs {
		got = append(got, r.Mode+"/"+strconv.Itoa(r.Bytes)+"/"+strconv.Itoa(r.Reps))
	}
	want := []string{"aggregate/2/20", "aggregate/4/20", "non-aggregate/2/5", "non-aggregate/4/5"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %v\nwant %v", got, want)
	}
}

// TestIMB2021FlagErrors: a bad value exits 2 with a message naming the
// flag and the value, before any measurement.
func TestIMB2021FlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		frag string
	}{
		{[]string{"mpi1", "-msglog", "5:3"}, `-msglog "5:3"`},
		{[]string{"mpi1", "-msglog", "31"}, `-msglog "31"`},
		{[]string{"mpi1", "-msglog", "a"}, `-msglog "a"`},
		{[]string{"mpi1", "-iter", "0"}, `-iter "0"`},
		{[]string{"mpi1", "-iter", "1,2,3,4"}, `-iter "1,2,3,4"`},
		{[]string{"mpi1", "-iter_policy", "sometimes"}, `-iter_policy "sometimes"`},
		{[]string{"mpi1", "-zero_size", "yes"}, `-zero_size "yes"`},
		{[]string{"ext", "-warm_up", "0"}, `-warm_up "0"`},
		{[]string{"mpi1", "-include", "NoSuch"}, `-include: unknown mpi1 benchmark "NoSuch"`},
		{[]string{"mpi1", "PingPong", "-exclude", "pingpong"}, "-exclude pingpong leaves no benchmark"},
		{[]string{"io", "-msglog", "3"}, "-msglog is a flag of mpibench mpi1 and ext only"},
	} {
		r := launch(t, 2, c.args...)
		noPanic(t, r)
		if r.code != 2 || !strings.Contains(r.stderr, c.frag) {
			t.Errorf("%v: want exit 2 and %q on stderr, got %s", c.args, c.frag, r)
		}
	}
}
