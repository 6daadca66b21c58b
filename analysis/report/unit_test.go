package report

import (
	"testing"

	"mpibench/analysis/result"
	"mpibench/suites/imb"
)

// rates2021 names exactly the benchmarks of IMB 2021 with a throughput
// column, and the units follow the records' IMB.
func TestThroughputUnit(t *testing.T) {
	n := 0
	for _, b := range imb.MPI1From2021 {
		if b.Factor > 0 {
			n++
			if !rates2021[b.Name] {
				t.Errorf("%s has a throughput in IMB 2021 but is not in rates2021", b.Name)
			}
		}
	}
	if n != len(rates2021) {
		t.Errorf("rates2021 has %d names, IMB 2021 added %d with a throughput", len(rates2021), n)
	}
	for _, c := range []struct {
		suite, bench, imb string
		want              float64
	}{
		{"mpi1", "PingPong", "3.0", 1 << 20}, {"mpi1", "PingPong", "", 1 << 20}, {"io", "S_Write_indv", "", 1 << 20},
		{"mpi1", "PingPong", "2021", 1e6}, {"mpi1", "Uniband", "3.0", 1e6}, {"p2p", "PingPong", "", 1e6},
		{"nbc", "Ibcast", "2021", 1e6},
	} {
		r := result.Record{Suite: c.suite, Benchmark: c.bench, Context: result.Context{IMB: c.imb}}
		if got := throughputUnit(&r); got != c.want {
			t.Errorf("%s %s IMB %q: MB of %g bytes, want %g", c.suite, c.bench, c.imb, got, c.want)
		}
	}
}
