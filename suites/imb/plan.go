package imb

import (
	"mpibench/analysis/result"
	"mpibench/suites/imb/kernel"
)

// MapOrder is IMB's -map numbering (result.MapOrder, where readers of
// records rebuild a record's groups from its description).
func MapOrder(size, px, py int) []int { return result.MapOrder(size, px, py) }

// Layout is IMB's groups of world ranks for q active processes
// (result.Layout).
func Layout(size, q int, order []int, multi bool) [][]int {
	return result.Layout(size, q, order, multi)
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
	if b.NBC != nil {
		return nbcBufferSizes(b.NBC.Kind, x, q)
	}
	if s, r, ok := sizes2021(b.Kernel, x, q); ok {
		return s, r
	}
	switch b.Kernel {
	case kernel.Exchange:
		return 2 * x, 2 * x
	case kernel.Allgather, kernel.Allgatherv:
		return x, q * x
	case kernel.Alltoall, kernel.Alltoallv:
		return q * x, q * x
	case kernel.Barrier:
		return 0, 0
	}
	return x, x
}
