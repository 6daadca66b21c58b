package imb

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// The reference buffers here are built from the spec formula of section
// 5.2.5 (BUF_VALUE(rank,i) = 0.1*(rank+1)+(float)i, stored as float) and
// the benchmark definitions of section 3.3, independently of check.go.

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

// refSum is element i of the MPI_SUM over np ranks, in float64, rounded
// to float as MPI_FLOAT would hold it.
func refSum(np, i int) float32 {
	s := 0.0
	for r := 0; r < np; r++ {
		s += float64(refValue(r, i))
	}
	return float32(s)
}

// refSumBytes is the bytes of count reference sums from item off on.
func refSumBytes(np, off, count int) []byte {
	f := make([]float32, count)
	for k := range f {
		f[k] = refSum(np, off+k)
	}
	return floatBytes(f)
}

// refSumFloat32 sums in float32 in the given rank order, as an MPI
// library may do; the checker must accept its rounding.
func refSumFloat32(i int, ranks []int) float32 {
	var s float32
	for _, r := range ranks {
		s += refValue(r, i)
	}
	return s
}

func floatBytes(f []float32) []byte {
	b := make([]byte, 4*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
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

func TestPatternByte(t *testing.T) {
	// 0.1f is 0x3DCCCCCD; little-endian bytes CD CC CC 3D.
	for j, want := range []byte{0xCD, 0xCC, 0xCC, 0x3D} {
		if got := PatternByte(0, j); got != want {
			t.Errorf("PatternByte(0, %d) = %#x, want %#x", j, got, want)
		}
	}
	for r := 0; r < 4; r++ {
		ref := refBytes(r, 0, 64)
		for j, want := range ref {
			if got := PatternByte(r, j); got != want {
				t.Errorf("PatternByte(%d, %d) = %#x, want %#x", r, j, got, want)
			}
		}
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
					if dst[j] != PatternByte(r, off+j) || dst[j] != ref[j] {
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

func TestFillSend(t *testing.T) {
	for _, name := range []string{"PingPong", "Alltoall", "Allreduce"} {
		b, _ := MPI1Suite.Lookup(name)
		got := make([]byte, 26)
		FillSend(b, got, 3)
		want := refBytes(3, 0, 26)
		if b.Reduction { // only whole floats are written
			want = append(refBytes(3, 0, 24), 0, 0)
		}
		if string(got) != string(want) {
			t.Errorf("FillSend(%s, rank 3) = %x, want %x", name, got, want)
		}
	}
}

// received builds the receive buffer a correct MPI run leaves on rank r of
// n after repetition i at length x, followed by 16 bytes of 0xff the
// checker must ignore (the driver's buffers are sized for the longest
// length). It also returns which part of the buffer holds checked data
// and whether it holds floats.
func received(t *testing.T, name string, r, n, x, i int) (buf []byte, checked int, floats bool) {
	t.Helper()
	left, right := (r+n-1)%n, (r+1)%n
	var data []byte
	switch name {
	case "PingPong", "PingPing":
		data = refBytes(1-r, 0, x) // from the partner
	case "Sendrecv":
		data = refBytes(left, 0, x) // sends right, receives from the left
	case "Exchange":
		// The left neighbour sends its first half to its right (us), the
		// right neighbour its second half to its left (us).
		data = append(refBytes(left, 0, x), refBytes(right, x, x)...)
	case "Bcast":
		if root := i % n; root != r {
			data = refBytes(root, 0, x)
		}
	case "Allgather", "Allgatherv":
		for s := 0; s < n; s++ {
			data = append(data, refBytes(s, 0, x)...)
		}
	case "Alltoall", "Alltoallv":
		for s := 0; s < n; s++ {
			data = append(data, refBytes(s, r*x, x)...) // s's block for r
		}
	case "Reduce":
		floats = true
		if root := i % n; root == r {
			data = refSumBytes(n, 0, x/4)
		}
	case "Allreduce":
		floats = true
		data = refSumBytes(n, 0, x/4)
	case "Reduce_scatter":
		floats = true
		l := x / 4
		q, s := l/n, l%n
		off := 0
		for k := 0; k < r; k++ {
			off += q
			if k < s {
				off++
			}
		}
		mine := q
		if r < s {
			mine++
		}
		data = refSumBytes(n, off, mine)
	case "Barrier":
	default:
		t.Fatalf("no reference for %s", name)
	}
	buf = append(data, make([]byte, 16)...)
	for k := len(data); k < len(buf); k++ {
		buf[k] = 0xff
	}
	return buf, len(data), floats
}

func procCounts(b *Benchmark) []int {
	if b.Class == SingleTransfer {
		return []int{2}
	}
	return []int{1, 2, 3, 4, 5}
}

func lengthsFor(b *Benchmark) []int {
	if b.Reduction {
		return []int{0, 4, 8, 40, 44, 1024}
	}
	return []int{0, 1, 3, 4, 7, 64, 1001}
}

func TestDefectsCorrectRun(t *testing.T) {
	for bi := range MPI1 {
		b := &MPI1[bi]
		for _, n := range procCounts(b) {
			for _, x := range lengthsFor(b) {
				for r := 0; r < n; r++ {
					for i := 0; i < n+1; i++ {
						buf, _, _ := received(t, b.Name, r, n, x, i)
						if d := Defects(b, buf, r, n, x, i); d != 0 {
							t.Errorf("%s n=%d x=%d rank %d rep %d: %d defects on a correct buffer", b.Name, n, x, r, i, d)
						}
					}
				}
			}
		}
	}
}

func TestDefectsOneCorruption(t *testing.T) {
	for bi := range MPI1 {
		b := &MPI1[bi]
		for _, n := range procCounts(b) {
			for _, x := range lengthsFor(b) {
				for r := 0; r < n; r++ {
					for i := 0; i < n; i++ {
						buf, checked, floats := received(t, b.Name, r, n, x, i)
						if checked == 0 {
							continue
						}
						what := fmt.Sprintf("%s n=%d x=%d rank %d rep %d", b.Name, n, x, r, i)
						// Corrupt the first, a middle and the last item, one at a time.
						step := 1
						if floats {
							step = 4
						}
						for _, pos := range []int{0, (checked / 2) / step * step, checked - step} {
							bad := append([]byte(nil), buf...)
							if floats {
								v := math.Float32frombits(binary.LittleEndian.Uint32(bad[pos:]))
								binary.LittleEndian.PutUint32(bad[pos:], math.Float32bits(v*1.5+1))
							} else {
								bad[pos] ^= 0x5a
							}
							if d := Defects(b, bad, r, n, x, i); d != 1 {
								t.Errorf("%s: item at byte %d corrupted: %d defects, want 1", what, pos, d)
							}
						}
						// Three corrupted items count three.
						if checked >= 3*step {
							bad := append([]byte(nil), buf...)
							for k := 0; k < 3; k++ {
								bad[k*step+step-1] ^= 0x40 // sign/exponent byte of a float
							}
							if d := Defects(b, bad, r, n, x, i); d != 3 {
								t.Errorf("%s: 3 items corrupted: %d defects, want 3", what, d)
							}
						}
					}
				}
			}
		}
	}
}

func TestDefectsWrongSource(t *testing.T) {
	// Data from the wrong rank must not pass: Sendrecv on 3 processes,
	// rank 1 given its right neighbour's bytes instead of its left's.
	b, _ := MPI1Suite.Lookup("Sendrecv")
	if d := Defects(b, refBytes(2, 0, 64), 1, 3, 64, 0); d == 0 {
		t.Error("Sendrecv: data from the right neighbour passed the check")
	}
	// Bcast repetition 1 on 3 processes has root 1; root 0's data is wrong.
	b, _ = MPI1Suite.Lookup("Bcast")
	if d := Defects(b, refBytes(0, 0, 64), 2, 3, 64, 1); d == 0 {
		t.Error("Bcast: data from root 0 passed the check in repetition 1")
	}
	if d := Defects(b, refBytes(1, 0, 64), 2, 3, 64, 1); d != 0 {
		t.Errorf("Bcast: root 1's data in repetition 1 gave %d defects", d)
	}
	// Alltoall: a block taken from the sender's offset 0 instead of r*x.
	b, _ = MPI1Suite.Lookup("Alltoall")
	buf := append(refBytes(0, 0, 8), refBytes(1, 8, 8)...)
	if d := Defects(b, buf, 1, 2, 8, 0); d == 0 {
		t.Error("Alltoall: rank 1 accepted rank 0's block for rank 0")
	}
	// Allreduce: the sum over 2 ranks when 3 took part.
	b, _ = MPI1Suite.Lookup("Allreduce")
	f := []float32{refSum(2, 0), refSum(2, 1)}
	if d := Defects(b, floatBytes(f), 0, 3, 8, 0); d != 2 {
		t.Errorf("Allreduce: sum over the wrong rank count gave %d defects, want 2", d)
	}
	// A receive buffer left untouched (all 0xff, as the driver presets it).
	b, _ = MPI1Suite.Lookup("PingPong")
	junk := make([]byte, 40)
	for k := range junk {
		junk[k] = 0xff
	}
	if d := Defects(b, junk, 0, 2, 40, 0); d != 40 {
		t.Errorf("PingPong: untouched buffer gave %d defects, want 40", d)
	}
}

func TestDefectsFloatRounding(t *testing.T) {
	// An MPI library sums in float, in any order; that rounding is not a
	// defect. Large indices (values near 6e5, sums near 4e6) make the
	// rounding visible.
	const n = 7
	ranks := []int{6, 0, 5, 1, 4, 2, 3}
	b, _ := MPI1Suite.Lookup("Allreduce")
	small := make([]float32, 64)
	for k := range small {
		small[k] = refSumFloat32(k, ranks)
	}
	if d := Defects(b, floatBytes(small), 0, n, 4*len(small), 0); d != 0 {
		t.Errorf("Allreduce: float32 sums gave %d defects", d)
	}
	// Reduce_scatter: the last rank's slice of L = 700000 floats starts
	// at 6*100000 = 600000.
	rs, _ := MPI1Suite.Lookup("Reduce_scatter")
	const l, off = 700000, 600000
	mine := make([]float32, l/n)
	rounded := 0
	for k := range mine {
		mine[k] = refSumFloat32(off+k, ranks)
		if mine[k] != refSum(n, off+k) {
			rounded++
		}
	}
	if rounded == 0 {
		t.Fatal("test setup: float32 and float64 sums never differ")
	}
	if d := Defects(rs, floatBytes(mine), n-1, n, 4*l, 0); d != 0 {
		t.Errorf("Reduce_scatter: float32 sums at offset %d gave %d defects (%d differ from the float64 sum)", off, d, rounded)
	}
	mine[len(mine)/2] *= 1.001
	if d := Defects(rs, floatBytes(mine), n-1, n, 4*l, 0); d != 1 {
		t.Errorf("Reduce_scatter: one sum off by 0.1%% gave %d defects, want 1", d)
	}
}
