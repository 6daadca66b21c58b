// Package matrix turns the records of mpibench links into P×P matrices
// (send and receive bandwidth, latency) and finds the slow pairs. It needs
// no MPI: the links command prints with it, the HTML report draws with it.
package matrix

import (
	"math"
	"slices"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
)

// The figures of links, one matrix each, in the order they are printed.
const (
	Send    = "send"    // bandwidth of the sends of src to dst, MB/s
	Recv    = "recv"    // bandwidth of the receives of dst from src, MB/s
	Latency = "latency" // half the round trip src → dst → src, µs
)

// Modes are the figures in print order.
var Modes = []string{Send, Recv, Latency}

// Matrix is one figure of one run: V[src][dst], NaN on the diagonal and
// where no record was read.
type Matrix struct {
	Mode   string
	P      int
	Bytes  int
	Reps   int
	Window int
	Hosts  []string // processor name of each rank, "" where unknown
	V      [][]float64
	// SlowPct is the run's -slow (context.slow_pct of its first record
	// that has one); nil when no record has it.
	SlowPct *float64
}

// HigherBetter reports whether a larger value is better (bandwidth).
func (m *Matrix) HigherBetter() bool { return m.Mode != Latency }

// Unit is the unit of the values.
func (m *Matrix) Unit() string {
	if m.HigherBetter() {
		return "MB/s"
	}
	return "µs"
}

// value is the figure of a links record: MB/s of a bandwidth record, the
// mean time in µs of a latency record.
func value(r *result.Record) float64 {
	if r.Mode == Latency {
		return r.TAvg
	}
	return r.MBps
}

// FromRecords builds the matrices of the links records of recs (see
// Builder).
func FromRecords(recs []result.Record) []*Matrix {
	var b Builder
	for i := range recs {
		b.Add(&recs[i])
	}
	return b.Matrices()
}

// Builder makes matrices from links records handed to it one at a time,
// keeping only their values: one matrix per figure, process count and
// message length, in order of first appearance; a pair measured more
// than once (runs appended to one file) gets the median of its values.
//
// A matrix costs 8 bytes a pair (its values, in place); a pair measured
// again keeps all its values aside until Matrices takes their median.
type Builder struct {
	order []key
	acc   map[key]*Matrix
	again map[key]map[[2]int][]float64 // the pairs met more than once
}

type key struct {
	mode     string
	p, bytes int
}

// Add takes r if it is a links record of a pair and reports whether it
// was one.
func (b *Builder) Add(r *result.Record) bool {
	if r.Suite != result.SuiteLinks {
		return false
	}
	if r.Links != nil {
		b.addRank(r)
		return true
	}
	if len(r.Groups) != 1 || len(r.Groups[0]) != 2 {
		return true
	}
	src, dst := r.Groups[0][0], r.Groups[0][1]
	if r.NProcs < 2 || src < 0 || dst < 0 || src >= r.NProcs || dst >= r.NProcs || src == dst {
		return true
	}
	m := b.matrix(r)
	b.put(m, src, dst, value(r))
	if len(r.PairHosts) == 2 {
		m.Hosts[src], m.Hosts[dst] = r.PairHosts[0], r.PairHosts[1]
	}
	return true
}

// addRank takes a record of version 2: one rank's figure for every
// partner, a row of the matrix (send, latency) or a column (recv).
func (b *Builder) addRank(r *result.Record) {
	l := r.Links
	if r.NProcs < 2 || l.Rank < 0 || l.Rank >= r.NProcs || len(l.TAvg) != r.NProcs {
		return
	}
	m := b.matrix(r)
	m.Hosts[l.Rank] = l.Host
	for k, t := range l.TAvg {
		if k == l.Rank || !(t > 0) {
			continue
		}
		src, dst := l.Rank, k
		if r.Mode == Recv {
			src, dst = k, l.Rank
		}
		v := t
		if r.Mode != Latency {
			v = float64(r.Bytes) / t * 1e6 / (1 << 20)
		}
		b.put(m, src, dst, v)
	}
}

// put sets the value of a pair, or keeps it beside the others of a pair
// met before.
func (b *Builder) put(m *Matrix, src, dst int, v float64) {
	if math.IsNaN(m.V[src][dst]) {
		m.V[src][dst] = v
		return
	}
	k := key{m.Mode, m.P, m.Bytes}
	if b.again[k] == nil {
		b.again[k] = map[[2]int][]float64{}
	}
	pair := [2]int{src, dst}
	if b.again[k][pair] == nil {
		b.again[k][pair] = []float64{m.V[src][dst]}
	}
	b.again[k][pair] = append(b.again[k][pair], v)
}

