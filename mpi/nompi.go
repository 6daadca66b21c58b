//go:build !cgo || nompi

package mpi

// The MPI-free build of this package (go build -tags nompi, or
// CGO_ENABLED=0): the part of the API that other packages call, without
// MPI. Init fails with ErrNoMPI, which mpijob turns into exit code 2, so
// nothing below it is reached at run time; it only has to compile, and
// returns ErrNoMPI or zero values where it is.

import (
	"strings"
	"time"
	"unsafe"
)

// Flavor names the MPI library this binary is built against: none.
const Flavor = "none"

// Opaque handles and C-side objects: empty without MPI.
type (
	Comm   struct{}
	Buffer struct{}
	Win    struct{}
	File   struct{}
)

// Init fails: there is no MPI in this binary.
func Init(required ThreadLevel) error { return ErrNoMPI }

// ParseThreadLevel accepts the names the MPI build accepts, so that a
// command line is judged the same in both builds.
func ParseThreadLevel(name string) (ThreadLevel, error) {
	i, err := threadLevelIndex(name)
	return ThreadLevel(i), err
}

func (t ThreadLevel) String() string {
	if t < 0 || int(t) >= len(ThreadLevelNames) {
		return "MPI_THREAD_MULTIPLE"
	}
	return "MPI_THREAD_" + strings.ToUpper(ThreadLevelNames[t])
}

func Finalize() error                            { return nil }
func Abort(code int)                             {}
func Provided() ThreadLevel                      { return 0 }
func InitDuration() time.Duration                { return 0 }
func Required() ThreadLevel                      { return 0 }
func Wtick() float64                             { return 0 }
func Version() string                            { return "" }
func LibraryVersion() string                     { return "" }
func ProcessorName() string                      { return "" }
func World() Comm                                { return Comm{} }
func FileSelf() Comm                             { return Comm{} }
func Alloc(n int) (Buffer, error)                { return Buffer{}, ErrNoMPI }
func HaltFileCreation()                          {}
func DeleteFileIfExists(name string) error       { return ErrNoMPI }
func OpenFile(c Comm, name string) (File, error) { return File{}, ErrNoMPI }
func CreateFile(c Comm, name string) (File, error) {
	return File{}, ErrNoMPI
}
func PatternBytes(dst []byte, rank int, rep, off int64)     {}
func PatternFloats(dst []float32, rank int, rep, off int64) {}
func BadBytes(got []byte, rank int, rep, off int64) int     { return len(got) }

func (c Comm) Null() bool                                    { return true }
func (c Comm) Rank() int                                     { return -1 }
func (c Comm) Size() int                                     { return 0 }
func (c *Comm) Free() error                                  { return nil }
func (c Comm) Barrier() error                                { return ErrNoMPI }
func (c Comm) LocalSize() (int, error)                       { return 0, ErrNoMPI }
func (c Comm) AllreduceMax(v int) (int, error)               { return 0, ErrNoMPI }
func (c Comm) BcastBytes(b []byte) ([]byte, error)           { return nil, ErrNoMPI }
func (c Comm) BcastInt(v int) (int, error)                   { return 0, ErrNoMPI }
func (c Comm) BcastFloat64(x float64) (float64, error)       { return 0, ErrNoMPI }
func (c Comm) GatherFloat64s(v []float64) ([]float64, error) { return nil, ErrNoMPI }
func (c Comm) GatherFloat64sEach(v []float64, fn func(rank int, vals []float64) error) error {
	return ErrNoMPI
}
func (c Comm) GatherIOBytes(b []byte) ([][]byte, error)        { return nil, ErrNoMPI }
func (c Comm) GatherProcessorNames() ([]string, error)         { return nil, ErrNoMPI }
func (c Comm) Split(color, key int) (Comm, error)              { return Comm{}, ErrNoMPI }
func (c Comm) WinCreate(b Buffer, size, unit int) (Win, error) { return Win{}, ErrNoMPI }

func (b Buffer) Bytes() []byte       { return nil }
func (b Buffer) Float32s() []float32 { return nil }
func (b Buffer) Int32s() []int32     { return nil }
func (b *Buffer) Free()              {}
func (w *Win) Free() error           { return nil }

func (f *File) Close() error                                      { return nil }
func (f *File) Size() (int64, error)                              { return 0, ErrNoMPI }
func (f *File) SetSize(n int64) error                             { return ErrNoMPI }
func (f *File) SetByteView() error                                { return ErrNoMPI }
func (f *File) SetBlockView(pos int64, n int, extent int64) error { return ErrNoMPI }
func (f *File) ReadAt(off int64, b []byte) (int, error)           { return 0, ErrNoMPI }
func (f *File) WriteAt(off int64, b []byte) error                 { return ErrNoMPI }

func (c Comm) Fortran() int32               { return 0 }
func (w Win) Fortran() int32                { return 0 }
func (f File) Fortran() int32               { return 0 }
func (b Buffer) Ptr() unsafe.Pointer        { return nil }
func KernelError(what string, rc int) error { return ErrNoMPI }
func CallError(call string, rc int) error   { return ErrNoMPI }
func PrivateFiles()                         {}
