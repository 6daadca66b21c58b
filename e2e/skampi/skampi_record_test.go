package skampi

// The SKaMPI records under the real launcher: every figure and the stop
// decision recomputed from the recorded samples, independently of
// packages stats and measure.

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

// skampiRecordTiny: a short sweep that mostly reaches ε, a point that
// cannot (count bound) and one the time bound ends.
const skampiRecordTiny = `epsilon 0.05
minreps 5
maxreps 200
measure Sweep      pingpong   Send_Recv bytes 1..4K gamma=4
measure Bcast      collective Bcast     none len=1K
measure Count      pingpong   Send_Recv none len=1K epsilon=0.00001 maxreps=11
measure Time       pingpong   Send_Recv none len=16K epsilon=0.00001 maxreps=1000000 timelimit=0.005
`

func TestSkampiRecordsRecompute(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	e2e.NeedMPI(t)
	cfg := skampiWrite(t, skampiRecordTiny)
	dir := t.TempDir()
	out := filepath.Join(dir, "r.jsonl")
	e2e.MustSucceed(t, e2e.Launch(t, 2, "skampi", "-config", cfg, "-o", out))
	recs := skampiRead(t, out)
	stops := map[string]int{}
	for _, r := range recs {
		skampiRecompute(t, r)
		stops[r.Benchmark+" "+r.Stop]++
	}
	if stops["Count max_reps"] != 1 || stops["Time time_limit"] != 1 {
		t.Errorf("stop reasons %v: want Count by max_reps, Time by time_limit", stops)
	}
	skampiKeys(t, out, true)

	// -samples=false: the same record without the samples.
	out2 := filepath.Join(dir, "r2.jsonl")
	e2e.MustSucceed(t, e2e.Launch(t, 2, "skampi", "-config", cfg, "-o", out2, "-samples=false"))
	for _, r := range skampiRead(t, out2) {
		if r.Samples != nil || r.Stats == nil || r.Stop == "" || r.MaxReps == 0 {
			t.Errorf("%s x=%d with -samples=false: samples %v, stats %v, stop %q", r.Benchmark, r.X, r.Samples, r.Stats, r.Stop)
		}
	}
	skampiKeys(t, out2, false)
}

// skampiKeys checks the keys of every record: in "skampi" reached,
// rel_err and correction_us always (also when false, null or 0),
// samples_us as asked, never the per-rank times t_*_us.
func skampiKeys(t *testing.T, path string, samples bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	falses := 0
	// The lines as written: a record of version 3 keeps these keys too.
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if e2e.IsRunHeader(line) {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		// SKaMPI's own figures are in "skampi" (records version 3).
		sk, _ := m["skampi"].(map[string]any)
		for _, k := range []string{"reached", "rel_err", "correction_us", "stop", "min_reps", "max_reps", "tick_us"} {
			if _, ok := sk[k]; !ok {
				t.Errorf("record without %q in \"skampi\": %s", k, line)
			}
			if _, ok := m[k]; ok {
				t.Errorf("record with %q flat: %s", k, line)
			}
		}
		if _, ok := m["time_limit_s"]; !ok {
			t.Errorf("record without %q: %s", "time_limit_s", line)
		}
		for _, k := range []string{"t_min_us", "t_max_us", "t_avg_us"} {
			if _, ok := m[k]; ok {
				t.Errorf("record with %q: %s", k, line)
			}
		}
		if _, ok := m["samples_us"]; ok != samples {
			t.Errorf("samples_us present %v, want %v: %s", ok, samples, line)
		}
		if sk["reached"] == false {
			falses++
		}
	}
	if falses < 2 {
		t.Errorf("%d records with reached false, want at least Count and Time", falses)
	}
}

// skampiRecompute recomputes a record's figures from its samples: the
// trimmed mean by splitting every sample into four quarters and
// averaging the middle 2n of the 4n quarters (exactly a quarter of the
// samples dropped at each end, for any n), its standard error
// σ/√(n/2) with σ over those quarters, and the stop decision replayed
// repetition by repetition.
func skampiRecompute(t *testing.T, r skampiRecord) {
	t.Helper()
	id := fmt.Sprintf("%s x=%d", r.Benchmark, r.X)
	s, n := r.Samples, len(r.Samples)
	if r.Stats == nil || n != r.Reps || n != r.Stats.N || n == 0 {
		t.Fatalf("%s: %d samples, reps %d, stats %+v", id, n, r.Reps, r.Stats)
	}
	mean, se := quarterTrim(s)
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))+1e-12 }
	if !near(r.Stats.Trimmed, mean-r.Correction) || !near(r.Stats.TrimmedStdErr, se) {
		t.Errorf("%s: trimmed %v ± %v, recomputed %v − %v ± %v", id, r.Stats.Trimmed, r.Stats.TrimmedStdErr, mean, r.Correction, se)
	}
	sorted := slices.Clone(s)
	slices.Sort(sorted)
	if !near(r.Stats.Min, sorted[0]-r.Correction) || !near(r.Stats.Max, sorted[n-1]-r.Correction) {
		t.Errorf("%s: min %v max %v, samples %v..%v − %v", id, r.Stats.Min, r.Stats.Max, sorted[0], sorted[n-1], r.Correction)
	}
	rel := math.Inf(1)
	if mean > 0 {
		rel = se / mean
	}
	if (r.RelErr == nil) != math.IsInf(rel, 1) || r.RelErr != nil && !near(*r.RelErr, rel) {
		t.Errorf("%s: rel_err %v, recomputed %v", id, r.RelErr, rel)
	}
	// The stop decision, replayed: no earlier repetition met a rule, the
	// last one met the one the record names.
	for k := 1; k <= n; k++ {
		why := replayStop(r, s[:k])
		if k < n && why != "" {
			t.Errorf("%s: should have stopped at %d (%s), went on to %d", id, k, why, n)
			break
		}
		if k == n && (why != r.Stop || r.Reached != (why == "epsilon")) {
			t.Errorf("%s: stop %q reached %v, recomputed %q at n=%d (rel %v, ε %v)", id, r.Stop, r.Reached, why, n, rel, r.Epsilon)
		}
	}
}

// replayStop is the rule of the SKaMPI paper, section 3.1, on the
// trimmed mean, with the bounds the record names.
func replayStop(r skampiRecord, s []float64) string {
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	mean, se := quarterTrim(s)
	switch {
	case len(s) >= max(r.MinReps, 2) && sum >= r.Tick/r.Epsilon && mean > 0 && se/mean < r.Epsilon:
		return "epsilon"
	case len(s) >= r.MaxReps:
		return "max_reps"
	case r.TimeLimit > 0 && sum >= r.TimeLimit*1e6:
		return "time_limit"
	}
	return ""
}

// quarterTrim is the trimmed mean and its standard error computed on the
// 4n quarter copies of the samples: the middle 2n of them.
func quarterTrim(s []float64) (mean, se float64) {
	var q []float64
	for _, x := range s {
		q = append(q, x, x, x, x)
	}
	slices.Sort(q)
	n := len(s)
	mid := q[n : 3*n]
	for _, x := range mid {
		mean += x
	}
	mean /= float64(len(mid))
	ss := 0.0
	for _, x := range mid {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss/float64(len(mid))) / math.Sqrt(float64(n)/2)
}
