//go:build cgo && !nompi

// Package kernel holds the timed C loops of mpibench links (links.h) and
// their Go side. It is a cgo package of its own: the communicator comes as
// a Fortran handle (mpi.Comm.Fortran), and the C shares package mpi's
// headers and C (chk.h, mutant.h).
package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
import "C"
