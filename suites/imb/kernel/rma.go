//go:build cgo && !nompi

package kernel

// #include "rma.h"
import "C"

import "mpibench/mpi"

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
		win: win(r.Win), comm: comm(r.Comm), op: C.int(r.Op), obuf: r.Origin.Ptr(),
		count: C.int(r.Count), stride: C.int(r.Stride), target: C.int(r.Target),
		nrep: C.int(r.Reps), aggregate: cBool(r.Aggregate), open_fence: cBool(r.OpenFence),
		nbarr: C.int(r.Barriers), imb2021: cBool(r.IMB2021), wbuf: r.Window.Ptr(), wcount: C.MPI_Aint(r.WinItems),
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
		return 0, 0, mpi.KernelError("one-sided kernel", int(rc))
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
			return &mpi.Error{Call: "one-sided kernel", Code: -1, Text: "-off_cache slots smaller than a transfer"}
		}
	}
	if r.Reps > 0 && (end > r.Origin.Len() || end > r.Window.Len() || r.WinItems*unit > r.Window.Len()) {
		return &mpi.Error{Call: "one-sided kernel", Code: -1, Text: "transfers beyond the origin buffer or the window"}
	}
	return nil
}

// Exec runs the cycles in C and returns the time per cycle in seconds.
func (r *WinRun) Exec() (float64, error) {
	if r.Size > r.Base.Len() || r.Src.Len() < 1 && r.Size > 0 {
		return 0, &mpi.Error{Call: "MPI_Win_create", Code: -1, Text: "window larger than its buffer"}
	}
	k := C.mb_window{
		comm:  comm(r.Comm),
		base:  r.Base.Ptr(),
		src:   r.Src.Ptr(),
		size:  C.MPI_Aint(r.Size),
		nrep:  C.int(r.Reps),
		nbarr: C.int(r.Barriers),
	}
	var t C.double
	if rc := C.mb_window_run(&k, &t); rc != C.MPI_SUCCESS {
		return 0, mpi.KernelError("Window kernel", int(rc))
	}
	return float64(t), nil
}
