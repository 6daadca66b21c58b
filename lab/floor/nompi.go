//go:build !cgo || nompi

// Command floor needs MPI through cgo; see main.go.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "floor: built without MPI (cgo and Open MPI or MPICH needed)")
	os.Exit(2)
}
