// Package beffio holds the end-to-end tests of b_eff_io, the effective
// I/O bandwidth: the result recomputed from the records, bounds, -check,
// faults and -resume.
package beffio

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
