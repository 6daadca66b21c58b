package matrix

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
)

// recordsOf makes the links records of a P×P matrix of mode (NaN: none).
func recordsOf(mode string, v [][]float64) []result.Record {
	var recs []result.Record
	for s, row := range v {
		for d, x := range row {
			if s == d || math.IsNaN(x) {
				continue
			}
			r := result.Record{Suite: result.SuiteLinks, Benchmark: "links", Mode: mode, NProcs: len(v),
				Groups: [][]int{{s, d}}, Bytes: 1024, Reps: 3, Window: 4, PairHosts: []string{"h" + string(rune('a'+s)), "h" + string(rune('a'+d))}}
			if mode == Latency {
				r.TAvg = x
			} else {
				r.MBps = x
			}
			recs = append(recs, r)
		}
	}
	return recs
}

var nan = math.NaN()

// A planted slow link (1 → 2 at 40 of 100) is the only slow pair; its
// medians, computed by hand: row 1 without it {100, 100}, column 2
// without it {100, 100}.
func TestSlowLink(t *testing.T) {
	v := [][]float64{
		{nan, 100, 100, 100},
		{100, nan, 40, 100},
		{100, 100, nan, 100},
		{100, 100, 100, nan},
	}
	ms := FromRecords(recordsOf(Send, v))
	if len(ms) != 1 || ms[0].P != 4 || ms[0].Hosts[2] != "hc" || ms[0].V[1][2] != 40 {
		t.Fatalf("%+v", ms)
	}
	slow := ms[0].Slow(20)
	if len(slow) != 1 || slow[0] != (Pair{Src: 1, Dst: 2, Value: 40, RowMedian: 100, ColMedian: 100}) {
		t.Errorf("slow %+v", slow)
	}
	// 40 is 60 % below: a threshold of 60 does not flag it.
	if s := ms[0].Slow(60); len(s) != 0 {
		t.Errorf("at 60 %%: %+v", s)
	}
}

// A slow node: everything rank 0 sends is slow. Its row's own median is
// as slow, the column medians (95, 100, 105 → the others) flag each pair.
func TestSlowNode(t *testing.T) {
	v := [][]float64{
		{nan, 50, 52, 48},
		{95, nan, 100, 105},
		{100, 105, nan, 95},
		{105, 95, 100, nan},
	}
	slow := FromRecords(recordsOf(Send, v))[0].Slow(20)
	if len(slow) != 3 || slow[0].Src != 0 || slow[2].Src != 0 || slow[1].ColMedian != 100 || slow[1].RowMedian != 49 {
		t.Errorf("slow %+v", slow)
	}
}

// Latency: higher is worse; two processes have no pair to judge by.
func TestLatencyAndTwo(t *testing.T) {
	v := [][]float64{
		{nan, 2, 2},
		{2, nan, 9},
		{2, 2, nan},
	}
	m := FromRecords(recordsOf(Latency, v))[0]
	if s := m.Slow(20); len(s) != 1 || s[0].Src != 1 || s[0].Dst != 2 || m.HigherBetter() {
		t.Errorf("slow %+v", s)
	}
	two := FromRecords(recordsOf(Send, [][]float64{{nan, 1}, {1000, nan}}))[0]
	if s := two.Slow(1); len(s) != 0 {
		t.Errorf("two processes: %+v", s)
	}
	lo, med, hi := two.Summary()
	if lo != 1 || med != 500.5 || hi != 1000 {
		t.Errorf("summary %g %g %g", lo, med, hi)
	}
}

