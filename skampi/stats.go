package skampi

import (
	"mpibench/measure"
	"mpibench/stats"
)

// micro is the corrected summary of r in µs.
func micro(r measure.Result) stats.Summary {
	s := r.Summary
	const us = 1e6
	s.Mean *= us
	s.Trimmed *= us
	s.StdErr *= us
	s.Min *= us
	s.Median *= us
	s.Max *= us
	return s
}
