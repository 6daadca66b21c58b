package method

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"mpibench/analysis/stats"
)

// Defaults of Adaptive. Epsilon is the paper's 3 % (SKaMPI's report prints
// "Max. allowed standard error is 3.00 %"); MinReps is SKaMPI 5's
// (measurement.c: min_repetitions = 8). MaxReps and TimeLimit are the
// paper's "upper bound on the number of repetitions" (3.1), which it
// leaves open, with a bound on the time beside it. SKaMPI 5's 33 is too
// few for a shared machine: a point whose middle half is spread over two
// modes (a ping-pong at 64 KiB taking 16 µs or, when a rank waits for a
// core, 54 µs) has a relative error of about 0.7/√(n/2) and needs some
// 1000 repetitions to reach 3 %, which at 25 µs each is 25 ms. The time
// bound keeps the slow points affordable: 1000 repetitions of a 4 MiB
// ping-pong would be a second, 0.5 s of samples stops it first.
const (
	DefaultEpsilon   = 0.03
	DefaultMinReps   = 8
	DefaultMaxReps   = 1000
	DefaultTimeLimit = 0.5 // seconds of timed samples per point
)

// Sample takes one measurement of one call of the pattern under test and
// returns its time in seconds. Under MPI every rank of the pattern calls
// it once per repetition; ranks that do not time anything return what
// they have (0 is fine): only the timing rank's values drive the stop
// decision, through Decide.
type Sample func() (float64, error)

// Decide turns this rank's vote on stopping into the decision every rank
// follows. Adaptive.Run calls it exactly once after every repetition, on
// every rank, with stop = true when this rank's samples meet the stopping
// rule, and obeys the answer: true ends the repetitions, false takes
// another (up to MaxReps, see Run).
//
// Under MPI, all ranks must take the same number of repetitions or the
// pattern's collective calls stop matching. The MPI side therefore
// implements Decide as a broadcast of the timing rank's vote over the
// pattern's communicator: the timing rank sends its stop, the others
// ignore theirs and return what they receive. Because every rank calls
// Decide once per repetition, the broadcasts always pair up. In a single
// process, Local (the identity) is the Decide to use.
type Decide func(stop bool) (bool, error)

// Local is the Decide of a single process: its own vote is the decision.
func Local(stop bool) (bool, error) { return stop, nil }

// Adaptive is SKaMPI's repetition policy for one parameter setting
// (section 3.1). The zero value is usable: zero fields take the defaults.
//
// The stopping rule is applied to the figure that is reported, the
// trimmed mean (stats.TrimmedMean, the middle half of the samples): the
// relative error is stats.TrimmedRelErr, σ_x̄/x̄ as section 3.1 defines it
// (σ divided by n) computed over the samples the trimmed mean averages.
// The paper stops on the plain mean; but one scheduler delay of a
// millisecond among 2 µs ping-pongs makes σ of all samples so large that
// ε = 3 % is out of reach within any reasonable count, while the trimmed
// mean, which ignores that sample, is already precise. SKaMPI 5 also
// reports the standard error of the trimmed samples (measurement.c,
// extract_final_results).
type Adaptive struct {
	// Epsilon is the largest relative standard error accepted
	// (0 means DefaultEpsilon). It also sets the clock rule below.
	Epsilon float64 `json:"epsilon"`
	// MinReps is the least number of repetitions before the error rule
	// may stop (0 means DefaultMinReps). The error rule never stops
	// before 2 repetitions whatever MinReps says, because one sample has
	// σ = 0 and so a relative error of 0 that means nothing.
	MinReps int `json:"min_reps"`
	// MaxReps is the most repetitions; reaching it stops regardless
	// (0 means the larger of DefaultMaxReps and MinReps).
	MaxReps int `json:"max_reps"`
	// TimeLimit bounds the work by time: once the samples add up to at
	// least TimeLimit seconds the repetitions stop, whatever MinReps and
	// the error say (0 means DefaultTimeLimit; negative means no limit).
	// It counts the timed time only, the sum of the raw samples, so that
	// the decision can be recomputed from a record's samples; the untimed
	// work around each sample (the stop vote's broadcast) is not in it.
	TimeLimit float64 `json:"time_limit_s"`
	// Tick is the clock resolution in seconds (MPI_Wtick on the timing
	// rank). The samples must add up to at least Tick/Epsilon before the
	// error rule may stop, so that a quantisation error of one tick is at
	// most ε of the total. 0 disables the rule.
	Tick float64 `json:"tick_s"`
}

