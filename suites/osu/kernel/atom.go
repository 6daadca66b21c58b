//go:build cgo && !nompi

package kernel

/*
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "osuatom.h"
#include "handle.h"
*/
import "C"

import (
	"unsafe"

	"mpibench/mpi"
)

// RunAtom runs one size and datatype of an OSU atomic one-sided test on
// c (ranks 0 and 1): its buffers are made and filled as OSU fills them,
// and released after; the window is created and freed inside.
func RunAtom(c mpi.Comm, s *AtomSpec) (AtomResult, error) {
	var bufs []mpi.Buffer
	defer func() {
		for i := range bufs {
			bufs[i].Free()
		}
	}()
	alloc := func(n int64, fill byte) (unsafe.Pointer, error) {
		b, err := mpi.Alloc(int(max(n, 1)))
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, b)
		C.memset(b.Ptr(), C.int(fill), C.size_t(max(n, 1)))
		return b.Ptr(), nil
	}
	k := C.mb_osa{comm: C.mb_comm_f2c(C.int(c.Fortran())), op: C.int(s.Op), sync: C.int(s.Sync), win: C.int(s.Win),
		_type: C.int(s.Type), count: C.int(s.Count), bytes: C.longlong(s.Bytes), iters: C.int(s.Iters),
		skip: C.int(s.Skip), pre_win: C.int(s.PreWin), pre_loop: C.int(s.PreLoop),
		fill_s: C.char(s.Fill[0]), fill_t: C.char(s.Fill[1]), fill_c: C.char(s.Fill[2]), fill_w: C.char(s.Fill[3])}
	if s.Exclusive {
		k.excl = 1
	}
	var err error
	if k.sbuf, err = alloc(s.Bytes, s.Fill[0]); err != nil {
		return AtomResult{}, err
	}
	if s.Op != AtomAcc {
		if k.tbuf, err = alloc(s.Bytes, s.Fill[1]); err != nil {
			return AtomResult{}, err
		}
	}
	if s.Op == AtomCAS {
		if k.cbuf, err = alloc(s.Bytes, s.Fill[2]); err != nil {
			return AtomResult{}, err
		}
	}
	if s.Win != WinAllocate { // MPI_Win_allocate gives the window's memory
		if k.base, err = alloc(s.Bytes, s.Fill[3]); err != nil {
			return AtomResult{}, err
		}
	}
	smp, err := alloc(8*int64(max(s.Iters, 1)), 0)
	if err != nil {
		return AtomResult{}, err
	}
	k.samples = (*C.double)(smp)
	var rc C.int
	if s.Check {
		rc = C.mb_osa_run_check(&k)
	} else {
		rc = C.mb_osa_run(&k)
	}
	if rc != C.MPI_SUCCESS {
		return AtomResult{}, mpi.KernelError("osu atomic one-sided kernel", int(rc))
	}
	res := AtomResult{Time: float64(k.time), Trials: int64(k.trials), Failures: int64(k.failures),
		First: int64(k.first), Last: int64(k.last)}
	if c.Rank() == 0 {
		res.Samples = append([]float64(nil), unsafe.Slice((*float64)(smp), s.Iters)...)
	}
	return res, nil
}
