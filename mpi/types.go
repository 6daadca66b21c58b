package mpi

// This file holds the declarations of package mpi that need no MPI: the
// plain types, constants and run descriptions. Both builds share them, the
// cgo one (mpi.go and the others, `cgo && !nompi`) and the analysis-only
// one without MPI (nompi.go), so that the two cannot drift apart.

import (
	"errors"
	"fmt"
)

// ErrNoMPI is Init's error in a binary built without MPI (-tags nompi or
// CGO_ENABLED=0): such a binary only analyses records. The MPI build never
// returns it.
var ErrNoMPI = errors.New("this binary was built without MPI (-tags nompi or CGO_ENABLED=0) and only " +
	"analyses records (report, merge, guidelines check, list); to run benchmarks, install Open MPI or " +
	"MPICH with its development files and build with `go build ./cmd/mpibench` " +
	"(MPICH: `go build -tags mpich ./cmd/mpibench`)")

// ThreadLevel is the thread support the MPI library provided.
type ThreadLevel int

// ThreadLevelNames are IMB's -thread_level values, lowest level first.
var ThreadLevelNames = []string{"single", "funneled", "serialized", "multiple"}

// threadLevelIndex is the index of name in ThreadLevelNames.
func threadLevelIndex(name string) (int, error) {
	for i, n := range ThreadLevelNames {
		if n == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("-thread_level %q: want single, funneled, serialized or multiple", name)
}

// LocalError is an error this process met alone, outside MPI (a file it
// refused to open), at a point where the other processes may wait for it
// in MPI: like an MPI error, it must end the whole job.
type LocalError struct{ Err error }

func (e *LocalError) Error() string { return e.Err.Error() }
func (e *LocalError) Unwrap() error { return e.Err }

// Error is an MPI error code with the name of the call that returned it.
type Error struct {
	Call string
	Code int
	Text string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s (MPI error %d)", e.Call, e.Text, e.Code) }

// EndsJob tells whether err was met by this process alone (an MPI error or
// a LocalError), so that the others cannot be told and the job must be
// aborted.
func EndsJob(err error) bool {
	var me *Error
	var le *LocalError
	return errors.As(err, &me) || errors.As(err, &le)
}

// ControlVar is one of the library's MPI_T control variables (mpit.go):
// its name (MPICH: "MPIR_CVAR_BCAST_INTRA_ALGORITHM") and its description
// as the library hands it out.
type ControlVar struct {
	Name string
	Desc string
}
