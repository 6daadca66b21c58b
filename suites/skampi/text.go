package skampi

import (
	"io"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
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

func table(out io.Writer, recs []result.Record) error {
	w := textout.New(out)
	r := recs[0]
	w.Printf("#----------------------------------------------------------------\n")
	w.Printf("# %s: %s, %s, over %s, epsilon %g", r.Benchmark, r.Class, r.Mode, r.Param, r.Epsilon)
	if r.Class == PingPong && len(r.Groups) > 0 {
		w.Printf(", pair %v", r.Groups[0])
	}
	if r.Param != OverProcs {
		w.Printf(", %d processes", r.NProcs)
	}
	w.Printf("\n#----------------------------------------------------------------\n")
	x := r.Param
	if x == OverNone {
		x = "-"
	}
	w.Printf("%10s %6s %12s %10s %12s %12s %12s %8s\n", x, "n", "trimmed[us]", "stderr", "min[us]", "median[us]", "max[us]", "reached")
	for _, r := range recs {
		s := r.Stats
		if s == nil {
			continue
		}
		w.Printf("%10d %6d %12.3f %10.3f %12.3f %12.3f %12.3f %8v\n", r.X, s.N, s.Trimmed, s.TrimmedStdErr, s.Min, s.Median, s.Max, r.Reached)
	}
	w.Println()
	return w.Err()
}
