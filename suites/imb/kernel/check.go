//go:build cgo && !nompi

package kernel

// #include "check.h"
import "C"

import (
	"unsafe"

	"mpibench/mpi"
)

// The reduction content of check.h for the item types of -red_data_type:
// buffers the IMB driver fills outside its C loop, and the tests of
// check.c's typed sums. Positions, lengths and offsets are in items.

// PatternReduce fills b with rank's reduction content of repetition 0 as
// items of t (TypeDefault: floats): integers that sum exactly, far from
// the slow paths of denormals and NaNs.
func PatternReduce(b mpi.Buffer, t DataType, rank int) { PatternReduceRep(b, t, rank, 0) }

// PatternReduceRep is PatternReduce for repetition rep.
func PatternReduceRep(b mpi.Buffer, t DataType, rank int, rep int64) {
	size := int(C.mb_type_size(C.int(t), 1))
	C.mb_fill_red(b.Ptr(), C.longlong(b.Len()/size), C.int(t), C.int(rank), C.longlong(rep), 0)
}

// BadReduce counts the items of t in got that are not the sum over ranks
// 0..np-1 of their reduction content of repetition rep from item off on.
func BadReduce(got []byte, t DataType, np int, rep, off int64) int {
	size := int(C.mb_type_size(C.int(t), 1))
	if len(got) < size {
		return 0
	}
	return int(C.mb_bad_red(unsafe.Pointer(&got[0]), C.longlong(len(got)/size), C.int(t), C.int(np), C.longlong(rep), C.longlong(off)))
}
