package beff

import (
	"fmt"
	"math"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/mpijob"
	"mpibench/suites/beff/kernel"
)

// Reps is the number of repetitions of each measurement (paper: 3).
const Reps = 3

// warmLengths: one untimed execution precedes the timed loop for the
// first 18 lengths, as PRE_LOOPS/WITH_PRELOOPS of the original; for the
// largest three a warm-up would cost as much as the measurement.
const warmLengths = 18

// Plan is everything a run measures, the same on every rank.
type Plan struct {
	Opts     Options
	Procs    int
	MemMB    int
	LMax     int
	Lengths  []int
	Patterns []*Pattern
}

// NewPlan resolves the options for procs processes with memMB MB each.
func NewPlan(o Options, procs, memMB int) (*Plan, error) {
	if procs < 2 {
		return nil, Usagef("b_eff needs at least 2 processes (got %d)", procs)
	}
	lmax := Lmax(memMB)
	return &Plan{
		Opts: o, Procs: procs, MemMB: memMB, LMax: lmax, Lengths: Lengths(lmax),
		Patterns: Patterns(procs, o.Patterns == Ring, o.Random, o.Seed),
	}, nil
}

var methodCode = map[string]kernel.Method{
	Sendrecv: kernel.Sendrecv, Alltoallv: kernel.Alltoallv, Nonblocking: kernel.Nonblocking,
}

// Out is where a run's records go on rank 0 besides the returned slice.
// Both fields may be nil.
type Out struct {
	// Cases watches every measurement b(pat,L,mthd,rep), a case of its
	// own (see Key), writes its record to the journal and, with -resume,
	// says which ones are done.
	Cases *cases.Recorder
	// Sink takes the record of no case: the summary, computed from the
	// others (and again after -resume).
	Sink func(*result.Record) error
}

// Run measures every b(pat,L,mthd,rep). The repetitions are the outermost
// loop, as in the original, so that the three samples of a measurement lie
// apart in time; the looplengths are chosen during the first repetition
// and the other two start from them (the adaptive rule may retune each
// measurement). On rank 0 each record is written as soon as
// it is made and all are returned, those a resumed run kept included, the
// summary last; other ranks get nil. A failed write (rank 0 only) does not
// stop the measurement and is returned as writeErr; err is an MPI or
// memory error of this rank, after which the other ranks may be blocked:
// the caller must abort the job.
func Run(p *Plan, world mpi.Comm, ctx result.Context, uname string, out Out) (recs []result.Record, writeErr, err error) {
	m, err := measure(p, world, ctx, out.Cases)
	m.wrote(m.loop.Err())
	if err != nil || world.Rank() != 0 {
		return nil, m.werr, err
	}
	sum := m.summary(uname)
	m.out.Add(sum)
	if out.Sink != nil {
		m.wrote(out.Sink(sum))
	}
	return m.out.Records, m.werr, nil
}

func measure(p *Plan, world mpi.Comm, ctx result.Context, g *cases.Recorder) (*meter, error) {
	m := &meter{plan: p, world: world, ctx: ctx, cases: g, loop: mpijob.GoingOn(world, g)}
	rank := world.Rank()
	slot := (p.LMax + 4095) / 4096 * 4096 // page-aligned blocks
	steps := 1
	for _, pat := range p.Patterns {
		steps = max(steps, len(pat.Steps[rank]))
	}
	var err error
	if m.send, err = mpi.Alloc(steps*slot + kernel.Pad); err != nil {
		return m, err
	}
	defer m.send.Free()
	if m.recv, err = mpi.Alloc(steps*slot + kernel.Pad); err != nil {
		return m, err
	}
	defer m.recv.Free()
	kernels := make([]*kernel.Pattern, len(p.Patterns))
	for i, pat := range p.Patterns {
		var to, from []int
		for _, s := range pat.Steps[rank] {
			to, from = append(to, s.To), append(from, s.From)
		}
		if kernels[i], err = kernel.NewPattern(world, to, from, slot); err != nil {
			return m, err
		}
		defer kernels[i].Free()
	}
	m.loops = make([][][]int, len(p.Patterns))
	total := 0 // every repetition of every pattern, length and method
	for _, pat := range p.Patterns {
		total += Reps * len(p.Lengths) * len(pat.Methods)
	}
	g.SetTotal(total)
	for rep := 1; rep <= Reps; rep++ {
		for i, pat := range p.Patterns {
			if err := m.pattern(rep, i, pat, kernels[i]); err != nil {
				return m, err
			}
		}
	}
	return m, nil
}

