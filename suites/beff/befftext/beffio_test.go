package befftext

import (
	"fmt"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// beffioRecords are b_eff_io records of every type and access method on
// 2 processes, with a summary.
func beffioRecords() []result.Record {
	types := []string{"scatter", "shared", "separated", "segmented", "seg_coll"}
	var recs []result.Record
	sizes := []int{0, 1024, 1032, 32768, 32776, 1 << 20, 1<<20 + 8, 2 << 20}
	for _, acc := range []string{"write", "rewrite", "read"} {
		for ti, ty := range types {
			for pos := 1; pos <= 7; pos++ {
				recs = append(recs, result.Record{Suite: "beffio", Benchmark: fmt.Sprintf("p%02d", ti*9+pos),
					Class: ty, Mode: acc, NProcs: 2, Bytes: sizes[pos], Reps: 3, TMax: 1e6, BeffIOFigures: result.BeffIOFigures{MemBytes: sizes[pos], Pos: pos, IOBytes: int64(6 * sizes[pos]), IOMBps: float64(100*ti + pos)}})
			}
			recs = append(recs, result.Record{Suite: "beffio", Benchmark: "total", Class: ty, Mode: acc,
				NProcs: 2, TMax: 2e6, BeffIOFigures: result.BeffIOFigures{IOBytes: 4e6, IOMBps: 2}})
		}
		recs = append(recs, result.Record{Suite: "beffio", Benchmark: "p02", Class: "scatter", Mode: acc,
			NProcs: 2, Bytes: 1 << 20, BeffIOFigures: result.BeffIOFigures{MemBytes: 2 << 20, Pos: 8, IOMBps: 77.5}})
	}
	recs = append(recs, result.Record{Suite: "beffio", Benchmark: "b_eff_io", Class: "summary",
		Context: result.Context{Tool: "mpibench test", Args: []string{"beffio"}, Procs: 2,
			Start: "2026-01-02T03:04:05Z", MPILibrary: "MPICH Version: 4.0.2", Hosts: []string{"node1"}},
		BeffIOFigures: result.BeffIOFigures{BeffIO: &result.BeffIOSummary{BeffIO: 63.25, Procs: 2, MemMB: 128, MPart: 2 << 20, T: 900, SumU: 64,
			Uname: "Linux host", Accesses: []string{"write", "rewrite", "read"}, Types: types,
			Partitions: []result.BeffIOPartition{{Procs: 2, T: 900, Access: [3]float64{10, 20, 30}, Value: 63.25,
				Types: [3][]float64{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, {11, 12, 13, 14, 15}}}}}}})
	return recs
}

func TestBeffIOText(t *testing.T) {
	recs := beffioRecords()
	var b strings.Builder
	if err := BeffIOText(&b, recs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if want := " b_eff_io =   63.250 MB/s on 2 processes with 128 MByte/PE, scheduled time=15.00 Min, on Linux host"; last != want {
		t.Errorf("last line\n%q, want\n%q", last, want)
	}
	for _, want := range []string{
		"   2 PEs 4    32776 rewrite    4.000  104.000  204.000  304.000  404.000",
		"   2 PEs   total-read         11.000   12.000   13.000   14.000   15.000",
		"bw_pat2=   77.500 MB/s write,   77.500 MB/s rewrite,   77.500 MB/s read",
		"weighted average bandwidth for rewrite :   20.000 MB/s on 2 processes",
		"p41  seg_coll",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if err := BeffIOText(&b, recs[:3]); err == nil {
		t.Error("no error without a summary record")
	}
}

// TestBeffIOTextCut: a time-driven pattern that stopped at the -disk
// bound is marked on its row, and a line under the patterns says what the
// mark means (issue 26: only one stderr line said so).
func TestBeffIOTextCut(t *testing.T) {
	recs := beffioRecords()
	var plain strings.Builder
	if err := BeffIOText(&plain, recs); err != nil {
		t.Fatal(err)
	}
	recs[1].Cut = result.CutDisk
	var b strings.Builder
	if err := BeffIOText(&b, recs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var marked []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, "  < -disk") {
			marked = append(marked, line)
		}
	}
	if len(marked) != 1 || !strings.HasPrefix(marked[0], "p02  scatter") ||
		!strings.Contains(out, "# < -disk: 1 time-driven patterns stopped at the -disk bound") {
		t.Errorf("marked rows %q:\n%s", marked, out)
	}
	if strings.Contains(plain.String(), "-disk") {
		t.Errorf("a run without cuts mentions -disk:\n%s", plain.String())
	}
}
