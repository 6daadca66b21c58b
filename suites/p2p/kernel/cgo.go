//go:build cgo && !nompi

package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
import "C"
