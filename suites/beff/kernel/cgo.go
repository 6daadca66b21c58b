//go:build cgo && !nompi

// Package kernel holds the timed C loop of mpibench beff (beff.h): one
// b_eff pattern of send-receive steps executed looplength times with one
// of b_eff's three methods, between two MPI_Wtime calls, with its data
// check, and the reduction of the times over the ranks. It is a cgo
// package of its own: the communicator comes as a Fortran handle
// (mpi.Comm.Fortran), turned back when a pattern is made, and buffers as
// pointers; the C shares package mpi's headers and C (chk.h, mutant.h,
// pattern.h).
package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
import "C"
