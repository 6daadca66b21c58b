//go:build !nompi

package mpi

/*
#include <stdlib.h>
#include <mpi.h>
#include "beff.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// BeffMethod is one of the three communication methods of b_eff.
type BeffMethod int

// The methods, in the order of beff.h.
const (
	BeffSendrecv BeffMethod = iota
	BeffAlltoallv
	BeffNonblocking
)

// BeffMaxSteps is the most send-receive steps one process may have.
const BeffMaxSteps = C.MB_BEFF_MAXSTEPS

// BeffPattern is one process's part of a b_eff pattern, in C memory: the
// destinations and sources of its steps (-1 for none) and the Alltoallv
// counts and displacements over the communicator.
type BeffPattern struct {
	comm     Comm
	n        int
	slot     int
	to, from Buffer
	sc, sd   Buffer
	rc, rd   Buffer
}

// NewBeffPattern copies the steps to C memory; step s uses the bytes
// [s·slot, s·slot+L) of the send and of the receive buffer.
func NewBeffPattern(c Comm, to, from []int, slot int) (*BeffPattern, error) {
	if len(to) != len(from) || len(to) > BeffMaxSteps {
		return nil, fmt.Errorf("b_eff pattern with %d/%d steps (at most %d)", len(to), len(from), BeffMaxSteps)
	}
	p := &BeffPattern{comm: c, n: len(to), slot: slot}
	size := c.Size()
	for _, b := range []*Buffer{&p.to, &p.from, &p.sc, &p.sd, &p.rc, &p.rd} {
		n := 4 * BeffMaxSteps
		if b != &p.to && b != &p.from {
			n = 4 * size
		}
		var err error
		if *b, err = Alloc(n); err != nil {
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

// SetLen prepares the Alltoallv counts for messages of l bytes: zero
// except for the neighbours, each step's block at its own slot.
func (p *BeffPattern) SetLen(l int) error {
	sc, sd, rc, rd := p.sc.Int32s(), p.sd.Int32s(), p.rc.Int32s(), p.rd.Int32s()
	for i := range sc {
		sc[i], sd[i], rc[i], rd[i] = 0, 0, 0, 0
	}
	t, f := p.to.Int32s(), p.from.Int32s()
	for s := 0; s < p.n; s++ {
		if r := t[s]; r >= 0 {
			if sc[r] != 0 {
				return fmt.Errorf("b_eff pattern sends twice to rank %d", r)
			}
			sc[r], sd[r] = int32(l), int32(s*p.slot)
		}
		if r := f[s]; r >= 0 {
			if rc[r] != 0 {
				return fmt.Errorf("b_eff pattern receives twice from rank %d", r)
			}
			rc[r], rd[r] = int32(l), int32(s*p.slot)
		}
	}
	return nil
}

// Free releases the C memory.
func (p *BeffPattern) Free() {
	for _, b := range []*Buffer{&p.to, &p.from, &p.sc, &p.sd, &p.rc, &p.rd} {
		b.Free()
	}
}

// BeffRun is one measurement: Loop executions of the pattern with one
// method and messages of Len bytes.
type BeffRun struct {
	Pattern    *BeffPattern
	Method     BeffMethod
	Len        int
	Send, Recv Buffer // at least steps·slot bytes each
	Loop       int
	Warmup     bool // one untimed execution before the barrier
}

// Exec runs the measurement: warm-up, MPI_Barrier, then the timed loop,
// all in C. It returns this process's loop time in seconds.
func (r *BeffRun) Exec() (float64, error) {
	p := r.Pattern
	if need := p.n * p.slot; r.Send.Len() < need || r.Recv.Len() < need || r.Len > p.slot {
		return 0, fmt.Errorf("b_eff buffers too small for %d steps of %d bytes", p.n, r.Len)
	}
	warm := C.int(0)
	if r.Warmup {
		warm = 1
	}
	k := C.mb_beff{
		comm: p.comm.c, method: C.int(r.Method), nsteps: C.int(p.n),
		to: (*C.int)(p.to.p), from: (*C.int)(p.from.p),
		len: C.int(r.Len), slot: C.long(p.slot),
		sbuf: (*C.char)(r.Send.p), rbuf: (*C.char)(r.Recv.p),
		scounts: (*C.int)(p.sc.p), sdispls: (*C.int)(p.sd.p),
		rcounts: (*C.int)(p.rc.p), rdispls: (*C.int)(p.rd.p),
		loop: C.int(r.Loop), warmup: warm,
	}
	var t C.double
	if rc := C.mb_beff_run(&k, &t); rc != C.MPI_SUCCESS {
		return 0, mpiError("b_eff kernel", rc)
	}
	return float64(t), nil
}

// BeffTimes returns the maximum, minimum and mean of t over c, on every
// rank (two MPI_Allreduce calls).
func (c Comm) BeffTimes(t float64) (tmax, tmin, tavg float64, err error) {
	out := (*C.double)(C.malloc(3 * 8))
	defer C.free(unsafe.Pointer(out))
	if rc := C.mb_beff_times(C.double(t), out, c.c); rc != C.MPI_SUCCESS {
		return 0, 0, 0, mpiError("MPI_Allreduce", rc)
	}
	v := unsafe.Slice((*float64)(unsafe.Pointer(out)), 3)
	return v[0], v[1], v[2], nil
}

// BeffLocalSize is the number of processes of c on this node
// (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED).
func (c Comm) BeffLocalSize() (int, error) {
	var n C.int
	if rc := C.mb_beff_local_size(c.c, &n); rc != C.MPI_SUCCESS {
		return 0, mpiError("MPI_Comm_split_type", rc)
	}
	return int(n), nil
}
