package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/compare"
	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/e2e"
)

// compareSkampi is two short SKaMPI measurements whose records keep
// every repetition's time.
const compareSkampi = `minreps 16
maxreps 24
epsilon 0.0000001
timelimit 600
measure Pingpong_1  pingpong   Send_Recv none len=1
measure Pingpong_16 pingpong   Send_Recv none len=16
measure Bcast       collective Bcast     none len=4
`

// writeRecords writes recs as a JSON Lines file in dir.
func writeRecords(t *testing.T, dir, name string, recs []result.Record) string {
	t.Helper()
	var b bytes.Buffer
	w := result.NewWriter(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Two real runs compared: every case matched, tested on its repetitions,
// the medians those of the samples less the correction; then the second
// run against itself with one case planted 50 % slower (the two runs
// themselves may differ by anything on a loaded machine): -fail-on 10
// exits 1 naming it, -fail-on above the planted change exits 0; a run
// against itself
// unchanged changes nothing.
func TestCompareRealRuns(t *testing.T) {
	dir := t.TempDir()
	cfg := e2e.WriteFile(t, "t.ski", compareSkampi)
	runs := make([][]result.Record, 2)
	for i := range runs {
		out := filepath.Join(dir, []string{"old.jsonl", "new.jsonl"}[i])
		e2e.MustSucceed(t, e2e.Launch(t, 2, "skampi", "-config", cfg, "-o", out))
		if runs[i] = e2e.ReadResults(t, out); len(runs[i]) != 3 {
			t.Fatalf("%s: %d records", out, len(runs[i]))
		}
	}
	old := filepath.Join(dir, "old.jsonl")
	js := filepath.Join(dir, "changes.jsonl")
	r := e2e.Direct(t, "compare", old, filepath.Join(dir, "new.jsonl"), "-json", js)
	e2e.MustSucceed(t, r)
	changes := readChanges(t, js)
	if len(changes) != 3 || strings.Count(r.Stdout, "skampi Pingpong_") != 2 {
		t.Fatalf("%d changes, table:\n%s", len(changes), r.Stdout)
	}
	for i, ch := range changes {
		rec := runs[0][i]
		if ch.Unit != compare.UnitSamples || ch.Old.N != len(rec.Samples) || ch.Old.N < 16 {
			t.Errorf("%s: unit %s n %d, want the %d repetitions", ch.Label(), ch.Unit, ch.Old.N, len(rec.Samples))
		}
		want := stats.Median(rec.Samples) - rec.Correction
		if math.Abs(ch.Old.Median-want) > 1e-9*math.Abs(want) {
			t.Errorf("%s: old median %g, want %g", ch.Label(), ch.Old.Median, want)
		}
	}
	comparePlanted(t, dir, filepath.Join(dir, "new.jsonl"), runs[1])
	same := e2e.Direct(t, "compare", old, old, "-fail-on", "0")
	e2e.MustSucceed(t, same)
	if strings.Count(same.Stdout, "~ (p=1.000") != 3 {
		t.Errorf("a run against itself:\n%s", same.Stdout)
	}
}

// comparePlanted makes the 16-byte ping-pong of recs, the records of the
// file old, 50 % slower, every sample above every old one, and checks
// that -fail-on finds it. (Not Bcast:
// under load its corrected median can be at or below 0, where no change
// in percent is defined.)
func comparePlanted(t *testing.T, dir, old string, recs []result.Record) {
	t.Helper()
	planted := 0.0
	for i := range recs {
		if recs[i].Benchmark == "Pingpong_16" {
			before := stats.Median(recs[i].Samples) - recs[i].Correction
			// 50 % slower, and shifted by the samples' spread: under
			// MPICH's busy-polling ranks beside another test the 24
			// samples once spread so wide (medians 1822 and 2734 µs,
			// p = 0.205) that a plain 50 % was not significant.
			spread := slices.Max(recs[i].Samples) - slices.Min(recs[i].Samples)
			for j := range recs[i].Samples {
				recs[i].Samples[j] = 1.5*(recs[i].Samples[j]-recs[i].Correction) + recs[i].Correction + spread
			}
			planted = 100 * ((stats.Median(recs[i].Samples)-recs[i].Correction)/before - 1)
		}
	}
	if !(planted > 50) {
		t.Fatalf("planted change %g %%, want above 50 %%", planted)
	}
	slow := writeRecords(t, dir, "slow.jsonl", recs)
	r := e2e.Direct(t, "compare", old, slow, "-fail-on", "10%")
	e2e.NoPanic(t, r)
	var slower []string
	for _, line := range strings.Split(r.Stdout, "\n") {
		if strings.HasSuffix(line, "SLOWER") {
			slower = append(slower, line)
		}
	}
	if r.Code != 1 || !strings.Contains(r.Stderr, "1 cases significantly slower by more than 10%") ||
		len(slower) != 1 || !strings.HasPrefix(slower[0], "skampi Pingpong_16 ") {
		t.Errorf("planted slowdown: %s", r)
	}
	// The spread added makes the change itself depend on the load (once
	// +5982 %), so the threshold that must pass is twice the planted one.
	above := fmt.Sprintf("%.0f", 2*planted+1)
	e2e.MustSucceed(t, e2e.Direct(t, "compare", old, slow, "-fail-on", above))
}

func readChanges(t *testing.T, path string) []compare.Change {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cs []compare.Change
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var c compare.Change
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		cs = append(cs, c)
	}
	return cs
}

// Bad input: exit 2 with the problem named; several NEW files each
// compared with OLD.
func TestCompareInput(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	dir := t.TempDir()
	recs := []result.Record{{Suite: "mpi1", Benchmark: "Barrier", NProcs: 2, Multi: -1, Group: -1, TMax: 5}}
	a := writeRecords(t, dir, "a.jsonl", recs)
	b := writeRecords(t, dir, "b.jsonl", recs)
	check := writeRecords(t, dir, "check.jsonl", []result.Record{{Suite: "mpi1", Benchmark: "Barrier", Check: true, TMax: 1}})
	other := writeRecords(t, dir, "other.jsonl", []result.Record{{Suite: "mpi1", Benchmark: "Barrier", NProcs: 4, Multi: -1, Group: -1, TMax: 5}})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{a}, "want OLD.jsonl and at least one NEW.jsonl"},
		{[]string{a, b, "-fail-on", "x"}, `-fail-on: "x": want a percentage`},
		{[]string{a, b, "-fail-on", "-5"}, "want a percentage"},
		{[]string{a, b, "-alpha", "1.5"}, "-alpha 1.5"},
		{[]string{a, filepath.Join(dir, "none.jsonl")}, "none.jsonl: no such file"},
		{[]string{a, check}, "check.jsonl: no measurement to compare"},
		{[]string{a, b, "-json", a}, "-json:"},
		// Unrelated inputs decided nothing: once exit 0.
		{[]string{a, other, "-fail-on", "5"}, "a.jsonl and " + other + " have no case in common"},
		{[]string{a, "vs"}, "a side with no file"},
		{[]string{"vs", a, b}, "a side with no file"},
		{[]string{a, "vs", "vs", b}, "a side with no file"},
		{[]string{a, b, "vs", other}, "(+1 files) and " + other + " have no case in common"},
	} {
		r := e2e.Direct(t, append([]string{"compare"}, c.args...)...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: want exit 2 and %q, got %s", c.args, c.want, r)
		}
	}
	r := e2e.Direct(t, "compare", a, b, b)
	e2e.MustSucceed(t, r)
	if strings.Count(r.Stdout, "old: "+a) != 2 || strings.Count(r.Stdout, "~ (too few: n=1+1)") != 2 {
		t.Errorf("two NEW files:\n%s", r.Stdout)
	}
}

