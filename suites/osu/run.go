package osu

import (
	"fmt"
	"slices"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/memcheck"
	"mpibench/run/mpijob"
	"mpibench/suites/osu/kernel"
)

// Run is what a kernel's Measure gets: the run's options and benchmark,
// the communicator, and the datatype of the table being measured.
type Run struct {
	Opts     *Options
	Bench    *Benchmark
	Env      *mpijob.Env
	World    mpi.Comm
	Rank     int
	Size     int
	Pairs    int    // the pairs of osu_mbw_mr and osu_multi_lat: np/2
	TypeName string // MPI_CHAR, MPI_INT, MPI_FLOAT
	TypeSize int    // its size in bytes
	// Graph is the neighbourhood tests' distributed graph (nbr.go).
	Graph *kernel.Graph
	// Fan is the fan tests' parents and children (pt2pt_fan.go).
	Fan *fanPlan
	// Table is the index of the datatype's table (-T), from 0.
	Table int
	// atomSum are rank 0's -c counts of the atomic tests, per rank and
	// datatype (osu/atom.go).
	atomSum [][]*atomTrials
}

// counts are the iterations and warm-ups of the run at size bytes.
func (r *Run) counts(size int64) (iters, skip int) {
	if atomOf(r.Bench) != nil {
		return r.atomCounts(size) // osu/atom.go
	}
	return r.Opts.Counts(size)
}

// Elements is the count of the datatype's elements in size bytes (OSU:
// num_elements = size / mpi_type_size).
func (r *Run) Elements(size int64) int64 { return size / int64(r.TypeSize) }

// Transmit is -D's "Transmit Size" at size bytes: the bytes the derived
// type carries (osu_util_mpi.c: omb_ddt_assign times the type's size).
func (r *Run) Transmit(size int64) int64 {
	d, n := r.Opts.DDT, r.Elements(size)
	switch {
	case d == nil || d.Kind == "cont":
		return n * int64(r.TypeSize)
	case d.Kind == "vect":
		return n / int64(d.Stride) * int64(d.Block) * int64(r.TypeSize)
	}
	var sum int64
	for _, b := range d.Blocks {
		sum += int64(b)
	}
	return sum * int64(r.TypeSize)
}

// typeSizes are the sizes of -T's datatypes (MPI_Type_size on this
// platform: char 1, int and float 4).
var typeSizes = map[string]int{"MPI_CHAR": 1, "MPI_INT": 4, "MPI_FLOAT": 4}

// measure is the run of mpibench osu.
func measure(o *Options, env *mpijob.Env) int {
	b, _ := Lookup(o.Bench)
	size := env.World.Size()
	if b.Procs != nil {
		if err := b.Procs(size); err != nil {
			if env.World.Rank() == 0 {
				_, _ = fmt.Fprintf(env.Stderr, "mpibench osu %s: %v\n", b.Name, err)
			}
			return 2
		}
	}
	if err := threadLevel(b); err != nil {
		if env.World.Rank() == 0 {
			_, _ = fmt.Fprintf(env.Stderr, "mpibench osu %s: %v\n", b.Name, err)
		}
		return 2
	}
	if err := needMPI4(b); err != nil { // osu/coll.go
		if env.World.Rank() == 0 {
			_, _ = fmt.Fprintf(env.Stderr, "mpibench osu %s: %v\n", b.Name, err)
		}
		return 1
	}
	if err := checkPairs(b, o, size); err != nil { // osu/rma.go
		if env.World.Rank() == 0 {
			_, _ = fmt.Fprintf(env.Stderr, "mpibench osu %s: %v\n", b.Name, err)
		}
		return 2
	}
	var fan *fanPlan
	if b.Kind == Congestion { // pt2pt_fan.go: omb_fan_init
		var err error
		if fan, err = fanSetup(env.World); err != nil {
			return env.Fail(err)
		}
		if fan.Err != "" {
			if env.World.Rank() == 0 {
				_, _ = fmt.Fprintf(env.Stderr, "mpibench osu %s: %s\n", b.Name, fan.Err)
			}
			return 2
		}
	}
	if b.Kind != Startup {
		checkMemLimit(b, o, size, env) // osu/coll.go
		if code, ok := mpijob.CheckMemory(env, memoryNeed(b, o, size), 0); !ok {
			return code
		}
	}
	env.ResumeNote(false)
	r := &Run{Opts: o, Bench: b, Env: env, World: env.World, Rank: env.World.Rank(), Size: size, Pairs: size / 2,
		Fan: fan}
	d := &driver{run: r, loop: mpijob.Speaking(env.World, env.Cases)}
	if r.Rank == 0 {
		d.text = NewText(env.Stdout)
	}
	if err := d.all(); err != nil {
		return env.Fail(err)
	}
	return mpijob.CheckCode(env.World, "-c", d.bad)
}

