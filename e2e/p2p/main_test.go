// Package p2p holds the end-to-end tests of IMB-P2P (mpibench p2p), side
// by side with Intel's IMB-P2P.
package p2p

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
