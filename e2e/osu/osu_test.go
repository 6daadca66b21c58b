package osu

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
)

// The osu tests run OSU's point-to-point tests on tiny sizes (1 to 16
// bytes, 4 iterations, 1 warm-up) next to OSU 7.4's own binaries, built
// by /work/shared/peers/build.sh into ~/.cache/mpibench-peers.

type osuRecord struct {
	Benchmark string    `json:"benchmark"`
	Class     string    `json:"class"`
	NP        int       `json:"np"`
	Bytes     int       `json:"bytes"`
	Reps      int       `json:"reps"`
	TAvg      float64   `json:"t_avg_us"`
	MBps      float64   `json:"mbytes_per_sec"`
	MsgRate   float64   `json:"msg_rate"`
	Window    int       `json:"window"`
	Check     bool      `json:"check"`
	Defects   float64   `json:"defects"`
	Samples   []float64 `json:"samples_us"`
	OSU       struct {
		Datatype   string `json:"datatype"`
		Transmit   int64  `json:"transmit"`
		Warmup     int    `json:"warmup"`
		Validation string `json:"validation"`
		Tail       []struct {
			P     int     `json:"p"`
			Value float64 `json:"value"`
		} `json:"tail"`
		Pairs int    `json:"pairs"`
		Win   string `json:"win"`
		Sync  string `json:"sync"`
	} `json:"osu"`
}

// osuCases are the tests and flags the shape test runs, with the
// processes: osu_mbw_mr on 4 where the launcher allows (2 pairs).
var osuCases = []struct {
	bench string
	np    int
	flags []string
}{
	{"osu_latency", 2, []string{"-c", "-z", "-T", "all"}},
	{"osu_bw", 2, []string{"-D", "vect:4:2", "-z50,99", "-W", "4"}},
	{"osu_bibw", 2, []string{"-c", "-W", "4", "-b", "multiple"}},
	{"osu_mbw_mr", 4, []string{"-c", "-W", "4", "-T", "mpi_int"}},
	{"osu_multi_lat", 2, []string{"-c", "-T", "mpi_float"}},
	{"osu_mbw_mr", 2, []string{"-V", "-T", "mpi_char", "-T", "mpi_int"}},
	{"osu_latency_persistent", 2, []string{"-c", "-T", "all"}},
	{"osu_bw_persistent", 2, []string{"-c", "-W", "4", "-b", "multiple"}},
	{"osu_bibw_persistent", 2, []string{"-c", "-W", "4", "-z"}},
}

// TestOSUShape: mpibench osu and OSU's binary print the same header
// lines, columns and sizes (the numbers aside) for the same flags, and
// every row of mpibench's is one of its records.
func TestOSUShape(t *testing.T) {
	e2e.NeedMPI(t)
	for _, c := range osuCases {
		np := min(c.np, e2e.MaxRanks())
		args := append([]string{"-m", "1:16", "-i", "4", "-x", "1"}, c.flags...)
		js := filepath.Join(t.TempDir(), "osu.jsonl")
		ours := e2e.Launch(t, np, append([]string{"osu", c.bench, "-json", js}, args...)...)
		e2e.MustSucceed(t, ours)
		recs := e2e.ReadJSONL[osuRecord](t, js)
		if slices.Contains(c.flags, "-V") {
			osuVariedMatch(t, ours.Stdout, recs)
		} else {
			osuRecordsMatch(t, c.bench, ours.Stdout, recs)
		}
		sameShapeAsOSU(t, c.bench, np, args, ours.Stdout)
	}
}

