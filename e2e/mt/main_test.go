// Package mt holds the end-to-end tests of IMB-MT (mpibench mt), side by
// side with Intel's IMB-MT.
package mt

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
