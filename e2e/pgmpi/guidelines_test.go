package pgmpi

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/e2e"
	"mpibench/suites/pgmpi"
)

// pgmpiMpirun is the launcher command line for np processes, as launch
// builds it, ending with the mpibench binary.
func pgmpiMpirun(np int) []string {
	return append([]string{e2e.Launcher()}, e2e.LauncherArgs(np)...)
}

// pgmpiRead reads a launch file, failing on any bad line.
func pgmpiRead(t *testing.T, path string) []result.Record {
	t.Helper()
	return e2e.ReadResults(t, path)
}

// pgmpiCheckLaunch checks the records of one launch file: one per call
// and size, in order, with reps samples each.
func pgmpiCheckLaunch(t *testing.T, path string, np, k int, calls []string, sizes []int, reps int) {
	t.Helper()
	recs := pgmpiRead(t, path)
	if len(recs) != len(calls)*len(sizes) {
		t.Fatalf("%s: %d records, want %d", path, len(recs), len(calls)*len(sizes))
	}
	for i, r := range recs {
		c, n := calls[i/len(sizes)], sizes[i%len(sizes)]
		class := pgmpi.Find(c).Class()
		if r.Suite != "pgmpi" || r.Benchmark != c || r.Class != class || r.Bytes != n || r.NProcs != np ||
			r.Launch != k || r.Reps != reps || len(r.Samples) != reps || r.Stats == nil || r.Stats.N != reps {
			t.Errorf("%s record %d: %s %s n=%d np=%d launch=%d reps=%d samples=%d; want %s %s n=%d np=%d launch=%d reps=%d",
				path, i, r.Benchmark, r.Class, r.Bytes, r.NProcs, r.Launch, r.Reps, len(r.Samples), c, class, n, np, k, reps)
			continue
		}
		if *r.Stats != stats.Summarize(r.Samples) || r.Stats.Min <= 0 || r.Context.Procs != np || r.Context.MPI == "" {
			t.Errorf("%s record %d: stats %+v, context %+v", path, i, r.Stats, r.Context)
		}
	}
}

// TestPgmpiVerify runs every function and mock-up once on a known input
// and checks every rank's output against the emulated function's result.
func TestPgmpiVerify(t *testing.T) {
	for _, np := range e2e.RankCounts() {
		r := e2e.Launch(t, np, "guidelines", "measure", "-verify", "-sizes", "0,1,100,1000")
		e2e.MustSucceed(t, r)
		lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
		sizes, _ := pgmpi.Volumes([]int{0, 1, 100, 1000}, np)
		if len(lines) != len(pgmpi.Calls)*len(sizes) {
			t.Fatalf("np %d: %d lines, want %d:\n%s", np, len(lines), len(pgmpi.Calls)*len(sizes), r)
		}
		for i, l := range lines {
			c, n := pgmpi.Calls[i/len(sizes)], sizes[i%len(sizes)]
			f := strings.Fields(l)
			if len(f) != 4 || f[0] != c.Name || f[1] != strconv.Itoa(n) || f[3] != "ok" {
				t.Errorf("np %d: line %q, want %s %d ok", np, l, c.Name, n)
			}
		}
	}
}

