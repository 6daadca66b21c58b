//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// The PGMPI kernels without MPI: they compile, and Init has failed before
// any of them could be reached.

type Case struct{}

func NewCase(c mpi.Comm, call Call, count int, bcastIn bool) (*Case, error) {
	return nil, mpi.ErrNoMPI
}
func (pc *Case) Call() error                  { return mpi.ErrNoMPI }
func (pc *Case) Free()                        {}
func (pc *Case) Output() []int32              { return nil }
func (pc *Case) Run(n int) ([]float64, error) { return nil, mpi.ErrNoMPI }
