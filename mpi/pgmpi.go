//go:build cgo && !nompi

package mpi

/*
#include <stdlib.h>
#include <mpi.h>
#include "pgmpi.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// PgmpiCalls is the number of calls.
const PgmpiCalls = PgmpiCall(C.MB_PG_NCALLS)

// PgmpiCase is one call on one communicator at one volume, with its
// buffers in C memory. Every buffer is a vector of Count C ints.
type PgmpiCase struct {
	k     C.mb_pg
	bufs  []Buffer
	local []float64
}

// NewPgmpiCase prepares call on c for count ints (a multiple of the size
// of c): the input is rank*1000003 + i + 1 at index i of the vector on
// each rank, the output filled with -1, the padded vector of GL4 and GL6
// zero. The root's output of MPI_Bcast and of its mock-up holds the input,
// since the broadcast buffer is both.
func NewPgmpiCase(c Comm, call PgmpiCall, count int, bcastIn bool) (*PgmpiCase, error) {
	size, rank := c.Size(), c.Rank()
	if call < 0 || call >= PgmpiCalls || count < 0 || count%size != 0 {
		return nil, fmt.Errorf("pgmpi: call %d with %d ints on %d processes", call, count, size)
	}
	pc := &PgmpiCase{}
	pc.k.comm, pc.k.call = c.c, C.int(call)
	pc.k.rank, pc.k.size = C.int(rank), C.int(size)
	pc.k.count, pc.k.block = C.int(count), C.int(count/size)
	var v [6][]int32
	for i := range v {
		n := count
		if i >= 4 {
			n = size
		}
		b, err := Alloc(4 * n)
		if err != nil {
			pc.Free()
			return nil, err
		}
		pc.bufs = append(pc.bufs, b)
		v[i] = b.Int32s()
	}
	pc.k.sbuf, pc.k.rbuf = (*C.int)(pc.bufs[0].p), (*C.int)(pc.bufs[1].p)
	pc.k.tmp, pc.k.pad = (*C.int)(pc.bufs[2].p), (*C.int)(pc.bufs[3].p)
	pc.k.counts, pc.k.displs = (*C.int)(pc.bufs[4].p), (*C.int)(pc.bufs[5].p)
	for i := range v[0] {
		v[0][i] = PgmpiInput(rank, i)
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
func (pc *PgmpiCase) Call() error {
	if rc := C.mb_pg_call(&pc.k); rc != C.MPI_SUCCESS {
		return kernelError("PGMPI call", rc)
	}
	return nil
}

// Run times n repetitions, each after an MPI_Barrier, and returns on rank
// 0 every repetition's time in seconds, the maximum over the ranks (nil on
// the others).
func (pc *PgmpiCase) Run(n int) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("pgmpi: %d repetitions", n)
	}
	local := (*C.double)(C.malloc(C.size_t(8 * n)))
	defer C.free(unsafe.Pointer(local))
	t := (*C.double)(C.malloc(C.size_t(8 * n)))
	defer C.free(unsafe.Pointer(t))
	if rc := C.mb_pg_run(&pc.k, C.int(n), local, t); rc != C.MPI_SUCCESS {
		return nil, kernelError("PGMPI call", rc)
	}
	if pc.k.rank != 0 {
		return nil, nil
	}
	out := make([]float64, n)
	copy(out, unsafe.Slice((*float64)(unsafe.Pointer(t)), n))
	return out, nil
}

// Output is a copy of the output vector (Count ints).
func (pc *PgmpiCase) Output() []int32 { return append([]int32(nil), pc.bufs[1].Int32s()...) }

// Free releases the buffers.
func (pc *PgmpiCase) Free() {
	for i := range pc.bufs {
		pc.bufs[i].Free()
	}
	pc.bufs = nil
}
