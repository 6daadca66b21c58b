package skampi

import (
	"fmt"
	"strconv"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/run/clocksync"
	"mpibench/suites/skampi/kernel"
	"mpibench/suites/skampi/method"
)

// Sync is -sync and -window_time of mpibench skampi: how the collective
// pattern starts its repetitions. Barrier (the default, the paper's
// section 2.3 pattern) puts MPI_Barrier before the timer and after the
// operation; none (not SKaMPI's) leaves out the barrier before the timer,
// so that every rank starts when it is done with the previous repetition,
// and keeps the one after, which tells the timing rank that all are done;
// window times every call from a start common to all ranks on clocks
// synchronised against rank 0 (package clocksync) to the last rank's end.
// Comm_split keeps barrier timing (its communicator is freed after the
// timer).
type Sync struct {
	Method string  `json:"method,omitempty"` // "" (barrier, not recorded), barrier, none or window
	Window float64 `json:"window_s,omitempty"`
}

// set reads -sync: barrier (alias on), none (alias off) or window.
func (s *Sync) set(v string) error {
	m, err := clocksync.ParseMethod(v)
	s.Method = m
	return err
}

// newCase is kernel.NewCase for m under s: without the barrier before
// the timer under -sync none.
func (s Sync) newCase(c mpi.Comm, m *Measurement, op kernel.Op, maxLen, work int) (*kernel.Case, error) {
	k, err := kernel.NewCase(c, op, maxLen, work)
	if err == nil && s.Method == clocksync.None && m.Pattern == Collective {
		k.NoBarrier()
	}
	return k, err
}

// setWindow reads -window_time.
func (s *Sync) setWindow(v string) error {
	w, err := strconv.ParseFloat(v, 64)
	if err != nil || !(w > 0) {
		return fmt.Errorf("want seconds > 0 between two starts, e.g. 0.001")
	}
	s.Window = w
	return nil
}

// winBatch is how many windows one loop runs; its valid times feed the
// adaptive policy one at a time.
const winBatch = 10

// maxDryBatches bounds the batches in a row without a valid repetition.
const maxDryBatches = 20

// windowed tells whether m's repetitions run in start windows.
func (s Sync) windowed(m *Measurement) bool {
	return s.Method == clocksync.Window && m.Pattern == Collective && m.op() != kernel.CommSplit
}

// winInfo is a point's window figures, shared with its point.
type winInfo struct {
	Window   float64   `json:"window_s"`
	ClockErr float64   `json:"clock_error_s"`
	Valid    int       `json:"valid"`
	Invalid  int       `json:"invalid"`
	Lags     []float64 `json:"lags"`
}

// winSampler hands out the valid times of window batches, one per call,
// on every rank alike: every rank sees the same reduced results, so all
// run the next batch at the same call.
type winSampler struct {
	c     mpi.Comm
	k     *kernel.Case
	clk   clocksync.Clock
	w     float64
	queue []float64
	info  winInfo
}

// clock synchronises the clocks of c when m runs in windows (nil
// otherwise).
func (s Sync) clock(c mpi.Comm, m *Measurement) (*clocksync.Clock, error) {
	if !s.windowed(m) {
		return nil, nil
	}
	clk, err := clocksync.Sync(c, clocksync.Defaults)
	return &clk, err
}

// sampler is k's sample function: k.Sample, or with a clock a
// winSampler of windows of w seconds (0: chosen).
func sampler(c mpi.Comm, clk *clocksync.Clock, k *kernel.Case, w float64) (method.Sample, *winSampler) {
	if clk == nil {
		return k.Sample, nil
	}
	ws := &winSampler{c: c, k: k, clk: *clk, w: w}
	return ws.sample, ws
}

func (s *winSampler) sample() (float64, error) {
	for dry := 0; len(s.queue) == 0; dry++ {
		if dry == maxDryBatches {
			return 0, fmt.Errorf("-sync window: no start in time in %d windows of %g s (clock error %g s): "+
				"a loaded node or too short a window; set -window_time or use -sync barrier",
				dry*winBatch, s.w, s.clk.MaxErr)
		}
		r, err := clocksync.Grow(s.c, s.clk, winBatch, s.w, 0, s.k.Window, 0)
		if err != nil {
			return 0, err
		}
		s.w = r.Window // a chosen window is kept for the point
		s.queue = r.Times
		s.info.Invalid += r.Invalid
		s.info.Lags = append(s.info.Lags, r.Lags...)
	}
	t := s.queue[0]
	s.queue = s.queue[1:]
	s.info.Valid++
	return t, nil
}

// point is the figures of the repetitions the policy took.
func (s *winSampler) point() *winInfo {
	if s == nil {
		return nil
	}
	i := s.info
	i.Window, i.ClockErr = s.w, s.clk.MaxErr
	return &i
}

// syncFields fills a record's -sync figures from its point.
func (d *Driver) syncFields(r *result.Record, m *Measurement, w *winInfo) {
	if d.Sync.Method == "" || m.Pattern != Collective {
		return
	}
	r.Sync = clocksync.Barrier
	if d.Sync.Method == clocksync.None && m.op() != kernel.CommSplit {
		r.Sync = clocksync.None
	}
	if w == nil {
		return
	}
	res := clocksync.Result{Lags: w.Lags}
	n := w.Invalid
	r.Sync, r.WindowS, r.ClockErr, r.ValidReps, r.InvalidReps, r.StartLag = clocksync.Window, w.Window, w.ClockErr,
		w.Valid, &n, res.StartLag()
}
