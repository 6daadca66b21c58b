package imb

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/e2e"
)

// skewUS is the skew mutant's delay of rank 1 before each collective call,
// µs: long against an Allreduce of 4 bytes, short for the test's budget.
const skewUS = 50000

// syncRun runs Allreduce at 4 bytes, reps repetitions, on 2 ranks with
// the skew mutant and returns its one record and the standard output.
// Two ranks: with four on this 2-core machine no start of a window was in
// time (README, 0 of 10 valid), and the window's time went unchecked.
func syncRun(t *testing.T, bin string, reps int, args ...string) (result.Record, string) {
	t.Helper()
	args = append([]string{"mpi1", "Allreduce", "-msglog", "2:2", "-zero_size", "off",
		"-iter", strconv.Itoa(reps)}, args...)
	return skewRunOut(t, bin, 2, skewUS, args...)
}

// skewRun runs args (a suite and its flags, without -json) on np ranks
// with the skew mutant delaying rank 1 by us µs and returns the one
// record.
func skewRun(t *testing.T, bin string, np, us int, args ...string) result.Record {
	t.Helper()
	r, _ := skewRunOut(t, bin, np, us, args...)
	return r
}

// skewRunOut is skewRun, with the run's standard output.
func skewRunOut(t *testing.T, bin string, np, us int, args ...string) (result.Record, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.jsonl")
	t.Setenv(e2e.MutantEnv, "skew")
	t.Setenv("MPIBENCH_SKEW_US", strconv.Itoa(us))
	r := e2e.LaunchBin(t, bin, np, append(args, "-json", out)...)
	e2e.MustSucceed(t, r)
	return oneRecord(t, out), r.Stdout
}

// oneRecord is the one record of the results file path.
func oneRecord(t *testing.T, path string) result.Record {
	t.Helper()
	recs := e2e.ReadResults(t, path)
	if len(recs) != 1 {
		t.Fatalf("%s: want 1 record, got %d", path, len(recs))
	}
	return recs[0]
}

// TestSyncSkew: rank 1 sleeps d = skewUS before every Allreduce (the skew
// mutant, after the barrier or before the window's wait). Theory:
//   - barrier (IMB 2021's -sync on, each call timed alone between
//     barriers): the other rank enters at once and waits inside the
//     Allreduce for rank 1's contribution, so its time includes d:
//     t_max >= d (minus the barrier's own skew: the test asks d/2);
//   - window with W = 5d: rank 1 still reaches its wait before the common
//     start, both ranks start together, and the time is the Allreduce's
//     alone: the mean of the valid repetitions is far below d and below
//     the barrier's t_max (the test asks < d/10 and < t_max/10). Its start
//     lag (the latest rank's, median) stays below d/2. A repetition is
//     valid only where every rank began within the slack (the clock
//     error, at least 1 µs) of the start, which a loaded machine denies
//     to many: the run is repeated with twice and four times the
//     repetitions until one is valid, and fails without one. Valid plus
//     invalid are the repetitions run, and the text table reports both;
//   - window with W = d/4: rank 1 reaches every wait d after its last call
//     ended, after the next start, so every repetition is late: all
//     invalid and counted, none valid, the start lag above 3d/4.
//
// Only lower bounds of sleeps and upper bounds far above an Allreduce of
// 4 bytes: a loaded machine cannot break them.
func TestSyncSkew(t *testing.T) {
	bin := e2e.MutantBinary(t)
	d := float64(skewUS) // µs
	b, _ := syncRun(t, bin, 10, "-imb", "2021", "-sync", "barrier")
	if b.Sync != "barrier" || b.TMax < d/2 {
		t.Errorf("barrier: sync %q, t_max %.1f µs; want barrier and >= %.0f µs (rank 1's delay)", b.Sync, b.TMax, d/2)
	}
	w5 := strconv.FormatFloat(5*d*1e-6, 'g', -1, 64)
	w := windowSkew(t, b.TMax, func(k int) (result.Record, string) {
		return syncRun(t, bin, 20*k, "-sync", "window", "-window_time", w5)
	})
	if w.ClockErr <= 0 {
		t.Errorf("window 5d: clock error %g, want > 0", w.ClockErr)
	}
	l, _ := syncRun(t, bin, 10, "-sync", "window", "-window_time", strconv.FormatFloat(d/4*1e-6, 'g', -1, 64))
	if l.InvalidReps == nil || *l.InvalidReps != l.Reps || l.ValidReps != 0 || l.StartLag*1e6 < d/2 {
		t.Errorf("window d/4: valid %d, invalid %v of %d repetitions, median start lag %g s; want all invalid, lag >= %.0f µs",
			l.ValidReps, l.InvalidReps, l.Reps, l.StartLag, d/2)
	}
}

