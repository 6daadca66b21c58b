package osu

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/e2e"
)

// The OSU collective tests (mpibench osu osu_allreduce, osu_iallreduce,
// ...): OSU 7.4's output shape, records whose figures agree with each
// other, -c on every test, and mutants that -c must flag at every length.

// osuCollRun runs mpibench osu (bin: e2e.Bin() or the mutant binary) on np
// ranks with -json and returns its output and records.
func osuCollRun(t *testing.T, bin string, np int, args ...string) (e2e.Result, []result.Record) {
	t.Helper()
	e2e.NeedMPI(t)
	js := filepath.Join(t.TempDir(), "osu.jsonl")
	argv := e2e.LauncherArgs(np, "-x", e2e.MutantEnv)
	argv[len(argv)-1] = bin
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, append([]string{"osu"}, append(args, "-json", js)...)...)...)
	e2e.NoPanic(t, r)
	if r.Code != 0 && r.Code != 3 {
		return r, nil
	}
	return r, e2e.ReadJSONL[result.Record](t, js)
}

// OSU 7.4's header lines, as its binaries print them with these flags.
const (
	osuHeadFull = "# Size         Avg Latency(us)     Min Latency(us)     Max Latency(us)  Iterations" +
		"          Validation    P50 Tail Lat(us)    P90 Tail Lat(us)    P99 Tail Lat(us)"
	osuHeadNBCFull = "# Size             Overall(us)         Compute(us)      Coll. Init(us)        MPI_Test(us)" +
		"        MPI_Wait(us)      Pure Comm.(us)       Min Comm.(us)       Max Comm.(us)          Overlap(%)" +
		"          Validation    P50 Tail Lat(us)    P90 Tail Lat(us)    P99 Tail Lat(us)"
	osuHeadIbarrier = "# Overall(us)         Compute(us)      Pure Comm.(us)          Overlap(%)" +
		"    P50 Tail Lat(us)    P90 Tail Lat(us)    P99 Tail Lat(us)"
)

// TestOSUCollShape runs one test of each shape next to OSU 7.4's own
// binary: the same comment lines, sizes and columns (osu_test.go's
// osuShape), one row per record, and the records' figures agree.
func TestOSUCollShape(t *testing.T) {
	cases := []struct {
		args  []string
		lines []string
		rows  int
	}{
		{[]string{"osu_allreduce", "-m", "1:8", "-f", "-c", "-z", "-T", "all", "-l", "--samples"},
			[]string{"# Datatype: MPI_INT.", osuHeadFull}, 4 + 2 + 2},
		{[]string{"osu_ialltoall", "-m", "1:4", "-f", "-c", "-t", "2", "-z", "--samples"},
			[]string{"# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait", osuHeadNBCFull}, 3},
		{[]string{"osu_ibarrier", "-z"}, []string{osuHeadIbarrier}, 1},
	}
	for _, c := range cases {
		args := append(c.args, "-i", "4", "-x", "1")
		r, recs := osuCollRun(t, e2e.Bin(), 2, args...)
		e2e.MustSucceed(t, r)
		for _, l := range c.lines {
			if !hasLine(r.Stdout, l) {
				t.Errorf("%s: no line %q in\n%s", c.args[0], l, r.Stdout)
			}
		}
		if len(recs) != c.rows || countRows(r.Stdout) != c.rows {
			t.Errorf("%s: %d records, %d rows, want %d\n%s", c.args[0], len(recs), countRows(r.Stdout), c.rows, r.Stdout)
		}
		for _, rec := range recs {
			checkOSUCollRecord(t, rec, 4)
		}
		osuCollPeerShape(t, args, r.Stdout)
	}
}

// osuCollPeerShape runs OSU's own binary with args and compares shapes.
func osuCollPeerShape(t *testing.T, args []string, ours string) {
	t.Helper()
	peer := e2e.PeerBinary(args[0])
	if peer == "" {
		t.Errorf("no %s for this MPI in ~/.cache/mpibench-peers: `bash /work/shared/peers/build.sh ~/.cache/mpibench-peers`", args[0])
		return
	}
	argv := e2e.LauncherArgs(2)
	argv[len(argv)-1] = peer
	args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--samples" }) // mpibench's
	theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args[1:]...)...)
	e2e.MustSucceed(t, theirs)
	if a, b := osuCollShape(args[0], theirs.Stdout), osuCollShape(args[0], ours); !slices.Equal(a, b) {
		t.Errorf("%v: OSU's shape\n%s\nmpibench's\n%s", args, strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// osuCollShape is osuShape, where the barriers' rows (no size column:
// their first cell is a time) keep only their number of columns.
func osuCollShape(bench, out string) []string {
	shape := osuShape(out)
	for i, l := range shape {
		if _, cols, ok := strings.Cut(l, " ["); ok && strings.Contains(bench, "barrier") && !strings.HasPrefix(l, "#") {
			shape[i] = "[" + cols
		}
	}
	return shape
}

func hasLine(out, line string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimRight(l, " ") == line {
			return true
		}
	}
	return false
}

// countRows counts the lines that start with a number (OSU's rows).
func countRows(out string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && f[0][0] >= '0' && f[0][0] <= '9' {
			n++
		}
	}
	return n
}

