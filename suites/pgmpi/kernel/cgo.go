//go:build cgo && !nompi

// Package kernel holds the timed C loops of mpibench pgmpi (pgmpi.h): the
// MPI collectives of the PGMPI performance guidelines and their mock-ups,
// one execution over prepared buffers, each repetition timed alone after
// a barrier and reduced to the slowest rank's time. It is a cgo package
// of its own: the communicator comes as a Fortran handle
// (mpi.Comm.Fortran), turned back when a case is made, and buffers as
// pointers; the C shares package mpi's headers and C (chk.h, mutant.h).
package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
import "C"
