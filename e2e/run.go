package e2e

import (
	"bytes"
	stdcontext "context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mpibench/mpi"
)

const (
	// MpirunTimeout bounds one mpirun call: a hang fails the test. 240 s:
	// Open MPI's end-to-end tests run three go test commands at once
	// (scripts/test.sh), and under a load of 8-15 b_eff's 4-rank runs hit
	// 120 s even with one (docs/log/2026-11-29-ci-time.md).
	MpirunTimeout = 240 * time.Second
	DirectTimeout = 20 * time.Second // the binary run without a launcher
)

var (
	launcherPath string // "" when no launcher was found
	launcherKind string // "openmpi", "mpich" or "unknown"
	launcherErr  string // why there is no launcher
)

// Launcher is the path of the launcher, "" when there is none.
func Launcher() string { return launcherPath }

// LauncherKind is "openmpi", "mpich" or "unknown".
func LauncherKind() string { return launcherKind }

// findLauncher picks the launcher of mpi.Flavor, falling back to mpirun,
// and tells Open MPI from MPICH (hydra) by its --version output.
func findLauncher() {
	names := []string{"mpirun.openmpi", "mpirun"}
	if mpi.Flavor == "mpich" {
		names = []string{"mpirun.mpich", "mpiexec.hydra", "mpirun"}
	}
	for _, n := range names {
		p, err := exec.LookPath(n)
		if err != nil {
			continue
		}
		launcherPath = p
		ctx, cancel := stdcontext.WithTimeout(stdcontext.Background(), DirectTimeout)
		out, _ := exec.CommandContext(ctx, p, "--version").CombinedOutput()
		cancel()
		switch v := strings.ToLower(string(out)); {
		case strings.Contains(v, "open mpi") || strings.Contains(v, "open-mpi") || strings.Contains(v, "open-rte"):
			launcherKind = "openmpi"
		case strings.Contains(v, "hydra") || strings.Contains(v, "mpich"):
			launcherKind = "mpich"
		default:
			launcherKind = "unknown"
		}
		return
	}
	launcherErr = fmt.Sprintf("no MPI launcher for %s found in PATH (tried %s)", mpi.Flavor, strings.Join(names, ", "))
}

// NeedMPI fails the test when there is no launcher, or skips it when
// MPIBENCH_SKIP_MPI=1.
func NeedMPI(t *testing.T) {
	t.Helper()
	if launcherPath != "" {
		return
	}
	if os.Getenv("MPIBENCH_SKIP_MPI") == "1" {
		t.Skipf("MPIBENCH_SKIP_MPI=1: %s", launcherErr)
	}
	t.Fatalf("%s; set MPIBENCH_SKIP_MPI=1 to skip the MPI integration tests", launcherErr)
}

// MaxRanks is the largest job the tests start: 4 (oversubscribed) with
// Open MPI, 2 with MPICH, which busy-polls.
func MaxRanks() int {
	if mpi.Flavor == "mpich" || launcherKind != "openmpi" {
		return 2
	}
	return 4
}

// RankCounts are the job sizes of the full-suite runs.
func RankCounts() []int {
	if MaxRanks() >= 4 {
		return []int{2, 4}
	}
	return []int{2}
}

// Result is what a run of a program left: its output, exit code and
// duration.
type Result struct {
	Stdout, Stderr string
	Code           int
	Dur            time.Duration
}

func (r Result) String() string {
	return fmt.Sprintf("exit code %d after %v\n--- stdout:\n%s\n--- stderr:\n%s", r.Code, r.Dur.Round(time.Millisecond), Tail(r.Stdout, 4000), Tail(r.Stderr, 4000))
}

// Tail is the last n bytes of s.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// Launch runs mpibench on np processes under the launcher.
func Launch(t *testing.T, np int, args ...string) Result {
	t.Helper()
	NeedMPI(t)
	return Execute(t, MpirunTimeout, launcherPath, append(LauncherArgs(np), args...)...)
}

// LaunchBin runs the program bin (an mpibench build, a peer) on np
// processes under the launcher.
func LaunchBin(t *testing.T, bin string, np int, args ...string) Result {
	t.Helper()
	argv := LauncherArgs(np)
	argv[len(argv)-1] = bin
	return Execute(t, MpirunTimeout, launcherPath, append(argv, args...)...)
}

// LauncherArgs are the launcher's arguments for np processes, ending with
// the mpibench binary: Open MPI gets --oversubscribe (the tests run more
// ranks than cores), --allow-run-as-root as root, and openMPIOpts.
func LauncherArgs(np int, openMPIOpts ...string) []string {
	var argv []string
	if launcherKind == "openmpi" {
		if os.Geteuid() == 0 {
			argv = append(argv, "--allow-run-as-root")
		}
		argv = append(append(argv, "--oversubscribe"), openMPIOpts...)
	}
	return append(argv, "-np", strconv.Itoa(np), binPath)
}

