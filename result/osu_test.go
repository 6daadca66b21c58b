package result

import (
	"bytes"
	"strings"
	"testing"
)

// TestDecodeOSU: an osu record, written by the Writer, is read by the
// fast parser (not left to encoding/json) into the same record.
func TestDecodeOSU(t *testing.T) {
	r := Record{Suite: SuiteOSU, Benchmark: "osu_bw", Class: "bandwidth", Multi: -1, Group: -1, NProcs: 2,
		Groups: [][]int{{0, 1}}, Bytes: 64, Reps: 100, MBps: 120.5, Window: 64, Samples: []float64{1.5, 2}, Context: testContext(),
		OSU: &OSU{Datatype: "MPI_INT", DDT: "vect:8:4", Transmit: 32, Warmup: 10, Validation: "Pass", Pairs: 1,
			InPlace: true, Tail: []Percentile{{P: 50, Value: 110.25}, {P: 99, Value: 130}}}}
	var buf bytes.Buffer
	if err := NewWriter(&buf).Write(&r); err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(buf.String())
	decodeCompare(t, line)
	var got Record
	if p := (parser{b: []byte(line), prev: &Record{}}); !p.record(&got) {
		t.Errorf("the fast parser left the osu record to encoding/json: %s", line)
	}
}
