//go:build cgo && !nompi

package kernel

/*
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "osurma.h"
#include "handle.h"
*/
import "C"

import (
	"unsafe"

	"mpibench/mpi"
)

// RunRMA runs one size of an OSU one-sided test on c (ranks 0 and 1):
// the buffers are made for it, filled with 'a' as OSU fills them, and
// released after; the window is created and freed inside.
func RunRMA(c mpi.Comm, s *RMASpec) (RMAResult, error) {
	bytes := s.Size * int64(s.Window)
	var bufs []mpi.Buffer
	defer func() {
		for i := range bufs {
			bufs[i].Free()
		}
	}()
	alloc := func(n int64) (unsafe.Pointer, error) {
		b, err := mpi.Alloc(int(max(n, 1)))
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, b)
		return b.Ptr(), nil
	}
	k := C.mb_osr{comm: C.mb_comm_f2c(C.int(c.Fortran())), op: C.int(s.Op), sync: C.int(s.Sync), win: C.int(s.Win),
		shape: C.int(s.Shape), size: C.longlong(s.Size), window: C.int(s.Window), iters: C.int(s.Iters),
		skip: C.int(s.Skip), pre_barriers: C.int(s.PreBarriers), pairs: C.int(s.Pairs)}
	buf, err := alloc(bytes)
	if err != nil {
		return RMAResult{}, err
	}
	C.memset(buf, 'a', C.size_t(bytes))
	k.buf = (*C.char)(buf)
	if s.Win != WinAllocate { // MPI_Win_allocate gives the window's memory
		base, err := alloc(bytes)
		if err != nil {
			return RMAResult{}, err
		}
		C.memset(base, 'a', C.size_t(bytes))
		k.base = (*C.char)(base)
	}
	smp, err := alloc(8 * int64(max(s.Iters, 1)))
	if err != nil {
		return RMAResult{}, err
	}
	k.samples = (*C.double)(smp)
	if rc := C.mb_osr_run(&k); rc != C.MPI_SUCCESS {
		return RMAResult{}, mpi.KernelError("osu one-sided kernel", int(rc))
	}
	res := RMAResult{Time: float64(k.time)}
	if c.Rank() == 0 {
		res.Samples = append([]float64(nil), unsafe.Slice((*float64)(smp), s.Iters)...)
	}
	return res, nil
}
