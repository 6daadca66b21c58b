package imb

// Integration tests of IMB 2021's flags in mpi1 and ext (imb/flags2021.go):
// each changes the plan as IMB-MPI1 2021.11 defines it, is recorded in the
// records' context.options, and a bad value exits 2 naming flag and value.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
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
		IMB     string            `json:"imb"`
	} `json:"context"`
}

// run2021 runs mpibench on 2 processes and returns its records.
func run2021(t *testing.T, args ...string) []rec2021 {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.jsonl")
	e2e.MustSucceed(t, e2e.Launch(t, 2, append(args, "-json", out)...))
	return e2e.ReadJSONL[rec2021](t, out)
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
	// n = round(100·16/(2x'+16)), down to even, at least 2, x' = max(x, 4):
	// x = 0, 1, 2, 4, 8, 16 (IMB-MPI1 2021.11 prints these counts).
	want = []string{"Bcast/0/66", "Bcast/1/66", "Bcast/2/66", "Bcast/4/66", "Bcast/8/50", "Bcast/16/32"}
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
	recs = run2021(t, "ext", "Unidir_Put", "Window", "-msglog", "2", "-zero_size", "off", "-iter", "20,1,5", "-time", "off",
		"-aggregate_mode", "non_aggregate")
	got = nil
	for _, r := range recs {
		got = append(got, r.Benchmark+"/"+r.Mode+"/"+strconv.Itoa(r.Bytes))
	}
	// Window has no mode and runs as before.
	want = []string{"Unidir_Put/non-aggregate/1", "Unidir_Put/non-aggregate/2", "Unidir_Put/non-aggregate/4",
		"Window//4"}
	if !slices.Equal(got, want) || recs[0].Context.Options["aggregate_mode"] != "non_aggregate" {
		t.Errorf("-aggregate_mode non_aggregate: rows %v, options %v\nwant %v", got, recs[0].Context.Options, want)
	}
}

// TestIMB2021FlagErrors: a bad value exits 2 with a message naming the
// flag and the value, before any measurement, on every rank (the table of
// them is suites/imb's TestFlagErrors, read in process).
func TestIMB2021FlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		frag string
	}{
		{[]string{"mpi1", "-msglog", "5:3"}, `-msglog "5:3"`},
		{[]string{"mpi1", "-msglog", "31"}, `-msglog "31"`},
	} {
		r := e2e.Launch(t, 2, c.args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.frag) {
			t.Errorf("%v: want exit 2 and %q on stderr, got %s", c.args, c.frag, r)
		}
	}
}

// collectives2021 are the collectives whose definition -imb 2021 changes
// (timed call by call, -sync, -root_shift; Reduce_scatter's volume), and
// IMB 2021's rooted additions, which take -sync and -root_shift too.
var collectives2021 = []string{"Bcast", "Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Reduce",
	"Reduce_scatter", "Allreduce", "Gather", "Scatter"}

// runMutant2021 runs mpi1 -imb 2021 -check on np processes (-npmin np) as
// mutant m ("" for the real loops) with the -msglen lengths of the mpi1
// mutation tests, and returns the records; the exit code must be 3 with
// defects, 0 without.
func runMutant2021(t *testing.T, bin, m string, np int, args ...string) []rec2021 {
	t.Helper()
	t.Setenv(e2e.MutantEnv, m)
	js := filepath.Join(t.TempDir(), "check.jsonl")
	argv := e2e.LauncherArgs(np)
	argv[len(argv)-1] = bin
	argv = append(argv, "mpi1", "-imb", "2021", "-check", "-npmin", strconv.Itoa(np), "-iter_policy", "off",
		"-iter", "5", "-msglen", e2e.Testdata(t, "check_lengths.txt"), "-json", js)
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args...)...)
	e2e.NoPanic(t, r)
	if want := map[bool]int{true: 0, false: 3}[m == ""]; r.Code != want {
		t.Fatalf("want exit code %d, got %s", want, r)
	}
	return e2e.ReadJSONL[rec2021](t, js)
}

