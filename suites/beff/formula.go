package beff

import "math"

// Sample is one measured b(pat,L,mthd,rep) in MB/s.
type Sample struct {
	Pattern string
	Group   string
	Bytes   int
	Method  string
	Rep     int
	B       float64
}

// LogAvg is the geometric mean, the paper's "logavg"; 0 for no values or
// when a value is not positive (a bandwidth of 0 has no logarithm).
func LogAvg(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range v {
		if x <= 0 {
			return 0
		}
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v)))
}

// PatternValue is what b_eff takes from one pattern.
type PatternValue struct {
	Name    string
	Group   string
	Avg     float64            // sum over L of max over methods and reps, / 21
	AtLmax  float64            // max over methods and reps at L_max
	Methods map[string]float64 // per method: sum over L of max over reps, / 21
}

// Result is the b_eff formula applied to a set of samples.
type Result struct {
	Beff       float64 // logavg(primary, random)
	Primary    float64 // logavg over the Cartesian (or ring) patterns
	Random     float64 // logavg over the random patterns
	BeffLmax   float64 // the same at L_max only
	PrimaryMax float64 // logavg over the primary patterns at L_max
	PingPong   float64 // ping-pong bandwidth at L_max, best repetition
	Patterns   []PatternValue
}

// Compute applies the b_eff formula: for each pattern the maximum over
// repetitions and methods at each length, summed over the lengths and
// divided by 21; the logavg over the primary group (Cartesian or ring)
// and over the random group; b_eff is the logavg of these two. The
// analysis patterns are evaluated the same way but not averaged in.
// Patterns keep the order of their first sample.
func Compute(samples []Sample, lmax int) Result {
	type key struct {
		pat   string
		bytes int
	}
	best := map[key]float64{}
	bestM := map[key]map[string]float64{}
	var order []PatternValue
	var keys []key // first-seen order: sums in a fixed order round alike
	seen := map[string]int{}
	for _, s := range samples {
		if _, ok := seen[s.Pattern]; !ok {
			seen[s.Pattern] = len(order)
			order = append(order, PatternValue{Name: s.Pattern, Group: s.Group, Methods: map[string]float64{}})
		}
		k := key{s.Pattern, s.Bytes}
		if bestM[k] == nil {
			keys = append(keys, k)
			bestM[k] = map[string]float64{}
		}
		best[k] = math.Max(best[k], s.B)
		bestM[k][s.Method] = math.Max(bestM[k][s.Method], s.B)
	}
	for _, k := range keys {
		b := best[k]
		pv := &order[seen[k.pat]]
		pv.Avg += b / NLengths
		if k.bytes == lmax {
			pv.AtLmax = b
		}
		for _, m := range AllMethods {
			if bm, ok := bestM[k][m]; ok {
				pv.Methods[m] += bm / NLengths
			}
		}
	}
	var r Result
	var prim, rnd, primL, rndL []float64
	for _, pv := range order {
		switch pv.Group {
		case Cartesian, Ring:
			prim, primL = append(prim, pv.Avg), append(primL, pv.AtLmax)
		case Random:
			rnd, rndL = append(rnd, pv.Avg), append(rndL, pv.AtLmax)
		}
		if pv.Name == PingPong {
			r.PingPong = pv.AtLmax
		}
	}
	r.Primary, r.Random = LogAvg(prim), LogAvg(rnd)
	r.Beff = LogAvg([]float64{r.Primary, r.Random})
	r.PrimaryMax = LogAvg(primL)
	r.BeffLmax = LogAvg([]float64{r.PrimaryMax, LogAvg(rndL)})
	r.Patterns = order
	return r
}

// Bandwidth is b(pat,L,mthd,rep) in MB/s: L · messages · looplength over
// the maximum loop time t (seconds) over processes.
func Bandwidth(l, messages, loop int, t float64) float64 {
	if t <= 0 {
		return 0
	}
	return float64(l) * float64(messages) * float64(loop) / t / MBps
}
