// Package p2p is mpibench p2p: IMB-P2P 2021.11 (src_c/P2P of the Intel MPI
// Benchmarks), the point-to-point set with its message rate: PingPong,
// PingPing, Unirandom, Birandom, Corandom, Stencil2D, Stencil3D and
// SendRecv_Replace. It is a package of its own rather than an imb.Suite:
// IMB-P2P shares no code with IMB-MPI1; it has its own options (-iter
// max[,numerator], -msgsz, -msgwr, -msgrd, -pause), its own repetition
// rule (a number of bytes per length, no time bound, no process-count
// sweep), its own barrier, its own aggregation over ranks and its own
// output.
package p2p

import (
	"fmt"
	"strings"

	"mpibench/suites/p2p/kernel"
)

// Benchmark is one of IMB-P2P's benchmarks.
type Benchmark struct {
	Name    string
	Kind    kernel.P2PKind
	Pattern string // who talks to whom, the class column of `mpibench list`
	Calls   string // the MPI calls it is based on
	// Invalid is the line IMB-P2P prints for a process count the
	// benchmark cannot run on (its wording, which differs by benchmark).
	Invalid string
	// Figures: how the benchmark counts messages (see figures).
	Count counting
}

// counting is how IMB-P2P turns a measurement into its figures.
type counting int

const (
	// perRank: nranks·iterations messages; the latency divides the summed
	// loop times by that (PingPing, SendRecv_Replace) ...
	perRank counting = iota
	// ... or by twice that, a round trip being two messages (PingPong).
	roundTrip
	// counted: the loops count the messages each rank sent or received;
	// half their sum is the number of messages (random, stencils).
	counted
)

// Table is IMB-P2P's benchmarks in its default order (imb_p2p.c,
// initialization).
var Table = []*Benchmark{
	{Name: "PingPong", Kind: kernel.P2PPingPong, Pattern: "pairs", Calls: "MPI_Send, MPI_Recv",
		Invalid: "is invalid for %d processes", Count: roundTrip},
	{Name: "PingPing", Kind: kernel.P2PPingPing, Pattern: "pairs", Calls: "MPI_Irecv, MPI_Send, MPI_Wait",
		Invalid: "is invalid for %d processes", Count: perRank},
	{Name: "Unirandom", Kind: kernel.P2PUnirandom, Pattern: "random pairs", Calls: "MPI_Send, MPI_Recv",
		Invalid: "invalid for %d processes", Count: counted},
	{Name: "Birandom", Kind: kernel.P2PBirandom, Pattern: "random pairs", Calls: "MPI_Irecv, MPI_Send, MPI_Wait",
		Invalid: "is invalid for %d processes", Count: counted},
	{Name: "Corandom", Kind: kernel.P2PCorandom, Pattern: "random ring", Calls: "MPI_Irecv, MPI_Send, MPI_Wait",
		Invalid: "is invalid for %d processes", Count: counted},
	{Name: "Stencil2D", Kind: kernel.P2PStencil, Pattern: "2-D torus", Calls: "MPI_Irecv, MPI_Isend, MPI_Waitall",
		Invalid: "is invalid for %d processes", Count: counted},
	{Name: "Stencil3D", Kind: kernel.P2PStencil, Pattern: "3-D torus", Calls: "MPI_Irecv, MPI_Isend, MPI_Waitall",
		Invalid: "is invalid for %d processes", Count: counted},
	{Name: "SendRecv_Replace", Kind: kernel.P2PSendrecvReplace, Pattern: "ring", Calls: "MPI_Sendrecv_replace",
		Invalid: "is invalid for %d process", Count: perRank},
}

// Lookup finds a benchmark by name, case-insensitively as IMB-P2P does.
func Lookup(name string) (*Benchmark, bool) {
	for _, b := range Table {
		if strings.EqualFold(b.Name, name) {
			return b, true
		}
	}
	return nil, false
}

// Valid tells whether b runs on n processes: PingPong and PingPing need an
// even number, the stencils a grid of at least 2 in every dimension, the
// others 2 or more.
func (b *Benchmark) Valid(n int) bool {
	switch b.Name {
	case "PingPong", "PingPing":
		return n >= 2 && n%2 == 0
	case "Stencil2D":
		x, y := Grid2D(n)
		return x >= 2 && y >= 2 && x*y == n
	case "Stencil3D":
		x, y, z := Grid3D(n)
		return x >= 2 && y >= 2 && z >= 2 && x*y*z == n
	}
	return n >= 2
}

// Title is the benchmark's name in its table header: the stencils add
// their grid, slowest dimension first ("Stencil2D (2 x 2)").
func (b *Benchmark) Title(n int) string {
	switch b.Name {
	case "Stencil2D":
		x, y := Grid2D(n)
		return fmt.Sprintf("%s (%d x %d)", b.Name, y, x)
	case "Stencil3D":
		x, y, z := Grid3D(n)
		return fmt.Sprintf("%s (%d x %d x %d)", b.Name, z, y, x)
	}
	return b.Name
}

// Neighbours are rank's partners in a stencil on n processes, in IMB-P2P's
// order: -x, +x, -y, +y (, -z, +z) on a periodic grid numbered x fastest;
// nil for the other benchmarks.
func (b *Benchmark) Neighbours(rank, n int) []int {
	switch b.Name {
	case "Stencil2D":
		lx, ly := Grid2D(n)
		x, y := rank%lx, rank/lx
		at := func(x, y int) int { return lx*((y+ly)%ly) + (x+lx)%lx }
		return []int{at(x-1, y), at(x+1, y), at(x, y-1), at(x, y+1)}
	case "Stencil3D":
		lx, ly, lz := Grid3D(n)
		z := rank / (lx * ly)
		y, x := (rank-lx*ly*z)/lx, (rank-lx*ly*z)%lx
		at := func(x, y, z int) int { return lx*ly*((z+lz)%lz) + lx*((y+ly)%ly) + (x+lx)%lx }
		return []int{at(x-1, y, z), at(x+1, y, z), at(x, y-1, z), at(x, y+1, z), at(x, y, z-1), at(x, y, z+1)}
	}
	return nil
}

// Grid2D is IMB-P2P's 2-D grid for n processes (imb_p2p_stencil2d.c): the
// smallest square of side >= 2 holding n, then, when larger, y the
// largest divisor of n up to its side and x = n/y. The caller checks that
// x·y = n and both are at least 2.
func Grid2D(n int) (x, y int) {
	x, y = 2, 2
	for x*y < n {
		x, y = x+1, y+1
	}
	if x*y > n {
		for y > 1 && n%y != 0 {
			y--
		}
		x = n / y
	}
	return x, y
}

// Grid3D is IMB-P2P's 3-D grid (imb_p2p_stencil3d.c): the smallest cube
// of side >= 2 holding n; while larger than n, z steps down to the next
// divisor of n and the other two become Grid2D of n/z, kept only while y
// is at least z.
func Grid3D(n int) (x, y, z int) {
	x, y, z = 2, 2, 2
	for x*y*z < n {
		x, y, z = x+1, y+1, z+1
	}
	for x*y*z > n {
		z--
		for z > 1 && n%z != 0 {
			z--
		}
		m := 0
		if z != 0 {
			m = n / z
		}
		lx, ly := Grid2D(m)
		if ly >= z {
			x, y = lx, ly
		}
	}
	return x, y, z
}
