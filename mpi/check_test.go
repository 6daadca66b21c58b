//go:build cgo && !nompi

package mpi

import (
	"math"
	"testing"
)

// refByte is pattern.h's formula written out again: (r+1) + 97·it + 7·j +
// 13·(j>>8) + 29·(j>>16) + 59·(j>>24) + 101·(j>>32), mod 256.
func refByte(r int, it, j int64) byte {
	v := int64(r+1) + 97*it + 7*j + 13*(j>>8) + 29*(j>>16) + 59*(j>>24) + 101*(j>>32)
	return byte(v)
}

// refSum adds (s+1) + 16·((5·it + 11·j) mod 1024) over ranks s < np.
func refSum(np int, it, j int64) float64 {
	g := (5*it + 11*j) % 1024
	sum := 0.0
	for s := 0; s < np; s++ {
		sum += float64(s+1) + 16*float64(g)
	}
	return sum
}

func TestPatternBytes(t *testing.T) {
	for _, off := range []int64{0, 1, 250, 255, 256, 65530, 1<<24 - 3, 1<<32 - 100} {
		for _, n := range []int{0, 1, 3, 7, 300, 1000} {
			dst := make([]byte, n)
			PatternBytes(dst, 3, 5, off)
			for j, b := range dst {
				if want := refByte(3, 5, off+int64(j)); b != want {
					t.Fatalf("off %d n %d: byte %d = %#x, want %#x", off, n, j, b, want)
				}
			}
			if d := BadBytes(dst, 3, 5, off); d != 0 {
				t.Errorf("off %d n %d: %d bad bytes in the pattern itself", off, n, d)
			}
		}
	}
}

// TestBadBytesCatches: another rank, repetition or position differs in
// every byte (for the ranks, repetitions and shifts pattern.h promises);
// poison and single flipped bytes count exactly.
func TestBadBytesCatches(t *testing.T) {
	const n = 4096
	got := make([]byte, n)
	PatternBytes(got, 1, 7, 0)
	for _, c := range []struct {
		what      string
		rank      int
		rep, off  int64
		wantEvery bool
	}{
		{"rank 0 for rank 1", 0, 7, 0, true},
		{"rank 2 for rank 1", 2, 7, 0, true},
		{"repetition 6 for 7", 1, 6, 0, true},
		{"repetition 8 for 7", 1, 8, 0, true},
		{"shifted by 256", 1, 7, 256, true},
		{"shifted by 1", 1, 7, 1, false},
	} {
		d := BadBytes(got, c.rank, c.rep, c.off)
		if c.wantEvery && d != n || d == 0 {
			t.Errorf("%s: %d of %d bytes bad", c.what, d, n)
		}
	}
	// The first bytes alone must already tell ranks 0 and 1 apart.
	one := make([]byte, 1)
	PatternBytes(one, 0, 0, 0)
	if BadBytes(one, 1, 0, 0) != 1 {
		t.Error("1 byte: rank 0's data passed for rank 1's")
	}
	Poison(got[100:103])
	got[4000] ^= 1
	if d := BadBytes(got, 1, 7, 0); d != 4 {
		t.Errorf("3 poisoned and 1 flipped byte: %d bad, want 4", d)
	}
}

func TestSums(t *testing.T) {
	const np, rep, off, n = 5, 3, 1000, 2000
	f := make([]float32, n)
	PatternFloats(f, 2, rep, off)
	for j, v := range f {
		g := (5*int64(rep) + 11*(off+int64(j))) % 1024
		if want := float32(3 + 16*g); v != want {
			t.Fatalf("float %d = %v, want %v", j, v, want)
		}
	}
	sums := make([]float32, n)
	for j := range sums {
		sums[j] = float32(refSum(np, rep, off+int64(j)))
	}
	if d := BadSums(sums, np, rep, off); d != 0 {
		t.Errorf("exact sums: %d bad", d)
	}
	if d := BadSums(sums, np-1, rep, off); d != n {
		t.Errorf("sums of %d ranks checked as %d ranks': %d of %d bad", np, np-1, d, n)
	}
	if d := BadSums(sums, np, rep+1, off); d != n {
		t.Errorf("repetition %d's sums checked as %d's: %d of %d bad", rep, rep+1, d, n)
	}
	sums[7] = float32(math.NaN())
	sums[9]++
	if d := BadSums(sums, np, rep, off); d != 2 {
		t.Errorf("a NaN and a sum off by 1: %d bad, want 2", d)
	}
}

// TestPatternFloatsOffsets: the formula holds at any repetition and
// offset, across the 1024-position period of g.
func TestPatternFloatsOffsets(t *testing.T) {
	for _, rep := range []int64{0, 1, 205, 1023, 1024, 123457} {
		for _, off := range []int64{0, 1023, 5000, 1 << 33} {
			f := make([]float32, 2100)
			PatternFloats(f, 4, rep, off)
			sums := make([]float32, len(f))
			for j, v := range f {
				g := (5*rep + 11*(off+int64(j))) % 1024
				if want := float32(5 + 16*g); v != want {
					t.Fatalf("rep %d off %d: float %d = %v, want %v", rep, off, j, v, want)
				}
				sums[j] = float32(refSum(3, rep, off+int64(j)))
			}
			if d := BadSums(sums, 3, rep, off); d != 0 {
				t.Errorf("rep %d off %d: %d bad sums", rep, off, d)
			}
		}
	}
}

// TestSumsManyRanks: above 2^24 a float sum may round; one rounding of a
// sum passes, a missing rank does not.
func TestSumsManyRanks(t *testing.T) {
	const np = 1200
	want := refSum(np, 0, 93) // g = 1023: about 2.06e7
	if want < 1<<24 {
		t.Fatalf("test setup: sum %v below 2^24", want)
	}
	rounded := []float32{float32(want) + float32(math.Pow(2, math.Floor(math.Log2(want))-23))}
	if d := BadSums(rounded, np, 0, 93); d != 0 {
		t.Errorf("sum off by one unit in the last place: %d bad", d)
	}
	if d := BadSums([]float32{float32(want - 1 - 16*1023)}, np, 0, 93); d != 1 {
		t.Errorf("sum without the first rank passed")
	}
}
