//go:build cgo && !nompi

package kernel

/*
#include <stdlib.h>
#include <mpi.h>
#include "beff.h"
#include "handle.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"mpibench/mpi"
)

// MaxSteps is the most send-receive steps one process may have.
const MaxSteps = C.MB_BEFF_MAXSTEPS

// Pattern is one process's part of a b_eff pattern, in C memory: the
// destinations and sources of its steps (-1 for none), the offsets of
// their blocks, and the Alltoallv counts and displacements over the
// communicator.
type Pattern struct {
	comm     C.MPI_Comm
	rank     int
	n        int
	slot     int
	to, from mpi.Buffer
	off      mpi.Buffer
	sc, sd   mpi.Buffer
	rc, rd   mpi.Buffer
}

// NewPattern copies the steps to C memory. Steps 2k and 2k+1 (a ping
// and its pong) share the 2·slot bytes from 2k·slot of the send and of the
// receive buffer, the pong's block right after the ping's (see SetLen).
func NewPattern(c mpi.Comm, to, from []int, slot int) (*Pattern, error) {
	if len(to) != len(from) || len(to) > MaxSteps {
		return nil, fmt.Errorf("b_eff pattern with %d/%d steps (at most %d)", len(to), len(from), MaxSteps)
	}
	p := &Pattern{comm: C.mb_comm_f2c(C.int(c.Fortran())), rank: c.Rank(), n: len(to), slot: slot}
	size := c.Size()
	for _, b := range []*mpi.Buffer{&p.to, &p.from, &p.off, &p.sc, &p.sd, &p.rc, &p.rd} {
		n := 4 * MaxSteps
		if b != &p.to && b != &p.from && b != &p.off {
			n = 4 * size
		}
		var err error
		if *b, err = mpi.Alloc(n); err != nil {
			p.Free()
			return nil, err
		}
	}
	t, f := p.to.Int32s(), p.from.Int32s()
	for i := range to {
		t[i], f[i] = int32(to[i]), int32(from[i])
	}
	return p, nil
}

// SetLen lays out the blocks of messages of l bytes and prepares the
// Alltoallv counts: zero except for the neighbours. Step s's block starts
// at (s/2)·2·slot + (s%2)·l, so that a ping and a pong to the same
// neighbour (a ring or direction of length 2) lie back to back and one
// MPI_Alltoallv carries both as one block of 2·l bytes: one call can move
// only one block between two processes. Two steps with the same
// neighbour must be such a pair.
func (p *Pattern) SetLen(l int) error {
	if l > p.slot {
		return fmt.Errorf("b_eff message of %d bytes in a slot of %d", l, p.slot)
	}
	sc, sd, rc, rd := p.sc.Int32s(), p.sd.Int32s(), p.rc.Int32s(), p.rd.Int32s()
	for i := range sc {
		sc[i], sd[i], rc[i], rd[i] = 0, 0, 0, 0
	}
	t, f, off := p.to.Int32s(), p.from.Int32s(), p.off.Int32s()
	for s := 0; s < p.n; s++ {
		off[s] = int32(s/2*2*p.slot + s%2*l)
		if err := addBlock(sc, sd, t[s], off[s], l, "sends"); err != nil {
			return err
		}
		if err := addBlock(rc, rd, f[s], off[s], l, "receives"); err != nil {
			return err
		}
	}
	return nil
}

// addBlock adds a block of l bytes at off for rank r (none if r < 0) to
// the Alltoallv counts and displacements: a second block for the same
// rank must follow the first directly.
func addBlock(counts, displs []int32, r, off int32, l int, what string) error {
	switch {
	case r < 0:
	case counts[r] == 0:
		counts[r], displs[r] = int32(l), off
	case displs[r]+counts[r] == off:
		counts[r] += int32(l)
	default:
		return fmt.Errorf("b_eff pattern %s twice to rank %d in steps that are no ping-pong pair", what, r)
	}
	return nil
}

// Free releases the C memory.
func (p *Pattern) Free() {
	for _, b := range []*mpi.Buffer{&p.to, &p.from, &p.off, &p.sc, &p.sd, &p.rc, &p.rd} {
		b.Free()
	}
}

// Exec runs the measurement: warm-up, MPI_Barrier, then the timed loop,
// all in C. It returns this process's loop time in seconds and, with
// Check, the number of wrong bytes this process received.
func (r *Run) Exec() (float64, int64, error) {
	p := r.Pattern
	if need := p.n*p.slot + Pad; r.Send.Len() < need || r.Recv.Len() < need || r.Len > p.slot {
		return 0, 0, fmt.Errorf("b_eff buffers too small for %d steps of %d bytes", p.n, r.Len)
	}
	k := C.mb_beff{
		comm: p.comm, method: C.int(r.Method), nsteps: C.int(p.n),
		to: (*C.int)(p.to.Ptr()), from: (*C.int)(p.from.Ptr()), off: (*C.int)(p.off.Ptr()),
		len:  C.int(r.Len),
		sbuf: (*C.char)(r.Send.Ptr()), rbuf: (*C.char)(r.Recv.Ptr()),
		scounts: (*C.int)(p.sc.Ptr()), sdispls: (*C.int)(p.sd.Ptr()),
		rcounts: (*C.int)(p.rc.Ptr()), rdispls: (*C.int)(p.rd.Ptr()),
		loop: C.int(r.Loop), warmup: cBool(r.Warmup), check: cBool(r.Check), rank: C.int(p.rank),
	}
	var t C.double
	var bad C.longlong
	if rc := C.mb_beff_run(&k, &t, &bad); rc != C.MPI_SUCCESS {
		return 0, 0, mpi.KernelError("b_eff kernel", int(rc))
	}
	return float64(t), int64(bad), nil
}

// Times returns the maximum, minimum and mean of t over c and the sum of
// bad (the check's wrong bytes), on every rank (two MPI_Allreduce calls).
func Times(c mpi.Comm, t float64, bad int64) (tmax, tmin, tavg float64, defects int64, err error) {
	out := (*C.double)(C.malloc(4 * 8))
	defer C.free(unsafe.Pointer(out))
	if rc := C.mb_beff_times(C.double(t), C.double(bad), out, C.mb_comm_f2c(C.int(c.Fortran()))); rc != C.MPI_SUCCESS {
		return 0, 0, 0, 0, mpi.CallError("MPI_Allreduce", int(rc))
	}
	v := unsafe.Slice((*float64)(unsafe.Pointer(out)), 4)
	return v[0], v[1], v[2], int64(v[3]), nil
}

// cBool is b as a C int.
func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
