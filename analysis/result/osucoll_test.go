package result

import (
	"bytes"
	"strings"
	"testing"
)

// TestDecodeOSUNBC: a non-blocking collective's record is read by the
// fast parser into the record encoding/json makes of it.
func TestDecodeOSUNBC(t *testing.T) {
	r := Record{Suite: SuiteOSU, Benchmark: "osu_iallreduce", Class: "non-blocking", Multi: -1, Group: -1,
		NProcs: 2, Groups: [][]int{{0, 1}}, Bytes: 8, Reps: 1000, TAvg: 2.26, Context: testContext(),
		OSU: &OSU{Datatype: "MPI_CHAR", Warmup: 100, NBC: &OSUNBC{Overall: 2.26, Compute: 1.13, Init: 0.31,
			Test: 0.02, Wait: 0.8, Pure: 0.6, PureMin: 0.55, PureMax: 0.65, Overlap: 1.5}}}
	fastDecodes(t, r)
	for _, l := range []string{`{"osu":{"nbc":null}}`, `{"osu":{"nbc":{"overall":1,"x":2}}}`, `{"osu":{"nbc":{}}}`} {
		decodeCompare(t, l)
	}
}

// fastDecodes writes r and requires the fast parser to read it (not to
// leave it to encoding/json) into the record encoding/json makes.
func fastDecodes(t *testing.T, r Record) {
	t.Helper()
	var buf bytes.Buffer
	if err := NewWriter(&buf).Write(&r); err != nil {
		t.Fatal(err)
	}
	// The run's header, then the record.
	_, line, _ := strings.Cut(strings.TrimSpace(buf.String()), "\n")
	decodeCompare(t, line)
	var got Record
	if p := (parser{b: []byte(line), prev: &Record{}}); !p.record(&got) {
		t.Errorf("the fast parser left the record to encoding/json: %s", line)
	}
}