type meter struct {
	plan       *Plan
	world      mpi.Comm
	ctx        result.Context
	cases      *cases.Recorder
	loop       *mpijob.Loop     // going on after a failed write: the text comes at the end
	out        result.Collector // rank 0: every record, those a resumed run kept included
	werr       error            // rank 0: the first failed write
	send, recv mpi.Buffer
	loops      [][][]int // [pattern][method][length] looplength
}

// point is one measurement b(pat,L,mthd,rep): i, j and li index the
// pattern, its method and the length.
type point struct {
	rep, i, j, li int
	pat           *Pattern
	meth          string
	l             int
}

// pattern measures one repetition of one pattern: all lengths, all methods.
func (m *meter) pattern(rep, i int, pat *Pattern, k *kernel.Pattern) error {
	p := m.plan
	if rep == 1 {
		m.loops[i] = make([][]int, len(pat.Methods))
		for j := range pat.Methods {
			m.loops[i][j] = make([]int, len(p.Lengths))
			m.loops[i][j][0] = m.firstLoop(0)
		}
	}
	for li, l := range p.Lengths {
		if err := k.SetLen(l); err != nil {
			return err
		}
		for j, meth := range pat.Methods {
			if err := m.point(point{rep: rep, i: i, j: j, li: li, pat: pat, meth: meth, l: l}, k); err != nil {
				return err
			}
		}
	}
	return nil
}

// point runs one measurement as a case of the loop, or takes what
// -resume kept of it.
func (m *meter) point(pt point, k *kernel.Pattern) error {
	ll := m.loops[pt.i][pt.j][pt.li]
	warm := pt.li < warmLengths
	recs, kept, err := m.loop.Run(mpijob.Step{Case: m.caseOf(pt, ll, warm), Show: m.keep,
		Measure: func() ([]*result.Record, error) { return m.measureOne(pt, k, ll, warm) }})
	if err != nil || !kept {
		return err
	}
	return m.resumed(pt, recs)
}

// measureOne runs one measurement: its record on rank 0.
func (m *meter) measureOne(pt point, k *kernel.Pattern, ll int, warm bool) ([]*result.Record, error) {
	res, err := m.tune(pt, k, ll, warm)
	if err != nil {
		return nil, result.InCase(err, result.CaseError{Suite: result.SuiteBeff, Bench: pt.pat.Name, Mode: pt.meth, Bytes: pt.l,
			Procs: m.plan.Procs})
	}
	if pt.rep == 1 {
		// The later repetitions start from this looplength; the next
		// length follows from the recorded loop, as after -resume.
		m.loops[pt.i][pt.j][pt.li] = res.ll
		m.setNext(pt, res.ll, res.tmax/float64(res.ll))
	}
	if m.world.Rank() != 0 {
		return nil, nil
	}
	r := m.record(pt.pat, pt.meth, pt.rep, pt.l, pt.pat.Messages(), res)
	r.Case = pt.key()
	return []*result.Record{r}, nil
}

// keep keeps, on rank 0, the records of a measurement, measured or kept
// by a resumed run, for the summary and the text at the end.
func (m *meter) keep(recs []*result.Record) error {
	for _, r := range recs {
		m.out.Add(r)
	}
	return nil
}

// tune runs the loop with looplength ll. With the adaptive looplength a
// loop that missed 2.5-5 ms is measured again with the looplength Retune
// gives, at most MaxRetunes times; the last loop is the result, with the
// tries it took and, for -check, the wrong bytes of all of them.
func (m *meter) tune(pt point, k *kernel.Pattern, ll int, warm bool) (loopResult, error) {
	tau := math.Inf(1) // the shortest time per execution of any try
	var defects int64
	for tries := 1; ; tries++ {
		res, err := m.runLoop(pt, k, ll, warm)
		if err != nil {
			return res, err
		}
		tau = min(tau, res.tmax/float64(ll))
		defects += res.defects
		next := 0
		if m.plan.Opts.Looplength == Adaptive && tries <= MaxRetunes {
			// tmax is the same on every rank, so all retune alike
			next = Retune(ll, res.tmax, tau)
		}
		if next == 0 {
			res.tries, res.defects = tries, defects
			return res, nil
		}
		ll = next
	}
}

// loopResult is one loop's looplength and time over the processes (s)
// and, in check mode, the wrong bytes all processes received.
type loopResult struct {
	ll, tries        int
	tmax, tmin, tavg float64
	defects          int64
}

