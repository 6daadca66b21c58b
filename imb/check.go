package imb

import (
	"bytes"
	"encoding/binary"
	"math"

	"mpibench/mpi"
)

// BufValue is IMB's buffer content (section 5.2.5) for element i of the
// buffer of communicator rank r: 0.1·(r+1) + i, as a float.
func BufValue(r, i int) float32 { return float32(0.1*float64(r+1) + float64(float32(i))) }

// FillFloats sets dst[i] = BufValue(r, off+i).
func FillFloats(dst []float32, r, off int) {
	for i := range dst {
		dst[i] = BufValue(r, off+i)
	}
}

// PatternByte is byte j of rank r's MPI_BYTE buffer: the buffer is the
// float array of BufValue seen as bytes (IMB casts its byte buffers to the
// assignment type to fill them); we fix little-endian order so that the
// pattern is the same on every host.
func PatternByte(r, j int) byte {
	return byte(math.Float32bits(BufValue(r, j/4)) >> (8 * (j % 4)))
}

// FillBytes sets dst[j] = PatternByte(r, off+j).
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

// Verifier checks received buffers. It keeps the expected byte patterns it
// has built, since every repetition of a length expects the same bytes.
type Verifier struct {
	want map[[3]int][]byte // (rank, offset, length) -> pattern bytes
	size int
}

// maxCache bounds the patterns a Verifier keeps; beyond it they are rebuilt.
const maxCache = 64 << 20

func (v *Verifier) pattern(r, off, n int) []byte {
	key := [3]int{r, off, n}
	if p, ok := v.want[key]; ok {
		return p
	}
	p := make([]byte, n)
	FillBytes(p, r, off)
	if v.size+n <= maxCache {
		if v.want == nil {
			v.want = map[[3]int][]byte{}
		}
		v.want[key] = p
		v.size += n
	}
	return p
}

// countBytes counts the bytes of got that differ from rank r's pattern
// starting at byte off.
func (v *Verifier) countBytes(got []byte, r, off int) int {
	return countDiff(got, v.pattern(r, off, len(got)))
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

// countSums counts the floats of got that are not the sum over np ranks of
// BufValue(s, off+i), within the rounding a float sum of np terms may carry.
func countSums(got []float32, np, off int) int {
	tol := 4 * float64(np) * math.Pow(2, -24)
	n := 0
	for i, g := range got {
		want := 0.0
		for s := 0; s < np; s++ {
			want += float64(BufValue(s, off+i))
		}
		if d := math.Abs(float64(g) - want); !(d <= tol*math.Abs(want)+1e-30) {
			n++
		}
	}
	return n
}

// Defects verifies the receive buffer of communicator rank r of n after
// repetition i of benchmark b at length x (bytes) and returns the number
// of wrong items: bytes for data movement, floats for reductions. root0 is
// the root of repetition 0 for rotating roots.
func Defects(b *Benchmark, recv []byte, r, n, x, i int) int {
	return new(Verifier).Defects(b, recv, r, n, x, i)
}

// Defects is the package function Defects with the Verifier's patterns.
func (v *Verifier) Defects(b *Benchmark, recv []byte, r, n, x, i int) int {
	countBytes := v.countBytes
	left, right := (r+n-1)%n, (r+1)%n
	floats := func(lo, hi int) []float32 {
		return mpiFloats(recv[4*lo : 4*hi])
	}
	l := x / 4
	switch b.Kernel {
	case mpi.PingPong, mpi.PingPing:
		return countBytes(recv[:x], 1-r, 0)
	case mpi.Sendrecv:
		return countBytes(recv[:x], left, 0)
	case mpi.Exchange:
		return countBytes(recv[:x], left, 0) + countBytes(recv[x:2*x], right, x)
	case mpi.Bcast:
		if root := i % n; root != r {
			return countBytes(recv[:x], root, 0)
		}
	case mpi.Allgather, mpi.Allgatherv:
		d := 0
		for s := 0; s < n; s++ {
			d += countBytes(recv[s*x:(s+1)*x], s, 0)
		}
		return d
	case mpi.Alltoall, mpi.Alltoallv:
		d := 0
		for s := 0; s < n; s++ {
			d += countBytes(recv[s*x:(s+1)*x], s, r*x)
		}
		return d
	case mpi.Reduce:
		if i%n == r {
			return countSums(floats(0, l), n, 0)
		}
	case mpi.ReduceScatter:
		counts := ScatterCounts(l, n)
		off := 0
		for s := 0; s < r; s++ {
			off += counts[s]
		}
		return countSums(floats(0, counts[r]), n, off)
	case mpi.Allreduce:
		return countSums(floats(0, l), n, 0)
	}
	return 0
}

func mpiFloats(b []byte) []float32 {
	f := make([]float32, len(b)/4)
	for i := range f {
		f[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return f
}

// FillSend writes rank r's pattern into a send buffer: floats for
// reductions, the byte view of the float pattern otherwise.
func FillSend(b *Benchmark, send []byte, r int) {
	if b.Reduction {
		f := make([]float32, len(send)/4)
		FillFloats(f, r, 0)
		for i, v := range f {
			binary.LittleEndian.PutUint32(send[4*i:], math.Float32bits(v))
		}
		return
	}
	FillBytes(send, r, 0)
}
