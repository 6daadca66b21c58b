package mpijob

import (
	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/run/cases"
)

// Step is one case of a driver's loop: the case as the recorder knows it,
// and what the suite does in it.
type Step struct {
	Case cases.Case
	// Measure runs the suite's kernel on every rank and gathers what it
	// measured. It returns the case's records; rank 0's are the ones
	// written and shown. After an error the case ends unfinished: the
	// driver aborts the job, or stops where every rank met the error.
	Measure func() ([]*result.Record, error)
	// Show takes the records of the case on rank 0, measured now or kept
	// by a resumed run: it prints them, or keeps them for a text printed
	// at the end. nil: the case shows nothing of its own.
	Show func(recs []*result.Record) error
	// Hung says on rank 0, in place of the records, that the resumed run
	// hung in the case; nil: Show gets no records.
	Hung func() error
	// Again measures the case even where the resumed run finished or hung
	// in it: b_eff_io's refill, which makes no records, is needed by the
	// cases after it.
	Again bool
}

// Loop runs a driver's cases, the same way for every suite: a case the
// resumed run kept is shown from the journal, or passed over in silence;
// any other is begun (the watchdog, the journal and the progress line
// know it), measured, its records written and shown on rank 0, and
// ended.
//
// How rank 0's writes reach the other ranks is the suite's choice. A
// Speaking loop shares every write with all ranks at once, so that a
// failed one (a full disk, a closed pipe) stops them together: the
// suites that print as they measure. A GoingOn loop keeps rank 0's first
// failed write of the records and of the text and measures on; Err
// returns it at the end: the suites whose run is one result.
type Loop struct {
	cases      *cases.Recorder
	rank       int
	speak      func(write func() error) error // nil: going on
	jerr, terr error                          // a GoingOn loop's first failed write of the records, of the text
}

// Speaking is a Loop whose every write is spoken (Speak).
func Speaking(world mpi.Comm, rec *cases.Recorder) *Loop {
	return &Loop{cases: rec, rank: world.Rank(), speak: func(write func() error) error { return Speak(world, write) }}
}

// GoingOn is a Loop that keeps rank 0's first failed write and goes on.
func GoingOn(world mpi.Comm, rec *cases.Recorder) *Loop {
	return &Loop{cases: rec, rank: world.Rank()}
}

// Run runs one case on every rank. It returns the case's records (on
// rank 0: those measured, or those the resumed run left) and whether the
// resumed run kept the case, which was then not measured.
func (l *Loop) Run(s Step) (recs []*result.Record, kept bool, err error) {
	if !s.Again && l.cases.Skip(s.Case.Key) {
		return l.replay(s)
	}
	l.cases.Begin(s.Case)
	defer l.cases.End()
	if recs, err = s.Measure(); err != nil {
		return nil, false, err
	}
	return recs, false, l.finish(s, recs)
}

// replay shows a case the resumed run kept. Its records are read from
// the results file on rank 0; a failed read counts as a failed write of
// the text: a Speaking loop shares it with every rank where it shows the
// case, a GoingOn one keeps it for Err.
func (l *Loop) replay(s Step) ([]*result.Record, bool, error) {
	stored, serr := l.cases.Stored(s.Case.Key) // rank 0's; none elsewhere
	recs := make([]*result.Record, len(stored))
	for i := range stored {
		recs[i] = &stored[i]
	}
	var say func() error // the same on every rank
	switch {
	case s.Hung != nil && l.cases.Hung(s.Case.Key):
		say = s.Hung
	case s.Show != nil:
		say = func() error { return s.Show(recs) }
	}
	switch {
	case serr != nil && l.speak == nil:
		if l.jerr == nil {
			l.jerr = serr
		}
		return nil, true, nil
	case serr != nil && say == nil:
		return nil, true, serr // this rank's: the driver aborts
	case serr != nil:
		say = func() error { return serr }
	case say == nil:
		return recs, true, nil
	}
	return recs, true, l.Say(say)
}

// finish writes the records of a measured case and shows them on rank 0.
func (l *Loop) finish(s Step, recs []*result.Record) error {
	show := func() error {
		if s.Show == nil {
			return nil
		}
		return s.Show(recs)
	}
	if l.speak != nil {
		return l.speak(func() error {
			if err := l.cases.Finish(recs); err != nil {
				return err
			}
			return show()
		})
	}
	if l.rank == 0 && l.jerr == nil {
		l.jerr = l.cases.Finish(recs)
	}
	return l.Say(show)
}

// Say runs write on rank 0. A Speaking loop shares its error with every
// rank; a GoingOn one keeps the first and writes no more text after it.
func (l *Loop) Say(write func() error) error {
	if l.speak != nil {
		return l.speak(write)
	}
	if l.rank == 0 && l.terr == nil {
		l.terr = write()
	}
	return nil
}

// Err is a GoingOn loop's first failed write on rank 0: of the records,
// else of the text (nil elsewhere). Env.Finish(nil, loop.Err) ends the
// run with it on every rank.
func (l *Loop) Err() error {
	if l.jerr != nil {
		return l.jerr
	}
	return l.terr
}