// checkOSUCollRecord checks a record's figures: the iterations, min <=
// avg <= max over ranks, a passed -c, and for a non-blocking test the
// overlap recomputed from the record's own columns.
func checkOSUCollRecord(t *testing.T, r result.Record, iters int) {
	t.Helper()
	if r.Suite != "osu" || r.Reps != iters || r.OSU == nil || r.NProcs != 2 {
		t.Fatalf("%s %d: suite %q reps %d procs %d osu %v", r.Benchmark, r.Bytes, r.Suite, r.Reps, r.NProcs, r.OSU)
	}
	if r.Check && (r.Defects != 0 || r.OSU.Validation != "Pass") {
		t.Errorf("%s %d: validation %q, %g defects", r.Benchmark, r.Bytes, r.OSU.Validation, r.Defects)
	}
	checkOSUCollSamples(t, r)
	n := r.OSU.NBC
	if n == nil {
		if !(r.TMin <= r.TAvg && r.TAvg <= r.TMax && r.TMin > 0) {
			t.Errorf("%s %d: min %g avg %g max %g", r.Benchmark, r.Bytes, r.TMin, r.TAvg, r.TMax)
		}
		return
	}
	if !(n.PureMin <= n.Pure && n.Pure <= n.PureMax && n.PureMin > 0 && n.Overall == r.TAvg) {
		t.Errorf("%s %d: pure %g (%g, %g), overall %g, t_avg %g", r.Benchmark, r.Bytes, n.Pure, n.PureMin, n.PureMax,
			n.Overall, r.TAvg)
	}
	want := math.Max(0, 100-(n.Overall-n.Compute)/n.Pure*100)
	if math.Abs(n.Overlap-want) > 1e-9*math.Max(1, want) {
		t.Errorf("%s %d: overlap %g, from its columns %g", r.Benchmark, r.Bytes, n.Overlap, want)
	}
}

// checkOSUCollSamples recomputes a record's average and -z figures from
// its samples (--samples: the per-iteration times averaged over the
// ranks): their mean is the row's average (Overall for a non-blocking
// test), and percentile p the sorted samples' element iterations·p/100 − 1.
func checkOSUCollSamples(t *testing.T, r result.Record) {
	t.Helper()
	if len(r.Samples) == 0 {
		return
	}
	if len(r.Samples) != r.Reps {
		t.Fatalf("%s %d: %d samples, %d iterations", r.Benchmark, r.Bytes, len(r.Samples), r.Reps)
	}
	sum := 0.0
	for _, v := range r.Samples {
		sum += v
	}
	if mean := sum / float64(len(r.Samples)); math.Abs(mean-r.TAvg) > 1e-9*r.TAvg {
		t.Errorf("%s %d: samples' mean %g, t_avg %g", r.Benchmark, r.Bytes, mean, r.TAvg)
	}
	sorted := slices.Clone(r.Samples)
	slices.Sort(sorted)
	for _, p := range r.OSU.Tail {
		if want := sorted[max(len(sorted)*p.P/100-1, 0)]; p.Value != want {
			t.Errorf("%s %d: P%d %g, from the samples %g", r.Benchmark, r.Bytes, p.P, p.Value, want)
		}
	}
	if len(r.OSU.Tail) == 0 {
		t.Errorf("%s %d: samples but no -z figures", r.Benchmark, r.Bytes)
	}
}

// osuCollData are tests with data that reach every path of the check
// (osucoll.c verify: gathered blocks, exchanged blocks, sums everywhere,
// sums at a root, split sums, a broadcast block, scattered blocks), with
// and without -l, every root (-k rotate), blocking and not, -T.
var osuCollData = [][]string{
	{"osu_allgatherv", "-l"}, {"osu_ialltoall"}, {"osu_allreduce", "-T", "mpi_float"},
	{"osu_ireduce", "-l", "-k", "rotate"}, {"osu_reduce_scatter"}, {"osu_ibcast"}, {"osu_gather", "-l", "-k", "rotate"},
	{"osu_iscatterv", "-k", "rotate"}, {"osu_ireduce_scatter_block", "-l"}, {"osu_iallreduce", "-l", "-T", "mpi_int"},
	{"osu_alltoallv", "-l"},
}

// TestOSUCollCheck runs every test with data under -c at 1, 2 and 4
// bytes: every row passes.
func TestOSUCollCheck(t *testing.T) {
	for _, c := range osuCollData {
		r, recs := osuCollRun(t, e2e.Bin(), 2, append(c, "-m", "1:4", "-i", "2", "-x", "0", "-u", "0", "-c")...)
		e2e.MustSucceed(t, r)
		want := 3
		if len(c) > 1 && strings.HasPrefix(c[len(c)-1], "mpi_") {
			want = 1 // only 4 bytes hold a whole MPI_INT or MPI_FLOAT
		}
		if len(recs) != want {
			t.Errorf("%v: %d records, want %d\n%s", c, len(recs), want, r.Stdout)
		}
		for _, rec := range recs {
			checkOSUCollRecord(t, rec, 2)
		}
	}
}

