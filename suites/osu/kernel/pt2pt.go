//go:build cgo && !nompi

package kernel

/*
#include <mpi.h>
#include "osu.h"
#include "handle.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"mpibench/mpi"
)

// kinds maps package mpi's loop kinds to osu.h's.
var kinds = [...]C.int{
	mpi.OSULatency:  C.MB_OSU_LATENCY,
	mpi.OSUBw:       C.MB_OSU_BW,
	mpi.OSUBibw:     C.MB_OSU_BIBW,
	mpi.OSUMbwMr:    C.MB_OSU_MBW_MR,
	mpi.OSUMultiLat: C.MB_OSU_MULTI_LAT,
	mpi.OSULatMT:    C.MB_OSU_LATENCY_MT,
	mpi.OSULatMP:    C.MB_OSU_LATENCY_MP,
	mpi.OSUFan:      C.MB_OSU_FAN,
}

// Run runs one size of an OSU loop on c: the buffers and the derived type
// are made for it and released after.
func Run(c mpi.Comm, s *Spec) (mpi.OSUResult, error) {
	var k C.mb_osu
	var bufs []mpi.Buffer
	defer func() {
		for i := range bufs {
			bufs[i].Free()
		}
	}()
	alloc := func(n int) (unsafe.Pointer, error) {
		b, err := mpi.Alloc(max(n, 1))
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, b)
		return b.Ptr(), nil
	}
	if err := setup(&k, c, s, alloc); err != nil {
		return mpi.OSUResult{}, err
	}
	if k._type != C.mb_osu_base(C.int(s.Type)) {
		defer C.MPI_Type_free(&k._type)
	}
	var rc C.int
	switch {
	case s.Kind == mpi.OSULatMT:
		rc = C.mb_osu_run_mt(&k, cBool(s.Check))
	case s.Check:
		rc = C.mb_osu_run_check(&k)
	default:
		rc = C.mb_osu_run(&k)
	}
	if rc != C.MPI_SUCCESS {
		return mpi.OSUResult{}, mpi.KernelError("osu kernel", int(rc))
	}
	res := mpi.OSUResult{Time: float64(k.time), Errors: int(k.errors)}
	if k.samples != nil {
		res.Samples = append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(k.samples)), s.Iters)...)
	}
	return res, nil
}

// setup fills k for s with buffers from alloc.
func setup(k *C.mb_osu, c mpi.Comm, s *Spec, alloc func(int) (unsafe.Pointer, error)) error {
	bytes := s.Elements * int64(s.TypeSize)
	if bytes > int64(^uint32(0)>>1) {
		return fmt.Errorf("osu: %d bytes: messages of 2 GiB or more are not supported yet", bytes)
	}
	k.comm, k.kind, k.iters, k.skip = C.mb_comm_f2c(C.int(c.Fortran())), kinds[s.Kind], C.int(s.Iters), C.int(s.Skip)
	k.window, k.vwarm, k.pairs = C.int(max(s.Window, 1)), C.int(s.VWarm), C.int(s.Pairs)
	k.persistent = cBool(s.Persistent)
	if s.Kind == mpi.OSUFan {
		if err := fanPeers(k, s, alloc); err != nil {
			return err
		}
	}
	k._type, k.count, k.bytes = C.mb_osu_base(C.int(s.Type)), C.longlong(s.Elements), C.longlong(bytes)
	bufBytes := bytes
	if s.DDT != nil {
		if err := derived(k, s); err != nil {
			return err
		}
		bufBytes = max(bufBytes, s.DDT.extent()*int64(s.TypeSize))
	}
	k.nbufs, k.threads, k.tagged = 1, C.int(s.Threads), cBool(s.Tagged)
	switch {
	case s.Kind == mpi.OSULatMT:
		k.nbufs = C.int(max(s.Threads, 1)) // a send and a receive buffer per thread
	case s.Multiple:
		k.nbufs = k.window
	}
	return buffers(k, int(bufBytes), s, alloc)
}

// buffers allocates k's message buffers of n bytes, its requests and
// statuses and, with s.Samples, its per-iteration times.
func buffers(k *C.mb_osu, n int, s *Spec, alloc func(int) (unsafe.Pointer, error)) error {
	ptrs, err := alloc(2 * 8 * int(k.nbufs))
	if err != nil {
		return err
	}
	p := unsafe.Slice((*unsafe.Pointer)(ptrs), 2*int(k.nbufs))
	for i := range p {
		if p[i], err = alloc(n); err != nil {
			return err
		}
	}
	k.sbuf, k.rbuf = (*unsafe.Pointer)(ptrs), (*unsafe.Pointer)(unsafe.Pointer(&p[k.nbufs]))
	slots := int(k.window) * max(int(k.npeers), 1) // the fan tests: a request per window slot and peer
	reqs, err := alloc(2 * slots * int(C.sizeof_MPI_Request))
	if err != nil {
		return err
	}
	k.reqs = (*C.MPI_Request)(reqs)
	stats, err := alloc(slots * int(C.sizeof_MPI_Status))
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

// fanPeers gives k the fan tests' part of s: whether this rank sends and
// its peers, in C memory from alloc.
func fanPeers(k *C.mb_osu, s *Spec, alloc func(int) (unsafe.Pointer, error)) error {
	p, err := alloc(4 * max(len(s.Peers), 1))
	if err != nil {
		return err
	}
	peers := unsafe.Slice((*C.int)(p), max(len(s.Peers), 1))
	for i, r := range s.Peers {
		peers[i] = C.int(r)
	}
	k.peers, k.npeers, k.fan_send = (*C.int)(p), C.int(len(s.Peers)), cBool(s.FanSend)
	return nil
}

// ChildSleep is osu_latency_mp's CHILD_SLEEP_SECONDS (osu_util.h): how
// long each forked process sleeps before it exits.
const ChildSleep = 2

// Fork makes n processes that each sleep ChildSleep seconds and exit
// (mb_osu_fork: they run no Go and no MPI); their ids are for Reap.
func Fork(n int) ([]int, error) {
	if n <= 0 {
		return nil, nil
	}
	pids := make([]C.int, n)
	made, err := C.mb_osu_fork(C.int(n), ChildSleep, &pids[0])
	out := make([]int, int(made))
	for i := range out {
		out[i] = int(pids[i])
	}
	if int(made) < n {
		return out, fmt.Errorf("fork: %d of %d processes made: %v", made, n, err)
	}
	return out, nil
}

// Reap ends the processes of Fork (SIGKILL) and waits for them.
func Reap(pids []int) {
	if len(pids) == 0 {
		return
	}
	cp := make([]C.int, len(pids))
	for i, p := range pids {
		cp[i] = C.int(p)
	}
	C.mb_osu_reap(C.int(len(cp)), &cp[0])
}

// derived makes -D's type; the count of the calls is then 1.
func derived(k *C.mb_osu, s *Spec) error {
	t, err := s.DDT.make(k._type, int64(k.count))
	if err != nil {
		return err
	}
	k._type, k.count = t, 1
	return nil
}

// make commits d's type of count elements of base (mb_osu_type); the
// caller frees it.
func (d *DDT) make(base C.MPI_Datatype, count int64) (C.MPI_Datatype, error) {
	kind := map[string]C.int{"cont": 0, "vect": 1, "indx": 2}[d.Kind]
	n := len(d.Blocks)
	arr := make([]C.int, 2*n+1)
	for i := 0; i < n; i++ {
		arr[i], arr[n+i] = C.int(d.Displs[i]), C.int(d.Blocks[i])
	}
	var t C.MPI_Datatype
	rc := C.mb_osu_type(base, kind, C.longlong(count), C.int(d.Stride), C.int(d.Block), C.int(n), &arr[0], &arr[n], &t)
	if rc != C.MPI_SUCCESS {
		return t, mpi.KernelError("osu derived datatype", int(rc))
	}
	return t, nil
}

// collType is -D's type for an OSU collective of count elements of t
// (osucoll.h's types are mb_osu_base's, in the same order).
func (d *DDT) collType(t Type, count int64) (C.MPI_Datatype, error) {
	return d.make(C.mb_osu_base(C.int(t)), count)
}

// cBool is b as a C int.
func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
