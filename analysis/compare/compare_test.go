package compare

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
)

// noisy is a run of cases × launches IMB records whose t_max is base·
// (1 + 0.01·case) times a noise factor exp(σ·N(0,1)), σ = 3 % (the
// launch-to-launch spread of a quiet cluster), with case slow slower by
// factor (1: no change).
func noisy(rng *rand.Rand, cases, launches, slow int, factor float64) []result.Record {
	const sigma = 0.03
	var recs []result.Record
	for l := 0; l < launches; l++ {
		for c := 0; c < cases; c++ {
			t := 10 * (1 + 0.01*float64(c)) * math.Exp(sigma*rng.NormFloat64())
			if c == slow {
				t *= factor
			}
			recs = append(recs, result.Record{Suite: result.SuiteMPI1, Benchmark: "PingPong", Class: "single",
				Multi: -1, Group: -1, NProcs: 2, Bytes: 1 << c, Reps: 1000, TMax: t, TAvg: t, TMin: t})
		}
	}
	return recs
}

// A 10 % slowdown in one case of twelve, ten launches a side with 3 %
// noise, is found, flagged beyond -fail-on 5 and the only one flagged,
// for every seed tried.
func TestPlantedSlowdown(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		rng := rand.New(rand.NewPCG(seed, 2016))
		old := SetOf("old", noisy(rng, 12, 10, -1, 1))
		new := SetOf("new", noisy(rng, 12, 10, 7, 1.10))
		c := Compare(old, new, DefaultAlpha)
		if len(c.Changes) != 12 || c.OnlyOld != 0 || c.OnlyNew != 0 {
			t.Fatalf("seed %d: %d changes, %d+%d unmatched", seed, len(c.Changes), c.OnlyOld, c.OnlyNew)
		}
		ch := c.Changes[7]
		if !ch.Significant || ch.Delta < 5 || ch.Delta > 15 || ch.Unit != UnitLaunches {
			t.Errorf("seed %d: planted case %+v", seed, ch)
		}
		if s := c.Slower(5); len(s) != 1 || s[0].Bytes != 1<<7 {
			t.Errorf("seed %d: -fail-on 5 finds %d cases, want the planted one", seed, len(s))
		}
	}
}

// Pure noise: about alpha of the cases are significant (the test's
// promise; at most 8 % of 600 here), none moves beyond -fail-on 5.
func TestNoiseNotFlagged(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2016))
	sig, n := 0, 0
	for run := 0; run < 20; run++ {
		c := Compare(SetOf("old", noisy(rng, 30, 10, -1, 1)), SetOf("new", noisy(rng, 30, 10, -1, 1)), DefaultAlpha)
		for _, ch := range c.Changes {
			n++
			if ch.Significant {
				sig++
			}
		}
		if s := c.Slower(5); len(s) > 0 {
			t.Errorf("noise flagged beyond 5 %%: %+v", s[0])
		}
	}
	if n != 600 || float64(sig) > 0.08*float64(n) {
		t.Errorf("%d of %d noise cases significant, want at most 8 %%", sig, n)
	}
}

// Three launches a side cannot reach 0.05 (smallest p 0.1): a 50 %
// slowdown is "~ (too few", not significant; one record a side without
// samples the same.
func TestTooFew(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 2016))
	for _, launches := range []int{1, 3} {
		c := Compare(SetOf("old", noisy(rng, 2, launches, -1, 1)), SetOf("new", noisy(rng, 2, launches, 0, 1.5)), DefaultAlpha)
		ch := c.Changes[0]
		if ch.Significant || !ch.TooFew || ch.Delta < 30 || !strings.HasPrefix(ch.Verdict(), "~ (too few") {
			t.Errorf("%d launches: %+v, verdict %q", launches, ch, ch.Verdict())
		}
	}
	if LaunchesNeeded(0.05) != 4 || LaunchesNeeded(0.01) != 5 || LaunchesNeeded(0.1) != 4 {
		t.Errorf("LaunchesNeeded %d %d %d, want 4 5 4", LaunchesNeeded(0.05), LaunchesNeeded(0.01), LaunchesNeeded(0.1))
	}
	if MinP(3, 3) != 0.1 || math.Abs(MinP(4, 4)-2.0/70) > 1e-15 || MinP(0, 5) != 1 {
		t.Errorf("MinP %g %g %g", MinP(3, 3), MinP(4, 4), MinP(0, 5))
	}
}

