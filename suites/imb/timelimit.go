package imb

import (
	"math"
	"strconv"
	"strings"

	"mpibench/analysis/result"
)

// The run-time bound (-time SECONDS) of Intel MPI Benchmarks 2021.11
// (IMB 3.2 and later), which IMB 3.0 does not have: a sample (one
// benchmark, mode and length) runs at most about SECONDS, by lowering the
// repetition count n_sample; where IMB 3.0's count takes less time it is
// kept exactly. IMB 2021.11 (IMB_mem_manager.c, IMB_init_buffers_iter,
// iter_policy dynamic, its default) estimates before every sample:
//
//  1. one repetition; t1 = its time per repetition, the maximum over the
//     ranks;
//  2. n2 = min(n_sample, MSGSPERSAMPLE when t1 < 1/MSGSPERSAMPLE, else
//     round(1/t1) when t1 < 1 s, else 1) repetitions, about one second;
//     t = their time per repetition (t1 when n2 = 1);
//  3. t_sample = int(1 + SECONDS/t) (n_sample when t <= 1e-8 s);
//  4. counts never grow with the length: t_sample is lowered to the
//     count of every shorter length measured before in this sweep and
//     raised to that of every longer one (-msglen in any order);
//  5. n_sample = min(n_sample, t_sample), rank 0's value broadcast.
//
// mpibench applies this rule to every benchmark of mpi1, ext and io,
// with the rank-0 decision shared by all ranks (Driver.limitReps); with
// -multi the slowest rank of all groups counts, so every group runs the
// same count and a record has one (IMB decides per group). Two
// deviations keep the estimate cheap, and neither changes a count where
// the bound is 10 s or more and the sample is slow enough for it to bite:
// step 2 is left out where the single repetition shows that n_sample
// repetitions take at most half the bound (n_sample·t1 <= SECONDS/2; IMB's
// rule could then only lower the count if a repetition in a loop were
// more than twice as slow as a lone one), with t_sample = n_sample; and
// step 2 lasts min(1 s, SECONDS/10) rather than 1 s (probeSecs). IMB's default bound is
// SECS_PER_SAMPLE = 10 (IMB_settings.h, IMB_settings_io.h); see
// DefaultTimeLimit for mpibench's.

// DefaultTimeLimit is the bound of a run without -time, in seconds per
// sample, by suite. mpi1 and ext keep IMB 2021.11's SECS_PER_SAMPLE, 10 s.
// io is bounded tighter, so that a full default IMB-IO run at np 2 ends
// within 15 minutes on a small machine (issue 13; its measured run time is
// in docs/imb.md): its cost is the non-blocking samples, over 800 of them,
// each repetition running IMB 3.0's CPU_Exploit of TARGET_CPU_SECS = 0.1 s
// (IMB 2021.11 lowered that to 0.01 s), 5 s and more per sample
// unbounded; 0.5 s keeps about 5 repetitions of them and leaves the
// blocking samples, most of which take well under that, as they are.
var DefaultTimeLimit = map[string]float64{result.SuiteMPI1: 10, result.SuiteEXT: 10, result.SuiteIO: ioDefaultTimeLimit}

const ioDefaultTimeLimit = 0.5

// NoTimeLimit is Config.TimeLimit for -time off: IMB 3.0's counts.
const NoTimeLimit = -1

// parseTimeLimit reads the value of -time: "off" for no bound, else a
// positive finite number of seconds. 0 is refused rather than taken as
// IMB's one repetition per sample, which no user wants by accident.
func parseTimeLimit(val string) (float64, error) {
	if strings.EqualFold(val, "off") {
		return NoTimeLimit, nil
	}
	s, err := strconv.ParseFloat(val, 64)
	switch {
	case err != nil || math.IsNaN(s) || math.IsInf(s, 0):
		return 0, usagef("-time %q: want seconds per sample (a positive number, e.g. -time 0.5) or off", val)
	case s <= 0:
		return 0, usagef("-time %q: the bound must be positive; -time off runs IMB 3.0's repetition counts unbounded", val)
	}
	return s, nil
}

// probeReps is step 2's count: about probeSecs(secs) of repetitions at t1
// seconds each, at most msgs (MSGSPERSAMPLE) and at most sel.
func probeReps(t1, secs float64, sel, msgs int) int {
	tau := probeSecs(secs)
	n := 1
	switch {
	case t1 < tau/float64(msgs):
		n = msgs
	case t1 < tau:
		n = int(tau/t1 + 0.5)
	}
	return max(1, min(sel, n))
}

// probeSecs is the length of step 2: IMB's one second, one tenth of its
// default bound, and a tenth of a smaller bound, so that the estimate
// does not cost more than the sample it bounds.
func probeSecs(secs float64) float64 { return min(1, secs/10) }

// boundReps is step 3: the repetitions that fit in secs at t seconds each,
// sel where t is too small to tell.
func boundReps(t, secs float64, sel int) int {
	v := float32(1 + secs/t)
	if t <= 1e-8 || v > float32(math.MaxInt32) {
		return sel
	}
	return int(v)
}

