//go:build cgo && !nompi

package kernel

// #include "nbc.h"
import "C"

// PersistAPI names the persistent collectives this binary calls, decided
// when it was compiled (mpi4.c): "MPI" for MPI 4.0's MPI_Bcast_init ...,
// "MPIX" for Open MPI's extension MPIX_Bcast_init ..., "" for none.
func PersistAPI() string {
	if noPersist != "" {
		return ""
	}
	return C.GoString(C.mb_nbc_persist_api())
}
