package imb

import "mpibench/mpi"

// The settings.h values of IMB's standard mode (section 5.2.1). The issue
// fixes OVERALL_VOL at 40 MiB, which gives the sample tables' counts
// (65536 B → 640 repetitions, 4 MiB → 10).
const (
	MinMsgLog     = 0
	MaxMsgLog     = 22
	MsgsPerSample = 1000
	OverallVol    = 40 << 20
	NWarmup       = 2
	NBarr         = 2
	MaxMsg        = 1 << MaxMsgLog
)

// Repetitions is n_sample for a message of x bytes (section 5.2.8):
// MSGSPERSAMPLE for x = 0, else max(1, min(MSGSPERSAMPLE, OVERALL_VOL/x)).
func Repetitions(x int) int {
	if x == 0 {
		return MsgsPerSample
	}
	return max(1, min(MsgsPerSample, OverallVol/x))
}

// DefaultLengths are the standard message lengths for a length unit:
// 0, then max(unit, 2^MINMSGLOG) doubling up to 2^MAXMSGLOG.
func DefaultLengths(unit int) []int {
	lens := []int{0}
	for x := roundUp(1<<MinMsgLog, unit); x <= MaxMsg; x *= 2 {
		lens = append(lens, x)
	}
	return lens
}

// AdjustLengths applies IMB's rules to user lengths (-msglen): a length
// above 2^MAXMSGLOG is truncated to it, and every length is rounded up to
// the unit (4 bytes for reductions). It returns the truncated lengths so the
// caller can report them as IMB does.
func AdjustLengths(user []int, unit int) (lens []int, truncated []int) {
	maxMsg := MaxMsg / unit * unit
	for _, x := range user {
		if x > maxMsg {
			truncated = append(truncated, x)
			x = maxMsg
		}
		lens = append(lens, roundUp(x, unit))
	}
	return lens, truncated
}

func roundUp(x, unit int) int { return (x + unit - 1) / unit * unit }

// ProcessCounts lists the active process counts Q for P processes and
// -npmin pmin (sections 5.1.1, 5.1.2.2): Pmin, 2Pmin, 4Pmin, ..., the
// largest 2^x·Pmin below P, then P. Pmin > P counts as P. Single transfers
// run on Q = 2 only (Q = 1 when P = 1, which the driver reports as invalid).
func ProcessCounts(p, pmin int, class Class) []int {
	if class == SingleTransfer {
		return []int{min(2, p)}
	}
	var qs []int
	for q := max(1, min(p, pmin)); ; q = min(2*q, p) {
		qs = append(qs, q)
		if q >= p {
			return qs
		}
	}
}

// MapOrder gives each world rank its position in the -map PxQ numbering
// (section 5.1.2.6): ranks fill the columns of a P-row matrix, and the
// matrix is read row by row. With px or py of 1 the order is the identity.
func MapOrder(size, px, py int) []int {
	order := make([]int, size)
	if px <= 1 || py <= 1 {
		for w := range order {
			order[w] = w
		}
		return order
	}
	next := 0
	for i := 0; i < px; i++ {
		for j := 0; j < py; j++ {
			if w := i + j*px; w < size {
				order[w] = next
				next++
			}
		}
	}
	return order
}

// Layout returns the groups of world ranks that run a benchmark on q active
// processes, each group in communicator-rank order. Primary mode has one
// group: the first q ranks of the map order. Multi mode has size/q disjoint
// groups of q consecutive positions; the remaining ranks are idle.
func Layout(size, q int, order []int, multi bool) [][]int {
	byPos := make([]int, size)
	for w, pos := range order {
		byPos[pos] = w
	}
	ngroups := 1
	if multi {
		ngroups = size / q
	}
	groups := make([][]int, ngroups)
	for g := range groups {
		groups[g] = append([]int(nil), byPos[g*q:(g+1)*q]...)
	}
	return groups
}

// Color is the MPI_Comm_split color of world rank w in a Layout: the group
// index, or -1 (MPI_UNDEFINED) for an idle rank. The key is order[w].
func Color(w, q int, order []int, multi bool, size int) int {
	pos := order[w]
	if !multi {
		if pos < q {
			return 0
		}
		return -1
	}
	if g := pos / q; g < size/q {
		return g
	}
	return -1
}

// ScatterCounts splits l items over np ranks as Reduce_scatter does
// (section 3.3.4.2): with l = r·np + s, rank i gets r+1 items when i < s.
func ScatterCounts(l, np int) []int {
	r, s := l/np, l%np
	counts := make([]int, np)
	for i := range counts {
		counts[i] = r
		if i < s {
			counts[i]++
		}
	}
	return counts
}

// BufferSizes are the send and receive buffer sizes in bytes a benchmark
// needs for message length x on q processes.
func BufferSizes(b *Benchmark, x, q int) (send, recv int) {
	switch b.Kernel {
	case mpi.Exchange:
		return 2 * x, 2 * x
	case mpi.Allgather, mpi.Allgatherv:
		return x, q * x
	case mpi.Alltoall, mpi.Alltoallv:
		return q * x, q * x
	case mpi.Barrier:
		return 0, 0
	}
	return x, x
}
