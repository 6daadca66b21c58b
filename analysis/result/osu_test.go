package result

import "testing"

// TestDecodeOSU: an osu record, written by the Writer, is read by the
// fast parser (not left to encoding/json) into the same record.
func TestDecodeOSU(t *testing.T) {
	r := Record{Suite: SuiteOSU, Benchmark: "osu_bw", Class: "bandwidth", Multi: -1, Group: -1, NProcs: 2,
		Groups: [][]int{{0, 1}}, Bytes: 64, Reps: 100, MBps: 120.5, Window: 64, Samples: []float64{1.5, 2}, Context: testContext(),
		OSU: &OSU{Datatype: "MPI_INT", DDT: "vect:8:4", Transmit: 32, Warmup: 10, Validation: "Pass", Pairs: 1,
			InPlace: true, Tail: []Percentile{{P: 50, Value: 110.25}, {P: 99, Value: 130}}}}
	fastDecodes(t, r)
}
