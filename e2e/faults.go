package e2e

// Helpers for the fault tests of every suite: a run started in the
// background, a rank found by its rank number, kill -9 or a signal sent
// when the journal reaches a mark, a case made to hang with the
// MPIBENCH_FAULT hook, and the mutant build that has the hooks.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mpibench/run/cases"
)

const (
	// FaultEnv is the fault hook of the mutant build
	// (cases/fault_mutant.go): "hang:RANK:KEY" or "kill:RANK:KEY". A
	// release build ignores it.
	FaultEnv = "MPIBENCH_FAULT"
	// MutantEnv picks the mutant a run of MutantBinary plays
	// (mpi.MutantEnv of a mutant build; t.Setenv(MutantEnv, "") plays the
	// real kernels).
	MutantEnv = "MPIBENCH_MUTANT"
	// FakeMemEnv is the memory hook of the mutant build
	// (run/memcheck/fake_mutant.go): the node's MemAvailable in MB.
	// A release build ignores it.
	FakeMemEnv = "MPIBENCH_FAKE_MEM_MB"
)

// MutantBinary is the mpibench binary built with the tag "mutant" (see
// mpi/mutant.h): it plays the broken kernel named by MPIBENCH_MUTANT, and
// the data checks must catch it. It is built on first use.
func MutantBinary(t *testing.T) string {
	t.Helper()
	p, err := build(buildTags("mutant"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// SetFault sets the fault hook for the runs of the test and makes them
// run the mutant build, which alone has the hook, playing the real
// kernels; "" runs it without a fault.
func SetFault(t *testing.T, fault string) {
	t.Helper()
	UseMutant(t)
	t.Setenv(FaultEnv, fault)
}

// SetFakeMem fakes the node's memory, mb MB, for the runs of the test,
// and makes them run the mutant build, which alone has the hook.
func SetFakeMem(t *testing.T, mb string) {
	t.Helper()
	UseMutant(t)
	t.Setenv(FakeMemEnv, mb)
}

// UseMutant makes the runs of the test (Launch) run the mutant build
// playing the real kernels, for its test hooks.
func UseMutant(t *testing.T) {
	t.Helper()
	bin := MutantBinary(t)
	t.Setenv(MutantEnv, "")
	if binPath != bin {
		binPath = bin
		t.Cleanup(func() { binPath = release })
	}
}

// StartRun starts mpibench on np processes under the launcher and
// returns at once; the test's end kills what is left of it.
func StartRun(t *testing.T, np int, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	NeedMPI(t)
	return StartCmd(t, launcherPath, append(LauncherArgs(np), args...)...)
}

// StartCmd starts a command in a process group of its own and returns at
// once; the test's end kills the group with whatever is left in it.
func StartCmd(t *testing.T, name string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	return cmd, &stdout, &stderr
}

// WaitRun waits up to limit for a started run to end.
func WaitRun(t *testing.T, cmd *exec.Cmd, stdout, stderr *bytes.Buffer, limit time.Duration) Result {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("the run did not end within %v\nstdout:\n%s\nstderr:\n%s", limit, stdout, stderr)
	}
	r := Result{Stdout: stdout.String(), Stderr: stderr.String(), Code: cmd.ProcessState.ExitCode(),
		Dur: time.Since(start)}
	NoPanic(t, r)
	return r
}

// RankPIDs finds the rank processes of the run whose command line holds
// marker (a file name only that run uses), by rank: the processes
// executing the mpibench binary, with the rank their launcher gave them.
func RankPIDs(marker string) map[int]int {
	pids := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		args := strings.Split(string(cmdline), "\x00")
		if err != nil || args[0] != binPath || !slices.Contains(args, marker) {
			continue
		}
		environ, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		for _, kv := range strings.Split(string(environ), "\x00") {
			k, v, _ := strings.Cut(kv, "=")
			if k == "OMPI_COMM_WORLD_RANK" || k == "PMI_RANK" {
				if r, err := strconv.Atoi(v); err == nil {
					pids[r] = pid
				}
			}
		}
	}
	return pids
}

// AwaitCond polls cond every 5 ms for up to 60 s.
func AwaitCond(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// StateHas tells whether the journal of results file out has the line
// mark ("start mpi1/PingPong/np2/1024").
func StateHas(out, mark string) bool {
	data, _ := os.ReadFile(out + ".state")
	return slices.Contains(strings.Split(string(data), "\n"), mark)
}

// SignalAt starts a run of np ranks whose results file is out, waits
// until its journal holds mark, sends sig to rank (-1: every rank) and
// returns the ended run.
func SignalAt(t *testing.T, np int, out, mark string, sig syscall.Signal, rank int, args ...string) Result {
	t.Helper()
	return SignalMarked(t, np, out, out, mark, sig, rank, args...)
}

// SignalMarked is SignalAt for a run whose ranks are found by marker, an
// argument of their command line other than the results file.
func SignalMarked(t *testing.T, np int, marker, out, mark string, sig syscall.Signal, rank int, args ...string) Result {
	t.Helper()
	cmd, stdout, stderr := StartRun(t, np, args...)
	AwaitCond(t, "journal line "+mark, func() bool { return StateHas(out, mark) })
	var pids map[int]int
	AwaitCond(t, "the rank processes", func() bool { pids = RankPIDs(marker); return len(pids) == np })
	for r, pid := range pids {
		if rank < 0 || r == rank {
			syscall.Kill(pid, sig)
		}
	}
	return WaitRun(t, cmd, stdout, stderr, 60*time.Second)
}

// KillAt kills rank 1 with SIGKILL when the journal of out holds mark; the
// launcher must end the job with a failure.
func KillAt(t *testing.T, np int, out, mark string, args ...string) Result {
	t.Helper()
	r := SignalAt(t, np, out, mark, syscall.SIGKILL, 1, args...)
	if r.Code == 0 {
		t.Errorf("the launcher exited 0 after a rank was killed\n%s", r)
	}
	return r
}

// HangRun runs np ranks with rank `rank` stuck in the case whose key is
// key, and a 2 s watchdog: the job must end with exit code 4 within
// seconds, the message must name the case, and the journal of out must
// mark it hung.
func HangRun(t *testing.T, np, rank int, key, out string, args ...string) Result {
	t.Helper()
	SetFault(t, "hang:"+strconv.Itoa(rank)+":"+key)
	cmd, stdout, stderr := StartRun(t, np, append(args, "-timeout", "2")...)
	r := WaitRun(t, cmd, stdout, stderr, 60*time.Second)
	if r.Code != cases.ExitHung {
		t.Errorf("exit code %d, want %d (hung)\n%s", r.Code, cases.ExitHung, r)
	}
	// Any rank may notice first; the stuck one is ended by the abort
	// before its own watchdog fires when it was armed later.
	if !strings.Contains(r.Stderr, " waited more than 2s in") {
		t.Errorf("no watchdog message\n%s", r)
	}
	if out != "" && !StateHas(out, "hung "+key) {
		data, _ := os.ReadFile(out + ".state")
		t.Errorf("journal lacks %q:\n%s", "hung "+key, data)
	}
	return r
}

// AppendText appends text to the file at path.
func AppendText(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// FaultDirs are a results file and an -iodir of the test's own.
func FaultDirs(t *testing.T) (out, dir string) {
	return filepath.Join(t.TempDir(), "r.jsonl"), t.TempDir()
}
