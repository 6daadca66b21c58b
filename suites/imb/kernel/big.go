//go:build cgo && !nompi

package kernel

// #include "bigcount.h"
import "C"

import (
	"slices"

	"mpibench/mpi"
)

// The large-count loop of IMB-MPI1 (mb_big_run) is C of package mpi's
// bigcount.c, which it shares with OSU's large-count loops and their
// layer of MPI-4 calls and derived types; its Go side is here.

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
		return 0, 0, mpi.KernelError("no large-count kernel", int(C.MPI_ERR_ARG))
	}
	k := C.mb_bigkernel{comm: comm(r.Comm), kind: C.int(kind), sbuf: r.Send.Ptr(), rbuf: r.Recv.Ptr(),
		n: C.longlong(r.Items), nrep: C.int(r.Reps), root0: C.int(r.Root0), nbarr: C.int(r.Barriers),
		t21: cBool(r.IMB2021), sync: cBool(!r.NoSync), root_shift: cBool(r.RootShift)}
	var t C.double
	var bad C.longlong
	if rc := C.mb_big_run(&k, &t, cBool(check), &bad); rc != C.MPI_SUCCESS {
		return 0, 0, mpi.KernelError("large-count kernel", int(rc))
	}
	return float64(t), int(bad), nil
}
