package compare

import (
	"mpibench/analysis/result"
	"mpibench/analysis/stats"
)

// point is one record's figure and, where it carries them, its
// per-repetition samples, in µs.
type point struct {
	value   float64
	samples []float64
}

// The figures compared, one per suite, always a time in µs (lower is
// better), so that a positive change is a slowdown:
//   - records with per-repetition samples (SKaMPI, PGMPI): the median of
//     the samples less the SKaMPI empty-measurement correction (the
//     samples are kept raw; the correction is what the record's Stats
//     subtracted), metric "median_us"
//   - records with Stats only (-samples=false): Stats.Median
//   - p2p (IMB-P2P): t_avg, the t[usec] IMB-P2P prints; links: t_avg,
//     the mean time per message its bandwidth comes from
//   - osu: the latency OSU prints, t_avg (Latency, Avg Latency), and the
//     non-blocking collectives' Overall(us); the bandwidth tests carry no
//     time and are left out (their MB/s is no time per operation)
//   - b_eff: t_max / looplength, the time of one execution of the pattern
//     (b is computed from it)
//   - the rest (IMB, b_eff_io): t_max, the slowest process's time, the
//     one IMB's throughput is computed from and its tables lead with.
//
// Check-mode records (not benchmark data), summaries (b_eff, b_eff_io)
// PGMPI's guideline violations and the lengths a run left out for memory
// (result.Record.Skipped) carry no measurement and are skipped,
// as are records without samples whose time is not positive (not
// measured). A SKaMPI median at or below 0 (the correction, measured
// apart, exceeded it) stays: its samples can still be tested.
func measure(r *result.Record) (point, string, bool) {
	if r.Skipped() || r.Check || r.Beff != nil || r.BeffIO != nil || r.Class == "summary" || r.Guideline != "" {
		return point{}, "", false
	}
	var p point
	metric := "t_max_us"
	switch {
	case len(r.Samples) > 0:
		p.samples = make([]float64, len(r.Samples))
		for i, s := range r.Samples {
			p.samples[i] = s - r.Correction
		}
		p.value, metric = stats.Median(p.samples), "median_us"
	case r.Stats != nil && r.Stats.N > 0:
		p.value, metric = r.Stats.Median, "median_us"
	case r.Suite == result.SuiteP2P || r.Suite == result.SuiteLinks:
		p.value, metric = r.TAvg, "t_avg_us"
	case r.Suite == result.SuiteOSU && r.OSU != nil && r.OSU.NBC != nil:
		p.value, metric = r.OSU.NBC.Overall, "overall_us"
	case r.Suite == result.SuiteOSU:
		p.value, metric = r.TAvg, "t_avg_us"
	case r.Suite == result.SuiteBeff:
		if r.Reps > 0 {
			p.value = r.TMax / float64(r.Reps)
		}
		metric = "t_max_us/looplength"
	default:
		p.value = r.TMax
	}
	return p, metric, p.value > 0 || len(p.samples) > 0
}