// Why the repetitions of a Result ended.
const (
	StopEpsilon = "epsilon"    // the precision rules held after MinReps
	StopMaxReps = "max_reps"   // the count bound
	StopTime    = "time_limit" // the time bound
	StopDecide  = "decide"     // Decide said stop against this rank's vote
)

// Result is what Adaptive.Run measured for one parameter setting.
//
// The embedded Summary is of the raw samples with the systematic
// correction subtracted from every location figure: Mean, Trimmed, Min,
// Median and Max all have Correction subtracted, so that Min ≤ Median ≤
// Max and Min ≤ Trimmed ≤ Max hold after correction as before. N, StdErr
// and TrimmedStdErr are those of the raw samples (a constant offset does
// not change the spread). The corrected figures may be negative when the
// empty measurement costs more than the operation; they are reported as
// they are rather than clipped, so that the problem shows.
type Result struct {
	stats.Summary
	// Samples are the raw, uncorrected times in the order taken, one per
	// repetition; the warm-up call is not among them.
	Samples []float64 `json:"samples,omitempty"`
	// RelErr is stats.TrimmedRelErr of the raw samples, the figure
	// compared with Epsilon (+Inf when the trimmed mean is not positive).
	// It is relative to the trimmed mean as measured, before the
	// correction, as section 3.1's x̄ is the average of the measured
	// times; TrimmedStdErr holds for the corrected figure unchanged.
	RelErr float64 `json:"-"`
	// Reached says whether the precision rules held when the repetitions
	// ended: at least MinReps and 2 samples, RelErr < Epsilon and total
	// time ≥ Tick/Epsilon. Only the timing rank's Reached is meaningful.
	Reached bool `json:"reached"`
	// Stop is why the repetitions ended: StopEpsilon, StopMaxReps,
	// StopTime or StopDecide.
	Stop string `json:"stop"`
	// Correction is the time of the empty measurement that was
	// subtracted (seconds).
	Correction float64 `json:"correction"`
	// Policy is the policy that took the samples, defaults filled in.
	Policy Adaptive `json:"policy"`
}

// Run measures one parameter setting. It calls sample once as a warm-up
// (to load caches and set up connections) and discards its time, then
// repeats: take a sample; vote to stop if n ≥ MaxReps, if the samples add
// up to TimeLimit, or if n ≥ MinReps and the precision rules hold
// (RelErr < Epsilon, at least 2 samples, total ≥ Tick/Epsilon); pass the
// vote to decide; stop when decide says so or n = MaxReps. MaxReps is a
// hard bound even against decide, so a faulty Decide cannot loop for
// ever; as every rank runs the same policy, every rank still stops at the
// same n.
//
// empty is the time of an empty measurement of the same pattern (the
// overhead of timing itself: SKaMPI's systematic error), subtracted from
// the figures as Result describes. Measure it with Run on a sample that
// times nothing, and pass its Trimmed; pass 0 for no correction.
//
// An error from sample or decide ends Run at once, without consulting
// decide again, and is returned with the samples taken so far. Under MPI
// a failure inside a pattern leaves the peers in an unknown state, so
// the caller must turn such an error into the collective error path, not
// into a polite stop.
func (a Adaptive) Run(sample Sample, empty float64, decide Decide) (Result, error) {
	a, err := a.normalized()
	if err != nil {
		return Result{}, err
	}
	if _, err := sample(); err != nil {
		return Result{}, fmt.Errorf("measure: warm-up: %w", err)
	}
	samples := make([]float64, 0, min(a.MaxReps, 1024))
	var sorted []float64 // the samples in increasing order, for the rule
	total := 0.0
	for {
		t, err := sample()
		if err != nil {
			return a.result(samples, empty, ""), fmt.Errorf("measure: repetition %d: %w", len(samples)+1, err)
		}
		samples = append(samples, t)
		i, _ := slices.BinarySearch(sorted, t)
		sorted = slices.Insert(sorted, i, t)
		total += t
		why := a.stopRule(sorted, total)
		stop, err := decide(why != "")
		if err != nil {
			return a.result(samples, empty, ""), fmt.Errorf("measure: decide after repetition %d: %w", len(samples), err)
		}
		if stop || len(samples) >= a.MaxReps {
			if why == "" {
				why = StopDecide
			}
			return a.result(samples, empty, why), nil
		}
	}
}

