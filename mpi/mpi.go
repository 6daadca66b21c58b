//go:build cgo && !nompi

package mpi

/*
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <mpi.h>
#include "chk.h"
#include "mutant.h"

// Handles are macros (Open MPI) or integer constants (MPICH); small
// functions keep them opaque to Go.
static MPI_Comm mb_world(void) { return MPI_COMM_WORLD; }
static MPI_Comm mb_null(void) { return MPI_COMM_NULL; }
static int mb_undefined(void) { return MPI_UNDEFINED; }
static int mb_is_null(MPI_Comm c) { return c == MPI_COMM_NULL; }

// mb_init_ns is MPI_Init_thread's own duration in this process, in
// nanoseconds of CLOCK_MONOTONIC (osu_init reports it).
static long long mb_init_ns;
static long long mb_init_nanos(void) { return mb_init_ns; }

static int mb_init(int required, int *provided) {
	struct timespec t0, t1;
	int rc;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = MPI_Init_thread(NULL, NULL, required, provided);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	mb_init_ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	return rc;
}
static int mb_thread_single(void) { return MPI_THREAD_SINGLE; }
static int mb_thread_funneled(void) { return MPI_THREAD_FUNNELED; }
static int mb_thread_serialized(void) { return MPI_THREAD_SERIALIZED; }
static int mb_thread_multiple(void) { return MPI_THREAD_MULTIPLE; }

static int mb_bcast(void *buf, int n, MPI_Comm c) { return MPI_Bcast(buf, n, MPI_BYTE, 0, c); }
static int mb_bcast_long(long long *v, MPI_Comm c) { return MPI_Bcast(v, 1, MPI_LONG_LONG, 0, c); }
static int mb_bcast_double(double *v, MPI_Comm c) { return MPI_Bcast(v, 1, MPI_DOUBLE, 0, c); }
static int mb_allgather_u64(unsigned long long v, unsigned long long *all, MPI_Comm c) {
	return MPI_Allgather(&v, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, c);
}
static int mb_gather_doubles(double *s, int n, double *r, MPI_Comm c) {
	return MPI_Gather(s, n, MPI_DOUBLE, r, n, MPI_DOUBLE, 0, c);
}
static int mb_send_doubles(double *s, int n, int to, MPI_Comm c) {
	return MPI_Send(s, n, MPI_DOUBLE, to, 7707, c);
}
static int mb_recv_doubles(double *r, int n, int from, MPI_Comm c) {
	return MPI_Recv(r, n, MPI_DOUBLE, from, 7707, c, MPI_STATUS_IGNORE);
}
static int mb_allreduce_max(int *v, MPI_Comm c) {
	return MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_INT, MPI_MAX, c);
}
static int mb_gather_names(char *s, char *r, MPI_Comm c) {
	return MPI_Gather(s, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, r, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, c);
}
// Buffers are anonymous mappings of their own, not malloc's: freeing a
// large block that malloc had mapped raises glibc's mmap threshold (up to
// 32 MiB), after which the next buffers and the MPI library's own large
// mallocs come from the brk heap and stay there. At 16 ranks of mpi1
// PingPong Allreduce that kept 8 MiB more private memory per rank than
// IMB-MPI1, which allocates its buffers once (docs/memory.md). Mapped
// buffers leave malloc's state to the library, as in a C benchmark. The
// pages are written once here so that no timed loop takes their first
// faults.
static void *mb_alloc(size_t n) {
	void *p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, n ? n : 1);
	return p;
}
static void mb_free(void *p, size_t n) { munmap(p, n ? n : 1); }
*/
import "C"

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"runtime"
	"strings"
	"time"
	"unsafe"
)

var provided, required ThreadLevel

// ParseThreadLevel maps one of ThreadLevelNames to its MPI level.
func ParseThreadLevel(name string) (ThreadLevel, error) {
	levels := []C.int{C.mb_thread_single(), C.mb_thread_funneled(), C.mb_thread_serialized(), C.mb_thread_multiple()}
	i, err := threadLevelIndex(name)
	if err != nil {
		return 0, err
	}
	return ThreadLevel(levels[i]), nil
}