// TestPgmpiNrep predicts with loose criteria, then measures twice with the
// file and no MPIBENCH_LAUNCH: launch-1 and launch-2 with its repetitions.
func TestPgmpiNrep(t *testing.T) {
	dir := t.TempDir()
	nrep := filepath.Join(dir, "nrep.json")
	calls := []string{"MPI_Allreduce", "Allreduce_as_Reduce_Bcast"}
	for _, np := range e2e.RankCounts() {
		r := e2e.Launch(t, np, "guidelines", "nrep", "-calls", strings.Join(calls, ","), "-sizes", "8,200",
			"-method", "rse,cov_mean,cov_median", "-window", "cov_mean=3,cov_median=3", "-min", "4", "-max", "40",
			"-step", "3", "-o", nrep)
		e2e.MustSucceed(t, r)
		f, err := os.Open(nrep)
		if err != nil {
			t.Fatal(err)
		}
		nf, err := pgmpi.ReadNrep(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		sizes, _ := pgmpi.Volumes([]int{8, 200}, np)
		pgmpiCheckNrep(t, nf, np, calls, sizes)
		out := filepath.Join(dir, "np"+strconv.Itoa(np))
		for k := 1; k <= 2; k++ {
			e2e.MustSucceed(t, e2e.Launch(t, np, "guidelines", "measure", "-nrep", nrep, "-o", out))
			recs := pgmpiRead(t, filepath.Join(out, "launch-"+strconv.Itoa(k)+".jsonl"))
			for i, rec := range recs {
				if e := nf.Entries[i]; rec.Benchmark != e.Call || rec.Bytes != e.Bytes || rec.Reps != e.Reps || rec.Launch != k {
					t.Errorf("launch %d record %d: %s %d reps %d, want %+v", k, i, rec.Benchmark, rec.Bytes, rec.Reps, e)
				}
			}
		}
	}
}

func pgmpiCheckNrep(t *testing.T, nf *pgmpi.NrepFile, np int, calls []string, sizes []int) {
	t.Helper()
	if nf.Procs != np || len(nf.Entries) != len(calls)*len(sizes) || nf.Criteria.Min != 4 || len(nf.Criteria.Methods) != 3 {
		t.Fatalf("nrep file %+v", nf)
	}
	for i, e := range nf.Entries {
		c, n := calls[i/len(sizes)], sizes[i%len(sizes)]
		if e.Call != c || e.Bytes != n || len(e.Predictions) != pgmpi.Predictions || e.Reps != slices.Max(e.Predictions) {
			t.Errorf("entry %d: %+v, want %s at %d", i, e, c, n)
		}
		for _, p := range e.Predictions {
			// Min, then steps of 3 capped at Max: 4, 7, ..., 37, 40.
			if p < 4 || p > 40 || (p != 40 && (p-4)%3 != 0) {
				t.Errorf("entry %d: prediction %d outside the schedule", i, p)
			}
		}
	}
}

// TestLaunchMeasure: launch -R 3 runs three fresh mpiruns, each writing
// its own launch file.
func TestLaunchMeasure(t *testing.T) {
	e2e.NeedMPI(t)
	calls := []string{"MPI_Scatter", "Scatter_as_Bcast", "Reduce_scatter_as_Reduce_Scatterv"}
	for _, np := range e2e.RankCounts() {
		dir := t.TempDir()
		args := append([]string{"launch", "-R", "3", "--"}, pgmpiMpirun(np)...)
		args = append(args, "guidelines", "measure", "-calls", strings.Join(calls, ","), "-sizes", "1,64", "-reps", "5", "-o", dir)
		r := e2e.Execute(t, 3*e2e.MpirunTimeout, e2e.Bin(), args...)
		e2e.MustSucceed(t, r)
		sizes, _ := pgmpi.Volumes([]int{1, 64}, np)
		for k := 1; k <= 3; k++ {
			pgmpiCheckLaunch(t, filepath.Join(dir, "launch-"+strconv.Itoa(k)+".jsonl"), np, k, calls, sizes, 5)
		}
		// Each launch file and its journal.
		if m, _ := filepath.Glob(filepath.Join(dir, "*")); len(m) != 6 {
			t.Errorf("files %v, want 3 launch files and their journals", m)
		}
	}
}

// TestLaunchFailure: launch 2 of 3 fails; it is reported by index, the
// others run and keep their files, and the exit code is 1.
func TestLaunchFailure(t *testing.T) {
	e2e.NeedMPI(t)
	dir := t.TempDir()
	args := []string{"launch", "-R", "3", "--", "sh", "-c", `[ "$MPIBENCH_LAUNCH" = 2 ] && exit 7; exec "$@"`, "sh"}
	args = append(args, pgmpiMpirun(2)...)
	args = append(args, "guidelines", "measure", "-calls", "MPI_Bcast", "-sizes", "8", "-reps", "3", "-o", dir)
	r := e2e.Execute(t, 3*e2e.MpirunTimeout, e2e.Bin(), args...)
	e2e.NoPanic(t, r)
	if r.Code != 1 || !strings.Contains(r.Stderr, "launch 2 of 3 failed: exit status 7") ||
		!strings.Contains(r.Stderr, "1 of 3 launches failed: 2") {
		t.Fatalf("want exit 1 and launch 2 reported, got %s", r)
	}
	for _, k := range []int{1, 3} {
		pgmpiCheckLaunch(t, filepath.Join(dir, "launch-"+strconv.Itoa(k)+".jsonl"), 2, k, []string{"MPI_Bcast"}, []int{8}, 3)
	}
	if _, err := os.Stat(filepath.Join(dir, "launch-2.jsonl")); err == nil {
		t.Error("launch-2.jsonl exists")
	}
}

// TestLaunchUsage needs no MPI: bad command lines exit 2, and the
// launches see MPIBENCH_LAUNCH.
func TestLaunchUsage(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	for _, args := range [][]string{{"launch"}, {"launch", "-R", "0", "--", "true"}, {"launch", "-R", "2", "--"}} {
		if r := e2e.Direct(t, args...); r.Code != 2 {
			t.Errorf("%v: want exit 2, got %s", args, r)
		}
	}
	r := e2e.Direct(t, "launch", "-R", "2", "--", "sh", "-c", `echo "launch $MPIBENCH_LAUNCH"`)
	e2e.MustSucceed(t, r)
	if r.Stdout != "launch 1\nlaunch 2\n" {
		t.Errorf("stdout %q", r.Stdout)
	}
}

// TestPgmpiBadInput: usage errors exit 2 on every rank before measuring
// (the table of them: suites/pgmpi's TestBadInput, read in process); an
// unknown step before MPI_Init.
func TestPgmpiBadInput(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	for _, args := range [][]string{
		{"guidelines", "measure", "-calls", "MPI_Foo"},
		{"guidelines", "frobnicate"},
	} {
		var r e2e.Result
		if args[1] == "frobnicate" {
			r = e2e.Direct(t, args...)
		} else {
			r = e2e.Launch(t, 2, args...)
		}
		e2e.NoPanic(t, r)
		if r.Code != 2 {
			t.Errorf("%v: want exit 2, got %s", args, r)
		}
	}
}
