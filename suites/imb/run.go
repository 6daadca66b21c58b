package imb

import (
	"cmp"
	"errors"
	"fmt"
	"mpibench/run/clocksync"
	"slices"
	"time"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/mpijob"
	"mpibench/suites/imb/kernel"
)

// Text receives the run on rank 0 and renders it; report.IMBText is the
// IMB-style table renderer.
type Text interface {
	Start(h result.Header) error
	Row(r *result.Record) error
	Note(r *result.Record, s string) error // a line in r's table in place of a row
	Comment(s string) error
	Finish(failed []string) error
}

// Output is where rank 0 sends results. Other ranks pass nil.
type Output struct {
	Text Text
}

// Driver runs a Config on every rank of MPI_COMM_WORLD.
type Driver struct {
	suite *Suite
	set   *Settings
	cfg   *Config
	ctx   result.Context
	out   *Output
	cases *cases.Recorder // watchdog and journal; its Finish writes the records
	loop  *mpijob.Loop    // runs each case: skip or replay, begin, measure, write, show, end
	world mpi.Comm
	rank  int
	size  int
	order []int
	bad   []string // benchmarks with defects in -check mode
	cpu   float64  // IMB-IO: calibrated CPU_Exploit seconds (t_CPU)
	flops float64  // IMB-IO: CPU_Exploit's Mflop/s
}

// NewDriver prepares a run; out is nil on ranks other than 0. g may be
// nil.
func NewDriver(cfg *Config, ctx result.Context, out *Output, g *cases.Recorder) *Driver {
	w := mpi.World()
	suite := SuiteByName(cfg.Suite)
	ctx.Options = cfg.F.options()
	ctx.IMB = cfg.F.version(suite)
	d := &Driver{suite: suite, set: cfg.F.settings(&suite.Settings), cfg: cfg, ctx: ctx, out: out, cases: g,
		loop: mpijob.Speaking(w, g), world: w, rank: w.Rank(), size: w.Size()}
	d.order = MapOrder(d.size, cfg.MapP, cfg.MapQ)
	return d
}

// Run measures every selected benchmark. An error returned here has been
// agreed by all ranks; an MPI failure inside a measurement is returned as
// is and the caller must abort the job.
func (d *Driver) Run() ([]string, error) {
	if err := d.prepare(); err != nil {
		return nil, err
	}
	if err := d.speak(func() error { return d.out.Text.Start(d.header()) }); err != nil {
		return nil, err
	}
	d.cases.SetTotal(d.count())
	for _, name := range d.cfg.Benchmarks {
		b := d.cfg.F.lookup(d.suite, name)
		if err := d.runBenchmark(b); err != nil {
			return nil, err
		}
	}
	err := d.speak(func() error { return d.out.Text.Finish(d.bad) })
	return d.bad, err
}

// count is the number of cases Run measures (or -resume skips): a
// benchmark's modes and lengths at each of its process counts.
func (d *Driver) count() int {
	n := 0
	for _, name := range d.cfg.Benchmarks {
		b := d.cfg.F.lookup(d.suite, name)
		for _, q := range d.suite.ProcessCounts(d.size, d.cfg.NPMin, b.Class) {
			if _, bad := d.suite.invalid(b, q); !bad {
				// a length left out for memory is a case that measures nothing
				n += len(d.cfg.F.runModes(b)) * len(planLengths(d.set, d.cfg.Lengths, b))
			}
		}
	}
	return n
}

// prepare checks the IMB-IO directory on every rank and calibrates
// CPU_Exploit when a non-blocking benchmark is selected, before any
// measurement.
func (d *Driver) prepare() error {
	if d.suite != IOSuite {
		return nil
	}
	if err := d.agreeLocal(checkIODir(d.cfg.IODir)); err != nil {
		return err
	}
	for _, name := range d.cfg.Benchmarks {
		if b, _ := d.suite.Lookup(name); slices.Contains(b.Modes, NonBlocking) {
			d.cpu, d.flops = CalibrateCPU(d.set.TargetCPUSecs)
			break
		}
	}
	return nil
}

// agreeLocal turns an error some ranks met on their own into one every
// rank returns: the ranks that failed keep their message, the others learn
// that another rank failed.
func (d *Driver) agreeLocal(err error) error {
	failed, aerr := mpijob.Failed(d.world, err != nil)
	switch {
	case aerr != nil:
		return aerr
	case err != nil:
		return usagef("rank %d: %v", d.rank, err)
	case failed >= 0:
		return usagef("rank %d failed the same check (see its message)", failed)
	}
	return nil
}