// One record a side with per-repetition samples (PGMPI): the samples
// are tested; SKaMPI's correction is taken off the raw samples.
func TestSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2016))
	rec := func(f, corr float64) result.Record {
		s := make([]float64, 40)
		for i := range s {
			s[i] = 20*f*math.Exp(0.03*rng.NormFloat64()) + corr
		}
		return result.Record{Suite: result.SuiteSkampi, Benchmark: "Bcast", NProcs: 4, Multi: -1, Group: -1,
			Bytes: 8, Samples: s, SkampiFigures: result.SkampiFigures{Param: "bytes", X: 8, Correction: corr}}
	}
	c := Compare(SetOf("old", []result.Record{rec(1, 0)}), SetOf("new", []result.Record{rec(1.1, 3)}), DefaultAlpha)
	ch := c.Changes[0]
	if ch.Unit != UnitSamples || ch.Old.N != 40 || !ch.Significant || math.Abs(ch.Delta-10) > 3 {
		t.Errorf("%+v", ch)
	}
}

// exactTwoSided is the exact two-sided rank-sum p-value by enumerating
// every split of the pooled distinct values into n1 and n2: 2·P(U ≥
// max(U1, U2)), counted, not from stats' recurrence.
func exactTwoSided(x, y []float64) float64 {
	all := append(append([]float64{}, x...), y...)
	u := func(a []float64, b []float64) int {
		n := 0
		for _, v := range a {
			for _, w := range b {
				if v > w {
					n++
				}
			}
		}
		return n
	}
	obs := max(u(x, y), u(y, x))
	n, n1 := len(all), len(x)
	hit, total := 0, 0
	for mask := 0; mask < 1<<n; mask++ {
		var a, b []float64
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				a = append(a, all[i])
			} else {
				b = append(b, all[i])
			}
		}
		if len(a) != n1 {
			continue
		}
		total++
		if u(a, b) >= obs {
			hit++
		}
	}
	return math.Min(1, 2*float64(hit)/float64(total))
}

// The medians, change and p-value of a case against values computed
// here by other means: by hand (medians, change; 2/C(10,5) when the
// samples do not overlap) and by enumerating every split.
func TestStatistics(t *testing.T) {
	cases := []struct {
		old, new         []float64
		oldMed, newMed   float64
		p                float64 // 0: enumerate
		significantAt005 bool
	}{
		{[]float64{14, 10, 12, 11, 13}, []float64{19, 15, 17, 16, 18}, 12, 17, 2.0 / 252, true},
		{[]float64{1.0, 2.5, 3.1, 4.7, 5.2}, []float64{2.0, 3.9, 5.5, 6.1, 7.3, 8.0}, 3.1, 5.8, 0, false},
		{[]float64{5.1, 5.3, 4.9, 5.0, 5.2, 5.05}, []float64{5.6, 5.25, 5.7, 5.8, 5.45, 5.9}, 5.075, 5.65, 0, true},
	}
	for i, tc := range cases {
		rec := func(v float64) result.Record {
			return result.Record{Suite: result.SuiteMPI1, Benchmark: "Barrier", NProcs: 4, Multi: -1, Group: -1, TMax: v}
		}
		var o, n []result.Record
		for _, v := range tc.old {
			o = append(o, rec(v))
		}
		for _, v := range tc.new {
			n = append(n, rec(v))
		}
		ch := Compare(SetOf("a", o), SetOf("b", n), DefaultAlpha).Changes[0]
		want := tc.p
		if want == 0 {
			want = exactTwoSided(tc.old, tc.new)
		}
		delta := 100 * (tc.newMed - tc.oldMed) / tc.oldMed
		if math.Abs(ch.Old.Median-tc.oldMed) > 1e-12 || math.Abs(ch.New.Median-tc.newMed) > 1e-12 || math.Abs(ch.Delta-delta) > 1e-9 ||
			math.Abs(ch.P-want) > 1e-12 || ch.Significant != tc.significantAt005 {
			t.Errorf("case %d: medians %g %g change %g p %g significant %v; want %g %g %g %g %v",
				i, ch.Old.Median, ch.New.Median, ch.Delta, ch.P, ch.Significant, tc.oldMed, tc.newMed, delta, want, tc.significantAt005)
		}
	}
	if p := stats.RankSum([]float64{1, 2}, []float64{3, 4}, stats.TwoSided).P; p != 1.0/3 {
		t.Errorf("2+2 p %g, want 2/6", p)
	}
}

