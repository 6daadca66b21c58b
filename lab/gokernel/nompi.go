//go:build !cgo || nompi

// Command gokernel needs MPI (main.go); this build without it only says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "gokernel: built without MPI: build it with cgo and Open MPI or MPICH (go build ./lab/gokernel)")
	os.Exit(2)
}
