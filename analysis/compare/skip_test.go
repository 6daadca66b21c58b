package compare

import (
	"testing"

	"mpibench/analysis/result"
)

// TestSkippedRecord: a length one run left out for memory is no case of
// that run, never a drop to zero time; even a left-out record with
// figures on it is not read as a measurement.
func TestSkippedRecord(t *testing.T) {
	bcast := func(bytes int, tmax float64) result.Record {
		return result.Record{Suite: "mpi1", Benchmark: "Bcast", Class: "collective", NProcs: 4, Bytes: bytes,
			Reps: 100, TMax: tmax}
	}
	left := func(bytes int, tmax float64) result.Record {
		r := bcast(bytes, tmax)
		r.Reps, r.Skip, r.NeedBytes, r.LimitBytes = 0, result.SkipMemory, int64(8*bytes), int64(bytes)
		return r
	}
	old := SetOf("old", []result.Record{bcast(8, 3), bcast(1<<20, 900)})
	new := SetOf("new", []result.Record{bcast(8, 3), left(1<<20, 0), left(1<<21, 5)})
	if new.Len() != 1 {
		t.Fatalf("%d cases in the new set, want 1 (8 bytes)", new.Len())
	}
	c := Compare(old, new, DefaultAlpha)
	if len(c.Changes) != 1 || c.Changes[0].Bytes != 8 || c.OnlyOld != 1 || c.OnlyNew != 0 {
		t.Errorf("changes %+v, only old %d, only new %d; want 8 bytes compared, 1 MiB in the old run only",
			c.Changes, c.OnlyOld, c.OnlyNew)
	}
}
