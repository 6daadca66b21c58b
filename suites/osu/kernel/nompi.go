//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// OSU's kernels without MPI: they compile, and Init has failed before any
// of them could be reached.

func Run(c mpi.Comm, s *Spec) (mpi.OSUResult, error)      { return mpi.OSUResult{}, mpi.ErrNoMPI }
func (r *Coll) Exec(check bool) (mpi.OSUCollTimes, error) { return mpi.OSUCollTimes{}, mpi.ErrNoMPI }
func Compute(seconds float64)                             {}
func MPI4() bool                                          { return false }
func Fork(n int) ([]int, error)                           { return nil, mpi.ErrNoMPI }
func Reap(pids []int)                                     {}

// ChildSleep is osu_latency_mp's CHILD_SLEEP_SECONDS.
const ChildSleep = 2

func RunRMA(c mpi.Comm, s *RMASpec) (RMAResult, error) { return RMAResult{}, mpi.ErrNoMPI }

func RunAtom(c mpi.Comm, s *AtomSpec) (AtomResult, error) { return AtomResult{}, mpi.ErrNoMPI }

func NewGraph(comm mpi.Comm, sources, dests, blocks []int) (*Graph, float64, error) {
	return nil, 0, mpi.ErrNoMPI
}
func (g *Graph) Free() error                       { return nil }
func CartDims(comm mpi.Comm, d int) ([]int, error) { return nil, mpi.ErrNoMPI }
