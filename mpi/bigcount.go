//go:build cgo && !nompi

package mpi

// #include "bigcount.h"
import "C"

import (
	"slices"
	"unsafe"
)

// BigCountMode is the count mode of n items (floats if floats) in this
// build: "int", "mpi4-large-count" or "derived-type" (bigcount.h).
func BigCountMode(n int64, floats bool) string {
	return countModes[C.mb_big_mode_of(C.longlong(n), C.int(b2i(floats)))]
}

// View is n bytes of b from byte off on: memory of b, not to be freed;
// it ends where b ends.
func (b Buffer) View(off, n int) Buffer {
	off = min(max(off, 0), b.n)
	return Buffer{unsafe.Add(b.p, off), min(n, b.n-off)}
}

// OSUBig is an OSU loop (osu_latency, osu_bw, osu_bibw) at a size that
// may pass 2 GiB, MPI_CHAR, through the large-count layer.
type OSUBig struct {
	Kind    OSUKind
	Bytes   int64
	Iters   int
	Skip    int
	Window  int  // osu_bw, osu_bibw
	VWarm   int  // -u with -c
	Check   bool // -c
	Samples bool // keep each timed iteration's time
}

// osuBigKinds maps the OSU loops with a large-count kernel to
// bigcount.h's enum mb_bigosu_kind.
var osuBigKinds = map[OSUKind]C.int{OSULatency: C.MB_BIGOSU_LATENCY, OSUBw: C.MB_BIGOSU_BW,
	OSUBibw: C.MB_BIGOSU_BIBW}

// OSUBigKind tells whether k has a large-count kernel.
func OSUBigKind(k OSUKind) bool { _, ok := osuBigKinds[k]; return ok }

// OSUBigRun runs one size on ranks 0 and 1 of c with the buffers the loop
// needs (bigcount.h), and returns the result and the count mode.
func OSUBigRun(c Comm, s *OSUBig) (OSUResult, string, error) {
	kind, ok := osuBigKinds[s.Kind]
	if !ok {
		return OSUResult{}, "", kernelError("no large-count OSU kernel", C.MPI_ERR_ARG)
	}
	rank, w := c.Rank(), max(s.Window, 1)
	sizes := []int64{0, 0, int64(2 * w * int(C.sizeof_MPI_Request)), int64(w * int(C.sizeof_MPI_Status)),
		8 * int64(s.Iters)}
	if s.Kind != OSUBw || rank == 0 {
		sizes[0] = s.Bytes // the send buffer; osu_latency's only one
	}
	if s.Kind == OSUBibw || (s.Kind == OSUBw && rank == 1) {
		sizes[1] = s.Bytes
	}
	bufs, err := allocAll(sizes)
	defer freeAll(bufs)
	if err != nil {
		return OSUResult{}, "", err
	}
	k := C.mb_bigosu{comm: c.c, kind: kind, sbuf: bufs[0].p, rbuf: bufs[1].p, n: C.longlong(s.Bytes),
		iters: C.int(s.Iters), skip: C.int(s.Skip), window: C.int(w), vwarm: C.int(s.VWarm),
		reqs: (*C.MPI_Request)(bufs[2].p), stats: (*C.MPI_Status)(bufs[3].p)}
	if s.Samples {
		k.samples = (*C.double)(bufs[4].p)
	}
	if rc := C.mb_bigosu_run(&k, C.int(b2i(s.Check))); rc != C.MPI_SUCCESS {
		return OSUResult{}, "", kernelError("osu large-count kernel", rc)
	}
	res := OSUResult{Time: float64(k.time), Errors: int(k.errors)}
	if s.Samples {
		res.Samples = append([]float64(nil), unsafe.Slice((*float64)(bufs[4].p), s.Iters)...)
	}
	return res, countModes[k.mode], nil
}

// OSUCollBigRun runs one size of an OSU collective on every rank of c,
// with the buffers bufs says, and returns the rank's times (Total,
// Samples, Defects) and the count mode.
func OSUCollBigRun(c Comm, s *OSUCollBig) (OSUCollTimes, string, error) {
	kind := slices.Index(osuCollBig, s.Kind)
	if kind < 0 {
		return OSUCollTimes{}, "", kernelError("no large-count OSU collective", C.MPI_ERR_ARG)
	}
	send, recv := s.bufs(c.Rank(), c.Size())
	bufs, err := allocAll([]int64{send, recv, 8 * int64(s.Iters)})
	defer freeAll(bufs)
	if err != nil {
		return OSUCollTimes{}, "", err
	}
	n := s.Bytes
	if s.Kind != OSUBcast {
		n /= 4 // floats
	}
	k := C.mb_bigcoll{comm: c.c, kind: C.int(kind), sbuf: bufs[0].p, rbuf: bufs[1].p, n: C.longlong(n),
		iters: C.int(s.Iters), skip: C.int(s.Skip), vwarm: C.int(s.VWarm), root: C.int(s.Root)}
	if s.Samples {
		k.samples = (*C.double)(bufs[2].p)
	}
	if rc := C.mb_bigcoll_run(&k, C.int(b2i(s.Check))); rc != C.MPI_SUCCESS {
		return OSUCollTimes{}, "", kernelError("osu large-count collective", rc)
	}
	t := OSUCollTimes{Total: float64(k.time), Defects: int64(k.errors)}
	if s.Samples {
		t.Samples = append([]float64(nil), unsafe.Slice((*float64)(bufs[2].p), s.Iters)...)
	}
	return t, countModes[k.mode], nil
}

// allocAll allocates a buffer of max(n, 1) bytes for each size n, up to
// the first failure; freeAll frees those allocated.
func allocAll(sizes []int64) ([]Buffer, error) {
	bufs := make([]Buffer, len(sizes))
	for i, n := range sizes {
		var err error
		if bufs[i], err = Alloc(int(max(n, 1))); err != nil {
			return bufs, err
		}
	}
	return bufs, nil
}

func freeAll(bufs []Buffer) {
	for i := range bufs {
		bufs[i].Free()
	}
}