// windowSkew calls run(k), a window run of 5d with k times its first
// number of repetitions, for k = 1, 2, 4 until a repetition is valid and
// t_avg is the call alone and the median start lag below d/2, checks
// that run against the barrier's t_max tb (µs) as TestSyncSkew says and
// returns its record. The retry is for a loaded machine (CI runs other
// packages' tests beside this one): one preempted valid repetition of
// 60 ms lifts the mean of ten past d/10, a rank descheduled past the
// first start (16 ms seen in CI) lags the repetitions behind it, while a
// window that does not synchronise does both in every run.
func windowSkew(t *testing.T, tb float64, run func(k int) (result.Record, string)) result.Record {
	t.Helper()
	d := float64(skewUS)
	var w result.Record
	var out string
	alone := func() bool { return w.TAvg > 0 && w.TAvg < d/10 && w.TAvg < tb/10 } // the call alone
	for k := 1; k <= 4; k *= 2 {
		w, out = run(k)
		t.Logf("%s window 5d, %d repetitions: t_avg %.1f µs, valid %d, start lag %g s, clock error %g s; barrier t_max %.1f µs",
			w.Benchmark, w.Reps, w.TAvg, w.ValidReps, w.StartLag, w.ClockErr, tb)
		if w.ValidReps > 0 && alone() && w.StartLag*1e6 < d/2 {
			break
		}
	}
	switch {
	case w.Sync != "window" || w.WindowS != 5*d*1e-6 || w.InvalidReps == nil:
		t.Errorf("window 5d: sync %q, window %g s, invalid %v: want window, %g s and a count", w.Sync, w.WindowS, w.InvalidReps, 5*d*1e-6)
	case w.ValidReps+*w.InvalidReps != w.Reps:
		t.Errorf("window 5d: %d valid + %d invalid repetitions, want %d", w.ValidReps, *w.InvalidReps, w.Reps)
	case !strings.Contains(out, "invalid") || !strings.Contains(out, strconv.Itoa(*w.InvalidReps)):
		t.Errorf("window 5d: the table does not report the %d invalid repetitions:\n%s", *w.InvalidReps, out)
	case w.StartLag*1e6 >= d/2:
		t.Errorf("window 5d: median start lag %g s, want rank 1 before its start, lag < %.0f µs", w.StartLag, d/2)
	case w.ValidReps == 0:
		t.Errorf("window 5d: no valid repetition in three runs (every start lagged more than the slack)")
	case !alone():
		t.Errorf("window 5d: t_avg %.1f µs, want the call alone, in (0, %.0f) µs and below a tenth of barrier's %.1f µs",
			w.TAvg, d/10, tb)
	}
	return w
}

