package tune

import (
	"fmt"
	"slices"

	"mpibench/analysis/stats"
	"mpibench/mpi"
)

// choose is the verdict at every algPoint of the grid that was measured.
func choose(p Plan, m *measurements) []Choice {
	var out []Choice
	for _, c := range p.Colls {
		for _, np := range p.NPs {
			for _, n := range gridLengths(p, m, c, np) {
				out = append(out, chooseAt(p, m, c, np, n))
			}
		}
	}
	return out
}

// gridLengths are the lengths any algorithm of c measured at np.
func gridLengths(p Plan, m *measurements, c Coll, np int) []int {
	var ns []int
	for _, a := range p.algsOf(c) {
		ns = append(ns, m.lengths(algPoint{c.Name, np, a.ID})...)
	}
	slices.Sort(ns)
	return slices.Compact(ns)
}

// chooseAt picks the algorithm at one algPoint: the smallest median among
// the algorithms measured in every launch, kept only when the rank-sum
// test finds it faster than the default at Alpha. Testing only the
// fastest against the default picks the largest of several differences,
// which favours a winner by chance; the proof's fresh launches are what
// guards against that.
func chooseAt(p Plan, m *measurements, c Coll, np, n int) Choice {
	ch := Choice{Library: mpi.Flavor, Coll: c.Name, NP: np, Bytes: n, Alpha: p.Alpha, Chosen: Default, P: 1}
	for _, a := range p.algsOf(c) {
		ch.Algs = append(ch.Algs, measured(p, m, algPoint{c.Name, np, a.ID}, a, n))
	}
	def := ch.Algs[0]
	if def.Status != "ok" {
		ch.Why = "the default was not measured in every launch: " + def.Error
		return ch
	}
	best := def
	for _, a := range ch.Algs[1:] {
		if a.Status == "ok" && a.Median < best.Median {
			best = a
		}
	}
	ch.Winner = best.Alg
	if best.IsDefault() {
		ch.Why = "the default was the fastest"
		return ch
	}
	ch.P = stats.RankSum(best.Samples, def.Samples, stats.TwoSided).P
	if ch.P >= p.Alpha {
		ch.Why = fmt.Sprintf("%s was faster, but not significantly (p = %.3f)", best.Name, ch.P)
		return ch
	}
	ch.Chosen = best.Alg
	ch.Gain = 100 * (def.Median - best.Median) / def.Median
	return ch
}

// measured is algorithm a at length n: ok when every launch measured it.
func measured(p Plan, m *measurements, pt algPoint, a Alg, n int) Measured {
	s := m.samples[pt][n]
	x := Measured{Alg: a, Status: "ok", Samples: s}
	if len(s) > 0 {
		x.Median = stats.Median(s)
	}
	switch {
	case len(s) < p.Launches && m.failed[pt] != "":
		x.Status, x.Error = "failed", m.failed[pt]
	case len(s) < p.Launches:
		x.Status, x.Error = "failed", fmt.Sprintf("measured in %d of %d launches", len(s), p.Launches)
	}
	return x
}

// table is the decision the choices make: per collective and process
// count, a rule from each measured length up to the next. Below the
// smallest length measured and above the largest the library keeps its
// own choice: tune does not extrapolate. A collective the library decides
// by the process count alone (its metric is 0 at every length) gets one
// rule per process count: the algorithm chosen at every length, else the
// default.
func table(choices []Choice, lib Library) Table {
	t := Table{}
	for i := 0; i < len(choices); {
		j := i
		for j < len(choices) && choices[j].Coll == choices[i].Coll && choices[j].NP == choices[i].NP {
			j++
		}
		c, _ := CollNamed(choices[i].Coll)
		if lib.Metric(c, choices[i].NP, 1<<20) == 0 {
			t[c.Name] = append(t[c.Name], unanimous(choices[i:j]))
		} else {
			t[c.Name] = append(t[c.Name], rulesOf(choices[i:j])...)
		}
		i = j
	}
	return t
}

// rulesOf are the rules of one collective at one process count.
func rulesOf(chs []Choice) []Rule {
	np := chs[0].NP
	var rs []Rule
	if chs[0].Bytes > 0 {
		rs = append(rs, Rule{NP: np, Alg: Default})
	}
	for _, ch := range chs {
		rs = append(rs, Rule{NP: np, Bytes: ch.Bytes, Alg: ch.Chosen})
	}
	if last := chs[len(chs)-1]; !last.Chosen.IsDefault() {
		rs = append(rs, Rule{NP: np, Bytes: last.Bytes + 1, Alg: Default})
	}
	return rs
}

// unanimous is the one rule of a collective decided without lengths.
func unanimous(chs []Choice) Rule {
	r := Rule{NP: chs[0].NP, Alg: chs[0].Chosen}
	for _, ch := range chs {
		if ch.Chosen != r.Alg {
			r.Alg = Default
		}
	}
	return r
}

// tuned reports whether the table changes anything.
func (t Table) tuned(coll string) bool {
	for _, r := range t[coll] {
		if !r.Alg.IsDefault() {
			return true
		}
	}
	return false
}
