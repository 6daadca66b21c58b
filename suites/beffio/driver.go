package beffio

import (
	"fmt"
	"io"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/mpijob"
	"mpibench/suites/beffio/kernel"
)

// Plan is everything a run measures, the same on every rank.
type Plan struct {
	Opts       Options
	Procs      int // size of MPI_COMM_WORLD
	MemMB      int
	MPart      int
	Table      []Pattern
	Partitions []int
	// MaxReps bounds the calls of the time-driven patterns (by partition,
	// then pattern number): the disk bound, set by Bound.
	MaxReps [][]int64
}

// NewPlan resolves the options for procs processes with memMB MB each.
func NewPlan(o Options, procs, memMB int) (*Plan, error) {
	parts := o.Partitions
	if len(parts) == 0 {
		parts = []int{procs}
	}
	for _, n := range parts {
		if n > procs {
			return nil, Usagef("-partitions: %d is more than the %d processes", n, procs)
		}
	}
	mp := MPart(memMB)
	return &Plan{Opts: o, Procs: procs, MemMB: memMB, MPart: mp, Table: Table(mp), Partitions: parts}, nil
}

// state is what one partition keeps between the access methods.
type state struct {
	reps    []int64 // by pattern number: repeat factors of the initial write
	lseg    int64   // segment of one process in types 3 and 4
	fill    int     // chunk of the fill pattern
	types   [3][Types]float64
	bytes   [3]int64
	measure bool // this rank belongs to the partition
	bounded int  // time-driven patterns that stopped at the disk bound
}

type meter struct {
	plan  *Plan
	world mpi.Comm
	ctx   result.Context
	cases *cases.Recorder
	loop  *mpijob.Loop // going on after a failed write: the text comes at the end
	notes io.Writer
	out   result.Collector // rank 0: every record, those a resumed run kept included
	werr  error            // rank 0: the first failed write
	wbuf  mpi.Buffer
	rbuf  mpi.Buffer
	parts []*state
	// defects are the chunks the data check found wrong, over all ranks
	// (rank 0), and where: "read of p05 on 2 processes".
	defects int64
	wrong   []string
	last    int64 // the defects of the last read pattern
	cut     bool  // the last pattern stopped at the -disk bound before its scheduled time
}

// Out is where a run's records go on rank 0 besides the returned slice.
// Every field may be nil.
type Out struct {
	// Cases watches every case, one pattern type of one access method on
	// one partition (see Key), writes its records to the journal and,
	// with -resume, says which ones are done.
	Cases *cases.Recorder
	// Sink takes the record of no case: the summary, computed from the
	// others (and again after -resume).
	Sink func(*result.Record) error
	// Notes hears what a resumed run cannot measure, and which patterns
	// the disk bound stopped.
	Notes io.Writer
	// Check, when not nil, gets on rank 0 what the data check found.
	Check *Check
}

// Check is what the data check of the reads found over all partitions:
// the chunks whose marks were not the writer's, and in which patterns.
type Check struct {
	Defects int64
	Where   []string
}

// Run measures every pattern with every access method on every
// partition. As release 2 of the original, the access method is the
// outer loop (all partitions write, then rewrite, then read), so that a
// file is read long after it was written and less of it is cached. On
// rank 0 each case's records are written as soon as it ends and all are
// returned, those a resumed run kept included, the summary last.
// writeErr is a failed write of rank 0 (the measurement goes on); err is
// an MPI or memory error of this rank after which the others may be
// blocked: the caller must abort the job.
func Run(p *Plan, world mpi.Comm, ctx result.Context, uname string, out Out) (recs []result.Record, writeErr, err error) {
	m := &meter{plan: p, world: world, ctx: ctx, cases: out.Cases, loop: mpijob.GoingOn(world, out.Cases),
		notes: out.Notes}
	err = m.run()
	m.wrote(m.loop.Err())
	if err != nil {
		return nil, m.werr, err
	}
	m.noteBounded()
	if world.Rank() != 0 {
		return nil, nil, nil
	}
	if out.Check != nil {
		*out.Check = Check{Defects: m.defects, Where: m.wrong}
	}
	sum := m.summary(uname)
	m.out.Add(sum)
	if out.Sink != nil {
		m.wrote(out.Sink(sum))
	}
	return m.out.Records, m.werr, nil
}

