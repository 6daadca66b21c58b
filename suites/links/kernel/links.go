//go:build cgo && !nompi

package kernel

/*
#include <mpi.h>
#include "links.h"
#include "handle.h"
*/
import "C"

import (
	"unsafe"

	"mpibench/mpi"
)

// Links is the shift pattern of mpibench links on a communicator
// (links.h), with its buffers and result arrays in C memory.
type Links struct {
	k    C.mb_links
	bufs []mpi.Buffer
}

// LinksResult is what one rank measured at one distance, µs per
// iteration: the per-message send and receive time of its window to
// rank+d and from rank-d, and half the round trip to rank+d.
type LinksResult struct {
	Send, Recv, Latency []float64
}

// NewLinks prepares the pattern for messages of size bytes, times
// iterations of window messages each after warm untimed ones.
func NewLinks(c mpi.Comm, size, times, window, warm int) (*Links, error) {
	l := &Links{}
	l.k.comm = C.mb_comm_f2c(C.int(c.Fortran()))
	l.k.size, l.k.times, l.k.window, l.k.warm = C.longlong(size), C.int(times), C.int(window), C.int(warm)
	sizes := []int{window * size, window * size, 2 * window * C.sizeof_MPI_Request, 2 * window * C.sizeof_MPI_Status, 8 * times, 8 * times, 8 * times}
	ptrs := make([]unsafe.Pointer, len(sizes))
	for i, n := range sizes {
		b, err := mpi.Alloc(max(n, 1))
		if err != nil {
			l.Free()
			return nil, err
		}
		l.bufs = append(l.bufs, b)
		ptrs[i] = b.Ptr()
	}
	l.k.sbuf, l.k.rbuf = (*C.char)(ptrs[0]), (*C.char)(ptrs[1])
	l.k.req, l.k.st = (*C.MPI_Request)(ptrs[2]), (*C.MPI_Status)(ptrs[3])
	l.k.send_us, l.k.recv_us, l.k.lat_us = (*C.double)(ptrs[4]), (*C.double)(ptrs[5]), (*C.double)(ptrs[6])
	return l, nil
}

// Free releases the buffers.
func (l *Links) Free() {
	for i := range l.bufs {
		l.bufs[i].Free()
	}
	l.bufs = nil
}

// Run measures distance dist: the bandwidth iterations, then the latency
// iterations.
func (l *Links) Run(dist int) (LinksResult, error) {
	if rc := C.mb_links_bw(&l.k, C.int(dist)); rc != C.MPI_SUCCESS {
		return LinksResult{}, mpi.KernelError("links bandwidth kernel", int(rc))
	}
	if rc := C.mb_links_lat(&l.k, C.int(dist)); rc != C.MPI_SUCCESS {
		return LinksResult{}, mpi.KernelError("links latency kernel", int(rc))
	}
	n := int(l.k.times)
	get := func(p *C.double) []float64 {
		return append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(p)), n)...)
	}
	return LinksResult{Send: get(l.k.send_us), Recv: get(l.k.recv_us), Latency: get(l.k.lat_us)}, nil
}
