package skampi

import (
	"mpibench/analysis/stats"
	"mpibench/suites/skampi/method"
)

// us is a second in µs, the unit of the records.
const us = 1e6

// micro is the corrected summary of r in µs.
func micro(r method.Result) stats.Summary {
	s := r.Summary
	s.Mean *= us
	s.Trimmed *= us
	s.StdErr *= us
	s.TrimmedStdErr *= us
	s.Min *= us
	s.Median *= us
	s.Max *= us
	return s
}

// microAll is the samples in µs; nil stays nil.
func microAll(x []float64) []float64 {
	if x == nil {
		return nil
	}
	out := make([]float64, len(x))
	for i, t := range x {
		out[i] = t * us
	}
	return out
}