// TestSyncSkewNBC is TestSyncSkew's barrier and window 5d for IMB-NBC's
// Iallreduce_pure (the skew mutant delays rank 1 before every repetition
// of the pure loop and before every window's wait), on 2 ranks; -time
// bounds the repetitions (nbc has no -iter): 1 s of barrier
// repetitions, 5, 10, 20 s of windows.
func TestSyncSkewNBC(t *testing.T) {
	bin := e2e.MutantBinary(t)
	d := float64(skewUS)
	lens := filepath.Join(t.TempDir(), "lens")
	if err := os.WriteFile(lens, []byte("4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nbc := func(args ...string) (result.Record, string) {
		return skewRunOut(t, bin, 2, skewUS, append([]string{"nbc", "Iallreduce_pure", "-msglen", lens}, args...)...)
	}
	b, _ := nbc("-sync", "barrier", "-time", "1")
	if b.Sync != "barrier" || b.TMax < d/2 {
		t.Errorf("barrier: sync %q, t_max %.1f µs; want barrier and >= %.0f µs (rank 1's delay)", b.Sync, b.TMax, d/2)
	}
	windowSkew(t, b.TMax, func(k int) (result.Record, string) {
		return nbc("-sync", "window", "-window_time", strconv.FormatFloat(5*d*1e-6, 'g', -1, 64), "-time", strconv.Itoa(5*k))
	})
}

// TestSyncWindowSuites: -sync window in nbc (a _pure loop) and skampi (the
// collective pattern) on 2 ranks: the records carry the method, the
// window, a clock error and the repetition counts. A loaded machine may
// start no skampi repetition in time; the run must then fail with a
// message that says so, naming -sync window.
func TestSyncWindowSuites(t *testing.T) {
	dir := t.TempDir()
	lens, ski := filepath.Join(dir, "lens"), filepath.Join(dir, "w.ski")
	if err := os.WriteFile(lens, []byte("4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := "minreps 4\nmaxreps 8\nmeasure Allreduce_4 collective Allreduce none len=4\n"
	if err := os.WriteFile(ski, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	nbc := filepath.Join(dir, "nbc.jsonl")
	r := e2e.Launch(t, 2, "nbc", "Iallreduce_pure", "-sync", "window", "-window_time", "0.001", "-msglen", lens,
		"-time", "0.05", "-json", nbc)
	e2e.MustSucceed(t, r)
	checkWindowRecord(t, nbc, 0.001, true)
	sk := filepath.Join(dir, "sk.jsonl")
	r = e2e.Launch(t, 2, "skampi", "-config", ski, "-sync", "window", "-json", sk)
	e2e.NoPanic(t, r)
	if r.Code != 0 {
		if !strings.Contains(r.Stderr, "-sync window: no start in time") {
			t.Fatalf("skampi -sync window: want success or the no-start message, got %s", r)
		}
		return
	}
	checkWindowRecord(t, sk, 0, false)
}

// checkWindowRecord reads the one record of path: a window record with
// window w (0: any), a clock error, and valid + invalid = reps where
// imb (every window counted), else valid >= reps (the policy's samples).
func checkWindowRecord(t *testing.T, path string, w float64, imb bool) {
	t.Helper()
	r := oneRecord(t, path)
	switch {
	case r.Sync != "window" || r.InvalidReps == nil || r.ClockErr <= 0 || (w > 0 && r.WindowS != w) || r.WindowS <= 0:
		t.Errorf("%s: sync %q, window %g s, clock error %g s, invalid %v; want window, %g s, > 0, a count",
			r.Benchmark, r.Sync, r.WindowS, r.ClockErr, r.InvalidReps, w)
	case imb && r.ValidReps+*r.InvalidReps != r.Reps:
		t.Errorf("%s: %d valid + %d invalid, want %d repetitions", r.Benchmark, r.ValidReps, *r.InvalidReps, r.Reps)
	case !imb && r.ValidReps < r.Reps:
		t.Errorf("%s: %d valid repetitions, want at least the %d samples", r.Benchmark, r.ValidReps, r.Reps)
	}
}

// TestSyncIMB30: -sync barrier and none without -imb 2021 run IMB 3.0's
// loops of mpi1 (none: without the barriers before the timed loop, the
// loop of IMB 2021's Gather without its barrier after every call) and
// their records name the method and the option as typed; PingPong's
// record names none. (IMB 2021's spellings on and off are refused there,
// quoting them: suites/imb's TestFlagErrors.)
func TestSyncIMB30(t *testing.T) {
	dir := t.TempDir()
	for _, m := range []string{"barrier", "none"} {
		out := filepath.Join(dir, m+".jsonl")
		e2e.MustSucceed(t, e2e.Launch(t, 2, "mpi1", "Allreduce", "Gather", "PingPong", "-sync", m, "-msglog", "2:2",
			"-zero_size", "off", "-iter", "10", "-json", out))
		for _, r := range e2e.ReadJSONL[result.Record](t, out) {
			want := map[bool]string{true: m, false: ""}[r.Benchmark != "PingPong"]
			if r.Sync != want || r.Context.Options["sync"] != m || r.Context.IMB != "3.0" {
				t.Errorf("-sync %s, %s: sync %q, options %v, imb %q; want sync %q", m, r.Benchmark, r.Sync,
					r.Context.Options, r.Context.IMB, want)
			}
		}
	}
}

// TestSyncNoneSkew: rank 1 sleeps d before IMB 3.0's loop (mpi1, one
// Allreduce per sample) and before every repetition of SKaMPI's
// collective pattern (Allreduce; not before its empty measurement).
// Theory: with -sync barrier the barrier before the timer absorbs the
// sleep, and the time is the Allreduce's alone, far below d; with -sync
// none rank 0 starts its timer and waits inside the Allreduce for rank 1,
// so its time includes d. The test asks < d/2 and >= d/2: lower bounds
// of sleeps and an upper bound far above a 4-byte Allreduce on 2 ranks.
func TestSyncNoneSkew(t *testing.T) {
	bin := e2e.MutantBinary(t)
	const us = 4 * skewUS
	d := float64(us) // µs
	imb := []string{"mpi1", "Allreduce", "-msglog", "2:2", "-zero_size", "off", "-iter", "1"}
	ski := filepath.Join(t.TempDir(), "a.ski")
	conf := "minreps 4\nmaxreps 6\nmeasure Allreduce_4 collective Allreduce none len=4\n"
	if err := os.WriteFile(ski, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	sk := []string{"skampi", "-config", ski}
	for _, c := range []struct {
		name string
		args []string
	}{{"mpi1", imb}, {"skampi", sk}} {
		b := skewRun(t, bin, 2, us, append(c.args, "-sync", "barrier")...)
		n := skewRun(t, bin, 2, us, append(c.args, "-sync", "none")...)
		tb, tn := skewTime(t, b), skewTime(t, n)
		t.Logf("%s: barrier %.1f µs, none %.1f µs, d %.0f µs", c.name, tb, tn, d)
		if b.Sync != "barrier" || n.Sync != "none" {
			t.Errorf("%s: sync %q and %q, want barrier and none", c.name, b.Sync, n.Sync)
		}
		if tb >= d/2 || tn < d/2 {
			t.Errorf("%s: barrier %.1f µs, none %.1f µs; want < %.0f and >= %.0f (rank 1's delay)",
				c.name, tb, tn, d/2, d/2)
		}
	}
}

// skewTime is the time of a record of TestSyncNoneSkew, µs: IMB's t_max
// (rank 0's wait, which t_avg halves), SKaMPI's median.
func skewTime(t *testing.T, r result.Record) float64 {
	if r.Suite != result.SuiteSkampi {
		return r.TMax
	}
	if r.Stats == nil {
		t.Fatalf("%s: no stats", r.Benchmark)
	}
	return r.Stats.Median
}

// TestSyncClockMutant: the clock mutant sets world rank 1's clock (the one
// clock synchronisation and the window loop read) off by ±0.5 s and
// running at a rate 1 ± 10^-2. Theory: the synchronisation fits the
// offset and the drift (over its fraction of a millisecond 10^-2 moves
// the offset by microseconds, many standard errors of the fit), so every
// rank starts a window at the same true time and a valid repetition's
// time is the Allreduce's; without the model rank 1 would start 0.5 s
// early or late, and the last end would be 0.5 s after the start (or
// every repetition late). The test asks: a valid repetition and a median
// start lag below 5 ms (a hundredth of the offset), relaunched with 2 and
// 4 times the repetitions until a launch has both (syncedRun), a mean
// time in (0, 5 ms), a clock error in (0, 1 ms).
// Directly: right after the synchronisation rank 1 prints (mutant build
// only, clocksync/mutant.go) how far its model is from the true clock the
// mutant knows, at that time, and how far its rate is from the true
// rate. The error must be within rank 1's bound and the clock error the
// record reports (0.5 s when the offset is left uncorrected), the rate
// off by less than a quarter of the drift (all of it when the drift is
// left out; the fit's standard error is about 2·10^-4 here).
func TestSyncClockMutant(t *testing.T) {
	bin := e2e.MutantBinary(t)
	for _, c := range []struct{ off, drift string }{{"0.5", "1e-2"}, {"-0.5", "-1e-2"}} {
		t.Setenv(e2e.MutantEnv, "clock")
		t.Setenv("MPIBENCH_CLOCK_OFFSET_S", c.off)
		t.Setenv("MPIBENCH_CLOCK_DRIFT", c.drift)
		drift, _ := strconv.ParseFloat(c.drift, 64)
		var r result.Record
		for reps := 50; reps <= 200 && !syncedRun(r); reps *= 2 {
			out := filepath.Join(t.TempDir(), "out.jsonl")
			run := e2e.LaunchBin(t, bin, 2, "mpi1", "Allreduce", "-msglog", "2:2", "-zero_size", "off",
				"-iter", strconv.Itoa(reps), "-sync", "window", "-json", out)
			e2e.MustSucceed(t, run)
			r = oneRecord(t, out)
			clockTruth(t, run.Stderr, r.ClockErr, math.Abs(drift)/4)
			t.Logf("offset %s s, drift %s: %d valid of %d, t_avg %.2f µs, start lag %g s, clock error %g s, window %g s",
				c.off, c.drift, r.ValidReps, r.Reps, r.TAvg, r.StartLag, r.ClockErr, r.WindowS)
		}
		if !syncedRun(r) || r.TAvg <= 0 || r.TAvg >= 5000 || r.ClockErr <= 0 || r.ClockErr >= 1e-3 {
			t.Errorf("offset %s s, drift %s: %d valid, t_avg %.2f µs, start lag %g s, clock error %g s; want a valid "+
				"repetition, t_avg in (0, 5000) µs, lag < 5 ms, clock error in (0, 1 ms)", c.off, c.drift, r.ValidReps,
				r.TAvg, r.StartLag, r.ClockErr)
		}
	}
}

// syncedRun tells a run of TestSyncClockMutant whose ranks started
// together: a valid repetition and a median start lag below 5 ms. A loaded
// node can miss that once (CI: rank 1 descheduled past the first start,
// 2 valid of 50 and a 16 ms lag), so the test launches again, with 2 and 4
// times the repetitions; an uncorrected 0.5 s offset misses it every time.
func syncedRun(r result.Record) bool { return r.ValidReps > 0 && r.StartLag < 5e-3 }

// clockTruth checks the clock mutant's lines on stderr: at least one, and
// in each the model's true error within the rank's bound and the clock
// error, which must be the record's clockErr, and the rate error below
// maxRate.
func clockTruth(t *testing.T, stderr string, clockErr, maxRate float64) {
	t.Helper()
	re := regexp.MustCompile(`clock mutant: rank (\d+) of \d+: model error (\S+) s, bound (\S+) s, clock error (\S+) s, rate error (\S+)`)
	lines := re.FindAllStringSubmatch(stderr, -1)
	if len(lines) == 0 {
		t.Fatalf("no clock mutant line on stderr:\n%s", stderr)
	}
	for _, l := range lines {
		var v [4]float64
		for i := range v {
			v[i], _ = strconv.ParseFloat(l[i+2], 64)
		}
		t.Logf("rank %s: model error %g s, bound %g s, clock error %g s, rate error %g", l[1], v[0], v[1], v[2], v[3])
		if !(v[0] <= v[1] && v[1] <= v[2]) || math.Abs(v[2]-clockErr) > 1e-5*clockErr || !(v[3] < maxRate) {
			t.Errorf("rank %s: model error %g s, bound %g s, clock error %g s (record %g s), rate error %g; want "+
				"error <= bound <= clock error, the record's, rate error < %g", l[1], v[0], v[1], v[2], clockErr, v[3], maxRate)
		}
	}
}
