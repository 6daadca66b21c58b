//go:build !nompi

package mpi

/*
#include <stdlib.h>
#include <mpi.h>
#include "beffio.h"
*/
import "C"

import "unsafe"

// BeffIO access methods, in the order of beffio.h.
const (
	BeffIOWrite = iota
	BeffIORewrite
	BeffIORead
)

// BeffIOFile is an open b_eff_io benchmark file of one partition.
type BeffIOFile struct {
	fh   C.MPI_File
	comm Comm // the partition: barriers and the time check run on it
}

// BeffIOOpen opens name for one access method (BeffIOWrite creates it,
// BeffIORead deletes it on close), on MPI_COMM_SELF when self is true
// (separate files) and on comm otherwise. It returns the time from the
// barrier before the open to the barrier after it.
func BeffIOOpen(comm Comm, self bool, name string, access int) (*BeffIOFile, float64, error) {
	privateFiles()
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	s := C.int(0)
	if self {
		s = 1
	}
	f := &BeffIOFile{comm: comm}
	var t C.double
	if rc := C.mb_beffio_open(comm.c, s, cs, C.int(access), &f.fh, &t); rc != C.MPI_SUCCESS {
		return nil, 0, mpiError("MPI_File_open "+name, rc)
	}
	return f, float64(t), nil
}

// Close closes the file and waits for the partition; it returns the time.
func (f *BeffIOFile) Close() (float64, error) {
	var t C.double
	if rc := C.mb_beffio_close(f.comm.c, &f.fh, &t); rc != C.MPI_SUCCESS {
		return 0, mpiError("MPI_File_close", rc)
	}
	return float64(t), nil
}

// SetView sets the view of one pattern of the given type (0..4): for
// type 0 this rank's l bytes at rank·l of every n·l bytes from disp, for
// the others contiguous bytes from disp.
func (f *BeffIOFile) SetView(typ, n, rank, l int, disp int64) error {
	if rc := C.mb_beffio_view(f.fh, C.int(typ), C.int(n), C.int(rank), C.int(l), C.MPI_Offset(disp)); rc != C.MPI_SUCCESS {
		return mpiError("MPI_File_set_view", rc)
	}
	return nil
}

// BeffIOPattern is one timed loop of a pattern.
type BeffIOPattern struct {
	Type  int     // 0..4
	Write bool    // write or rewrite; false: read
	Buf   Buffer  // at least Len bytes
	Len   int     // L: bytes per call
	Reps  int64   // > 0: exactly Reps calls; 0: time-driven
	Sched float64 // seconds, when time-driven
}

// Exec runs the loop in C and returns the number of calls made and the
// time from the barrier before the first to the barrier after the last
// (and after MPI_File_sync for writes).
func (f *BeffIOFile) Exec(p BeffIOPattern) (int64, float64, error) {
	if p.Len > p.Buf.Len() || p.Len < 0 {
		return 0, 0, &Error{Call: "b_eff_io pattern", Text: "buffer too small"}
	}
	w := C.int(0)
	if p.Write {
		w = 1
	}
	k := C.mb_beffio_pat{
		fh: f.fh, comm: f.comm.c, _type: C.int(p.Type), write: w,
		buf: (*C.char)(p.Buf.p), len: C.int(p.Len), reps: C.longlong(p.Reps), sched: C.double(p.Sched),
	}
	var done C.longlong
	var t C.double
	if rc := C.mb_beffio_pattern(&k, &done, &t); rc != C.MPI_SUCCESS {
		return 0, 0, mpiError("b_eff_io pattern", rc)
	}
	return int64(done), float64(t), nil
}
