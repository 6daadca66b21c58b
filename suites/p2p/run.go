package p2p

import (
	"fmt"
	"slices"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/memcheck"
	"mpibench/run/mpijob"
	"mpibench/suites/p2p/kernel"
)

// driver runs a Config on every rank of MPI_COMM_WORLD.
type driver struct {
	cfg   *Config
	env   *mpijob.Env
	world mpi.Comm
	rank  int
	size  int
	loop  *mpijob.Loop
	text  *text    // rank 0
	bad   []string // benchmarks whose check found defects
}

// measure is the run of mpibench p2p.
func measure(cfg *Config, env *mpijob.Env) int {
	if cfg.List {
		return printList(env)
	}
	if code, ok := mpijob.CheckMemory(env, MemoryNeed(cfg, env.World.Size()), 0); !ok {
		return code
	}
	env.ResumeNote(false)
	d := &driver{cfg: cfg, env: env, world: env.World, rank: env.World.Rank(), size: env.World.Size(),
		loop: mpijob.Speaking(env.World, env.Cases)}
	if d.rank == 0 {
		d.text = &text{Writer: textout.New(env.Stdout), check: cfg.Check}
	}
	if err := d.run(); err != nil {
		return env.Fail(err)
	}
	return mpijob.CheckCode(env.World, "-check", d.bad)
}

// MemoryNeed is the most memory a process's buffers take (kernel.NewP2PCase):
// a send and a receive buffer of the longest length per neighbour (one
// pair for the benchmarks without neighbours) and the ring of 4 bytes per
// process. A benchmark invalid on size processes allocates nothing: the
// run only says so (the stencils on 2 processes would count 4 or 6
// neighbours).
func MemoryNeed(cfg *Config, size int) memcheck.Need {
	var need memcheck.Need
	longest := slices.Max(cfg.Lengths)
	for _, name := range cfg.Benchmarks {
		b, _ := Lookup(name)
		if !b.Valid(size) {
			continue
		}
		n := int64(max(len(b.Neighbours(0, size)), 1))
		need = memcheck.Max(need, memcheck.Need{What: fmt.Sprintf("%s at %d bytes", b.Name, longest),
			Bytes: 2*n*int64(max(longest, 1)) + 4*int64(size)})
	}
	return need
}

func (d *driver) run() error {
	if err := d.speak(func() error { return d.text.start(d.env.Ctx, d.cfg) }); err != nil {
		return err
	}
	total := 0
	for _, name := range d.cfg.Benchmarks {
		if b, _ := Lookup(name); b.Valid(d.size) {
			total += len(d.cfg.Lengths)
		}
	}
	d.env.Cases.SetTotal(total)
	for _, name := range d.cfg.Benchmarks {
		if err := d.benchmark(name); err != nil {
			return err
		}
	}
	return d.speak(d.text.finish)
}

// benchmark runs one benchmark over every length, or says that it cannot
// run on this many processes.
func (d *driver) benchmark(name string) error {
	b, _ := Lookup(name)
	if !b.Valid(d.size) {
		return d.speak(func() error { return d.text.invalid(b, d.size) })
	}
	if err := d.speak(func() error { return d.text.benchmark(b, d.size) }); err != nil {
		return err
	}
	pc, err := kernel.NewP2PCase(d.world, b.Kind, slices.Max(d.cfg.Lengths), b.Neighbours(d.rank, d.size),
		d.cfg.TouchSend, d.cfg.TouchRecv, d.cfg.PauseUsec)
	if ok, aerr := mpijob.AgreeOK(d.world, err == nil); aerr != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%s: another rank could not allocate its buffers", b.Name)
		}
		return err
	}
	defer pc.Free()
	for i, x := range d.cfg.Lengths {
		if err := d.length(b, pc, i, x); err != nil {
			return err
		}
	}
	return nil
}

// length measures b at x bytes, the i-th length, or replays what -resume
// kept of it.
func (d *driver) length(b *Benchmark, pc *kernel.P2PCase, i, x int) error {
	key := fmt.Sprintf("%s/%s/np%d/%d/%d", result.SuiteP2P, b.Name, d.size, i, x)
	iters, warm := d.cfg.Iterations(x)
	loops := iters + warm
	if b.Kind == kernel.P2PUnirandom || b.Kind == kernel.P2PBirandom {
		loops *= d.size
	}
	_, _, err := d.loop.Run(mpijob.Step{
		Case: cases.Case{Suite: result.SuiteP2P, Benchmark: b.Name, Bytes: int64(x), Procs: d.size,
			Reps: loops, Key: key, Expect: cases.Seconds(2 * float64(d.cfg.PauseUsec) / 1e6)},
		Measure: func() ([]*result.Record, error) { return d.measure(b, pc, x, iters, warm) },
		Show:    d.show,
		Hung: func() error {
			return d.text.comment(fmt.Sprintf("# %d bytes: skipped, the resumed run hung in it", x))
		},
	})
	return err
}

// measure runs b at x bytes and gathers every rank's figures: the record
// on rank 0.
func (d *driver) measure(b *Benchmark, pc *kernel.P2PCase, x, iters, warm int) ([]*result.Record, error) {
	res, err := pc.Run(x, iters, warm, d.cfg.Check)
	if err != nil {
		return nil, d.inCase(err, b, x)
	}
	all, err := d.world.GatherFloat64s([]float64{res.Time, float64(res.Messages), float64(res.Defects)})
	if err != nil || d.rank != 0 {
		return nil, d.inCase(err, b, x)
	}
	return []*result.Record{d.record(b, x, iters, all)}, nil
}

// inCase names the case of an error this rank met in b at x bytes
// (result.CaseError; the abort's line adds the rank).
func (d *driver) inCase(err error, b *Benchmark, x int) error {
	return result.InCase(err, result.CaseError{Suite: result.SuiteP2P, Bench: b.Name, Bytes: x, Procs: d.size})
}

// show prints the rows of a case on rank 0 and notes the benchmarks
// whose check found defects.
func (d *driver) show(recs []*result.Record) error {
	for _, r := range recs {
		if r.Defects > 0 && !slices.Contains(d.bad, r.Benchmark) {
			d.bad = append(d.bad, r.Benchmark)
		}
		if err := d.text.row(r); err != nil {
			return err
		}
	}
	return nil
}

// speak writes with fn on rank 0 (mpijob.Speak).
func (d *driver) speak(fn func() error) error { return mpijob.Speak(d.world, fn) }
