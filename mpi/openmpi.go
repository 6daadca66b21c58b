//go:build cgo && !mpich && !nompi

package mpi

// #cgo pkg-config: ompi-c
import "C"

// Flavor names the MPI library this binary is built against.
const Flavor = "openmpi"