func (d *Driver) header() result.Header {
	h := result.Header{Context: d.ctx, Suite: d.suite.Name, Part: d.suite.Part, Benchmarks: d.cfg.Benchmarks,
		Multi: d.cfg.Multi, MinLen: 0, MaxLen: d.set.MaxMsg(), Check: d.cfg.Check, CPUMflops: d.flops,
		TimeLimit: d.cfg.TimeLimit, IMB2021: d.cfg.F.version(d.suite) == imb2021, Invalid: d.cfg.Invalid}
	if d.set.NoZero && (d.suite == MPI1Suite || d.suite == NBCSuite || d.suite == MPI4Suite) {
		// -zero_size off: 2^min_msg_log (MPI1_suite.cpp, NBC_suite.cpp,
		// MPI4_suite.cpp); IMB-EXT and IMB-RMA print 0 whatever the flag.
		h.MinLen = 1 << d.set.MinMsgLog
	}
	if d.cfg.Lengths != nil {
		h.UserLens = true
		h.MinLen = slices.Min(d.cfg.Lengths)
		h.MaxLen = min(slices.Max(d.cfg.Lengths), d.set.MaxMsg())
	}
	return h
}

// speak runs fn on rank 0 and shares its error with every rank, so a
// failed write (disk full, closed pipe) stops all ranks together.
func (d *Driver) speak(fn func() error) error { return mpijob.Speak(d.world, fn) }

// lengths are the message lengths of b. Barrier and Open_Close, IMB's Sync
// type, have no length and run once, with MSGSPERSAMPLE repetitions.
func (d *Driver) lengths(b *Benchmark) ([]int, error) {
	if !b.NoBytes && d.cfg.Lengths != nil {
		_, truncated := d.set.AdjustLengths(d.cfg.Lengths, b.Unit())
		for _, x := range truncated {
			if err := d.comment(fmt.Sprintf("Attention, msg size %d truncated to %d", x, d.set.MaxMsg()/b.Unit()*b.Unit())); err != nil {
				return nil, err
			}
		}
	}
	return planLengths(d.set, d.cfg.Lengths, b), nil
}

// comment prints s on rank 0; every rank calls it and learns whether the
// write failed.
func (d *Driver) comment(s string) error {
	return d.speak(func() error { return d.out.Text.Comment(s) })
}

func (d *Driver) runBenchmark(b *Benchmark) error {
	lens, err := d.lengths(b)
	if err != nil {
		return err
	}
	for _, q := range d.suite.ProcessCounts(d.size, d.cfg.NPMin, b.Class) {
		if note, bad := d.suite.invalid(b, q); bad {
			if err := d.comment(note); err != nil {
				return err
			}
			continue
		}
		// -mem and the node's memory (memory.go): the lengths that do
		// not fit are left out, each a line and a record at its place.
		fit, out := caseBounds(d.cfg, d.suite, d.set, b, q).split(lens)
		if err := d.runFit(b, q, lens, fit, out); err != nil {
			return err
		}
	}
	return nil
}

// runFit runs b on q processes at the lengths lens, of which those in
// out are left out for memory and fit are measured, or replays it where
// a resumed run has every length of fit.
func (d *Driver) runFit(b *Benchmark, q int, lens, fit []int, out map[int]leftOut) error {
	if len(fit) == 0 || d.resumed(b, q, fit) {
		return d.replayAll(b, q, lens, out) // nothing to set up
	}
	return d.runCase(b, q, lens, fit, out)
}

// runCase runs one benchmark on one process count over all modes and
// lengths, modes outermost as IMB does; its buffers are those of the
// lengths fit.
func (d *Driver) runCase(b *Benchmark, q int, lens, fit []int, out map[int]leftOut) error {
	multi := d.cfg.Multi >= 0
	color := Color(d.rank, q, d.order, multi, d.size)
	comm, err := d.world.Split(color, d.order[d.rank])
	if err != nil {
		return err
	}
	defer comm.Free()
	env := &caseEnv{suite: d.suite.Name, b: b, set: d.set, comm: comm, q: q, group: color, multi: multi, lens: fit,
		check: d.cfg.Check, ioDir: d.cfg.IODir, cpuSecs: d.cpu, window: d.cfg.windowSize(), f21: &d.cfg.F,
		sync: &syncState{budget: d.cfg.TimeLimit}}
	c := newRunner(env)
	d.watchSetup(b, q, "setup")
	err = d.inCase(c.setup(), b, 0, -1, q)
	d.cases.End()
	if err == nil {
		err = d.sweep(c, env, q, lens, out)
	}
	if mpi.EndsJob(err) {
		// This rank alone met it, the others may wait for it inside the
		// case, and freeing is collective (IMB-IO closes its files): the
		// caller aborts the job, whose cleanups remove the files.
		return err
	}
	d.watchSetup(b, q, "free")
	ferr := d.inCase(c.free(), b, 0, -1, q)
	d.cases.End()
	if err != nil {
		return err
	}
	return ferr
}