// Init calls MPI_Init_thread asking for the level required and sets
// MPI_ERRORS_RETURN on MPI_COMM_WORLD. It fails, as IMB does, when the
// library provides less than required. The caller must have locked its
// goroutine to the OS thread and make every later MPI call from it.
//
// Init also sets GOMAXPROCS to 1: a timed loop is one cgo call, and while
// the calling thread holds its P in that call with another P idle, the Go
// runtime's monitor thread (sysmon) wakes every 20 µs for the first
// millisecond and keeps polling for 10 ms before it takes the P; each wake
// takes a CPU from a rank that is polling MPI. With one P it takes the P
// at its second wake, hands it to a spinning M that finds no work, and
// sleeps until the call returns or a timer is due (the watchdog's
// goroutines then run on another thread). Those few wake-ups come in the
// first 200 µs or so of every call, so each timed kernel sleeps that out
// before its barriers (mb_settle, settle.h). Nothing of an MPI command
// runs Go code in parallel. See docs/lab.md, "Side by side with the peers".
func Init(level ThreadLevel) error {
	runtime.GOMAXPROCS(1)
	var p C.int
	required = level
	if rc := C.mb_init(C.int(required), &p); rc != C.MPI_SUCCESS {
		return mpiError("MPI_Init_thread", rc)
	}
	provided = ThreadLevel(p)
	if provided < required {
		C.MPI_Finalize()
		return fmt.Errorf("MPI_Init_thread: asked for %v, the library provides only %v", required, provided)
	}
	return nil
}

// Finalize calls MPI_Finalize.
func Finalize() error {
	if rc := C.MPI_Finalize(); rc != C.MPI_SUCCESS {
		return mpiError("MPI_Finalize", rc)
	}
	return nil
}

// Abort ends every process of the job with the given exit code.
func Abort(code int) {
	C.MPI_Abort(C.mb_world(), C.int(code))
}

// InitDuration is how long this process's MPI_Init_thread call took
// (CLOCK_MONOTONIC read right before and after it, in Init); 0 before
// Init. osu_init reports it.
func InitDuration() time.Duration { return time.Duration(C.mb_init_nanos()) }

// Provided is the thread level MPI_Init_thread returned.
func Provided() ThreadLevel { return provided }

// Required is the thread level Init asked MPI_Init_thread for
// (-thread_level).
func Required() ThreadLevel { return required }

func (t ThreadLevel) String() string {
	switch C.int(t) {
	case C.mb_thread_single():
		return "MPI_THREAD_SINGLE"
	case C.mb_thread_funneled():
		return "MPI_THREAD_FUNNELED"
	case C.mb_thread_serialized():
		return "MPI_THREAD_SERIALIZED"
	}
	return "MPI_THREAD_MULTIPLE"
}

// Wtime is MPI_Wtime in seconds: the clock of clock synchronisation and
// of the window loop (in a mutant build, the clock mutant's; mutant.h).
func Wtime() float64 { return float64(C.mb_wtime()) }

// Wtick is MPI_Wtick in seconds.
func Wtick() float64 { return float64(C.MPI_Wtick()) }

// Version is the MPI standard version, as "major.minor".
func Version() string {
	var v, s C.int
	C.MPI_Get_version(&v, &s)
	return fmt.Sprintf("%d.%d", v, s)
}

// LibraryVersion is the first line of MPI_Get_library_version.
func LibraryVersion() string {
	buf := make([]byte, C.MPI_MAX_LIBRARY_VERSION_STRING)
	var n C.int
	C.MPI_Get_library_version((*C.char)(unsafe.Pointer(&buf[0])), &n)
	s := string(buf[:n])
	for i, c := range s {
		if c == '\n' || c == '\r' || c == 0 {
			return s[:i]
		}
	}
	return s
}

// ProcessorName is MPI_Get_processor_name.
func ProcessorName() string {
	buf := make([]byte, C.MPI_MAX_PROCESSOR_NAME)
	var n C.int
	C.MPI_Get_processor_name((*C.char)(unsafe.Pointer(&buf[0])), &n)
	return string(buf[:n])
}

