package skampi

import (
	"encoding/json"
	"errors"
	"math"
	"mpibench/run/clocksync"
	"slices"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/suites/skampi/kernel"
	"mpibench/suites/skampi/method"
)

// SurveyReps is the number of round trips per pair of the survey that
// picks the ping-pong pair: enough to tell an inter-node pair from an
// intra-node one, quick enough for many processes.
const SurveyReps = 10

// Driver runs measurements on every process of World; records come back
// on world rank 0.
type Driver struct {
	World   mpi.Comm
	Context result.Context
	// Samples keeps every repetition's raw time in the records (the
	// default of mpibench skampi; -samples=false drops them).
	Samples bool
	// Sync is -sync and -window_time (window.go).
	Sync Sync
	pair []int // the ping-pong pair, found by the first ping-pong measurement
	lat  float64
}

// point is one measured point as the timing process saw it.
type point struct {
	X      int           `json:"x"`
	Bytes  int           `json:"bytes"`
	NProcs int           `json:"np"`
	Groups [][]int       `json:"groups"`
	R      method.Result `json:"r"`
	// RelErr carries R.RelErr through JSON, which has no +Inf: nil when
	// it is not finite.
	RelErr *float64 `json:"rel_err"`
	// Win is the window figures of a point timed in start windows.
	Win *winInfo `json:"win,omitempty"`
}

// Run measures m on every rank of the world and returns its records on
// rank 0 (nil on the others), one per point, by increasing X. An error is
// an MPI error of this rank, named by caseError: the caller must abort the
// job.
func (d *Driver) Run(m *Measurement) ([]result.Record, error) {
	recs, err := d.run(m)
	if err != nil {
		return nil, caseError(m, d.World.Size(), err)
	}
	return recs, nil
}

func (d *Driver) run(m *Measurement) ([]result.Record, error) {
	m.sync = d.Sync
	var pts []point
	var err error
	root := 0 // world rank of the timing process
	switch m.Pattern {
	case PingPong:
		pts, root, err = d.pingpong(m)
	case Simple:
		pts, err = d.simple(m)
	default:
		pts, err = d.group(m)
	}
	if err != nil {
		return nil, err
	}
	pts, err = d.share(pts, root)
	if err != nil || d.World.Rank() != 0 {
		return nil, err
	}
	return d.records(m, pts), nil
}

// share sends the timing process's points to rank 0, which writes them
// (and nil to every other rank): what rank 0 keeps grows with the points,
// no other rank's with anything.
func (d *Driver) share(pts []point, root int) ([]point, error) {
	var b []byte
	if d.World.Rank() == root {
		for i := range pts {
			if !d.Samples {
				pts[i].R.Samples = nil // not recorded; keeps the broadcast short
			}
			if e := pts[i].R.RelErr; !math.IsInf(e, 0) && !math.IsNaN(e) {
				pts[i].RelErr = &e
			}
		}
		// RelErr, the one figure that may be +Inf, goes as a pointer, so
		// Marshal cannot fail.
		b, _ = json.Marshal(pts)
	}
	b, err := kernel.ToRank0(d.World, b, root)
	if err != nil || d.World.Rank() != 0 {
		return nil, err
	}
	var out []point
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b point) int { return a.X - b.X })
	return out, nil
}

// pointError is an error met at one point of a measurement: its length
// and process count.
type pointError struct {
	bytes, procs int
	err          error
}

func (e *pointError) Error() string { return e.err.Error() }
func (e *pointError) Unwrap() error { return e.err }

// atPoint marks err as met at n bytes on procs processes; nil stays nil,
// and an error already marked keeps its point.
func atPoint(err error, n, procs int) error {
	var pe *pointError
	if err == nil || errors.As(err, &pe) {
		return err
	}
	return &pointError{bytes: n, procs: procs, err: err}
}

// caseError names where an MPI error happened (result.CaseError; the
// abort's message adds the suite and the rank): the measurement, the
// length and process count of its point, or outside a point (the
// ping-pong survey, the results sent to rank 0) the measurement's length
// on the world's size processes. The error stays wrapped, so that
// mpi.EndsJob still knows it.
func caseError(m *Measurement, size int, err error) error {
	n, procs := m.length(), size
	var pe *pointError
	if errors.As(err, &pe) {
		n, procs, err = pe.bytes, pe.procs, pe.err
	}
	return result.InCase(err, result.CaseError{Suite: Name, Bench: m.Name, Bytes: n, Procs: procs})
}

// policy is the adaptive repetition policy of m; the clock rule uses this
// process's MPI_Wtick, which matters on the timing process only.
func (m *Measurement) policy() method.Adaptive {
	limit := m.TimeLimit
	if limit == 0 {
		limit = -1 // the configuration's 0 is no limit
	}
	return method.Adaptive{Epsilon: m.Epsilon, MinReps: m.MinReps, MaxReps: m.MaxReps, TimeLimit: limit, Tick: mpi.Wtick()}
}