// Check-mode, summary and violation records carry no measurement; the
// cases of one side only are counted.
func TestSkippedAndUnmatched(t *testing.T) {
	recs := []result.Record{
		{Suite: "mpi1", Benchmark: "PingPong", TMax: 1, Check: true},
		{Suite: "beff", Benchmark: "b_eff", Class: "summary", TMax: 1},
		{Suite: "pgmpi", Benchmark: "MPI_Bcast", Class: "violation", Violation: result.Violation{Guideline: "GL1"}, TMax: 1},
		{Suite: "mpi1", Benchmark: "Barrier", TMax: 0},
		{Suite: "mpi1", Benchmark: "Bcast", TMax: 3, Bytes: 8},
	}
	old := SetOf("old", recs)
	if old.Len() != 1 {
		t.Fatalf("%d cases, want 1 (Bcast)", old.Len())
	}
	new := SetOf("new", []result.Record{{Suite: "mpi1", Benchmark: "Bcast", TMax: 3, Bytes: 16}})
	c := Compare(old, new, DefaultAlpha)
	if len(c.Changes) != 0 || c.OnlyOld != 1 || c.OnlyNew != 1 {
		t.Errorf("%+v", c)
	}
}

// The table marks the planted slowdown SLOWER and the rest "~"; the
// JSON Lines hold one Change per case.
func TestTextAndJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2016))
	c := Compare(SetOf("old.jsonl", noisy(rng, 3, 8, -1, 1)), SetOf("new.jsonl", noisy(rng, 3, 8, 1, 1.2)), DefaultAlpha)
	var b bytes.Buffer
	if err := WriteText(&b, c, 5); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 9 || !strings.Contains(lines[0], "old.jsonl") || !strings.Contains(lines[4], "old") {
		t.Fatalf("table:\n%s", b.String())
	}
	if !strings.Contains(lines[6], "mpi1 PingPong np=2 2B") || !strings.Contains(lines[6], "SLOWER") ||
		!strings.Contains(lines[5], "~ (p=") || !strings.HasPrefix(lines[8], "geomean") {
		t.Errorf("table:\n%s", b.String())
	}
	js, err := JSONLines([]*Comparison{c})
	if err != nil {
		t.Fatal(err)
	}
	var ch Change
	jl := strings.Split(strings.TrimSpace(string(js)), "\n")
	if len(jl) != 3 || json.Unmarshal([]byte(jl[1]), &ch) != nil || !ch.Significant || ch.Bytes != 2 || ch.New.File != "new.jsonl" {
		t.Errorf("JSON: %s", js)
	}
}

// OSU's records are compared on the latency OSU prints (t_avg; t_max is
// -f's slowest rank, absent without it) and the non-blocking collectives'
// Overall(us) (their t_max is the pure pass's slowest rank); the
// bandwidth tests, with no time, are left out.
func TestOSUFigure(t *testing.T) {
	nbc := func(overall float64) *result.OSU {
		return &result.OSU{NBC: &result.OSUNBC{Overall: overall, Pure: 1}}
	}
	side := func(f float64) []result.Record {
		return []result.Record{
			{Suite: "osu", Benchmark: "osu_latency", Class: "latency", Bytes: 8, TAvg: 2 * f, OSU: &result.OSU{}},
			{Suite: "osu", Benchmark: "osu_iallreduce", Class: "non-blocking", Bytes: 8, TAvg: 5 * f, TMax: 1, OSU: nbc(5 * f)},
			{Suite: "osu", Benchmark: "osu_bw", Class: "bandwidth", Bytes: 8, MBps: 100 * f, OSU: &result.OSU{}},
		}
	}
	c := Compare(SetOf("old", side(1)), SetOf("new", side(2)), DefaultAlpha)
	if len(c.Changes) != 2 {
		t.Fatalf("%d changes, want osu_latency's and osu_iallreduce's: %+v", len(c.Changes), c)
	}
	for _, ch := range c.Changes {
		want := map[string]float64{"osu_latency": 2, "osu_iallreduce": 5}[ch.Benchmark]
		if ch.Old.Median != want || ch.New.Median != 2*want {
			t.Errorf("%s (%s): old %g new %g, want %g and %g", ch.Benchmark, ch.Metric, ch.Old.Median, ch.New.Median, want, 2*want)
		}
	}
}