// stopRule is this rank's vote after the samples so far (sorted, adding
// up to total): why it would stop, "" to go on. The rules are checked in
// the order of Stop's constants, so a point that meets ε at the last
// allowed repetition counts as reached.
func (a Adaptive) stopRule(samples []float64, total float64) string {
	switch {
	case a.reached(samples, total):
		return StopEpsilon
	case len(samples) >= a.MaxReps:
		return StopMaxReps
	case a.TimeLimit > 0 && total >= a.TimeLimit:
		return StopTime
	}
	return ""
}

// reached reports whether the samples (sorted, adding up to total) meet
// the precision rules of 3.1: at least MinReps and 2 of them, the clock
// rule and the error rule.
func (a Adaptive) reached(samples []float64, total float64) bool {
	if len(samples) < max(a.MinReps, 2) || total < a.Tick/a.Epsilon {
		return false
	}
	return stats.TrimmedRelErrSorted(samples) < a.Epsilon
}

func (a Adaptive) result(samples []float64, empty float64, why string) Result {
	total := 0.0
	for _, t := range samples {
		total += t
	}
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	return Result{
		Summary:    stats.Summarize(samples).Shift(-empty),
		Samples:    samples,
		RelErr:     stats.TrimmedRelErrSorted(sorted),
		Reached:    a.reached(sorted, total),
		Stop:       why,
		Correction: empty,
		Policy:     a,
	}
}

// normalized fills in the defaults and checks the fields.
func (a Adaptive) normalized() (Adaptive, error) {
	if a.Epsilon == 0 {
		a.Epsilon = DefaultEpsilon
	}
	if a.MinReps == 0 {
		a.MinReps = DefaultMinReps
	}
	if a.MaxReps == 0 {
		a.MaxReps = max(DefaultMaxReps, a.MinReps)
	}
	if a.TimeLimit == 0 {
		a.TimeLimit = DefaultTimeLimit
	}
	switch {
	case !(a.Epsilon > 0) || math.IsInf(a.Epsilon, 1):
		return a, fmt.Errorf("measure: epsilon %v: want a positive number", a.Epsilon)
	case a.MinReps < 0:
		return a, fmt.Errorf("measure: min repetitions %d: want at least 1", a.MinReps)
	case a.MaxReps < a.MinReps:
		return a, fmt.Errorf("measure: max repetitions %d below min repetitions %d", a.MaxReps, a.MinReps)
	case math.IsNaN(a.TimeLimit) || math.IsInf(a.TimeLimit, 0):
		return a, errors.New("measure: time limit must be a finite number of seconds")
	case !(a.Tick >= 0) || math.IsInf(a.Tick, 1):
		return a, errors.New("measure: tick must be a finite number ≥ 0")
	}
	return a, nil
}
