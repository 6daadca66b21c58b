//go:build cgo && !nompi

package mpi

/*
#include <mpi.h>
#include "rmawin.h"

static MPI_Win mb_win_null(void) { return MPI_WIN_NULL; }
static int mb_win_is_null(MPI_Win w) { return w == MPI_WIN_NULL; }
*/
import "C"

// Win is an opaque one-sided communication window.
type Win struct{ w C.MPI_Win }

// WinCreate creates a window over the first size bytes of buf on c, as
// IMB-EXT prepares one (section 5.2.3.1): MPI_Win_create with the info of
// IMB's User_Set_Info hook (MPI_INFO_NULL), displacement unit dispUnit,
// MPI_ERRORS_RETURN on the window, then MPI_Win_fence to start the first
// epoch. Collective over c.
func (c Comm) WinCreate(buf Buffer, size, dispUnit int) (Win, error) {
	var w C.MPI_Win
	if size > buf.n {
		return Win{C.mb_win_null()}, &Error{Call: "MPI_Win_create", Code: -1, Text: "window larger than its buffer"}
	}
	if rc := C.mb_win_open(buf.p, C.MPI_Aint(size), C.int(dispUnit), c.c, &w); rc != C.MPI_SUCCESS {
		return Win{C.mb_win_null()}, mpiError("MPI_Win_create", rc)
	}
	return Win{w}, nil
}

// Free is MPI_Win_free; a null window is ignored. Collective.
func (w *Win) Free() error {
	if C.mb_win_is_null(w.w) != 0 {
		return nil
	}
	if rc := C.MPI_Win_free(&w.w); rc != C.MPI_SUCCESS {
		return mpiError("MPI_Win_free", rc)
	}
	return nil
}
