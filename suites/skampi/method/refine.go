package method

import (
	"container/heap"
	"fmt"
	"math"
)

// Refine is SKaMPI's adaptive refinement over the message length
// (section 3.2). The zero values of Gamma and Epsilon take defaults.
//
// It first measures the geometric grid of Grid(MMin, MMax, Gamma), then
// repeatedly takes the segment [m_b, m_c] between neighbouring measured
// lengths with the largest error estimate and measures its geometric
// midpoint round(√(m_b·m_c)), until the largest estimate is below Epsilon,
// no segment can be split, or Budget measurements have been made.
//
// The error estimate of a segment (m_b, t_b)–(m_c, t_c) with neighbours
// (m_a, t_a)–(m_b, t_b) on the left and (m_c, t_c)–(m_d, t_d) on the right
// is the paper's
//
//	min(|Δ1|/t_b, |Δ2|/t_c, (m_c − m_b)/m_b)
//
// where Δ1 = t_b − L_cd(m_b) is the miss at m_b of the straight line
// through the right neighbour's ends, and Δ2 = t_c − L_ab(m_c) the miss at
// m_c of the line through the left neighbour's ends. The lines are drawn
// in linear m and t, not on a log scale: "linear interpolation" in the
// paper is the model t = α + β·m of latency plus bandwidth, which a
// straight line in (m, t) reproduces exactly, so a curve that is such a
// line needs no refinement, while a protocol switch (a kink or a jump)
// shows up as a miss on both sides of the segment that holds it. (SKaMPI 5
// also interpolates in linear m: autorefine.c, linear_interpolate.) Only
// the splitting point is geometric, so that refined points stay
// equidistant on the log scale of the plots.
//
// The first and the last segment have one neighbour only; the missing
// term is left out of the min (it gives no evidence either way). A lone
// segment, with no neighbour, is estimated by its relative width alone.
// Taking the min, not the max, keeps refinement from piling up on both
// sides of a jump (the paper's footnote 5): a segment next to the jump is
// predicted well by its other neighbour.
//
// Under MPI every rank must choose the same lengths, and the choice
// depends on the measured times, so the measure function must return the
// same value on every rank (broadcast from the timing rank). The
// computation is deterministic, ties included, so equal inputs give equal
// choices.
type Refine struct {
	MMin, MMax int     // 1 ≤ MMin ≤ MMax, in bytes (or any integer unit)
	Gamma      float64 // grid factor γ > 1; 0 means 2 (√2 is the other usual one)
	Epsilon    float64 // stop when every estimate is below it; 0 means DefaultEpsilon
	Budget     int     // most measurements in all, the grid included; 0 means no bound
}

// Point is one measured length and its time.
type Point struct {
	M int     `json:"m"`
	T float64 `json:"t"`
}

// Curve is the outcome of Refine.Run.
type Curve struct {
	Points []Point // every measured point, by increasing M
	Order  []Point // the same points in the order they were measured
	// MaxErr is the largest error estimate among the segments that could
	// still be split when Run stopped (0 if none).
	MaxErr float64
	// Reached says whether Run stopped because MaxErr < Epsilon (or no
	// segment could be split), not because the budget ran out.
	Reached bool
}

// Grid returns the initial lengths: round(mMin·γ^k) for every k ≥ 0 with
// mMin·γ^k < mMax, then mMax. Each is rounded to the nearest integer
// (halves away from zero), computed as mMin·γ^k rather than by repeated
// multiplication so that rounding errors do not accumulate, and repeats
// are dropped (for γ = √2 the first lengths round to 1, 1, 2, 3, 4, 6, 8,
// 11, 16, ...); a length that rounds up to mMax is the same as mMax. The
// result is strictly increasing. It assumes valid arguments (see Run).
func Grid(mMin, mMax int, gamma float64) []int {
	var ms []int
	for k := 0; ; k++ {
		x := float64(mMin) * math.Pow(gamma, float64(k))
		if x >= float64(mMax) {
			break
		}
		m := int(math.Round(x))
		if m >= mMax {
			break
		}
		if len(ms) == 0 || m > ms[len(ms)-1] {
			ms = append(ms, m)
		}
	}
	return append(ms, mMax)
}

