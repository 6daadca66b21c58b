package skampi

import (
	"errors"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/internal/golden"
)

// goldenRecords are SKaMPI records of each kind of table: a ping-pong over
// bytes with its pair, a collective over processes, a simple measurement
// over nothing, and a record without statistics (which prints no row).
func goldenRecords() []result.Record {
	s := func(x float64) *stats.Summary {
		return &stats.Summary{N: 8 + int(x)%5, Trimmed: x, TrimmedStdErr: x / 100, Min: 0.9 * x, Median: x,
			Max: 1.5 * x}
	}
	var recs []result.Record
	for i, x := range []int{0, 1024, 65536} {
		recs = append(recs, result.Record{Suite: "skampi", Benchmark: "Pingpong_Send_Recv", Class: PingPong,
			Mode: "MPI_Send/MPI_Recv", Groups: [][]int{{0, 1}}, NProcs: 2,
			Stats: s(2.5 + 3*float64(i)), SkampiFigures: result.SkampiFigures{Param: OverBytes, Epsilon: 0.03, X: x, Reached: i < 2}})
	}
	for _, p := range []int{2, 3, 4} {
		recs = append(recs, result.Record{Suite: "skampi", Benchmark: "Bcast_procs", Class: Collective,
			Mode: "MPI_Bcast", NProcs: p, Stats: s(float64(4 * p)),
			SkampiFigures: result.SkampiFigures{Param: OverProcs, Epsilon: 0.05, X: p, Reached: true}})
	}
	recs = append(recs,
		result.Record{Suite: "skampi", Benchmark: "Wtime", Class: Simple, Mode: "MPI_Wtime", NProcs: 4, Stats: s(0.04), SkampiFigures: result.SkampiFigures{Param: OverNone, Epsilon: 0.1, Reached: true}},
		result.Record{Suite: "skampi", Benchmark: "Wtime", Class: Simple, Mode: "MPI_Wtime", NProcs: 4, SkampiFigures: result.SkampiFigures{Param: OverNone, Epsilon: 0.1, X: 1}})
	return recs
}

// TestTextGolden: skampi.Text matches testdata/text.golden line for line
// (go test -update rewrites it after a deliberate change of format).
func TestTextGolden(t *testing.T) {
	var b strings.Builder
	if err := Text(&b, goldenRecords()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/text.golden", b.String())
}

// A failed write reaches the caller of Text.
func TestTextWriteError(t *testing.T) {
	if err := Text(golden.Full{}, goldenRecords()); !errors.Is(err, golden.ErrFull) {
		t.Errorf("Text on a full disk: %v, want %v", err, golden.ErrFull)
	}
}
