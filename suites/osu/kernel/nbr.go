//go:build cgo && !nompi

package kernel

/*
#include "osucoll.h"
#include "handle.h"
*/
import "C"

import (
	"mpibench/mpi"
)

// NewGraph makes the distributed graph of this rank's sources and
// destinations on comm (every rank calls it), as omb_neighborhood_create
// does, and returns it with the seconds MPI_Dist_graph_create_adjacent
// took here. blocks[l] is the index of this rank among the destinations of
// sources[l] (the check's; the call does not use it).
func NewGraph(comm mpi.Comm, sources, dests, blocks []int) (*Graph, float64, error) {
	g := &Graph{In: len(sources), Out: len(dests)}
	var err error
	if g.srcs, err = int32Buffer(sources); err == nil {
		g.blocks, err = int32Buffer(blocks)
	}
	d, err2 := int32Buffer(dests)
	defer d.Free()
	if err == nil {
		err = err2
	}
	if err != nil {
		g.free()
		return nil, 0, err
	}
	var c C.MPI_Comm
	var sec C.double
	rc := C.mb_osu_nbr_create(C.mb_comm_f2c(C.int(comm.Fortran())), C.int(g.In), (*C.int)(g.srcs.Ptr()),
		C.int(g.Out), (*C.int)(d.Ptr()), &c, &sec)
	if rc != C.MPI_SUCCESS {
		g.free()
		return nil, 0, mpi.KernelError("MPI_Dist_graph_create_adjacent", int(rc))
	}
	g.handle = int32(C.mb_comm_c2f(c))
	return g, float64(sec), nil
}

// Free frees the graph communicator and the buffers.
func (g *Graph) Free() error {
	if g == nil {
		return nil
	}
	c := C.mb_comm_f2c(C.int(g.handle))
	g.free()
	if rc := C.MPI_Comm_free(&c); rc != C.MPI_SUCCESS {
		return mpi.KernelError("MPI_Comm_free", int(rc))
	}
	return nil
}

func (g *Graph) free() {
	g.srcs.Free()
	g.blocks.Free()
}

// CartDims are the dimensions MPI_Dims_create gives comm's processes in d
// dimensions; as omb_neighborhood_create, a periodic cartesian
// communicator of them is made and freed, and comm's ranks meet in an
// MPI_Barrier (every rank calls it).
func CartDims(comm mpi.Comm, d int) ([]int, error) {
	b, err := mpi.Alloc(4 * d)
	if err != nil {
		return nil, err
	}
	defer b.Free()
	if rc := C.mb_osu_cart(C.mb_comm_f2c(C.int(comm.Fortran())), C.int(d), (*C.int)(b.Ptr())); rc != C.MPI_SUCCESS {
		return nil, mpi.KernelError("MPI_Cart_create", int(rc))
	}
	dims := make([]int, d)
	for i, v := range b.Int32s() {
		dims[i] = int(v)
	}
	return dims, nil
}

// int32Buffer is v in C memory (at least 4 bytes).
func int32Buffer(v []int) (mpi.Buffer, error) {
	b, err := mpi.Alloc(4 * max(len(v), 1))
	if err != nil {
		return b, err
	}
	for i, x := range v {
		b.Int32s()[i] = int32(x)
	}
	return b, nil
}
