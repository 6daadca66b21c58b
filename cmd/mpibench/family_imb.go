//go:build imbonly

package main

// The IMB family's binary (-tags imbonly; family.go says why): it runs
// the IMB commands that mpibench execs it for, or that it is given itself.

import (
	"fmt"
	"io"
	"os"
	"strings"

	"mpibench/mpi"
	"mpibench/run/mpijob"
)

// toFamily refuses to run for an mpibench of another MPI (a wrong
// $MPIBENCH_IMB): the job would fail in MPI_Init, or worse, start.
func toFamily(c *mpijob.Suite, _ []string, _, stderr io.Writer) (int, bool) {
	flavor, by, ok := strings.Cut(os.Getenv(familyFrom), ":")
	if !ok || flavor == mpi.Flavor {
		return 0, false
	}
	if mpijob.LauncherRank() == "0" {
		_, _ = fmt.Fprintf(stderr, "%s %s: this binary is built for %s, %s (which ran it) for %s; "+
			"build mpibench-imb for %s (make build) or fix $%s\n", mpijob.Program, c.Name, mpi.Flavor, by,
			flavor, flavor, familyEnv)
	}
	return 2, true
}
