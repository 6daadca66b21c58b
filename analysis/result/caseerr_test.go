package result

import (
	"errors"
	"io/fs"
	"testing"
)

func TestCaseErrorText(t *testing.T) {
	inner := fs.ErrClosed
	for _, c := range []struct {
		ce   CaseError
		want string
	}{
		{CaseError{Suite: "mpi1", Bench: "PingPong", Bytes: 4096, Procs: 2},
			"PingPong, 4096 bytes, 2 processes: file already closed"},
		{CaseError{Suite: "io", Bench: "P_Write_Indv", Mode: "non-blocking", Bytes: 1, Procs: 4},
			"P_Write_Indv (non-blocking), 1 byte, 4 processes: file already closed"},
		{CaseError{Suite: "mpi1", Bench: "Unidir_Put", Bytes: -1, Procs: 3},
			"Unidir_Put, 3 processes: file already closed"},
		{CaseError{Suite: "mpi1", Bench: "Barrier", Bytes: 0, Procs: 2},
			"Barrier, 0 bytes, 2 processes: file already closed"},
	} {
		err := InCase(inner, c.ce)
		if got := err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
		if !errors.Is(err, fs.ErrClosed) {
			t.Errorf("%v: errors.Is does not see the wrapped error", err)
		}
	}
}

// InCase keeps nil and the innermost case.
func TestInCase(t *testing.T) {
	if err := InCase(nil, CaseError{Bench: "x"}); err != nil {
		t.Errorf("InCase(nil) = %v", err)
	}
	inner := InCase(fs.ErrClosed, CaseError{Bench: "inner", Bytes: 8, Procs: 2})
	outer := InCase(inner, CaseError{Bench: "outer", Bytes: -1, Procs: 2})
	var ce *CaseError
	if !errors.As(outer, &ce) || ce.Bench != "inner" || outer != inner {
		t.Errorf("InCase wrapped a case error again: %v", outer)
	}
}
