package skampi

import (
	"fmt"
	"io"

	"mpibench/result"
)

// Text writes one table per measurement, from its records in order: the
// parameter's value, repetitions, trimmed mean and its standard error, min,
// median and max (µs, after the empty-measurement correction) and
// whether ε was reached.
func Text(w io.Writer, recs []result.Record) error {
	for i := 0; i < len(recs); {
		j := i
		for j < len(recs) && recs[j].Benchmark == recs[i].Benchmark {
			j++
		}
		if err := table(w, recs[i:j]); err != nil {
			return err
		}
		i = j
	}
	return nil
}

func table(w io.Writer, recs []result.Record) error {
	r := recs[0]
	fmt.Fprintf(w, "#----------------------------------------------------------------\n")
	fmt.Fprintf(w, "# %s: %s, %s, over %s, epsilon %g", r.Benchmark, r.Class, r.Mode, r.Param, r.Epsilon)
	if r.Class == PingPong && len(r.Groups) > 0 {
		fmt.Fprintf(w, ", pair %v", r.Groups[0])
	}
	if r.Param != OverProcs {
		fmt.Fprintf(w, ", %d processes", r.NProcs)
	}
	fmt.Fprintf(w, "\n#----------------------------------------------------------------\n")
	x := r.Param
	if x == OverNone {
		x = "-"
	}
	fmt.Fprintf(w, "%10s %6s %12s %10s %12s %12s %12s %8s\n", x, "n", "trimmed[us]", "stderr", "min[us]", "median[us]", "max[us]", "reached")
	for _, r := range recs {
		s := r.Stats
		if s == nil {
			continue
		}
		fmt.Fprintf(w, "%10d %6d %12.3f %10.3f %12.3f %12.3f %12.3f %8v\n", r.X, s.N, s.Trimmed, s.TrimmedStdErr, s.Min, s.Median, s.Max, r.Reached)
	}
	_, err := fmt.Fprintln(w)
	return err
}
