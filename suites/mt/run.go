package mt

import (
	"fmt"
	"math"
	"slices"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/memcheck"
	"mpibench/run/mpijob"
	"mpibench/suites/mt/kernel"
)

// driver runs a Config on every rank of MPI_COMM_WORLD.
type driver struct {
	cfg     *Config
	env     *mpijob.Env
	world   mpi.Comm
	rank    int
	size    int
	threads int
	loop    *mpijob.Loop
	text    *text    // rank 0
	bad     []string // benchmarks whose check found defects
}

// Threads is the threads of every process: rank 0's OpenMP team size
// under -thread_level multiple, else 1 (MT_suite.cpp, prepare: the team
// is asked for only when thread_level is "multiple").
func Threads(cfg *Config, multiple bool) int {
	if !multiple {
		return 1
	}
	return cfg.OMPThreads
}

// multiple says whether -thread_level asked for MPI_THREAD_MULTIPLE; and
// mpi.Init has refused a library that provides less.
func multiple() bool {
	m, err := mpi.ParseThreadLevel("multiple")
	return err == nil && mpi.Required() == m
}

// measure is the run of mpibench mt.
func measure(cfg *Config, env *mpijob.Env) int {
	if cfg.List {
		return printList(env)
	}
	mult := multiple()
	if mult && mpi.Provided() != mpi.Required() {
		return env.Fail(fmt.Errorf("IMB-MT needs MPI_THREAD_MULTIPLE, and MPI provided %v", mpi.Provided()))
	}
	threads := Threads(cfg, mult)
	if threads > kernel.MaxThreads {
		return env.Fail(fmt.Errorf("OMP_NUM_THREADS (or the processors) on rank 0: %d threads, at most %d",
			threads, kernel.MaxThreads))
	}
	if code, ok := mpijob.CheckMemory(env, MemoryNeed(cfg, env.World.Size(), threads), 0); !ok {
		return code
	}
	env.ResumeNote(false)
	d := &driver{cfg: cfg, env: env, world: env.World, rank: env.World.Rank(), size: env.World.Size(),
		threads: threads, loop: mpijob.Speaking(env.World, env.Cases)}
	if d.rank == 0 {
		d.text = &text{Writer: textout.New(env.Stdout), check: cfg.Check, window: cfg.Window, shown: map[string]bool{}}
	}
	if err := d.run(mult); err != nil {
		return env.Fail(err)
	}
	return mpijob.CheckCode(env.World, "-check", d.bad)
}

// buffers are the bytes of a thread's send and receive buffer for b, as
// IMB-MT's init sizes them: the longest count, twice for ExchangeMT's
// receive buffer.
func buffers(cfg *Config, b *Benchmark) (a, r int64) {
	size := int64(1)
	if cfg.Datatype == "int" {
		size = 4
	}
	n := int64(0)
	if !b.NoBytes {
		n = int64(slices.Max(cfg.Counts)) * size
	}
	if b.RecvTwo {
		return n, 2 * n
	}
	return n, n
}

// MemoryNeed is a process's buffers for the benchmark that takes most:
// each thread's send and receive buffer with -malloc_align bytes more.
func MemoryNeed(cfg *Config, size, threads int) memcheck.Need {
	var need memcheck.Need
	for _, name := range cfg.Benchmarks {
		b, _ := Lookup(name)
		a, r := buffers(cfg, b)
		need = memcheck.Max(need, memcheck.Need{What: fmt.Sprintf("%s, %d threads", b.Name, threads),
			Bytes: int64(threads) * (a + r + 2*int64(cfg.MallocAlign))})
	}
	return need
}

func (d *driver) run(mult bool) error {
	if err := d.speak(func() error { return d.text.start(d.env.Ctx.Tool, d.cfg) }); err != nil {
		return err
	}
	total := 0
	for _, name := range d.cfg.Benchmarks {
		b, _ := Lookup(name)
		total += len(d.counts(b))
	}
	d.env.Cases.SetTotal(total)
	for _, name := range d.cfg.Benchmarks {
		if err := d.benchmark(name, mult); err != nil {
			return err
		}
	}
	return d.speak(d.text.finish)
}

