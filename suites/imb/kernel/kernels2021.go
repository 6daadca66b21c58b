//go:build cgo && !nompi

package kernel

// #include "kernels2021.h"
import "C"

import "mpibench/mpi"

// exec2021 is Exec for the kernels of kernels2021.c. IMB 2021's -sync
// (a barrier after every repetition of a collective) is on and its
// -root_shift off, their defaults; the kernel takes both as fields so
// that the flags can set them.
func (r *Run) exec2021(check bool) (float64, int, error) {
	k := C.mb21_kernel{k: r.kernel(), window: C.int(r.Window), root_shift: cBool(r.RootShift),
		sync: cBool(!r.NoSync)}
	var t C.double
	var bad C.longlong
	var rc C.int
	if check {
		rc = C.mb21_run_check(&k, &t, &bad)
	} else {
		rc = C.mb21_run(&k, &t)
	}
	if rc != C.MPI_SUCCESS {
		return 0, 0, mpi.KernelError("kernel", int(rc))
	}
	return float64(t), int(bad), nil
}
