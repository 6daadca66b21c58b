package imb

import (
	"slices"

	"mpibench/mpi"
	"mpibench/suites/imb/kernel"
)

// benchCase holds the communicator and buffers of one benchmark on one
// process count; the buffers are sized once for the longest message.
type benchCase struct {
	*caseEnv
	send, recv     mpi.Buffer
	counts, displs mpi.Buffer
}

func newCase(env *caseEnv) *benchCase { return &benchCase{caseEnv: env} }

func (c *benchCase) active() bool { return !c.comm.Null() }

func (c *benchCase) free() error {
	for _, buf := range []*mpi.Buffer{&c.send, &c.recv, &c.counts, &c.displs} {
		buf.Free()
	}
	return nil
}

// setup allocates the buffers and runs IMB 3.0's warm-up: N_WARMUP
// executions of the benchmark at the maximum length with its repetition
// count (section 5.2.6), on the active processes only (none under -imb
// 2021, which warms up before every sample: warmup2021.go).
func (c *benchCase) setup() error {
	if !c.active() {
		return nil
	}
	maxLen := slices.Max(c.lens)
	s, r := c.f21.caseBuffers(c.b, c.set, c.lens, c.q)
	var err error
	if c.send, err = mpi.Alloc(s); err != nil {
		return err
	}
	if c.recv, err = mpi.Alloc(r); err != nil {
		return err
	}
	if c.counts, err = mpi.Alloc(4 * c.q); err != nil {
		return err
	}
	if c.displs, err = mpi.Alloc(4 * c.q); err != nil {
		return err
	}
	// Timed runs send repetition 0's check content: for the reductions,
	// small integer floats, far from the slow paths of denormals and NaNs.
	if c.b.Reduction {
		kernel.PatternReduce(c.send, c.b.Type, c.comm.Rank())
	} else {
		mpi.PatternBytes(c.send.Bytes(), c.comm.Rank(), 0, 0)
	}
	run := c.run(maxLen, c.set.Repetitions(maxLen, NoMode))
	run.Barriers = 0
	for i := 0; i < c.f21.warmSweeps(c.set); i++ {
		if _, err := run.Exec(); err != nil {
			return c.warmUpError(err, maxLen)
		}
	}
	return c.syncClocks()
}

// run describes the kernel call for length x: counts are in items (floats
// for reductions) and the per-rank arrays are filled for the v-variants
// and Reduce_scatter.
func (c *benchCase) run(x, reps int) *kernel.Run {
	count := x / c.b.Unit()
	counts, displs := c.counts.Int32s(), c.displs.Int32s()
	switch {
	case c.f21.rsBlock(c.b):
		// IMB 2021: count floats to every rank, of a vector of Q·count.
		for i := range counts {
			counts[i] = int32(count)
		}
	case c.b.Kernel == kernel.ReduceScatter:
		for i, n := range ScatterCounts(count, c.q) {
			counts[i] = int32(n)
		}
	default:
		for i := range counts {
			counts[i], displs[i] = int32(count), int32(i*count)
		}
	}
	r := &kernel.Run{Kernel: c.b.Kernel, Comm: c.comm, Send: c.send, Recv: c.recv, Count: count,
		Counts: c.counts, Displs: c.displs, Reps: reps, Barriers: c.set.NBarr, Window: c.window, Type: c.b.Type,
		Slots: c.f21.slots(c.b, x, c.q, c.f21.reps2021(c.set, c.b, x, NoMode, c.q))}
	c.f21.setRun(r, c.b)
	if c.f21.rsBlock(c.b) {
		r.Count = c.q * count
	}
	return r
}

// measure returns this rank's time per repetition in seconds (-1 when
// idle) and, in -check mode, the number of wrong items it received. Check
// mode runs the timed loop itself, with the same repetitions, roots and
// barriers, verifying every repetition in C (kernel/kernels.c); its timings
// are not valid benchmark data.
func (c *benchCase) measure(x int, _ Mode) (Sample, error) {
	if !c.active() {
		return Sample{T: -1}, nil
	}
	run := c.run(x, c.reps(x, NoMode))
	if c.sync != nil {
		return c.inWindows(run.Reps, run.ExecWindow, rootStep(run))
	}
	if !c.check {
		t, err := run.Exec()
		return Sample{T: t}, err
	}
	t, defects, err := run.ExecCheck()
	return Sample{T: t, Defects: defects}, err
}