// op is the C kernel of m.
func (m *Measurement) op() kernel.Op {
	o, _ := lookupOp(m.Pattern, m.Op)
	return o.op
}

// length is the message length of a point not swept over bytes: none
// for operations that move no data.
func (m *Measurement) length() int {
	switch m.op() {
	case kernel.Barrier, kernel.CommSplit:
		return 0
	}
	if m.Pattern == Simple {
		return 0
	}
	return m.Len
}

// emptyOp is the empty measurement of m's pattern: for collectives the
// barriers around the timer, for the others the timer pair alone.
func (m *Measurement) emptyOp() kernel.Op {
	if m.Pattern == Collective {
		return kernel.CollEmpty
	}
	return kernel.Empty
}

// empty measures the systematic error of m's pattern on c and returns the
// trimmed mean of its samples (meaningful on the timing process); in
// start windows (clk) the empty call's window time: the clocks' residual
// misalignment and the clock reads.
func empty(c mpi.Comm, m *Measurement, clk *clocksync.Clock, decide method.Decide) (float64, error) {
	k, err := m.sync.newCase(c, m, m.emptyOp(), 0, 1)
	if err != nil {
		return 0, err
	}
	defer k.Free()
	smp, _ := sampler(c, clk, k, m.sync.Window)
	r, err := m.policy().Run(smp, 0, decide)
	return r.Trimmed, err
}

// at measures one point of m on c at one length and work count: its own
// empty measurement, then the operation. Its error is marked with the
// point.
func at(c mpi.Comm, m *Measurement, n, work int, decide method.Decide) (method.Result, error) {
	r, err := atOnce(c, m, n, work, decide)
	return r, atPoint(err, n, procsOf(c, m))
}

// procsOf is the number of processes that measure m on c: one for a
// simple measurement, which world rank 0 runs alone on the world.
func procsOf(c mpi.Comm, m *Measurement) int {
	if m.Pattern == Simple {
		return 1
	}
	return c.Size()
}

func atOnce(c mpi.Comm, m *Measurement, n, work int, decide method.Decide) (method.Result, error) {
	clk, err := m.sync.clock(c, m)
	if err != nil {
		return method.Result{}, err
	}
	e, err := empty(c, m, clk, decide)
	if err != nil {
		return method.Result{}, err
	}
	k, err := m.sync.newCase(c, m, m.op(), n, work)
	if err != nil {
		return method.Result{}, err
	}
	defer k.Free()
	if err := k.SetLen(n); err != nil {
		return method.Result{}, err
	}
	smp, ws := sampler(c, clk, k, m.sync.Window)
	r, err := m.policy().Run(smp, e, decide)
	m.win = ws.point()
	return r, err
}

// lengths sweeps m over its lengths on c with method.Refine. The
// refinement's choice depends on the times, so every rank follows the
// timing process's trimmed mean. Its error is marked with the length
// measured, or before the first with the largest (the buffers' size).
func lengths(c mpi.Comm, m *Measurement, work int, base point) ([]point, error) {
	pts, err := sweep(c, m, work, base)
	return pts, atPoint(err, m.Hi, c.Size())
}

func sweep(c mpi.Comm, m *Measurement, work int, base point) ([]point, error) {
	clk, err := m.sync.clock(c, m)
	if err != nil {
		return nil, err
	}
	e, err := empty(c, m, clk, decide(c))
	if err != nil {
		return nil, err
	}
	k, err := m.sync.newCase(c, m, m.op(), m.Hi, work)
	if err != nil {
		return nil, err
	}
	defer k.Free()
	var pts []point
	ref := method.Refine{MMin: m.Lo, MMax: m.Hi, Gamma: m.Gamma, Epsilon: m.Epsilon, Budget: m.Budget}
	_, err = ref.Run(func(n int) (float64, error) {
		if err := k.SetLen(n); err != nil {
			return 0, atPoint(err, n, c.Size())
		}
		smp, ws := sampler(c, clk, k, m.sync.Window)
		r, err := m.policy().Run(smp, e, decide(c))
		if err != nil {
			return 0, atPoint(err, n, c.Size())
		}
		p := base
		p.X, p.Bytes, p.R, p.Win = n, n, r, ws.point()
		pts = append(pts, p)
		t, err := c.BcastFloat64(r.Trimmed)
		return t, atPoint(err, n, c.Size())
	})
	return pts, err
}

