//go:build cgo && !nompi

package mpi

/*
#include "check.h"
*/
import "C"

import "unsafe"

// The check-mode content of check.h for Go callers: buffers a suite fills
// or verifies outside its C loop, and the tests of check.c. Positions,
// lengths and offsets are in items (bytes or floats).

// PatternBytes sets dst[j] to byte off+j of rank's content in repetition rep.
func PatternBytes(dst []byte, rank int, rep, off int64) {
	if len(dst) > 0 {
		C.mb_fill_bytes(unsafe.Pointer(&dst[0]), C.longlong(len(dst)), C.int(rank), C.longlong(rep), C.longlong(off))
	}
}

// BadBytes counts the bytes of got that differ from rank's content of
// repetition rep from position off on.
func BadBytes(got []byte, rank int, rep, off int64) int {
	if len(got) == 0 {
		return 0
	}
	return int(C.mb_bad_bytes(unsafe.Pointer(&got[0]), C.longlong(len(got)), C.int(rank), C.longlong(rep), C.longlong(off)))
}

// PatternFloats sets dst[j] to float off+j of rank's content in repetition rep.
func PatternFloats(dst []float32, rank int, rep, off int64) {
	if len(dst) > 0 {
		C.mb_fill_floats((*C.float)(&dst[0]), C.longlong(len(dst)), C.int(rank), C.longlong(rep), C.longlong(off))
	}
}

// BadSums counts the floats of got that are not the sum over ranks
// 0..np-1 of their content of repetition rep from position off on.
func BadSums(got []float32, np int, rep, off int64) int {
	if len(got) == 0 {
		return 0
	}
	return int(C.mb_bad_sums((*C.float)(&got[0]), C.longlong(len(got)), C.int(np), C.longlong(rep), C.longlong(off)))
}

// Poison sets every byte of b to 0xff (a NaN as float), so that data a
// transfer failed to deliver cannot pass for correct data.
func Poison(b []byte) {
	if len(b) > 0 {
		C.mb_poison(unsafe.Pointer(&b[0]), C.longlong(len(b)))
	}
}
