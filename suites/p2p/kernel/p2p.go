//go:build cgo && !nompi

package kernel

/*
#include <mpi.h>
#include "p2p.h"
#include "handle.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"mpibench/mpi"
)

// P2PKind is one of IMB-P2P's loops (p2p.h).
type P2PKind int

// The loops; Stencil2D and Stencil3D share P2PStencil.
const (
	P2PPingPong        P2PKind = C.MB_P2P_PINGPONG
	P2PPingPing        P2PKind = C.MB_P2P_PINGPING
	P2PUnirandom       P2PKind = C.MB_P2P_UNIRANDOM
	P2PBirandom        P2PKind = C.MB_P2P_BIRANDOM
	P2PCorandom        P2PKind = C.MB_P2P_CORANDOM
	P2PStencil         P2PKind = C.MB_P2P_STENCIL
	P2PSendrecvReplace P2PKind = C.MB_P2P_SENDRECV_REPLACE
)

// P2PMaxNeighbours is the most neighbours a stencil may have.
const P2PMaxNeighbours = C.MB_P2P_MAXNBR

// P2PCase is one IMB-P2P benchmark on a communicator with its buffers in C
// memory, ready for any length up to the one it was made for.
type P2PCase struct {
	k    C.mb_p2p
	bufs []mpi.Buffer
}

// P2PResult is what one rank measured at one length.
type P2PResult struct {
	Time     float64 // seconds of the timed loop
	Messages int     // messages this rank counted, as IMB-P2P counts them (random and stencil loops)
	Defects  int     // check mode: bytes received wrong
}

// NewP2PCase prepares kind on c for messages of up to maxLen bytes; nbr
// are a stencil's neighbours. touchSend, touchRecv and pauseUsec are
// IMB-P2P's -msgwr, -msgrd and -pause.
func NewP2PCase(c mpi.Comm, kind P2PKind, maxLen int, nbr []int, touchSend, touchRecv bool, pauseUsec int) (*P2PCase, error) {
	if len(nbr) > P2PMaxNeighbours {
		return nil, fmt.Errorf("p2p: %d neighbours (at most %d)", len(nbr), P2PMaxNeighbours)
	}
	p := &P2PCase{}
	p.k.comm, p.k.kind, p.k.nnbr = C.mb_comm_f2c(C.int(c.Fortran())), C.int(kind), C.int(len(nbr))
	p.k.touch_send, p.k.touch_recv, p.k.pause_usec = cBool(touchSend), cBool(touchRecv), C.int(pauseUsec)
	for i, r := range nbr {
		p.k.nbr[i] = C.int(r)
	}
	n := max(len(nbr), 1)
	for i := 0; i < n; i++ {
		s, err := p.alloc(maxLen)
		if err != nil {
			return nil, err
		}
		r, err := p.alloc(maxLen)
		if err != nil {
			return nil, err
		}
		p.k.sbuf[i], p.k.rbuf[i] = s, r
	}
	ring, err := p.alloc(4 * c.Size())
	if err != nil {
		return nil, err
	}
	p.k.ring = (*C.int)(ring)
	return p, nil
}

// alloc returns a buffer of n bytes (at least 1) that Free releases.
func (p *P2PCase) alloc(n int) (unsafe.Pointer, error) {
	b, err := mpi.Alloc(max(n, 1))
	if err != nil {
		p.Free()
		return nil, err
	}
	p.bufs = append(p.bufs, b)
	return b.Ptr(), nil
}

// Free releases the buffers.
func (p *P2PCase) Free() {
	for i := range p.bufs {
		p.bufs[i].Free()
	}
	p.bufs = nil
}

// Run measures one length with IMB-P2P's iteration and warm-up counts;
// check runs the checked loops.
func (p *P2PCase) Run(size, iters, warm int, check bool) (P2PResult, error) {
	p.k.size, p.k.iters, p.k.warm = C.longlong(size), C.longlong(iters), C.longlong(warm)
	var rc C.int
	if check {
		rc = C.mb_p2p_run_check(&p.k)
	} else {
		rc = C.mb_p2p_run(&p.k)
	}
	if rc != C.MPI_SUCCESS {
		return P2PResult{}, mpi.KernelError("p2p kernel", int(rc))
	}
	return P2PResult{Time: float64(p.k.time), Messages: int(p.k.messages), Defects: int(p.k.defects)}, nil
}

// cBool is b as a C int.
func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
