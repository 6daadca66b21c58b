package imb

import (
	"fmt"
	"slices"

	"mpibench/mpi"
	"mpibench/suites/imb/kernel"
)

// rmaCase runs one IMB-EXT benchmark on one process count. Its two buffers
// are IMB's: send holds the rank's pattern (the data put or accumulated,
// and the window of the Get benchmarks); recv is the window of Put and
// Accumulate and where gets land. A window is created for every length and
// mode and freed after it, as IMB does.
type rmaCase struct {
	*caseEnv
	spec       *RMASpec
	rank       int
	send, recv mpi.Buffer
	warmed     []Mode // modes whose warm-up has run
}

func newRMACase(env *caseEnv) runner { return &rmaCase{caseEnv: env, spec: env.b.RMA} }

func (c *rmaCase) active() bool { return !c.comm.Null() }

func (c *rmaCase) setup() error {
	if !c.active() {
		return nil
	}
	c.rank = c.comm.Rank()
	n := rmaBufferSize(c.b, c.set, c.lens)
	if c.v2021() {
		n = max(rmaBufferSize2021(c.lens), c.f21.oneSidedAlloc(c.b, c.set, c.lens, c.q))
	}
	var err error
	if c.send, err = mpi.Alloc(n); err != nil {
		return err
	}
	if c.recv, err = mpi.Alloc(n); err != nil {
		return err
	}
	c.fill(c.send)
	c.fill(c.recv)
	return nil
}

// fill writes the rank's pattern (section 5.2.5): floats for Accumulate,
// their bytes otherwise.
func (c *rmaCase) fill(buf mpi.Buffer) {
	if c.spec.Op == kernel.RMAAccumulate {
		FillFloats(buf.Float32s(), c.rank, 0)
		return
	}
	FillBytes(buf.Bytes(), c.rank, 0)
}

func (c *rmaCase) free() error {
	c.send.Free()
	c.recv.Free()
	return nil
}

// measure returns this rank's time per transfer (per window cycle for
// Window); -1 when idle.
func (c *rmaCase) measure(x int, m Mode) (Sample, error) {
	if !c.active() {
		return Sample{T: -1}, nil
	}
	if !slices.Contains(c.warmed, m) {
		c.warmed = append(c.warmed, m)
		if err := c.warmUp(m); err != nil {
			return Sample{}, err
		}
	}
	if c.spec.Flow == RMAWindowCycle {
		// Nothing to verify: IMB's Window has no defects column.
		t, err := c.windowRun(x, c.reps(x, m)).Exec()
		return Sample{T: t}, c.hint(err)
	}
	return c.transfer(x, m)
}

// warmUp runs the benchmark N_WARMUP times at the maximum length (section
// 5.2.6) before the first length of each mode, where IMB's length loop
// starts again; the transfers get a window of their own.
func (c *rmaCase) warmUp(m Mode) error {
	x := slices.Max(c.lens)
	if c.spec.Flow == RMAWindowCycle {
		run := c.windowRun(x, c.set.Repetitions(x, c.f21.windowMode(c.b, NoMode)))
		run.Barriers = 0
		return c.repeat(run.Exec)
	}
	win, err := c.open(x, m)
	if err != nil {
		return err
	}
	run := c.run(win, x, m, c.set.Repetitions(x, m))
	run.Barriers = 0
	if err := c.repeat(run.Exec); err != nil {
		return err
	}
	return win.Free()
}

func (c *rmaCase) repeat(exec func() (float64, error)) error {
	for i := 0; i < c.set.NWarmup; i++ {
		if _, err := exec(); err != nil {
			return c.warmUpError(c.hint(err), slices.Max(c.lens))
		}
	}
	return nil
}

func (c *rmaCase) windowRun(x, reps int) *kernel.WinRun {
	return &kernel.WinRun{Comm: c.comm, Base: c.recv, Src: c.send, Size: x,
		Reps: reps, Barriers: c.set.NBarr}
}

// transfer measures a Put, Get or Accumulate benchmark at length x in
// mode m on a window of its own. After an MPI error the window is not
// freed: MPI_Win_free is collective and the caller aborts the job.
func (c *rmaCase) transfer(x int, m Mode) (Sample, error) {
	win, err := c.open(x, m)
	if err != nil {
		return Sample{}, err
	}
	run := c.run(win, x, m, c.reps(x, m))
	var s Sample
	if c.check {
		// The same C loop, every repetition prepared and verified in C;
		// its timings are not benchmark data.
		s.T, s.Defects, err = run.Check()
	} else {
		s.T, err = run.Exec()
	}
	if err != nil {
		return Sample{}, err
	}
	return s, win.Free()
}

