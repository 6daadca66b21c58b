//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// Clock synchronisation without MPI: it compiles, and Init has failed
// before any of it could be reached.

func Pair(c mpi.Comm, peer int, client bool, n, m int, model [3]float64) (x, off, rtt []float64, ref [3]float64, err error) {
	return nil, nil, nil, ref, mpi.ErrNoMPI
}
func Max(c mpi.Comm, v []float64) error   { return mpi.ErrNoMPI }
func Bcast(c mpi.Comm, v []float64) error { return mpi.ErrNoMPI }
