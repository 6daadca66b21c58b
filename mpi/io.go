//go:build cgo && !nompi

package mpi

/*
#cgo LDFLAGS: -lm
#include <stdlib.h>
#include <mpi.h>
#include "io.h"

static MPI_Comm mb_io_self(void) { return MPI_COMM_SELF; }
static int mb_io_set_size(MPI_File f, long long n) { return MPI_File_set_size(f, (MPI_Offset)n); }
static int mb_io_get_size(MPI_File f, long long *n) {
	MPI_Offset s = 0;
	int rc = MPI_File_get_size(f, &s);
	*n = (long long)s;
	return rc;
}
static int mb_io_write_at(MPI_File f, long long off, void *b, int n, int *got) {
	MPI_Status st;
	int rc = MPI_File_write_at(f, (MPI_Offset)off, b, n, MPI_BYTE, &st);
	if (rc == MPI_SUCCESS)
		rc = MPI_Get_count(&st, MPI_BYTE, got);
	return rc;
}
static int mb_io_read_at(MPI_File f, long long off, void *b, int n, int *got) {
	MPI_Status st;
	int rc = MPI_File_read_at(f, (MPI_Offset)off, b, n, MPI_BYTE, &st);
	if (rc == MPI_SUCCESS)
		rc = MPI_Get_count(&st, MPI_BYTE, got);
	return rc;
}
static int mb_io_delete(const char *name) { return MPI_File_delete((char *)name, mb_io_user_info()); }
static int mb_io_gather_count(int *n, int *all, MPI_Comm c) { return MPI_Gather(n, 1, MPI_INT, all, 1, MPI_INT, 0, c); }
static int mb_io_gatherv(void *s, int n, void *r, int *counts, int *displs, MPI_Comm c) {
	return MPI_Gatherv(s, n, MPI_BYTE, r, counts, displs, MPI_BYTE, 0, c);
}
*/
import "C"

import (
	"fmt"
	"sync"
	"syscall"
	"unsafe"
)

// FileSelf is MPI_COMM_SELF, the communicator of per-process files.
func FileSelf() Comm { return Comm{C.mb_io_self()} }

// File is an MPI-IO file handle; the zero File is not open.
type File struct {
	f    C.MPI_File
	open bool
	name string
}

// OpenFile is a collective MPI_File_open on c with amode
// MPI_MODE_CREATE | MPI_MODE_RDWR and the user info (MPI_INFO_NULL).
func OpenFile(c Comm, name string) (File, error) {
	privateFiles()
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var f C.MPI_File
	if rc := C.mb_io_open(c.c, cs, &f); rc != C.MPI_SUCCESS {
		return File{}, mpiError("MPI_File_open", rc)
	}
	return File{f: f, open: true, name: name}, nil
}

// CreateFile is OpenFile with MPI_MODE_EXCL added: it fails when name
// exists, even as a dangling symbolic link. It is for a file just deleted.
func CreateFile(c Comm, name string) (File, error) {
	privateFiles()
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var f C.MPI_File
	if rc := C.mb_io_create(c.c, cs, &f); rc != C.MPI_SUCCESS {
		return File{}, mpiError("MPI_File_open(MPI_MODE_EXCL)", rc)
	}
	return File{f: f, open: true, name: name}, nil
}

var privateMask sync.Once

// privateFiles adds 077 to the process's umask, once: MPI-IO libraries
// create files with mode 0666 less the umask, and the benchmark files lie
// in a directory the user chose, which may be shared like /tmp. The mask
// stays for the rest of the process, since the libraries create helper
// files later too (ROMIO's shared file pointer file on first use). Every
// function of this package that may create a file calls it.
func privateFiles() {
	privateMask.Do(func() {
		old := syscall.Umask(0o077)
		syscall.Umask(old | 0o077)
	})
}

// Open reports whether the handle is open.
func (f *File) Open() bool { return f.open }

// Close is MPI_File_close; closing a File that is not open does nothing.
func (f *File) Close() error {
	if !f.open {
		return nil
	}
	f.open = false
	if rc := C.MPI_File_close(&f.f); rc != C.MPI_SUCCESS {
		return mpiError("MPI_File_close", rc)
	}
	return nil
}

// SetByteView sets the view disp 0, etype and filetype MPI_BYTE, "native".
func (f *File) SetByteView() error {
	if rc := C.mb_io_byte_view(f.f); rc != C.MPI_SUCCESS {
		return mpiError("MPI_File_set_view", rc)
	}
	return nil
}

// SetBlockView sets a view whose filetype holds n bytes at byte pos of
// every extent bytes (disp 0, etype MPI_BYTE, "native"); n = 0 gives the
// byte view.
func (f *File) SetBlockView(pos int64, n int, extent int64) error {
	rc := C.mb_io_block_view(f.f, C.MPI_Offset(pos), C.int(n), C.MPI_Offset(extent))
	if rc != C.MPI_SUCCESS {
		return mpiError("MPI_File_set_view", rc)
	}
	return nil
}

// SetSize is MPI_File_set_size (collective).
func (f *File) SetSize(n int64) error {
	if rc := C.mb_io_set_size(f.f, C.longlong(n)); rc != C.MPI_SUCCESS {
		return mpiError("MPI_File_set_size", rc)
	}
	return nil
}

// Size is MPI_File_get_size.
func (f *File) Size() (int64, error) {
	var n C.longlong
	if rc := C.mb_io_get_size(f.f, &n); rc != C.MPI_SUCCESS {
		return 0, mpiError("MPI_File_get_size", rc)
	}
	return int64(n), nil
}