// GatherProcessorNames gathers every rank's processor name at rank 0 of c,
// in rank order; other ranks get nil.
func (c Comm) GatherProcessorNames() ([]string, error) {
	const n = C.MPI_MAX_PROCESSOR_NAME
	send := (*C.char)(C.calloc(1, n))
	defer C.free(unsafe.Pointer(send))
	var nlen C.int
	C.MPI_Get_processor_name(send, &nlen)
	var recv *C.char
	size := c.Size()
	if c.Rank() == 0 {
		recv = (*C.char)(C.calloc(C.size_t(size), n))
		defer C.free(unsafe.Pointer(recv))
	}
	if rc := C.mb_gather_names(send, recv, c.c); rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_Gather", rc)
	}
	if recv == nil {
		return nil, nil
	}
	all := unsafe.Slice((*byte)(unsafe.Pointer(recv)), size*n)
	names := make([]string, size)
	for i := range names {
		b := all[i*n : (i+1)*n]
		if j := bytes.IndexByte(b, 0); j >= 0 {
			b = b[:j]
		}
		names[i] = string(b)
	}
	return names, nil
}

// Comm is an opaque communicator handle.
type Comm struct{ c C.MPI_Comm }

// World is MPI_COMM_WORLD.
func World() Comm { return Comm{C.mb_world()} }

// Null reports whether c is MPI_COMM_NULL.
func (c Comm) Null() bool { return C.mb_is_null(c.c) != 0 }

// Rank is MPI_Comm_rank, -1 for MPI_COMM_NULL.
func (c Comm) Rank() int {
	if c.Null() {
		return -1
	}
	var r C.int
	C.MPI_Comm_rank(c.c, &r)
	return int(r)
}

// Size is MPI_Comm_size, 0 for MPI_COMM_NULL.
func (c Comm) Size() int {
	if c.Null() {
		return 0
	}
	var s C.int
	C.MPI_Comm_size(c.c, &s)
	return int(s)
}

// Split is MPI_Comm_split; a negative color means MPI_UNDEFINED and
// yields MPI_COMM_NULL.
func (c Comm) Split(color, key int) (Comm, error) {
	col := C.int(color)
	if color < 0 {
		col = C.mb_undefined()
	}
	var out C.MPI_Comm
	if rc := C.MPI_Comm_split(c.c, col, C.int(key), &out); rc != C.MPI_SUCCESS {
		return Comm{C.mb_null()}, mpiError("MPI_Comm_split", rc)
	}
	return Comm{out}, nil
}

// Free releases a communicator made by Split; MPI_COMM_NULL is ignored.
func (c *Comm) Free() error {
	if c.Null() {
		return nil
	}
	if rc := C.MPI_Comm_free(&c.c); rc != C.MPI_SUCCESS {
		return mpiError("MPI_Comm_free", rc)
	}
	return nil
}

// Barrier is MPI_Barrier.
func (c Comm) Barrier() error {
	if rc := C.MPI_Barrier(c.c); rc != C.MPI_SUCCESS {
		return mpiError("MPI_Barrier", rc)
	}
	return nil
}

// bcastHead is what BcastBytes sends in its first MPI_Bcast: the length
// (8 bytes) and as many of the bytes as fit. What mpibench broadcasts (a
// command line, a verdict, an error message) nearly always fits, so it
// takes one collective instead of two. Under MPICH 4.0 the rate of small
// messages in a timed loop falls with the number of collectives the job
// made before it, OSU's own binary included (docs/lab.md, "Side by side
// with the peers"): the harness makes as few as it can.
const bcastHead = 1024