// watchSetup arms the watchdog for the setup or the freeing of b at q
// processes: window creation and file preparation are collective and
// could hang as a measurement can.
func (d *Driver) watchSetup(b *Benchmark, q int, phase string) {
	d.cases.Watch(cases.Case{Suite: d.suite.Name, Benchmark: b.Name + " (" + phase + ")", Procs: q,
		Key: fmt.Sprintf("%s/%s/np%d/%s", d.suite.Name, b.Name, q, phase)})
}

func (d *Driver) sweep(c runner, env *caseEnv, q int, lens []int, out map[int]leftOut) error {
	b := env.b
	groups := Layout(d.size, q, d.order, d.cfg.Multi >= 0)
	for _, m := range d.cfg.F.runModes(b) {
		var done []lenReps  // the -time counts of this mode's lengths so far
		start := time.Now() // IMB 2021's time-out clock (timeout2021.go)
		for _, x := range lens {
			if o, ok := out[x]; ok {
				if _, _, err := d.loop.Run(d.skipStep(b, q, groups, m, x, o)); err != nil {
					return err
				}
				continue
			}
			step := d.step(b, q, m, x)
			step.Measure = func() ([]*result.Record, error) {
				return d.measure(c, env, groups, x, m, start, &done)
			}
			recs, kept, err := d.loop.Run(step)
			if errors.Is(err, errTimeOut) {
				if err := d.noteTimeOut(b, q, groups, x, m); err != nil {
					return err
				}
				break // IMB's stop_iterations: the next mode starts afresh
			}
			if err != nil {
				return err
			}
			if kept {
				done = d.replayedReps(recs, x, done)
			}
		}
	}
	return nil
}

// measure measures length x in mode m: the records on rank 0.
func (d *Driver) measure(c runner, env *caseEnv, groups [][]int, x int, m Mode, start time.Time,
	done *[]lenReps) ([]*result.Record, error) {
	reps, all, err := d.measureCase(c, env, x, m, start, done)
	switch {
	case errors.Is(err, errTimeOut):
		return nil, err
	case err != nil:
		return nil, d.inCase(err, env.b, m, x, env.q)
	case d.rank != 0:
		return nil, nil
	}
	return d.records(&row{b: env.b, q: env.q, groups: groups, x: x, mode: m, reps: reps, asked: env.asked,
		all: all, win: env.lastWindow()}), nil
}

// measureCase measures length x in mode m: it chooses the repetitions,
// stops with errTimeOut where IMB 2021's time-out, counted from start,
// has passed, warms up where the runner does so before every sample, runs
// them and gathers nFigures figures per world rank.
func (d *Driver) measureCase(c runner, env *caseEnv, x int, m Mode, start time.Time, done *[]lenReps) (int, []float64, error) {
	reps, err := d.limitReps(c, env, x, m, done)
	if err != nil {
		return 0, nil, err
	}
	if out, err := d.timedOut(env, start); err != nil || out {
		return 0, nil, cmp.Or(err, errTimeOut)
	}
	env.nRep = reps
	if w, ok := c.(lengthWarmer); ok { // -imb 2021 (warmup2021.go)
		if err := w.warmUp(x, reps); err != nil {
			return 0, nil, err
		}
	}
	s, err := c.measure(x, m)
	if err != nil {
		return 0, nil, err
	}
	all, err := d.world.GatherFloat64s([]float64{s.T, float64(s.Defects), s.TPure, s.TCPU})
	if err != nil {
		return 0, nil, err
	}
	// Idle processes wait here in a well defined manner, as in IMB.
	return reps, all, d.world.Barrier()
}

