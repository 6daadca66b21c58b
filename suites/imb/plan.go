package imb

import (
	"slices"

	"mpibench/suites/imb/kernel"
)

// MapOrder gives each world rank its position in the -map PxQ numbering
// (section 5.1.2.6): ranks fill the columns of a P-row matrix, and the
// matrix is read row by row. With px or py of 1 the order is the identity.
// IMB 2021.11 computes the same order as its MPI_Comm_split key
// (IMB_init.c, IMB_set_communicator: key = py·w mod (px·py − 1), 0 taken
// as w), which equals the position whenever px·py is the job size, as
// mpibench requires.
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
// groups of q consecutive positions (the group of positions g·q … g·q+q−1
// has the split color g); the remaining ranks are idle.
//
// The groups are listed, and numbered in the tables and records, as
// IMB-MPI1 numbers them: by the world rank of each group's leader (its
// communicator rank 0). IMB 2021.11 (IMB_init.c, IMB_init_communicator)
// has world rank 0 collect the groups' ranks, its own group first, then
// the leaders' in the order of world ranks 1, 2, …, and prints them as
// "Group 0", "Group 1", … (IMB_output.c, IMB_show_procids) and in the
// Group column of -multi 1. With -map 2x3 on 6 processes PingPong's
// groups by color are {0 2}, {4 1}, {3 5}; IMB lists Group 0: 0 2,
// Group 1: 3 5, Group 2: 4 1. Without -map both orders agree.
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
	slices.SortFunc(groups, func(a, b []int) int { return a[0] - b[0] })
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