// TestIMB2021CheckMutants: under -imb 2021, with IMB 2021's -sync and
// -root_shift defaults and with the other settings, the real loops pass
// -check and record their settings; the mutants that break a loop's data
// fail it at every length: a root that does not move under -root_shift on
// (no-rotation), a reduction one element short, the first repetition only.
func TestIMB2021CheckMutants(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	nps := []int{2}
	if e2e.MaxRanks() >= 3 {
		nps = append(nps, 3) // a root with two others to move to
	}
	for _, np := range nps {
		for _, v := range [][]string{nil, {"-sync", "off", "-root_shift", "on"}} {
			t.Run(fmt.Sprintf("real/np%d%s", np, strings.Join(v, "")), func(t *testing.T) {
				for _, r := range runMutant2021(t, bin, "", np, append(v, collectives2021...)...) {
					o := r.Context.Options
					if r.Defects != 0 || r.Context.IMB != "2021" || o["sync"] != optOf(v, "-sync") ||
						o["root_shift"] != optOf(v, "-root_shift") {
						t.Errorf("%s %d bytes: defects %g, context.imb %q, options %v", r.Benchmark, r.Bytes,
							r.Defects, r.Context.IMB, o)
					}
				}
			})
		}
	}
	for _, m := range []struct {
		name    string
		benches []string
	}{
		{"no-rotation", []string{"Bcast", "Reduce"}},
		{"short-reduce", []string{"Reduce", "Reduce_scatter", "Allreduce"}},
		{"first-only", collectives2021},
	} {
		t.Run(m.name, func(t *testing.T) {
			for _, r := range runMutant2021(t, bin, m.name, 2, append([]string{"-root_shift", "on"}, m.benches...)...) {
				if r.Defects <= 0 && !(r.Bytes < 4 && slices.Contains([]string{"Reduce", "Reduce_scatter", "Allreduce"}, r.Benchmark)) {
					t.Errorf("mutant %s passed -check: %s %d bytes", m.name, r.Benchmark, r.Bytes)
				}
			}
		})
	}
}

// optOf is the value after flag in args, "" when it is not there.
func optOf(args []string, flag string) string {
	if i := slices.Index(args, flag); i >= 0 {
		return args[i+1]
	}
	return ""
}

