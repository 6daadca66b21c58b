// Package links holds the end-to-end tests of links (mpiGraph's
// matrices), and every suite across hosts in network namespaces.
package links

import (
	"os"
	"testing"

	"mpibench/e2e"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
