package tune

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"mpibench/analysis/result"
)

// algPoint names one algorithm's measurements of one collective at one
// process count.
type algPoint struct {
	coll string
	np   int
	alg  int
}

// measurements are the launches' figures: per algPoint and length, the
// t_max of each launch that finished it; and why a algPoint's launch failed.
type measurements struct {
	samples map[algPoint]map[int][]float64
	failed  map[algPoint]string
}

func newMeasurements() *measurements {
	return &measurements{samples: map[algPoint]map[int][]float64{}, failed: map[algPoint]string{}}
}

// adder appends a launch's figure at a length to pt's samples, for
// readLaunch.
func (m *measurements) adder(pt algPoint) func(bytes int, tmax float64) {
	return func(bytes int, tmax float64) {
		if m.samples[pt] == nil {
			m.samples[pt] = map[int][]float64{}
		}
		m.samples[pt][bytes] = append(m.samples[pt][bytes], tmax)
	}
}

// algsOf are the algorithms measured for c: the default first.
func (p Plan) algsOf(c Coll) []Alg {
	return append([]Alg{Default}, p.Algs[c.Name]...)
}

// measure runs every algorithm of every collective at every process
// count, Launches times, the launches of one round interleaved so that a
// drift of the machine spreads over all algorithms alike, and each round
// starting one algorithm later, so that none is always the first after
// another collective. An algorithm whose launch failed is not launched
// again.
func (r *runner) measure() (*measurements, error) {
	m := newMeasurements()
	for k := 1; k <= r.o.plan.Launches; k++ {
		for _, np := range r.o.plan.NPs {
			for _, c := range r.o.plan.Colls {
				for _, a := range rotate(r.o.plan.algsOf(c), k-1) {
					if err := r.measureOne(m, k, np, c, a); err != nil {
						return m, err
					}
				}
			}
		}
	}
	return m, nil
}

// measureOne is launch k of algorithm a of c at np processes.
func (r *runner) measureOne(m *measurements, k, np int, c Coll, a Alg) error {
	pt := algPoint{c.Name, np, a.ID}
	if _, failed := m.failed[pt]; failed {
		return nil
	}
	dir := filepath.Join(r.o.out, "raw", "np"+strconv.Itoa(np), c.Name, algDir(a))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	l := r.mpi1(np, []Coll{c}, filepath.Join(dir, fmt.Sprintf("launch-%d.jsonl", k)))
	l.env = r.lib.Force(c, a)
	l.label = fmt.Sprintf("%s np %d %s, launch %d of %d", c.Name, np, a.Name, k, r.o.plan.Launches)
	err := r.start(l)
	if errors.Is(err, errInterrupted) {
		return err
	}
	if err != nil && r.launched == 0 {
		// The first launch of the run is the library's default: when it
		// fails, the launcher or the set-up is broken, not an algorithm.
		return fmt.Errorf("the first launch (%s) failed, before any succeeded: %v; its output: %s.log", l.label, err, l.out)
	}
	r.launched++
	if err != nil {
		m.failed[pt] = err.Error()
	}
	// A failed launch keeps the lengths it finished.
	return readLaunch(l.out, c.Name, np, m.adder(pt))
}

// algDir names an algorithm's folder: its number and name.
func algDir(a Alg) string {
	return fmt.Sprintf("%d-%s", a.ID, a.Name)
}

// readLaunch hands every measured length of the collective at np
// processes in a launch's records to fn; a launch that wrote nothing has
// none.
func readLaunch(path, coll string, np int, fn func(bytes int, tmax float64)) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only
	_, err = result.Scan(f, path, func(rec *result.Record) error {
		if rec.Benchmark == coll && rec.NProcs == np && !rec.Skipped() && !rec.Check && rec.Reps > 0 {
			fn(rec.Bytes, rec.TMax)
		}
		return nil
	})
	return err
}

// lengths are the lengths measured at a algPoint, ascending.
func (m *measurements) lengths(pt algPoint) []int {
	var ns []int
	for n := range m.samples[pt] {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// rotate is as rotated left by k.
func rotate[T any](as []T, k int) []T {
	k %= len(as)
	return append(append([]T(nil), as[k:]...), as[:k]...)
}
