// Package pgmpi holds the end-to-end tests of PGMPI's performance
// guidelines (guidelines nrep, measure and check) and mpibench launch.
package pgmpi

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
