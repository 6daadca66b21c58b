//go:build cgo && !nompi

package kernel

/*
#include "osucoll.h"
#include "handle.h"
*/
import "C"

import (
	"unsafe"

	"mpibench/mpi"
)

// collKinds maps package mpi's collective kinds to osucoll.h's.
var collKinds = [...]C.int{
	mpi.OSUAllgather:          C.MB_OSU_ALLGATHER,
	mpi.OSUAllgatherv:         C.MB_OSU_ALLGATHERV,
	mpi.OSUAllreduce:          C.MB_OSU_ALLREDUCE,
	mpi.OSUAlltoall:           C.MB_OSU_ALLTOALL,
	mpi.OSUAlltoallv:          C.MB_OSU_ALLTOALLV,
	mpi.OSUBarrier:            C.MB_OSU_BARRIER,
	mpi.OSUBcast:              C.MB_OSU_BCAST,
	mpi.OSUGather:             C.MB_OSU_GATHER,
	mpi.OSUGatherv:            C.MB_OSU_GATHERV,
	mpi.OSUReduce:             C.MB_OSU_REDUCE,
	mpi.OSUReduceScatter:      C.MB_OSU_REDUCE_SCATTER,
	mpi.OSUScatter:            C.MB_OSU_SCATTER,
	mpi.OSUScatterv:           C.MB_OSU_SCATTERV,
	mpi.OSUReduceScatterBlock: C.MB_OSU_REDUCE_SCATTER_BLOCK,
	mpi.OSUAlltoallw:          C.MB_OSU_ALLTOALLW,
	mpi.OSUNeighborAllgather:  C.MB_OSU_NBR_ALLGATHER,
	mpi.OSUNeighborAllgatherv: C.MB_OSU_NBR_ALLGATHERV,
	mpi.OSUNeighborAlltoall:   C.MB_OSU_NBR_ALLTOALL,
	mpi.OSUNeighborAlltoallv:  C.MB_OSU_NBR_ALLTOALLV,
	mpi.OSUNeighborAlltoallw:  C.MB_OSU_NBR_ALLTOALLW,
}

// Exec runs the pass in C. With check every repetition is filled,
// poisoned and verified outside its timed region (osucoll.h).
func (r *Coll) Exec(check bool) (mpi.OSUCollTimes, error) {
	k := C.mb_osucoll{comm: C.mb_comm_f2c(C.int(r.Comm.Fortran())), kind: collKinds[r.Kind], nb: cBool(r.NB),
		_type: C.int(r.Type), sbuf: r.Send.Ptr(), rbuf: r.Recv.Ptr(), count: C.int(r.Count),
		counts: (*C.int)(r.Counts.Ptr()), displs: (*C.int)(r.Displs.Ptr()), skip: C.int(r.Skip),
		iters: C.int(r.Iters), inplace: cBool(r.InPlace), root: C.int(r.Root), compute: C.double(r.Compute),
		probes: C.int(r.Probes), vwarm: C.int(r.ValidationWarmup), nbr: C.MPI_COMM_NULL,
		persistent: cBool(r.Persistent), prebar: C.int(r.PreBarriers)}
	if g := r.Graph; g != nil {
		k.nbr, k.indeg, k.outdeg = C.mb_comm_f2c(C.int(g.handle)), C.int(g.In), C.int(g.Out)
		k.srcs, k.srcblk = (*C.int)(g.srcs.Ptr()), (*C.int)(g.blocks.Ptr())
	}
	if r.DDT != nil {
		t, err := r.DDT.collType(r.Type, r.Elements)
		if err != nil {
			return mpi.OSUCollTimes{}, err
		}
		defer C.MPI_Type_free(&t) // after the pass; an error here changes nothing measured
		k.derived, k.ddt = 1, t
	}
	var lat mpi.Buffer
	if r.Samples && r.Iters > 0 {
		var err error
		// C memory: a Go slice may not sit in the struct C is handed.
		if lat, err = mpi.Alloc(8 * r.Iters); err != nil {
			return mpi.OSUCollTimes{}, err
		}
		defer lat.Free()
		k.lat = (*C.double)(lat.Ptr())
	}
	var o C.mb_osucoll_times
	if rc := C.mb_osucoll_run(&k, cBool(check), &o); rc != C.MPI_SUCCESS {
		return mpi.OSUCollTimes{}, mpi.KernelError("OSU collective", int(rc))
	}
	t := mpi.OSUCollTimes{Total: float64(o.total), Init: float64(o.init), Compute: float64(o.compute),
		Test: float64(o.test), Wait: float64(o.wait), Defects: int64(o.bad)}
	if k.lat != nil {
		t.Samples = append([]float64(nil), unsafe.Slice((*float64)(lat.Ptr()), r.Iters)...)
	}
	return t, nil
}

// MPI4 says whether the MPI library this binary was compiled against has
// MPI 4.0's persistent collectives (MPI_Allreduce_init ...): OSU 7.4
// builds its c/mpi/collective/persistent tests only against an MPI-4
// library (configure.ac: MPI4_LIBRARY), and so does mpibench run them.
func MPI4() bool { return C.mb_osu_mpi4() != 0 }

// Compute runs OSU's dummy compute for the given seconds (tests).
func Compute(seconds float64) { C.mb_osu_compute(C.double(seconds)) }
