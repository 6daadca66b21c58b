package guideline

import (
	"math"

	"mpibench/analysis/result"
)

// Records turns every violation into a Record (suite pgmpi, class
// violation), the form the rest of mpibench reads.
func (res *Result) Records() []result.Record {
	var out []result.Record
	for _, g := range res.Groups {
		for _, r := range g.Rows {
			for _, f := range r.Findings {
				rec := result.Record{
					Suite: result.SuitePGMPI, Benchmark: r.Function, Class: "violation",
					Multi: -1, Group: -1, NProcs: g.Procs, Bytes: f.Size,
					TMax: f.Slow, TMin: f.Fast,
					Violation: result.Violation{
						Guideline: r.Guideline.ID, Kind: r.Guideline.Kind.String(),
						FromBytes: f.From, Factor: f.Factor,
						Test: res.Options.Test, PValue: f.P, Alpha: res.Options.Alpha,
					},
				}
				if r.Guideline.Kind == Split {
					rec.Tolerance = res.Options.Tolerance
				}
				if math.IsNaN(f.P) { // GL2 by the median rule: no test
					rec.Test, rec.PValue, rec.Alpha = SplitMedian, 0, 0
				}
				if r.Guideline.Kind == Pattern {
					rec.Against = r.Guideline.Right
				}
				out = append(out, rec)
			}
		}
	}
	return out
}