// Direct runs mpibench without a launcher.
func Direct(t *testing.T, args ...string) Result {
	t.Helper()
	return Execute(t, DirectTimeout, binPath, args...)
}

// Execute runs a command in its own process group; when the timeout
// expires the whole group is terminated and the test fails.
func Execute(t *testing.T, timeout time.Duration, name string, args ...string) Result {
	t.Helper()
	return ExecuteEnv(t, timeout, nil, name, args...)
}

// ExecuteEnv is Execute with env (KEY=value) added to the environment:
// unlike t.Setenv, it leaves the test free to run in parallel.
func ExecuteEnv(t *testing.T, timeout time.Duration, env []string, name string, args ...string) Result {
	t.Helper()
	defer mpichTurn(t, name)()
	ctx, cancel := stdcontext.WithTimeout(stdcontext.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: stdout.String(), Stderr: stderr.String(), Dur: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatalf("%s %s: no result within %v (hang?)\n%s", name, strings.Join(args, " "), timeout, r)
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	t.Logf("%s %s: exit %d in %v", filepath.Base(name), strings.Join(args, " "), r.Code, r.Dur.Round(time.Millisecond))
	return r
}

// mpichTurn waits until no other MPICH job of this checkout's tests runs,
// when name is MPICH's launcher, and returns the end of this job's turn.
// MPICH's ranks busy-poll (MaxRanks): one 2-rank job fills both cores,
// and two at once put four spinning ranks on two cores, where every step
// of a message waits for a time slice. In CI, ext -check (1.5 s alone) and
// b_eff -check, run at the same time by two test binaries, both passed
// the 240 s timeout (docs/log/2026-11-29-mpich-turns.md). The wait comes
// before the job's timeout starts.
func mpichTurn(t *testing.T, name string) func() {
	t.Helper()
	if launcherKind != "mpich" || name != launcherPath {
		return func() {}
	}
	start := time.Now()
	unlock, err := lockFile(filepath.Join(filepath.Dir(release), ".mpich-jobs.lock"))
	if err != nil {
		t.Fatalf("waiting for MPICH's job turn: %v", err)
	}
	if wait := time.Since(start); wait > time.Second {
		t.Logf("waited %v for another MPICH job to end", wait.Round(time.Millisecond))
	}
	return unlock
}

// MustSucceed fails the test unless the run exited 0 without a Go panic.
func MustSucceed(t *testing.T, r Result) {
	t.Helper()
	NoPanic(t, r)
	if r.Code != 0 {
		t.Fatalf("want exit code 0, got %s", r)
	}
}

// NoPanic fails the test when the output shows a Go panic or crash.
func NoPanic(t *testing.T, r Result) {
	t.Helper()
	for _, s := range []string{"goroutine ", "panic:"} {
		if strings.Contains(r.Stderr, s) || strings.Contains(r.Stdout, s) {
			t.Errorf("output contains %q (a Go panic or crash):\n%s", s, r)
		}
	}
}

// SecondMPIEnv=1 marks the run against the second MPI (scripts/test.sh
// sets it for MPICH). That run keeps what depends on the MPI library: the
// real kernels and their checks, large counts, clock synchronisation,
// launching and aborting, the peers side by side. It skips the tests that
// FirstMPIOnly marks, whose subject both builds share.
const SecondMPIEnv = "MPIBENCH_E2E_SECOND_MPI"

// The reasons of FirstMPIOnly.
const (
	NoJob     = "starts no MPI job"
	Machinery = "tests mpibench's own handling (flags, records, text, journal, resume, signals, faults), which both builds share"
	Mutation  = "a mutant proves the check, which both builds share; the second MPI runs its real kernels' checks"
	Scale     = "tests what grows with the ranks, which both builds share, at 32 ranks; MPICH's ranks busy-poll, and 32 of them on 2 cores do not finish in time"
)

// SecondMPI reports whether this is the run against the second MPI.
func SecondMPI() bool { return os.Getenv(SecondMPIEnv) == "1" }

// FailFast ends the test's failing Open MPI jobs at once. When a rank
// exits non-zero, Open MPI 4.1's mpirun signals the ranks left and waits
// odls_base_sigkill_timeout (1 s) before it kills them, even when every
// rank exits on its own, as after a failed check or refused input: a
// job of `sh -c 'exit 3'` on 2 ranks takes 2 s, with 0 it takes 0.05 s.
// Tests that play such exits by the dozen spent most of their time
// waiting. Not for tests of what the ranks left do when the launcher ends
// them (the fault tests: their cleanup needs that second). MPICH ignores
// it.
func FailFast(t *testing.T) {
	t.Helper()
	t.Setenv("OMPI_MCA_odls_base_sigkill_timeout", "0")
}

// FirstMPIOnly skips the test in the run against the second MPI: why is
// one of NoJob, Machinery, Mutation and Scale.
func FirstMPIOnly(t *testing.T, why string) {
	t.Helper()
	if SecondMPI() {
		t.Skipf("%s: checked against the first MPI (%s=1)", why, SecondMPIEnv)
	}
}
