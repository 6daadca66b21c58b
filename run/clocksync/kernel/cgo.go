//go:build cgo && !nompi

// Package kernel holds the C of clock synchronisation (clocksync.h): the
// timed ping-pong exchanges from which a client rank's clock model
// against its reference is fitted, and the two reductions of doubles the
// synchronisation and the window loop's schedule use. It is a cgo package
// of its own, below package clocksync, so that clocksync's fit and models
// stay plain Go: the communicator comes as a Fortran handle
// (mpi.Comm.Fortran), turned back before the exchanges; the C shares
// package mpi's headers and C (chk.h, mutant.h: the clock MB_WTIME).
package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
import "C"