// BcastBytes broadcasts rank 0's byte slice to every rank of c; other
// ranks pass nil. Every rank gets a copy of rank 0's bytes.
func (c Comm) BcastBytes(b []byte) ([]byte, error) {
	head := unsafe.Slice((*byte)(C.calloc(1, bcastHead)), bcastHead)
	defer C.free(unsafe.Pointer(&head[0]))
	root := c.Rank() == 0
	if root {
		binary.LittleEndian.PutUint64(head, uint64(len(b)))
		copy(head[8:], b)
	}
	if rc := C.mb_bcast(unsafe.Pointer(&head[0]), bcastHead, c.c); rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_Bcast", rc)
	}
	n := int(binary.LittleEndian.Uint64(head))
	out := make([]byte, n)
	first := copy(out, head[8:])
	if first == n {
		return out, nil
	}
	src := out[first:] // zeros, overwritten by the broadcast
	if root {
		src = b[first:]
	}
	rest := C.CBytes(src)
	defer C.free(rest)
	if rc := C.mb_bcast(rest, C.int(n-first), c.c); rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_Bcast", rc)
	}
	copy(out[first:], unsafe.Slice((*byte)(rest), n-first))
	return out, nil
}

// GatherFloat64s gathers len(v) doubles from each rank at rank 0, in rank
// order; other ranks get nil.
func (c Comm) GatherFloat64s(v []float64) ([]float64, error) {
	n := len(v)
	send := (*C.double)(C.malloc(C.size_t(8 * max(n, 1))))
	defer C.free(unsafe.Pointer(send))
	copy(unsafe.Slice((*float64)(unsafe.Pointer(send)), n), v)
	var recv *C.double
	total := n * c.Size()
	if c.Rank() == 0 {
		recv = (*C.double)(C.malloc(C.size_t(8 * max(total, 1))))
		defer C.free(unsafe.Pointer(recv))
	}
	if rc := C.mb_gather_doubles(send, C.int(n), recv, c.c); rc != C.MPI_SUCCESS {
		return nil, mpiError("MPI_Gather", rc)
	}
	if recv == nil {
		return nil, nil
	}
	out := make([]float64, total)
	copy(out, unsafe.Slice((*float64)(unsafe.Pointer(recv)), total))
	return out, nil
}

// GatherFloat64sEach hands rank 0 the len(v) doubles of every rank (the
// same len on all), in rank order, one rank at a time: each rank sends
// to 0, which receives them one after the other into one buffer. Rank 0
// holds one rank's values at a time where GatherFloat64s holds all P;
// the P−1 receives are serial, as the gather's data all pass rank 0
// anyway. fn runs on rank 0 only and must not keep vals; its first
// error is returned once every rank's values arrived, so that no sender
// is left waiting.
func (c Comm) GatherFloat64sEach(v []float64, fn func(rank int, vals []float64) error) error {
	n := len(v)
	if c.Rank() != 0 {
		if rc := C.mb_send_doubles(ptrFloat64s(v), C.int(n), 0, c.c); rc != C.MPI_SUCCESS {
			return mpiError("MPI_Send", rc)
		}
		return nil
	}
	ferr := fn(0, v)
	buf := make([]float64, n)
	for k := 1; k < c.Size(); k++ {
		if rc := C.mb_recv_doubles(ptrFloat64s(buf), C.int(n), C.int(k), c.c); rc != C.MPI_SUCCESS {
			return mpiError("MPI_Recv", rc)
		}
		if ferr == nil {
			ferr = fn(k, buf)
		}
	}
	return ferr
}

// ptrFloat64s is v's first element for C, nil for an empty v.
func ptrFloat64s(v []float64) *C.double {
	if len(v) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&v[0]))
}

// AllreduceMax is MPI_Allreduce with MPI_MAX on one int.
func (c Comm) AllreduceMax(v int) (int, error) {
	x := C.int(v)
	if rc := C.mb_allreduce_max(&x, c.c); rc != C.MPI_SUCCESS {
		return 0, mpiError("MPI_Allreduce", rc)
	}
	return int(x), nil
}

// Buffer is page-aligned C memory: MPI may keep using it while Go's
// collector runs, and aligned buffers keep timings free of alignment luck.
type Buffer struct {
	p unsafe.Pointer
	n int
}

