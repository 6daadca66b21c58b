//go:build cgo && !nompi

package kernel

import (
	"math"
	"testing"

	"mpibench/mpi"
)

// TestReduceTypes: the reduction content of every -red_data_type, summed
// here element by element over np ranks as the type sums (char modulo
// 256), is what BadReduce expects: no defect; a rank left out, a rank
// twice, another repetition's content and poison are defects everywhere.
func TestReduceTypes(t *testing.T) {
	const n, rep = 700, 3
	for _, typ := range []DataType{TypeChar, TypeInt, TypeFloat, TypeDouble} {
		size := typ.Size()
		for _, np := range []int{1, 2, 3, 4, 63} {
			sum := func(ranks []int, it int64) []byte {
				out := make([]byte, n*size)
				acc := make([]float64, n)
				for _, r := range ranks {
					b, _ := mpi.Alloc(n * size)
					PatternReduceRep(b, typ, r, it)
					for j := range acc {
						acc[j] += elem(b.Bytes(), typ, j)
					}
					b.Free()
				}
				for j, v := range acc {
					putElem(out, typ, j, v)
				}
				return out
			}
			all := make([]int, np)
			for r := range all {
				all[r] = r
			}
			if bad := BadReduce(sum(all, rep), typ, np, rep, 0); bad != 0 {
				t.Errorf("%v np %d: %d defects in the exact sums", typ, np, bad)
			}
			for what, got := range map[string][]byte{"rank 0 left out": sum(all[1:], rep),
				"rank 0 twice": sum(append(all, 0), rep), "repetition 2": sum(all, rep-1),
				"poison": bytesOf(0xff, n*size)} {
				if bad := BadReduce(got, typ, np, rep, 0); bad != n && !(what == "rank 0 left out" && np == 1) {
					t.Errorf("%v np %d, %s: %d defects of %d", typ, np, what, bad, n)
				}
			}
		}
	}
}

// elem reads item j of b as typ.
func elem(b []byte, typ DataType, j int) float64 {
	switch typ {
	case TypeChar:
		return float64(int8(b[j]))
	case TypeInt:
		return float64(int32(uint32(b[4*j]) | uint32(b[4*j+1])<<8 | uint32(b[4*j+2])<<16 | uint32(b[4*j+3])<<24))
	case TypeFloat:
		return float64(math.Float32frombits(uint32(b[4*j]) | uint32(b[4*j+1])<<8 | uint32(b[4*j+2])<<16 | uint32(b[4*j+3])<<24))
	}
	var u uint64
	for k := 7; k >= 0; k-- {
		u = u<<8 | uint64(b[8*j+k])
	}
	return math.Float64frombits(u)
}

// putElem writes v as item j of b, char modulo 256.
func putElem(b []byte, typ DataType, j int, v float64) {
	var u uint64
	switch typ {
	case TypeChar:
		b[j] = byte(int64(v))
		return
	case TypeInt:
		u = uint64(uint32(int32(v)))
	case TypeFloat:
		u = uint64(math.Float32bits(float32(v)))
	default:
		u = math.Float64bits(v)
	}
	for k := 0; k < typ.Size(); k++ {
		b[typ.Size()*j+k] = byte(u >> (8 * k))
	}
}

func bytesOf(v byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = v
	}
	return b
}
