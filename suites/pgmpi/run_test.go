package pgmpi

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/mpi"
)

// An MPI error names the suite, the call, the volume, the process count
// and the rank; it stays an error that ends the job.
func TestCaseError(t *testing.T) {
	mpiErr := &mpi.Error{Call: "MPI_Allreduce", Code: 5, Text: "MPI_ERR_COUNT"}
	err := caseError("Allreduce_as_Reduce_Bcast", 1024, 4, fmt.Errorf("kernel: %w", mpiErr))
	want := "Allreduce_as_Reduce_Bcast, 1024 bytes, 4 processes: kernel: MPI_Allreduce: MPI_ERR_COUNT"
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %q, want %q", err, want)
	}
	if !mpi.EndsJob(err) {
		t.Errorf("%q: mpi.EndsJob lost the MPI error", err)
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// printMeasured returns its write's error.
func TestPrintMeasuredWriteError(t *testing.T) {
	r := &result.Record{Benchmark: "MPI_Bcast", Bytes: 16, Reps: 2, Samples: []float64{1, 2}}
	if err := printMeasured(failWriter{}, r); err == nil {
		t.Error("the write's error was dropped")
	}
	var b strings.Builder
	r.Stats = &stats.Summary{Median: 1.5, Mean: 1.5}
	if err := printMeasured(&b, r); err != nil || !strings.Contains(b.String(), "median       1.50 us") {
		t.Errorf("%v: %q", err, b.String())
	}
}

// -json is the predictions file's flag as in every suite; -o, its older
// name, sets the same file.
func TestNrepJSONAlias(t *testing.T) {
	dir := t.TempDir()
	for _, flag := range []string{"-json", "-o"} {
		out := dir + "/n" + flag + ".json"
		cfg, _, err := parseNrep([]string{"-calls", "MPI_Bcast", flag, out}, 2, false)
		if err != nil || cfg.Out != out {
			t.Errorf("%s: out %q, %v", flag, cfg.Out, err)
		}
	}
}

// A predictions file that cannot be written is named by -json in the
// message, whichever spelling was given.
func TestNrepJSONMessage(t *testing.T) {
	out := t.TempDir() + "/missing/nrep.json"
	for _, flag := range []string{"-json", "-o"} {
		_, _, err := parseNrep([]string{"-calls", "MPI_Bcast", flag, out}, 2, false)
		if err == nil || !strings.HasPrefix(err.Error(), "-json: ") {
			t.Errorf("%s %s: %v", flag, out, err)
		}
	}
}
