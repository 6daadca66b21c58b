//go:build cgo && !nompi

package kernel

// #include "nbc.h"
import "C"

import "mpibench/mpi"

// Exec runs the loop in C; check runs the checked instantiation, whose
// times are not benchmark data.
func (r *NBCRun) Exec(check bool) (NBCTimes, error) {
	k := C.mb_nbc{comm: comm(r.Comm), kind: C.int(r.Kind), sbuf: r.Send.Ptr(), rbuf: r.Recv.Ptr(),
		count: C.int(r.Count), counts: (*C.int)(r.Counts.Ptr()), displs: (*C.int)(r.Displs.Ptr()),
		nrep: C.int(r.Reps), nbarr: C.int(r.Barriers), sync: C.int(r.Sync), cpu: C.longlong(r.CPU),
		imb_barrier: cBool(r.IMBBarrier), root_shift: cBool(r.RootShift),
		s_iter: C.int(r.Slots.SIter), r_iter: C.int(r.Slots.RIter),
		s_offs: C.longlong(r.Slots.SOffs), r_offs: C.longlong(r.Slots.ROffs)}
	if r.Persist {
		k.persist = 1
	}
	chk := C.int(0)
	if check {
		chk = 1
	}
	var t, tc C.double
	var bad C.longlong
	if rc := C.mb_nbc_run(&k, chk, &t, &tc, &bad); rc != C.MPI_SUCCESS {
		return NBCTimes{}, mpi.KernelError("non-blocking collective", int(rc))
	}
	return NBCTimes{T: float64(t), TCPU: float64(tc), Defects: int(bad)}, nil
}

// NBCCPURate calibrates IMB-NBC's CPU work once and returns its passes
// per second of undisturbed CPU time and its Mflop/s.
func NBCCPURate() (rate, mflops float64) {
	var m C.double
	r := C.mb_nbc_cpu_rate(&m)
	return float64(r), float64(m)
}

// forgetNBCCPURate drops the calibration, so that the next NBCCPURate
// measures again: a test's retry after the machine's load changed.
func forgetNBCCPURate() { C.mb_nbc_cpu_forget() }

// NBCCPU runs n passes of the CPU work (tests of the calibration).
func NBCCPU(n int64) { C.mb_nbc_cpu(C.longlong(n)) }
