//go:build cgo && !nompi

// Package kernel holds the timed C loops of mpibench beffio (beffio.h):
// b_eff_io's opens and closes between barriers, the file views of its
// five pattern types, and the repeated MPI-IO call of one pattern with
// its time check, MPI_File_sync and data check. It is a cgo package of
// its own: the communicator comes as a Fortran handle (mpi.Comm.Fortran),
// turned back when a file is opened, and buffers as pointers; the C
// shares package mpi's headers and C (chk.h, io.h's halt, mutant.h,
// pattern.h).
package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
import "C"