// matrix is the matrix r belongs to, made at its first record.
func (b *Builder) matrix(r *result.Record) *Matrix {
	k := key{r.Mode, r.NProcs, r.Bytes}
	if b.acc == nil {
		b.acc, b.again = map[key]*Matrix{}, map[key]map[[2]int][]float64{}
	}
	m := b.acc[k]
	if m == nil {
		m = newMatrix(r)
		b.acc[k], b.order = m, append(b.order, k)
	}
	if m.SlowPct == nil && r.Context.SlowPct != nil {
		pct := *r.Context.SlowPct
		m.SlowPct = &pct
	}
	return m
}

// Matrices are the matrices of the records added.
func (b *Builder) Matrices() []*Matrix {
	out := make([]*Matrix, 0, len(b.order))
	for _, k := range b.order {
		m := b.acc[k]
		for pair, v := range b.again[k] {
			m.V[pair[0]][pair[1]] = stats.Median(v)
		}
		out = append(out, m)
	}
	return out
}

func newMatrix(r *result.Record) *Matrix {
	m := &Matrix{Mode: r.Mode, P: r.NProcs, Bytes: r.Bytes, Reps: r.Reps, Window: r.Window,
		Hosts: make([]string, r.NProcs), V: grid[float64](r.NProcs)}
	for _, row := range m.V {
		for j := range row {
			row[j] = math.NaN()
		}
	}
	return m
}

func grid[T any](p int) [][]T {
	g := make([][]T, p)
	for i := range g {
		g[i] = make([]T, p)
	}
	return g
}

// Pair is a slow pair: its value and the medians it was judged against.
type Pair struct {
	Src, Dst  int
	Value     float64
	RowMedian float64 // of the other pairs of row Src (the same sender)
	ColMedian float64 // of the other pairs of column Dst (the same receiver)
}

// Slow are the pairs worse by more than pct percent than the median of
// the other pairs of their row or of their column: a bandwidth below
// (1 − pct/100)·median, a latency above (1 + pct/100)·median. Either
// median suffices, so that a slow node (a whole row or column slow, its
// own median as slow) shows too, judged by the other direction; with two
// processes no pair has another to be judged against.
//
// Each row and each column is sorted once; the median of a line without
// one of its values is then read off the sorted line, so that the whole
// matrix costs O(P² log P), not a sort per pair (O(P³ log P): 12.6 s at
// P = 400).
func (m *Matrix) Slow(pct float64) []Pair {
	rows := make([][]float64, m.P)
	cols := make([][]float64, m.P)
	for s := 0; s < m.P; s++ {
		for d := 0; d < m.P; d++ {
			if v := m.V[s][d]; !math.IsNaN(v) {
				rows[s] = append(rows[s], v)
				cols[d] = append(cols[d], v)
			}
		}
	}
	for i := range rows {
		slices.Sort(rows[i])
		slices.Sort(cols[i])
	}
	var out []Pair
	for s := 0; s < m.P; s++ {
		for d := 0; d < m.P; d++ {
			v := m.V[s][d]
			if math.IsNaN(v) {
				continue
			}
			p := Pair{Src: s, Dst: d, Value: v, RowMedian: medianWithout(rows[s], v), ColMedian: medianWithout(cols[d], v)}
			if m.worse(v, p.RowMedian, pct) || m.worse(v, p.ColMedian, pct) {
				out = append(out, p)
			}
		}
	}
	return out
}

// medianWithout is stats.Median of the sorted values s less one value v
// that s holds (any of its copies: the rest is the same), NaN when none
// is left. It reads the two middle values of the rest in place, and
// interpolates between them as stats.Quantile does.
func medianWithout(s []float64, v float64) float64 {
	n := len(s) - 1
	if n < 1 {
		return math.NaN()
	}
	i, _ := slices.BinarySearch(s, v) // the first copy of v
	at := func(j int) float64 {       // the rest's j-th value
		if j >= i {
			j++
		}
		return s[j]
	}
	h := float64(n-1) * 0.5
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return at(n - 1)
	}
	return at(lo) + (h-float64(lo))*(at(lo+1)-at(lo))
}

// worse reports whether v is worse than ref by more than pct percent; a
// NaN reference never is.
func (m *Matrix) worse(v, ref, pct float64) bool {
	if math.IsNaN(ref) {
		return false
	}
	if m.HigherBetter() {
		return v < (1-pct/100)*ref
	}
	return v > (1+pct/100)*ref
}

// Summary is the smallest, median and largest value off the diagonal.
func (m *Matrix) Summary() (lo, med, hi float64) {
	var v []float64
	for _, row := range m.V {
		for _, x := range row {
			if !math.IsNaN(x) {
				v = append(v, x)
			}
		}
	}
	if len(v) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return slices.Min(v), stats.Median(v), slices.Max(v)
}