// sameShapeAsOSU runs OSU's own binary of bench on np ranks with args and
// compares its output's shape with ours (osuShape); a missing binary
// fails the test.
func sameShapeAsOSU(t *testing.T, bench string, np int, args []string, ours string) {
	t.Helper()
	peer := e2e.PeerBinary(bench)
	if peer == "" {
		t.Errorf("no %s for this MPI in ~/.cache/mpibench-peers: `bash /work/shared/peers/build.sh ~/.cache/mpibench-peers`", bench)
		return
	}
	argv := e2e.LauncherArgs(np)
	argv[len(argv)-1] = peer
	theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args...)...)
	e2e.MustSucceed(t, theirs)
	if a, b := osuShape(theirs.Stdout), osuShape(ours); !slices.Equal(a, b) {
		t.Errorf("%s %v: OSU's shape\n%s\nmpibench's\n%s", bench, args, strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// osuShape is OSU output as a harness parses it: every comment line (the
// title without its version: the peers' build leaves PACKAGE_VERSION out,
// OSU's own build prints " v7.4"), and of every row the size, the number
// of columns, and the cells that are not numbers (Pass, Fail).
func osuShape(out string) []string {
	var shape []string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if strings.HasPrefix(line, "#") || line == "" {
			shape = append(shape, strings.TrimSuffix(line, " v7.4"))
			continue
		}
		f := strings.Fields(line)
		row := fmt.Sprintf("%s [%d]", f[0], len(f))
		for _, x := range f[1:] {
			if _, err := strconv.ParseFloat(x, 64); err != nil {
				row += " " + x
			}
		}
		shape = append(shape, row)
	}
	return shape
}

// osuRecordsMatch checks that the rows of out are the records, in order:
// size, figure (%.2f), validation and percentiles.
func osuRecordsMatch(t *testing.T, bench, out string, recs []osuRecord) {
	t.Helper()
	var rows [][]string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Fields(line))
		}
	}
	if len(rows) != len(recs) || len(rows) == 0 {
		t.Fatalf("%s: %d rows, %d records\n%s", bench, len(rows), len(recs), out)
	}
	for i, r := range recs {
		want := []string{strconv.Itoa(r.Bytes), fmt.Sprintf("%.2f", osuFigure(r))}
		if r.Class == "multi-bandwidth" || r.Benchmark == "osu_get_mbw" {
			want = append(want, fmt.Sprintf("%.2f", r.MsgRate))
		}
		if r.Check {
			want = append(want, r.OSU.Validation)
		}
		for _, p := range r.OSU.Tail {
			want = append(want, fmt.Sprintf("%.2f", p.Value))
		}
		if r.OSU.Transmit > 0 || strings.Contains(out, "Transmit Size") {
			want = append(want, strconv.FormatInt(r.OSU.Transmit, 10))
		}
		if !slices.Equal(rows[i], want) || r.Benchmark != bench || r.Reps != 4 || r.OSU.Warmup != 1 {
			t.Errorf("%s: row %v, record %+v", bench, rows[i], r)
		}
	}
}

// osuVariedMatch checks osu_mbw_mr -V's rows against its records: per
// size a row of MB/s and one of messages/s, each of the 8 windows a
// record in order.
func osuVariedMatch(t *testing.T, out string, recs []osuRecord) {
	t.Helper()
	var rows [][]string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Fields(line))
		}
	}
	// -m 1:16: chars 1, 2, 4, 8, 16 and ints 4, 8, 16, two tables each.
	if len(recs) != 8*8 || len(rows) != 2*8 {
		t.Fatalf("%d records and %d rows, want 64 and 16\n%s", len(recs), len(rows), out)
	}
	for i, r := range recs {
		// MPI_CHAR: records 0-39, rows 0-4 (MB/s) and 5-9 (rate);
		// MPI_INT: records 40-63, rows 10-12 and 13-15.
		first, sizes := 0, 5
		if i >= 40 {
			first, sizes = 10, 3
		}
		row, rate := rows[first+i%40/8], rows[first+sizes+i%40/8]
		w := 1 << (i % 8)
		if r.Window != w || row[1+i%8] != fmt.Sprintf("%.2f", r.MBps) || rate[1+i%8] != fmt.Sprintf("%.2f", r.MsgRate) {
			t.Errorf("record %d %+v: window %d, rows %v and %v", i, r, w, row, rate)
		}
	}
}

func osuFigure(r osuRecord) float64 {
	if strings.HasSuffix(r.Class, "latency") || r.Class == "latency-mp" {
		return r.TAvg
	}
	return r.MBps
}

