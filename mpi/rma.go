//go:build cgo && !nompi

package mpi

/*
#include <mpi.h>
#include "rma.h"

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

// Exec runs the pattern in C and returns the time per transfer in seconds.
func (r *RMARun) Exec() (float64, error) {
	t, _, err := r.exec(false)
	return t, err
}

// Check runs the same loop with results checking (mb_rma_check) and
// returns its time, not benchmark data, and the wrong items it found.
func (r *RMARun) Check() (float64, int, error) {
	return r.exec(true)
}

func (r *RMARun) exec(check bool) (float64, int, error) {
	if err := r.fits(); err != nil {
		return 0, 0, err
	}
	k := C.mb_rma{
		win: r.Win.w, comm: r.Comm.c, op: C.int(r.Op), obuf: r.Origin.p,
		count: C.int(r.Count), stride: C.int(r.Stride), target: C.int(r.Target),
		nrep: C.int(r.Reps), aggregate: rmaFlag(r.Aggregate), open_fence: rmaFlag(r.OpenFence),
		nbarr: C.int(r.Barriers), imb2021: rmaFlag(r.IMB2021), wbuf: r.Window.p, wcount: C.MPI_Aint(r.WinItems),
		rank: C.int(r.Rank), src: C.int(r.Source), nacc: C.int(r.Summands),
		s_iter: C.int(r.Slots.SIter), r_iter: C.int(r.Slots.RIter),
		s_offs: C.longlong(r.Slots.SOffs), r_offs: C.longlong(r.Slots.ROffs),
	}
	var t C.double
	var bad C.longlong
	rc := C.int(0)
	if check {
		rc = C.mb_rma_check(&k, &t, &bad)
	} else {
		rc = C.mb_rma_run(&k, &t)
	}
	if rc != C.MPI_SUCCESS {
		return 0, 0, kernelError("one-sided kernel", rc)
	}
	return float64(t), int(bad), nil
}

// fits guards the C loop against a transfer beyond the origin buffer or,
// in a checked run, beyond the window memory the check prepares; the
// remote window is guarded by MPI, which rejects a displacement outside it.
func (r *RMARun) fits() error {
	unit := 1
	if r.Op == RMAAccumulate {
		unit = 4
	}
	end := ((r.Reps-1)*r.Stride + r.Count) * unit
	if sl := r.Slots; sl.SIter > 0 { // every slot lies in both buffers (rma.c, o_at, w_at)
		end = max(sl.SIter*sl.SOffs, sl.RIter*sl.ROffs)
		if sl.RIter < 1 || sl.SOffs < r.Count*unit || sl.ROffs < r.Count*unit {
			return &Error{Call: "one-sided kernel", Code: -1, Text: "-off_cache slots smaller than a transfer"}
		}
	}
	if r.Reps > 0 && (end > r.Origin.n || end > r.Window.n || r.WinItems*unit > r.Window.n) {
		return &Error{Call: "one-sided kernel", Code: -1, Text: "transfers beyond the origin buffer or the window"}
	}
	return nil
}

// Exec runs the cycles in C and returns the time per cycle in seconds.
func (r *WinRun) Exec() (float64, error) {
	if r.Size > r.Base.n || r.Src.n < 1 && r.Size > 0 {
		return 0, &Error{Call: "MPI_Win_create", Code: -1, Text: "window larger than its buffer"}
	}
	k := C.mb_window{
		comm:  r.Comm.c,
		base:  r.Base.p,
		src:   r.Src.p,
		size:  C.MPI_Aint(r.Size),
		nrep:  C.int(r.Reps),
		nbarr: C.int(r.Barriers),
	}
	var t C.double
	if rc := C.mb_window_run(&k, &t); rc != C.MPI_SUCCESS {
		return 0, kernelError("Window kernel", rc)
	}
	return float64(t), nil
}

func rmaFlag(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