// inCase names the case an error of this rank was met in; x < 0 for the
// setup or freeing of b, which have no length.
func (d *Driver) inCase(err error, b *Benchmark, m Mode, x, q int) error {
	return result.InCase(err, result.CaseError{Suite: d.suite.Name, Bench: b.Name, Mode: m.String(), Bytes: x, Procs: q})
}

// nFigures are the figures a rank sends per sample: T, Defects, TPure, TCPU.
const nFigures = 4

// row is one gathered measurement: nFigures figures per world rank.
type row struct {
	b      *Benchmark
	q      int
	groups [][]int
	x      int
	mode   Mode
	reps   int // n_sample, as -time left it
	asked  int // n_sample as the definition gave it, before -time
	all    []float64
	win    *clocksync.Result // -sync window: the result (the same on every active rank)
}

// records turns a gathered measurement into Records.
func (d *Driver) records(w *row) []*result.Record {
	if d.cfg.Multi != 1 {
		return []*result.Record{d.record(w, -1)}
	}
	var rows []*result.Record
	for g := range w.groups {
		rows = append(rows, d.record(w, g))
	}
	return rows
}

// show prints rows on rank 0 and notes the benchmarks with defects; a
// length left out for memory is its line.
func (d *Driver) show(rows []*result.Record) error {
	for _, r := range rows {
		if r.Skipped() {
			if err := d.out.Text.Note(r, d.skipLine(r)); err != nil {
				return err
			}
			continue
		}
		if r.Defects > 0 && !slices.Contains(d.bad, r.Benchmark) {
			d.bad = append(d.bad, r.Benchmark)
		}
		if err := d.out.Text.Row(r); err != nil {
			return err
		}
		if r.Cut == result.CutTime {
			if err := d.out.Text.Note(r, d.cutLine(r)); err != nil {
				return err
			}
		}
	}
	return nil
}

// cutLine is the line under a row whose repetitions -time's rule lowered
// (issue 26: one stall could cut a whole table, unmarked). It starts with
// "#", as IMB's own comment lines, so that parsers of IMB's tables pass
// over it.
func (d *Driver) cutLine(r *result.Record) string {
	return fmt.Sprintf("#   ^ %d of %d repetitions: lowered by the -time bound, %g s a sample (IMB 2021's rule; "+
		"a count never grows with the length, so a stall at a shorter length lowers the longer ones too)",
		r.Reps, r.RepsAsked, d.cfg.TimeLimit)
}

// caseRecord is the part of a record that says what was measured: b at
// x bytes on q processes in mode m, group g (-1: all).
func (d *Driver) caseRecord(b *Benchmark, q int, groups [][]int, x int, m Mode, g int) *result.Record {
	r := &result.Record{Suite: d.suite.Name, Benchmark: b.Name, Class: b.Class.String(), Multi: d.cfg.Multi,
		Group: g, NProcs: q, Groups: groups, Bytes: x,
		TimeLimit: d.cfg.TimeLimit, Check: d.cfg.Check, Mode: m.String(), Context: d.ctx}
	if d.cfg.MapP > 1 && d.cfg.MapQ > 1 {
		r.Map = []int{d.cfg.MapP, d.cfg.MapQ}
	}
	return r
}

// record summarises the ranks of one group (g >= 0) or of all groups.
func (d *Driver) record(w *row, g int) *result.Record {
	b := w.b
	r := d.caseRecord(b, w.q, w.groups, w.x, w.mode, g)
	r.Reps = w.reps
	var times, pure []float64
	for i, grp := range w.groups {
		if g >= 0 && g != i {
			continue
		}
		for _, rank := range grp {
			times = append(times, w.all[nFigures*rank]*1e6*b.TimeScale)
			pure = append(pure, w.all[nFigures*rank+2]*1e6*b.TimeScale)
			r.Defects += w.all[nFigures*rank+1]
		}
	}
	r.TMin, r.TMax, r.TAvg = MinMaxAvg(times)
	if b.Factor > 0 && r.TMax > 0 {
		r.MBps = b.Factor * float64(w.x) / 1.048576 / r.TMax
	}
	if b.RMA3 != nil {
		_, r.TPure, _ = MinMaxAvg(pure) // Truly_passive_put's t_pure: the origin's; 0 for the others
		rmaRates(r, b)
	}
	if d.cfg.F.rates(b) {
		rates2021(r, b, d.cfg.windowSize())
	}
	if w.reps < w.asked && w.reps > 0 && d.cfg.TimeLimit > 0 {
		r.Cut, r.RepsAsked = result.CutTime, w.asked
	}
	r.Calls = persistCalls(b)
	if BigBench(b) && mpi.IsBig(int64(w.x)) {
		r.CountMode = kernel.CountMode(b.Kernel, int64(w.x)) // bigcase.go
	}
	syncFields(r, d.cfg.F.method(b), w.win)
	switch {
	case b.NBC != nil && w.mode == NonBlocking:
		nbcOverlap(r, w, g)
	case w.mode == NonBlocking:
		d.overlap(r, b, pure)
	}
	return r
}