// threadLevel refuses osu_latency_mt unless MPI provides
// MPI_THREAD_MULTIPLE (osu_latency_mt.c: "MPI_Init_thread must return
// MPI_THREAD_MULTIPLE!"); mpibench asks for the level -thread_level names.
func threadLevel(b *Benchmark) error {
	multiple, err := mpi.ParseThreadLevel("multiple")
	if err != nil || b.Kind != LatencyMT || mpi.Provided() == multiple {
		return err
	}
	return fmt.Errorf("this test needs MPI_THREAD_MULTIPLE, and MPI provided %v (run it with -thread_level multiple)",
		mpi.Provided())
}

// memoryNeed is a rank's buffers at the largest size: a send and a
// receive buffer per window slot with -b multiple, per thread for
// osu_latency_mt, np of each for the collectives, one of each otherwise.
func memoryNeed(b *Benchmark, o *Options, np int) memcheck.Need {
	if n, ok := bigNeed(b, o, np); ok {
		return n // big.go
	}
	n := int64(1)
	switch {
	case b.Kind.Collective():
		n = int64(np) // osu/collrun.go: buffers of np·size
	case o.MultipleBuffers && (b.Kind == Bandwidth || b.Kind == MultiBandwidth || b.Kind == Congestion):
		n = int64(o.Window)
	case b.Kind == RMABandwidth:
		n = int64(o.Window) // the origin buffer and the window's memory, window·size each
	case b.Kind == LatencyMT:
		n = int64(max(o.Senders(), o.ReceiverThreads)) // a pair of buffers per thread
	}
	return memcheck.Need{What: fmt.Sprintf("%s at %d bytes", b.Name, o.MaxSize), Bytes: 2 * n * max(o.MaxSize, 1)}
}

// driver runs every datatype and size of a run.
type driver struct {
	run  *Run
	loop *mpijob.Loop
	text *Text    // rank 0
	bad  []string // benchmarks whose validation failed
	// forked are osu_latency_mp's processes of this rank (pt2pt_mp.go).
	forked []int
}

func (d *driver) all() error {
	r := d.run
	if r.Bench.Kind == Startup {
		return d.startup() // startup.go
	}
	err := d.topology()                   // nbr.go
	defer func() { _ = r.Graph.Free() }() // after every size; MPI_Comm_free, as OSU's end
	if err != nil {
		return err
	}
	if err := d.speak(func() error { return d.text.Preamble(r.Bench, r.Opts, r.Pairs) }); err != nil {
		return err
	}
	defer func() { kernel.Reap(d.forked) }() // osu_latency_mp's, ended when the test is
	if err := d.fork(); err != nil {
		return err
	}
	if noSize(r.Bench) {
		return d.barrier() // osu/colltext.go
	}
	sizes := r.Opts.Sizes()
	table, per := d.table, 1
	if r.Opts.VaryWindow {
		table, per = d.varied, len(windowSizes)
	}
	a := atomOf(r.Bench)
	if a != nil && a.element {
		sizes = []int64{0} // one row per datatype, at its size (osu/atom.go)
	}
	r.Env.Cases.SetTotal(len(sizes) * len(r.Opts.Types) * per)
	if err := d.barriers(programBarriers(r.Bench.Name, true)); err != nil {
		return err
	}
	for i, t := range r.Opts.Types {
		r.TypeName, r.TypeSize, r.Table = t, typeSizes[t], i
		if a != nil && a.element {
			sizes = []int64{int64(r.TypeSize)}
		}
		if err := table(sizes); err != nil {
			return err
		}
	}
	if a != nil && r.Opts.Validate {
		return d.atomSummary() // osu/atom.go
	}
	return d.barriers(programBarriers(r.Bench.Name, false))
}

