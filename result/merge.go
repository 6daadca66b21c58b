package result

import (
	"fmt"
	"math"

	"mpibench/stats"
)

// Identity is the key under which Merge matches the records of several
// runs: everything that says what was measured and nothing that says what
// came out. It joins the suite, benchmark, class, mode (IMB aggregate
// mode, b_eff method, b_eff_io access, SKaMPI operation), the process
// count and layout (np, multi, group, groups, map), the message length,
// the b_eff_io memory chunk, the SKaMPI varied parameter and its value,
// the b_eff repetition and the check flag. Two records of one run with
// the same Identity are two samples of the same measurement.
func Identity(r *Record) string {
	return fmt.Sprintf("%s|%s|%s|%s|np=%d|multi=%d|group=%d|groups=%v|map=%v|bytes=%d|mem=%d|%s=%d|rep=%d|check=%t",
		r.Suite, r.Benchmark, r.Class, r.Mode, r.NProcs, r.Multi, r.Group, r.Groups, r.Map,
		r.Bytes, r.MemBytes, r.Param, r.X, r.Rep, r.Check)
}

// MergeResult is what Merge returns besides the records.
type MergeResult struct {
	Records []Record
	Runs    int // runs merged
	Partial int // identities missing from at least one run
}

// Merge matches the records of several runs by Identity and returns one
// record per identity, in order of first appearance, holding the median
// of every measured figure (SKaMPI section 3.3: the median filters the
// outliers that competing jobs or interrupts leave in single runs). The
// rest, Context included, is the first record's; Merged counts the
// records that went into it. An identity missing from some runs keeps the
// median of the runs that have it and is counted in Partial.
func Merge(runs [][]Record) MergeResult {
	var order []string
	groups := map[string][]*Record{}
	seen := map[string]map[int]bool{}
	for i, run := range runs {
		for j := range run {
			id := Identity(&run[j])
			if groups[id] == nil {
				order = append(order, id)
				seen[id] = map[int]bool{}
			}
			groups[id] = append(groups[id], &run[j])
			seen[id][i] = true
		}
	}
	res := MergeResult{Runs: len(runs)}
	for _, id := range order {
		res.Records = append(res.Records, mergeRecords(groups[id]))
		if len(seen[id]) < len(runs) {
			res.Partial++
		}
	}
	return res
}

// mergeFloats are the measured float figures of a Record, each taken as
// the median over the merged records.
var mergeFloats = []func(*Record) *float64{
	func(r *Record) *float64 { return &r.TMin },
	func(r *Record) *float64 { return &r.TMax },
	func(r *Record) *float64 { return &r.TAvg },
	func(r *Record) *float64 { return &r.MBps },
	func(r *Record) *float64 { return &r.Defects },
	func(r *Record) *float64 { return &r.TOvrl },
	func(r *Record) *float64 { return &r.TPure },
	func(r *Record) *float64 { return &r.TCPU },
	func(r *Record) *float64 { return &r.Overlap },
	func(r *Record) *float64 { return &r.CPUMflops },
	func(r *Record) *float64 { return &r.BMBps },
	func(r *Record) *float64 { return &r.IOMBps },
	func(r *Record) *float64 { return &r.Correction },
}

func mergeRecords(recs []*Record) Record {
	out := *recs[0]
	out.Merged = len(recs)
	for _, f := range mergeFloats {
		*f(&out) = mergeMedian(recs, func(r *Record) float64 { return *f(r) })
	}
	// Adaptive repetition counts (SKaMPI, b_eff) differ between runs.
	out.Reps = int(math.Round(mergeMedian(recs, func(r *Record) float64 { return float64(r.Reps) })))
	out.Stats = mergeStats(recs)
	out.Reached = mergeReached(recs)
	// The raw samples, the relative error they give and why they
	// stopped belong to one run; the median record has none of its own.
	out.Samples, out.RelErr, out.Stop = nil, nil, ""
	out.Beff = mergeBeff(recs)
	out.BeffIO = mergeBeffIO(recs)
	return out
}

// mergeMedian is the median of get over recs.
func mergeMedian(recs []*Record, get func(*Record) float64) float64 {
	x := make([]float64, len(recs))
	for i, r := range recs {
		x[i] = get(r)
	}
	return stats.Median(x)
}

// mergeStats takes the median of each Summary figure over the records
// that have one: a figure of one run is not combined with another figure
// of the same run, so the result need not be the Summary of any sample
// set, which is what a median of runs means.
func mergeStats(recs []*Record) *stats.Summary {
	var with []*Record
	for _, r := range recs {
		if r.Stats != nil {
			with = append(with, r)
		}
	}
	if len(with) == 0 {
		return nil
	}
	med := func(get func(s *stats.Summary) float64) float64 {
		return mergeMedian(with, func(r *Record) float64 { return get(r.Stats) })
	}
	return &stats.Summary{
		N:             int(math.Round(med(func(s *stats.Summary) float64 { return float64(s.N) }))),
		Mean:          med(func(s *stats.Summary) float64 { return s.Mean }),
		Trimmed:       med(func(s *stats.Summary) float64 { return s.Trimmed }),
		StdErr:        med(func(s *stats.Summary) float64 { return s.StdErr }),
		TrimmedStdErr: med(func(s *stats.Summary) float64 { return s.TrimmedStdErr }),
		Min:           med(func(s *stats.Summary) float64 { return s.Min }),
		Median:        med(func(s *stats.Summary) float64 { return s.Median }),
		Max:           med(func(s *stats.Summary) float64 { return s.Max }),
	}
}

// mergeReached is true only when every run reached its precision: a
// median cannot be more precise than the least precise run we vouch for.
func mergeReached(recs []*Record) bool {
	for _, r := range recs {
		if !r.Reached {
			return false
		}
	}
	return true
}

// mergeBeff takes the median of the headline figures of b_eff summaries;
// the per-pattern table stays the first run's.
func mergeBeff(recs []*Record) *BeffSummary {
	if recs[0].Beff == nil {
		return nil
	}
	s := *recs[0].Beff
	for _, f := range []func(*BeffSummary) *float64{
		func(b *BeffSummary) *float64 { return &b.Beff },
		func(b *BeffSummary) *float64 { return &b.PerProc },
		func(b *BeffSummary) *float64 { return &b.PrimaryAvg },
		func(b *BeffSummary) *float64 { return &b.RandomAvg },
		func(b *BeffSummary) *float64 { return &b.PingPong },
		func(b *BeffSummary) *float64 { return &b.BeffLmax },
		func(b *BeffSummary) *float64 { return &b.PerProcLmax },
		func(b *BeffSummary) *float64 { return &b.PerProcPrim },
	} {
		*f(&s) = mergeMedian(recs, func(r *Record) float64 {
			if r.Beff == nil {
				return *f(&s)
			}
			return *f(r.Beff)
		})
	}
	return &s
}

// mergeBeffIO takes the median of b_eff_io; the partition table stays
// the first run's.
func mergeBeffIO(recs []*Record) *BeffIOSummary {
	if recs[0].BeffIO == nil {
		return nil
	}
	s := *recs[0].BeffIO
	s.BeffIO = mergeMedian(recs, func(r *Record) float64 {
		if r.BeffIO == nil {
			return s.BeffIO
		}
		return r.BeffIO.BeffIO
	})
	return &s
}