// overlap fills the non-blocking figures of section 4.2.5.2: t_ovrl and
// t_pure are maxima over the ranks, t_CPU is the calibrated CPU_Exploit
// time, and the throughput comes from t_pure as IMB computes it.
func (d *Driver) overlap(r *result.Record, b *Benchmark, pure []float64) {
	_, r.TPure, _ = MinMaxAvg(pure)
	r.TOvrl = r.TMax
	r.TCPU = d.cpu * 1e6
	r.CPUMflops = d.flops
	r.Overlap = Overlap(r.TPure, r.TCPU, r.TOvrl)
	r.MBps = 0
	if b.Factor > 0 && r.TPure > 0 {
		r.MBps = b.Factor * float64(r.Bytes) / 1.048576 / r.TPure
	}
}

// Overlap is formula (*) of section 4.2.5.2 in percent, the unit of the
// table's overlap[%] column: 100 · (t_pure + t_CPU − t_ovrl) / min(t_pure,
// t_CPU), as it is. It is not clamped: below 0 the overlapped run took
// longer than I/O and CPU one after the other, above 100 it was faster
// than perfect overlap (max(t_pure, t_CPU)) allows; both are information
// about the library or the measurement (IMB 2021.11's IMB_output.c clamps
// to [0, 100]; the 3.0 guide does not). Without I/O or CPU time
// (min = 0) the formula has no value and Overlap returns 0.
func Overlap(tPure, tCPU, tOvrl float64) float64 {
	m := min(tPure, tCPU)
	if m <= 0 {
		return 0
	}
	return 100 * (tPure + tCPU - tOvrl) / m
}

// MinMaxAvg returns the minimum, maximum and mean of v, skipping negative
// entries (idle ranks); zeros when nothing is left.
func MinMaxAvg(v []float64) (lo, hi, avg float64) {
	n := 0
	for _, t := range v {
		if t < 0 {
			continue
		}
		if n == 0 {
			lo, hi = t, t
		}
		lo, hi, avg, n = min(lo, t), max(hi, t), avg+t, n+1
	}
	if n == 0 {
		return 0, 0, 0
	}
	return lo, hi, avg / float64(n)
}

// skipStep is the case of b at q processes, mode m and length x that
// memory left out (o): it measures nothing, and its record (skipped
// "memory", with the need and the bound) and its line take the length's
// place in the journal, the results file and the table.
func (d *Driver) skipStep(b *Benchmark, q int, groups [][]int, m Mode, x int, o leftOut) mpijob.Step {
	s := d.step(b, q, m, x)
	s.Measure = func() ([]*result.Record, error) {
		if d.rank != 0 {
			return nil, nil
		}
		r := d.caseRecord(b, q, groups, x, m, -1)
		r.Calls = persistCalls(b)
		syncFields(r, d.cfg.F.method(b), nil)
		if d.cfg.F.rates(b) && b.Class == ParallelTransferMsgRate {
			r.Window = d.cfg.windowSize() // the table's Msg/sec column
		}
		r.Skip, r.NeedBytes, r.LimitBytes = result.SkipMemory, o.need, o.limit
		return []*result.Record{r}, nil
	}
	return s
}

// skipLine is the line of a record of a length left out for memory: IMB's
// out-of-mem. line where -mem's bound left it out, else mpibench's for
// the node's memory (memory.go). Under -multi 1 the length stands in the
// #bytes column, after an empty Group cell: the case is left out for
// every group.
func (d *Driver) skipLine(r *result.Record) string {
	group := ""
	if r.Multi == 1 {
		group = fmt.Sprintf("\n%13s", "") // a blank line before each length, as the rows have
	}
	if lim := d.cfg.F.memLimit(d.suite); lim > 0 && r.LimitBytes == int64(lim) {
		return group + outOfMem(float64(r.NeedBytes), r.Bytes)
	}
	return group + outOfNodeMem(r.NeedBytes, r.LimitBytes, r.Bytes)
}
