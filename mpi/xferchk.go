//go:build !nompi

package mpi

// #include "xferchk.h"
import "C"

// FillCheckPattern sets b to rank's check pattern of repetition rep, the
// content the IMB-EXT and IMB-IO check runs send: byte j is
// mb_pat_byte(rank, rep, j) of pattern.h.
func FillCheckPattern(b []byte, rank, rep int) {
	if len(b) > 0 {
		C.mb_xc_fill(bytesPtr(b), C.longlong(len(b)), C.int(rank), C.longlong(rep))
	}
}
