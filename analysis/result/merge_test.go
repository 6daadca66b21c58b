package result

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"mpibench/analysis/stats"
)

// mergeRec is a PingPong record at the given length with t_max t.
func mergeRec(bytes int, t float64, host string) Record {
	return Record{Suite: "mpi1", Benchmark: "PingPong", Class: "single", Multi: -1, Group: -1,
		NProcs: 2, Groups: [][]int{{0, 1}}, Bytes: bytes, Reps: 1000, TMin: t / 2, TMax: t, TAvg: t * 0.75,
		MBps: float64(bytes) / t, Context: Context{Host: host}}
}

func TestMergeIdentity(t *testing.T) {
	a := mergeRec(8, 1, "a")
	b := mergeRec(8, 5, "b") // other results, other run: the same measurement
	if Identity(&a) != Identity(&b) {
		t.Errorf("results or context change the identity:\n%s\n%s", Identity(&a), Identity(&b))
	}
	for name, change := range map[string]func(*Record){
		"bytes":  func(r *Record) { r.Bytes = 16 },
		"np":     func(r *Record) { r.NProcs = 4 },
		"mode":   func(r *Record) { r.Mode = "aggregate" },
		"groups": func(r *Record) { r.Groups = [][]int{{0, 2}} },
		"group":  func(r *Record) { r.Group = 1 },
		"rep":    func(r *Record) { r.Rep = 2 },
		"x":      func(r *Record) { r.X = 3 },
		"param":  func(r *Record) { r.Param = "procs" },
		"mem":    func(r *Record) { r.MemBytes = 1 },
		"check":  func(r *Record) { r.Check = true },
		"class":  func(r *Record) { r.Class = "ring" },
	} {
		c := a
		change(&c)
		if Identity(&c) == Identity(&a) {
			t.Errorf("%s does not change the identity", name)
		}
	}
}

func TestMergeMedian(t *testing.T) {
	runs := [][]Record{
		{mergeRec(0, 1, "first"), mergeRec(8, 10, "first")},
		{mergeRec(0, 5, "second"), mergeRec(8, 40, "second")},
		{mergeRec(0, 2, "third"), mergeRec(8, 20, "third")},
		{mergeRec(8, 30, "fourth")}, // length 0 missing from this run
	}
	res := Merge(runs)
	if res.Runs != 4 || res.Partial != 1 || len(res.Records) != 2 {
		t.Fatalf("runs %d partial %d records %d, want 4, 1, 2", res.Runs, res.Partial, len(res.Records))
	}
	// Odd: median of 1, 5, 2 is 2.
	r := res.Records[0]
	if r.TMax != 2 || r.TMin != 1 || r.TAvg != 1.5 || r.Merged != 3 || r.Bytes != 0 {
		t.Errorf("odd: %+v, want t_max 2, t_min 1, t_avg 1.5, merged 3", r)
	}
	// Even: median of 10, 40, 20, 30 is 25; throughput 8/t medians on its
	// own: 0.8, 0.2, 0.4, 0.2667 gives (0.2667+0.4)/2.
	r = res.Records[1]
	if r.TMax != 25 || r.Merged != 4 {
		t.Errorf("even: t_max %g merged %d, want 25, 4", r.TMax, r.Merged)
	}
	if want := (8.0/30 + 8.0/20) / 2; math.Abs(r.MBps-want) > 1e-12 {
		t.Errorf("even: MB/s %g, want %g", r.MBps, want)
	}
	if r.Context.Host != "first" {
		t.Errorf("context of %q, want the first run's", r.Context.Host)
	}
	if runs[0][1].TMax != 10 || runs[0][1].Merged != 0 {
		t.Error("Merge changed its input")
	}
}

