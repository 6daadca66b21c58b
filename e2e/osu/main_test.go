// Package osu holds the end-to-end tests of the OSU Micro-Benchmarks 7.4
// tests (point-to-point, collectives, derived types, large counts), side by
// side with OSU's own programs.
package osu

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
