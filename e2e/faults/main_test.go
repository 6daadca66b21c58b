// Package faults holds the end-to-end tests of what every suite does on
// bad input and faults: the README's fault table, full disks, memory
// limits, private files, case errors, progress lines and full stdout.
package faults

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