// lenReps is a length already measured in a sweep and its count.
type lenReps struct{ x, n int }

// monotone is steps 4 and 5: n lowered to the count of every shorter
// length before, raised to that of every longer one, and at most sel.
func monotone(n, x, sel int, prev []lenReps) int {
	for _, p := range prev {
		if p.x < x {
			n = min(n, p.n)
		} else {
			n = max(n, p.n)
		}
	}
	return min(sel, n)
}

// skipProbe tells whether step 2 can be left out: sel repetitions at t1
// take at most half the bound.
func skipProbe(t1, secs float64, sel int) bool {
	return float64(sel)*t1 <= secs/2
}

// countFixed tells whether the rule cannot change n_sample = sel: step 5
// takes min(sel, t_sample), t_sample is at least 1 (1 + SECONDS/t, or
// sel) and step 4 keeps it at least the smallest count before, so a sel
// of 1 (or less) stays sel whatever the probes measure. IMB 2021.11 runs
// its one-repetition probe there all the same (IMB_mem_manager.c,
// IMB_init_buffers_iter: "first, run 1 iteration only", unconditionally);
// mpibench leaves it out, with the same count: at 2 GiB and more, where
// IMB's count is 1 (OVERALL_VOL / X < 1), the probe would double the
// sample's run time.
func countFixed(sel int) bool { return sel <= 1 }

// limitReps chooses the repetition count of benchmark env.b at length x
// in mode m under the -time bound, by the rule above: the probes run on
// the active ranks, rank 0 decides from the slowest rank's times, and
// every rank learns its decision. done holds the counts of the lengths
// already measured in this mode; x's count is added to it.
func (d *Driver) limitReps(c runner, env *caseEnv, x int, m Mode, done *[]lenReps) (int, error) {
	sel, secs := d.cfg.F.reps2021(d.set, env.b, x, m, env.q), d.cfg.TimeLimit
	env.asked = sel
	if !d.cfg.F.timed(env.b) && !d.cfg.F.windowed(env.b) {
		// Where no -time rule sets the count (-iter_policy off,
		// multiple_np, auto for the rooted benchmarks), IMB 2021.11 runs
		// the sample once, untimed, before its warm-up and the timed run
		// (helper_IMB_functions.h, IMB_init_buffers_iter: the branch
		// without dynamic adaptation calls Bmark->Benchmark).
		_, err := d.probe(c, env, x, m, sel)
		return sel, err
	}
	if secs <= 0 || d.cfg.F.windowed(env.b) {
		return sel, nil
	}
	if countFixed(sel) {
		*done = append(*done, lenReps{x, sel})
		return sel, nil
	}
	t1, err := d.probe(c, env, x, m, 1)
	if err != nil {
		return 0, err
	}
	n2 := 0 // 0: step 2 left out
	if d.rank == 0 && !skipProbe(t1, secs, sel) {
		n2 = probeReps(t1, secs, sel, d.set.MsgsPerSample)
	}
	if n2, err = d.world.BcastInt(n2); err != nil {
		return 0, err
	}
	t, tSample := t1, sel
	if n2 > 1 {
		if t, err = d.probe(c, env, x, m, n2); err != nil {
			return 0, err
		}
	}
	if n2 > 0 {
		tSample = boundReps(t, secs, sel)
	}
	n, err := d.world.BcastInt(monotone(tSample, x, sel, *done))
	if err != nil {
		return 0, err
	}
	*done = append(*done, lenReps{x, n})
	return n, nil
}

// probe runs one sample of n repetitions, untimed for the results and
// without the warm-up of every sample (IMB runs its probes and its untimed
// run before IMB_warm_up, original_benchmark.h), and
// returns on rank 0 the largest time per repetition over the ranks (a
// non-blocking IMB-IO sample runs its blocking loop and its overlapped
// loop, and both count); other ranks get 0.
func (d *Driver) probe(c runner, env *caseEnv, x int, m Mode, n int) (float64, error) {
	env.nRep, env.probing = n, true
	s, err := c.measure(x, m)
	env.probing = false
	if err != nil {
		return 0, err
	}
	t := s.T
	if pt, ok := c.(probeTimer); ok {
		t = pt.probeTime(s)
	} else if t >= 0 {
		t += max(s.TPure, 0)
	}
	all, err := d.world.GatherFloat64s([]float64{t})
	if err != nil || d.rank != 0 {
		return 0, err
	}
	_, hi, _ := MinMaxAvg(all)
	return hi, nil
}

// replayedReps adds the count of a length that -resume skipped, as the
// resumed run recorded it in recs, so that the counts after it are held
// to it as in an uninterrupted run. Only rank 0's list matters: it
// decides (the other ranks have no records).
func (d *Driver) replayedReps(recs []*result.Record, x int, done []lenReps) []lenReps {
	if len(recs) > 0 {
		done = append(done, lenReps{x, recs[0].Reps})
	}
	return done
}
