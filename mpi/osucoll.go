//go:build cgo && !nompi

package mpi

// #include "osucoll.h"
import "C"

import "unsafe"

// Exec runs the pass in C. With check every repetition is filled,
// poisoned and verified outside its timed region (osucoll.h).
func (r *OSUColl) Exec(check bool) (OSUCollTimes, error) {
	k := C.mb_osucoll{comm: r.Comm.c, kind: C.int(r.Kind), nb: C.int(b2i(r.NB)), _type: C.int(r.Type),
		sbuf: r.Send.p, rbuf: r.Recv.p, count: C.int(r.Count), counts: (*C.int)(r.Counts.p),
		displs: (*C.int)(r.Displs.p), skip: C.int(r.Skip), iters: C.int(r.Iters),
		inplace: C.int(b2i(r.InPlace)), root: C.int(r.Root), compute: C.double(r.Compute),
		probes: C.int(r.Probes), vwarm: C.int(r.ValidationWarmup)}
	if r.DDT != nil {
		t, err := r.DDT.collType(r.Type, r.Elements)
		if err != nil {
			return OSUCollTimes{}, err
		}
		defer C.MPI_Type_free(&t) // after the pass; an error here changes nothing measured
		k.derived, k.ddt = 1, t
	}
	var lat Buffer
	if r.Samples && r.Iters > 0 {
		var err error
		// C memory: a Go slice may not sit in the struct C is handed.
		if lat, err = Alloc(8 * r.Iters); err != nil {
			return OSUCollTimes{}, err
		}
		defer lat.Free()
		k.lat = (*C.double)(lat.p)
	}
	var o C.mb_osucoll_times
	if rc := C.mb_osucoll_run(&k, C.int(b2i(check)), &o); rc != C.MPI_SUCCESS {
		return OSUCollTimes{}, kernelError("OSU collective", rc)
	}
	t := OSUCollTimes{Total: float64(o.total), Init: float64(o.init), Compute: float64(o.compute),
		Test: float64(o.test), Wait: float64(o.wait), Defects: int64(o.bad)}
	if k.lat != nil {
		t.Samples = append([]float64(nil), unsafe.Slice((*float64)(lat.p), r.Iters)...)
	}
	return t, nil
}

// OSUCompute runs OSU's dummy compute for the given seconds (tests).
func OSUCompute(seconds float64) { C.mb_osu_compute(C.double(seconds)) }