// TestIMB2021Default: -imb 2021 without names runs IMB-MPI1 2021.11's
// default list in its order, prints its header, and Reduce_scatter moves
// X bytes to every rank (Q·X reduced); IMB 3.0's run is unchanged.
func TestIMB2021Default(t *testing.T) {
	e2e.NeedMPI(t)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	r := e2e.Launch(t, 2, "mpi1", "-imb", "2021", "-iter_policy", "off", "-iter", "3", "-msglog", "2", "-json", out)
	e2e.MustSucceed(t, r)
	want := []string{"PingPong", "PingPing", "Sendrecv", "Exchange", "Allreduce", "Reduce", "Reduce_local",
		"Reduce_scatter", "Reduce_scatter_block", "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter",
		"Scatterv", "Alltoall", "Alltoallv", "Bcast", "Barrier"}
	var got []string
	for _, rec := range e2e.ReadJSONL[rec2021](t, out) {
		if !slices.Contains(got, rec.Benchmark) {
			got = append(got, rec.Benchmark)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("-imb 2021 ran %v\nwant IMB 2021.11's default list %v", got, want)
	}
	if !strings.Contains(r.Stdout, "# List of Benchmarks to run:\n\n# "+strings.Join(want, "\n# ")+"\n") ||
		!strings.HasPrefix(r.Stdout, "#"+strings.Repeat("-", 64)+"\n") {
		t.Errorf("stdout lacks IMB 2021's header and list:\n%s", e2e.Tail(r.Stdout, 3000))
	}
	r = e2e.Launch(t, 2, "mpi1", "-msglog", "0", "-iter", "2", "-json", out)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadJSONL[rec2021](t, out)
	names := map[string]bool{}
	for _, rec := range recs {
		names[rec.Benchmark] = true
	}
	if recs[0].Context.IMB != "3.0" || len(names) != 13 || !strings.HasPrefix(r.Stdout, "#"+strings.Repeat("-", 51)+"\n") {
		t.Errorf("without -imb: context.imb %q, %d benchmarks (want 3.0, IMB 3.0's 13)", recs[0].Context.IMB, len(names))
	}
}

// TestIMB2021MatchesIMB runs Intel's IMB-MPI1 2021.11 and mpibench -imb
// 2021 on the same plan and requires the same benchmarks in the same
// order, lengths and repetition counts, and the same header lines up to
// their values (date, machine, title, calling sequence).
func TestIMB2021MatchesIMB(t *testing.T) {
	sideBySideIMB(t, []string{"-iter_policy", "off", "-iter", "100", "-msglog", "3"})
}

// tableRows lists every row of an IMB output as "benchmark npN bytes/reps",
// in output order.
func tableRows(t *testing.T, out string) []string {
	var rows []string
	for _, tab := range e2e.ParseTables(t, out) {
		np := ""
		for _, h := range tab.Head {
			if _, v, ok := strings.Cut(h, "#processes = "); ok {
				np = strings.TrimSpace(v)
			}
		}
		for _, row := range tab.Rows {
			if tab.Columns[0] == "#repetitions" { // Barrier: no length
				row = append([]string{"-"}, row...)
			}
			rows = append(rows, fmt.Sprintf("%s np%s %s/%s", tab.Title, np, row[0], row[1]))
		}
	}
	return rows
}

// TestIMB2021List: -list prints the benchmarks as IMB-MPI1 2021.11's
// -list does, line for line after the program's name (against Intel's
// binary and against its list written down here).
func TestIMB2021List(t *testing.T) {
	r := e2e.Launch(t, 2, "mpi1", "-list", "-imb", "2021")
	e2e.MustSucceed(t, r)
	_, ours, _ := strings.Cut(r.Stdout, "\n")
	want := "List of benchmarks:\nIMB-MPI1:\n"
	for _, n := range []string{"Allgather", "Allgatherv", "Allreduce", "Alltoall", "Alltoallv", "Barrier", "Bcast",
		"Biband (non-default)", "Exchange", "Gather", "Gatherv", "PingPing", "PingPingAnySource (non-default)",
		"PingPingSpecificSource (non-default)", "PingPong", "PingPongAnySource (non-default)",
		"PingPongSpecificSource (non-default)", "Reduce", "Reduce_local", "Reduce_scatter", "Reduce_scatter_block",
		"Scatter", "Scatterv", "Sendrecv", "Uniband (non-default)"} {
		want += "    " + n + "\n"
	}
	if ours != want {
		t.Errorf("-list printed\n%s\nwant IMB-MPI1 2021.11's list as written in the test\n%s", ours, want)
	}
	theirs := e2e.Execute(t, e2e.MpirunTimeout, imbPeer(t, "IMB-MPI1"), "-list")
	if _, want, _ = strings.Cut(theirs.Stdout, "\n"); ours != want {
		t.Errorf("-list printed\n%s\nwant IMB-MPI1's\n%s", ours, want)
	}
	r = e2e.Launch(t, 2, "mpi1", "-list")
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stdout, "    Gather (non-default)\n") || !strings.Contains(r.Stdout, "    PingPong\n") {
		t.Errorf("-list without -imb 2021: IMB 3.0's default list should leave out Gather:\n%s", r.Stdout)
	}
}

