package pgmpi

// Fault tests of 'guidelines measure' and 'guidelines nrep' on 2 ranks:
// a hung case ends through the watchdog, a killed rank loses no finished
// case and -resume continues the launch, interrupts keep what finished.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"mpibench/analysis/result"
	"mpibench/e2e"
)

// Four cases on 2 ranks: the volumes 16 and 1024 need no rounding.
var (
	glCalls = []string{"MPI_Allreduce", "Allreduce_as_Reduce_Bcast"}
	glSizes = []int{16, 1024}
)

// glStuck is the third case, where the faults strike.
const glStuck = "pgmpi/Allreduce_as_Reduce_Bcast/np2/16"

// glMeasure is the command line of a small measure run into dir.
func glMeasure(dir string, more ...string) []string {
	args := []string{"guidelines", "measure", "-calls", strings.Join(glCalls, ","), "-sizes", "16,1024",
		"-reps", "5", "-o", dir}
	return append(args, more...)
}

// glLaunch is launch file k of dir.
func glLaunch(dir string, k int) string { return filepath.Join(dir, fmt.Sprintf("launch-%d.jsonl", k)) }

// glDone counts the "done" lines of the journal of out.
func glDone(out string) int {
	data, _ := os.ReadFile(out + ".state")
	return strings.Count(string(data), "done ")
}

// glKept checks that out holds one record per finished case of its
// journal, at least one and fewer than all.
func glKept(t *testing.T, out string) []result.Record {
	t.Helper()
	recs := pgmpiRead(t, out)
	if n := glDone(out); len(recs) != n || n == 0 || n >= len(glCalls)*len(glSizes) || e2e.StateHas(out, "done "+glStuck) {
		data, _ := os.ReadFile(out + ".state")
		t.Fatalf("%d records for %d finished cases:\n%s", len(recs), n, data)
	}
	return recs
}

// TestGuidelinesWatchdog: measure stuck in a case on rank 1 ends with
// exit code 4, names the case and marks it hung; -resume then skips it
// with a note and measures the last case. nrep stuck on rank 0 ends the
// same way and leaves the predictions file of the run before untouched.
func TestGuidelinesWatchdog(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	t.Run("measure", func(t *testing.T) {
		dir := t.TempDir()
		out := glLaunch(dir, 1)
		r := e2e.HangRun(t, 2, 1, glStuck, out, glMeasure(dir)...)
		if !strings.Contains(r.Stderr, " in Allreduce_as_Reduce_Bcast, 16 bytes, 2 processes") {
			t.Errorf("the watchdog message does not name the case\n%s", r)
		}
		glKept(t, out)

		e2e.SetFault(t, "")
		r = e2e.Launch(t, 2, glMeasure(dir, "-resume")...)
		e2e.MustSucceed(t, r)
		if !strings.Contains(r.Stdout, "hung in the resumed run, not measured ("+glStuck+")") ||
			!strings.Contains(r.Stderr, "1 hung skipped") {
			t.Errorf("resume should skip the hung case with a note\n%s", r)
		}
		if recs := pgmpiRead(t, out); len(recs) != 3 || glDone(out) != 3 {
			t.Errorf("%d records after resume, want the 3 cases that did not hang", len(recs))
		}
	})
	t.Run("nrep", func(t *testing.T) {
		nrep := filepath.Join(t.TempDir(), "nrep.json")
		if err := os.WriteFile(nrep, []byte("earlier\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := e2e.HangRun(t, 2, 0, "pgmpi-nrep/MPI_Allreduce/np2/1024", "", "guidelines", "nrep", "-calls", "MPI_Allreduce",
			"-sizes", "16,1024", "-min", "4", "-max", "10", "-step", "3", "-o", nrep)
		if !strings.Contains(r.Stderr, " in MPI_Allreduce, 1024 bytes, 2 processes") {
			t.Errorf("the watchdog message does not name the case\n%s", r)
		}
		if data, _ := os.ReadFile(nrep); string(data) != "earlier\n" {
			t.Errorf("the hung run changed %s: %q", nrep, data)
		}
	})
}

// TestGuidelinesKillResume: with launch 1 complete, launch 2 is killed
// (kill -9 of rank 1, as killAt does) in its third case; -resume continues launch 2, the
// last launch of the directory, after a warning about the line the crash
// cut short: every case once, and 'guidelines check' reads both launches.
func TestGuidelinesKillResume(t *testing.T) {
	dir := t.TempDir()
	e2e.MustSucceed(t, e2e.Launch(t, 2, glMeasure(dir)...))
	out := glLaunch(dir, 2)
	e2e.SetFault(t, "hang:1:"+glStuck) // so that the kill finds rank 1 in the case
	r := e2e.SignalMarked(t, 2, dir, out, "start "+glStuck, syscall.SIGKILL, 1, glMeasure(dir, "-timeout", "0")...)
	if r.Code == 0 {
		t.Errorf("the launcher exited 0 after a rank was killed\n%s", r)
	}
	before := len(glKept(t, out))
	e2e.AppendText(t, out, `{"suite":"pgmpi","bench`)

	e2e.SetFault(t, "")
	r = e2e.Launch(t, 2, glMeasure(dir, "-resume")...)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "warning: skipped unreadable line") ||
		!strings.Contains(r.Stderr, fmt.Sprintf("resuming %s: %d finished cases kept", out, before)) {
		t.Errorf("resume should warn about the half line and keep %d cases of launch 2:\n%s", before, r.Stderr)
	}
	if lines := strings.Split(strings.TrimSpace(r.Stdout), "\n"); len(lines) != len(glCalls)*len(glSizes) {
		t.Errorf("resume should print every case, kept or measured:\n%s", r.Stdout)
	}
	pgmpiCheckLaunch(t, out, 2, 2, glCalls, glSizes, 5)
	pgmpiCheckLaunch(t, glLaunch(dir, 1), 2, 1, glCalls, glSizes, 5)
	if glDone(out) != len(glCalls)*len(glSizes) {
		t.Errorf("journal of launch 2 has %d cases done", glDone(out))
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "launch-*.jsonl")); len(m) != 2 {
		t.Errorf("launch files %v, want launch-1 and launch-2", m)
	}
	c := e2e.Direct(t, "guidelines", "check", dir)
	e2e.MustSucceed(t, c)
	if !strings.Contains(c.Stdout, "R = 2") {
		t.Errorf("check should see 2 launches:\n%s", c.Stdout)
	}
}

