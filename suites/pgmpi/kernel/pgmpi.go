//go:build cgo && !nompi

package kernel

/*
#include <stdlib.h>
#include <mpi.h>
#include "pgmpi.h"
#include "handle.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"mpibench/mpi"
)

// Calls must be pgmpi.h's number of calls: an index out of range of this
// one-element array does not compile.
var _ = [1]struct{}{}[Calls-C.MB_PG_NCALLS]

// Case is one call on one communicator at one volume, with its
// buffers in C memory. Every buffer is a vector of Count C ints.
type Case struct {
	k     C.mb_pg
	bufs  []mpi.Buffer
	local []float64
}

// NewCase prepares call on c for count ints (a multiple of the size
// of c): the input is rank*1000003 + i + 1 at index i of the vector on
// each rank, the output filled with -1, the padded vector of GL4 and GL6
// zero. The root's output of MPI_Bcast and of its mock-up holds the input,
// since the broadcast buffer is both.
func NewCase(c mpi.Comm, call Call, count int, bcastIn bool) (*Case, error) {
	size, rank := c.Size(), c.Rank()
	if call < 0 || call >= Calls || count < 0 || count%size != 0 {
		return nil, fmt.Errorf("pgmpi: call %d with %d ints on %d processes", call, count, size)
	}
	pc := &Case{}
	pc.k.comm, pc.k.call = C.mb_comm_f2c(C.int(c.Fortran())), C.int(call)
	pc.k.rank, pc.k.size = C.int(rank), C.int(size)
	pc.k.count, pc.k.block = C.int(count), C.int(count/size)
	var v [6][]int32
	for i := range v {
		n := count
		if i >= 4 {
			n = size
		}
		b, err := mpi.Alloc(4 * n)
		if err != nil {
			pc.Free()
			return nil, err
		}
		pc.bufs = append(pc.bufs, b)
		v[i] = b.Int32s()
	}
	pc.k.sbuf, pc.k.rbuf = (*C.int)(pc.bufs[0].Ptr()), (*C.int)(pc.bufs[1].Ptr())
	pc.k.tmp, pc.k.pad = (*C.int)(pc.bufs[2].Ptr()), (*C.int)(pc.bufs[3].Ptr())
	pc.k.counts, pc.k.displs = (*C.int)(pc.bufs[4].Ptr()), (*C.int)(pc.bufs[5].Ptr())
	for i := range v[0] {
		v[0][i] = Input(rank, i)
		v[1][i] = -1
	}
	for i := 0; i < size; i++ {
		v[4][i], v[5][i] = int32(count/size), int32(i*count/size)
	}
	if bcastIn && rank == 0 {
		copy(v[1], v[0])
	}
	return pc, nil
}

// Call runs the call once, untimed.
func (pc *Case) Call() error {
	if rc := C.mb_pg_call(&pc.k); rc != C.MPI_SUCCESS {
		return mpi.KernelError("PGMPI call", int(rc))
	}
	return nil
}

// Run times n repetitions, each after an MPI_Barrier, and returns on rank
// 0 every repetition's time in seconds, the maximum over the ranks (nil on
// the others).
func (pc *Case) Run(n int) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("pgmpi: %d repetitions", n)
	}
	local := (*C.double)(C.malloc(C.size_t(8 * n)))
	defer C.free(unsafe.Pointer(local))
	t := (*C.double)(C.malloc(C.size_t(8 * n)))
	defer C.free(unsafe.Pointer(t))
	if rc := C.mb_pg_run(&pc.k, C.int(n), local, t); rc != C.MPI_SUCCESS {
		return nil, mpi.KernelError("PGMPI call", int(rc))
	}
	if pc.k.rank != 0 {
		return nil, nil
	}
	out := make([]float64, n)
	copy(out, unsafe.Slice((*float64)(unsafe.Pointer(t)), n))
	return out, nil
}

// Output is a copy of the output vector (Count ints).
func (pc *Case) Output() []int32 { return append([]int32(nil), pc.bufs[1].Int32s()...) }

// Free releases the buffers.
func (pc *Case) Free() {
	for i := range pc.bufs {
		pc.bufs[i].Free()
	}
	pc.bufs = nil
}
