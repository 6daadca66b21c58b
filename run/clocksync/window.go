package clocksync

import (
	"fmt"
	"math"
	"slices"

	"mpibench/mpi"
	"mpibench/run/clocksync/kernel"
)

// Methods of -sync: a barrier between repetitions (IMB 2021's -sync on),
// none (-sync off), or start windows on synchronised clocks.
const (
	Barrier = "barrier"
	Window  = "window"
	None    = "none"
)

// ParseMethod reads a -sync value: barrier, window or none, and IMB
// 2021's spellings on (barrier) and off (none).
func ParseMethod(v string) (string, error) {
	switch v {
	case Barrier, "on":
		return Barrier, nil
	case None, "off":
		return None, nil
	case Window:
		return Window, nil
	}
	return "", fmt.Errorf("-sync %q: want barrier (alias on), window or none (alias off)", v)
}

// Result is a window-synchronised measurement, the same on every rank.
type Result struct {
	Window   float64   // W, seconds between two repetitions' starts
	ClockErr float64   // the clock's estimated error (Clock.MaxErr), seconds
	Valid    int       // repetitions every rank began in time
	Invalid  int       // repetitions some rank began late, excluded
	Times    []float64 // each valid repetition's last end minus its start, seconds
	Lags     []float64 // each repetition's largest start lag over the ranks, seconds
}

// Mean is the mean time of the valid repetitions (0 when none).
func (r *Result) Mean() float64 {
	if len(r.Times) == 0 {
		return 0
	}
	var s float64
	for _, t := range r.Times {
		s += t
	}
	return s / float64(len(r.Times))
}

// Median is the median time of the valid repetitions (0 when none).
func (r *Result) Median() float64 { return median(r.Times) }

// StartLag is the median of the repetitions' start lags (0 when none).
func (r *Result) StartLag() float64 { return median(r.Lags) }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	t := slices.Clone(v)
	slices.Sort(t)
	n := len(t)
	return (t[(n-1)/2] + t[n/2]) / 2
}

// Loop runs one window loop of a collective on every rank of its
// communicator (kernel.Run.ExecWindow (suites/imb/kernel) and its kin).
type Loop func(*mpi.WinLoop) error

// boundTries is how many single calls, each after a barrier, measure the
// collective's time when no window is given.
const boundTries = 5

// Bound is the window chosen from a measured bound of the collective's
// time: boundTries single calls after barriers, each the longest over the
// ranks (a rank's own local time across the call), their median (one
// call a scheduler delayed does not set the window), then W = 2·that +
// 4·the clock error (two starts and two ends may each be off by it), at
// least 10 µs. It is the same on every rank.
func Bound(c mpi.Comm, clk Clock, loop Loop, rootStep int) (float64, error) {
	l, err := mpi.NewWinLoop(1, rootStep)
	if err != nil {
		return 0, err
	}
	defer l.Free()
	longest := make([]float64, boundTries)
	for i := range longest {
		if err := c.Barrier(); err != nil {
			return 0, err
		}
		t0 := mpi.Wtime()
		l.Targets()[0] = t0 // no wait
		if err := loop(l); err != nil {
			return 0, err
		}
		longest[i] = l.Ends()[0] - t0
	}
	if err := kernel.Max(c, longest); err != nil {
		return 0, err
	}
	return math.Max(2*median(longest)+4*clk.MaxErr, 10e-6), nil
}

// growTries bounds the measurements of Grow with a chosen window.
const growTries = 4

// Grow measures reps repetitions of loop in windows of w seconds, or for
// w = 0 of the window Bound gives, grown fourfold while more than half the
// repetitions miss their start and the median start lag exceeds the
// window: calls that overran their windows pushed the schedule behind
// (at most growTries measurements). Starts missed by less are a loaded
// node's, which a longer window does not cure. A budget >
// 0 bounds one measurement's windows to that many seconds (at least one
// repetition).
func Grow(c mpi.Comm, clk Clock, reps int, w, budget float64, loop Loop, rootStep int) (Result, error) {
	tries := 1
	var err error
	if w == 0 {
		if w, err = Bound(c, clk, loop, rootStep); err != nil {
			return Result{}, err
		}
		tries = growTries
	}
	var r Result
	for i := 0; i < tries; i++ {
		n := reps
		if budget > 0 && float64(n)*w > budget {
			n = max(1, int(budget/w))
		}
		if r, err = Measure(c, clk, n, w, loop, rootStep); err != nil || 2*r.Invalid <= n || r.StartLag() <= w {
			break
		}
		w *= 4
	}
	return r, err
}

// Measure runs reps repetitions of loop in windows of w seconds (every
// rank calls it with the same reps and w): rank 0 sets the first start
// 2·w + 5 ms ahead (time for the broadcast), repetition i starts at
// start + i·w global, each rank waits for its local image of that time;
// after the loop the end times, mapped to global time, and the start lags
// are reduced to their maxima over the ranks.
func Measure(c mpi.Comm, clk Clock, reps int, w float64, loop Loop, rootStep int) (Result, error) {
	l, err := mpi.NewWinLoop(reps, rootStep)
	if err != nil {
		return Result{}, err
	}
	defer l.Free()
	start := []float64{0}
	if c.Rank() == 0 {
		start[0] = clk.Global(mpi.Wtime()) + 2*w + 5e-3
	}
	if err := kernel.Bcast(c, start); err != nil {
		return Result{}, err
	}
	tg := l.Targets()
	for i := range tg {
		tg[i] = clk.Local(start[0] + float64(i)*w)
	}
	if err := loop(l); err != nil {
		return Result{}, err
	}
	v := make([]float64, 2*reps)
	for i, e := range l.Ends() {
		v[i] = clk.Global(e)
	}
	copy(v[reps:], l.Lags())
	if err := kernel.Max(c, v); err != nil {
		return Result{}, err
	}
	return Tally(v[:reps], v[reps:], start[0], w, clk.MaxErr), nil
}

// Slack is how late a rank may begin a repetition and still count as in
// time: the clock error, below which a misaligned start cannot be seen
// anyway, and at least 1 µs (an interrupt between two clock reads).
func Slack(clockErr float64) float64 { return math.Max(clockErr, 1e-6) }

// Tally is the result of a loop from the latest global end and the
// largest start lag over the ranks of every repetition: one that lags by
// more than the slack (Slack of the clock error) is invalid.
func Tally(ends, lags []float64, start, w, clockErr float64) Result {
	r := Result{Window: w, ClockErr: clockErr, Lags: lags}
	slack := Slack(clockErr)
	for i, e := range ends {
		if lags[i] > slack {
			r.Invalid++
			continue
		}
		r.Valid++
		r.Times = append(r.Times, e-(start+float64(i)*w))
	}
	return r
}