// TestIMBBarrier: -imb_barrier on runs IMB's own barrier (empty
// MPI_Sendrecv rounds, tag 1000) in place of MPI_Barrier around mpi1's
// and nbc's collectives, with the same number of MPI_Barrier calls fewer;
// off (the default) and ext (whose kernels call MPI_Barrier, as IMB's do)
// run none. The flag is in context.options.
func TestIMBBarrier(t *testing.T) {
	e2e.NeedMPI(t)
	so := e2e.BuildCounter(t)
	lens := e2e.Lengths(t, 4)
	for _, c := range []struct {
		args []string
		runs bool
	}{
		{[]string{"mpi1", "Allreduce", "-imb", "2021", "-iter", "5", "-time", "off"}, true},
		{[]string{"nbc", "Iallreduce", "-time", "0.001"}, true}, // bounded by -time: a few repetitions
		{[]string{"ext", "Unidir_Put", "-iter", "5", "-time", "off"}, false},
	} {
		base := append(slices.Clone(c.args), "-msglen", lens)
		offBar, offIMB := e2e.BarrierCounts(t, so, base...)
		js := filepath.Join(t.TempDir(), "o.jsonl")
		onBar, onIMB := e2e.BarrierCounts(t, so, append(base, "-imb_barrier", "on", "-json", js)...)
		t.Logf("%v: MPI_Barrier calls %v off, %v on; IMB barrier messages %v off, %v on", c.args, offBar, onBar, offIMB, onIMB)
		for r := range 2 {
			if offIMB[r] != 0 || (onIMB[r] > 0) != c.runs || c.runs && onBar[r] >= offBar[r] {
				t.Errorf("%v rank %d: off: %d MPI_Barrier, %d IMB barrier messages; on: %d, %d; want IMB's barrier: %v",
					c.args, r, offBar[r], offIMB[r], onBar[r], onIMB[r], c.runs)
			}
		}
		for _, rec := range e2e.ReadJSONL[rec2021](t, js) {
			if rec.Context.Options["imb_barrier"] != "on" {
				t.Errorf("%v: options %v, want imb_barrier on", c.args, rec.Context.Options)
			}
		}
	}
}

// TestIMBMem: a sample whose message buffers (IMB's need: 2·np·max(X, 4)
// bytes for Alltoall) exceed -mem GB is not run; IMB's out-of-mem. line
// stands in its place in the table, as IMB-MPI1 2021.11 prints it, in
// both modes, and its record says so (skipped, IMB's need, -mem in
// bytes); the others run and their records carry the flag.
func TestIMBMem(t *testing.T) {
	e2e.NeedMPI(t)
	for _, mode := range [][]string{nil, {"-imb", "2021"}} {
		lens := e2e.Lengths(t, 0, 64, 4096, 16) // 16, 256, 16384, 64 bytes; the bound is 1073
		js := filepath.Join(t.TempDir(), "o.jsonl")
		args := append([]string{"mpi1", "Alltoall", "-mem", "0.000001", "-msglen", lens, "-iter", "5", "-time", "off",
			"-json", js}, mode...)
		r := e2e.Launch(t, 2, args...)
		e2e.MustSucceed(t, r)
		want := `         4096 out-of-mem.; needed X=   0.001 GB; use flag "-mem X" or MAX_MEM_USAGE>=X (IMB_mem_info.h)` + "\n"
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("%v: no line %q in\n%s", mode, want, r.Stdout)
		}
		if got := tableLines(r.Stdout)[2]; !slices.Equal(got, []string{"0", "64", "4096 out", "16"}) {
			t.Errorf("%v: table %v, want the line in place of 4096 bytes", mode, got)
		}
		recs := e2e.ReadJSONL[rec2021](t, js)
		if got := rows2021(recs); !slices.Equal(got, []string{"Alltoall/0/5", "Alltoall/64/5", "Alltoall/4096/0", "Alltoall/16/5"}) {
			t.Errorf("%v: rows %v, want Alltoall at 0 and 64 bytes and 4096 left out", mode, got)
		}
		for _, rec := range recs {
			if rec.Context.Options["mem"] != "0.000001" {
				t.Errorf("%v: options %v, want mem 0.000001", mode, rec.Context.Options)
			}
		}
		for _, rec := range e2e.ReadJSONL[memRec](t, js) {
			if left := rec.Bytes == 4096; left != (rec.Skipped == "memory") || left && (rec.NeedBytes != 2*2*4096 || rec.LimitBytes != 1073) {
				t.Errorf("%v: %+v", mode, rec)
			}
		}
	}
}
