//go:build !cgo || nompi

package mpi

// The IMB-RMA loops without MPI: never reached (Init fails first).

func (r *RMA3Run) Exec(check bool) (RMA3Times, error) { return RMA3Times{}, ErrNoMPI }
