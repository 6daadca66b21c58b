//go:build cgo && !nompi

package kernel

/*
#include <stdlib.h>
#include <mpi.h>
#include "skampi.h"
#include "window.h"
#include "handle.h"

static int mb_sk_bcast_int(int *v, MPI_Comm c) { return MPI_Bcast(v, 1, MPI_INT, 0, c); }
static int mb_sk_bcast_long(long long *v, int root, MPI_Comm c) { return MPI_Bcast(v, 1, MPI_LONG_LONG, root, c); }
static int mb_sk_bcast_bytes(void *b, int n, int root, MPI_Comm c) { return MPI_Bcast(b, n, MPI_BYTE, root, c); }
*/
import "C"

import (
	"fmt"
	"unsafe"

	"mpibench/mpi"
)

// Case is one operation on one communicator with its buffers, in C
// memory, ready to be sampled at any length up to the maximum it was made
// for.
type Case struct {
	k       C.mb_sk
	maxLen  int
	bufs    []mpi.Buffer
	keyval  bool
	attach  bool
	workMax int
}

// NewCase prepares op on c for lengths up to maxLen bytes and work
// pieces per worker. Ping-pong needs a communicator of 2 processes;
// MPI_Bsend variants get a buffer attached here and detached by Free.
func NewCase(c mpi.Comm, op Op, maxLen, work int) (*Case, error) {
	size := c.Size()
	if op >= PPBsendRecv && op <= PPSsendRecv && size != 2 {
		return nil, fmt.Errorf("ping-pong on %d processes (want 2)", size)
	}
	sc := &Case{maxLen: maxLen}
	sc.k.comm, sc.k.op = C.mb_comm_f2c(C.int(c.Fortran())), C.int(op)
	sc.k.rank, sc.k.size = C.int(c.Rank()), C.int(size)
	sc.k.work = C.int(max(work, 1))
	sc.k.keyval = -1
	alloc := func(n int) (unsafe.Pointer, error) {
		b, err := mpi.Alloc(n)
		if err != nil {
			return nil, err
		}
		sc.bufs = append(sc.bufs, b)
		return b.Ptr(), nil
	}
	var err error
	n := max(maxLen, 1) * size
	ptrs := []*unsafe.Pointer{(*unsafe.Pointer)(unsafe.Pointer(&sc.k.sbuf)), (*unsafe.Pointer)(unsafe.Pointer(&sc.k.rbuf))}
	for _, p := range ptrs {
		if *p, err = alloc(n); err != nil {
			sc.Free()
			return nil, err
		}
	}
	var q unsafe.Pointer
	if q, err = alloc(size * C.sizeof_MPI_Request); err == nil {
		sc.k.req = (*C.MPI_Request)(q)
		if q, err = alloc(size * 4); err == nil {
			sc.k.idx = (*C.int)(q)
			if q, err = alloc(size * 4); err == nil {
				sc.k.sent = (*C.int)(q)
				if q, err = alloc(size * C.sizeof_MPI_Status); err == nil {
					sc.k.st = (*C.MPI_Status)(q)
				}
			}
		}
	}
	if err != nil {
		sc.Free()
		return nil, err
	}
	if err := sc.setup(op, size); err != nil {
		sc.Free()
		return nil, err
	}
	return sc, nil
}

// setup attaches the MPI_Bsend buffer and creates the attribute.
func (sc *Case) setup(op Op, size int) error {
	switch op {
	case PPBsendRecv, MWBsend:
		// One message to every other process may be in the buffer at once.
		n := (max(sc.maxLen, 1) + int(C.mb_sk_bsend_overhead())) * size
		if rc := C.mb_sk_attach(C.int(n)); rc != C.MPI_SUCCESS {
			return mpi.CallError("MPI_Buffer_attach", int(rc))
		}
		sc.attach = true
	case AttrGet:
		if rc := C.mb_sk_keyval(sc.k.comm, &sc.k.keyval); rc != C.MPI_SUCCESS {
			return mpi.CallError("MPI_Comm_create_keyval", int(rc))
		}
		sc.keyval = true
	}
	return nil
}

// NoBarrier leaves out the barrier before the timer of the collective
// pattern (-sync none; Comm_split keeps it).
func (sc *Case) NoBarrier() { sc.k.no_barrier = 1 }