// pingpong finds the pair and measures m between its processes; the
// others wait. The timing process is the pair's first.
func (d *Driver) pingpong(m *Measurement) ([]point, int, error) {
	if err := d.findPair(); err != nil {
		return nil, 0, err
	}
	a, b := d.pair[0], d.pair[1]
	c, err := pairOf(d.World, a, b)
	if err != nil {
		return nil, a, err
	}
	defer c.Free()
	if c.Null() {
		return nil, a, nil
	}
	base := point{NProcs: 2, Groups: [][]int{{a, b}}}
	if m.Param == OverBytes {
		pts, err := lengths(c, m, 1, base)
		return pts, a, err
	}
	r, err := at(c, m, m.Len, 1, decide(c))
	base.Bytes, base.R = m.Len, r
	return []point{base}, a, err
}

// findPair runs the survey once: the pair i < j with the largest mean
// round trip, the first such in row order on ties, the same on every
// rank (kernel.Survey; docs/skampi.md says why its pairs run at once).
func (d *Driver) findPair() error {
	if d.pair != nil {
		return nil
	}
	i, j, lat, err := kernel.Survey(d.World, SurveyReps)
	if err != nil {
		return err
	}
	if j < 0 { // one process: no pair was measured
		i, j, lat = 0, 1, -1
	}
	d.pair, d.lat = []int{i, j}, lat
	return nil
}

// Pair is the ping-pong pair and its survey latency in seconds, nil
// before the first ping-pong measurement.
func (d *Driver) Pair() ([]int, float64) { return d.pair, d.lat }

// group measures a collective or master-worker measurement; rank 0 of
// the first P ranks times.
func (d *Driver) group(m *Measurement) ([]point, error) {
	if m.Param == OverProcs {
		var pts []point
		for _, p := range m.Points(d.World.Size()) {
			got, err := d.onFirst(p, m, func(c mpi.Comm, base point) ([]point, error) {
				r, err := at(c, m, m.length(), m.Work, decide(c))
				base.X, base.Bytes, base.R, base.Win = p, m.length(), r, m.win
				return []point{base}, err
			})
			if err != nil {
				return nil, err
			}
			pts = append(pts, got...)
		}
		return pts, nil
	}
	procs := m.Procs
	if procs == 0 {
		procs = d.World.Size()
	}
	return d.onFirst(procs, m, func(c mpi.Comm, base point) ([]point, error) {
		switch m.Param {
		case OverBytes:
			return lengths(c, m, m.Work, base)
		case OverWorkpieces:
			var pts []point
			for _, w := range m.Points(d.World.Size()) {
				r, err := at(c, m, m.length(), w, decide(c))
				if err != nil {
					return nil, err
				}
				p := base
				p.X, p.Bytes, p.R, p.Win = w, m.length(), r, m.win
				pts = append(pts, p)
			}
			return pts, nil
		}
		r, err := at(c, m, m.length(), m.Work, decide(c))
		base.Bytes, base.R, base.Win = m.length(), r, m.win
		return []point{base}, err
	})
}

// onFirst runs f on a communicator of the first p world ranks; the other
// ranks return at once.
func (d *Driver) onFirst(p int, m *Measurement, f func(mpi.Comm, point) ([]point, error)) ([]point, error) {
	c, err := firstRanks(d.World, p)
	if err != nil {
		return nil, err
	}
	defer c.Free()
	if c.Null() {
		return nil, nil
	}
	ranks := make([]int, p)
	for i := range ranks {
		ranks[i] = i
	}
	return f(c, point{NProcs: p, Groups: [][]int{ranks}})
}

// simple measures m on world rank 0 alone; its own vote decides.
func (d *Driver) simple(m *Measurement) ([]point, error) {
	if d.World.Rank() != 0 {
		return nil, nil
	}
	r, err := at(d.World, m, 0, 1, method.Local)
	return []point{{NProcs: 1, Groups: [][]int{{0}}, R: r}}, err
}

// records turns the points into Records, times in µs: the figures, the
// raw samples and correction they come from, and the policy that
// stopped them, so that the trimmed mean and the stop decision can be
// recomputed from the record alone.
func (d *Driver) records(m *Measurement, pts []point) []result.Record {
	recs := make([]result.Record, 0, len(pts))
	for _, p := range pts {
		s := micro(p.R)
		pol := p.R.Policy
		recs = append(recs, result.Record{
			Suite: result.SuiteSkampi, Benchmark: m.Name, Class: m.Pattern, Mode: m.Mode(),
			Multi: -1, Group: -1, NProcs: p.NProcs, Groups: p.Groups, Bytes: p.Bytes, Reps: p.R.N,
			Stats: &s, Samples: microAll(p.R.Samples), TimeLimit: pol.TimeLimit,
			Context: d.Context,
			SkampiFigures: result.SkampiFigures{Param: m.Param, X: p.X, Epsilon: pol.Epsilon, Reached: p.R.Reached,
				RelErr: p.RelErr, Correction: p.R.Correction * us, Stop: p.R.Stop,
				MinReps: pol.MinReps, MaxReps: pol.MaxReps, Tick: pol.Tick * us},
		})
		d.syncFields(&recs[len(recs)-1], m, p.Win)
	}
	return recs
}
