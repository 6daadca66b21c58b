package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"mpibench/internal/cli"
	"mpibench/run/mpijob"
)

// launchCommand is mpibench launch as the registry knows it: no MPI.
var launchCommand = mpijob.Entry{Name: "launch", Synopsis: "launch -R N -- mpirun ... guidelines measure",
	Summary: "run a command N times (fresh mpirun each)", Main: runLaunch}

const launchUsage = `Usage: mpibench launch [-R N] -- COMMAND [ARG ...]

Runs COMMAND N times, one after the other, each a fresh process (a fresh
mpirun), with MPIBENCH_LAUNCH set to 1..N, so that 'guidelines measure -o DIR'
writes DIR/launch-1.jsonl .. DIR/launch-N.jsonl. Output passes through. A
failed launch is reported by its index and the next one runs; it is not
retried. To finish a series after a crash, run the same command with
-resume added to 'guidelines measure': launch K then continues
DIR/launch-K.jsonl, so finished launches measure nothing, a killed one
measures what it lacks, and missing ones run in full.

SIGINT, SIGTERM or SIGHUP stops the series: the signal is passed on to
the running command (to its process group when it leads one), which gets
10 seconds to end before it and every process it started are killed;
no further launch starts, and launch exits with 128+signal (130, 143, 129).

  -R N   number of launches (default 10, as in the paper's experiments)

Exit codes: 0 every launch succeeded, 1 at least one failed, 2 bad command
line, 128+signal interrupted.
`

// launchGrace is how long an interrupted command may take to end (mpirun
// passes the signal on to its ranks and waits for them) before launch
// kills it and its descendants.
const launchGrace = 10 * time.Second

// runLaunch is the launch command: no MPI in this process.
func runLaunch(args []string, stdout, stderr io.Writer) int {
	r, argv, err := parseLaunch(args)
	if errors.Is(err, flag.ErrHelp) {
		return printOut(stdout, stderr, launchUsage)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench launch: %v\n\n%s", err, launchUsage)
		return 2
	}
	// Caught from here on, so that no signal ends launch while its
	// command runs on as an orphan.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	var failed []string
	for k := 1; k <= r; k++ {
		sig, err := launchOnce(k, r, argv, stdout, stderr, sigs)
		if sig != nil {
			if len(failed) > 0 {
				_, _ = fmt.Fprintf(stderr, "mpibench launch: before that, %d launches failed: %s\n", len(failed), strings.Join(failed, ", "))
			}
			return 128 + int(sig.(syscall.Signal))
		}
		if err != nil {
			_, _ = fmt.Fprintf(stderr, "mpibench launch: launch %d of %d failed: %v\n", k, r, err)
			failed = append(failed, strconv.Itoa(k))
		}
	}
	if len(failed) > 0 {
		_, _ = fmt.Fprintf(stderr, "mpibench launch: %d of %d launches failed: %s\n", len(failed), r, strings.Join(failed, ", "))
		return 1
	}
	return 0
}

func parseLaunch(args []string) (int, []string, error) {
	fs := cli.NewFlags("launch")
	r := fs.Int("R", 10, "")
	if err := fs.Parse(args); err != nil {
		return 0, nil, err
	}
	if *r < 1 {
		return 0, nil, fmt.Errorf("-R: want at least 1")
	}
	// flag stops at "--" and drops it; a command without "--" is accepted too.
	if fs.NArg() == 0 {
		return 0, nil, fmt.Errorf("no command after --")
	}
	return *r, fs.Args(), nil
}

// launchOnce runs the command as launch k of r. A signal from sigs stops
// it (see stopLaunch) and is returned; the error is the command's
// failure otherwise.
func launchOnce(k, r int, argv []string, stdout, stderr io.Writer, sigs <-chan os.Signal) (os.Signal, error) {
	select {
	case sig := <-sigs: // between two launches: nothing runs
		_, _ = fmt.Fprintf(stderr, "mpibench launch: interrupted by %v before launch %d of %d; the series stops\n", sig, k, r)
		return sig, nil
	default:
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "MPIBENCH_LAUNCH="+strconv.Itoa(k))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	// Ranks that outlive a killed mpirun may hold the output pipes (when
	// stdout is not a file): Wait does not wait for them for ever.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return nil, err
	case sig := <-sigs:
		stopLaunch(cmd.Process.Pid, k, r, sig, done, sigs, stderr)
		return sig, nil
	}
}

// stopLaunch passes sig on to the running command pid (to its process
// group when it leads one of its own) and waits for it to end, at most
// launchGrace or until a second signal; then it kills the command and
// every process it started, found before the kill, so that none
// survives as an orphan of a killed mpirun.
func stopLaunch(pid, k, r int, sig os.Signal, done <-chan error, sigs <-chan os.Signal, stderr io.Writer) {
	_, _ = fmt.Fprintf(stderr, "mpibench launch: interrupted by %v in launch %d of %d; passing it on to the command "+
		"(pid %d) and stopping the series\n", sig, k, r, pid)
	s := sig.(syscall.Signal)
	target := pid
	if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid && pgid != syscall.Getpgrp() {
		target = -pid
	}
	syscall.Kill(target, s)
	timer := time.NewTimer(launchGrace)
	defer timer.Stop()
	why := ""
	select {
	case err := <-done:
		_, _ = fmt.Fprintf(stderr, "mpibench launch: launch %d ended (%v)\n", k, exitText(err))
		return
	case <-timer.C:
		why = fmt.Sprintf("did not end within %v", launchGrace)
	case again := <-sigs:
		why = fmt.Sprintf("got %v again", again)
	}
	procs := descendants(pid)
	if target < 0 {
		syscall.Kill(target, syscall.SIGKILL)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	for _, p := range procs {
		syscall.Kill(p, syscall.SIGKILL)
	}
	_, _ = fmt.Fprintf(stderr, "mpibench launch: launch %d %s; killed it and every process it started (%d)\n", k, why, len(procs))
	select {
	case <-done:
	case <-time.After(launchGrace):
	}
}

// exitText says how a command ended.
func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// descendants lists the processes below pid, read from /proc (none where
// there is no /proc).
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentPID(filepath.Join("/proc", e.Name(), "stat")); ok {
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// parentPID reads the parent of a process from its /proc/PID/stat: the
// fourth field, after the command name in parentheses (which may itself
// hold spaces and parentheses).
func parentPID(stat string) (int, bool) {
	b, err := os.ReadFile(stat)
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(f[1])
	return pp, err == nil
}
