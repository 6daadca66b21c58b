//go:build !cgo || nompi

package mpi

// The IMB-RMA loops without MPI: never reached (Init fails first).

func (r *RMA3Run) Exec(check bool) (float64, int, error) { return 0, 0, ErrNoMPI }
