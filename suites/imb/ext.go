package imb

import "mpibench/suites/imb/kernel"

// RMASpec describes an IMB-EXT benchmark's one-sided pattern.
type RMASpec struct {
	Op   kernel.RMAOp // the elementary transfer
	Flow RMAFlow      // which ranks transfer, and to whom
}

// RMAFlow is who issues the transfers of an IMB-EXT benchmark.
type RMAFlow int

// The flows of section 4.2.3.
const (
	RMAOneWay      RMAFlow = iota // Unidir: one origin, its partner only takes part in the fences
	RMATwoWay                     // Bidir: both ranks of the pair transfer at once
	RMAToRoot                     // Accumulate: every rank into the window of rank 0
	RMAWindowCycle                // Window: the window's life cycle, no transfer loop
)

// extModes are the tables of the transfer benchmarks, in IMB's order: its
// first run mode is aggregate, its second non-aggregate.
var extModes = []Mode{Aggregate, NonAggregate}

// EXT is the IMB-EXT benchmark table, in the order IMB runs its default
// list (IMB_bnames_ext.h; Table 1 of the guide lists Unidir_Put first).
// Classes and factors are IMB's: single transfers report X/t, Accumulate
// and Window are IMB collectives without throughput. IMB marks Window as a
// reduction, so its lengths, like Accumulate's, are multiples of
// sizeof(float).
var EXT = []Benchmark{
	{Name: "Window", Class: Collective, Calls: "MPI_Win_create, MPI_Win_fence, MPI_Put, MPI_Win_free",
		Reduction: true, TimeScale: 1, RMA: &RMASpec{Flow: RMAWindowCycle}},
	{Name: "Unidir_Get", Class: SingleTransfer, Calls: "MPI_Get, MPI_Win_fence", Factor: 1, TimeScale: 1,
		Modes: extModes, RMA: &RMASpec{Op: kernel.RMAGet, Flow: RMAOneWay}},
	{Name: "Unidir_Put", Class: SingleTransfer, Calls: "MPI_Put, MPI_Win_fence", Factor: 1, TimeScale: 1,
		Modes: extModes, RMA: &RMASpec{Op: kernel.RMAPut, Flow: RMAOneWay}},
	{Name: "Bidir_Get", Class: SingleTransfer, Calls: "MPI_Get, MPI_Win_fence", Factor: 1, TimeScale: 1,
		Modes: extModes, RMA: &RMASpec{Op: kernel.RMAGet, Flow: RMATwoWay}},
	{Name: "Bidir_Put", Class: SingleTransfer, Calls: "MPI_Put, MPI_Win_fence", Factor: 1, TimeScale: 1,
		Modes: extModes, RMA: &RMASpec{Op: kernel.RMAPut, Flow: RMATwoWay}},
	{Name: "Accumulate", Class: Collective, Calls: "MPI_Accumulate, MPI_Win_fence", Reduction: true, TimeScale: 1,
		Modes: extModes, RMA: &RMASpec{Op: kernel.RMAAccumulate, Flow: RMAToRoot}},
}

// target is the rank whose window the transfers of rank r go to, or -1
// when r only takes part in the fences. As in IMB, data of the Unidir
// benchmarks always moves from rank 0 to rank 1: Unidir_Put has rank 0
// put into rank 1's window, Unidir_Get has rank 1 get from rank 0's.
func (s *RMASpec) target(r int) int {
	switch s.Flow {
	case RMAOneWay:
		if s.Op == kernel.RMAPut && r == 0 {
			return 1
		}
		if s.Op == kernel.RMAGet && r == 1 {
			return 0
		}
	case RMATwoWay:
		if r == 0 || r == 1 {
			return 1 - r
		}
	case RMAToRoot:
		return 0
	}
	return -1
}

// source is the rank whose pattern rank r holds after a Put or Get run
// (in its window after a Put, in its origin buffer after a Get), or -1
// when nothing arrives at r. It restates the flow without target, so that
// a wrong target shows as defects: Unidir delivers rank 0's data to rank
// 1, Bidir delivers each rank's data to the other.
func (s *RMASpec) source(r int) int {
	switch {
	case s.Flow == RMAOneWay && r == 1:
		return 0
	case s.Flow == RMATwoWay && (r == 0 || r == 1):
		return 1 - r
	}
	return -1
}

// openFence: IMB's aggregate Put and Get kernels call MPI_Win_fence once
// more before their barriers; its non-aggregate kernels and Accumulate
// start from the fence that opened the window.
func (s *RMASpec) openFence(m Mode) bool {
	return m == Aggregate && s.Op != kernel.RMAAccumulate
}

// rmaSections is M of section 4.2.2.2, the transfers one completion
// covers: n_sample in aggregate mode, 1 otherwise.
func rmaSections(set *Settings, x int, m Mode) int {
	if m == Aggregate {
		return set.Repetitions(x, m)
	}
	return 1
}

// rmaOffset is the byte offset of transfer i of x bytes, the same in the
// origin buffer and in the target window. Aggregate transfers go to
// disjoint consecutive sections (IMB 3.0 has no cache offsets); a
// non-aggregate transfer is completed before the next, so every one uses
// the window's only section, at 0.
func rmaOffset(i, x int, m Mode) int {
	if m == Aggregate {
		return i * x
	}
	return 0
}

// rmaWindowSize is the window of length x in mode m: its M sections. The
// Window benchmark's window is x bytes (section 4.2.3.6).
func rmaWindowSize(set *Settings, x int, m Mode) int {
	return rmaSections(set, x, m) * x
}

// rmaBufferSize is the size of each of the two buffers of a case: the
// largest window it opens, at most max(X, OVERALL_VOL) (section 7.1).
func rmaBufferSize(b *Benchmark, set *Settings, lens []int) int {
	return largestWindow(b, lens, func(x int, m Mode) int { return rmaWindowSize(set, x, m) })
}

// largestWindow is the largest size(x, m) over the lengths lens and the
// modes of b.
func largestWindow(b *Benchmark, lens []int, size func(x int, m Mode) int) int {
	modes := b.Modes
	if modes == nil {
		modes = []Mode{NoMode}
	}
	n := 0
	for _, x := range lens {
		for _, m := range modes {
			n = max(n, size(x, m))
		}
	}
	return n
}

// IMB-EXT 2021.11 (-imb 2021) places every transfer at offset 0 of the
// origin buffer and of the target window, in both modes: its offsets are
// i % cache_iter * offs, and without -off_cache cache_iter = 1 and
// offs = 0 (IMB_ones_unidir.c, IMB_ones_bidir.c, IMB_ones_accu.c;
// IMB_mem_manager.c, IMB_init_buffers_iter). Its window is the larger
// message buffer, max(X, sizeof(assign_type) = 4) bytes
// (IMB_init_transfer.c, acc_size), where IMB 3.0's aggregate window holds
// n_sample disjoint sections.

// rmaWindowSize2021 is IMB 2021.11's window of length x.
func rmaWindowSize2021(x int) int { return max(x, 4) }

// rmaBufferSize2021 is the buffer of the largest window of lens.
func rmaBufferSize2021(lens []int) int {
	n := 0
	for _, x := range lens {
		n = max(n, rmaWindowSize2021(x))
	}
	return n
}
