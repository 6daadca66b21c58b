package pgmpi

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

	"mpibench/e2e"
)

// startLaunch starts 'mpibench launch' with args in a process group of
// its own, which the test's end kills with whatever is left in it.
func startLaunch(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	return e2e.StartCmd(t, e2e.Bin(), append([]string{"launch"}, args...)...)
}

// gone waits up to limit for every process of pids to end and returns
// those still there.
func gone(pids []int, limit time.Duration) []int {
	var left []int
	for end := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		left = left[:0]
		for _, p := range pids {
			if alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 || time.Now().After(end) {
			return left
		}
	}
}

// alive tells whether pid is a process that has not ended (a zombie has).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && len(s) > i+2 && s[i+2] != 'Z'
}

// withArg lists the processes whose command line holds arg.
func withArg(arg string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if slices.Contains(strings.Split(string(cmdline), "\x00"), arg) && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// SIGTERM to 'mpibench launch' while launch 1 of 2 hangs (rank 1 stuck,
// no watchdog): launch passes it on to mpirun, which ends its ranks;
// launch exits 143, launch 2 never starts, and no rank or mpirun of the
// run is left.
func TestLaunchSignal(t *testing.T) {
	e2e.NeedMPI(t)
	dir := t.TempDir()
	key := "pgmpi/MPI_Bcast/np2/16"
	e2e.SetFault(t, "hang:1:"+key)
	args := append([]string{"-R", "2", "--"}, pgmpiMpirun(2)...)
	args = append(args, "guidelines", "measure", "-calls", "MPI_Bcast", "-sizes", "16", "-reps", "5",
		"-o", dir, "-timeout", "0")
	cmd, stdout, stderr := startLaunch(t, args...)
	out := filepath.Join(dir, "launch-1.jsonl")
	e2e.AwaitCond(t, "journal line start "+key, func() bool { return e2e.StateHas(out, "start "+key) })
	var ranks map[int]int
	e2e.AwaitCond(t, "the rank processes", func() bool { ranks = e2e.RankPIDs(dir); return len(ranks) == 2 })
	pids := e2e.Descendants(cmd.Process.Pid) // mpirun, its helpers and the ranks
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	r := e2e.WaitRun(t, cmd, stdout, stderr, 60*time.Second)
	if r.Code != 143 {
		t.Errorf("exit code %d, want 143\n%s", r.Code, r)
	}
	if !strings.Contains(r.Stderr, "mpibench launch: interrupted by terminated in launch 1 of 2") {
		t.Errorf("no message on the interruption\n%s", r)
	}
	if left := gone(pids, 5*time.Second); len(left) > 0 {
		t.Errorf("processes %v of the run are left (ranks %v)\n%s", left, ranks, r)
	}
	if len(e2e.RankPIDs(dir)) > 0 {
		t.Errorf("rank processes are left: %v", e2e.RankPIDs(dir))
	}
	if _, err := os.Stat(filepath.Join(dir, "launch-2.jsonl")); err == nil {
		t.Error("launch 2 ran after the signal")
	}
}

// launchGrace is how long launch waits for a signalled command to end
// before it kills it (launch.go).
const launchGrace = 10 * time.Second

// A command that ignores the signal is killed, with every process it
// started, after the grace period; launch still exits 128+signal.
func TestLaunchSignalKill(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	if testing.Short() {
		t.Skip("waits the grace period")
	}
	marker := "987.654321" // sleep's argument, to find it
	cmd, stdout, stderr := startLaunch(t, "-R", "3", "--", "sh", "-c", `trap "" TERM INT; sleep `+marker+`; exit 0`)
	var sleeps []int
	e2e.AwaitCond(t, "the sleep", func() bool { sleeps = withArg(marker); return len(sleeps) == 1 })
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	r := e2e.WaitRun(t, cmd, stdout, stderr, launchGrace+30*time.Second)
	if r.Code != 130 {
		t.Errorf("exit code %d, want 130\n%s", r.Code, r)
	}
	if d := time.Since(start); d < launchGrace {
		t.Errorf("ended after %v, before the grace period of %v", d, launchGrace)
	}
	if !strings.Contains(r.Stderr, "launch 1 did not end within 10s; killed it and every process it started") {
		t.Errorf("no message on the kill\n%s", r)
	}
	if left := gone(sleeps, 5*time.Second); len(left) > 0 {
		t.Errorf("the command's child %v is left", left)
	}
}
