//go:build cgo && !nompi

package kernel

/*
#include <stdlib.h>
#include <mpi.h>
#include "skampi.h"
#include "window.h"
#include "handle.h"

static int mb_sk_bcast_int(int *v, MPI_Comm c) { return MPI_Bcast(v, 1, MPI_INT, 0, c); }
static int mb_sk_send_long(long long *v, MPI_Comm c) { return MPI_Send(v, 1, MPI_LONG_LONG, 0, 2001, c); }
static int mb_sk_recv_long(long long *v, int from, MPI_Comm c) {
	return MPI_Recv(v, 1, MPI_LONG_LONG, from, 2001, c, MPI_STATUS_IGNORE);
}
static int mb_sk_send_bytes(void *b, int n, MPI_Comm c) { return MPI_Send(b, n, MPI_BYTE, 0, 2002, c); }
static int mb_sk_recv_bytes(void *b, int n, int from, MPI_Comm c) {
	return MPI_Recv(b, n, MPI_BYTE, from, 2002, c, MPI_STATUS_IGNORE);
}
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
// i < j of c, the pairs disjoint within each round (skampi.h), and
// returns on every rank the pair with the largest mean round trip and
// that time in seconds: the lowest i, then j, among equals.
func Survey(c mpi.Comm, reps int) (i, j int, lat float64, err error) {
	var ci, cj C.int
	var cl C.double
	if rc := C.mb_sk_survey(C.mb_comm_f2c(C.int(c.Fortran())), C.int(reps), &ci, &cj, &cl); rc != C.MPI_SUCCESS {
		return 0, 0, 0, mpi.KernelError("SKaMPI ping-pong survey", int(rc))
	}
	return int(ci), int(cj), float64(cl), nil
}

// SurveyPartner is rank's partner in round r of Survey over p ranks (a
// partner >= p: none that round), for the tests of its schedule.
func SurveyPartner(rank, r, p int) int {
	return int(C.mb_sk_survey_partner(C.int(rank), C.int(r), C.int(p+p%2)))
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

// ToRank0 hands rank from's bytes to rank 0 of c (a length, then the
// bytes): rank 0 gets them, every other rank nil, and no rank but from
// and 0 takes part. SKaMPI's results go where they are written, not to
// every rank.
func ToRank0(c mpi.Comm, b []byte, from int) ([]byte, error) {
	rank := c.Rank()
	switch {
	case from == 0 && rank == 0:
		return b, nil
	case rank != from && rank != 0:
		return nil, nil
	}
	cc := C.mb_comm_f2c(C.int(c.Fortran()))
	if rank == from {
		n := C.longlong(len(b))
		if rc := C.mb_sk_send_long(&n, cc); rc != C.MPI_SUCCESS {
			return nil, mpi.CallError("MPI_Send", int(rc))
		}
		if n == 0 {
			return nil, nil
		}
		buf := C.CBytes(b)
		defer C.free(buf)
		if rc := C.mb_sk_send_bytes(buf, C.int(n), cc); rc != C.MPI_SUCCESS {
			return nil, mpi.CallError("MPI_Send", int(rc))
		}
		return nil, nil
	}
	var n C.longlong
	if rc := C.mb_sk_recv_long(&n, C.int(from), cc); rc != C.MPI_SUCCESS {
		return nil, mpi.CallError("MPI_Recv", int(rc))
	}
	if n == 0 {
		return nil, nil
	}
	buf := C.malloc(C.size_t(n))
	defer C.free(buf)
	if rc := C.mb_sk_recv_bytes(buf, C.int(n), C.int(from), cc); rc != C.MPI_SUCCESS {
		return nil, mpi.CallError("MPI_Recv", int(rc))
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
