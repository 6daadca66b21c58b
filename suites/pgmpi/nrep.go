package pgmpi

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"mpibench/analysis/stats"
)

// The metrics of the repetition predictor (section IV-B of the paper).
const (
	RSE       = "rse"        // relative standard error of the mean of all samples
	CovMean   = "cov_mean"   // coefficient of variation of the last w means
	CovMedian = "cov_median" // coefficient of variation of the last w medians
)

// Methods are the metrics, in the order they are reported.
var Methods = []string{RSE, CovMean, CovMedian}

// Criteria say when a prediction stops: when every metric of Methods is
// below its threshold, or at Max repetitions. The first check is after Min
// repetitions, every later one after Step more.
type Criteria struct {
	Methods    []string           `json:"methods"`
	Thresholds map[string]float64 `json:"thresholds"`
	Windows    map[string]int     `json:"windows"` // w of cov_mean and cov_median
	Min        int                `json:"min"`
	Max        int                `json:"max"`
	Step       int                `json:"step"`
}

// DefaultCriteria are those of the paper's example and figure 2: t_RSE =
// 0.025, t_COVmean = 0.01 with w = 20, min=20,max=1000,step=10. The paper
// gives no value for COV_median; it gets those of COV_mean.
func DefaultCriteria() Criteria {
	return Criteria{
		Methods:    []string{RSE},
		Thresholds: map[string]float64{RSE: 0.025, CovMean: 0.01, CovMedian: 0.01},
		Windows:    map[string]int{CovMean: 20, CovMedian: 20},
		Min:        20, Max: 1000, Step: 10,
	}
}

// Bounds of the numbers of a run. Each sizes an allocation or a loop, so
// a value beyond is refused before anything is allocated.
const (
	// MaxReps bounds the repetitions of one call and size (-reps, the
	// reps of an NREP file, nrep's -min, -max and -step, the windows):
	// every repetition keeps its time on every rank, in C and in Go.
	MaxReps = 10_000_000
	// MaxBytes bounds the volume n (-sizes, the bytes of an NREP file):
	// the vectors are n/4 MPI_INTs, counted in a C int, and a process
	// holds four of them.
	MaxBytes = 1 << 30
)

// Check reports the first inconsistency of the criteria.
func (c Criteria) Check() error {
	if len(c.Methods) == 0 {
		return fmt.Errorf("no method")
	}
	for _, m := range c.Methods {
		if !slices.Contains(Methods, m) {
			return fmt.Errorf("unknown method %q (want %s)", m, strings.Join(Methods, ", "))
		}
		// An infinite threshold would stop every measurement at min,
		// whatever its spread: no criterion at all.
		if t := c.Thresholds[m]; !(t > 0) || math.IsInf(t, 1) {
			return fmt.Errorf("threshold of %s: %v: want a finite positive number", m, t)
		}
		if w := c.Windows[m]; m != RSE && (w < 2 || w > MaxReps) {
			return fmt.Errorf("window of %s: %d: want 2 to %d", m, w, MaxReps)
		}
	}
	if c.Min < 2 || c.Max < c.Min || c.Step < 1 {
		return fmt.Errorf("want 2 <= min <= max and step >= 1 (got min=%d,max=%d,step=%d)", c.Min, c.Max, c.Step)
	}
	if c.Max > MaxReps || c.Step > MaxReps {
		return fmt.Errorf("want max and step of at most %d repetitions (got max=%d,step=%d)", MaxReps, c.Max, c.Step)
	}
	return nil
}

// Next is the number of repetitions to take after taken ones: Min first,
// then Step, never past Max; 0 when Max is reached.
func (c Criteria) Next(taken int) int {
	if taken == 0 {
		return c.Min
	}
	return max(0, min(c.Step, c.Max-taken))
}

// Predictor follows one prediction: the samples so far and, after each
// check, the mean and the median of all of them.
type Predictor struct {
	Crit    Criteria
	samples []float64
	means   []float64
	medians []float64
}

// Add appends a batch of samples, checks and says whether the prediction
// is over: every metric passed (Passed) or Max repetitions were taken.
func (p *Predictor) Add(batch []float64) bool {
	p.samples = append(p.samples, batch...)
	p.means = append(p.means, stats.Mean(p.samples))
	p.medians = append(p.medians, stats.Median(p.samples))
	return p.Passed() || len(p.samples) >= p.Crit.Max
}

// Reps is the number of samples taken.
func (p *Predictor) Reps() int { return len(p.samples) }

// Passed is true when every selected metric is below its threshold.
func (p *Predictor) Passed() bool {
	for _, m := range p.Crit.Methods {
		if !(p.Value(m) < p.Crit.Thresholds[m]) {
			return false
		}
	}
	return true
}

// Value is the current value of a metric; +Inf while it is undefined
// (fewer than w checks for a window metric).
func (p *Predictor) Value(m string) float64 {
	switch m {
	case RSE:
		return stats.RelErr(p.samples)
	case CovMean:
		return WindowCOV(p.means, p.Crit.Windows[m])
	case CovMedian:
		return WindowCOV(p.medians, p.Crit.Windows[m])
	}
	return math.Inf(1)
}

// WindowCOV is the coefficient of variation σ/x̄ of the last w values (σ
// divided by w, as stats.StdDev); +Inf with fewer than w values or a mean
// that is not positive.
func WindowCOV(v []float64, w int) float64 {
	if w < 1 || len(v) < w {
		return math.Inf(1)
	}
	last := v[len(v)-w:]
	m := stats.Mean(last)
	if !(m > 0) {
		return math.Inf(1)
	}
	return stats.StdDev(last) / m
}

// Predictions is how many predictions are made for each size; the
// largest is kept, "to cope with the run-time variation between
// different mpiruns".
const Predictions = 3

// NrepFile is the output of Step NREP and an input of Step MEASURE.
type NrepFile struct {
	Procs    int         `json:"procs"`
	Criteria Criteria    `json:"criteria"`
	Entries  []NrepEntry `json:"entries"`
}

// NrepEntry is the prediction for one call at one volume.
type NrepEntry struct {
	Call        string `json:"call"`
	Bytes       int    `json:"bytes"`       // the volume n
	Reps        int    `json:"reps"`        // the largest prediction
	Predictions []int  `json:"predictions"` // each prediction's repetitions
	Reached     []bool `json:"reached"`     // each prediction met its criteria before max
}

// Keep fills Reps with the largest prediction.
func (e *NrepEntry) Keep() { e.Reps = slices.Max(e.Predictions) }

// Write writes the file as indented JSON.
func (f *NrepFile) Write(w io.Writer) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadNrep reads an NREP file and checks its entries.
func ReadNrep(r io.Reader) (*NrepFile, error) {
	var f NrepFile
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return nil, err
	}
	for _, e := range f.Entries {
		if Find(e.Call) == nil {
			return nil, fmt.Errorf("unknown call %q", e.Call)
		}
		if e.Reps < 1 || e.Reps > MaxReps || e.Bytes < 0 || e.Bytes > MaxBytes {
			return nil, fmt.Errorf("%s at %d bytes: %d repetitions (want 1 to %d repetitions of 0 to %d bytes)",
				e.Call, e.Bytes, e.Reps, MaxReps, MaxBytes)
		}
	}
	return &f, nil
}

// ParseKeyValues reads "k=v,k=v" with keys among Methods.
func ParseKeyValues(s string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil || !slices.Contains(Methods, k) {
			return nil, fmt.Errorf("bad %q: want METHOD=NUMBER with METHOD one of %s", kv, strings.Join(Methods, ", "))
		}
		out[k] = x
	}
	return out, nil
}