// A pair measured twice (runs appended) is their median; the text
// lists the matrix with host:rank labels and the slow pairs: with three
// processes each row and column has one other pair, so 0 → 2 (10
// against 20) is flagged as well as the planted 1 → 2.
func TestMedianAndText(t *testing.T) {
	v := [][]float64{{nan, 10, 10}, {10, nan, 1}, {10, 10, nan}}
	recs := append(recordsOf(Send, v), recordsOf(Send, [][]float64{{nan, 30, 10}, {10, nan, 3}, {10, 10, nan}})...)
	ms := FromRecords(recs)
	if ms[0].V[0][1] != 20 || ms[0].V[1][2] != 2 {
		t.Fatalf("medians %v", ms[0].V)
	}
	var b bytes.Buffer
	if err := WriteText(&b, ms, 20, true); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"# Send bandwidth", "ha:0", "hc:2", "# 3 slow pairs", "hb:1 -> hc:2: 2 MB/s (row median 10, column median 10)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// slowByDefinition is Slow as its comment defines it, the median of the
// others taken afresh for every pair: the oracle of TestSlowFast.
func slowByDefinition(m *Matrix, pct float64) []Pair {
	var out []Pair
	for s := 0; s < m.P; s++ {
		for d := 0; d < m.P; d++ {
			v := m.V[s][d]
			if math.IsNaN(v) {
				continue
			}
			var row, col []float64
			for k := 0; k < m.P; k++ {
				if x := m.V[s][k]; k != d && !math.IsNaN(x) {
					row = append(row, x)
				}
				if x := m.V[k][d]; k != s && !math.IsNaN(x) {
					col = append(col, x)
				}
			}
			p := Pair{Src: s, Dst: d, Value: v, RowMedian: stats.Median(row), ColMedian: stats.Median(col)}
			if m.worse(v, p.RowMedian, pct) || m.worse(v, p.ColMedian, pct) {
				out = append(out, p)
			}
		}
	}
	return out
}

// TestSlowFast: the sorted-once Slow finds the same pairs, with the same
// medians to the bit, as the definition on random matrices with ties,
// holes (NaN) and slow rows, for bandwidth and latency.
func TestSlowFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		p := 2 + rng.IntN(12)
		m := &Matrix{Mode: []string{Send, Latency}[trial%2], P: p, V: grid[float64](p)}
		for s := range m.V {
			for d := range m.V[s] {
				switch {
				case s == d || rng.IntN(10) == 0:
					m.V[s][d] = math.NaN()
				case rng.IntN(4) == 0:
					m.V[s][d] = 100 // ties
				default:
					m.V[s][d] = float64(rng.IntN(200)) + rng.Float64()
				}
			}
		}
		for _, pct := range []float64{0, 10, 40} {
			got, want := m.Slow(pct), slowByDefinition(m, pct)
			if len(got) != len(want) {
				t.Fatalf("P=%d %s pct %g: %d slow pairs, want %d", p, m.Mode, pct, len(got), len(want))
			}
			for i := range got {
				g, w := got[i], want[i]
				if g.Src != w.Src || g.Dst != w.Dst || g.Value != w.Value || !same(g.RowMedian, w.RowMedian) || !same(g.ColMedian, w.ColMedian) {
					t.Fatalf("P=%d pct %g: pair %d = %+v, want %+v", p, pct, i, g, w)
				}
			}
		}
	}
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// BenchmarkSlow at P = 400, where sorting per pair took 12.6 s.
func BenchmarkSlow(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := &Matrix{Mode: Send, P: 400, V: grid[float64](400)}
	for s := range m.V {
		for d := range m.V[s] {
			m.V[s][d] = 1000 + rng.Float64()*100
		}
		m.V[s][s] = math.NaN()
	}
	for range b.N {
		m.Slow(10)
	}
}

// The streamed grid is laid out as text/tabwriter lays out the same cells
// (AlignRight, padding 2), the layout it replaced: the oracle is the
// library's, not ours.
func TestGridAsTabwriter(t *testing.T) {
	for _, p := range []int{1, 2, 7, 40} {
		m := &Matrix{Mode: Latency, P: p, Hosts: make([]string, p), V: grid[float64](p)}
		for i := 0; i < p; i++ {
			m.Hosts[i] = strings.Repeat("ü", i%3) + "n" + strconv.Itoa(i*i)
			for j := 0; j < p; j++ {
				m.V[i][j] = math.NaN()
				if i != j {
					m.V[i][j] = math.Pow(10, float64((i+j)%7-2)) * float64(j+1)
				}
			}
		}
		var got, want bytes.Buffer
		if err := m.writeGrid(&got); err != nil {
			t.Fatal(err)
		}
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', tabwriter.AlignRight)
		for i := -1; i < p; i++ {
			row := make([]string, p+1)
			m.gridRow(row, i)
			fmt.Fprintf(tw, "%s\t\n", strings.Join(row, "\t"))
		}
		if err := tw.Flush(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("P = %d:\n%s\nwant (tabwriter):\n%s", p, got.String(), want.String())
		}
	}
}

// The grid's text streams: halfway through writing a 1,000-rank matrix
// the live heap holds O(P), not the cells written so far. A tabwriter
// writes nothing before its flush, when every cell is live (about 100
// bytes a cell: 100 MB here), and fails this.
func TestGridStreams(t *testing.T) {
	const p = 1000
	m := &Matrix{Mode: Send, P: p, Hosts: make([]string, p), V: grid[float64](p)}
	for i := range m.Hosts {
		m.Hosts[i] = "node-0123456789"
		for j := range m.V[i] {
			m.V[i][j] = 12345.678
		}
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w := &midpoint{at: 10 << 20}
	if err := m.writeGrid(w); err != nil {
		t.Fatal(err)
	}
	if w.n < w.at {
		t.Fatalf("only %d bytes written", w.n)
	}
	if live := int64(w.live) - int64(before.HeapAlloc); live > 4<<20 {
		t.Errorf("%d bytes live after %d bytes of a %d×%d grid were written", live, w.at, p, p)
	}
}

// midpoint is a writer that measures the live heap once at bytes in.
type midpoint struct {
	n, at int
	live  uint64
}

func (w *midpoint) Write(b []byte) (int, error) {
	if w.n < w.at && w.n+len(b) >= w.at {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		w.live = ms.HeapAlloc
	}
	w.n += len(b)
	return len(b), nil
}
