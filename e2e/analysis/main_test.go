// Package analysis holds the end-to-end tests of report, merge and
// compare as binaries, and the build without MPI.
package analysis

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
