package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

const launchUsage = `Usage: mpibench launch [-R N] -- COMMAND [ARG ...]

Runs COMMAND N times, one after the other, each a fresh process (a fresh
mpirun), with MPIBENCH_LAUNCH set to 1..N, so that 'guidelines measure -o DIR'
writes DIR/launch-1.jsonl .. DIR/launch-N.jsonl. Output passes through. A
failed launch is reported by its index and the next one runs; it is not
retried. To finish a series after a crash, run the same command with
-resume added to 'guidelines measure': launch K then continues
DIR/launch-K.jsonl, so finished launches measure nothing, a killed one
measures what it lacks, and missing ones run in full.

  -R N   number of launches (default 10, as in the paper's experiments)

Exit codes: 0 every launch succeeded, 1 at least one failed, 2 bad command line.
`

// runLaunch is the launch command: no MPI in this process.
func runLaunch(args []string, stdout, stderr io.Writer) int {
	r, argv, err := parseLaunch(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, launchUsage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "mpibench launch: %v\n\n%s", err, launchUsage)
		return 2
	}
	var failed []string
	for k := 1; k <= r; k++ {
		if err := launchOnce(k, argv, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "mpibench launch: launch %d of %d failed: %v\n", k, r, err)
			failed = append(failed, strconv.Itoa(k))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(stderr, "mpibench launch: %d of %d launches failed: %s\n", len(failed), r, strings.Join(failed, ", "))
		return 1
	}
	return 0
}

func parseLaunch(args []string) (int, []string, error) {
	fs := newFlags("launch")
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

// launchOnce runs the command as launch k.
func launchOnce(k int, argv []string, stdout, stderr io.Writer) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "MPIBENCH_LAUNCH="+strconv.Itoa(k))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	return cmd.Run()
}
