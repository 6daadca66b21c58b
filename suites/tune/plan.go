package tune

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"mpibench/analysis/compare"
)

// Plan is what a tune run measures.
type Plan struct {
	Colls    []Coll
	NPs      []int // process counts, ascending
	Sizes    []int // IMB message lengths in bytes, ascending
	Algs     map[string][]Alg
	Launches int     // launches per algorithm and per proof side
	Alpha    float64 // significance level
	Iter     string  // IMB's -iter, "" for its default
	Time     string  // IMB's -time, "" for its default
	PPN      int     // processes per node, for the memory check
}

// DefaultSizes are the message lengths of a node-sized run: one per
// decade of 2^4 from a float to 1 MiB, where libraries switch algorithms.
var DefaultSizes = []int{4, 64, 1024, 16384, 262144, 1048576}

// DefaultNPs are 2, 4, 8 ... up to and including the node's cores.
func DefaultNPs(cores int) []int {
	var nps []int
	for n := 2; n < cores; n *= 2 {
		nps = append(nps, n)
	}
	return append(nps, max(cores, 2))
}

// selectAlgs narrows the discovered algorithms to -algs ("bcast=1,3;
// allreduce=ring"): an algorithm the library does not have is an error
// naming it and those it has.
func selectAlgs(found map[string][]Alg, spec string) (map[string][]Alg, error) {
	if spec == "" {
		return found, nil
	}
	out := map[string][]Alg{}
	for k, v := range found {
		out[k] = v
	}
	for _, part := range strings.Split(spec, ";") {
		name, list, ok := strings.Cut(part, "=")
		c, known := CollNamed(strings.TrimSpace(name))
		if !ok || !known {
			return nil, fmt.Errorf("-algs %q: want COLL=ALG,ALG;COLL=...", part)
		}
		var as []Alg
		for _, v := range strings.Split(list, ",") {
			a, err := findAlg(found[c.Name], strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("-algs: %s: %v", c.Name, err)
			}
			as = append(as, a)
		}
		out[c.Name] = as
	}
	return out, nil
}

// findAlg is the algorithm of algs numbered or named v.
func findAlg(algs []Alg, v string) (Alg, error) {
	n, err := strconv.Atoi(v)
	for _, a := range algs {
		if (err == nil && a.ID == n) || (err != nil && a.Name == v) {
			return a, nil
		}
	}
	var have []string
	for _, a := range algs {
		have = append(have, fmt.Sprintf("%d %s", a.ID, a.Name))
	}
	return Alg{}, fmt.Errorf("the library has no algorithm %q (it has: %s)", v, strings.Join(have, ", "))
}

// checkLaunches refuses a launch count with which no difference can be
// significant at alpha.
func checkLaunches(n int, alpha float64) error {
	if need := compare.LaunchesNeeded(alpha); n < need {
		return fmt.Errorf("-launches %d: the rank-sum test needs %d launches per algorithm to decide anything at alpha %g", n, need, alpha)
	}
	return nil
}

// bufferBytes is what IMB 2021 allocates per process for c at np
// processes and length n: a send and a receive buffer, each of n bytes per
// process where the collective moves a block per process.
func bufferBytes(c Coll, np, n int) int64 {
	b, p := int64(n), int64(np)
	switch c.Name {
	case "Allgather", "Allgatherv", "Gather":
		return b + p*b
	case "Alltoall", "Alltoallv":
		return 2 * p * b
	case "Scatter", "Reduce_scatter_block":
		return p*b + b
	}
	return 2 * b
}

// checkMemory refuses a grid whose largest point needs more memory on a
// node (PPN processes of it) than the node has available.
func checkMemory(p Plan, available int64) error {
	for _, c := range p.Colls {
		for _, np := range p.NPs {
			n := slices.Max(p.Sizes)
			ranks := int64(min(np, p.PPN))
			if need := ranks * bufferBytes(c, np, n); need > available {
				return fmt.Errorf("the grid does not fit in memory: %s at %d processes and %d bytes needs %d MiB on a node (%d processes of %d MiB each), and %d MiB are available; lower -sizes or -np, or set -ppn",
					c.Name, np, n, need>>20, ranks, bufferBytes(c, np, n)>>20, available>>20)
			}
		}
	}
	return nil
}

// cores is the node's core count, for the default process counts.
func cores() int { return runtime.NumCPU() }
