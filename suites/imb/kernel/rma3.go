//go:build cgo && !nompi

package kernel

// #include "rma3.h"
import "C"

import "mpibench/mpi"

// Exec runs the sample in C and returns this rank's time per repetition
// (-1 when it issued no transfer; Truly_passive_put: t_ovrl, and t_pure in
// TPure); check runs the checked instantiation, whose time is no benchmark
// data, and returns the wrong items it found.
func (r *RMA3Run) Exec(check bool) (RMA3Times, error) {
	k := C.mb_rma3{comm: comm(r.Comm), flow: C.int(r.Flow), op: C.int(r.Op), bidir: cBool(r.Bidir),
		local: cBool(r.Local), aggregate: cBool(r.Aggregate), obuf: r.Origin.Ptr(), wbuf: r.Window.Ptr(),
		wsize: C.MPI_Aint(r.WinSize), count: C.int(r.Count), nrep: C.int(r.Reps), nwarm: C.int(r.Warm),
		nbarr: C.int(r.Barriers), cpu_rate: C.double(r.CPURate),
		s_iter: C.int(r.Slots.SIter), r_iter: C.int(r.Slots.RIter),
		s_offs: C.longlong(r.Slots.SOffs), r_offs: C.longlong(r.Slots.ROffs)}
	if err := r.fits(check, &k); err != nil {
		return RMA3Times{}, err
	}
	var t, tp C.double
	var bad C.longlong
	if rc := C.mb_rma3_run(&k, cBool(check), &t, &tp, &bad); rc != C.MPI_SUCCESS {
		return RMA3Times{}, mpi.KernelError("IMB-RMA kernel", int(rc))
	}
	return RMA3Times{T: float64(t), TPure: float64(tp), Defects: int(bad)}, nil
}

// fits guards the C loop: a checked run moves mb_rma3_span bytes through
// both buffers (Reps·size slots of Count items, or their -off_cache
// pages), a timed run one Count at offset 0, or under -off_cache IMB's
// acc_size, every slot.
func (r *RMA3Run) fits(check bool, k *C.mb_rma3) error {
	need := r.Count * r.Op.Unit() * r.Flow.Blocks()
	sl := r.Slots
	switch {
	case check:
		need = int(C.mb_rma3_span(k, C.int(r.Comm.Size())))
	case sl.SIter > 0:
		need = max(sl.SIter*sl.SOffs, sl.RIter*sl.ROffs)
	}
	bad := sl.SIter > 0 && (sl.RIter < 1 || min(sl.SOffs, sl.ROffs) < r.Count*r.Op.Unit())
	if bad || need > r.Origin.Len() || need > r.Window.Len() || r.WinSize > r.Window.Len() || r.WinSize < need {
		return &mpi.Error{Call: "IMB-RMA kernel", Code: -1, Text: "transfers beyond the origin buffer or the window"}
	}
	return nil
}