// Alloc returns a zeroed buffer of n bytes.
func Alloc(n int) (Buffer, error) {
	p := C.mb_alloc(C.size_t(n))
	if p == nil {
		return Buffer{}, fmt.Errorf("cannot allocate %d bytes", n)
	}
	return Buffer{p, n}, nil
}

// Free releases the buffer.
func (b *Buffer) Free() {
	if b.p != nil {
		C.mb_free(b.p, C.size_t(b.n))
		b.p, b.n = nil, 0
	}
}

// Len is the size in bytes.
func (b Buffer) Len() int { return b.n }

// Bytes views the buffer as bytes.
func (b Buffer) Bytes() []byte { return unsafe.Slice((*byte)(b.p), b.n) }

// Float32s views the buffer as floats.
func (b Buffer) Float32s() []float32 { return unsafe.Slice((*float32)(b.p), b.n/4) }

// Int32s views the buffer as C ints.
func (b Buffer) Int32s() []int32 { return unsafe.Slice((*int32)(b.p), b.n/4) }

func mpiError(call string, rc C.int) error {
	// Every failure passes here: a name CHK kept for a caller that did
	// not ask (a call of its own) must not be taken for the next one's.
	C.mb_chk_call = nil
	buf := make([]byte, C.MPI_MAX_ERROR_STRING)
	var n C.int
	C.MPI_Error_string(rc, (*C.char)(unsafe.Pointer(&buf[0])), &n)
	return &Error{Call: call, Code: int(rc), Text: string(buf[:n])}
}

// kernelError is the error of a C kernel that returned rc: it names the
// MPI call whose failure CHK saw ("MPI_Send"), or what when none did (an
// error the kernel made up itself).
func kernelError(what string, rc C.int) error {
	if C.mb_chk_call != nil {
		what = C.GoString(C.mb_chk_call)
		C.mb_chk_call = nil
		// CHK saw the call's text: keep the function's name.
		if i := strings.IndexByte(what, '('); i > 0 {
			what = what[:i]
		}
	}
	return mpiError(what, rc)
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// BcastInt broadcasts rank 0's int to every rank of c: the stop decision
// of a PGMPI repetition predictor, IMB's -time repetition counts.
func (c Comm) BcastInt(v int) (int, error) {
	x := C.longlong(v)
	if rc := C.mb_bcast_long(&x, c.c); rc != C.MPI_SUCCESS {
		return 0, mpiError("MPI_Bcast", rc)
	}
	return int(x), nil
}

// BcastFloat64 broadcasts rank 0's float64 to every rank of c: a time
// only rank 0 measured or read from a record.
func (c Comm) BcastFloat64(x float64) (float64, error) {
	v := C.double(x)
	if rc := C.mb_bcast_double(&v, c.c); rc != C.MPI_SUCCESS {
		return 0, mpiError("MPI_Bcast", rc)
	}
	return float64(v), nil
}

// cBool is b as a C int.
func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// LocalSize is the number of processes of c on this node: those whose
// processor name hashes as this one's (FNV-1a, 64 bits), gathered with one
// MPI_Allgather of 8 bytes a process. It makes no communicator: under
// MPICH 4.0, an MPI_Comm_split_type with MPI_COMM_TYPE_SHARED (and its
// MPI_Comm_free) before a timed loop lowered the rate of small messages in
// it by about 7 % (docs/lab.md, "Side by side with the peers").
func (c Comm) LocalSize() (int, error) {
	h := fnv.New64a()
	_, _ = h.Write([]byte(ProcessorName())) // a hash's Write never fails
	me, size := h.Sum64(), c.Size()
	all := (*C.ulonglong)(C.malloc(C.size_t(8 * size)))
	defer C.free(unsafe.Pointer(all))
	if rc := C.mb_allgather_u64(C.ulonglong(me), all, c.c); rc != C.MPI_SUCCESS {
		return 0, mpiError("MPI_Allgather", rc)
	}
	n := 0
	for _, v := range unsafe.Slice((*uint64)(unsafe.Pointer(all)), size) {
		if v == me {
			n++
		}
	}
	return n, nil
}
