package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"mpibench/mpi"
)

// The mutation tests run a second mpibench binary, built with the tag
// "mutant" (see mpi/mutant.h): it plays the broken kernel named by
// MPIBENCH_MUTANT, and the data checks must catch it.

var (
	mutantOnce sync.Once
	mutantPath string
	mutantErr  string
)

// mutantBinary builds the mutant binary once per test binary and returns
// its path.
func mutantBinary(t *testing.T) string {
	t.Helper()
	mutantOnce.Do(func() {
		tags := "mutant"
		if mpi.Flavor == "mpich" {
			tags += ",mpich"
		}
		mutantPath = filepath.Join(filepath.Dir(binPath), "mpibench-mutant")
		args := []string{"build", "-tags", tags, "-o", mutantPath, "mpibench/cmd/mpibench"}
		if out, err := exec.Command(goTool(), args...).CombinedOutput(); err != nil {
			mutantErr = "go " + strings.Join(args, " ") + ": " + err.Error() + "\n" + string(out)
		}
	})
	if mutantErr != "" {
		t.Fatal(mutantErr)
	}
	return mutantPath
}

// mutantEnv picks the mutant a run of mutantBinary plays (mpi.MutantEnv
// of a mutant build; t.Setenv(mutantEnv, "") plays the real kernels).
const mutantEnv = "MPIBENCH_MUTANT"