// barriers calls MPI_Barrier n times (programBarriers).
func (d *driver) barriers(n int) error {
	for range n {
		if err := d.run.World.Barrier(); err != nil {
			return err
		}
	}
	return nil
}

// table measures every size for the current datatype; a size without a
// whole element is passed over, as OSU does ("if (0 == num_elements)
// continue"), and a failed validation ends the table, as OSU's break.
func (d *driver) table(sizes []int64) error {
	r := d.run
	err := d.speak(func() error {
		if a := atomOf(r.Bench); a != nil && a.op != kernel.AtomGetAcc {
			if err := d.text.atomPreamble(r.Bench, r.Opts); err != nil { // osu/atom.go
				return err
			}
		} else if a != nil {
			return d.text.Header(r.Bench, r.Opts) // osu_get_acc_latency: no datatype line
		}
		if err := d.text.Datatype(r.Bench, r.TypeName); err != nil {
			return err
		}
		return d.text.Header(r.Bench, r.Opts)
	})
	if err == nil {
		err = d.barriers(typeBarriers(r.Bench.Name)) // collbarriers.go
	}
	if err != nil {
		return err
	}
	for _, s := range sizes {
		if r.Elements(s) == 0 {
			continue
		}
		failed, err := d.size(s)
		if err != nil || (failed && atomOf(r.Bench) == nil) { // OSU's atomic tests go on after a failure
			return err
		}
	}
	return nil
}

// key is the journal key of the case at s bytes (and window, with -V).
func (d *driver) key(s int64) string {
	r := d.run
	k := fmt.Sprintf("%s/%s/np%d/%s/%d", result.SuiteOSU, r.Bench.Name, r.Size, r.TypeName, s)
	if r.Opts.VaryWindow {
		k += fmt.Sprintf("/w%d", r.Opts.Window)
	}
	return k
}

// size measures one size and reports whether its validation failed.
func (d *driver) size(s int64) (bool, error) {
	recs, kept, err := d.loop.Run(d.sizeStep(s, d.show))
	if err != nil || kept {
		return false, err
	}
	return mpijob.Share(d.run.World, func() bool { return recs[0].Defects > 0 })
}

// sizeStep is the case at s bytes; show takes its record on rank 0, or
// the records a resumed run kept of it.
func (d *driver) sizeStep(s int64, show func([]*result.Record) error) mpijob.Step {
	r := d.run
	iters, skip := r.counts(s)
	step := mpijob.Step{
		Case: cases.Case{Suite: result.SuiteOSU, Benchmark: r.Bench.Name, Bytes: s, Procs: r.Size,
			Reps: (iters + skip) * (r.Opts.ValidationWarmup + 1) * max(r.Opts.Window, 1), Key: d.key(s)},
		Measure: func() ([]*result.Record, error) { return d.measure(s, iters, skip) },
		Show:    show,
	}
	if show != nil {
		step.Hung = func() error {
			return d.text.Line(fmt.Sprintf("# %d bytes: skipped, the resumed run hung in it", s))
		}
	}
	return step
}

// measure runs the case at s bytes: its record (rank 0's is the one).
func (d *driver) measure(s int64, iters, skip int) ([]*result.Record, error) {
	r := d.run
	res, err := r.Bench.Measure(r, s)
	if err != nil {
		return nil, r.inCase(err, s)
	}
	return []*result.Record{d.record(s, iters, skip, &res)}, nil
}

// inCase names the case (result.CaseError, the datatype as its mode) of
// an error this rank met alone inside it: an MPI call that failed, a
// buffer it could not allocate. An error every rank finds alike before
// any MPI call (an option the test cannot take) keeps its plain message.
func (r *Run) inCase(err error, s int64) error {
	if !mpi.EndsJob(err) {
		return err
	}
	return result.InCase(err, result.CaseError{Suite: result.SuiteOSU, Bench: r.Bench.Name, Mode: r.TypeName,
		Bytes: int(s), Procs: r.Size})
}

