//go:build cgo && !nompi

package mpi

/*
#cgo LDFLAGS: -lpthread
#include <mpi.h>
#include "osu.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// OSUKind is one of OSU 7.4's point-to-point loops (mpi/osu.h).
type OSUKind int

// The loops.
const (
	OSULatency  OSUKind = C.MB_OSU_LATENCY
	OSUBw       OSUKind = C.MB_OSU_BW
	OSUBibw     OSUKind = C.MB_OSU_BIBW
	OSUMbwMr    OSUKind = C.MB_OSU_MBW_MR
	OSUMultiLat OSUKind = C.MB_OSU_MULTI_LAT
	OSULatMT    OSUKind = C.MB_OSU_LATENCY_MT
)

// OSUDDT is -D's derived datatype.
type OSUDDT struct {
	Kind          string // cont, vect, indx
	Stride, Block int
	Displs        []int // indx, in elements
	Blocks        []int
}

// OSUSpec is one OSU point-to-point measurement at one size.
type OSUSpec struct {
	Kind     OSUKind
	Type     int   // 0 MPI_CHAR, 1 MPI_INT, 2 MPI_FLOAT
	TypeSize int   // its size
	Elements int64 // elements of the message
	DDT      *OSUDDT
	Iters    int
	Skip     int
	Window   int // messages in flight; 1 for the latency loops
	VWarm    int // -u with -c
	Pairs    int
	Multiple bool // -b multiple: a buffer per window slot
	Check    bool
	Samples  bool // keep each timed iteration's time
	Threads  int  // osu_latency_mt: this rank's threads
	Tagged   bool // osu_latency_mt: more than one sender thread
}

// OSUResult is what this rank measured.
type OSUResult struct {
	Time    float64   // seconds of the timed iterations
	Samples []float64 // seconds of each timed iteration (Spec.Samples)
	Errors  int       // -c: iterations received wrong on this rank
}

// OSURun runs one size of an OSU loop on c: the buffers and the derived
// type are made for it and released after.
func OSURun(c Comm, s *OSUSpec) (OSUResult, error) {
	var k C.mb_osu
	var bufs []Buffer
	defer func() {
		for i := range bufs {
			bufs[i].Free()
		}
	}()
	alloc := func(n int) (unsafe.Pointer, error) {
		b, err := Alloc(max(n, 1))
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, b)
		return b.p, nil
	}
	if err := osuSetup(&k, c, s, alloc); err != nil {
		return OSUResult{}, err
	}
	if k._type != C.mb_osu_base(C.int(s.Type)) {
		defer C.MPI_Type_free(&k._type)
	}
	var rc C.int
	switch {
	case s.Kind == OSULatMT:
		rc = C.mb_osu_run_mt(&k, cBool(s.Check))
	case s.Check:
		rc = C.mb_osu_run_check(&k)
	default:
		rc = C.mb_osu_run(&k)
	}
	if rc != C.MPI_SUCCESS {
		return OSUResult{}, kernelError("osu kernel", rc)
	}
	res := OSUResult{Time: float64(k.time), Errors: int(k.errors)}
	if k.samples != nil {
		res.Samples = append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(k.samples)), s.Iters)...)
	}
	return res, nil
}

// osuSetup fills k for s with buffers from alloc.
func osuSetup(k *C.mb_osu, c Comm, s *OSUSpec, alloc func(int) (unsafe.Pointer, error)) error {
	bytes := s.Elements * int64(s.TypeSize)
	if bytes > int64(^uint32(0)>>1) {
		return fmt.Errorf("osu: %d bytes: messages of 2 GiB or more are not supported yet", bytes)
	}
	k.comm, k.kind, k.iters, k.skip = c.c, C.int(s.Kind), C.int(s.Iters), C.int(s.Skip)
	k.window, k.vwarm, k.pairs = C.int(max(s.Window, 1)), C.int(s.VWarm), C.int(s.Pairs)
	k._type, k.count, k.bytes = C.mb_osu_base(C.int(s.Type)), C.longlong(s.Elements), C.longlong(bytes)
	bufBytes := bytes
	if s.DDT != nil {
		if err := osuType(k, s); err != nil {
			return err
		}
		bufBytes = max(bufBytes, s.DDT.extent()*int64(s.TypeSize))
	}
	k.nbufs, k.threads, k.tagged = 1, C.int(s.Threads), cBool(s.Tagged)
	switch {
	case s.Kind == OSULatMT:
		k.nbufs = C.int(max(s.Threads, 1)) // a send and a receive buffer per thread
	case s.Multiple:
		k.nbufs = k.window
	}
	ptrs, err := alloc(2 * 8 * int(k.nbufs))
	if err != nil {
		return err
	}
	p := unsafe.Slice((*unsafe.Pointer)(ptrs), 2*int(k.nbufs))
	for i := range p {
		if p[i], err = alloc(int(bufBytes)); err != nil {
			return err
		}
	}
	k.sbuf, k.rbuf = (*unsafe.Pointer)(ptrs), (*unsafe.Pointer)(unsafe.Pointer(&p[k.nbufs]))
	reqs, err := alloc(2 * int(k.window) * int(C.sizeof_MPI_Request))
	if err != nil {
		return err
	}
	k.reqs = (*C.MPI_Request)(reqs)
	stats, err := alloc(int(k.window) * int(C.sizeof_MPI_Status))
	if err != nil {
		return err
	}
	k.stats = (*C.MPI_Status)(stats)
	if s.Samples {
		smp, err := alloc(8 * max(s.Iters, 1))
		if err != nil {
			return err
		}
		k.samples = (*C.double)(smp)
	}
	return nil
}

// extent is the elements an indexed type reaches (0 for the others,
// which stay within the message).
func (d *OSUDDT) extent() int64 {
	var e int64
	for i := range d.Blocks {
		e = max(e, int64(d.Displs[i]+d.Blocks[i]))
	}
	return e
}

// osuType makes -D's type; the count of the calls is then 1.
func osuType(k *C.mb_osu, s *OSUSpec) error {
	t, err := s.DDT.make(k._type, int64(k.count))
	if err != nil {
		return err
	}
	k._type, k.count = t, 1
	return nil
}

// make commits d's type of count elements of base (mb_osu_type); the
// caller frees it.
func (d *OSUDDT) make(base C.MPI_Datatype, count int64) (C.MPI_Datatype, error) {
	kind := map[string]C.int{"cont": 0, "vect": 1, "indx": 2}[d.Kind]
	n := len(d.Blocks)
	arr := make([]C.int, 2*n+1)
	for i := 0; i < n; i++ {
		arr[i], arr[n+i] = C.int(d.Displs[i]), C.int(d.Blocks[i])
	}
	var t C.MPI_Datatype
	rc := C.mb_osu_type(base, kind, C.longlong(count), C.int(d.Stride), C.int(d.Block), C.int(n), &arr[0], &arr[n], &t)
	if rc != C.MPI_SUCCESS {
		return t, kernelError("osu derived datatype", rc)
	}
	return t, nil
}

// collType is -D's type for an OSU collective of count elements of t
// (osucoll.h's types are mb_osu_base's, in the same order).
func (d *OSUDDT) collType(t OSUCollType, count int64) (C.MPI_Datatype, error) {
	return d.make(C.mb_osu_base(C.int(t)), count)
}
