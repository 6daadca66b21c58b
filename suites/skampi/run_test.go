package skampi

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/mpi"
)

// An MPI error names the suite, the measurement, the point's length and
// process count, and the rank; it stays an error that ends the job.
func TestCaseError(t *testing.T) {
	m := &Measurement{Name: "Bcast", Pattern: Collective, Op: "Bcast", Len: 256}
	mpiErr := &mpi.Error{Call: "MPI_Bcast", Code: 5, Text: "MPI_ERR_COUNT"}
	for _, c := range []struct {
		err  error
		want string
	}{
		{atPoint(fmt.Errorf("kernel: %w", mpiErr), 1024, 3),
			"Bcast, 1024 bytes, 3 processes: kernel: MPI_Bcast: MPI_ERR_COUNT (MPI error 5)"},
		// Outside a point: the measurement's length on the world.
		{mpiErr, "Bcast, 256 bytes, 4 processes: MPI_Bcast"},
		// The innermost point is kept.
		{atPoint(atPoint(mpiErr, 8, 2), 4096, 4), "Bcast, 8 bytes, 2 processes: MPI_Bcast"},
	} {
		err := caseError(m, 4, c.err)
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %q, want %q", err, c.want)
		}
		if !mpi.EndsJob(err) {
			t.Errorf("%q: mpi.EndsJob lost the MPI error", err)
		}
	}
	if atPoint(nil, 1, 2) != nil {
		t.Error("atPoint(nil) is not nil")
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// Text returns the write error of its output; what it writes is one
// table per measurement.
func TestTextErrorAndShape(t *testing.T) {
	recs := []result.Record{{Suite: Name, Benchmark: "A", SkampiFigures: result.SkampiFigures{Param: OverBytes}, Stats: &stats.Summary{N: 1}}}
	if err := Text(failWriter{}, recs); err == nil || err.Error() != "disk full" {
		t.Errorf("Text: %v, want the write's error", err)
	}
	var b bytes.Buffer
	if err := Text(&b, recs); err != nil || !strings.HasPrefix(b.String(), "#---") || !strings.HasSuffix(b.String(), "\n\n") {
		t.Errorf("Text: %v\n%s", err, b.String())
	}
}
