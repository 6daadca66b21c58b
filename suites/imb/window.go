package imb

import (
	"strconv"

	"mpibench/analysis/result"
	"mpibench/run/clocksync"
	"mpibench/suites/imb/kernel"
)

// syncWindow is -sync window: the collectives of mpi1 and the _pure
// loops of nbc timed in start windows on synchronised clocks (package
// clocksync) instead of between barriers. -sync barrier and none are IMB
// 2021's -sync on and off in nbc and under -imb 2021, stored in their IMB
// spelling; in mpi1's IMB 3.0 loops they say whether the barriers before
// the timed loop run (syncFor).
const syncWindow = clocksync.Window

// windowUsage is the help of -sync window and -window_time.
const windowUsage = `  -sync window  time every collective call (nbc: the _pure loops) from a
                start common to all ranks on clocks synchronised against
                rank 0 to the last rank's end; late repetitions are excluded
                and counted (records' starts: sync, window_s, clock_error_s,
                valid_reps, invalid_reps). nbc: -sync on|off|barrier|none too
  -window_time S  -sync window: seconds between two repetitions' starts
                (default: twice the longest of 5 calls + 4 clock errors)
`

// setWindow reads -sync (barrier|on, none|off, window) and -window_time.
func (f *Flags2021) setWindow(name, val string) error {
	if name == "window_time" {
		w, err := strconv.ParseFloat(val, 64)
		if err != nil || w <= 0 {
			return usagef("-window_time %q: want seconds > 0 between two repetitions' starts, e.g. 0.001", val)
		}
		f.WindowTime = w
		return nil
	}
	m, err := clocksync.ParseMethod(val)
	if err != nil {
		return usagef("%v", err)
	}
	f.Sync = map[string]string{clocksync.Barrier: "on", clocksync.None: "off", clocksync.Window: syncWindow}[m]
	f.SyncArg = val
	return nil
}

// typedSync is -sync as the user wrote it (the stored spelling where the
// flags were not parsed).
func (f *Flags2021) typedSync() string {
	if f.SyncArg != "" {
		return f.SyncArg
	}
	return f.Sync
}

// syncFor is the Sync a run of suite s stores: IMB 2021's on and off in
// nbc and under -imb 2021 (its -sync), barrier and none in mpi1 with IMB
// 3.0's loops, where they name what happens before the timed loop.
func (f *Flags2021) syncFor(s *Suite) string {
	if s != MPI1Suite || f.IMB == imb2021 {
		return f.Sync
	}
	return map[string]string{"": "", "on": clocksync.Barrier, "off": clocksync.None, clocksync.Barrier: clocksync.Barrier,
		clocksync.None: clocksync.None, syncWindow: syncWindow}[f.Sync]
}

// checkWindow refuses -sync window and -window_time where they do not
// apply; IMB-NBC takes every -sync and -root_shift without -imb 2021 (it
// is IMB 2021's).
func (f *Flags2021) checkWindow(s *Suite) error {
	switch {
	case f.Sync == syncWindow && s != MPI1Suite && s != NBCSuite:
		return usagef("-sync window is a flag of mpibench mpi1 and nbc (skampi has its own -sync)")
	case f.WindowTime > 0 && s != MPI1Suite && s != NBCSuite:
		return usagef("-window_time is a flag of mpibench mpi1 and nbc (with -sync window)")
	case f.WindowTime > 0 && f.Sync != syncWindow:
		return usagef("-window_time %g: the window of -sync window; add -sync window", f.WindowTime)
	case s == NBCSuite && f.Sync == syncWindow && f.RootShift == "on":
		// mpi/window.c starts nbc's calls at root 0 (mb_nbc_start).
		return usagef("-root_shift on with -sync window: nbc's window loop keeps the root at 0; leave out one of them")
	}
	return nil
}

