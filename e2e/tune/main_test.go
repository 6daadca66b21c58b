// Package tune holds the end-to-end tests of mpibench tune: real
// launches of every algorithm, and the tuning files read by the library
// they were written for.
package tune

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