// noteBounded tells how many time-driven patterns stopped at the disk
// bound before their scheduled time.
func (m *meter) noteBounded() {
	for pi, st := range m.parts {
		if st.bounded > 0 {
			m.note("%d time-driven patterns on %d processes stopped at the disk bound before their scheduled time "+
				"(-disk; see the reps of the write records)", st.bounded, m.plan.Partitions[pi])
		}
	}
}

func (m *meter) run() error {
	size := MaxMem(m.plan.Table)
	var err error
	if m.wbuf, err = mpi.Alloc(size); err != nil {
		return err
	}
	defer m.wbuf.Free()
	if m.rbuf, err = mpi.Alloc(size); err != nil {
		return err
	}
	defer m.rbuf.Free()
	// Not zeros: some file systems store zeros without writing them.
	for i, b := 0, m.wbuf.Bytes(); i < len(b); i++ {
		b[i] = byte(i*7 + 1)
	}
	for range m.plan.Partitions {
		m.parts = append(m.parts, &state{reps: make([]int64, len(m.plan.Table))})
	}
	// Rank 0 is in every partition: every type of every access method.
	m.cases.SetTotal(len(Accesses) * len(m.plan.Partitions) * Types)
	for a := range Accesses {
		for pi, n := range m.plan.Partitions {
			if err := m.partition(a, pi, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// partition runs one access method on ranks 0..n-1; the others wait.
func (m *meter) partition(a, pi, n int) error {
	if err := m.world.Barrier(); err != nil {
		return err
	}
	color := -1
	if m.world.Rank() < n {
		color = 0
	}
	// The ranks outside the partition wait at the next barrier with no
	// case of their own: the watchdog of the partition's ranks, rank 0
	// among them, ends the job if the partition hangs.
	comm, err := m.world.Split(color, m.world.Rank())
	if err != nil || comm.Null() {
		return err
	}
	defer comm.Free()
	st := m.parts[pi]
	st.measure = true
	for typ := range Types {
		if a == 0 && typ == 3 {
			var seg []int64
			seg, st.lseg, st.fill = Segment(m.plan.Table, st.reps)
			for k, p := range OfType(m.plan.Table, 3) {
				st.reps[p.No] = seg[k]
			}
			for k, p := range OfType(m.plan.Table, 4) {
				st.reps[p.No] = seg[k]
			}
		}
		if err := m.ptype(a, pi, typ, comm); err != nil {
			return err
		}
	}
	return nil
}

// ptype runs one type of one access method on a partition as a case of
// the loop, or takes what -resume kept of it.
func (m *meter) ptype(a, pi, typ int, comm mpi.Comm) error {
	n := comm.Size()
	key := Key(n, a, typ)
	if a > 0 && !m.cases.Skip(key) && m.cases.Hung(Key(n, 0, typ)) {
		m.note("%s is not measured: the write of its file hung in the resumed run (%s)", key, Key(n, 0, typ))
		return nil
	}
	recs, kept, err := m.loop.Run(mpijob.Step{Case: m.caseOf(a, pi, typ, n, key, false), Show: m.keep,
		Measure: func() ([]*result.Record, error) { return m.measureType(a, pi, typ, comm, key) }})
	if err != nil || !kept {
		return err
	}
	return m.resumed(a, pi, typ, comm, key, recs)
}

// measureType runs one type of one access method: its records on rank 0.
func (m *meter) measureType(a, pi, typ int, comm mpi.Comm, key string) ([]*result.Record, error) {
	recs, err := m.pass(a, pi, typ, comm, false)
	if err != nil || comm.Rank() != 0 {
		return nil, err
	}
	for _, r := range recs {
		r.Case = key
	}
	return recs, nil
}

// keep keeps, on rank 0, the records of a case, measured or kept by a
// resumed run, for the summary and the text at the end.
func (m *meter) keep(recs []*result.Record) error {
	for _, r := range recs {
		m.out.Add(r)
	}
	return nil
}

// pass runs the patterns of one type in one file, from open to close,
// and returns on rank 0 their records and the type's total: all bytes
// over the time from open to close. A refill makes the write again,
// untimed and unrecorded, with the repeat factors the patterns have.
func (m *meter) pass(a, pi, typ int, comm mpi.Comm, refill bool) ([]*result.Record, error) {
	st := m.parts[pi]
	n, rank := comm.Size(), comm.Rank()
	name := FileName(m.plan.Opts.IODir, m.plan.Opts.Prefix, n, typ, rank)
	f, total, err := kernel.Open(comm, typ == 2, name, a)
	if err != nil {
		return nil, inCase(err, "type "+TypeNames[typ], a, -1, n)
	}
	var recs []*result.Record
	var disp, bytes int64
	if typ >= 3 {
		disp = int64(rank) * st.lseg
	}
	for i, p := range OfType(m.plan.Table, typ) {
		l, mem := p.L, p.Mem
		if p.Fill {
			l, mem = st.fill, st.fill
		}
		// Type 0 needs a new filetype for each chunk size; the other
		// types keep one view and their file pointers run on.
		if typ == 0 || i == 0 {
			if err := f.SetView(typ, n, rank, l, disp); err != nil {
				return nil, inCase(err, fmt.Sprintf("p%02d", p.No), a, l, n)
			}
		}
		r, t, sched, err := m.exec(f, a, pi, p, l, mem, refill, comm)
		if err != nil {
			return nil, inCase(err, fmt.Sprintf("p%02d", p.No), a, l, n)
		}
		moved := int64(n) * int64(mem) * r
		if typ == 0 {
			// The next pattern starts behind what all ranks wrote.
			disp += moved
		}
		bytes += moved
		total += t
		if rank == 0 && !refill {
			rec := m.patternRecord(a, n, p, l, mem, r, t, moved, sched)
			rec.Defects = float64(m.last)
			if m.cut {
				rec.Cut = result.CutDisk
			}
			recs = append(recs, rec)
		}
	}
	tc, err := f.Close()
	if err != nil || refill {
		return nil, inCase(err, "type "+TypeNames[typ], a, -1, n)
	}
	total += tc
	st.types[a][typ] = Bandwidth(bytes, total)
	st.bytes[a] += bytes
	if rank == 0 {
		recs = append(recs, m.typeRecord(a, n, typ, bytes, total))
	}
	return recs, nil
}

// exec runs one pattern of mem bytes per call, in chunks of l bytes on
// disk: time-driven in the initial write of types 0-2 (and at most the
// calls of the disk bound), else with the repeat factor of the write. As
// in release 2.1 of the original (r_max = rep[p] when a > 0 or type >= 3)
// and section 4 of the paper (types 3 and 4 "size-driven ... initialized
// based on the measurements for types (0) to (2)"), the rewrite and read
// are size-driven too: they move exactly the bytes the write moved, the
// read checking every chunk; a time-driven read could not read more than
// the file holds. It returns the calls made, the time and the schedule (0
// if none); a read's defects, summed over the partition, go to m.last and
// on rank 0 to m.defects.
func (m *meter) exec(f *kernel.File, a, pi int, p Pattern, l, mem int, refill bool, comm mpi.Comm) (int64, float64, float64, error) {
	st := m.parts[pi]
	m.last, m.cut = 0, false
	run := kernel.Pattern{Type: p.Type, Write: a != 2, Buf: m.wbuf, Len: mem, Chunk: l, Rank: comm.Rank(),
		Pattern: p.No, Dir: m.plan.Opts.IODir, Room: int64(comm.Size()) * int64(mem)}
	if a == 2 {
		run.Buf = m.rbuf
	}
	if timed(a, p.Type, refill) {
		run.Sched = Sched(m.plan.Opts.T, p.U, len(m.plan.Partitions))
		run.MaxReps = m.plan.MaxReps[pi][p.No]
	} else {
		run.Reps = st.reps[p.No]
	}
	res, err := f.Exec(run)
	if err != nil {
		return 0, 0, 0, err
	}
	if timed(a, p.Type, refill) {
		st.reps[p.No] = res.Calls
		if p.U > 0 && res.Calls == run.MaxReps {
			st.bounded++
			m.cut = true
		}
	}
	if a == 2 {
		if err := m.countDefects(res.Defects, a, p, comm); err != nil {
			return 0, 0, 0, err
		}
	}
	return res.Calls, res.Time, run.Sched, nil
}

// countDefects sums a read's defects over the partition on its rank 0.
func (m *meter) countDefects(d int64, a int, p Pattern, comm mpi.Comm) error {
	all, err := comm.GatherFloat64s([]float64{float64(d)})
	if err != nil {
		return err
	}
	m.last = 0
	for _, v := range all {
		m.last += int64(v)
	}
	if m.last > 0 {
		m.defects += m.last
		m.wrong = append(m.wrong, fmt.Sprintf("%s of p%02d on %d processes", Accesses[a], p.No, comm.Size()))
	}
	return nil
}

// inCase names the case an error of this rank was met in: pattern (or
// type) bench of access method a with chunks of l bytes (negative: none)
// on n processes.
func inCase(err error, bench string, a, l, n int) error {
	return result.InCase(err, result.CaseError{Suite: result.SuiteBeffIO, Bench: bench, Mode: Accesses[a], Bytes: l, Procs: n})
}

// timed tells whether a pattern of type typ runs on a schedule in access
// method a: the initial write of types 0-2, unless it is a refill.
func timed(a, typ int, refill bool) bool { return a == 0 && typ <= 2 && !refill }

func (m *meter) patternRecord(a, n int, p Pattern, l, mem int, r int64, t float64, moved int64, sched float64) *result.Record {
	return &result.Record{
		Suite: result.SuiteBeffIO, Benchmark: fmt.Sprintf("p%02d", p.No), Class: TypeNames[p.Type],
		Mode: Accesses[a], Multi: -1, Group: -1, NProcs: n, Bytes: l, Reps: int(r), TMax: t * 1e6, Context: m.ctx,
		BeffIOFigures: result.BeffIOFigures{MemBytes: mem, Units: p.U, Pos: p.Pos, IOBytes: moved,
			SchedSec: sched, IOMBps: Bandwidth(moved, t)},
	}
}

func (m *meter) typeRecord(a, n, typ int, bytes int64, t float64) *result.Record {
	return &result.Record{
		Suite: result.SuiteBeffIO, Benchmark: "total", Class: TypeNames[typ], Mode: Accesses[a],
		Multi: -1, Group: -1, NProcs: n, TMax: t * 1e6, Context: m.ctx,
		BeffIOFigures: result.BeffIOFigures{IOBytes: bytes, IOMBps: Bandwidth(bytes, t)},
	}
}

// summary computes b_eff_io on rank 0, which belongs to every partition.
func (m *meter) summary(uname string) *result.Record {
	p := m.plan
	s := &result.BeffIOSummary{
		MemMB: p.MemMB, MPart: p.MPart, T: p.Opts.T, SumU: SumU, Uname: uname,
		Accesses: Accesses[:], Types: TypeNames[:],
	}
	var values []float64
	for pi, n := range p.Partitions {
		st := m.parts[pi]
		bp := result.BeffIOPartition{Procs: n, T: p.Opts.T / float64(len(p.Partitions)), Segment: st.lseg, Bytes: st.bytes}
		var acc [3]float64
		for a := range Accesses {
			bp.Types[a] = append([]float64(nil), st.types[a][:]...)
			acc[a] = AccessValue(st.types[a])
		}
		bp.Access = acc
		bp.Value = PartitionValue(acc)
		values = append(values, bp.Value)
		s.Partitions = append(s.Partitions, bp)
	}
	best, at := SystemValue(values)
	s.BeffIO, s.Procs = best, p.Partitions[at]
	return &result.Record{
		Suite: result.SuiteBeffIO, Benchmark: "b_eff_io", Class: "summary", Multi: -1, Group: -1,
		NProcs: s.Procs, Bytes: p.MPart, BeffIOFigures: result.BeffIOFigures{BeffIO: s}, Context: m.ctx,
	}
}
