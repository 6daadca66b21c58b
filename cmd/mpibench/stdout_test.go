package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fullStdout runs the binary alone (MPI's singleton start, one process)
// with its stdout on /dev/full, where every write fails.
func fullStdout(t *testing.T, args ...string) runResult {
	t.Helper()
	cmd, stdout, stderr := startCmd(t, "sh", append([]string{"-c", `exec "$0" "$@" >/dev/full`, binPath}, args...)...)
	return waitRun(t, cmd, stdout, stderr, directTimeout+10*time.Second)
}

// TestSkampiStdoutFull: a failed write of the text ends the run with 1
// and says why; the records are all in the results file.
func TestSkampiStdoutFull(t *testing.T) {
	cfg := skampiWrite(t, "epsilon 0.1\nminreps 4\nmaxreps 16\nmeasure Wtime simple Wtime none\n"+
		"measure Comm_size simple Comm_size none\n")
	out := filepath.Join(t.TempDir(), "r.jsonl")
	r := fullStdout(t, "skampi", "-config", cfg, "-json", out)
	if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") {
		t.Errorf("want exit 1 and the write's error; got %s", r)
	}
	if _, order := skampiByName(t, skampiRead(t, out)); strings.Join(order, " ") != "Wtime Comm_size" {
		t.Errorf("records of %v, want Wtime Comm_size", order)
	}
}

// TestPgmpiStdoutFull: the same for guidelines measure and nrep.
func TestPgmpiStdoutFull(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"measure", "-calls", "MPI_Bcast", "-sizes", "16", "-reps", "3", "-o", dir},
		{"nrep", "-calls", "MPI_Bcast", "-sizes", "16", "-max", "40", "-json", filepath.Join(dir, "n.json")},
	} {
		r := fullStdout(t, append([]string{"guidelines"}, args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") {
			t.Errorf("%s: want exit 1 and the write's error; got %s", args[0], r)
		}
	}
	if recs := pgmpiRead(t, filepath.Join(dir, "launch-1.jsonl")); len(recs) != 1 {
		t.Errorf("measure: %d records, want 1", len(recs))
	}
}

// TestStdoutFull: help, version and the list written to a full disk
// (/dev/full) fail with exit code 1 and say so, instead of passing for
// success with nothing written.
func TestStdoutFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	for _, args := range [][]string{{"-h"}, {"version"}, {"list"}, {"launch", "-h"}, {"report", "-h"},
		{"mpi1", "-h"}} {
		cmd := exec.Command(binPath, args...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("mpibench %s > /dev/full: %v, stderr %q; want exit code 1 and the error", strings.Join(args, " "), err, stderr.String())
		}
	}
}
