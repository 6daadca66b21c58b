//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// The IMB-RMA loops without MPI: never reached (Init fails first).

func (r *RMA3Run) Exec(check bool) (RMA3Times, error) { return RMA3Times{}, mpi.ErrNoMPI }
