// Package beff holds the end-to-end tests of b_eff, the effective
// bandwidth: the result recomputed from the records, -check and its
// mutants, faults and -resume.
package beff

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
