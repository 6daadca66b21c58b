package matrix

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"mpibench/analysis/result"
)

// toRows turns links records of version 1 (one per pair and figure) into
// those of version 2 (one per measuring rank and figure), as the test's
// own reading of the two definitions: send and latency by the sender,
// recv by the receiver, times rounded to the nanosecond.
func toRows(pairs []result.Record) []result.Record {
	type key struct {
		mode string
		rank int
	}
	rows := map[key]*result.Record{}
	var order []key
	for _, r := range pairs {
		src, dst := r.Groups[0][0], r.Groups[0][1]
		rank, peer, host := src, dst, r.PairHosts[0]
		if r.Mode == Recv {
			rank, peer, host = dst, src, r.PairHosts[1]
		}
		k := key{r.Mode, rank}
		row := rows[k]
		if row == nil {
			p := r.NProcs
			row = &result.Record{Suite: r.Suite, Benchmark: r.Benchmark, Class: result.LinksClassRank, Mode: r.Mode,
				Multi: -1, Group: -1, NProcs: p, Bytes: r.Bytes, Reps: r.Reps, Window: r.Window, Context: r.Context,
				Links: &result.Links{Rank: rank, Host: host, TMin: make([]float64, p), TAvg: make([]float64, p), TMax: make([]float64, p)}}
			rows[k] = row
			order = append(order, k)
		}
		row.Links.TMin[peer] = result.RoundNs(r.TMin)
		row.Links.TAvg[peer] = result.RoundNs(r.TAvg)
		row.Links.TMax[peer] = result.RoundNs(r.TMax)
	}
	var out []result.Record
	for _, k := range order {
		out = append(out, *rows[k])
	}
	return out
}

// TestRowsAsPairs: the matrices of a links file of version 1 (the last
// release's, analysis/result/testdata/v1) and of the same figures as
// records of version 2 agree to the rounding of the times, hosts
// included; and result.LinksPairs gives the pairs back.
func TestRowsAsPairs(t *testing.T) {
	path := filepath.Join("..", "result", "testdata", "v1", "links.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pairs, warns, err := result.Read(f, path)
	if err != nil || len(warns) > 0 || len(pairs) != 36 {
		t.Fatalf("%s: %d records, %v %v", path, len(pairs), warns, err)
	}
	rows := toRows(pairs)
	if len(rows) != 12 {
		t.Fatalf("%d rows, want 3 figures × 4 ranks", len(rows))
	}
	m1, m2 := FromRecords(pairs), FromRecords(rows)
	if len(m1) != 3 || len(m2) != 3 {
		t.Fatalf("%d and %d matrices", len(m1), len(m2))
	}
	for i := range m1 {
		a, b := m1[i], m2[i]
		if a.Mode != b.Mode || a.P != b.P || a.Bytes != b.Bytes {
			t.Fatalf("matrix %d: %s/%d/%d against %s/%d/%d", i, a.Mode, a.P, a.Bytes, b.Mode, b.P, b.Bytes)
		}
		for s := range a.V {
			if a.Hosts[s] != b.Hosts[s] {
				t.Errorf("%s: host of %d %q against %q", a.Mode, s, a.Hosts[s], b.Hosts[s])
			}
			for d := range a.V[s] {
				x, y := a.V[s][d], b.V[s][d]
				if math.IsNaN(x) != math.IsNaN(y) || math.Abs(x-y) > 1e-3*math.Abs(x) {
					t.Errorf("%s [%d][%d]: %g from pairs, %g from rows", a.Mode, s, d, x, y)
				}
			}
		}
	}
	var back []result.Record
	for i := range rows {
		back = append(back, result.LinksPairs(&rows[i], nil)...)
	}
	if len(back) != len(pairs) {
		t.Fatalf("LinksPairs: %d pairs, want %d", len(back), len(pairs))
	}
	again := FromRecords(back)
	for i := range m2 {
		for s := range m2[i].V {
			for d, v := range m2[i].V[s] {
				if w := again[i].V[s][d]; math.IsNaN(v) != math.IsNaN(w) || !math.IsNaN(v) && math.Abs(v-w) > 1e-9*math.Abs(v) {
					t.Errorf("%s [%d][%d]: %g from rows, %g from their pairs", m2[i].Mode, s, d, v, w)
				}
			}
		}
	}
}