// Run measures the curve. measure(m) returns the time at length m (for a
// SKaMPI pattern, the Trimmed of an Adaptive.Run; keep the whole Result in
// the closure if the record needs it). It is called once per length,
// never twice for the same m. An error from measure ends Run and is
// returned with the points measured so far.
func (r Refine) Run(measure func(m int) (float64, error)) (Curve, error) {
	r, err := r.normalized()
	if err != nil {
		return Curve{}, err
	}
	grid := Grid(r.MMin, r.MMax, r.Gamma)
	if r.Budget > 0 && r.Budget < len(grid) {
		return Curve{}, fmt.Errorf("measure: budget %d is below the %d lengths of the initial grid", r.Budget, len(grid))
	}
	rn := &refinement{Refine: r, measure: measure}
	if err := rn.start(grid); err != nil {
		return rn.curve(), err
	}
	for rn.q.Len() > 0 && rn.q[0].err >= r.Epsilon && (r.Budget == 0 || len(rn.order) < r.Budget) {
		if err := rn.split(heap.Pop(&rn.q).(*segment)); err != nil {
			return rn.curve(), err
		}
	}
	return rn.curve(), nil
}

// maxGrid bounds the steps of Grid, which a γ barely above 1 would make
// endless (most of them rounding to lengths already listed).
const maxGrid = 1 << 20

func (r Refine) normalized() (Refine, error) {
	if r.Gamma == 0 {
		r.Gamma = 2
	}
	if r.Epsilon == 0 {
		r.Epsilon = DefaultEpsilon
	}
	switch {
	case r.MMin < 1 || r.MMax < r.MMin:
		// m_min = 0 has no geometric grid and no relative width; measure
		// length 0 on its own.
		return r, fmt.Errorf("measure: lengths %d..%d: want 1 ≤ min ≤ max", r.MMin, r.MMax)
	case !(r.Gamma > 1) || math.IsInf(r.Gamma, 1):
		return r, fmt.Errorf("measure: gamma %v: want a finite factor > 1", r.Gamma)
	case !(r.Epsilon > 0):
		return r, fmt.Errorf("measure: epsilon %v: want a positive number", r.Epsilon)
	case math.Log(float64(r.MMax)/float64(r.MMin))/math.Log(r.Gamma) > maxGrid:
		return r, fmt.Errorf("measure: gamma %v is so close to 1 that the grid would take over %d steps", r.Gamma, maxGrid)
	case r.Budget < 0:
		return r, fmt.Errorf("measure: budget %d: want ≥ 0", r.Budget)
	}
	return r, nil
}

// refinement is the state of one Run: the segments form a doubly linked
// list in order of m, and those that may still be split sit in q.
type refinement struct {
	Refine
	measure func(int) (float64, error)
	order   []Point
	first   *segment // leftmost segment, nil with fewer than 2 points
	q       queue
}

func (rn *refinement) point(m int) (Point, error) {
	t, err := rn.measure(m)
	if err != nil {
		return Point{}, fmt.Errorf("measure: length %d: %w", m, err)
	}
	p := Point{M: m, T: t}
	rn.order = append(rn.order, p)
	return p, nil
}

// start measures the grid and queues its segments.
func (rn *refinement) start(grid []int) error {
	var pts []Point
	for _, m := range grid {
		p, err := rn.point(m)
		if err != nil {
			return err
		}
		pts = append(pts, p)
	}
	var prev *segment
	for i := 1; i < len(pts); i++ {
		s := &segment{b: pts[i-1], c: pts[i], prev: prev, index: -1}
		if prev == nil {
			rn.first = s
		} else {
			prev.next = s
		}
		prev = s
	}
	for s := rn.first; s != nil; s = s.next {
		s.err = s.estimate()
		heap.Push(&rn.q, s)
	}
	return nil
}

