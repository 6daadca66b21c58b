package imb

import (
	"os"
	"path/filepath"
	"testing"

	"mpibench/e2e"
)

// imbCounts are IMB's process counts Q for a collective on p processes
// with -npmin 2 (suites/imb/suite.go, ProcessCounts): 2, 4, ..., the
// largest power of two below p, then p.
func imbCounts(p int) []int {
	var qs []int
	for q := 2; q < p; q *= 2 {
		qs = append(qs, q)
	}
	return append(qs, p)
}

// imbScaleRecords is docs/scale.md's record count of an IMB run on p
// processes with -multi 1: one record per group, length and process
// count, ⌊p/Q⌋ groups on Q processes (suites/imb/run.go, Driver.records;
// analysis/result/layout.go, Layout). single and coll are the numbers of
// single-transfer and collective benchmarks, each with lens lengths.
func imbScaleRecords(p, single, coll, lens int) int {
	n := single * (p / 2) * lens // single transfers run on Q = 2 only
	for _, q := range imbCounts(p) {
		n += coll * (p / q) * lens
	}
	return n
}

// TestIMBScale runs mpi1 with -multi 1 at 32 ranks and holds the record
// count and the file's size to the model of docs/scale.md: Σ ⌊P/Q⌋ records
// per length over the process counts, at most 400 bytes each (about 300)
// after a header under 4 KiB.
func TestIMBScale(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Scale)
	const np = 32
	dir := t.TempDir()
	lens := filepath.Join(dir, "lengths.txt")
	if err := os.WriteFile(lens, []byte("0\n1024\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(dir, "imb.jsonl")
	e2e.MustSucceed(t, e2e.Launch(t, np, "mpi1", "PingPong", "Allreduce", "-multi", "1", "-msglen", lens,
		"-iter", "10", "-time", "off", "-json", js))
	recs := e2e.ReadRecords(t, js)
	want := imbScaleRecords(np, 1, 1, 2) // 16·2 + (16+8+4+2+1)·2 = 94
	if len(recs) != want {
		t.Fatalf("%d records at %d ranks, want the model's %d", len(recs), np, want)
	}
	per := map[[2]int]int{} // (np, bytes) -> records of Allreduce
	for _, r := range recs {
		if r.Benchmark == "Allreduce" {
			per[[2]int{r.NP, r.Bytes}]++
		}
	}
	for _, q := range imbCounts(np) {
		for _, x := range []int{0, 1024} {
			if got := per[[2]int{q, x}]; got != np/q {
				t.Errorf("Allreduce on %d of %d ranks at %d bytes: %d records, want one per group, %d", q, np, x, got, np/q)
			}
		}
	}
	st, err := os.Stat(js)
	if err != nil {
		t.Fatal(err)
	}
	if limit := int64(4096 + 400*want); st.Size() > limit {
		t.Errorf("%d bytes at %d ranks, over the model's %d", st.Size(), np, limit)
	}
}
