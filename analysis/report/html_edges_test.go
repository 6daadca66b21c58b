package report

import (
	"bytes"
	"testing"

	"mpibench/analysis/result"
)

// A log-x panel whose only points are at 0 bytes (the ratio of two inputs
// that share no other length: mpi1 at 0 and 1024 B against -imb 2021 at
// 0, 4, 8, 16 B) draws; it used to stop the report with gonum/plot's
// "Values must be greater than 0 for a log scale".
func TestLogXOnlyZero(t *testing.T) {
	m := &Measurement{ID: "z", Title: "PingPong", XLabel: "bytes", YLabel: "ratio", LogX: true, Ref: 1,
		Series: []*Series{{Label: "b", Input: 1, Points: []Point{{X: 0, Y: 1.1, N: 1, Lo: 1.1, Hi: 1.1}}}}}
	if z := plotZero(m); z <= 0 {
		t.Fatalf("plotZero = %g, want a positive place for 0 B", z)
	}
	if _, err := m.panelSVG("ratio"); err != nil {
		t.Fatalf("panelSVG: %v", err)
	}
}

// A context field held by pointer (links' slow_pct) shows its value, so
// that the same inputs give the same page.
func TestContextPointerValue(t *testing.T) {
	pct := 20.0
	rows := htmlContext(result.Context{Tool: "mpibench 0.1.0", SlowPct: &pct})
	found := false
	for _, r := range rows {
		if r[0] == "slow_pct" {
			found = true
			if r[1] != "20" {
				t.Errorf("slow_pct shows %q, want 20", r[1])
			}
		}
	}
	if !found {
		t.Errorf("no slow_pct row in %v", rows)
	}
}

// TestReportReproducible: the same inputs give the same page, byte for
// byte, from two collectors (issue 26: links' slow_pct printed as a
// pointer, which changed between runs and builds).
func TestReportReproducible(t *testing.T) {
	page := func() []byte {
		recs := append(linksRecords("h"), reportAll("a.jsonl", "h").Records...)
		for i := range recs {
			pct := 20.0 // a fresh pointer each time, as a reader makes
			recs[i].Context.SlowPct = &pct
		}
		var b bytes.Buffer
		if err := collect([]Input{{Name: "a.jsonl", Records: recs}, reportAll("b.jsonl", "g")}).HTML(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	first, second := page(), page()
	if !bytes.Equal(first, second) {
		t.Errorf("two pages of the same inputs differ (%d and %d bytes)", len(first), len(second))
	}
	if bytes.Contains(first, []byte("0xc")) {
		t.Errorf("the page holds what looks like a pointer")
	}
}
