//go:build cgo && !nompi

package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
// #cgo LDFLAGS: -lm
// #include "handle.h"
import "C"

import "mpibench/mpi"

// The handles of a run, in this package's C types: converted from their
// Fortran handles when the run is set up, outside any timed region.

func comm(c mpi.Comm) C.MPI_Comm { return C.mb_comm_f2c(C.int(c.Fortran())) }

func win(w mpi.Win) C.MPI_Win { return C.mb_win_f2c(C.int(w.Fortran())) }

func file(f *mpi.File) C.MPI_File { return C.mb_file_f2c(C.int(f.Fortran())) }

// cBool is b as a C int.
func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
