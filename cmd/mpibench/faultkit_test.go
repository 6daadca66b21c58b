package main

// Helpers for the fault tests of every suite: a run started in the
// background, a rank found by its rank number, kill -9 or a signal sent
// when the journal reaches a mark, and a case made to hang with the
// MPIBENCH_FAULT hook.

import (
	"bytes"
	"encoding/json"
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

// faultEnv is the fault hook of the mutant build (cases/fault_mutant.go):
// "hang:RANK:KEY" or "kill:RANK:KEY". A release build ignores it.
const faultEnv = "MPIBENCH_FAULT"

// setFault sets the fault hook for the runs of the test and makes them
// run the mutant build, which alone has the hook, playing the real
// kernels; "" runs it without a fault.
func setFault(t *testing.T, fault string) {
	t.Helper()
	useMutant(t)
	t.Setenv(faultEnv, fault)
}

// useMutant makes the runs of the test (launch) run the mutant build
// playing the real kernels, for its test hooks.
func useMutant(t *testing.T) {
	t.Helper()
	bin := mutantBinary(t)
	t.Setenv(mutantEnv, "")
	if binPath != bin {
		release := binPath
		binPath = bin
		t.Cleanup(func() { binPath = release })
	}
}

// readJSONL decodes every line of a JSON Lines file into a T; a line that
// does not decode fails the test.
func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []T
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r T
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		recs = append(recs, r)
	}
	return recs
}

// startRun starts mpibench on np processes under the launcher and
// returns at once; the test's end kills what is left of it.
func startRun(t *testing.T, np int, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	needMPI(t)
	return startCmd(t, launcherPath, append(launcherArgs(np), args...)...)
}

// startCmd starts a command in a process group of its own and returns at
// once; the test's end kills the group with whatever is left in it.
func startCmd(t *testing.T, name string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
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

// waitRun waits up to limit for a started run to end.
func waitRun(t *testing.T, cmd *exec.Cmd, stdout, stderr *bytes.Buffer, limit time.Duration) runResult {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("the run did not end within %v\nstdout:\n%s\nstderr:\n%s", limit, stdout, stderr)
	}
	r := runResult{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode(),
		dur: time.Since(start)}
	noPanic(t, r)
	return r
}

// rankPIDs finds the rank processes of the run whose command line holds
// marker (a file name only that run uses), by rank: the processes
// executing the mpibench binary (or the IMB family's binary it execs for
// the IMB commands, family.go), with the rank their launcher gave them.
func rankPIDs(marker string) map[int]int {
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

// awaitCond polls cond every 5 ms for up to 60 s.
func awaitCond(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// stateHas tells whether the journal of results file out has the line
// mark ("start mpi1/PingPong/np2/1024").
func stateHas(out, mark string) bool {
	data, _ := os.ReadFile(out + ".state")
	return slices.Contains(strings.Split(string(data), "\n"), mark)
}

// signalAt starts a run of np ranks whose results file is out, waits
// until its journal holds mark, sends sig to rank (-1: every rank) and
// returns the ended run.
func signalAt(t *testing.T, np int, out, mark string, sig syscall.Signal, rank int, args ...string) runResult {
	t.Helper()
	return signalMarked(t, np, out, out, mark, sig, rank, args...)
}

// signalMarked is signalAt for a run whose ranks are found by marker, an
// argument of their command line other than the results file.
func signalMarked(t *testing.T, np int, marker, out, mark string, sig syscall.Signal, rank int, args ...string) runResult {
	t.Helper()
	cmd, stdout, stderr := startRun(t, np, args...)
	awaitCond(t, "journal line "+mark, func() bool { return stateHas(out, mark) })
	var pids map[int]int
	awaitCond(t, "the rank processes", func() bool { pids = rankPIDs(marker); return len(pids) == np })
	for r, pid := range pids {
		if rank < 0 || r == rank {
			syscall.Kill(pid, sig)
		}
	}
	return waitRun(t, cmd, stdout, stderr, 60*time.Second)
}

// killAt kills rank 1 with SIGKILL when the journal of out holds mark; the
// launcher must end the job with a failure.
func killAt(t *testing.T, np int, out, mark string, args ...string) runResult {
	t.Helper()
	r := signalAt(t, np, out, mark, syscall.SIGKILL, 1, args...)
	if r.code == 0 {
		t.Errorf("the launcher exited 0 after a rank was killed\n%s", r)
	}
	return r
}

// hangRun runs np ranks with rank `rank` stuck in the case whose key is
// key, and a 2 s watchdog: the job must end with exit code 4 within
// seconds, the message must name the case, and the journal of out must
// mark it hung.
func hangRun(t *testing.T, np, rank int, key, out string, args ...string) runResult {
	t.Helper()
	setFault(t, "hang:"+strconv.Itoa(rank)+":"+key)
	cmd, stdout, stderr := startRun(t, np, append(args, "-timeout", "2")...)
	r := waitRun(t, cmd, stdout, stderr, 60*time.Second)
	if r.code != cases.ExitHung {
		t.Errorf("exit code %d, want %d (hung)\n%s", r.code, cases.ExitHung, r)
	}
	// Any rank may notice first; the stuck one is ended by the abort
	// before its own watchdog fires when it was armed later.
	if !strings.Contains(r.stderr, " waited more than 2s in") {
		t.Errorf("no watchdog message\n%s", r)
	}
	if out != "" && !stateHas(out, "hung "+key) {
		data, _ := os.ReadFile(out + ".state")
		t.Errorf("journal lacks %q:\n%s", "hung "+key, data)
	}
	return r
}
