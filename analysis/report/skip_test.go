package report

import (
	"testing"

	"mpibench/analysis/result"
)

// TestReportSkipped: a length left out for memory (Record.Skipped) is no
// point of its plot: the largest point stays the largest measured one,
// not a zero time at the left-out length.
func TestReportSkipped(t *testing.T) {
	recs := reportIMB("h", 3)
	skip := recs[0]
	skip.Bytes, skip.Reps, skip.TMin, skip.TMax, skip.TAvg = 1<<20, 0, 0, 0, 0
	skip.Skip, skip.NeedBytes, skip.LimitBytes = result.SkipMemory, 2<<20, 1<<20
	recs = append(recs, skip)
	ms := Group([]Input{{Name: "a", Records: recs}})
	if len(ms) != 2 {
		t.Fatalf("%d measurements, want PingPong and Barrier", len(ms))
	}
	f := ms[0].Figures()[0]
	if f.Last.Time != 4 || f.LastX != "1000 B" {
		t.Errorf("largest: %+v at %s, want 4 µs at 1000 B", f.Last, f.LastX)
	}
	// Every run left it out: no plot at all.
	ms = Group([]Input{{Name: "a", Records: []result.Record{skip}}})
	if len(ms) != 0 {
		t.Errorf("%d measurements of a left-out record, want none", len(ms))
	}
}
