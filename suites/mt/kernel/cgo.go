//go:build cgo && !nompi

// Package kernel holds IMB-MT 2021.11's timed C loops (mt.h): the
// threads, pthreads made in C, each on a communicator of its own, and the
// check mode's data. The communicator comes as a Fortran handle
// (mpi.Comm.Fortran), turned back before any timing.
package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
// #cgo LDFLAGS: -lpthread
import "C"
