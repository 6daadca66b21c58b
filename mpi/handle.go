//go:build cgo && !nompi

package mpi

/*
#include "handle.h"
*/
import "C"

import "unsafe"

// The suites' kernel packages are cgo packages of their own, whose C types
// are not this package's: MPI handles cross to them as Fortran handles
// (MPI_Comm_c2f ...), which their C turns back (MPI_Comm_f2c ...) when it
// sets up a kernel, before any timing; buffers cross as pointers. Their C
// shares this package's headers (chk.h, check.h, mutant.h, pattern.h,
// settle.h, window.h; IMB's also bigcount.h, io.h, rmawin.h) through #cgo
// CFLAGS: -I, and links against its C.

// Fortran is c's Fortran handle.
func (c Comm) Fortran() int32 { return int32(C.mb_comm_c2f(c.c)) }

// Fortran is w's Fortran handle.
func (w Win) Fortran() int32 { return int32(C.mb_win_c2f(w.w)) }

// Fortran is f's Fortran handle.
func (f File) Fortran() int32 { return int32(C.mb_file_c2f(f.f)) }

// Ptr is the buffer's C memory, for a kernel package's C; nil when empty.
func (b Buffer) Ptr() unsafe.Pointer { return b.p }

// KernelError is the error of a kernel package's C kernel that returned
// rc: the MPI call whose failure its CHK saw, or what.
func KernelError(what string, rc int) error { return kernelError(what, C.int(rc)) }

// CallError is the error of the MPI call named call that returned rc,
// whatever call a kernel's CHK saw last.
func CallError(call string, rc int) error { return mpiError(call, C.int(rc)) }
