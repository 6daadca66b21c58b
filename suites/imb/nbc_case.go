package imb

import (
	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/suites/imb/kernel"
)

// nbcCase runs one IMB-NBC benchmark on one process count: buffers for
// the longest length, the calibrated CPU work, and the loops of kernel/nbc.c.
type nbcCase struct {
	*caseEnv
	send, recv, counts, displs mpi.Buffer
	rate                       float64 // CPU work passes per second
}

func newNBCCase(env *caseEnv) *nbcCase { return &nbcCase{caseEnv: env} }

func (c *nbcCase) active() bool { return !c.comm.Null() }

func (c *nbcCase) free() error {
	for _, buf := range []*mpi.Buffer{&c.send, &c.recv, &c.counts, &c.displs} {
		buf.Free()
	}
	return nil
}

// setup allocates the buffers (under -off_cache, every length's slots)
// and calibrates the CPU work.
func (c *nbcCase) setup() error {
	if !c.active() {
		return nil
	}
	s, r := c.f21.caseBuffers(c.b, c.set, c.lens, c.q)
	var err error
	for _, a := range []struct {
		buf *mpi.Buffer
		n   int
	}{{&c.send, s}, {&c.recv, r}, {&c.counts, 4 * c.q}, {&c.displs, 4 * c.q}} {
		if *a.buf, err = mpi.Alloc(a.n); err != nil {
			return err
		}
	}
	if c.b.Reduction {
		mpi.PatternFloats(c.send.Float32s(), c.comm.Rank(), 0, 0)
	} else {
		mpi.PatternBytes(c.send.Bytes(), c.comm.Rank(), 0, 0)
	}
	c.rate, _ = kernel.NBCCPURate()
	return c.syncClocks()
}

// loop describes the loop for length x: count items per process, every
// rank's count and displacement count·p (IMB_init_transfer.c).
func (c *nbcCase) loop(x, reps int) *kernel.NBCRun {
	count := x / c.b.Unit()
	counts, displs := c.counts.Int32s(), c.displs.Int32s()
	for i := range counts {
		counts[i], displs[i] = int32(count), int32(i*count)
	}
	return &kernel.NBCRun{Kind: c.b.NBC.Kind, Comm: c.comm, Send: c.send, Recv: c.recv, Count: count,
		Counts: c.counts, Displs: c.displs, Reps: reps, Barriers: c.set.NBarr, Sync: c.f21.nbcSync(), CPU: -1,
		Persist: c.b.NBC.Persist, IMBBarrier: c.f21 != nil && c.f21.IMBBarrier == "on",
		RootShift: c.f21 != nil && c.f21.RootShift == "on",
		Slots:     c.f21.slots(c.b, x, c.q, c.f21.reps2021(c.set, c.b, x, NoMode, c.q))}
}

// run runs the sample of a benchmark as IMB's kernel function does: the
// pure loop, and for a benchmark without _pure then the overlapped loop,
// whose CPU work per repetition is this rank's t_pure turned into passes
// (IMB_cpu_exploit(t_pure, 1): max(1, int(t_pure · rate)); none when
// t_pure is 0).
func (c *nbcCase) run(x, reps int, check bool) (Sample, error) {
	l := c.loop(x, reps)
	pure, err := l.Exec(check)
	if err != nil || c.b.NBC.Pure {
		return Sample{T: pure.T, Defects: pure.Defects}, err
	}
	l.CPU = 0
	if pure.T > 0 {
		l.CPU = max(1, int64(pure.T*c.rate))
	}
	ovrl, err := l.Exec(check)
	return Sample{T: ovrl.T, TPure: pure.T, TCPU: ovrl.TCPU, Defects: pure.Defects + ovrl.Defects}, err
}

// measure returns this rank's times per repetition (-1 when idle), after
// the warm-up IMB 2021.11 runs before every sample (IMB_warm_up.c, whose
// comment says first length only, but whose code runs at every length):
// the sample's kernel at its length with a tenth of its repetitions, at
// least min(10, repetitions), untimed; none under -warm_up off
// (c_info->warm_up). Check mode runs the checked loops
// with the same repetitions and barriers; its times are not benchmark
// data.
func (c *nbcCase) measure(x int, _ Mode) (Sample, error) {
	if !c.active() {
		return Sample{T: -1, TPure: -1, TCPU: -1}, nil
	}
	n := c.reps(x, NoMode)
	if w := c.warmReps(n); w > 0 {
		if _, err := c.run(x, w, false); err != nil {
			return Sample{}, err
		}
	}
	if c.sync != nil {
		return c.inWindows(n, c.loop(x, n).ExecWindow, 0)
	}
	return c.run(x, n, c.check)
}

// probeTime is the time IMB 2021's dynamic policy bounds a sample with
// (IMB_init_buffers_iter): the kernel function's time[0], which is t_pure
// for both the benchmark and its _pure variant.
func (c *nbcCase) probeTime(s Sample) float64 {
	if s.T < 0 || c.b.NBC.Pure {
		return s.T
	}
	return s.TPure
}

// probeTimer is a runner whose -time probe counts another time than
// T + TPure.
type probeTimer interface{ probeTime(s Sample) float64 }

// nbcOverlap fills the figures of an IMB-NBC overlap row as IMB_output.c
// (IMB_display_times) takes them: t_ovrl, t_pure and t_CPU all of the one
// rank with the largest t_ovrl (the first such rank), of group g (all
// groups when g < 0), and NBCOverlap of them. t_min/t_max/t_avg keep the
// spread of t_ovrl.
func nbcOverlap(r *result.Record, w *row, g int) {
	worst := -1
	for i, grp := range w.groups {
		if g >= 0 && g != i {
			continue
		}
		for _, rank := range grp {
			if t := w.all[nFigures*rank]; t >= 0 && (worst < 0 || t > w.all[nFigures*worst]) {
				worst = rank
			}
		}
	}
	if worst < 0 {
		return
	}
	f := w.all[nFigures*worst : nFigures*worst+nFigures]
	r.TOvrl, r.TPure, r.TCPU = f[0]*1e6, f[2]*1e6, f[3]*1e6
	r.Overlap = NBCOverlap(r.TPure, r.TCPU, r.TOvrl)
	_, r.CPUMflops = kernel.NBCCPURate()
}
