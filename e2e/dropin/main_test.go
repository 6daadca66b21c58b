// Package dropin holds the end-to-end tests of mpibench run under an
// Intel or OSU program name (cmd/mpibench/dropin.go): as a symbolic link
// named IMB-MPI1 or osu_latency, and as `mpibench IMB-MPI1 ...`, side by
// side with Intel's IMB-MPI1 2021.11 on the command lines of ReFrame-,
// Ramble- and PerfKit-style harnesses.
package dropin

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
