package imb

import (
	"encoding/binary"
	"math"
	"testing"
)

// The reference buffers here are built from the spec formula of section
// 5.2.5 (BUF_VALUE(rank,i) = 0.1*(rank+1)+(float)i, stored as float),
// independently of check.go; IMB-EXT's check uses that content.

// refValue is BUF_VALUE as C evaluates it: a double sum of 0.1*(rank+1)
// and (float)i, assigned to a float.
func refValue(rank, i int) float32 {
	return float32(0.1*float64(rank+1) + float64(float32(i)))
}

// refBytes returns bytes [off, off+n) of rank's MPI_BYTE buffer: the
// float array seen as little-endian bytes.
func refBytes(rank, off, n int) []byte {
	firstWord, lastWord := off/4, (off+n+3)/4
	all := make([]byte, 4*(lastWord-firstWord))
	for k := firstWord; k < lastWord; k++ {
		binary.LittleEndian.PutUint32(all[4*(k-firstWord):], math.Float32bits(refValue(rank, k)))
	}
	start := off - 4*firstWord
	return all[start : start+n]
}

func TestBufValue(t *testing.T) {
	literal := []struct {
		r, i int
		want float32
	}{
		{0, 0, 0.1},
		{1, 0, 0.2},
		{2, 0, 0.3},
		{0, 1, 1.1},
		{0, 5, 5.1},
		{3, 1000, 1000.4},
		{9, 7, 8.0},
		{1, 1 << 24, 16777216}, // 2^24 + 0.2 is not a float: rounds to 2^24
	}
	for _, c := range literal {
		if got := BufValue(c.r, c.i); got != c.want {
			t.Errorf("BufValue(%d, %d) = %v, want %v", c.r, c.i, got, c.want)
		}
	}
	for r := 0; r < 8; r++ {
		for _, i := range []int{0, 1, 2, 3, 100, 12345, 1048575, 16777217, 33554433} {
			if got, want := BufValue(r, i), refValue(r, i); got != want {
				t.Errorf("BufValue(%d, %d) = %v, want %v", r, i, got, want)
			}
		}
	}
}

func TestFillFloats(t *testing.T) {
	dst := make([]float32, 5)
	FillFloats(dst, 2, 7)
	for i, v := range dst {
		if want := refValue(2, 7+i); v != want {
			t.Errorf("FillFloats(rank 2, off 7)[%d] = %v, want %v", i, v, want)
		}
	}
}

func TestFillBytesLiteral(t *testing.T) {
	// 0.1f is 0x3DCCCCCD; little-endian bytes CD CC CC 3D.
	got := make([]byte, 4)
	FillBytes(got, 0, 0)
	if want := []byte{0xCD, 0xCC, 0xCC, 0x3D}; string(got) != string(want) {
		t.Errorf("FillBytes(rank 0) = %x, want %x", got, want)
	}
}

func TestFillBytesOffsets(t *testing.T) {
	for r := 0; r < 3; r++ {
		for off := 0; off < 13; off++ {
			for n := 0; n < 19; n++ {
				dst := make([]byte, n)
				FillBytes(dst, r, off)
				ref := refBytes(r, off, n)
				for j := range dst {
					if dst[j] != ref[j] {
						t.Fatalf("FillBytes(rank %d, off %d, n %d)[%d] = %#x, want %#x", r, off, n, j, dst[j], ref[j])
					}
				}
			}
		}
	}
	// A large offset, in the middle of a 4 MiB message.
	dst := make([]byte, 11)
	FillBytes(dst, 5, 2097151)
	ref := refBytes(5, 2097151, 11)
	if string(dst) != string(ref) {
		t.Errorf("FillBytes at 2097151 = %x, want %x", dst, ref)
	}
}
