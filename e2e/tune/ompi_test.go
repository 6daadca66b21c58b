package tune

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mpibench/analysis/stats"
	"mpibench/e2e"
	"mpibench/suites/tune"
)

// needOpenMPI skips a test of Open MPI's coll/tuned in the MPICH run.
func needOpenMPI(t *testing.T) {
	t.Helper()
	e2e.NeedMPI(t)
	if e2e.LauncherKind() != "openmpi" {
		t.Skip("Open MPI's coll/tuned: the Open MPI run tests it")
	}
}

// launcher is the launcher's command line with {np} for tune.
func launcher() []string {
	argv := e2e.LauncherArgs(0)
	argv = argv[:len(argv)-1] // the binary: tune appends it
	argv[len(argv)-1] = "{np}"
	return append([]string{e2e.Launcher()}, argv...)
}

// A small tune run as a user starts it: every algorithm launched four
// times, interleaved; two_proc, which Open MPI refuses at 4 processes, is
// recorded as failed and the run goes on; each point's samples are the
// t_max of its launches' records, in launch order; the rules file, the
// proof, the page and the table are written.
func TestTuneOpenMPI(t *testing.T) {
	needOpenMPI(t)
	e2e.FailFast(t)
	dir := filepath.Join(t.TempDir(), "tune")
	args := append([]string{"tune", "-colls", "Allgather,Bcast", "-np", "4", "-sizes", "4,8",
		"-algs", "Allgather=1,two_proc;Bcast=1", "-iter", "20", "-o", dir, "--"}, launcher()...)
	r := e2e.Execute(t, 5*e2e.MpirunTimeout, e2e.Bin(), args...)
	e2e.MustSucceed(t, r)
	choices := readJSONLines[tune.Choice](t, filepath.Join(dir, "choices.jsonl"))
	if len(choices) != 4 {
		t.Fatalf("%d choices, want 2 collectives x 2 lengths", len(choices))
	}
	for _, ch := range choices {
		checkChoice(t, dir, ch)
	}
	for _, name := range []string{"ompi-rules.conf", "proof.jsonl", "tune.html"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(r.Stdout, "Allgather (openmpi)") || !strings.Contains(r.Stdout, "ompi-rules.conf") {
		t.Errorf("table:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stderr, "two_proc, launch 1 of 4: failed") || strings.Contains(r.Stderr, "two_proc, launch 2") {
		t.Errorf("two_proc launched again after its failure:\n%s", r.Stderr)
	}
}

// checkChoice compares one verdict with the launches' own records.
func checkChoice(t *testing.T, dir string, ch tune.Choice) {
	t.Helper()
	for _, a := range ch.Algs {
		if a.Name == "two_proc" {
			if a.Status != "failed" || a.Error == "" || len(a.Samples) != 0 {
				t.Errorf("%s %d two_proc: %+v", ch.Coll, ch.Bytes, a)
			}
			continue
		}
		var want []float64
		for k := 1; k <= 4; k++ {
			p := filepath.Join(dir, "raw", "np4", ch.Coll, algFolder(a.Alg), fmt.Sprintf("launch-%d.jsonl", k))
			for _, rec := range e2e.ReadResults(t, p) {
				if rec.Bytes == ch.Bytes && rec.Benchmark == ch.Coll {
					want = append(want, rec.TMax)
				}
			}
		}
		if a.Status != "ok" || !slices.Equal(a.Samples, want) || a.Median != stats.Median(want) {
			t.Errorf("%s %d %s: %+v, want the samples %v", ch.Coll, ch.Bytes, a.Name, a, want)
		}
	}
	if ch.Chosen.IsDefault() == (ch.Why == "") {
		t.Errorf("%s %d: chosen %v, why %q", ch.Coll, ch.Bytes, ch.Chosen, ch.Why)
	}
}

func algFolder(a tune.Alg) string { return fmt.Sprintf("%d-%s", a.ID, a.Name) }

// readJSONLines reads a file of JSON lines of T.
func readJSONLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}

// The rules file tune writes is read by Open MPI 4.1 with the message
// sizes it computes: a rule choosing two_proc (which Open MPI refuses at
// 4 processes) for Alltoall from IMB's 8 bytes, Open MPI's 4 x 8 = 32,
// leaves 4 bytes (16) to the default and fails at 8; without the file
// both run; a file with the rule at IMB's 8 (the factor P forgotten)
// fails at 4 bytes, so the check tells a wrong size from the right one.
// (Not Allgather: mpibench's own set-up gathers with it, and fails
// there.)
func TestOpenMPIReadsRules(t *testing.T) {
	needOpenMPI(t)
	e2e.FailFast(t)
	two := tune.Alg{ID: 5, Name: "two_proc"}
	tab := tune.Table{"Alltoall": {{NP: 4, Alg: tune.Default}, {NP: 4, Bytes: 8, Alg: two}}}
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules.conf")
	var b strings.Builder
	if err := (&tune.OpenMPI{}).WriteRules(&b, tab); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rules, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := (&tune.OpenMPI{}).RulesEnv(rules)
	// What a writer that forgot the factor P would write: the rule at 8,
	// which 4 bytes (16) already pass. The check below must tell it apart.
	wrong := filepath.Join(dir, "wrong.conf")
	if err := os.WriteFile(wrong, []byte(strings.Replace(b.String(), "\n32 5 0 0", "\n8 5 0 0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\n32 5 0 0") {
		t.Fatalf("the rules file has no rule at 32:\n%s", b.String())
	}
	for _, c := range []struct {
		bytes string
		env   []string
		ok    bool
	}{{"4", env, true}, {"8", env, false}, {"8", nil, true}, {"4", (&tune.OpenMPI{}).RulesEnv(wrong), false}} {
		msglen := e2e.WriteFile(t, "msglen-"+c.bytes, c.bytes+"\n")
		args := append(e2e.LauncherArgs(4), "mpi1", "-imb", "2021", "-npmin", "4", "-msglen", msglen, "-iter", "10", "Alltoall")
		r := e2e.ExecuteEnv(t, e2e.MpirunTimeout, c.env, e2e.Launcher(), args...)
		e2e.NoPanic(t, r)
		if (r.Code == 0) != c.ok {
			t.Errorf("%s bytes, rules %v: %s", c.bytes, c.env != nil, r)
		}
	}
}

// An algorithm forced as tune forces it shows in the timings: Bcast's
// chain with 1-byte segments (coll_tuned_bcast_algorithm_segmentsize)
// sends 1024 messages where the default sends one, at 2 processes.
func TestOpenMPIForceShows(t *testing.T) {
	needOpenMPI(t)
	chain := tune.Alg{ID: 2, Name: "chain"}
	env := append((&tune.OpenMPI{}).Force(tune.Colls[1], chain), "OMPI_MCA_coll_tuned_bcast_algorithm_segmentsize=1")
	time := func(env []string) float64 {
		args := append(e2e.LauncherArgs(2), "mpi1", "-imb", "2021", "-npmin", "2", "-msglog", "10:10", "-iter", "50", "-time", "off", "Bcast")
		r := e2e.ExecuteEnv(t, e2e.MpirunTimeout, env, e2e.Launcher(), args...)
		e2e.MustSucceed(t, r)
		for _, tb := range e2e.ParseTables(t, r.Stdout) {
			for _, row := range tb.Rows {
				if row[0] == "1024" {
					return parseFloat(t, row[3])
				}
			}
		}
		t.Fatalf("no 1024-byte row:\n%s", r.Stdout)
		return 0
	}
	def, forced := time(nil), time(env)
	if !(forced > 20*def) {
		t.Errorf("forced chain with 1-byte segments %.2f µs, default %.2f µs: want at least 20 times slower", forced, def)
	}
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Bad input is refused before anything runs, with exit 2 and a message
// that names it: an algorithm the library lacks, a grid that does not
// fit in memory, an Open MPI without coll/tuned, an output folder that
// exists. No launch starts and -o is not created.
func TestTuneBadInput(t *testing.T) {
	needOpenMPI(t)
	noTuned := e2e.WriteFile(t, "ompi_info", "#!/bin/sh\necho 'mca:coll:basic:version:mca:2.1.0'\n")
	if err := os.Chmod(noTuned, 0o755); err != nil {
		t.Fatal(err)
	}
	exists := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-algs", "Bcast=1,42"}, `Bcast: the library has no algorithm "42" (it has: 1 basic_linear`},
		{[]string{"-colls", "Alltoall", "-np", "64", "-sizes", "1073741824"}, "the grid does not fit in memory: Alltoall at 64 processes"},
		{[]string{"-ompi-info", noTuned}, "lists no coll/tuned component"},
		{[]string{"-o", exists}, "exists; tune writes a new folder"},
	} {
		out := filepath.Join(t.TempDir(), "tune")
		args := append([]string{"tune", "-o", out}, c.args...)
		r := e2e.Direct(t, append(append(args, "--"), launcher()...)...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) || strings.Contains(r.Stderr, "launch 1") {
			t.Errorf("%v: want exit 2 and %q, got %s", c.args, c.want, r)
		}
		if _, err := os.Stat(out); err == nil && !slices.Contains(c.args, exists) {
			t.Errorf("%v: %s created", c.args, out)
		}
	}
	// A launcher that cannot start a job: the first launch, the default,
	// fails, and tune stops there (exit 1) instead of failing every
	// algorithm.
	out := filepath.Join(t.TempDir(), "tune")
	r := e2e.Direct(t, "tune", "-colls", "Bcast", "-np", "2", "-o", out, "--", "/bin/false", "{np}")
	if r.Code != 1 || !strings.Contains(r.Stderr, "the first launch (Bcast np 2 default, launch 1 of 4) failed, before any succeeded") ||
		strings.Contains(r.Stderr, "basic_linear") {
		t.Errorf("a broken launcher: %s", r)
	}
}

// The PGMPI guidelines as a second source: a violation of GL10 (MPI_Bcast
// no slower than Scatter + Allgather) planted by measuring Bcast under a
// forced chain of 4-byte segments (2048 messages for 8 KiB) is found in
// the 'guidelines measure' results; tune remeasures the point with each
// algorithm, unforced, and reports that they remove it.
func TestTuneGuidelines(t *testing.T) {
	needOpenMPI(t)
	gl := filepath.Join(t.TempDir(), "pgmpi")
	slow := append((&tune.OpenMPI{}).Force(tune.Colls[1], tune.Alg{ID: 2, Name: "chain"}),
		"OMPI_MCA_coll_tuned_bcast_algorithm_segmentsize=4")
	for k := 1; k <= 4; k++ {
		args := append(e2e.LauncherArgs(2), "guidelines", "measure", "-calls", "MPI_Bcast,Bcast_as_Scatter_Allgather",
			"-sizes", "8192", "-reps", "20", "-o", gl)
		e2e.MustSucceed(t, e2e.ExecuteEnv(t, e2e.MpirunTimeout, append(slow, fmt.Sprintf("MPIBENCH_LAUNCH=%d", k)), e2e.Launcher(), args...))
	}
	dir := filepath.Join(t.TempDir(), "tune")
	args := append([]string{"tune", "-colls", "Bcast", "-np", "2", "-sizes", "8192", "-algs", "Bcast=basic_linear",
		"-iter", "20", "-guidelines", gl, "-o", dir, "--"}, launcher()...)
	r := e2e.Execute(t, 5*e2e.MpirunTimeout, e2e.Bin(), args...)
	e2e.MustSucceed(t, r)
	vs := readJSONLines[tune.Violation](t, filepath.Join(dir, "guidelines.jsonl"))
	if len(vs) != 1 || vs[0].Guideline != "GL10" || vs[0].Size != 8192 || vs[0].NP != 2 || len(vs[0].Algs) != 2 {
		t.Fatalf("violations %+v\n%s", vs, r.Stdout)
	}
	for _, a := range vs[0].Algs {
		if a.Status != "ok" || !a.Removes || !(a.Function < a.MockUp) {
			t.Errorf("%s: %+v", a.Name, a)
		}
	}
	if !strings.Contains(r.Stdout, "GL10 MPI_Bcast <= Bcast_as_Scatter_Allgather, np 2, 8192 bytes") ||
		!strings.Contains(r.Stdout, "Removed by: default") {
		t.Errorf("stdout:\n%s", r.Stdout)
	}
}

// SIGINT in the middle of a run: tune passes it on to the running launch,
// exits 130 naming the folder, keeps every finished launch's records,
// and writes no verdict, tuning file or picture from a run it did not
// finish; no rank is left running.
func TestTuneInterrupt(t *testing.T) {
	needOpenMPI(t)
	e2e.FirstMPIOnly(t, e2e.Machinery)
	dir := filepath.Join(t.TempDir(), "tune")
	args := append([]string{"tune", "-colls", "Bcast", "-np", "2", "-sizes", "4", "-iter", "20", "-o", dir, "--"}, launcher()...)
	cmd, stdout, stderr := e2e.StartCmd(t, e2e.Bin(), args...)
	third := filepath.Join(dir, "raw", "np2", "Bcast", "2-chain", "launch-1.jsonl.log")
	e2e.AwaitCond(t, "the third launch", func() bool { _, err := os.Stat(third); return err == nil })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	r := e2e.WaitRun(t, cmd, stdout, stderr, 30*time.Second)
	if r.Code != 130 || !strings.Contains(r.Stderr, "interrupted by interrupt; the finished launches are in "+dir+"/raw") {
		t.Errorf("want exit 130 and the folder named: %s", r)
	}
	first := filepath.Join(dir, "raw", "np2", "Bcast", "0-default", "launch-1.jsonl")
	if recs := e2e.ReadResults(t, first); len(recs) != 1 || recs[0].Bytes != 4 {
		t.Errorf("%s: %d records, want the finished launch's one", first, len(recs))
	}
	for _, name := range []string{"choices.jsonl", "ompi-rules.conf", "proof.jsonl", "tune.html"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s written by an interrupted run", name)
		}
	}
	if pids := e2e.RankPIDs(dir); len(pids) > 0 {
		t.Errorf("ranks left running: %v", pids)
	}
}
