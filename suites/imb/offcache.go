package imb

import (
	"slices"

	"mpibench/suites/imb/kernel"
)

// -off_cache as IMB 2021.11 lays the buffers out
// (helper_IMB_functions.h, IMB_init_buffers_iter, "new memory management
// for -off_cache"; src_c/IMB_mem_manager.c is the same): for a buffer of
// n bytes at a length, slots of offs = (ceil(n/line) + 1)·line bytes, so
// that a message starts at least a line after the end of the one before;
// iter = min(n_sample, ceil(2·SIZE MB / offs)) of them, about twice the
// cache; repetition i sends from send slot i mod iter and receives into
// receive slot i mod iter (IMB_pingpong.c ...; Uniband and Biband: the
// window's message w takes slot w, IMB_bandwidth.c). n_sample is the count
// before the -time rule (reps2021), and n is the buffer of the length, at
// least 4 bytes (IMB: init_size = max(size, sizeof(assign_type))). Barrier
// (IMB's Sync type) has none. IMB fills every slot with the first one's
// content; mpibench fills the whole buffer with its pattern.
//
// mpibench's n is the buffer a benchmark's loop uses (BufferSizes): IMB
// sizes Exchange's receive slots from one message (MPI1_benchmark.cpp,
// RECVBUF_SIZE_I) though two land there, so its slots overlap;
// mpibench's are two messages long.

// cacheSlots is iter and offs for a buffer of n bytes.
func (t *Types2021) cacheSlots(n, nSample int) (iter, offs int) {
	line := t.CacheLine
	offs = ((n+line-1)/line + 1) * line
	// IMB computes (2*cache_size*CACHE_UNIT+ofs-1)/ofs in float, cache_size
	// being a float: each step rounded to a float here too.
	v := float32(2) * t.CacheMB
	v = float32(v * cacheUnit)
	v = float32(v + float32(offs))
	v = float32(v - 1)
	v = float32(v / float32(offs))
	if v >= float32(nSample) {
		return nSample, offs
	}
	return max(int(v), 1), offs
}

// slots is the -off_cache layout of b at x bytes on q processes, nSample
// repetitions before the -time rule; zero when off.
func (f *Flags2021) slots(b *Benchmark, x, q, nSample int) kernel.Slots {
	if f.Types.CacheMB <= 0 || b.NoBytes {
		return kernel.Slots{}
	}
	s, r := f.bufferSizes(b, max(x, 4), q)
	var sl kernel.Slots
	sl.SIter, sl.SOffs = f.Types.cacheSlots(s, nSample)
	sl.RIter, sl.ROffs = f.Types.cacheSlots(r, nSample)
	return sl
}

// bufferSizes are BufferSizes under IMB 2021's definitions: its
// Reduce_scatter reduces Q·X bytes.
func (f *Flags2021) bufferSizes(b *Benchmark, x, q int) (send, recv int) {
	if b.RMA != nil || b.RMA3 != nil {
		return oneSidedSizes(b, x)
	}
	s, r := BufferSizes(b, x, q)
	if f.rsBlock(b) {
		s = q * x
	}
	return s, r
}

// caseBuffers are the send and receive buffer sizes of a case that runs
// lens: those of the longest length, or under -off_cache the largest of
// every length's slots.
func (f *Flags2021) caseBuffers(b *Benchmark, set *Settings, lens []int, q int) (send, recv int) {
	send, recv = f.bufferSizes(b, slices.Max(lens), q)
	if f.Types.CacheMB <= 0 {
		return send, recv
	}
	for _, x := range lens {
		sl := f.slots(b, x, q, f.reps2021(set, b, x, NoMode, q))
		send, recv = max(send, sl.SIter*sl.SOffs), max(recv, sl.RIter*sl.ROffs)
	}
	return send, recv
}

// IMB-EXT and IMB-RMA 2021.11 under -off_cache: n_sample, and so the
// slots, depend on the mode (helper_IMB_functions.h, IMB_init_buffers_iter
// step 1: x_sample is MSGSPERSAMPLE in aggregate mode, MSGS_NONAGGR
// otherwise); the window is acc_size = max(s_alloc, r_alloc) bytes (step 3,
// :524-525, and :583 IMB_init_transfer), so that it covers every slot:
// IMB_init_transfer.c creates it on r_buffer for put access, on s_buffer
// for get access. The kernels: kernel/rma.c (ext), kernel/rma3.c (rma).

// oneSidedSizes are s_len and r_len of a one-sided benchmark at x bytes
// (EXT_benchmark.cpp and RMA_benchmark.cpp: SENDBUF_SIZE_I and
// RECVBUF_SIZE_I; Exchange_put and Exchange_get 2I both; Compare_and_swap
// RECVBUF_SIZE_3I).
func oneSidedSizes(b *Benchmark, x int) (send, recv int) {
	switch {
	case b.RMA3 == nil:
		return x, x
	case b.RMA3.Flow == kernel.RMA3Exch:
		return 2 * x, 2 * x
	case b.RMA3.Op == kernel.RMA3CAS:
		return x, 3 * x
	}
	return x, x
}

// modeSlots is the -off_cache layout of b at x bytes in mode m.
func (f *Flags2021) modeSlots(b *Benchmark, set *Settings, x, q int, m Mode) kernel.Slots {
	return f.slots(b, x, q, f.reps2021(set, b, x, m, q))
}

// slotBytes is IMB's acc_size of a layout: max(s_alloc, r_alloc), 0 when
// off (a slot is longer than the message, so s_alloc = s_iter·s_offs).
func slotBytes(sl kernel.Slots) int { return max(sl.SIter*sl.SOffs, sl.RIter*sl.ROffs) }

// oneSidedAlloc is the largest acc_size of b's lengths and modes, 0 when
// -off_cache is off.
func (f *Flags2021) oneSidedAlloc(b *Benchmark, set *Settings, lens []int, q int) int {
	return largestWindow(b, lens, func(x int, m Mode) int { return slotBytes(f.modeSlots(b, set, x, q, m)) })
}