// buffers are the origin buffer and the window memory: the window is
// recv for Put and Accumulate, send for Get.
func (c *rmaCase) buffers() (origin, window mpi.Buffer) {
	if c.spec.Op == kernel.RMAGet {
		return c.recv, c.send
	}
	return c.send, c.recv
}

// open creates the window of length x in mode m (displacements in floats
// for Accumulate).
func (c *rmaCase) open(x int, m Mode) (mpi.Win, error) {
	_, base := c.buffers()
	win, err := c.comm.WinCreate(base, c.windowSize(x, m), c.b.Unit())
	return win, c.hint(err)
}

// run describes the timed pattern of length x in mode m: n_sample
// transfers, counts in items (floats for Accumulate), and the roles a
// checked run verifies: the source restates the flow independently of
// the target, so that a wrong target shows; Accumulate sums every rank
// into rank 0.
func (c *rmaCase) run(win mpi.Win, x int, m Mode, reps int) *kernel.RMARun {
	unit := c.b.Unit()
	origin, window := c.buffers()
	r := &kernel.RMARun{Op: c.spec.Op, Win: win, Comm: c.comm, Origin: origin, Window: window,
		WinItems: c.windowSize(x, m) / unit, Count: x / unit, Stride: c.stride(x, m) / unit,
		Target: c.spec.target(c.rank), Reps: reps, Aggregate: m == Aggregate, IMB2021: c.v2021(),
		OpenFence: c.spec.openFence(m), Barriers: c.set.NBarr, Rank: c.rank, Source: c.spec.source(c.rank),
		Slots: c.slots(x, m)}
	if c.spec.Op == kernel.RMAAccumulate && c.rank == 0 {
		r.Summands = c.q
	}
	return r
}

// v2021 tells whether the case runs IMB-EXT 2021.11's definitions.
func (c *rmaCase) v2021() bool { return c.f21 != nil && c.f21.IMB == imb2021 }

// windowSize is the window of length x in mode m, in bytes.
func (c *rmaCase) windowSize(x int, m Mode) int {
	if c.v2021() {
		return max(rmaWindowSize2021(x), slotBytes(c.slots(x, m)))
	}
	return rmaWindowSize(c.set, x, m)
}

// slots is the -off_cache layout of length x in mode m: IMB-EXT 2021.11's
// only (offcache.go); zero when off.
func (c *rmaCase) slots(x int, m Mode) kernel.Slots {
	if !c.v2021() {
		return kernel.Slots{}
	}
	return c.f21.modeSlots(c.b, c.set, x, c.q, m)
}

// stride is the offset from one transfer to the next, in bytes: 0 under
// IMB 2021.11.
func (c *rmaCase) stride(x int, m Mode) int {
	if c.v2021() {
		return 0
	}
	return rmaOffset(1, x, m)
}

// windowMode is the mode whose n_sample the Window benchmark runs:
// MSGSPERSAMPLE's in IMB 3.0, MSGS_NONAGGR's in IMB 2021.11, which counts
// Window as a benchmark without data access (IMB_parse_name_ext.c,
// access = no; IMB_mem_manager.c: x_sample = msgs_nonaggr).
func (f *Flags2021) windowMode(b *Benchmark, m Mode) Mode {
	if f != nil && f.IMB == imb2021 && b.RMA != nil && b.RMA.Flow == RMAWindowCycle {
		return NonAggregate
	}
	return m
}

// hint explains the window failures this project meets with Open MPI 4:
// its osc/rdma cannot serve a window on a single process (its shared-memory
// BTL does not reach the process itself), and Debian's
// openmpi-mca-params.conf disables the components that could (osc =
// ^ucx,pt2pt).
func (c *rmaCase) hint(err error) error {
	if err == nil || mpi.Flavor != "openmpi" || c.q != 1 {
		return err
	}
	return fmt.Errorf("%w (Open MPI, window on one process: enable a one-sided component that serves it, e.g. mpirun --mca osc pt2pt)", err)
}