// osuCollMutated are the mutation runs: the first nine of osuCollData,
// one per path of the check, each at one length of TestOSUCollCheck's (a
// failed run stops at its first length, as OSU's does, and a failing run
// costs two seconds here), every length used.
var osuCollMutated = func() [][]string {
	var out [][]string
	for i, c := range osuCollData[:9] {
		m := []string{"1:1", "2:2", "4:4"}[i%3]
		if strings.HasPrefix(c[len(c)-1], "mpi_") {
			m = "4:4"
		}
		out = append(out, append(append([]string(nil), c...), "-m", m))
	}
	return out
}()

// TestOSUCollMutants: -c must flag the osu-coll-short mutant (every call
// one element short): a Fail row, OSU's DATA VALIDATION ERROR line, exit
// code 3.
func TestOSUCollMutants(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	bin := e2e.MutantBinary(t)
	t.Setenv(e2e.MutantEnv, "osu-coll-short")
	for i, c := range osuCollMutated {
		if e2e.LauncherKind() == "openmpi" && i%2 == 1 {
			// Open MPI's launcher takes 1 to 2.5 s here to end a job that
			// exits non-zero (MPICH's 0.3 s): within the test budget it runs
			// every other path (the check's code is the same C for both).
			continue
		}
		osuCollMustFail(t, bin, 2, append(c, "-i", "2", "-x", "0", "-u", "0", "-c"))
	}
}

func osuCollMustFail(t *testing.T, bin string, np int, args []string) {
	t.Helper()
	r, recs := osuCollRun(t, bin, np, args...)
	if r.Code != 3 || len(recs) != 1 || recs[0].Defects == 0 || recs[0].OSU.Validation != "Fail" ||
		!strings.Contains(r.Stdout, "DATA VALIDATION ERROR") {
		t.Errorf("%v under %s: want one Fail row and exit code 3, got %d records\n%s", args, os.Getenv(e2e.MutantEnv),
			len(recs), r)
	}
}

// osuRooted are OSU 7.4's tests whose root -k takes (omb_get_root_rank:
// the blocking and non-blocking Gather(v), Reduce and Scatter(v)), some
// in place.
var osuRooted = [][]string{{"osu_gather"}, {"osu_gatherv", "-l"}, {"osu_reduce"}, {"osu_scatter", "-l"},
	{"osu_scatterv"}, {"osu_igather", "-l"}, {"osu_igatherv"}, {"osu_ireduce", "-l"}, {"osu_iscatter"},
	{"osu_iscatterv", "-l"}}

// TestOSUCollRotateMutant: under -k rotate the root of iteration i is
// i mod P (omb_get_root_rank), and -c must know it from that definition:
// the no-rotation mutant, whose root stays at 0, fails every rooted test
// (issue 24, gap b); the real kernels pass.
func TestOSUCollRotateMutant(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	bin := e2e.MutantBinary(t)
	np := min(3, e2e.MaxRanks())
	for _, m := range []string{"", "no-rotation"} {
		t.Setenv(e2e.MutantEnv, m)
		for _, c := range osuRooted {
			args := append(append([]string(nil), c...), "-k", "rotate", "-m", "4:4", "-i", "3", "-x", "0", "-u", "1", "-c")
			if m != "" {
				osuCollMustFail(t, bin, np, args)
				continue
			}
			r, recs := osuCollRun(t, bin, np, args...)
			if r.Code != 0 || len(recs) != 1 || recs[0].Defects != 0 || recs[0].OSU.Validation != "Pass" {
				t.Errorf("%v, real kernels: want one Pass row and exit code 0, got %d records\n%s", args, len(recs), r)
			}
		}
	}
}

// TestOSUCollFixedRootMutant: a mutant nobody listed: the fixed-root
// mutant ignores -k fixed:1 and roots every call at 0; -c, which takes the
// root from -k, fails it; the real kernels pass.
func TestOSUCollFixedRootMutant(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	bin := e2e.MutantBinary(t)
	for _, c := range [][]string{{"osu_gather"}, {"osu_iscatter", "-l"}, {"osu_reduce"}} {
		args := append(append([]string(nil), c...), "-k", "fixed:1", "-m", "4:4", "-i", "2", "-x", "0", "-u", "0", "-c")
		t.Setenv(e2e.MutantEnv, "fixed-root")
		osuCollMustFail(t, bin, 2, args)
		t.Setenv(e2e.MutantEnv, "")
		if r, recs := osuCollRun(t, bin, 2, args...); r.Code != 0 || len(recs) != 1 || recs[0].OSU.Validation != "Pass" {
			t.Errorf("%v, real kernels: want one Pass row and exit code 0, got %d records\n%s", args, len(recs), r)
		}
	}
}
