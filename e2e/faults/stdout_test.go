package faults

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"mpibench/e2e"
)

// TestStdoutFull: help, version and the list written to a full disk
// (/dev/full) fail with exit code 1 and say so, instead of passing for
// success with nothing written.
func TestStdoutFull(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	for _, args := range [][]string{{"-h"}, {"version"}, {"list"}, {"launch", "-h"}, {"report", "-h"},
		{"mpi1", "-h"}} {
		cmd := exec.Command(e2e.Bin(), args...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("mpibench %s > /dev/full: %v, stderr %q; want exit code 1 and the error", strings.Join(args, " "), err, stderr.String())
		}
	}
}
