//go:build cgo && !nompi

package main

// The MPI binary's report and guidelines check: they run the analysis
// binary. Every rank of a job keeps nearly all of the executable resident
// (README.md, "Memory"), and the plotting of these two commands (gonum/plot,
// its fonts, go-latex) was 11.4 MB of a 17 MB binary: without it a rank's
// peak RSS went from 1.43-1.55x IMB-MPI1's to 1.19x. The plots live in
// mpibench-analyze, the build without MPI (report.go), which these
// commands exec with the same arguments.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// analyzeName is the analysis binary's file name; analyzeEnv names it
// where it is neither next to mpibench nor on PATH. analyzeFrom is set
// in the analysis binary's environment: an MPI binary that finds it set
// was itself run as the analysis binary, and would exec itself forever.
const (
	analyzeName = "mpibench-analyze"
	analyzeEnv  = "MPIBENCH_ANALYZE"
	analyzeFrom = "MPIBENCH_ANALYZE_FROM"
)

func runReport(args []string, stdout, stderr io.Writer) int {
	return analyze("report", args, stdout, stderr)
}

func runGuidelinesCheck(args []string, stdout, stderr io.Writer) int {
	return analyze("guidelines check", args, stdout, stderr)
}

// analyze runs command of the analysis binary with args. Called by main
// (os.Stdout, os.Stderr) it execs it, so that its output, signals and
// exit code are the command's own; called with other writers (the
// tests) it runs it as a child and returns its exit code.
func analyze(command string, args []string, stdout, stderr io.Writer) int {
	path, err := analyzeBinary()
	if from := os.Getenv(analyzeFrom); from != "" {
		err = fmt.Errorf("%s, run by %s as %s, is an MPI build of mpibench, not the analysis binary",
			analyzeSelf(), from, analyzeName)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench %s: %v\n\n%s", command, err, analyzeHelp(command))
		return 2
	}
	argv := append(append([]string{path}, strings.Fields(command)...), args...)
	env := append(os.Environ(), analyzeFrom+"="+analyzeSelf())
	if stdout == os.Stdout && stderr == os.Stderr {
		err = syscall.Exec(path, argv, env) // returns only on failure
		_, _ = fmt.Fprintf(stderr, "mpibench %s: running %s: %v\n", command, path, err)
		return 2
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = os.Stdin, stdout, stderr, env
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	case err != nil:
		_, _ = fmt.Fprintf(stderr, "mpibench %s: running %s: %v\n", command, path, err)
		return 2
	}
	return 0
}

// analyzeBinary finds the analysis binary: $MPIBENCH_ANALYZE when set
// (an explicit choice comes first), else mpibench-analyze next to this
// executable (as make and the install lines put it), else on PATH.
func analyzeBinary() (string, error) {
	if p := os.Getenv(analyzeEnv); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", analyzeEnv, p, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath(filepath.Join(analyzeDir(), analyzeName)); err == nil {
		return p, nil
	}
	if p, err := exec.LookPath(analyzeName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s not found next to this executable, on PATH or in $%s", analyzeName, analyzeEnv)
}

// analyzeDir is the directory of this executable, where the analysis
// binary belongs.
func analyzeDir() string {
	return filepath.Dir(analyzeSelf())
}

// analyzeSelf is the path of this executable.
func analyzeSelf() string {
	exe, err := os.Executable()
	if err != nil {
		return filepath.Join("DIR", "mpibench")
	}
	return exe
}

// analyzeHelp says why the plots are not in this binary and how to get
// the analysis binary that draws them.
func analyzeHelp(command string) string {
	return fmt.Sprintf(`This MPI build of mpibench leaves out the plotting of report and
guidelines check (gonum/plot and its fonts, 11 MB of the 17 MB
executable): every rank of an MPI job keeps the executable resident, and
these bytes would add 11 MB to each rank's memory, which the benchmarks
compare with IMB's. They are in the analysis binary, the build without
MPI, which 'mpibench %s' runs. Build it next to this executable, from
the mpibench source tree:

  go build -tags nompi -o %s ./cmd/mpibench

or run 'make', which builds bin/mpibench and bin/%s; or name it
with %s=PATH.
`, command, filepath.Join(analyzeDir(), analyzeName), analyzeName, analyzeEnv)
}
