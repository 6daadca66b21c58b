//go:build cgo && !nompi

package kernel

/*
#include <stdlib.h>
#include "iokernels.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"mpibench/mpi"
)

func (r *FileRun) c() C.mb_io {
	return C.mb_io{
		fh: file(r.File), comm: comm(r.Comm), access: C.int(r.Access), collective: cBool(r.Collective),
		write: cBool(r.Write), aggregate: cBool(r.Aggregate), buf: r.Buf.Ptr(), count: C.int(r.Count),
		bufstep: C.longlong(r.BufStep), offset: C.MPI_Offset(r.Offset), stride: C.MPI_Offset(r.Stride),
		nrep: C.int(r.Reps), nbarr: C.int(r.Barriers), short_ok: cBool(r.ShortOK),
		chk_rank: C.int(r.Rank), save: r.Save.Ptr(),
	}
}

// fits guards the C loop of a checked read against saving beyond Save.
func (r *FileRun) fits() error {
	if r.Check && !r.Write && r.Reps*r.Count > r.Save.Len() {
		return &mpi.Error{Call: "IMB-IO check", Code: -1, Text: "reads beyond the buffer that keeps them"}
	}
	return nil
}

// Exec runs the blocking loop and returns the time per transfer in seconds.
func (r *FileRun) Exec() (float64, error) { return r.exec(false) }

// failure names the transfer that failed or moved fewer bytes than asked:
// the call, the file, where, and the MPI error or the bytes moved. It is
// this process's own: the job must be aborted.
func (r *FileRun) failure(call string, rc C.int) error {
	var got, pos C.longlong
	C.mb_io_failure(&got, &pos)
	at := "at an unknown offset"
	switch {
	case pos >= 0 && r.Access == FileExpl:
		at = fmt.Sprintf("at byte offset %d", int64(pos))
	case pos >= 0:
		at = fmt.Sprintf("with the file pointer at byte %d after it", int64(pos))
	}
	where := fmt.Sprintf("%s of %s %s", call, r.File.Name(), at)
	if rc != C.MB_IO_SHORT {
		return mpi.CallError(where, int(rc))
	}
	verb := "read"
	if r.Write {
		verb = "wrote"
	}
	return &mpi.LocalError{Err: fmt.Errorf("%s: %s %d of %d bytes", where, verb, int64(got), r.Count)}
}

// ExecOverlapped runs the non-blocking loop, CPU_Exploit between the start
// and the end of every transfer, and returns the time per transfer.
func (r *FileRun) ExecOverlapped() (float64, error) { return r.exec(true) }

func (r *FileRun) exec(overlapped bool) (float64, error) {
	if err := r.fits(); err != nil {
		return 0, err
	}
	k := r.c()
	var t C.double
	var call *C.char
	var rc C.int
	switch {
	case overlapped && r.Check:
		rc = C.mb_io_icheck(&k, &t, &call)
	case overlapped:
		rc = C.mb_io_irun(&k, &t, &call)
	case r.Check:
		rc = C.mb_io_check(&k, &t, &call)
	default:
		rc = C.mb_io_run(&k, &t, &call)
	}
	if rc != C.MPI_SUCCESS {
		return 0, r.failure(C.GoString(call), rc)
	}
	return float64(t), nil
}

// OpenCloseRun times reps MPI_File_open / one-byte MPI_File_write /
// MPI_File_close rounds on c after the barriers.
func OpenCloseRun(c mpi.Comm, name string, reps, barriers int) (float64, error) {
	mpi.PrivateFiles()
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var t C.double
	var call *C.char
	if rc := C.mb_io_open_close(comm(c), cs, C.int(reps), C.int(barriers), &t, &call); rc != C.MPI_SUCCESS {
		if rc == C.MB_IO_SHORT {
			return 0, &mpi.LocalError{Err: fmt.Errorf("MPI_File_write of %s: wrote 0 of 1 byte", name)}
		}
		return 0, mpi.CallError(C.GoString(call)+" of "+name, int(rc))
	}
	return float64(t), nil
}

// cpuSecsOverride replaces the target of CalibrateCPUExploit when > 0; only
// a mutant build (mutant_cpu.go) sets it.
var cpuSecsOverride float64

// CalibrateCPUExploit calibrates CPU_Exploit for target seconds and returns
// the time the calibrated kernel takes undisturbed (its CPU time: see
// io_cpu.c) and its Mflop/s.
func CalibrateCPUExploit(target float64) (secs, mflops float64) {
	if cpuSecsOverride > 0 {
		target = cpuSecsOverride
	}
	var m C.double
	s := C.mb_cpu_calibrate(C.double(target), &m)
	return float64(s), float64(m)
}

// CPUExploit runs the calibrated CPU_Exploit kernel once.
func CPUExploit() { C.mb_cpu_exploit() }
