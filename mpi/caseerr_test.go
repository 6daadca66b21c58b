package mpi_test

import (
	"errors"
	"testing"

	"mpibench/analysis/result"
	"mpibench/mpi"
)

// A case around an MPI error or a LocalError still ends the job.
func TestEndsJobThroughCase(t *testing.T) {
	c := result.CaseError{Suite: "mpi1", Bench: "PingPong", Bytes: 4, Procs: 2}
	for _, err := range []error{&mpi.Error{Call: "MPI_Send", Code: 6, Text: "MPI_ERR_RANK"},
		&mpi.LocalError{Err: errors.New("short write")}} {
		if !mpi.EndsJob(result.InCase(err, c)) {
			t.Errorf("EndsJob(%v in a case) = false", err)
		}
	}
	if mpi.EndsJob(result.InCase(errors.New("agreed"), c)) {
		t.Error("EndsJob of a plain error in a case = true")
	}
}