// counts are the counts b runs at: -count's, BarrierMT's 0 alone.
func (d *driver) counts(b *Benchmark) []int {
	if b.NoBytes {
		return []int{0}
	}
	return d.cfg.Counts
}

// benchmark makes b's threads, communicators and buffers, and runs every
// count. IMB-MT duplicates the communicators once for the run; here each
// benchmark has its own, made and freed outside the timing.
func (d *driver) benchmark(name string, mult bool) error {
	b, _ := Lookup(name)
	a, r := buffers(d.cfg, b)
	algo := map[string]int{"serial": kernel.MallocSerial, "continuous": kernel.MallocContinuous,
		"parallel": kernel.MallocParallel}[d.cfg.MallocAlgo]
	if !mult {
		algo = kernel.MallocSerial // MT_suite.cpp: the other two need thread_level multiple
	}
	team, err := kernel.NewTeam(d.world, kernel.Setup{Threads: d.threads, Multiple: mult, SizeA: int(a), SizeB: int(r),
		Align: d.cfg.MallocAlign, MallocAlgo: algo, Window: d.cfg.Window})
	if ok, aerr := mpijob.AgreeOK(d.world, err == nil); aerr != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%s: another rank could not make its threads' communicators or buffers", b.Name)
		}
		return err
	}
	defer team.Free()
	for i, n := range d.counts(b) {
		if err := d.count(b, team, i, n); err != nil {
			return err
		}
	}
	return nil
}

// count measures b at n elements, the i-th count, or replays what
// -resume kept of it.
func (d *driver) count(b *Benchmark, team *kernel.Team, i, n int) error {
	key := fmt.Sprintf("%s/%s/np%d/t%d/%d/%d", result.SuiteMT, b.Name, d.size, d.threads, i, n)
	recs, _, err := d.loop.Run(mpijob.Step{
		Case: cases.Case{Suite: result.SuiteMT, Benchmark: b.Name, Bytes: int64(n * d.elem()), Procs: d.size,
			Reps: (d.cfg.Repeat + d.cfg.Warmup) * max(d.cfg.Window, 1), Key: key},
		Measure: func() ([]*result.Record, error) { return d.measure(b, team, n) },
		Show: func(recs []*result.Record) error {
			for _, r := range recs {
				if r.Defects > 0 && !slices.Contains(d.bad, r.Benchmark) {
					d.bad = append(d.bad, r.Benchmark)
				}
				if err := d.text.row(b, r); err != nil {
					return err
				}
			}
			return nil
		},
		Hung: func() error {
			return d.text.comment(fmt.Sprintf("# %d elements: skipped, the resumed run hung in it", n))
		},
	})
	if err != nil {
		return err
	}
	ok, err := mpijob.AgreeOK(d.world, d.rank != 0 || len(recs) > 0)
	if err == nil && !ok {
		err = d.speak(func() error { return d.text.none(b) })
	}
	return err
}

func (d *driver) elem() int {
	if d.cfg.Datatype == "int" {
		return 4
	}
	return 1
}

// measure runs b at n elements on every thread and gathers every rank's
// figures: the record on rank 0, none where no thread of any rank took
// part (IMB-MT's NO SUCCESSFUL EXECUTIONS).
func (d *driver) measure(b *Benchmark, team *kernel.Team, n int) ([]*result.Record, error) {
	res, err := team.Run(kernel.Case{Kind: b.Kind, Count: n, Int: d.cfg.Datatype == "int", Warmup: d.cfg.Warmup,
		Repeat: d.cfg.Repeat, Window: d.cfg.Window, Stride: d.cfg.Stride, Barrier: barrierKind(d.cfg.Barrier),
		Check: d.cfg.Check})
	if err != nil {
		return nil, result.InCase(err, result.CaseError{Suite: result.SuiteMT, Bench: b.Name, Bytes: n * d.elem(),
			Procs: d.size})
	}
	// A rank's figures over its threads (MT_benchmark.h, run): the sum,
	// the least (from 1e6 s) and the most of the threads' times, the
	// threads that took part.
	sum, tmin, tmax, ok, defects := 0.0, 1e6, 0.0, 0, 0.0
	for _, r := range res {
		sum += r.Time
		tmin = math.Min(tmin, r.Time)
		tmax = math.Max(tmax, r.Time)
		if r.OK {
			ok++
		}
		defects += float64(r.Defects)
	}
	all, err := d.world.GatherFloat64s([]float64{sum, tmin, tmax, float64(ok), defects})
	if err != nil || d.rank != 0 {
		return nil, err
	}
	return d.record(b, n, all), nil
}

