package beff

import (
	"fmt"

	"mpibench/analysis/result"
	"mpibench/run/cases"
)

// Key is the journal key of one measurement b(pat,L,mthd,rep), e.g.
// "beff/rep1/ring-4/1024/sendrecv". A measurement is the finest case:
// it makes one record on its own, so a killed run loses at most one.
func Key(rep int, pattern string, l int, method string) string {
	return fmt.Sprintf("beff/rep%d/%s/%d/%s", rep, pattern, l, method)
}

func (pt point) key() string { return Key(pt.rep, pt.pat.Name, pt.l, pt.meth) }

// caseOf describes a measurement to the watchdog: looplength
// executions (and the warm-up one) of messages of L bytes; with the
// adaptive looplength at most 1+MaxRetunes loops of at most 300.
func (m *meter) caseOf(pt point, ll int, warm bool) cases.Case {
	reps, tries := ll, 1
	if m.plan.Opts.Looplength == Adaptive {
		reps, tries = FirstLoop, 1+MaxRetunes
	}
	if warm {
		reps++
	}
	reps *= tries
	return cases.Case{Suite: result.SuiteBeff, Benchmark: fmt.Sprintf("%s %s, repetition %d", pt.pat.Name, pt.meth, pt.rep),
		Bytes: int64(pt.l), Procs: m.plan.Procs, Reps: reps, Key: pt.key()}
}

// resumed takes a measurement -resume skipped, whose records the earlier
// run left (stored, on rank 0). The loop has kept them (keep), in their
// place among the others, so that b_eff and the tables are computed from
// all of them as if the run had not stopped.
//
// The looplengths: the adaptive looplength of a length follows from the
// looplength and time of the length before, in the first repetition, and
// the second and third repetitions start from the first one's. A skipped
// measurement of the first repetition therefore hands on what it stored:
// rank 0 broadcasts its looplength and maximum time, every rank takes
// that looplength for the later repetitions and computes the next
// length's from them, exactly as the earlier run did. A measurement that
// hung has neither: it counts as taking no time, so the next length keeps
// its looplength (adaptive: not cut; fixed: the rule's own value). Its
// second and third repetitions are other cases, measured as usual with
// the looplength it was given.
func (m *meter) resumed(pt point, stored []*result.Record) error {
	if pt.rep != 1 {
		return nil
	}
	ll := m.loops[pt.i][pt.j][pt.li]
	if m.cases.Hung(pt.key()) {
		m.setNext(pt, ll, 0)
		return nil
	}
	var last *result.Record // rank 0's
	if len(stored) > 0 {
		last = stored[len(stored)-1]
	}
	ll, tmax, err := m.shareLoop(last)
	if err != nil {
		return err
	}
	m.loops[pt.i][pt.j][pt.li] = ll
	m.setNext(pt, ll, tmax/float64(ll))
	return nil
}

// shareLoop broadcasts the looplength and the maximum time (s) of a
// stored measurement from rank 0, which alone has the record.
func (m *meter) shareLoop(r *result.Record) (int, float64, error) {
	ll, t := 0, 0.0
	if r != nil {
		ll, t = r.Reps, r.TMax/1e6
	}
	ll, err := m.world.BcastInt(ll)
	if err == nil {
		t, err = m.world.BcastFloat64(t)
	}
	return max(ll, 1), t, err
}