// WriteAt is MPI_File_write_at of b at byte offset off of the view. A
// write of fewer bytes (a full disk) is an error of this process.
func (f *File) WriteAt(off int64, b []byte) error {
	var got C.int
	if rc := C.mb_io_write_at(f.f, C.longlong(off), bytesPtr(b), C.int(len(b)), &got); rc != C.MPI_SUCCESS {
		return mpiError(fmt.Sprintf("MPI_File_write_at of %s at byte offset %d", f.name, off), rc)
	}
	if int(got) != len(b) {
		return &LocalError{Err: fmt.Errorf("MPI_File_write_at of %s at byte offset %d: wrote %d of %d bytes",
			f.name, off, int(got), len(b))}
	}
	return nil
}

// ReadAt is MPI_File_read_at into b at byte offset off of the view; it
// returns the bytes read, fewer than len(b) at the end of the file.
func (f *File) ReadAt(off int64, b []byte) (int, error) {
	var got C.int
	if rc := C.mb_io_read_at(f.f, C.longlong(off), bytesPtr(b), C.int(len(b)), &got); rc != C.MPI_SUCCESS {
		return 0, mpiError("MPI_File_read_at", rc)
	}
	return int(got), nil
}

func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// DeleteFileIfExists deletes a file the IMB way (section 5.2.3.2): it
// opens it on MPI_COMM_SELF with MPI_MODE_DELETE_ON_CLOSE (creating it if
// need be) and closes it.
func DeleteFileIfExists(name string) error {
	privateFiles()
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if rc := C.mb_io_delete_if_exists(cs); rc != C.MPI_SUCCESS {
		return mpiError("MPI_File_open(MPI_MODE_DELETE_ON_CLOSE)", rc)
	}
	return nil
}

// DeleteFile is MPI_File_delete.
func DeleteFile(name string) error {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if rc := C.mb_io_delete(cs); rc != C.MPI_SUCCESS {
		return mpiError("MPI_File_delete", rc)
	}
	return nil
}

// HaltFileCreation makes every later MPI_File_open of this package wait
// until the process exits, so that an interrupted rank does not create a
// benchmark file again after its signal handler removed it. It makes no
// MPI call and may run on any goroutine.
func HaltFileCreation() { C.mb_io_halt() }

// GatherIOBytes gathers every rank's bytes at rank 0 of c, in rank order;
// other ranks get nil. The IMB-IO checks use it to see all processes' reads.
func (c Comm) GatherIOBytes(b []byte) ([][]byte, error) {
	n := C.int(len(b))
	size := c.Size()
	counts := make([]C.int, max(size, 1))
	if rc := C.mb_io_gather_count(&n, &counts[0], c.c); rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_Gather", rc)
	}
	var displs []C.int
	var all []byte
	if c.Rank() == 0 {
		displs = make([]C.int, size)
		total := 0
		for i, k := range counts[:size] {
			displs[i] = C.int(total)
			total += int(k)
		}
		all = make([]byte, max(total, 1))
	} else {
		displs = make([]C.int, 1)
		all = make([]byte, 1)
	}
	rc := C.mb_io_gatherv(bytesPtr(b), n, unsafe.Pointer(&all[0]), &counts[0], &displs[0], c.c)
	if rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_Gatherv", rc)
	}
	if c.Rank() != 0 {
		return nil, nil
	}
	out := make([][]byte, size)
	for i := range out {
		out[i] = all[displs[i] : displs[i]+counts[i]]
	}
	return out, nil
}

func (r *FileRun) c() C.mb_io {
	return C.mb_io{
		fh: r.File.f, comm: r.Comm.c, access: C.int(r.Access), collective: cbool(r.Collective),
		write: cbool(r.Write), aggregate: cbool(r.Aggregate), buf: r.Buf.p, count: C.int(r.Count),
		bufstep: C.longlong(r.BufStep), offset: C.MPI_Offset(r.Offset), stride: C.MPI_Offset(r.Stride),
		nrep: C.int(r.Reps), nbarr: C.int(r.Barriers), short_ok: cbool(r.ShortOK),
		chk_rank: C.int(r.Rank), save: r.Save.p,
	}
}

// fits guards the C loop of a checked read against saving beyond Save.
func (r *FileRun) fits() error {
	if r.Check && !r.Write && r.Reps*r.Count > r.Save.n {
		return &Error{Call: "IMB-IO check", Code: -1, Text: "reads beyond the buffer that keeps them"}
	}
	return nil
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
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
	where := fmt.Sprintf("%s of %s %s", call, r.File.name, at)
	if rc != C.MB_IO_SHORT {
		return mpiError(where, rc)
	}
	verb := "read"
	if r.Write {
		verb = "wrote"
	}
	return &LocalError{Err: fmt.Errorf("%s: %s %d of %d bytes", where, verb, int64(got), r.Count)}
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
func OpenCloseRun(c Comm, name string, reps, barriers int) (float64, error) {
	privateFiles()
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var t C.double
	var call *C.char
	if rc := C.mb_io_open_close(c.c, cs, C.int(reps), C.int(barriers), &t, &call); rc != C.MPI_SUCCESS {
		if rc == C.MB_IO_SHORT {
			return 0, &LocalError{Err: fmt.Errorf("MPI_File_write of %s: wrote 0 of 1 byte", name)}
		}
		return 0, mpiError(C.GoString(call)+" of "+name, rc)
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
