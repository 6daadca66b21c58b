package imb

import (
	"fmt"
	"math"
	"slices"

	"mpibench/run/memcheck"
)

// MemoryNeed is the largest memory one process allocates for the
// benchmarks of cfg on size processes (section 7.1, Table 20), computed
// from the plan alone so that every rank gets the same figure before any
// buffer is allocated. It counts the lengths each case keeps (caseBounds:
// -mem, and the node's memory where cfg.avail is set); a case whose
// lengths the node's memory leaves out to the last needs what its
// smallest length needs, more than the node has, and the memory check
// refuses the run with that figure.
func MemoryNeed(cfg *Config, size int) memcheck.Need {
	s := SuiteByName(cfg.Suite)
	var need memcheck.Need
	for _, name := range cfg.Benchmarks {
		b := cfg.F.lookup(s, name)
		set := cfg.F.settings(&s.Settings)
		lens := planLengths(set, cfg.Lengths, b)
		for _, q := range s.ProcessCounts(size, cfg.NPMin, b.Class) {
			if b.Class == SingleTransfer && q < s.SingleQ {
				continue // runBenchmark skips it
			}
			fit, out := caseBounds(cfg, s, set, b, q).split(lens)
			if len(fit) == 0 {
				if x, o, ok := smallestNodeOut(lens, out); ok {
					what := fmt.Sprintf("%s at %d bytes on %d processes", b.Name, x, q)
					need = memcheck.Max(need, memcheck.Need{What: what, Bytes: o.need})
				}
				continue
			}
			n := caseNeed(&cfg.F, b, set, q, fit, cfg.Check)
			what := fmt.Sprintf("%s at %d bytes on %d processes", b.Name, slices.Max(fit), q)
			need = memcheck.Max(need, memcheck.Need{What: what, Bytes: int64(n)})
		}
	}
	return need
}

// leftOut is a length a case leaves out because its buffers do not fit:
// what one process would need for it and the bound that need exceeds,
// in bytes.
type leftOut struct {
	need, limit int64
	imb         bool // IMB's -mem rule (IMB's out-of-mem. line); else the node's memory
}

// memBounds are the two bounds on the lengths of one case (a benchmark
// on q processes): IMB 2021's -mem on IMB's used_mem of a length, and
// the node's available memory per process on what mpibench allocates to
// run the case up to that length. A limit of 0 bounds nothing.
type memBounds struct {
	imbNeed   func(x int) float64 // IMB's used_mem at x bytes (Flags2021.memNeed)
	imbLimit  float64             // -mem in bytes (Flags2021.memLimit)
	nodeNeed  func(x int) int64   // the case's allocation for x (caseNeed)
	nodeLimit int64               // the node's available memory per process
}

// split keeps the lengths of lens that fit both bounds, in order, and
// says why each other one is left out: IMB's bound first, as IMB checks
// it before it allocates, then the node's.
func (m memBounds) split(lens []int) (fit []int, out map[int]leftOut) {
	for _, x := range lens {
		var o leftOut
		switch {
		case m.imbLimit > 0 && m.imbNeed(x) > m.imbLimit:
			o = leftOut{need: int64(math.Ceil(m.imbNeed(x))), limit: int64(m.imbLimit), imb: true}
		case m.nodeLimit > 0 && m.nodeNeed(x) > m.nodeLimit:
			o = leftOut{need: m.nodeNeed(x), limit: m.nodeLimit}
		default:
			fit = append(fit, x)
			continue
		}
		if out == nil {
			out = map[int]leftOut{}
		}
		out[x] = o
	}
	return fit, out
}

// caseBounds are the bounds on the lengths of b on q processes under cfg.
func caseBounds(cfg *Config, s *Suite, set *Settings, b *Benchmark, q int) memBounds {
	return memBounds{
		imbNeed:   func(x int) float64 { return cfg.F.memNeed(s, set, b, x, q) },
		imbLimit:  cfg.F.memLimit(s),
		nodeNeed:  func(x int) int64 { return int64(caseNeed(&cfg.F, b, set, q, []int{x}, cfg.Check)) },
		nodeLimit: cfg.avail,
	}
}

// smallestNodeOut is the smallest length of lens the node's memory left
// out, if any.
func smallestNodeOut(lens []int, out map[int]leftOut) (x int, o leftOut, ok bool) {
	for _, l := range lens {
		if lo, in := out[l]; in && !lo.imb && (!ok || l < x) {
			x, o, ok = l, lo, true
		}
	}
	return x, o, ok
}

// outOfNodeMem is the line in place of a length the node's memory left
// out, in the shape of IMB's out-of-mem. line (the length in IMB's
// column, then the reason) with the words of mpibench's memory check:
// IMB has no such line, it allocates and fails.
func outOfNodeMem(need, limit int64, x int) string {
	return fmt.Sprintf("%13d out-of-mem.; needs %s per process; "+memcheck.NodeLimit, x,
		memcheck.MiB(need), memcheck.MiB(limit))
}

// planLengths are the lengths b runs: the defaults, or the user's
// adjusted to IMB's rules.
func planLengths(set *Settings, user []int, b *Benchmark) []int {
	if b.NoBytes {
		return []int{0}
	}
	if b.RMA3 != nil && b.RMA3.Element {
		return []int{4} // IMB-RMA's SingleElementTransfer
	}
	if user == nil {
		return set.DefaultLengths(b.Unit())
	}
	lens, _ := set.AdjustLengths(user, b.Unit())
	return lens
}

// caseNeed is what an active process of one case allocates, the largest
// over its ranks: the runner's setup allocates once for the longest
// length.
func caseNeed(f *Flags2021, b *Benchmark, set *Settings, q int, lens []int, check bool) int {
	switch {
	case b.RMA != nil:
		// send and recv of rmaCase; -off_cache: IMB 2021's slots
		return 2 * max(rmaBufferSize(b, set, lens), f.oneSidedAlloc(b, set, lens, q))
	case b.IO != nil:
		return ioNeed(b, set, q, lens, check)
	case b.RMA3 != nil:
		return rma3Need(f, b, set, q, lens, check)
	}
	if n, ok := bigNeed(b, lens, q); ok {
		return n // bigcase.go
	}
	s, r := f.caseBuffers(b, set, lens, q) // IMB 2021's Reduce_scatter, -off_cache
	return s + r + 2*4*q                   // plus the counts and displacements
}

// ioNeed is the one buffer of an ioCase (send for writes, recv for reads)
// on the rank with the largest portion; in -check mode a read also keeps
// every repetition's data.
func ioNeed(b *Benchmark, set *Settings, q int, lens []int, check bool) int {
	if b.IO.Access == IONone {
		return 0
	}
	most, saved := 0, 0
	for _, x := range lens {
		for rank := 0; rank < q; rank++ {
			n := ioLayoutOf(b.IO, b.Class, rank, q, x).n
			most = max(most, n)
			if check && !b.IO.Write {
				saved = max(saved, n*set.Repetitions(x, Aggregate))
			}
		}
	}
	return most + saved
}
