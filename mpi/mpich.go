//go:build cgo && mpich && !nompi

package mpi

// #cgo pkg-config: mpich
import "C"

// Flavor names the MPI library this binary is built against.
const Flavor = "mpich"
