package imb

import (
	"bytes"
	"encoding/binary"
	"math"
)

// IMB 3.0's buffer content (section 5.2.5), which the timed IMB-EXT runs
// send. Every suite's -check uses mpi/pattern.h instead, verified in C
// (kernel/kernels.c, rma.c, iokernels.c): see docs/imb.md, "Results checking".

// BufValue is IMB's buffer content (section 5.2.5) for element i of the
// buffer of communicator rank r: 0.1·(r+1) + i, as a float.
func BufValue(r, i int) float32 { return float32(0.1*float64(r+1) + float64(float32(i))) }

// FillFloats sets dst[i] = BufValue(r, off+i).
func FillFloats(dst []float32, r, off int) {
	for i := range dst {
		dst[i] = BufValue(r, off+i)
	}
}

// FillBytes sets dst[j] to byte off+j of rank r's MPI_BYTE buffer: the
// float array of BufValue seen as bytes (IMB casts its byte buffers to the
// assignment type to fill them); we fix little-endian order so that the
// pattern is the same on every host.
func FillBytes(dst []byte, r, off int) {
	var word [4]byte
	for j := 0; j < len(dst); {
		k := (off + j) / 4
		binary.LittleEndian.PutUint32(word[:], math.Float32bits(BufValue(r, k)))
		for b := (off + j) % 4; b < 4 && j < len(dst); b++ {
			dst[j] = word[b]
			j++
		}
	}
}

// countDiff counts the bytes of got that differ from want.
func countDiff(got, want []byte) int {
	if bytes.Equal(got, want) {
		return 0
	}
	d := 0
	for i := range got {
		if got[i] != want[i] {
			d++
		}
	}
	return d
}
