package guideline

import (
	"testing"

	"mpibench/analysis/result"
)

// TestFromRecordsSkipped: a size left out for memory (Record.Skipped)
// adds no median, even one carrying stats, to the data the guidelines
// are checked on.
func TestFromRecordsSkipped(t *testing.T) {
	rec := func(n int, median float64) result.Record {
		return result.Record{Suite: result.SuitePGMPI, Class: "function", Benchmark: "MPI_Bcast", NProcs: 4,
			Bytes: n, Launch: 1, Samples: []float64{median, median}}
	}
	skip := rec(1<<20, 0.5)
	skip.Skip, skip.NeedBytes, skip.LimitBytes = result.SkipMemory, 4<<20, 1<<20
	d := FromRecords([]result.Record{rec(8, 2), skip})
	m := d.Medians[Key{4, "MPI_Bcast"}]
	if len(m) != 1 || len(m[8]) != 1 || m[8][0] != 2 {
		t.Errorf("medians %v, want 8 bytes only", m)
	}
	if _, ok := m[1<<20]; ok {
		t.Error("the left-out size has a median")
	}
}
