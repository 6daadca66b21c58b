//go:build cgo && !nompi

package mpi

/*
#include <stdlib.h>
#include <mpi.h>
#include "skampi.h"
#include "window.h"

static int mb_sk_bcast_int(int *v, MPI_Comm c) { return MPI_Bcast(v, 1, MPI_INT, 0, c); }
static int mb_sk_bcast_double(double *v, MPI_Comm c) { return MPI_Bcast(v, 1, MPI_DOUBLE, 0, c); }
static int mb_sk_bcast_long(long long *v, int root, MPI_Comm c) { return MPI_Bcast(v, 1, MPI_LONG_LONG, root, c); }
static int mb_sk_bcast_bytes(void *b, int n, int root, MPI_Comm c) { return MPI_Bcast(b, n, MPI_BYTE, root, c); }
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// SkampiCase is one operation on one communicator with its buffers, in C
// memory, ready to be sampled at any length up to the maximum it was made
// for.
type SkampiCase struct {
	k       C.mb_sk
	maxLen  int
	bufs    []Buffer
	keyval  bool
	attach  bool
	workMax int
}

// NewSkampiCase prepares op on c for lengths up to maxLen bytes and work
// pieces per worker. Ping-pong needs a communicator of 2 processes;
// MPI_Bsend variants get a buffer attached here and detached by Free.
func NewSkampiCase(c Comm, op SkampiOp, maxLen, work int) (*SkampiCase, error) {
	size := c.Size()
	if op >= SkampiPPBsendRecv && op <= SkampiPPSsendRecv && size != 2 {
		return nil, fmt.Errorf("ping-pong on %d processes (want 2)", size)
	}
	sc := &SkampiCase{maxLen: maxLen}
	sc.k.comm, sc.k.op = c.c, C.int(op)
	sc.k.rank, sc.k.size = C.int(c.Rank()), C.int(size)
	sc.k.work = C.int(max(work, 1))
	sc.k.keyval = -1
	alloc := func(n int) (unsafe.Pointer, error) {
		b, err := Alloc(n)
		if err != nil {
			return nil, err
		}
		sc.bufs = append(sc.bufs, b)
		return b.p, nil
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
	if err := sc.setup(c, op, size); err != nil {
		sc.Free()
		return nil, err
	}
	return sc, nil
}

// setup attaches the MPI_Bsend buffer and creates the attribute.
func (sc *SkampiCase) setup(c Comm, op SkampiOp, size int) error {
	switch op {
	case SkampiPPBsendRecv, SkampiMWBsend:
		// One message to every other process may be in the buffer at once.
		n := (max(sc.maxLen, 1) + int(C.mb_sk_bsend_overhead())) * size
		if rc := C.mb_sk_attach(C.int(n)); rc != C.MPI_SUCCESS {
			return mpiError("MPI_Buffer_attach", rc)
		}
		sc.attach = true
	case SkampiAttrGet:
		if rc := C.mb_sk_keyval(c.c, &sc.k.keyval); rc != C.MPI_SUCCESS {
			return mpiError("MPI_Comm_create_keyval", rc)
		}
		sc.keyval = true
	}
	return nil
}

// NoBarrier leaves out the barrier before the timer of the collective
// pattern (-sync none; Comm_split keeps it).
func (sc *SkampiCase) NoBarrier() { sc.k.no_barrier = 1 }

// SetLen sets the message length of the next samples.
func (sc *SkampiCase) SetLen(n int) error {
	if n < 0 || n > sc.maxLen {
		return fmt.Errorf("length %d outside 0..%d", n, sc.maxLen)
	}
	sc.k.len = C.int(n)
	return nil
}

// Sample takes one measurement: the time in seconds on the timing
// process (rank 0 of the communicator), 0 on the others.
func (sc *SkampiCase) Sample() (float64, error) {
	var t C.double
	if rc := C.mb_sk_sample(&sc.k, &t); rc != C.MPI_SUCCESS {
		return 0, kernelError("SKaMPI pattern", rc)
	}
	return float64(t), nil
}

// Free detaches the MPI_Bsend buffer, frees the attribute and the memory.
func (sc *SkampiCase) Free() error {
	var err error
	if sc.attach {
		if rc := C.mb_sk_detach(); rc != C.MPI_SUCCESS {
			err = mpiError("MPI_Buffer_detach", rc)
		}
		sc.attach = false
	}
	if sc.keyval {
		if rc := C.mb_sk_keyval_free(sc.k.comm, sc.k.keyval); rc != C.MPI_SUCCESS && err == nil {
			err = mpiError("MPI_Comm_free_keyval", rc)
		}
		sc.keyval = false
	}
	for i := range sc.bufs {
		sc.bufs[i].Free()
	}
	sc.bufs = nil
	return err
}

// SkampiSurvey runs a quick ping-pong of reps round trips between every
// pair i < j of c and returns, on every rank, the size×size matrix of mean
// round-trip times in seconds (at i·size+j; 0 elsewhere).
func (c Comm) SkampiSurvey(reps int) ([]float64, error) {
	size := c.Size()
	lat := make([]float64, size*size)
	p := (*C.double)(C.malloc(C.size_t(8 * max(len(lat), 1))))
	defer C.free(unsafe.Pointer(p))
	if rc := C.mb_sk_survey(c.c, C.int(reps), p); rc != C.MPI_SUCCESS {
		return nil, kernelError("SKaMPI ping-pong survey", rc)
	}
	copy(lat, unsafe.Slice((*float64)(unsafe.Pointer(p)), len(lat)))
	return lat, nil
}

// SkampiDecide broadcasts rank 0's stop vote over c: it is measure.Decide
// for the patterns timed on rank 0.
func (c Comm) SkampiDecide(stop bool) (bool, error) {
	v := C.int(0)
	if stop {
		v = 1
	}
	if rc := C.mb_sk_bcast_int(&v, c.c); rc != C.MPI_SUCCESS {
		return false, mpiError("MPI_Bcast", rc)
	}
	return v != 0, nil
}

// SkampiBcastFloat broadcasts rank 0's value over c.
func (c Comm) SkampiBcastFloat(x float64) (float64, error) {
	v := C.double(x)
	if rc := C.mb_sk_bcast_double(&v, c.c); rc != C.MPI_SUCCESS {
		return 0, mpiError("MPI_Bcast", rc)
	}
	return float64(v), nil
}

// SkampiBcastBytes broadcasts root's bytes to every rank of c; the others
// pass nil.
func (c Comm) SkampiBcastBytes(b []byte, root int) ([]byte, error) {
	n := C.longlong(len(b))
	if rc := C.mb_sk_bcast_long(&n, C.int(root), c.c); rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_Bcast", rc)
	}
	if n == 0 {
		return nil, nil
	}
	buf := C.malloc(C.size_t(n))
	defer C.free(buf)
	if c.Rank() == root {
		copy(unsafe.Slice((*byte)(buf), int(n)), b)
	}
	if rc := C.mb_sk_bcast_bytes(buf, C.int(n), C.int(root), c.c); rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_Bcast", rc)
	}
	return C.GoBytes(buf, C.int(n)), nil
}

// SkampiFirst is a communicator of the first p ranks of c, in rank order
// (MPI_Comm_split); MPI_COMM_NULL on the others. Collective over c.
func (c Comm) SkampiFirst(p int) (Comm, error) {
	color := -1
	if c.Rank() < p {
		color = 0
	}
	return c.Split(color, c.Rank())
}

// SkampiPair is a communicator of world ranks a (rank 0) and b (rank 1);
// MPI_COMM_NULL on the others. Collective over c.
func (c Comm) SkampiPair(a, b int) (Comm, error) {
	switch c.Rank() {
	case a:
		return c.Split(0, 0)
	case b:
		return c.Split(0, 1)
	}
	return c.Split(-1, 0)
}

// Window runs the window loop of the SKaMPI collective of sc.
func (sc *SkampiCase) Window(l *WinLoop) error {
	if rc := C.mb_win_skampi(&sc.k, &l.w); rc != C.MPI_SUCCESS {
		return kernelError("window loop", rc)
	}
	return nil
}
