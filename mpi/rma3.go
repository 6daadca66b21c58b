//go:build cgo && !nompi

package mpi

// #include "rma3.h"
import "C"

// Exec runs the sample in C and returns this rank's time per repetition
// (-1 when it issued no transfer; Truly_passive_put: t_ovrl, and t_pure in
// TPure); check runs the checked instantiation, whose time is no benchmark
// data, and returns the wrong items it found.
func (r *RMA3Run) Exec(check bool) (RMA3Times, error) {
	if err := r.fits(check); err != nil {
		return RMA3Times{}, err
	}
	k := C.mb_rma3{comm: r.Comm.c, flow: C.int(r.Flow), op: C.int(r.Op), bidir: rmaFlag(r.Bidir),
		local: rmaFlag(r.Local), aggregate: rmaFlag(r.Aggregate), obuf: r.Origin.p, wbuf: r.Window.p,
		wsize: C.MPI_Aint(r.WinSize), count: C.int(r.Count), nrep: C.int(r.Reps), nwarm: C.int(r.Warm),
		nbarr: C.int(r.Barriers), cpu_rate: C.double(r.CPURate)}
	var t, tp C.double
	var bad C.longlong
	if rc := C.mb_rma3_run(&k, rmaFlag(check), &t, &tp, &bad); rc != C.MPI_SUCCESS {
		return RMA3Times{}, kernelError("IMB-RMA kernel", rc)
	}
	return RMA3Times{T: float64(t), TPure: float64(tp), Defects: int(bad)}, nil
}

// fits guards the C loop: a checked run moves Reps·size slots of Count
// items through both buffers, a timed run one Count at offset 0.
func (r *RMA3Run) fits(check bool) error {
	need := r.Count * r.Op.Unit() * r.Flow.Blocks()
	if check {
		need *= r.Reps * r.Comm.Size()
	}
	if need > r.Origin.n || need > r.Window.n || r.WinSize > r.Window.n || r.WinSize < need {
		return &Error{Call: "IMB-RMA kernel", Code: -1, Text: "transfers beyond the origin buffer or the window"}
	}
	return nil
}