// split measures the midpoint of s, which has left the queue, and puts
// its halves in its place. A segment whose rounded midpoint is one of its
// ends cannot be split and is dropped from the queue for good; it stays
// in the list as a neighbour.
func (rn *refinement) split(s *segment) error {
	x := int(math.Round(math.Sqrt(float64(s.b.M) * float64(s.c.M))))
	if x <= s.b.M || x >= s.c.M {
		return nil
	}
	p, err := rn.point(x)
	if err != nil {
		return err
	}
	left := &segment{b: s.b, c: p, prev: s.prev, index: -1}
	right := &segment{b: p, c: s.c, prev: left, next: s.next, index: -1}
	left.next = right
	if s.prev != nil {
		s.prev.next = left
	} else {
		rn.first = left
	}
	if s.next != nil {
		s.next.prev = right
	}
	for _, n := range []*segment{left, right} {
		n.err = n.estimate()
		heap.Push(&rn.q, n)
	}
	// The neighbours' estimates used s; they now see a half of it.
	for _, n := range []*segment{left.prev, right.next} {
		if n != nil && n.index >= 0 {
			n.err = n.estimate()
			heap.Fix(&rn.q, n.index)
		}
	}
	return nil
}

func (rn *refinement) curve() Curve {
	c := Curve{Order: rn.order}
	if rn.first == nil {
		c.Points = append([]Point(nil), rn.order...) // one point or none
	} else {
		c.Points = []Point{rn.first.b}
		for s := rn.first; s != nil; s = s.next {
			c.Points = append(c.Points, s.c)
		}
	}
	if rn.q.Len() > 0 {
		c.MaxErr = rn.q[0].err
	}
	c.Reached = c.MaxErr < rn.Epsilon
	return c
}

// segment is the stretch between two neighbouring measured points.
type segment struct {
	b, c       Point
	prev, next *segment
	err        float64 // error estimate, the priority
	index      int     // position in the queue, -1 when not queued
}

// estimate is the paper's min(|Δ1|/t_b, |Δ2|/t_c, (m_c − m_b)/m_b), with
// the terms of missing neighbours left out (see Refine).
func (s *segment) estimate() float64 {
	e := float64(s.c.M-s.b.M) / float64(s.b.M)
	if s.next != nil { // Δ1: the right neighbour's line at m_b
		e = min(e, miss(s.b, line(s.next.b, s.next.c, s.b.M)))
	}
	if s.prev != nil { // Δ2: the left neighbour's line at m_c
		e = min(e, miss(s.c, line(s.prev.b, s.prev.c, s.c.M)))
	}
	return e
}

// line is the straight line through p and q, evaluated at m.
func line(p, q Point, m int) float64 {
	slope := (q.T - p.T) / float64(q.M-p.M)
	return p.T + slope*float64(m-p.M)
}

// miss is |t − predicted|/|t|: the relative prediction error at p. An
// exact prediction is 0 even when t is 0; a wrong prediction of 0 is +Inf.
func miss(p Point, predicted float64) float64 {
	d := math.Abs(p.T - predicted)
	if d == 0 {
		return 0
	}
	return d / math.Abs(p.T)
}

// queue is a max-heap of segments by err; equal errors go left first so
// that the order of measurements does not depend on the heap's history.
type queue []*segment

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].err != q[j].err {
		return q[i].err > q[j].err
	}
	return q[i].b.M < q[j].b.M
}
func (q queue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index = i
	q[j].index = j
}
func (q *queue) Push(x any) {
	s := x.(*segment)
	s.index = len(*q)
	*q = append(*q, s)
}
func (q *queue) Pop() any {
	old := *q
	s := old[len(old)-1]
	old[len(old)-1] = nil
	s.index = -1
	*q = old[:len(old)-1]
	return s
}
