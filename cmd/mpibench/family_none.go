//go:build (!cgo || nompi) && !imbonly

package main

import (
	"io"

	"mpibench/run/mpijob"
)

// toFamily: the analysis binary runs no MPI command, so no family binary
// either; its IMB commands fail at MPI_Init as before.
func toFamily(*mpijob.Suite, []string, io.Writer, io.Writer) (int, bool) { return 0, false }