func barrierKind(v string) int {
	switch v {
	case "off":
		return kernel.BarrierOff
	case "special":
		return kernel.BarrierSpecial
	}
	return kernel.BarrierOn
}

// record is IMB-MT's figures of one row (MT_benchmark.h, run) from every
// rank's (sum, least, most, took part, defects): with R the threads that
// took part over all ranks and T the threads of a process,
//
//   - t_avg = sum of all times / R / repeat / divider, t_min and t_max the
//     least and most thread time / repeat / divider (divider: 2 for
//     PingPongMT, the window for UniBandMT, twice it for BiBandMT);
//   - #bytes = count · datatype size · T, "#processes" R / T;
//   - Mbytes/sec = #bytes · scale / t_max / 1e6 (scale 2 SendRecvMT, 4
//     ExchangeMT); the band benchmarks' = #bytes / T · ⌊R/2⌋ / t_max / 1e6;
//   - their Msg/sec = ⌊R/2⌋ / t_avg, truncated to a C int.
//
// No record where R is 0.
func (d *driver) record(b *Benchmark, n int, all []float64) []*result.Record {
	sum, tmin, tmax, nres, defects := 0.0, math.Inf(1), math.Inf(-1), 0, 0.0
	for r := 0; r < d.size; r++ {
		v := all[5*r : 5*r+5]
		sum += v[0]
		tmin = math.Min(tmin, v[1])
		tmax = math.Max(tmax, v[2])
		nres += int(v[3])
		defects += v[4]
	}
	if nres == 0 {
		return nil
	}
	reps := float64(d.cfg.Repeat)
	div := b.Divide
	if b.Window {
		div *= float64(d.cfg.Window)
	}
	avg := sum / float64(nres) / reps / div
	tmin, tmax = tmin/reps/div, tmax/reps/div
	bytes := n * d.elem() * d.threads
	group := make([]int, d.size)
	for i := range group {
		group[i] = i
	}
	rec := &result.Record{Suite: result.SuiteMT, Benchmark: b.Name, Class: b.Class(), Multi: -1, Group: -1,
		NProcs: nres / d.threads, Groups: [][]int{group}, Bytes: bytes, Reps: d.cfg.Repeat,
		TMin: 1e6 * tmin, TMax: 1e6 * tmax, TAvg: 1e6 * avg, Check: d.cfg.Check, Defects: defects,
		Threads: d.threads, Context: d.context()}
	if b.Window {
		rec.Window = d.cfg.Window
		pairs := float64(nres / 2)
		rec.MBps = float64(bytes) / float64(d.threads) * b.BWScale * pairs / tmax / 1e6
		rec.MsgRate = float64(cInt(pairs / avg))
	} else if slices.Contains(b.Columns, ColBW) {
		rec.MBps = float64(bytes) * b.BWScale / tmax / 1e6
	}
	return []*result.Record{rec}
}

// cInt is a double converted to a C int as x86-64 does it: out of range
// (and NaN) is INT_MIN.
func cInt(x float64) int {
	if math.IsNaN(x) || x >= math.MaxInt32+1 || x <= math.MinInt32-1 {
		return math.MinInt32
	}
	return int(int32(x))
}

// context is the records' context: the run's, with IMB-MT's flags given
// and the IMB whose definitions ran, 2021.11's.
func (d *driver) context() result.Context {
	ctx := d.env.Ctx
	ctx.Options = d.cfg.Options
	ctx.IMB = "2021"
	return ctx
}

// speak writes with fn on rank 0 (mpijob.Speak).
func (d *driver) speak(fn func() error) error { return mpijob.Speak(d.world, fn) }
