//go:build cgo && !nompi

package kernel

// #include <stdlib.h>
// #include "clocksync.h"
// #include "handle.h"
import "C"

import (
	"unsafe"

	"mpibench/mpi"
)

// Pair runs the exchanges of one reference-client pair of the clock
// synchronisation (clocksync.h, mb_cs_pair): n fit points of m exchanges
// each. On the client it returns, per fit point, the local midpoint x,
// the offset reference time - x and the round trip of the fastest
// exchange, and the 3 doubles the reference sent (its own model); on the
// reference it sends model and returns nothing.
func Pair(c mpi.Comm, peer int, client bool, n, m int, model [3]float64) (x, off, rtt []float64, ref [3]float64, err error) {
	buf := (*C.double)(C.malloc(C.size_t(8 * (3*max(n, 1) + 3))))
	defer C.free(unsafe.Pointer(buf))
	all := unsafe.Slice((*float64)(unsafe.Pointer(buf)), 3*max(n, 1)+3)
	mod := all[3*max(n, 1):]
	copy(mod, model[:])
	p := func(i int) *C.double { return (*C.double)(unsafe.Pointer(&all[i])) }
	rc := C.mb_cs_pair(comm(c), C.int(peer), cBool(client), C.int(n), C.int(m), p(0), p(n), p(2*n), p(3*max(n, 1)))
	if rc != C.MPI_SUCCESS {
		return nil, nil, nil, ref, mpi.KernelError("clock synchronisation", int(rc))
	}
	if !client {
		return nil, nil, nil, ref, nil
	}
	x = append([]float64(nil), all[:n]...)
	off = append([]float64(nil), all[n:2*n]...)
	rtt = append([]float64(nil), all[2*n:3*n]...)
	copy(ref[:], mod)
	return x, off, rtt, ref, nil
}

// Max replaces v by its element-wise maximum over the ranks of c.
func Max(c mpi.Comm, v []float64) error {
	return doubles(v, func(p *C.double) C.int { return C.mb_cs_max(p, C.int(len(v)), comm(c)) }, "MPI_Allreduce")
}

// Bcast replaces v by rank 0's v on every rank of c.
func Bcast(c mpi.Comm, v []float64) error {
	return doubles(v, func(p *C.double) C.int { return C.mb_cs_bcast(p, C.int(len(v)), comm(c)) }, "MPI_Bcast")
}

// doubles runs op on a C copy of v and copies the result back.
func doubles(v []float64, op func(*C.double) C.int, call string) error {
	if len(v) == 0 {
		return nil
	}
	p := (*C.double)(C.malloc(C.size_t(8 * len(v))))
	defer C.free(unsafe.Pointer(p))
	s := unsafe.Slice((*float64)(unsafe.Pointer(p)), len(v))
	copy(s, v)
	if rc := op(p); rc != C.MPI_SUCCESS {
		return mpi.CallError(call, int(rc))
	}
	copy(v, s)
	return nil
}

// comm is c's handle in this package's C.
func comm(c mpi.Comm) C.MPI_Comm { return C.mb_comm_f2c(C.int(c.Fortran())) }

// cBool is b as a C int.
func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