func TestMergeStats(t *testing.T) {
	sk := func(trimmed, se float64, n int, reached bool) Record {
		rel := se / trimmed
		return Record{Suite: "skampi", Benchmark: "Reduce", Bytes: 1024,
			Reps: n, Samples: []float64{trimmed}, SkampiFigures: SkampiFigures{Param: "bytes", X: 1024, Epsilon: 0.05, Reached: reached, RelErr: &rel, Correction: se, Stop: "epsilon"},
			Stats: &stats.Summary{N: n, Mean: trimmed + 1, Trimmed: trimmed, StdErr: se, TrimmedStdErr: se / 2,
				Min: trimmed - 1, Median: trimmed, Max: trimmed * 2}}
	}
	res := Merge([][]Record{{sk(10, 0.1, 10, true)}, {sk(30, 0.3, 21, true)}, {sk(20, 0.9, 40, false)}})
	r := res.Records[0]
	want := stats.Summary{N: 21, Mean: 21, Trimmed: 20, StdErr: 0.3, TrimmedStdErr: 0.15, Min: 19, Median: 20, Max: 40}
	if r.Stats == nil || *r.Stats != want {
		t.Fatalf("stats %+v, want %+v", r.Stats, want)
	}
	// One run's samples, error and stop reason are not the median's.
	if r.Samples != nil || r.RelErr != nil || r.Stop != "" || r.Correction != 0.3 {
		t.Errorf("samples %v rel %v stop %q correction %v, want none, none, none, the median 0.3",
			r.Samples, r.RelErr, r.Stop, r.Correction)
	}
	if r.Reached || r.Reps != 21 {
		t.Errorf("reached %v reps %d, want false (one run did not), 21", r.Reached, r.Reps)
	}
	// Even count: the mean of the two middle figures.
	res = Merge([][]Record{{sk(10, 0.1, 10, true)}, {sk(30, 0.3, 20, true)}})
	if r := res.Records[0]; r.Stats.Trimmed != 20 || r.Stats.N != 15 || !r.Reached {
		t.Errorf("even: %+v", r.Stats)
	}
}

func TestMergeSummaries(t *testing.T) {
	be := func(v float64) Record {
		return Record{Suite: "beff", Benchmark: "b_eff", Class: "summary",
			BeffFigures: BeffFigures{Beff: &BeffSummary{Beff: v, Patterns: []BeffPattern{{Name: "ring-1"}}}}}
	}
	bio := func(v float64) Record {
		return Record{Suite: "beffio", Benchmark: "b_eff_io", Class: "summary", BeffIOFigures: BeffIOFigures{BeffIO: &BeffIOSummary{BeffIO: v}}}
	}
	runs := [][]Record{{be(1), bio(7)}, {be(9), bio(3)}, {be(4), bio(5)}}
	res := Merge(runs)
	if got := res.Records[0].Beff.Beff; got != 4 {
		t.Errorf("b_eff %g, want 4", got)
	}
	if got := res.Records[1].BeffIO.BeffIO; got != 5 {
		t.Errorf("b_eff_io %g, want 5", got)
	}
	if runs[0][0].Beff.Beff != 1 {
		t.Error("Merge changed the first run's summary")
	}
	order := []string{res.Records[0].Suite, res.Records[1].Suite}
	if !slices.Equal(order, []string{"beff", "beffio"}) {
		t.Errorf("order %q", order)
	}
}

// TestIdentityText holds Identity to the text fmt makes of its fields.
func TestIdentityText(t *testing.T) {
	recs := append(testRecords(), Record{}, Record{Groups: [][]int{{}, {0, -1}}, Map: []int{2, 3}, SkampiFigures: SkampiFigures{Param: "procs", X: -4}, Check: true})
	for _, r := range recs {
		want := fmt.Sprintf("%s|%s|%s|%s|np=%d|multi=%d|group=%d|groups=%v|map=%v|bytes=%d|mem=%d|%s=%d|rep=%d|check=%t",
			r.Suite, r.Benchmark, r.Class, r.Mode, r.NProcs, r.Multi, r.Group, r.Groups, r.Map,
			r.Bytes, r.MemBytes, r.Param, r.X, r.Rep, r.Check)
		if got := Identity(&r); got != want {
			t.Errorf("Identity\n %s, want\n %s", got, want)
		}
	}
}

// Links records of version 2 merge partner by partner, each rank's
// record with the same rank's of the other runs.
func TestMergeLinksRows(t *testing.T) {
	row := func(rank int, t ...float64) Record {
		return Record{Suite: SuiteLinks, Benchmark: "links", Class: LinksClassRank, Mode: "send", Multi: -1, Group: -1,
			NProcs: 3, Bytes: 1024, Reps: 3, Links: &Links{Rank: rank, Host: "h", TMin: t, TAvg: t, TMax: t}}
	}
	runs := [][]Record{
		{row(0, 0, 1, 10), row(1, 5, 0, 7)},
		{row(0, 0, 3, 30), row(1, 6, 0, 8)},
		{row(0, 0, 2, 20), row(1, 9, 0, 9)},
	}
	res := Merge(runs)
	if len(res.Records) != 2 || res.Partial != 0 {
		t.Fatalf("%d records, %d partial; want 2 (one per rank), 0", len(res.Records), res.Partial)
	}
	for i, want := range [][]float64{{0, 2, 20}, {6, 0, 8}} {
		l := res.Records[i].Links
		if l == nil || l.Rank != i || !slices.Equal(l.TAvg, want) || !slices.Equal(l.TMin, want) || res.Records[i].Merged != 3 {
			t.Errorf("rank %d: %+v, want the medians %v of 3 runs", i, l, want)
		}
	}
}
