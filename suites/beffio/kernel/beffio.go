//go:build cgo && !nompi

package kernel

/*
#include <stdlib.h>
#include <mpi.h>
#include "beffio.h"
#include "handle.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"mpibench/mpi"
)

// File is an open b_eff_io benchmark file of one partition.
type File struct {
	fh   C.MPI_File
	comm C.MPI_Comm // the partition: barriers and the time check run on it
	name string
}

// Open opens name for one access method (Write creates it, Read deletes
// it on close), on MPI_COMM_SELF when self is true (separate files) and
// on comm otherwise. It returns the time from the
// barrier before the open to the barrier after it.
func Open(comm mpi.Comm, self bool, name string, access int) (*File, float64, error) {
	mpi.PrivateFiles()
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	f := &File{comm: C.mb_comm_f2c(C.int(comm.Fortran())), name: name}
	var t C.double
	if rc := C.mb_beffio_open(f.comm, cBool(self), cs, C.int(access), &f.fh, &t); rc != C.MPI_SUCCESS {
		return nil, 0, mpi.CallError("MPI_File_open "+name, int(rc))
	}
	return f, float64(t), nil
}

// Close closes the file and waits for the partition; it returns the time.
func (f *File) Close() (float64, error) {
	var t C.double
	if rc := C.mb_beffio_close(f.comm, &f.fh, &t); rc != C.MPI_SUCCESS {
		return 0, mpi.CallError("MPI_File_close "+f.name, int(rc))
	}
	return float64(t), nil
}

// SetView sets the view of one pattern of the given type (0..4): for
// type 0 this rank's l bytes at rank·l of every n·l bytes from disp, for
// the others contiguous bytes from disp.
func (f *File) SetView(typ, n, rank, l int, disp int64) error {
	if rc := C.mb_beffio_view(f.fh, C.int(typ), C.int(n), C.int(rank), C.int(l), C.MPI_Offset(disp)); rc != C.MPI_SUCCESS {
		return mpi.CallError("MPI_File_set_view", int(rc))
	}
	return nil
}

// Exec runs the loop in C. Writes mark every chunk with rank- and
// call-dependent bytes, reads verify them (see beffio.c). A failed MPI
// call, a transfer of fewer bytes than asked, or a file system found full
// ends the loop at once with an error that names the file, the call and
// the offset; it is this process's alone, so the job must be aborted.
func (f *File) Exec(p Pattern) (Result, error) {
	if p.Len > p.Buf.Len() || p.Len < 0 {
		return Result{}, &mpi.Error{Call: "b_eff_io pattern", Text: "buffer too small"}
	}
	k := C.mb_beffio_pat{
		fh: f.fh, comm: f.comm, _type: C.int(p.Type), write: cBool(p.Write),
		buf: (*C.char)(p.Buf.Ptr()), len: C.int(p.Len), reps: C.longlong(p.Reps), sched: C.double(p.Sched),
		maxreps: C.longlong(p.MaxReps), l: C.int(max(p.Chunk, 1)), rank: C.int(p.Rank),
		pattern: C.int(p.Pattern), room: C.longlong(p.Room),
	}
	if p.Write && p.Dir != "" {
		k.dir = C.CString(p.Dir)
		defer C.free(unsafe.Pointer(k.dir))
	}
	var o C.mb_beffio_out
	rc := C.mb_beffio_pattern(&k, &o)
	if rc != C.MPI_SUCCESS {
		return Result{}, f.failure(p, rc, &o)
	}
	return Result{Calls: int64(o.done), Time: float64(o.t), Defects: int64(o.defects)}, nil
}

// failure describes a loop that stopped: which call on which file, where
// the file pointer stood, and why.
func (f *File) failure(p Pattern, rc C.int, o *C.mb_beffio_out) error {
	at := "at an unknown offset"
	if o.pos >= 0 {
		at = fmt.Sprintf("with the file pointer at byte %d after it", int64(o.pos))
	}
	call := C.GoString(o.call)
	where := fmt.Sprintf("%s of %s, call %d of pattern %d, %s", call, f.name, int64(o.done)+1, p.Pattern, at)
	switch rc {
	case C.MB_BEFFIO_SHORT:
		verb := "read"
		if p.Write {
			verb = "wrote"
		}
		return &mpi.LocalError{Err: fmt.Errorf("%s: %s %d of %d bytes", where, verb, int64(o.got), p.Len)}
	case C.MB_BEFFIO_FULL:
		return mpi.DiskFull(p.Dir, fmt.Sprintf("%s (pattern %d)", f.name, p.Pattern), int64(o.free), p.Room)
	}
	return mpi.CallError(where, int(rc))
}

// cBool is b as a C int.
func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