// windowConflicts refuses -sync window with -check (the window loop does
// not verify data) and with -multi (one timing over every group).
func windowConflicts(o Options) error {
	switch {
	case o.F.Sync != syncWindow:
	case o.Check:
		return usagef("-sync window with -check: the window loop times and does not verify; run -check without it")
	case o.Multi >= 0:
		return usagef("-sync window with -multi %d: windows time one group; leave out -multi", o.Multi)
	}
	return nil
}

// windowed tells whether b runs in start windows: -sync window and a
// collective of mpi1 or an IMB-NBC _pure loop (the overlapped loops
// measure overlap with CPU work, which a window does not change: they keep
// IMB's barrier).
func (f *Flags2021) windowed(b *Benchmark) bool {
	if f.Sync != syncWindow {
		return false
	}
	if b.NBC != nil {
		return b.NBC.Pure && !b.NBC.Persist
	}
	return b.Class == Collective && b.Kernel != kernel.ReduceLocal
}

// nbcSync is the barriers after every repetition of an IMB-NBC loop: none
// under -sync off, else IMB's one.
func (f *Flags2021) nbcSync() int {
	if f.Sync == "off" {
		return 0
	}
	return 1
}

// method is the -sync method a record of b names ("" when -sync was not
// given or b is no collective).
func (f *Flags2021) method(b *Benchmark) string {
	switch {
	case f.Sync == "" || (b.Class != Collective && b.NBC == nil) || b.RMA3 != nil:
		// IMB-RMA takes -sync and calls no barrier for it.
		return ""
	case f.windowed(b):
		return clocksync.Window
	case f.Sync == "off" || f.Sync == clocksync.None:
		return clocksync.None
	}
	return clocksync.Barrier
}

// syncState is a case's clock under -sync window and the result of its
// latest window measurement, which the record of that length reports.
type syncState struct {
	clk    clocksync.Clock
	last   *clocksync.Result
	budget float64 // -time: seconds a sample's windows may take (<= 0: no bound)
}

// syncClocks synchronises the clocks of the active ranks once per
// benchmark and process count, after the warm-up.
func (e *caseEnv) syncClocks() error {
	if !e.f21.windowed(e.b) || e.sync == nil {
		e.sync = nil
		return nil
	}
	var err error
	e.sync.clk, err = clocksync.Sync(e.comm, clocksync.Defaults)
	return err
}

// inWindows measures reps repetitions of loop in start windows of
// -window_time, else of a window clocksync chooses (Grow), as many as
// -time's seconds hold. The sample's
// time is the mean over the valid repetitions, the same on every rank.
func (e *caseEnv) inWindows(reps int, loop clocksync.Loop, rootStep int) (Sample, error) {
	r, err := clocksync.Grow(e.comm, e.sync.clk, reps, e.f21.WindowTime, e.sync.budget, loop, rootStep)
	if err != nil {
		return Sample{}, err
	}
	e.sync.last = &r
	return Sample{T: r.Mean()}, nil
}

// rootStep is how far the root moves each repetition: one under IMB 3.0's
// definition, -root_shift under IMB 2021's and for its benchmarks.
func rootStep(r *kernel.Run) int {
	if r.IMB2021 || r.Kernel >= kernel.Gather {
		return b2i(r.RootShift)
	}
	return 1
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lastWindow is the window result of the latest measurement on this rank
// (nil outside -sync window and on idle ranks).
func (e *caseEnv) lastWindow() *clocksync.Result {
	if e.sync == nil {
		return nil
	}
	return e.sync.last
}

// syncFields fills the -sync figures of a record.
func syncFields(r *result.Record, method string, w *clocksync.Result) {
	r.Sync = method
	if w == nil {
		return
	}
	// -time may have run fewer windows than n_sample: reps counts them.
	r.Reps, r.WindowS, r.ClockErr, r.ValidReps, r.StartLag = w.Valid+w.Invalid, w.Window, w.ClockErr, w.Valid, w.StartLag()
	n := w.Invalid
	r.InvalidReps = &n
}