// Single launches of an IMB suite (records without per-repetition
// samples) are too few for any verdict, however slower: the table says
// so with the launches needed, and -fail-on, which cannot decide, says so
// on stderr and exits 3 (it once exited 0, a CI gate passing silently).
// With that many launches a side, concatenated in one file or given as
// one file a launch on each side of vs, the same slowdown is found and
// the note goes.
func TestCompareTooFewLaunches(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	dir := t.TempDir()
	side := func(launches int, factor float64) []result.Record {
		var recs []result.Record
		for l := 0; l < launches; l++ {
			for _, b := range []int{0, 1024} {
				recs = append(recs, result.Record{Suite: "mpi1", Benchmark: "PingPong", Class: "single", NProcs: 2,
					Multi: -1, Group: -1, Bytes: b, TMax: factor * (10 + float64(l)/100)})
			}
		}
		return recs
	}
	need := compare.LaunchesNeeded(compare.DefaultAlpha)
	if need != 4 {
		t.Fatalf("LaunchesNeeded(0.05) = %d, want 4 (MinP(3, 3) = 0.1, MinP(4, 4) = 0.029)", need)
	}
	one := e2e.Direct(t, "compare", writeRecords(t, dir, "old1.jsonl", side(1, 1)), writeRecords(t, dir, "new1.jsonl", side(1, 1.5)), "-fail-on", "5")
	e2e.NoPanic(t, one)
	if one.Code != 3 || !strings.Contains(one.Stdout, "too few: all 2 cases had too few samples for a verdict at alpha 0.05; the rank-sum test needs at least 4 launches of each side") ||
		!strings.Contains(one.Stderr, "-fail-on could not decide: all 2 cases had too few samples") {
		t.Errorf("single launches: want exit 3, got %s", one)
	}
	var files []string
	for _, s := range []struct {
		name   string
		factor float64
	}{{"old", 1}, {"new", 1.5}} {
		if s.name == "new" {
			files = append(files, "vs")
		}
		for l := 0; l < need; l++ {
			recs := side(1, s.factor)
			for i := range recs {
				recs[i].TMax += float64(l) / 100
			}
			files = append(files, writeRecords(t, dir, fmt.Sprintf("%s-launch%d.jsonl", s.name, l), recs))
		}
	}
	sides := e2e.Direct(t, append(append([]string{"compare"}, files...), "-fail-on", "5")...)
	e2e.NoPanic(t, sides)
	if sides.Code != 1 || strings.Contains(sides.Stdout, "too few") || !strings.Contains(sides.Stdout, "old-launch0.jsonl (+3 files)") {
		t.Errorf("%d launch files a side around vs: %s", need, sides)
	}
	four := e2e.Direct(t, "compare", writeRecords(t, dir, "old4.jsonl", side(need, 1)), writeRecords(t, dir, "new4.jsonl", side(need, 1.5)), "-fail-on", "5")
	e2e.NoPanic(t, four)
	if four.Code != 1 || strings.Contains(four.Stdout, "too few") || strings.Contains(four.Stderr, "cannot trigger") {
		t.Errorf("%d launches a side: %s", need, four)
	}
}