// TestGuidelinesInterrupt: SIGINT or SIGTERM to every rank while a case
// runs; the finished records are kept, whole, and the ranks exit with 128
// + the signal.
func TestGuidelinesInterrupt(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := glLaunch(dir, 1)
			e2e.SetFault(t, "hang:1:"+glStuck)
			r := e2e.SignalMarked(t, 2, dir, out, "start "+glStuck, sig, -1, glMeasure(dir, "-timeout", "0")...)
			// MPICH's mpiexec ends the other ranks with SIGHUP once one
			// has exited, and may report that or 0/1 instead.
			if want := 128 + int(sig); r.Code != want && e2e.LauncherKind() == "openmpi" {
				t.Errorf("exit code %d, want %d\n%s", r.Code, want, r)
			}
			if !strings.Contains(r.Stderr, "interrupted by") {
				t.Errorf("no interruption notice\n%s", r)
			}
			glKept(t, out)
		})
	}
}

// TestGuidelinesResumeLaunches: a finished launch whose last line was
// cut short, then 'launch -R 2' with -resume: launch 1 keeps its records
// after a warning and measures nothing, launch 2 runs in full.
func TestGuidelinesResumeLaunches(t *testing.T) {
	dir := t.TempDir()
	e2e.MustSucceed(t, e2e.Launch(t, 2, glMeasure(dir)...))
	first, _ := os.ReadFile(glLaunch(dir, 1))
	e2e.AppendText(t, glLaunch(dir, 1), `{"suite":"pgm`)

	args := append([]string{"launch", "-R", "2", "--"}, pgmpiMpirun(2)...)
	r := e2e.Execute(t, 3*e2e.MpirunTimeout, e2e.Bin(), append(args, glMeasure(dir, "-resume")...)...)
	e2e.MustSucceed(t, r)
	// Line 1 is the run header, lines 2-5 the records, 6 the cut line.
	if !strings.Contains(r.Stderr, glLaunch(dir, 1)+":6: ") || !strings.Contains(r.Stderr, "4 finished cases kept") {
		t.Errorf("launch 1 should warn about its last line and keep its 4 cases:\n%s", r.Stderr)
	}
	if now, _ := os.ReadFile(glLaunch(dir, 1)); string(now) != string(first) {
		t.Errorf("launch 1 changed beyond its cut line:\n%s\nwas:\n%s", now, first)
	}
	pgmpiCheckLaunch(t, glLaunch(dir, 2), 2, 2, glCalls, glSizes, 5)
}

// TestGuidelinesResumeUsage: -resume where there is nothing to resume is
// a usage error, exit 2 on every rank, that says why; it creates no
// directory (-verify and nrep with -resume: suites/pgmpi's TestBadInput,
// read in process).
func TestGuidelinesResumeUsage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "none")
	for _, c := range []struct {
		args []string
		want string
	}{
		{glMeasure(dir, "-resume"), "has no launch-K.jsonl to resume"},
	} {
		r := e2e.Launch(t, 2, c.args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: want exit 2 and %q, got %s", c.args, c.want, r)
		}
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s was created", dir)
	}
}
