//go:build cgo && !nompi && !imbonly

package main

// The MPI binary's IMB commands run the IMB family's binary. Every rank
// keeps nearly the whole executable resident (the kernel maps its page
// cache's large folios whole; README.md, "Memory"), so the code of the
// other suites (osu, skampi, pgmpi, b_eff, b_eff_io, links, compare) added
// about 1 MB to each rank of an IMB run, which the benchmarks compare with
// IMB-MPI1's. The family binary is this package built with -tags imbonly:
// the IMB commands alone. mpibench execs it before anything MPI happens,
// with the same arguments, so that the job's ranks are that binary.

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"mpibench/mpi"
	"mpibench/run/mpijob"
)

// toFamily execs the family binary for an IMB command run by main (the
// process's own stdout and stderr; the tests' in-process calls run the
// command here). done is false where this binary should run it itself:
// not an IMB command, or no family binary next to it, where the command
// runs here with the same results and only more memory per rank (no
// notice, so that the output stays the command's: context.tool and the
// header say which binary ran).
func toFamily(c *mpijob.Suite, args []string, stdout, stderr io.Writer) (code int, done bool) {
	if !isFamily(c.Name) || stdout != os.Stdout || stderr != os.Stderr {
		return 0, false
	}
	if from := os.Getenv(familyFrom); from != "" {
		_, by, _ := strings.Cut(from, ":")
		return familyFail(stderr, c.Name, fmt.Errorf("%s, run by %s as the IMB family's binary, is "+
			"mpibench itself, which would run it again; name mpibench-imb (go build -tags imbonly) in $%s",
			analyzeSelf(), by, familyEnv)), true
	}
	path, err := familyBinary()
	if err != nil {
		return familyFail(stderr, c.Name, err), true
	}
	if path == "" {
		return 0, false
	}
	env := append(os.Environ(), familyFrom+"="+mpi.Flavor+":"+analyzeSelf())
	err = syscall.Exec(path, append([]string{path}, args...), env) // returns only on failure
	return familyFail(stderr, c.Name, fmt.Errorf("running %s: %w", path, err)), true
}

// familyFail reports err once (rank 0, MPI is not initialised yet) and
// gives the exit code of a bad command line.
func familyFail(stderr io.Writer, command string, err error) int {
	if mpijob.LauncherRank() == "0" {
		_, _ = fmt.Fprintf(stderr, "mpibench %s: %v\n", command, err)
	}
	return 2
}

// isFamily tells whether the command is one of the IMB family's.
func isFamily(name string) bool {
	return slices.ContainsFunc(imbFamily(), func(s mpijob.Suite) bool { return s.Name == name })
}

// familyBinary is the family binary: $MPIBENCH_IMB when set (an error if
// it cannot be run), else this executable's name with -imb next to it
// (mpibench-imb, mpibench-mpich-imb, as make builds them); "" when there
// is none.
func familyBinary() (string, error) {
	if p := os.Getenv(familyEnv); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", familyEnv, p, err)
		}
		return p, nil
	}
	p, err := exec.LookPath(filepath.Join(analyzeDir(), filepath.Base(analyzeSelf())+familySuffix))
	if err != nil {
		return "", nil
	}
	return p, nil
}
