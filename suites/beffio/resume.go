package beffio

import (
	"fmt"
	"strconv"
	"strings"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/mpijob"
)

// Key is the journal key of one type of one access method on a partition
// of n processes, e.g. "beffio/part2/write/scatter".
//
// That is the case, not the single pattern: the type's total (bytes over
// the time from MPI_File_open to MPI_File_close) is measured over the
// whole file and no pattern record holds the open and close times, so
// the patterns of a type and their total are produced together; and the
// patterns of types 1-4 carry their file pointers on from one to the
// next, so one of them cannot be measured alone. A case so also watches
// the open and the close. A killed run loses at most one type, a ninth
// or less of the scheduled time of an access method.
func Key(n, a, typ int) string {
	return fmt.Sprintf("beffio/part%d/%s/%s", n, Accesses[a], TypeNames[typ])
}

// caseOf describes a case to the watchdog: the scheduled time of its
// time-driven patterns, and the calls and bytes of its size-driven ones.
func (m *meter) caseOf(a, pi, typ, n int, key string, refill bool) cases.Case {
	st := m.parts[pi]
	c := cases.Case{Suite: result.SuiteBeffIO, Benchmark: fmt.Sprintf("%s of type %d (%s)", Accesses[a], typ, TypeNames[typ]),
		Procs: n, Key: key}
	if refill {
		c.Benchmark = "the repeated " + c.Benchmark
	}
	var bytes int64
	expect := 0.0 // seconds
	for _, p := range OfType(m.plan.Table, typ) {
		if timed(a, typ, refill) {
			expect += Sched(m.plan.Opts.T, p.U, len(m.plan.Partitions))
			continue
		}
		mem := p.Mem
		if p.Fill {
			mem = st.fill
		}
		c.Reps += int(st.reps[p.No])
		bytes += int64(mem) * st.reps[p.No]
	}
	if c.Reps > 0 {
		c.Bytes = bytes / int64(c.Reps)
	}
	c.Expect = cases.Seconds(expect)
	return c
}

// resumed takes a case -resume skipped, whose records the earlier run
// left (stored, on rank 0). The loop has kept them (keep), in their place
// among the others, so that b_eff_io and the tables are computed from all
// of them as if the run had not stopped.
//
// The schedule: only the initial write of types 0-2 is time-driven;
// types 3 and 4 and the rewrite and read repeat its counts. A skipped
// write therefore hands its stored counts on (rank 0 broadcasts them), and
// what follows is sized exactly as in the earlier run, whichever cases it
// finished. The time-driven cases still measured keep their own
// schedule, T·U/ΣU/3 each, so a resumed run takes the time of what is
// left. A write that hung has no counts: the rewrite and read of that
// type are not measured (there is no file), and types 3 and 4 size their
// segment with one call for its patterns, as Segment does for a count of
// 0.
//
// The files: a resumed run starts with none (they have this run's
// prefix), but a rewrite or read still to be measured needs its type's
// file as the write left it. So a skipped write is made again, untimed
// and unrecorded, with the stored counts, when the rewrite or read of its
// type is still to come.
func (m *meter) resumed(a, pi, typ int, comm mpi.Comm, key string, stored []*result.Record) error {
	n := comm.Size()
	m.replay(a, pi, typ, stored)
	if a != 0 || m.cases.Hung(key) {
		return nil
	}
	if typ <= 2 {
		if err := m.shareReps(pi, typ, comm); err != nil {
			return err
		}
	}
	if m.cases.Skip(Key(n, 1, typ)) && m.cases.Skip(Key(n, 2, typ)) {
		return nil
	}
	return m.refill(pi, typ, comm)
}

// replay takes, on rank 0, from the stored records of a case the type's
// value and bytes, and the counts of a time-driven write.
func (m *meter) replay(a, pi, typ int, stored []*result.Record) {
	st := m.parts[pi]
	for _, r := range stored {
		no, err := strconv.Atoi(strings.TrimPrefix(r.Benchmark, "p"))
		switch {
		case r.Benchmark == "total":
			st.types[a][typ] = r.IOMBps
			st.bytes[a] += r.IOBytes
		case err == nil && no >= 0 && no < len(st.reps) && timed(a, typ, false):
			st.reps[no] = int64(r.Reps)
		}
	}
}

// shareReps broadcasts the counts of the patterns of type typ from rank 0,
// which alone has the stored records.
func (m *meter) shareReps(pi, typ int, comm mpi.Comm) error {
	st := m.parts[pi]
	pats := OfType(m.plan.Table, typ)
	reps, err := mpijob.Share(comm, func() []int64 {
		reps := make([]int64, len(pats))
		for k, p := range pats {
			reps[k] = st.reps[p.No]
		}
		return reps
	})
	if err != nil {
		return err
	}
	if len(reps) != len(pats) {
		return fmt.Errorf("rank 0 shared %d repetition counts, want %d", len(reps), len(pats))
	}
	for k, p := range pats {
		st.reps[p.No] = reps[k]
	}
	return nil
}

// refill makes the write of a skipped type again for the rewrite or read
// still to come. It is a case of the watchdog's with a key of its own
// ("…/write/scatter/refill") but no records, so the journal never counts
// it done: a later -resume makes it again when it is needed, even after a
// hang (the rewrite and read cannot do without the file).
func (m *meter) refill(pi, typ int, comm mpi.Comm) error {
	key := Key(comm.Size(), 0, typ) + "/refill"
	_, _, err := m.loop.Run(mpijob.Step{Case: m.caseOf(0, pi, typ, comm.Size(), key, true), Again: true,
		Measure: func() ([]*result.Record, error) {
			_, err := m.pass(0, pi, typ, comm, true)
			return nil, err
		}})
	return err
}

// note tells the user, on rank 0, what a resumed run leaves out.
func (m *meter) note(format string, a ...any) {
	if m.notes != nil && m.world.Rank() == 0 {
		_, _ = fmt.Fprintf(m.notes, "mpibench beffio: "+format+"\n", a...)
	}
}

// wrote keeps the first failed write of rank 0.
func (m *meter) wrote(err error) {
	if err != nil && m.werr == nil {
		m.werr = fmt.Errorf("writing records: %w", err)
	}
}
