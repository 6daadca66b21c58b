//go:build cgo && !nompi

package mpi

// #include "bigcount.h"
import "C"

import (
	"slices"
	"unsafe"
)

// BigRun describes one execution of a kernel at Items items, a count that
// may pass a C int (bigcount.h): Run's fields but Count, Counts and
// Displs, which it does not use. PingPong and Bcast use Send alone.
type BigRun struct {
	Run
	Items int64 // items per process: bytes, or floats for reductions
}

// Exec runs the kernel and returns the time per repetition in seconds.
func (r *BigRun) Exec() (float64, error) {
	t, _, err := r.exec(false)
	return t, err
}

// ExecCheck runs it in check mode: the time (not benchmark data) and the
// items this rank received wrong in all repetitions.
func (r *BigRun) ExecCheck() (float64, int, error) {
	return r.exec(true)
}

func (r *BigRun) exec(check bool) (float64, int, error) {
	kind := slices.Index(BigKernels, r.Kernel)
	if kind < 0 {
		return 0, 0, kernelError("no large-count kernel", C.MPI_ERR_ARG)
	}
	k := C.mb_bigkernel{comm: r.Comm.c, kind: C.int(kind), sbuf: r.Send.p, rbuf: r.Recv.p, n: C.longlong(r.Items),
		nrep: C.int(r.Reps), root0: C.int(r.Root0), nbarr: C.int(r.Barriers), t21: C.int(b2i(r.IMB2021)),
		sync: C.int(b2i(!r.NoSync)), root_shift: C.int(b2i(r.RootShift))}
	var t C.double
	var bad C.longlong
	if rc := C.mb_big_run(&k, &t, C.int(b2i(check)), &bad); rc != C.MPI_SUCCESS {
		return 0, 0, kernelError("large-count kernel", rc)
	}
	return float64(t), int(bad), nil
}

// bigMode is the count mode of n items (floats if floats) in this build.
func bigMode(n int64, floats bool) string {
	return countModes[C.mb_big_mode_of(C.longlong(n), C.int(b2i(floats)))]
}

// View is n bytes of b from byte off on: memory of b, not to be freed;
// it ends where b ends.
func (b Buffer) View(off, n int) Buffer {
	off = min(max(off, 0), b.n)
	return Buffer{unsafe.Add(b.p, off), min(n, b.n-off)}
}
