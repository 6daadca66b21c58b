package tune

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"mpibench/analysis/compare"
	"mpibench/analysis/stats"
	"mpibench/mpi"
)

// prove reruns the tuned collectives with the tuning file and without it,
// Launches times each, the two sides alternating, and compares them algPoint
// by algPoint as compare does (rank-sum test on the launches).
func (r *runner) prove(t Table, rules string, choices []Choice) ([]Proof, error) {
	var colls []Coll
	for _, c := range r.o.plan.Colls {
		if t.tuned(c.Name) {
			colls = append(colls, c)
		}
	}
	if len(colls) == 0 {
		return nil, nil
	}
	abs, err := filepath.Abs(rules)
	if err != nil {
		return nil, err
	}
	sides := map[string][]string{"default": nil, "tuned": r.lib.RulesEnv(abs)}
	got := map[string]*measurements{"default": newMeasurements(), "tuned": newMeasurements()}
	for k := 1; k <= r.o.plan.Launches; k++ {
		for _, np := range r.o.plan.NPs {
			for _, side := range rotate([]string{"default", "tuned"}, k-1) {
				if err := r.proveOne(got[side], k, np, side, sides[side], colls); err != nil {
					return nil, err
				}
			}
		}
	}
	return proofs(r.o.plan, choices, colls, got["default"], got["tuned"]), nil
}

// proveOne is launch k of one side at np processes.
func (r *runner) proveOne(m *measurements, k, np int, side string, env []string, colls []Coll) error {
	dir := filepath.Join(r.o.out, "raw", "proof", "np"+strconv.Itoa(np), side)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	l := r.mpi1(np, colls, filepath.Join(dir, fmt.Sprintf("launch-%d.jsonl", k)))
	l.env = env
	l.label = fmt.Sprintf("proof np %d %s, launch %d of %d", np, side, k, r.o.plan.Launches)
	err := r.start(l)
	if errors.Is(err, errInterrupted) {
		return err
	}
	if err != nil {
		return fmt.Errorf("the proof's %s launch at %d processes failed: %v", side, np, err)
	}
	for _, c := range colls {
		if err := readLaunch(l.out, c.Name, np, m.adder(algPoint{c.Name, np, 0})); err != nil {
			return err
		}
	}
	return nil
}

// proofs compares the two sides at every algPoint of the tuned collectives.
func proofs(p Plan, choices []Choice, colls []Coll, def, tuned *measurements) []Proof {
	var out []Proof
	for _, ch := range choices {
		if _, ok := collIn(colls, ch.Coll); !ok {
			continue
		}
		pt := algPoint{ch.Coll, ch.NP, 0}
		x, y := def.samples[pt][ch.Bytes], tuned.samples[pt][ch.Bytes]
		if len(x) == 0 || len(y) == 0 {
			continue
		}
		pr := Proof{Library: mpi.Flavor, Coll: ch.Coll, NP: ch.NP, Bytes: ch.Bytes, Chosen: ch.Chosen, Alpha: p.Alpha,
			Default: Side{Samples: x, Median: stats.Median(x)}, Tuned: Side{Samples: y, Median: stats.Median(y)}}
		if pr.Default.Median > 0 {
			pr.Change = 100 * (pr.Tuned.Median - pr.Default.Median) / pr.Default.Median
		}
		pr.P = stats.RankSum(x, y, stats.TwoSided).P
		pr.Significant = compare.MinP(len(x), len(y)) <= p.Alpha && pr.P < p.Alpha
		out = append(out, pr)
	}
	return out
}

// collIn is the collective of cs named name (its IMB name, as written).
func collIn(cs []Coll, name string) (Coll, bool) {
	for _, c := range cs {
		if c.Name == name {
			return c, true
		}
	}
	return Coll{}, false
}

// revert returns to the default every choice that the proof found
// significantly slower than the default, marks its proof, and is the
// number of such choices. The rest of the file stands: each point's rule
// is chosen on its own, and returning one to the library's decision
// restores what the proof's default side measured there.
func revert(choices []Choice, proofs []Proof) int {
	n := 0
	for i := range proofs {
		p := &proofs[i]
		if p.Chosen.IsDefault() || !p.Significant || p.Change <= 0 {
			continue
		}
		for j := range choices {
			ch := &choices[j]
			if ch.Coll == p.Coll && ch.NP == p.NP && ch.Bytes == p.Bytes {
				ch.Chosen, ch.Gain = Default, 0
				ch.Why = fmt.Sprintf("%s was chosen, and the proof found it slower than the default (%+.1f %%, p = %.3f)", p.Chosen.Name, p.Change, p.P)
			}
		}
		p.Reverted = true
		n++
	}
	return n
}
