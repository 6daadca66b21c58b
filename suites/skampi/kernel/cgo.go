//go:build cgo && !nompi

// Package kernel holds the timed C loops of mpibench skampi (skampi.h):
// one measurement of one operation of a SKaMPI pattern (ping-pong,
// collective, master-worker, simple) with its MPI_Wtime pair, the
// ping-pong survey of all pairs, and the window-synchronised loop of the
// collectives (mpi/window.h, on the arrays of an mpi.WinLoop). It is a cgo
// package of its own: the communicator comes as a Fortran handle
// (mpi.Comm.Fortran), turned back when a case is made, buffers as
// pointers and the window loop as its mb_win (mpi.WinLoop.Ptr); the C
// shares package mpi's headers and C (chk.h, mutant.h, window.h).
package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
import "C"