// runLoop runs ll executions of the pattern (the warm-up before) and
// reduces the times over the processes.
func (m *meter) runLoop(pt point, k *kernel.Pattern, ll int, warm bool) (loopResult, error) {
	run := kernel.Run{Pattern: k, Method: methodCode[pt.meth], Len: pt.l, Send: m.send, Recv: m.recv,
		Loop: ll, Warmup: warm, Check: m.plan.Opts.Check}
	t, bad, err := run.Exec()
	if err != nil {
		return loopResult{}, err
	}
	r := loopResult{ll: ll, tries: 1}
	r.tmax, r.tmin, r.tavg, r.defects, err = kernel.Times(m.world, t, bad)
	return r, err
}

// setNext chooses, in the first repetition, the looplength of the next
// length from the looplength ll of this one and its time per execution
// tau (s, the maximum over processes; 0 for none).
func (m *meter) setNext(pt point, ll int, tau float64) {
	if pt.li+1 < len(m.plan.Lengths) {
		m.loops[pt.i][pt.j][pt.li+1] = m.nextLoop(ll, tau, pt.li)
	}
}

// wrote keeps the first failed write of rank 0.
func (m *meter) wrote(err error) {
	if err != nil && m.werr == nil {
		m.werr = fmt.Errorf("writing records: %w", err)
	}
}

func (m *meter) firstLoop(li int) int {
	if m.plan.Opts.Looplength == Fixed {
		return FixedLoop(m.plan.Lengths[li], m.plan.LMax)
	}
	return FirstLoop
}

// nextLoop is the looplength of length li+1. Every rank computes it from
// the same maximum time, so all agree without a broadcast.
func (m *meter) nextLoop(ll int, tau float64, li int) int {
	if m.plan.Opts.Looplength == Fixed {
		return m.firstLoop(li + 1)
	}
	return NextLoop(ll, tau, m.plan.Lengths[li], m.plan.Lengths[li+1])
}

func (m *meter) record(pat *Pattern, meth string, rep, l, msgs int, res loopResult) *result.Record {
	r := &result.Record{
		Suite: result.SuiteBeff, Benchmark: pat.Name, Class: pat.Group, Multi: -1, Group: -1,
		NProcs: m.plan.Procs, Bytes: l, Reps: res.ll, Mode: meth, Messages: msgs,
		TMax: res.tmax * 1e6, TMin: res.tmin * 1e6, TAvg: res.tavg * 1e6, Context: m.ctx,
		Check: m.plan.Opts.Check, Defects: float64(res.defects),
		BeffFigures: result.BeffFigures{Rep: rep, Tries: res.tries, BMBps: Bandwidth(l, msgs, res.ll, res.tmax)},
	}
	if pat.Group == Random {
		r.Seed = m.plan.Opts.Seed
	}
	return r
}

// Samples turns b_eff records into the formula's samples.
func Samples(recs []result.Record) []Sample {
	var out []Sample
	for _, r := range recs {
		if r.Suite == result.SuiteBeff && r.Rep > 0 {
			out = append(out, Sample{r.Benchmark, r.Class, r.Bytes, r.Mode, r.Rep, r.BMBps})
		}
	}
	return out
}

// summary computes b_eff from the records made so far.
func (m *meter) summary(uname string) *result.Record {
	p := m.plan
	res := Compute(Samples(m.out.Records), p.LMax)
	s := &result.BeffSummary{
		Beff: res.Beff, PerProc: res.Beff / float64(p.Procs), Primary: p.Opts.Patterns,
		PrimaryAvg: res.Primary, RandomAvg: res.Random, Procs: p.Procs, MemMB: p.MemMB,
		LMax: p.LMax, Lengths: p.Lengths, Looplength: p.Opts.Looplength, Seed: p.Opts.Seed,
		Random: p.Opts.Random, PingPong: res.PingPong, BeffLmax: res.BeffLmax,
		PerProcLmax: res.BeffLmax / float64(p.Procs), PerProcPrim: res.PrimaryMax / float64(p.Procs),
		Uname: uname,
	}
	byName := map[string]*Pattern{}
	for _, pat := range p.Patterns {
		byName[pat.Name] = pat
	}
	for _, pv := range res.Patterns {
		pat := byName[pv.Name]
		s.Patterns = append(s.Patterns, result.BeffPattern{
			Name: pv.Name, Group: pv.Group, Layout: pat.Layout, Messages: pat.Messages(),
			Avg: pv.Avg, AtLmax: pv.AtLmax, Methods: pv.Methods,
		})
	}
	return &result.Record{
		Suite: result.SuiteBeff, Benchmark: "b_eff", Class: "summary", Multi: -1, Group: -1,
		NProcs: p.Procs, Bytes: p.LMax, Context: m.ctx,
		BeffFigures: result.BeffFigures{Seed: p.Opts.Seed, Beff: s},
	}
}
