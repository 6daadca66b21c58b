package result

import (
	"errors"
	"fmt"
	"strings"
)

// CaseError is an error met inside one measured case (a timed loop, a
// check loop, the file I/O of a case) with what names the case: a user
// who reads "kernel: MPI_ERR_RANK" cannot tell which of hundreds of cases
// failed. The rank is said by whoever prints it (every rank prints its
// own error with its rank); errors.As and errors.Is see through it to the
// MPI error, so mpi.EndsJob still decides that the job must be aborted.
type CaseError struct {
	Suite string // "mpi1", "beff": kept for callers; the printed line names it before the rank
	Bench string // "PingPong", "ring-4", "p05"
	Mode  string // "non-blocking", "Sendrecv", "write"; "" for none
	Bytes int    // the case's length; negative: a step of the case with no length (setup)
	Procs int
	Err   error
}

// Error reads "PingPong, 4096 bytes, 2 processes: MPI_Send: ..." or, with
// a mode, "P_Write_indv (non-blocking), 4096 bytes, 2 processes: ...".
func (e *CaseError) Error() string {
	var b strings.Builder
	b.WriteString(e.Bench)
	if e.Mode != "" {
		fmt.Fprintf(&b, " (%s)", e.Mode)
	}
	switch {
	case e.Bytes == 1:
		b.WriteString(", 1 byte")
	case e.Bytes >= 0:
		fmt.Fprintf(&b, ", %d bytes", e.Bytes)
	}
	fmt.Fprintf(&b, ", %d processes: %v", e.Procs, e.Err)
	return b.String()
}

func (e *CaseError) Unwrap() error { return e.Err }

// InCase returns err with the case c around it: nil for nil, and err as
// it is when it already names a case (an inner step wrapped it).
func InCase(err error, c CaseError) error {
	var ce *CaseError
	if err == nil || errors.As(err, &ce) {
		return err
	}
	c.Err = err
	return &c
}
