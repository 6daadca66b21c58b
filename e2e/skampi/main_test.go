// Package skampi holds the end-to-end tests of SKaMPI (mpibench skampi):
// configurations, records, bounds, faults and -resume.
package skampi

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
