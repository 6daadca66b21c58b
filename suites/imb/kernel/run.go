//go:build cgo && !nompi

package kernel

/*
#include "kernels.h"
#include "winloops.h"
*/
import "C"

import "mpibench/mpi"

// Exec runs the kernel: barriers, then Reps repetitions between two
// MPI_Wtime calls, all in C. It returns the time per repetition in seconds.
func (r *Run) Exec() (float64, error) {
	if r.Kernel >= firstKernel2021 {
		t, _, err := r.exec2021(false)
		return t, err
	}
	k := r.kernel()
	var t C.double
	var rc C.int
	if r.IMB2021 {
		rc = C.mb_run21(&k, &t)
	} else {
		rc = C.mb_run(&k, &t)
	}
	if rc != C.MPI_SUCCESS {
		return 0, mpi.KernelError("kernel", int(rc))
	}
	return float64(t), nil
}

// ExecCheck runs the same loop in check mode: every repetition carries
// this rank's content of that repetition into poisoned receive buffers and
// is verified in C. It returns the time per repetition (not benchmark
// data) and the items (bytes, or floats for reductions) this rank received
// wrong in all repetitions.
func (r *Run) ExecCheck() (float64, int, error) {
	if r.Kernel >= firstKernel2021 {
		return r.exec2021(true)
	}
	k := r.kernel()
	var t C.double
	var bad C.longlong
	var rc C.int
	if r.IMB2021 {
		rc = C.mb_run21_check(&k, &t, &bad)
	} else {
		rc = C.mb_run_check(&k, &t, &bad)
	}
	if rc != C.MPI_SUCCESS {
		return 0, 0, mpi.KernelError("kernel", int(rc))
	}
	return float64(t), int(bad), nil
}

func (r *Run) kernel() C.mb_kernel {
	return C.mb_kernel{
		comm:   comm(r.Comm),
		kind:   C.int(r.Kernel),
		sbuf:   r.Send.Ptr(),
		rbuf:   r.Recv.Ptr(),
		count:  C.int(r.Count),
		counts: (*C.int)(r.Counts.Ptr()),
		displs: (*C.int)(r.Displs.Ptr()),
		nrep:   C.int(r.Reps),
		root0:  C.int(r.Root0),
		nbarr:  C.int(r.Barriers),
		// mb_run21 only
		sync:       cBool(!r.NoSync),
		root_shift: cBool(r.RootShift),
		// IMB 2021's -data_type, -red_data_type and -off_cache
		_type:  C.int(r.Type),
		s_iter: C.int(r.Slots.SIter), r_iter: C.int(r.Slots.RIter),
		s_offs: C.longlong(r.Slots.SOffs), r_offs: C.longlong(r.Slots.ROffs),
		// -imb_barrier
		imb_barrier: cBool(r.IMBBarrier),
	}
}

// ExecWindow runs the window loop of r's collective (an IMB-MPI1 kernel).
func (r *Run) ExecWindow(l *mpi.WinLoop) error {
	k := r.kernel()
	if rc := C.mb_win_mpi1(&k, (*C.mb_win)(l.Ptr())); rc != C.MPI_SUCCESS {
		return mpi.KernelError("window loop", int(rc))
	}
	return nil
}

// ExecWindow runs the window loop of r's non-blocking collective: the
// call and its MPI_Wait per repetition.
func (r *NBCRun) ExecWindow(l *mpi.WinLoop) error {
	w := (*C.mb_win)(l.Ptr())
	k := C.mb_nbc{comm: comm(r.Comm), kind: C.int(r.Kind), sbuf: r.Send.Ptr(), rbuf: r.Recv.Ptr(),
		count: C.int(r.Count), counts: (*C.int)(r.Counts.Ptr()), displs: (*C.int)(r.Displs.Ptr()), nrep: w.nrep}
	if rc := C.mb_win_nbc(&k, w); rc != C.MPI_SUCCESS {
		return mpi.KernelError("window loop", int(rc))
	}
	return nil
}
