package skampi

import (
	"mpibench/mpi"
	"mpibench/suites/skampi/kernel"
)

// firstRanks is a communicator of the first p ranks of c, in rank order
// (MPI_Comm_split); MPI_COMM_NULL on the others. Collective over c.
func firstRanks(c mpi.Comm, p int) (mpi.Comm, error) {
	color := -1
	if c.Rank() < p {
		color = 0
	}
	return c.Split(color, c.Rank())
}

// pairOf is a communicator of ranks a (rank 0) and b (rank 1) of c;
// MPI_COMM_NULL on the others. Collective over c.
func pairOf(c mpi.Comm, a, b int) (mpi.Comm, error) {
	switch c.Rank() {
	case a:
		return c.Split(0, 0)
	case b:
		return c.Split(0, 1)
	}
	return c.Split(-1, 0)
}

// decide is the stop vote of the patterns timed on rank 0 of c: rank 0's
// vote, broadcast (kernel.Decide).
func decide(c mpi.Comm) func(stop bool) (bool, error) {
	return func(stop bool) (bool, error) { return kernel.Decide(c, stop) }
}
