package stats

import "math"

// Summary is the set of figures recorded for every measured sample set.
// All figures are in the unit of the samples.
type Summary struct {
	N       int     `json:"n"`       // number of samples
	Mean    float64 `json:"mean"`    // arithmetic mean
	Trimmed float64 `json:"trimmed"` // TrimmedMean: middle 50 %
	StdErr  float64 `json:"stderr"`  // σ/√n, σ divided by n
	// TrimmedStdErr is the standard error of Trimmed (TrimmedStdErr).
	TrimmedStdErr float64 `json:"trimmed_stderr"`
	Min           float64 `json:"min"`
	Median        float64 `json:"median"`
	Max           float64 `json:"max"`
}

// Summarize computes every figure of the Summary in one sort. For no
// samples it returns the zero Summary: N = 0 marks it empty, and zeros,
// unlike NaN, survive encoding/json.
func Summarize(x []float64) Summary {
	if len(x) == 0 {
		return Summary{}
	}
	s := sorted(x)
	tm, te := trimmed(s)
	return Summary{
		N:             len(s),
		Mean:          Mean(s),
		Trimmed:       tm,
		StdErr:        StdErr(s),
		TrimmedStdErr: te,
		Min:           s[0],
		Median:        quantileSorted(s, 0.5),
		Max:           s[len(s)-1],
	}
}

// RelErr is StdErr/Mean as the function RelErr computes it: +Inf when
// the mean is not positive. After Shift the mean is no longer that of the
// samples, so take RelErr before correcting.
func (s Summary) RelErr() float64 {
	if s.N == 0 || !(s.Mean > 0) {
		return math.Inf(1)
	}
	return s.StdErr / s.Mean
}

// Shift adds d to every location figure (Mean, Trimmed, Min, Median, Max)
// and leaves N, StdErr and TrimmedStdErr alone, since a constant offset
// moves every sample by the same amount and leaves the spread as it was.
// Subtracting a systematic overhead is Shift(−overhead).
func (s Summary) Shift(d float64) Summary {
	if s.N == 0 {
		return s
	}
	s.Mean += d
	s.Trimmed += d
	s.Min += d
	s.Median += d
	s.Max += d
	return s
}