// record is the record of one size, on rank 0.
func (d *driver) record(s int64, iters, skip int, res *Result) *result.Record {
	r := d.run
	rec := &result.Record{Suite: result.SuiteOSU, Benchmark: r.Bench.Name, Class: r.Bench.Kind.String(),
		Multi: -1, Group: -1, NProcs: r.Size, Groups: [][]int{ranks(r.Size)}, Bytes: int(s), Reps: iters, Check: r.Opts.Validate,
		Defects: float64(res.Errors), MsgRate: res.MsgRate, Context: r.Env.Ctx,
		OSU: &result.OSU{Datatype: r.TypeName, Warmup: skip, InPlace: r.Opts.InPlace}}
	switch r.Bench.Kind {
	case Bandwidth, MultiBandwidth:
		rec.MBps, rec.Window = res.Avg, r.Opts.Window
	case Congestion:
		rec.MBps, rec.Window = res.Avg, r.Opts.Window
		rec.OSU.Nodes, rec.OSU.PPN = r.Fan.Nodes, r.Fan.PPN
	case RMABandwidth:
		rec.MBps, rec.Window = res.Avg, r.Opts.Window
		rec.OSU.Win, rec.OSU.Sync = r.Opts.Win, r.Opts.Sync
		if b := r.Bench.RMA; b.shape == kernel.ShapeMBW {
			rec.OSU.Pairs = r.Pairs
		}
	case RMALatency:
		rec.TAvg = res.Avg
		rec.OSU.Win, rec.OSU.Sync = r.Opts.Win, r.Opts.Sync
		if b := r.Bench.RMA; b.shape == kernel.ShapeMulti {
			rec.OSU.Pairs, rec.OSU.Sync = r.Pairs, syncNames[kernel.SyncPSCW]
		}
	default:
		rec.TAvg, rec.TMin, rec.TMax = res.Avg, res.Min, res.Max
	}
	if r.Bench.Kind == MultiBandwidth || r.Bench.Kind == MultiLatency {
		rec.OSU.Pairs = r.Pairs
	}
	if r.Bench.Kind == LatencyMP {
		rec.OSU.ForksSender, rec.OSU.ForksReceiver = r.Opts.Forks()
	}
	if r.Opts.DDT != nil {
		rec.OSU.DDT, rec.OSU.Transmit = r.Opts.DDT.String(), r.Transmit(s)
	}
	if r.Opts.Validate {
		rec.OSU.Validation = "Pass"
		if res.Errors > 0 {
			rec.OSU.Validation = "Fail"
		}
		if atomOf(r.Bench) != nil { // the atomic tests' print_latency words
			rec.OSU.Validation = map[bool]string{false: "passed", true: "failed"}[res.Errors > 0]
		}
	}
	rec.OSU.Tail, rec.OSU.NBC = Tail(res.Samples, r.Opts.Percentiles), res.NBC
	rec.CountMode = res.CountMode // big.go
	if r.Opts.Samples {
		rec.Samples = res.Times
	}
	return rec
}

// ranks are 0, 1, ..., n-1: the world ranks of a record's one group.
func ranks(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Tail is omb_calculate_tail_lat: the samples sorted ascending and, for
// percentile p, the element at iterations*p/100 - 1 (integer division, as
// OSU computes it in size_t), at least the first: OSU reads before the
// array for -z0 or for fewer than 100/p iterations.
func Tail(samples []float64, percentiles []int) []result.Percentile {
	if len(percentiles) == 0 || len(samples) == 0 {
		return nil
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	out := make([]result.Percentile, len(percentiles))
	for i, p := range percentiles {
		k := min(max(len(s)*p/100-1, 0), len(s)-1)
		out[i] = result.Percentile{P: p, Value: s[k]}
	}
	return out
}

// show prints the rows of a case on rank 0 and notes the benchmarks whose
// validation failed.
func (d *driver) show(recs []*result.Record) error {
	b := d.run.Bench
	for _, rec := range recs {
		if rec.Defects > 0 && !slices.Contains(d.bad, b.Name) {
			d.bad = append(d.bad, b.Name)
		}
		if err := d.text.Row(b, d.run.Opts, rec); err != nil {
			return err
		}
		if rec.Defects == 0 || atomOf(b) != nil {
			continue
		}
		// OSU's last line after a failed validation (osu_latency.c and the others).
		if err := d.text.Line(fmt.Sprintf("DATA VALIDATION ERROR: %s exited with status 1 on message size %d.", b.Name, rec.Bytes)); err != nil {
			return err
		}
	}
	return nil
}

// speak writes with fn on rank 0 (mpijob.Speak).
func (d *driver) speak(fn func() error) error { return mpijob.Speak(d.run.World, fn) }
