//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// The links kernels without MPI: they compile, and Init has failed before
// any of them could be reached.

type Links struct{}

type LinksResult struct {
	Send, Recv, Latency []float64
}

func NewLinks(c mpi.Comm, size, times, window, warm int) (*Links, error) { return nil, mpi.ErrNoMPI }

func (l *Links) Free() {}

func (l *Links) Run(dist int) (LinksResult, error) { return LinksResult{}, mpi.ErrNoMPI }
