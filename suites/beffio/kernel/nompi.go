//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// The b_eff_io kernels without MPI: they compile, and Init has failed
// before any of them could be reached.

type File struct{}

func Open(c mpi.Comm, self bool, name string, access int) (*File, float64, error) {
	return nil, 0, mpi.ErrNoMPI
}
func (f *File) Close() (float64, error)                       { return 0, mpi.ErrNoMPI }
func (f *File) Exec(p Pattern) (Result, error)                { return Result{}, mpi.ErrNoMPI }
func (f *File) SetView(typ, n, rank, l int, disp int64) error { return mpi.ErrNoMPI }
