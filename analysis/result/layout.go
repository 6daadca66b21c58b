package result

import "slices"

// Records version 2 describe a record's groups instead of listing them
// rank by rank (docs/records.md): a reader rebuilds them from the world
// size (the header's context), np (Q), map and multi with IMB's rules
// below, which every suite that fills groups follows for its collective
// layouts (IMB, p2p, osu and SKaMPI: the first np ranks in order). A
// writer leaves groups out of a line only when that rebuilds them
// exactly; pairs (links, SKaMPI's ping-pong) are written as they are.

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

// describesGroups says whether records like r always carry groups, so
// that a version 2 line without them means "as described" rather than
// "none" (b_eff, b_eff_io and PGMPI records have none, nor the per-rank
// records of links).
func describesGroups(r *Record) bool {
	switch r.Suite {
	case SuiteBeff, SuiteBeffIO, SuitePGMPI, "":
		return false
	}
	return r.Links == nil
}

// describedGroups are the groups a record's description gives on a world
// of procs ranks; nil when the description cannot hold (no processes,
// more active processes than the world, a map that is not the world).
func describedGroups(r *Record, procs int) [][]int {
	q := r.NProcs
	if q < 1 || procs < q {
		return nil
	}
	px, py := 0, 0
	if len(r.Map) == 2 {
		px, py = r.Map[0], r.Map[1]
		if px < 2 || py < 2 || px*py != procs {
			return nil
		}
	}
	return Layout(procs, q, MapOrder(procs, px, py), r.Multi >= 0)
}

// groupsDescribed says whether a line may leave r's groups out: its
// description gives them back exactly.
func groupsDescribed(r *Record) bool {
	if !describesGroups(r) || r.Groups == nil {
		return false
	}
	d := describedGroups(r, r.Context.Procs)
	return d != nil && slices.EqualFunc(d, r.Groups, slices.Equal)
}
