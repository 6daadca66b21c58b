package imb

import (
	"fmt"
	"slices"

	"mpibench/run/memcheck"
)

// MemoryNeed is the largest memory one process allocates for the
// benchmarks of cfg on size processes (section 7.1, Table 20), computed
// from the plan alone so that every rank gets the same figure before any
// buffer is allocated.
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
			mem := func(x int) float64 { return cfg.F.memNeed(s, set, b, x, q) }
			fit, _ := fitMem(mem, lens, cfg.F.memLimit(s)) // -mem: the lengths the case runs
			if len(fit) == 0 {
				continue
			}
			n := caseNeed(&cfg.F, b, set, q, fit, cfg.Check)
			what := fmt.Sprintf("%s at %d bytes on %d processes", b.Name, slices.Max(fit), q)
			need = memcheck.Max(need, memcheck.Need{What: what, Bytes: int64(n)})
		}
	}
	return need
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
