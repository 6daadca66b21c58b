package imb

import (
	"slices"

	"mpibench/mpi"
	"mpibench/suites/imb/kernel"
)

// rma3Case runs one IMB-RMA benchmark on one process count. Every sample
// creates its window and frees it inside one C call (kernel/rma3.c), as IMB
// creates the window for every length (IMB_init_transfer.c): the put
// benchmarks expose the receive buffer, the get benchmarks the send
// buffer, both bytes (disp_unit 1).
type rma3Case struct {
	*caseEnv
	origin, window mpi.Buffer // the timed runs' buffers, for the longest length
}

func newRMA3Case(env *caseEnv) runner { return &rma3Case{caseEnv: env} }

func (c *rma3Case) active() bool { return !c.comm.Null() }

// setup allocates the timed runs' buffers: every repetition moves its
// bytes at offset 0, as IMB does without -off_cache; with it IMB's
// acc_size of the largest layout (offcache.go).
func (c *rma3Case) setup() error {
	if !c.active() {
		return nil
	}
	var err error
	n := max(c.b.RMA3.Flow.Blocks()*slices.Max(c.lens), c.f21.oneSidedAlloc(c.b, c.set, c.lens, c.q))
	c.origin, c.window, err = rma3Buffers(n)
	for _, buf := range []mpi.Buffer{c.origin, c.window} {
		if err != nil {
			break
		}
		if c.b.Reduction { // floats that sum without NaN or denormals
			mpi.PatternFloats(buf.Float32s(), c.comm.Rank(), 0, 0)
		} else {
			mpi.PatternBytes(buf.Bytes(), c.comm.Rank(), 0, 0)
		}
	}
	return err
}

func rma3Buffers(n int) (origin, window mpi.Buffer, err error) {
	if origin, err = mpi.Alloc(n); err != nil {
		return origin, window, err
	}
	if window, err = mpi.Alloc(n); err != nil {
		origin.Free()
	}
	return origin, window, err
}

// rma3Need is what a rank of an rma3Case allocates: the timed buffers
// and, in -check mode, a sample's slot buffers at the largest IMB count
// (-time only lowers it).
func rma3Need(f *Flags2021, b *Benchmark, set *Settings, q int, lens []int, check bool) int {
	need := 2 * max(b.RMA3.Flow.Blocks()*slices.Max(lens), f.oneSidedAlloc(b, set, lens, q))
	if !check {
		return need
	}
	most, modes := 0, []Mode{NoMode}
	if f.Types.CacheMB > 0 { // the slots depend on the mode
		modes = append(slices.Clone(b.Modes), NoMode)
	}
	for _, x := range lens {
		for _, m := range modes {
			sl := f.modeSlots(b, set, x, q, m)
			most = max(most, rma3CheckBytes(b, sl, set.Repetitions(x, m), q, x))
		}
	}
	return need + 2*most
}

// rma3CheckBytes is what each buffer of a checked run of n repetitions at
// x bytes on q processes holds (kernel/rma3.h, mb_rma3_span): a slot of x
// bytes per repetition, rank and block, or under -off_cache a page of
// IMB's acc_size (rounded up to whole floats) per m = min(s_iter, r_iter)
// repetitions (Truly_passive_put: 2n, its two loops) and rank.
func rma3CheckBytes(b *Benchmark, sl kernel.Slots, n, q, x int) int {
	if sl.SIter == 0 {
		return n * q * x * b.RMA3.Flow.Blocks()
	}
	if b.RMA3.Flow == kernel.RMA3Truly {
		n *= 2
	}
	m := min(sl.SIter, sl.RIter)
	return (n + m - 1) / m * q * ((slotBytes(sl) + 3) / 4 * 4)
}

func (c *rma3Case) free() error {
	c.origin.Free()
	c.window.Free()
	return nil
}

// warmReps is IMB_warm_up.c's repetition count before every sample of
// IMB-NBC, IMB-MPI4 and IMB-RMA (its comment says first length only; its
// code runs at every length): a tenth of the sample's, at least min(10,
// n); none under -warm_up off (if (c_info->warm_up) around it), and none
// before a probe or the untimed run (IMB runs those before the warm-up).
func (e *caseEnv) warmReps(n int) int {
	if e.probing || e.f21 != nil && e.f21.WarmUp == "off" {
		return 0
	}
	return warmCount(n)
}

// warmCount is IMB_warm_up.c's count before a sample of n repetitions: a
// tenth of them, at least min(10, n).
func warmCount(n int) int {
	if w := n / 10; w >= 10 {
		return w
	}
	return min(10, n)
}

// measure runs one sample: the warm-up and the timed loop (-1 on ranks
// that issue no transfer, as IMB's kernel functions report them). Check
// mode runs the checked loop in buffers with a slot for every repetition
// and rank (kernel/rma3.h); its time is not benchmark data.
func (c *rma3Case) measure(x int, m Mode) (Sample, error) {
	if !c.active() {
		return Sample{T: -1}, nil
	}
	s := c.b.RMA3
	n := c.reps(x, m)
	sl := c.f21.modeSlots(c.b, c.set, x, c.q, m)
	r := &kernel.RMA3Run{Comm: c.comm, Flow: s.Flow, Op: s.Op, Bidir: s.Bidir, Local: s.Local,
		Aggregate: m == Aggregate, Origin: c.origin, Window: c.window, WinSize: max(x*s.Flow.Blocks(), slotBytes(sl)),
		Count: x / s.Op.Unit(), Reps: n, Warm: c.warmReps(n), Barriers: c.set.NBarr, Slots: sl}
	if c.check {
		size := rma3CheckBytes(c.b, sl, n, c.q, x)
		o, w, err := rma3Buffers(size)
		if err != nil {
			return Sample{}, err
		}
		defer o.Free()
		defer w.Free()
		r.Origin, r.Window, r.WinSize = o, w, size
	}
	if s.Flow == kernel.RMA3Truly {
		r.CPURate, _ = kernel.NBCCPURate()
	}
	t, err := r.Exec(c.check)
	// IMB-EXT's hint for Open MPI's windows on one process applies as is.
	return Sample{T: t.T, TPure: t.TPure, Defects: t.Defects}, (&rmaCase{caseEnv: c.caseEnv}).hint(err)
}
