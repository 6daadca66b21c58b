package beffio

import "testing"

// Every row of Table 2 for M_PART = 2 MB (l, L, U, table position).
func TestTable(t *testing.T) {
	const mp = 2 * MB
	want := []Pattern{
		{0, 0, MB, MB, 0, 0, false}, {1, 0, mp, mp, 4, 7, false}, {2, 0, MB, 2 * MB, 4, 8, false},
		{3, 0, MB, MB, 4, 5, false}, {4, 0, 32 * KB, MB, 2, 3, false}, {5, 0, KB, MB, 2, 1, false},
		{6, 0, 32*KB + 8, MB + 256, 2, 4, false}, {7, 0, KB + 8, MB + 8*KB, 2, 2, false},
		{8, 0, MB + 8, MB + 8, 2, 6, false},
		{9, 1, MB, MB, 0, 0, false}, {10, 1, mp, mp, 4, 7, false}, {11, 1, MB, MB, 2, 5, false},
		{12, 1, 32 * KB, 32 * KB, 1, 3, false}, {13, 1, KB, KB, 1, 1, false},
		{14, 1, 32*KB + 8, 32*KB + 8, 1, 4, false}, {15, 1, KB + 8, KB + 8, 1, 2, false},
		{16, 1, MB + 8, MB + 8, 2, 6, false},
	}
	sep := []Pattern{
		{0, 2, MB, MB, 0, 0, false}, {0, 2, mp, mp, 2, 7, false}, {0, 2, MB, MB, 2, 5, false},
		{0, 2, 32 * KB, 32 * KB, 1, 3, false}, {0, 2, KB, KB, 1, 1, false},
		{0, 2, 32*KB + 8, 32*KB + 8, 1, 4, false}, {0, 2, KB + 8, KB + 8, 1, 2, false},
		{0, 2, MB + 8, MB + 8, 2, 6, false},
	}
	for typ := 2; typ <= 4; typ++ {
		for _, p := range sep {
			p.No, p.Type = len(want), typ
			want = append(want, p)
		}
		if typ >= 3 {
			want = append(want, Pattern{No: len(want), Type: typ, Fill: true})
		}
	}
	got := Table(mp)
	if len(got) != 43 || len(want) != 43 {
		t.Fatalf("%d patterns, want 43 (built %d)", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("pattern %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	// Table 2's numbering: type 3 is 25-33, type 4 34-42.
	if p := got[25]; p.Type != 3 || p.U != 0 || p.L != MB {
		t.Errorf("pattern 25: %+v", p)
	}
	if p := got[42]; p.Type != 4 || !p.Fill {
		t.Errorf("pattern 42: %+v", p)
	}
}

// The non-wellformed sizes are the wellformed ones plus 8 bytes, and
// type 0 scatters L onto whole chunks of l.
func TestWellformed(t *testing.T) {
	for _, p := range Table(4 * MB) {
		if p.Fill {
			continue
		}
		if p.Pos == 2 || p.Pos == 4 || p.Pos == 6 {
			if (p.L-8)&(p.L-9) != 0 {
				t.Errorf("pattern %d: l = %d is not a power of two + 8", p.No, p.L)
			}
		} else if p.L&(p.L-1) != 0 {
			t.Errorf("pattern %d: l = %d is not a power of two", p.No, p.L)
		}
		if p.Mem%p.L != 0 || (p.Type != 0 && p.Mem != p.L) {
			t.Errorf("pattern %d: L = %d, l = %d", p.No, p.Mem, p.L)
		}
	}
}

// ΣU = 64 per access method.
func TestSumU(t *testing.T) {
	sum := 0
	per := map[int]int{}
	for _, p := range Table(2 * MB) {
		sum += p.U
		per[p.Type] += p.U
	}
	if sum != SumU {
		t.Errorf("ΣU = %d, want %d", sum, SumU)
	}
	if per[0] != 22 || per[1] != 12 || per[2] != 10 || per[3] != 10 || per[4] != 10 {
		t.Errorf("U per type: %v", per)
	}
}

func TestMPart(t *testing.T) {
	for _, c := range []struct{ mem, want int }{
		{1, 2 * MB}, {64, 2 * MB}, {256, 2 * MB}, {512, 4 * MB}, {1024, 8 * MB},
		{128 * 1024, 1024 * MB}, {1 << 20, 1024 * MB},
	} {
		if got := MPart(c.mem); got != c.want {
			t.Errorf("MPart(%d MB) = %d, want %d", c.mem, got, c.want)
		}
	}
	if got := MaxMem(Table(2 * MB)); got != 2*MB {
		t.Errorf("MaxMem = %d", got)
	}
	if got := MaxMem(Table(8 * MB)); got != 8*MB {
		t.Errorf("MaxMem = %d", got)
	}
}
