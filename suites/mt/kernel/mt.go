//go:build cgo && !nompi

package kernel

/*
#include <stdlib.h>
#include <mpi.h>
#include "mt.h"
#include "handle.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"mpibench/mpi"
)

// Team is the threads of a run with their communicators and buffers, in C
// memory: the threads use them after the call that made them returns.
type Team struct {
	t *C.mb_mt_team
	c *C.mb_mt_case
	n int
}

// NewTeam makes the communicators (MPI_Comm_dup of world per thread with
// MPI_THREAD_MULTIPLE, collective over world) and the buffers.
func NewTeam(world mpi.Comm, s Setup) (*Team, error) {
	if s.Threads < 1 || s.Threads > MaxThreads {
		return nil, fmt.Errorf("mt: %d threads (1 to %d)", s.Threads, MaxThreads)
	}
	t := (*C.mb_mt_team)(C.calloc(1, C.size_t(unsafe.Sizeof(C.mb_mt_team{}))))
	c := (*C.mb_mt_case)(C.calloc(1, C.size_t(unsafe.Sizeof(C.mb_mt_case{}))))
	if t == nil || c == nil {
		C.free(unsafe.Pointer(t))
		C.free(unsafe.Pointer(c))
		return nil, fmt.Errorf("mt: no memory for the threads")
	}
	tm := &Team{t: t, c: c, n: s.Threads}
	rc := C.mb_mt_team_init(t, C.mb_comm_f2c(C.int(world.Fortran())), C.int(s.Threads), cBool(s.Multiple),
		C.size_t(s.SizeA), C.size_t(s.SizeB), C.int(s.Align), C.int(s.MallocAlgo), C.int(s.Window))
	if rc != C.MPI_SUCCESS {
		tm.Free()
		return nil, mpi.KernelError("mt: the threads' communicators and buffers", int(rc))
	}
	return tm, nil
}

// Free releases the communicators and buffers.
func (tm *Team) Free() {
	if tm.t == nil {
		return
	}
	C.mb_mt_team_free(tm.t)
	C.free(unsafe.Pointer(tm.t))
	C.free(unsafe.Pointer(tm.c))
	tm.t, tm.c = nil, nil
}

// Run runs one case on every thread and returns each thread's result.
func (tm *Team) Run(k Case) ([]Result, error) {
	c := tm.c
	c.team = tm.t
	c.kind, c.count, c.dt_int = C.int(k.Kind), C.int(k.Count), cBool(k.Int)
	c.warmup, c.repeat, c.window, c.stride, c.barrier = C.int(k.Warmup), C.int(k.Repeat), C.int(k.Window),
		C.int(k.Stride), C.int(k.Barrier)
	c.check = cBool(k.Check)
	if rc := C.mb_mt_run(c); rc != C.MPI_SUCCESS {
		return nil, mpi.KernelError("mt kernel", int(rc))
	}
	out := make([]Result, tm.n)
	for i := range out {
		out[i] = Result{Time: float64(c.time[i]), OK: c.ok[i] != 0, Defects: int64(c.defects[i])}
	}
	return out, nil
}

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