// TestOSUFigures: the records' figures follow OSU's formulas from the
// per-iteration times (--samples): latency = their sum over 2·iterations,
// its percentiles at OSU's index iterations·p/100 - 1 of the sorted
// half round trips, bandwidth = size·window·iterations/10^6 over their
// sum, osu_mbw_mr's rate = 10^6·MB/s over the size.
func TestOSUFigures(t *testing.T) {
	e2e.NeedMPI(t)
	for _, bench := range []string{"osu_latency", "osu_mbw_mr"} {
		js := filepath.Join(t.TempDir(), "osu.jsonl")
		args := []string{"osu", bench, "-m", "8:8", "-i", "10", "-x", "2", "-z10,50,100", "--samples", "-json", js}
		if bench != "osu_latency" {
			args = append(args, "-W", "3")
		}
		e2e.MustSucceed(t, e2e.Launch(t, 2, args...))
		recs := e2e.ReadJSONL[osuRecord](t, js)
		if len(recs) != 1 || len(recs[0].Samples) != 10 {
			t.Fatalf("%s: want one record with 10 samples, have %+v", bench, recs)
		}
		osuCheckFigures(t, bench, recs[0])
	}
}

func osuCheckFigures(t *testing.T, bench string, r osuRecord) {
	t.Helper()
	var sum float64
	per := make([]float64, len(r.Samples))
	for i, x := range r.Samples {
		sum += x
		per[i] = x / 2 // µs, half a round trip
		if bench != "osu_latency" {
			per[i] = 8.0 * 3 / x // MB/s: bytes·window/10^6 over seconds
		}
	}
	slices.Sort(per)
	want := map[string]float64{"osu_latency": sum / 20}
	got := r.TAvg
	if bench != "osu_latency" {
		want[bench], got = 8.0*3*10/sum, r.MBps
	}
	near := func(a, b float64) bool { return a-b < 1e-9*max(a, b, 1) && b-a < 1e-9*max(a, b, 1) }
	if !near(got, want[bench]) {
		t.Errorf("%s: figure %v, want %v from the samples %v", bench, got, want[bench], r.Samples)
	}
	for i, p := range []int{10, 50, 100} {
		k := max(10*p/100-1, 0)
		if len(r.OSU.Tail) != 3 || r.OSU.Tail[i].P != p || !near(r.OSU.Tail[i].Value, per[k]) {
			t.Errorf("%s: tail %+v, want P%d = %v (sorted %v)", bench, r.OSU.Tail, p, per[k], per)
		}
	}
	if bench == "osu_mbw_mr" && !near(r.MsgRate, 1e6*r.MBps/8) {
		t.Errorf("osu_mbw_mr: rate %v, want %v", r.MsgRate, 1e6*r.MBps/8)
	}
}

// TestOSUCheckMutant: -c flags the short-message mutant in every test, at
// every size and datatype the test uses (4 bytes: 4 chars, 1 int, 1
// float, the mutant sends 3 chars or none; osu_bw also at 64 KiB:
// rendezvous, above LARGE_MESSAGE_SIZE), with exit code 3; the real
// kernels pass (the shape test runs them with -c). OSU ends a datatype's
// table at its first failed size, so each run has one size.
func TestOSUCheckMutant(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	t.Setenv(e2e.MutantEnv, "osu-short")
	runs := [][2]string{{"osu_bw", "65536"}}
	for _, c := range osuCases {
		runs = append(runs, [2]string{c.bench, "4"})
	}
	runs = append(runs, [2]string{"osu_latency_mt", "4"}, [2]string{"osu_latency_mp", "4"})
	for _, run := range runs {
		bench, size := run[0], run[1]
		argv := e2e.LauncherArgs(2, "-x", e2e.MutantEnv)
		argv[len(argv)-1] = bin
		argv = append(argv, "osu", bench, "-m", size+":"+size, "-i", "2", "-x", "0", "-c", "-T", "all")
		if bench == "osu_latency_mt" {
			argv = append(argv, "-thread_level", "multiple", "-t", "2:2")
		}
		r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
		e2e.NoPanic(t, r)
		if r.Code != 3 || strings.Count(r.Stdout, "Fail") != 3 || strings.Contains(r.Stdout, "Pass") {
			t.Errorf("%s at %s bytes: want Fail for each of the 3 datatypes and exit code 3, have %s", bench, size, r)
		}
	}
}

