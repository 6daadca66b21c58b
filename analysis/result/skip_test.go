package result

import (
	"bytes"
	"strings"
	"testing"
)

// skipRec is mergeRec's case left out for memory: no figures, the need
// and the bound.
func skipRec(bytes int, host string) Record {
	r := mergeRec(bytes, 1, host)
	r.Reps, r.TMin, r.TMax, r.TAvg, r.MBps = 0, 0, 0, 0, 0
	r.Skip, r.NeedBytes, r.LimitBytes = SkipMemory, 2*int64(bytes), int64(bytes)
	return r
}

// TestSkippedRoundTrip: a left-out case's fields are written as tagged
// and read back, by the fast parser and by encoding/json alike.
func TestSkippedRoundTrip(t *testing.T) {
	r := skipRec(4194304, "a")
	if m := mergeRec(8, 1, "a"); !r.Skipped() || m.Skipped() {
		t.Fatal("Skipped")
	}
	var buf bytes.Buffer
	if err := NewWriter(&buf).Write(&r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"skipped":"memory"`, `"need_bytes":8388608`, `"limit_bytes":4194304`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("no %s in %s", want, buf.String())
		}
	}
	got, warns, err := Read(&buf, "x")
	if err != nil || len(warns) != 0 || len(got) != 1 {
		t.Fatalf("%v %v %d records", err, warns, len(got))
	}
	if g := got[0]; g.Skip != SkipMemory || g.NeedBytes != r.NeedBytes || g.LimitBytes != r.LimitBytes {
		t.Errorf("read back %+v", g)
	}
	m := mergeRec(8, 1, "a")
	buf.Reset()
	NewWriter(&buf).Write(&m)
	if strings.Contains(buf.String(), "skipped") || strings.Contains(buf.String(), "_bytes") {
		t.Errorf("a measured record carries the fields: %s", buf.String())
	}
}

// TestMergeSkipped: a run that left a length out adds no zero to its
// median; a length every run left out stays one left-out record.
func TestMergeSkipped(t *testing.T) {
	runs := [][]Record{
		{mergeRec(8, 10, "first"), skipRec(64, "first")},
		{skipRec(8, "second"), skipRec(64, "second")},
		{mergeRec(8, 30, "third"), skipRec(64, "third")},
	}
	res := Merge(runs)
	if len(res.Records) != 2 || res.Partial != 1 {
		t.Fatalf("%d records, partial %d; want 2, 1 (8 bytes measured by two runs of three)", len(res.Records), res.Partial)
	}
	r := res.Records[0]
	if r.Skipped() || r.TMax != 20 || r.Merged != 2 || r.Reps != 1000 || r.Context.Host != "first" {
		t.Errorf("8 bytes: %+v, want the median of 10 and 30, merged 2", r)
	}
	r = res.Records[1]
	if !r.Skipped() || r.TMax != 0 || r.Merged != 0 || r.NeedBytes != 128 || r.Bytes != 64 {
		t.Errorf("64 bytes: %+v, want the left-out record", r)
	}
	// A left-out record first, a measured one after: the measured one
	// gives the merged record its fields.
	res = Merge([][]Record{{skipRec(8, "first")}, {mergeRec(8, 5, "second")}})
	if r := res.Records[0]; r.Skipped() || r.TMax != 5 || r.Context.Host != "second" || res.Partial != 1 {
		t.Errorf("%+v partial %d", r, res.Partial)
	}
}
