//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// The b_eff kernel without MPI: it compiles, and Init has failed before
// any of it could be reached.

type Pattern struct{}

func NewPattern(c mpi.Comm, to, from []int, slot int) (*Pattern, error) { return nil, mpi.ErrNoMPI }
func (p *Pattern) Free()                                                {}
func (p *Pattern) SetLen(l int) error                                   { return mpi.ErrNoMPI }
func (r *Run) Exec() (float64, int64, error)                            { return 0, 0, mpi.ErrNoMPI }

func Times(c mpi.Comm, t float64, bad int64) (tmax, tmin, tavg float64, defects int64, err error) {
	return 0, 0, 0, 0, mpi.ErrNoMPI
}