// TestOSUBadInput: a bad flag and a bad process count are refused with
// the flag or the rule named, once, before any output, and exit code 2 on
// every rank (osu's unit tests check the other refusals of Parse, and
// TestBadInput the bad flags as rank 0 reads them).
func TestOSUBadInput(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.NeedMPI(t)
	for _, c := range []struct {
		np   int
		args []string
		want string
	}{
		{2, []string{"osu", "mbw_mr", "-m", "1:4G"}, "osu_mbw_mr has no large-count kernel"}, // big.go
		{3, []string{"osu", "latency"}, "exactly 2 processes, have 3"},
	} {
		if c.np > e2e.MaxRanks() {
			continue
		}
		r := e2e.Launch(t, c.np, c.args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || strings.Count(r.Stderr, c.want) != 1 || strings.Contains(r.Stdout, "# OSU") {
			t.Errorf("%v: want exit code 2, %q once and no header, have %s", c.args, c.want, r)
		}
	}
}

// TestOSULatencyMT: osu_latency_mt refuses a thread level below
// MPI_THREAD_MULTIPLE, naming it; with it, OSU's thread lines, title and
// a passing validation with 2 sender and 2 receiver threads.
func TestOSULatencyMT(t *testing.T) {
	e2e.NeedMPI(t)
	r := e2e.Launch(t, 2, "osu", "latency_mt", "-m", "1:1")
	e2e.NoPanic(t, r)
	if r.Code != 2 || !strings.Contains(r.Stderr, "needs MPI_THREAD_MULTIPLE, and MPI provided MPI_THREAD_SINGLE") {
		t.Errorf("want exit code 2 naming the thread level, have %s", r)
	}
	r = e2e.Launch(t, 2, "osu", "latency_mt", "-m", "1:4", "-i", "6", "-x", "1", "-c", "-t", "2:2", "-thread_level", "multiple")
	e2e.MustSucceed(t, r)
	want := []string{"# Number of Sender threads: 2 ", "# Number of Receiver threads: 2", "",
		"# OSU MPI Multi-threaded Latency Test v7.4", "# Datatype: MPI_CHAR.",
		"# Size         Avg Latency(us)          Validation", "1 [3] Pass", "2 [3] Pass", "4 [3] Pass"}
	lines := strings.Split(strings.TrimRight(r.Stdout, "\n"), "\n")
	if len(lines) != len(want) || !slices.Equal(lines[:6], want[:6]) {
		t.Fatalf("output\n%s\nwant\n%s", r.Stdout, strings.Join(want, "\n"))
	}
	if got := osuShape(r.Stdout)[6:]; !slices.Equal(got, want[6:]) {
		t.Errorf("rows %q, want %q", got, want[6:])
	}
}

// everyRepeat are the tests whose -c checks every repeat of an iteration,
// with a barrier between repeats that OSU does not make (osu_mbw_mr
// already has OSU's barrier around every iteration, so its count stays
// OSU's).
var everyRepeat = map[string]bool{"osu_latency": true, "osu_bw": true, "osu_bibw": true,
	"osu_latency_persistent": true, "osu_bw_persistent": true, "osu_bibw_persistent": true}

// TestOSUBarrierCalls: each test calls MPI_Barrier as often as OSU
// 7.4's binary on every rank, with and without -c (counted by a preloaded
// PMPI library): osu_mbw_mr's two barriers per iteration (osu_mbw_mr.c,
// calc_bw), osu_multi_lat's one and its two around the run, the -c
// barriers of osu_latency, osu_bw and osu_bibw, and the collectives'
// barrier after every call. Under -c, mpibench adds the barriers
// between the repeats of the tests in everyRepeat.
func TestOSUBarrierCalls(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	e2e.NeedMPI(t)
	so := e2e.BuildCounter(t)
	cases := slices.Clone(osuCases)
	for _, b := range []string{"osu_allgather", "osu_allreduce", "osu_alltoall", "osu_barrier", "osu_bcast",
		"osu_gather", "osu_reduce", "osu_scatter", "osu_iallreduce", "osu_ialltoall", "osu_ibarrier", "osu_ibcast"} {
		cases = append(cases, osuCases[0])
		cases[len(cases)-1].bench, cases[len(cases)-1].np = b, 3
	}
	// Each benchmark's pair of launches is a parallel subtest: the counts
	// do not depend on timing, and the launches are most of the time.
	for _, c := range cases {
		np := min(c.np, e2e.MaxRanks())
		peer := e2e.NeedPeer(t, c.bench, e2e.PeerBinary(c.bench), "")
		t.Run(fmt.Sprintf("%s/np%d", c.bench, np), func(t *testing.T) {
			t.Parallel()
			for _, check := range []bool{false, true} {
				if check && strings.HasSuffix(c.bench, "barrier") {
					continue // no -c for a barrier: the run without it again
				}
				args := []string{"-i", "5", "-x", "2"}
				if !strings.HasSuffix(c.bench, "barrier") {
					args = append(args, "-m", "4:8")
				}
				if check && !strings.HasSuffix(c.bench, "barrier") {
					args = append(args, "-c")
				}
				ours, _ := e2e.CountedRun(t, so, np, "", append([]string{"osu", c.bench}, args...)...)
				theirs, _ := e2e.CountedRun(t, so, np, peer, args...)
				t.Logf("%v: MPI_Barrier calls per rank: mpibench %v, OSU %v", args, ours, theirs)
				want := slices.Clone(theirs)
				if check && everyRepeat[c.bench] {
					// -c verifies every one of the u+1 repeats of an
					// iteration (OSU only the last): a barrier before each
					// repeat after the first keeps a rank's check out of
					// the next repeat's time. 2 sizes, 5+2 iterations, u 5.
					for i := range want {
						want[i] += 2 * (5 + 2) * 5
					}
				}
				if !slices.Equal(ours, want) {
					t.Errorf("%v: MPI_Barrier calls per rank: mpibench %v, want %v (OSU %v)", args, ours, want, theirs)
				}
			}
		})
	}
}

// TestOSUCheckEveryRepeat: under -c every one of the u+1 repeats of an
// iteration is verified, not only the last, timed one (OSU 7.4 verifies
// the last only): the osu-stale mutant sends the previous iteration's
// content in every repeat but the last, and must fail each test at the
// default -u 5, with one buffer and with -W 4 -b multiple (issue 24, gap c).
func TestOSUCheckEveryRepeat(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	t.Setenv(e2e.MutantEnv, "osu-stale")
	for _, c := range [][]string{{"osu_latency"}, {"osu_bw"}, {"osu_bw", "-W", "4", "-b", "multiple"},
		{"osu_mbw_mr", "-W", "4"}, {"osu_bibw", "-W", "4", "-b", "multiple"}, {"osu_multi_lat"},
		{"osu_latency_persistent"}, {"osu_bw_persistent", "-W", "4", "-b", "multiple"},
		{"osu_bibw_persistent", "-W", "4"}, {"osu_latency_mp"}} {
		argv := e2e.LauncherArgs(2, "-x", e2e.MutantEnv)
		argv[len(argv)-1] = bin
		argv = append(append(argv, "osu"), c...)
		argv = append(argv, "-m", "4:4", "-i", "2", "-x", "0", "-c")
		r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
		e2e.NoPanic(t, r)
		if r.Code != 3 || strings.Count(r.Stdout, "Fail") != 1 || strings.Contains(r.Stdout, "Pass") {
			t.Errorf("%v: want one Fail row and exit code 3, have %s", c, r)
		}
	}
}

// TestOSUPersistMutant: the _persistent tests make their requests once
// per size; the osu-persist-buf mutant makes every request of a window on
// buffer 0, so that under -b multiple the other buffers of the window
// never send or receive. -c must fail osu_bw_persistent and
// osu_bibw_persistent with -W 4 -b multiple at the first size (where OSU
// stops), and pass every size with one buffer (-b single), where the
// mutant changes nothing.
func TestOSUPersistMutant(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	t.Setenv(e2e.MutantEnv, "osu-persist-buf")
	for _, bench := range []string{"osu_bw_persistent", "osu_bibw_persistent"} {
		for _, buf := range []string{"multiple", "single"} {
			argv := e2e.LauncherArgs(2, "-x", e2e.MutantEnv)
			argv[len(argv)-1] = bin
			argv = append(argv, "osu", bench, "-m", "4:64", "-i", "2", "-x", "0", "-c", "-W", "4", "-b", buf)
			r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
			e2e.NoPanic(t, r)
			switch {
			case buf == "multiple" && (r.Code != 3 || strings.Count(r.Stdout, "Fail") != 1 || strings.Contains(r.Stdout, "Pass")):
				t.Errorf("%s -b multiple: want one Fail row and exit code 3, have %s", bench, r)
			case buf == "single" && (r.Code != 0 || strings.Count(r.Stdout, "Pass") != 5 || strings.Contains(r.Stdout, "Fail")):
				t.Errorf("%s -b single: want 5 Pass rows and exit code 0, have %s", bench, r)
			}
		}
	}
}
