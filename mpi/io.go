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

// PrivateFiles is privateFiles for a kernel package's loops that create
// files (IMB-IO's Open_Close).
func PrivateFiles() { privateFiles() }

// Name is the file's name, for a kernel package's errors.
func (f *File) Name() string { return f.name }

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

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