// SetLen sets the message length of the next samples.
func (sc *Case) SetLen(n int) error {
	if n < 0 || n > sc.maxLen {
		return fmt.Errorf("length %d outside 0..%d", n, sc.maxLen)
	}
	sc.k.len = C.int(n)
	return nil
}

// Sample takes one measurement: the time in seconds on the timing
// process (rank 0 of the communicator), 0 on the others.
func (sc *Case) Sample() (float64, error) {
	var t C.double
	if rc := C.mb_sk_sample(&sc.k, &t); rc != C.MPI_SUCCESS {
		return 0, mpi.KernelError("SKaMPI pattern", int(rc))
	}
	return float64(t), nil
}

// Free detaches the MPI_Bsend buffer, frees the attribute and the memory.
func (sc *Case) Free() error {
	var err error
	if sc.attach {
		if rc := C.mb_sk_detach(); rc != C.MPI_SUCCESS {
			err = mpi.CallError("MPI_Buffer_detach", int(rc))
		}
		sc.attach = false
	}
	if sc.keyval {
		if rc := C.mb_sk_keyval_free(sc.k.comm, sc.k.keyval); rc != C.MPI_SUCCESS && err == nil {
			err = mpi.CallError("MPI_Comm_free_keyval", int(rc))
		}
		sc.keyval = false
	}
	for i := range sc.bufs {
		sc.bufs[i].Free()
	}
	sc.bufs = nil
	return err
}

// Survey runs a quick ping-pong of reps round trips between every pair
// i < j of c and returns, on every rank, the size×size matrix of mean
// round-trip times in seconds (at i·size+j; 0 elsewhere).
func Survey(c mpi.Comm, reps int) ([]float64, error) {
	size := c.Size()
	lat := make([]float64, size*size)
	p := (*C.double)(C.malloc(C.size_t(8 * max(len(lat), 1))))
	defer C.free(unsafe.Pointer(p))
	if rc := C.mb_sk_survey(C.mb_comm_f2c(C.int(c.Fortran())), C.int(reps), p); rc != C.MPI_SUCCESS {
		return nil, mpi.KernelError("SKaMPI ping-pong survey", int(rc))
	}
	copy(lat, unsafe.Slice((*float64)(unsafe.Pointer(p)), len(lat)))
	return lat, nil
}

// Decide broadcasts rank 0's stop vote over c: it is measure.Decide
// for the patterns timed on rank 0.
func Decide(c mpi.Comm, stop bool) (bool, error) {
	v := C.int(0)
	if stop {
		v = 1
	}
	if rc := C.mb_sk_bcast_int(&v, C.mb_comm_f2c(C.int(c.Fortran()))); rc != C.MPI_SUCCESS {
		return false, mpi.CallError("MPI_Bcast", int(rc))
	}
	return v != 0, nil
}

// BcastBytes broadcasts root's bytes to every rank of c; the others
// pass nil.
func BcastBytes(c mpi.Comm, b []byte, root int) ([]byte, error) {
	cc := C.mb_comm_f2c(C.int(c.Fortran()))
	n := C.longlong(len(b))
	if rc := C.mb_sk_bcast_long(&n, C.int(root), cc); rc != C.MPI_SUCCESS {
		return nil, mpi.CallError("MPI_Bcast", int(rc))
	}
	if n == 0 {
		return nil, nil
	}
	buf := C.malloc(C.size_t(n))
	defer C.free(buf)
	if c.Rank() == root {
		copy(unsafe.Slice((*byte)(buf), int(n)), b)
	}
	if rc := C.mb_sk_bcast_bytes(buf, C.int(n), C.int(root), cc); rc != C.MPI_SUCCESS {
		return nil, mpi.CallError("MPI_Bcast", int(rc))
	}
	return C.GoBytes(buf, C.int(n)), nil
}

// Window runs the window loop of the SKaMPI collective of sc.
func (sc *Case) Window(l *mpi.WinLoop) error {
	if rc := C.mb_win_skampi(&sc.k, (*C.mb_win)(l.Ptr())); rc != C.MPI_SUCCESS {
		return mpi.KernelError("window loop", int(rc))
	}
	return nil
}
