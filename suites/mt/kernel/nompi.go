//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// IMB-MT's kernels without MPI: they compile, and Init has failed before
// any of them could be reached.

type Team struct{}

func NewTeam(world mpi.Comm, s Setup) (*Team, error) { return nil, mpi.ErrNoMPI }
func (tm *Team) Free()                               {}
func (tm *Team) Run(k Case) ([]Result, error)        { return nil, mpi.ErrNoMPI }
