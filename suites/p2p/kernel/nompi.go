//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// IMB-P2P's kernels without MPI: they compile, and Init has failed before
// any of them could be reached.

type P2PKind int

const (
	P2PPingPong P2PKind = iota
	P2PPingPing
	P2PUnirandom
	P2PBirandom
	P2PCorandom
	P2PStencil
	P2PSendrecvReplace
)

const P2PMaxNeighbours = 6

type P2PCase struct{}

type P2PResult struct {
	Time     float64
	Messages int
	Defects  int
}

func NewP2PCase(c mpi.Comm, kind P2PKind, maxLen int, nbr []int, touchSend, touchRecv bool, pauseUsec int) (*P2PCase, error) {
	return nil, mpi.ErrNoMPI
}

func (p *P2PCase) Free() {}

func (p *P2PCase) Run(size, iters, warm int, check bool) (P2PResult, error) {
	return P2PResult{}, mpi.ErrNoMPI
}
