//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// The SKaMPI kernels without MPI: they compile, and Init has failed
// before any of them could be reached.

type Case struct{}

func NewCase(c mpi.Comm, op Op, maxLen, work int) (*Case, error) { return nil, mpi.ErrNoMPI }
func (sc *Case) Free() error                                     { return nil }
func (sc *Case) Sample() (float64, error)                        { return 0, mpi.ErrNoMPI }
func (sc *Case) SetLen(n int) error                              { return mpi.ErrNoMPI }
func (sc *Case) NoBarrier()                                      {}
func (sc *Case) Window(l *mpi.WinLoop) error                     { return mpi.ErrNoMPI }

func Survey(c mpi.Comm, reps int) (int, int, float64, error) { return 0, 0, 0, mpi.ErrNoMPI }
func Decide(c mpi.Comm, stop bool) (bool, error)             { return false, mpi.ErrNoMPI }
func ToRank0(c mpi.Comm, b []byte, from int) ([]byte, error) { return nil, mpi.ErrNoMPI }

func SurveyPartner(rank, r, p int) int { return -1 }
