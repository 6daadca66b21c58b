package imb

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// Expected values in this file are worked out by hand from the IMB 3.0
// guide (sections 3, 5.1 and 5.2), not taken from the code under test.

func TestRepetitions(t *testing.T) {
	// n_sample = MSGSPERSAMPLE (X=0), else min(1000, max(1, 40 MiB / X)),
	// with 40 MiB = 41943040 bytes.
	cases := []struct{ x, want int }{
		{0, 1000},
		{1, 1000},
		{2, 1000},
		{8192, 1000},  // 41943040/8192 = 5120
		{32768, 1000}, // 1280
		{41943, 1000}, // 41943040/41943 = 1000.0009...
		{41944, 999},  // 41943040/41944 = 999.97...
		{65536, 640},  // sample 1 table
		{100000, 419}, // sample 2 table
		{131072, 320},
		{262144, 160},
		{524288, 80},
		{1000000, 41}, // sample 2 table
		{1048576, 40},
		{2097152, 20},
		{4194304, 10},
		{41943040, 1},
		{41943041, 1}, // 40 MiB / X = 0 → at least 1
		{1 << 30, 1},
	}
	for _, c := range cases {
		if got := MPI1Suite.Settings.Repetitions(c.x, NoMode); got != c.want {
			t.Errorf("Repetitions(%d) = %d, want %d", c.x, got, c.want)
		}
	}
}

func TestDefaultLengths(t *testing.T) {
	bytes := []int{0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192,
		16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304}
	if len(bytes) != 24 {
		t.Fatalf("test table has %d entries, want 24", len(bytes))
	}
	if got := MPI1Suite.Settings.DefaultLengths(1); !slices.Equal(got, bytes) {
		t.Errorf("DefaultLengths(1) = %v\nwant %v", got, bytes)
	}
	// Reductions: the second smallest size is max(unit, 2^MINMSGLOG) = 4
	// (sample 1's Allreduce table: 0, 4, 8, ..., 4194304).
	floats := []int{0, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192,
		16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304}
	if got := MPI1Suite.Settings.DefaultLengths(4); !slices.Equal(got, floats) {
		t.Errorf("DefaultLengths(4) = %v\nwant %v", got, floats)
	}
}

func TestAdjustLengths(t *testing.T) {
	cases := []struct {
		name       string
		user       []int
		unit       int
		want, trun []int
	}{
		{"bytes unchanged", []int{0, 1, 3, 100, 1000, 4194304}, 1,
			[]int{0, 1, 3, 100, 1000, 4194304}, nil},
		{"bytes truncated, once", []int{4194305, 7, 10000000}, 1,
			[]int{4194304, 7}, []int{4194305, 10000000}},
		{"bytes repeated", []int{8, 0, 8, 1}, 1, []int{8, 0, 1}, nil},
		{"floats rounded up, each once", []int{0, 1, 2, 3, 4, 5, 100, 1001}, 4,
			[]int{0, 4, 8, 100, 1004}, nil},
		{"floats 4 to 7", []int{4, 5, 6, 7}, 4, []int{4, 8}, nil},
		{"floats in file order", []int{9, 1, 12, 5}, 4, []int{12, 4, 8}, nil},
		{"floats near the maximum", []int{4194303, 4194304, 4194305, 5000000}, 4,
			[]int{4194304}, []int{4194305, 5000000}},
		{"sample 2 lengths for Allreduce", []int{0, 100, 1000, 10000, 100000, 1000000}, 4,
			[]int{0, 100, 1000, 10000, 100000, 1000000}, nil},
	}
	for _, c := range cases {
		got, trun := MPI1Suite.Settings.AdjustLengths(c.user, c.unit)
		if !slices.Equal(got, c.want) || !slices.Equal(trun, c.trun) {
			t.Errorf("%s: MPI1Suite.Settings.AdjustLengths(%v, %d) = %v, truncated %v; want %v, truncated %v",
				c.name, c.user, c.unit, got, trun, c.want, c.trun)
		}
	}
	if got, trun := MPI1Suite.Settings.AdjustLengths(nil, 4); len(got) != 0 || len(trun) != 0 {
		t.Errorf("AdjustLengths(nil) = %v, %v; want empty", got, trun)
	}
}

// specCounts is the rule of section 5.1.2.2 written out directly:
// Pmin (Pmin > P counts as P), 2Pmin, 4Pmin, ... while below P, then P.
func specCounts(p, pmin int) []int {
	if pmin > p {
		pmin = p
	}
	var qs []int
	for q := pmin; q < p; q *= 2 {
		qs = append(qs, q)
	}
	return append(qs, p)
}

func TestProcessCountsTable(t *testing.T) {
	// Hand-computed; keys are P, then -npmin 1, 2, 3, 5.
	want := map[int][4][]int{
		1:  {{1}, {1}, {1}, {1}},
		2:  {{1, 2}, {2}, {2}, {2}},
		3:  {{1, 2, 3}, {2, 3}, {3}, {3}},
		4:  {{1, 2, 4}, {2, 4}, {3, 4}, {4}},
		5:  {{1, 2, 4, 5}, {2, 4, 5}, {3, 5}, {5}},
		6:  {{1, 2, 4, 6}, {2, 4, 6}, {3, 6}, {5, 6}},
		7:  {{1, 2, 4, 7}, {2, 4, 7}, {3, 6, 7}, {5, 7}},
		8:  {{1, 2, 4, 8}, {2, 4, 8}, {3, 6, 8}, {5, 8}},
		9:  {{1, 2, 4, 8, 9}, {2, 4, 8, 9}, {3, 6, 9}, {5, 9}},
		10: {{1, 2, 4, 8, 10}, {2, 4, 8, 10}, {3, 6, 10}, {5, 10}},
		11: {{1, 2, 4, 8, 11}, {2, 4, 8, 11}, {3, 6, 11}, {5, 10, 11}},
	}
	for p := 1; p <= 11; p++ {
		for k, pmin := range []int{1, 2, 3, 5} {
			for _, class := range []Class{ParallelTransfer, Collective} {
				got := MPI1Suite.ProcessCounts(p, pmin, class)
				if !slices.Equal(got, want[p][k]) {
					t.Errorf("ProcessCounts(P=%d, npmin=%d, %v) = %v, want %v", p, pmin, class, got, want[p][k])
				}
			}
		}
	}
}

func TestProcessCountsSpecRule(t *testing.T) {
	// Section 5.1.1's example: P = 11 gives 2, 4, 8, 11.
	if got := MPI1Suite.ProcessCounts(11, 2, Collective); !slices.Equal(got, []int{2, 4, 8, 11}) {
		t.Errorf("ProcessCounts(11, 2) = %v, want [2 4 8 11]", got)
	}
	// 5.1.2 example: mpirun -np 11 IMB-EXT -npmin 5 → 5, 10, 11.
	if got := MPI1Suite.ProcessCounts(11, 5, Collective); !slices.Equal(got, []int{5, 10, 11}) {
		t.Errorf("ProcessCounts(11, 5) = %v, want [5 10 11]", got)
	}
	for p := 1; p <= 70; p++ {
		for pmin := 1; pmin <= p+3; pmin++ {
			got := MPI1Suite.ProcessCounts(p, pmin, Collective)
			if want := specCounts(p, pmin); !slices.Equal(got, want) {
				t.Errorf("ProcessCounts(%d, %d) = %v, want %v", p, pmin, got, want)
			}
		}
	}
}

func TestProcessCountsSingleTransfer(t *testing.T) {
	// Single transfers run on exactly 2 active processes whatever -npmin
	// is; with one process there is nothing valid (the driver says so).
	for p := 2; p <= 11; p++ {
		for _, pmin := range []int{1, 2, 3, 5, 20} {
			if got := MPI1Suite.ProcessCounts(p, pmin, SingleTransfer); !slices.Equal(got, []int{2}) {
				t.Errorf("ProcessCounts(%d, %d, single) = %v, want [2]", p, pmin, got)
			}
		}
	}
	if got := MPI1Suite.ProcessCounts(1, 2, SingleTransfer); !slices.Equal(got, []int{1}) {
		t.Errorf("ProcessCounts(1, 2, single) = %v, want [1]", got)
	}
}

// byPosition inverts an order: the world rank at each map position.
func byPosition(order []int) []int {
	pos := make([]int, len(order))
	for i := range pos {
		pos[i] = -1
	}
	for w, p := range order {
		pos[p] = w
	}
	return pos
}

func TestMapOrder(t *testing.T) {
	cases := []struct {
		size, px, py int
		want         []int // world ranks in numbering order
	}{
		// -map 2x3: rows (0 2 4) and (1 3 5).
		{6, 2, 3, []int{0, 2, 4, 1, 3, 5}},
		// -map 2x2: rows (0 2) and (1 3), as sample 2 shows.
		{4, 2, 2, []int{0, 2, 1, 3}},
		// -map 3x2: rows (0 3), (1 4), (2 5).
		{6, 3, 2, []int{0, 3, 1, 4, 2, 5}},
		// -map 4x2 on two nodes of 4: counterparts are neighbours.
		{8, 4, 2, []int{0, 4, 1, 5, 2, 6, 3, 7}},
		// -map 3x4: rows (0 3 6 9), (1 4 7 10), (2 5 8 11).
		{12, 3, 4, []int{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}},
		// No map, or a degenerate one: identity.
		{5, 0, 0, []int{0, 1, 2, 3, 4}},
		{4, 1, 4, []int{0, 1, 2, 3}},
		{4, 4, 1, []int{0, 1, 2, 3}},
	}
	for _, c := range cases {
		order := MapOrder(c.size, c.px, c.py)
		if len(order) != c.size {
			t.Errorf("MapOrder(%d, %d, %d) has %d entries", c.size, c.px, c.py, len(order))
			continue
		}
		if got := byPosition(order); !slices.Equal(got, c.want) {
			t.Errorf("MapOrder(%d, %dx%d): numbering order %v, want %v (order %v)", c.size, c.px, c.py, got, c.want, order)
		}
	}
	// The position of world rank w itself, for -map 2x3.
	if got, want := MapOrder(6, 2, 3), []int{0, 3, 1, 4, 2, 5}; !slices.Equal(got, want) {
		t.Errorf("MapOrder(6, 2, 3) = %v, want %v", got, want)
	}
}

func TestMapOrderMatrixRule(t *testing.T) {
	// Section 5.1.2.6: world rank i + j*P sits at row i, column j of a
	// P×Q matrix, and processes are numbered along the rows: position
	// i*Q + j.
	for px := 2; px <= 5; px++ {
		for py := 2; py <= 5; py++ {
			order := MapOrder(px*py, px, py)
			for i := 0; i < px; i++ {
				for j := 0; j < py; j++ {
					if got, want := order[i+j*px], i*py+j; got != want {
						t.Errorf("-map %dx%d: world rank %d at position %d, want %d", px, py, i+j*px, got, want)
					}
				}
			}
		}
	}
}

func TestLayout(t *testing.T) {
	id := func(n int) []int { return MapOrder(n, 0, 0) }
	cases := []struct {
		name    string
		size, q int
		order   []int
		multi   bool
		want    [][]int
	}{
		{"primary first q ranks", 5, 2, id(5), false, [][]int{{0, 1}}},
		{"primary all", 4, 4, id(4), false, [][]int{{0, 1, 2, 3}}},
		{"multi P=5 Q=2", 5, 2, id(5), true, [][]int{{0, 1}, {2, 3}}},
		{"multi P=6 Q=3", 6, 3, id(6), true, [][]int{{0, 1, 2}, {3, 4, 5}}},
		{"multi map 2x2 Q=2", 4, 2, MapOrder(4, 2, 2), true, [][]int{{0, 2}, {1, 3}}},
		{"primary map 2x2 Q=4", 4, 4, MapOrder(4, 2, 2), false, [][]int{{0, 2, 1, 3}}},
		{"multi map 2x3 Q=2", 6, 2, MapOrder(6, 2, 3), true, [][]int{{0, 2}, {3, 5}, {4, 1}}}, // IMB order: by leader world rank
		{"primary map 2x3 Q=4", 6, 4, MapOrder(6, 2, 3), false, [][]int{{0, 2, 4, 1}}},
		{"multi map 4x2 Q=2", 8, 2, MapOrder(8, 4, 2), true, [][]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}},
		{"multi one group", 4, 4, id(4), true, [][]int{{0, 1, 2, 3}}},
	}
	for _, c := range cases {
		if got := Layout(c.size, c.q, c.order, c.multi); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Layout(%d, %d, %v, %v) = %v, want %v", c.name, c.size, c.q, c.order, c.multi, got, c.want)
		}
	}
}

func TestColor(t *testing.T) {
	id5 := MapOrder(5, 0, 0)
	// -multi, P=5, Q=2: groups {0,1} and {2,3}; rank 4 idle.
	for w, want := range []int{0, 0, 1, 1, -1} {
		if got := Color(w, 2, id5, true, 5); got != want {
			t.Errorf("Color(w=%d, q=2, multi, P=5) = %d, want %d", w, got, want)
		}
	}
	// Primary, P=5, Q=2: ranks 0 and 1 active.
	for w, want := range []int{0, 0, -1, -1, -1} {
		if got := Color(w, 2, id5, false, 5); got != want {
			t.Errorf("Color(w=%d, q=2, primary, P=5) = %d, want %d", w, got, want)
		}
	}
	// -map 2x2 multi Q=2: {0,2} is group 0, {1,3} group 1.
	m := MapOrder(4, 2, 2)
	for w, want := range []int{0, 1, 0, 1} {
		if got := Color(w, 2, m, true, 4); got != want {
			t.Errorf("Color(w=%d, q=2, multi, map 2x2) = %d, want %d", w, got, want)
		}
	}
	// -map 2x3 primary Q=4: positions 0..3 are world 0, 2, 4, 1.
	m = MapOrder(6, 2, 3)
	for w, want := range []int{0, 0, 0, -1, 0, -1} {
		if got := Color(w, 4, m, false, 6); got != want {
			t.Errorf("Color(w=%d, q=4, primary, map 2x3) = %d, want %d", w, got, want)
		}
	}
}

// TestLayoutColorAgree checks, over many shapes, that the communicator
// MPI_Comm_split builds from Color and key order[w] has exactly the ranks
// Layout reports, in the same order, and that the idle count is right.
func TestLayoutColorAgree(t *testing.T) {
	type shape struct{ size, px, py int }
	var shapes []shape
	for n := 1; n <= 12; n++ {
		shapes = append(shapes, shape{n, 0, 0})
		for px := 2; px <= n; px++ {
			if n%px == 0 && n/px >= 2 {
				shapes = append(shapes, shape{n, px, n / px})
			}
		}
	}
	for _, s := range shapes {
		order := MapOrder(s.size, s.px, s.py)
		for q := 1; q <= s.size; q++ {
			for _, multi := range []bool{false, true} {
				name := fmt.Sprintf("P=%d map=%dx%d q=%d multi=%v", s.size, s.px, s.py, q, multi)
				groups := Layout(s.size, q, order, multi)
				split := map[int][]int{}
				idle := 0
				for w := 0; w < s.size; w++ {
					c := Color(w, q, order, multi, s.size)
					if c < 0 {
						idle++
						continue
					}
					split[c] = append(split[c], w)
				}
				for c := range split {
					slices.SortFunc(split[c], func(a, b int) int { return order[a] - order[b] })
				}
				if len(split) != len(groups) {
					t.Errorf("%s: %d colors, %d groups", name, len(split), len(groups))
					continue
				}
				// Layout numbers the groups as IMB lists them (by leader
				// world rank), the split colors are the -map order: the
				// same groups, numbered apart.
				byLeader := map[int][]int{}
				for _, ranks := range split {
					byLeader[ranks[0]] = ranks
				}
				for g, ranks := range groups {
					if len(ranks) != q {
						t.Errorf("%s: group %d has %d ranks", name, g, len(ranks))
					}
					if g > 0 && groups[g-1][0] > ranks[0] {
						t.Errorf("%s: group %d's leader %d after group %d's %d", name, g, ranks[0], g-1, groups[g-1][0])
					}
					if !slices.Equal(byLeader[ranks[0]], ranks) {
						t.Errorf("%s: the color led by %d has %v, Layout group %d is %v", name, ranks[0], byLeader[ranks[0]], g, ranks)
					}
				}
				wantGroups := 1
				if multi {
					wantGroups = s.size / q
				}
				if len(groups) != wantGroups || idle != s.size-wantGroups*q {
					t.Errorf("%s: %d groups and %d idle, want %d groups and %d idle",
						name, len(groups), idle, wantGroups, s.size-wantGroups*q)
				}
			}
		}
	}
}

func TestScatterCounts(t *testing.T) {
	// L = r*np + s: rank i < s gets r+1 items, the others r.
	cases := []struct {
		l, np int
		want  []int
	}{
		{0, 1, []int{0}},
		{0, 3, []int{0, 0, 0}},
		{1, 4, []int{1, 0, 0, 0}},
		{2, 4, []int{1, 1, 0, 0}},
		{3, 4, []int{1, 1, 1, 0}},
		{4, 4, []int{1, 1, 1, 1}},
		{5, 4, []int{2, 1, 1, 1}},
		{10, 3, []int{4, 3, 3}},
		{11, 3, []int{4, 4, 3}},
		{12, 3, []int{4, 4, 4}},
		{7, 1, []int{7}},
		{25, 2, []int{13, 12}},
		{1048576, 3, []int{349526, 349525, 349525}},
	}
	for _, c := range cases {
		got := ScatterCounts(c.l, c.np)
		if !slices.Equal(got, c.want) {
			t.Errorf("ScatterCounts(%d, %d) = %v, want %v", c.l, c.np, got, c.want)
		}
	}
	for l := 0; l < 50; l++ {
		for np := 1; np <= 9; np++ {
			sum := 0
			got := ScatterCounts(l, np)
			for i, n := range got {
				sum += n
				if i > 0 && n > got[i-1] {
					t.Errorf("ScatterCounts(%d, %d) = %v: not non-increasing", l, np, got)
				}
			}
			if sum != l || got[0]-got[np-1] > 1 {
				t.Errorf("ScatterCounts(%d, %d) = %v: sum %d, spread %d", l, np, got, sum, got[0]-got[np-1])
			}
		}
	}
}

func TestBufferSizes(t *testing.T) {
	const x, q = 1000, 3
	want := map[string][2]int{
		"PingPong":       {x, x},
		"PingPing":       {x, x},
		"Sendrecv":       {x, x},
		"Exchange":       {2 * x, 2 * x}, // two messages out, two in
		"Bcast":          {x, x},
		"Allgather":      {x, q * x},
		"Allgatherv":     {x, q * x},
		"Alltoall":       {q * x, q * x},
		"Alltoallv":      {q * x, q * x},
		"Reduce":         {x, x},
		"Reduce_scatter": {x, x},
		"Allreduce":      {x, x},
		"Barrier":        {0, 0},
		// IMB 2021's (SENDBUF_SIZE_NP_I, RECVBUF_SIZE_NP_I in MPI1_benchmark.cpp)
		"Gather":                 {x, q * x},
		"Gatherv":                {x, q * x},
		"Scatter":                {q * x, x},
		"Scatterv":               {q * x, x},
		"Reduce_scatter_block":   {q * x, x},
		"Reduce_local":           {x, x},
		"Uniband":                {x, x},
		"Biband":                 {x, x},
		"PingPongSpecificSource": {x, x},
		"PingPongAnySource":      {x, x},
		"PingPingSpecificSource": {x, x},
		"PingPingAnySource":      {x, x},
	}
	if len(want) != len(MPI1) {
		t.Fatalf("table has %d benchmarks, test expects %d", len(MPI1), len(want))
	}
	for i := range MPI1 {
		b := &MPI1[i]
		w, ok := want[b.Name]
		if !ok {
			t.Errorf("no expectation for %s", b.Name)
			continue
		}
		if s, r := BufferSizes(b, x, q); s != w[0] || r != w[1] {
			t.Errorf("BufferSizes(%s, %d, %d) = %d, %d; want %d, %d", b.Name, x, q, s, r, w[0], w[1])
		}
	}
	// Section 7.1 at the standard maximum X = 4 MiB and Q = 4: Alltoall
	// needs Q×8 MB, Allgather (Q+1)×4 MB.
	const mb = 1 << 20
	b, _ := MPI1Suite.Lookup("Alltoall")
	if s, r := BufferSizes(b, 4*mb, 4); s+r != 4*8*mb {
		t.Errorf("Alltoall memory at Q=4 = %d, want %d", s+r, 4*8*mb)
	}
	b, _ = MPI1Suite.Lookup("Allgather")
	if s, r := BufferSizes(b, 4*mb, 4); s+r != 5*4*mb {
		t.Errorf("Allgather memory at Q=4 = %d, want %d", s+r, 5*4*mb)
	}
	b, _ = MPI1Suite.Lookup("PingPong")
	if s, r := BufferSizes(b, 0, 2); s != 0 || r != 0 {
		t.Errorf("PingPong buffers at x=0 = %d, %d, want 0, 0", s, r)
	}
}

// imbGroups computes the groups of -multi as IMB-MPI1 2021.11 forms and
// lists them, step by step as its source does, independently of Layout:
// the split key of IMB_set_communicator (key = py·w mod (px·py − 1), 0
// taken as w; w without a map), color = key / np (idle at size/np and
// above), each group ordered by key; then IMB_init_communicator's list,
// which world rank 0 builds from its own group and the leaders' (key
// smallest) messages in the order of world ranks 1, 2, ….
func imbGroups(size, px, py, np int) [][]int {
	key := func(w int) int {
		if px <= 1 || py <= 1 {
			return w
		}
		if k := py * w % (px*py - 1); k != 0 {
			return k
		}
		return w
	}
	byColor := map[int][]int{}
	for w := 0; w < size; w++ {
		if c := key(w) / np; c < size/np {
			byColor[c] = append(byColor[c], w)
		}
	}
	var list [][]int
	for w := 0; w < size; w++ {
		g := byColor[key(w)/np]
		if key(w)/np >= size/np {
			continue
		}
		slices.SortFunc(g, func(a, b int) int { return key(a) - key(b) })
		if g[0] == w {
			list = append(list, g)
		}
	}
	return list
}

func TestLayoutIMBGroups(t *testing.T) {
	// The examples: -map 2x3 on 6 processes, PingPong (the issue, from
	// IMB-MPI1's output), and -map 2x2 on 4 (guide 000 section 6.2,
	// sample 2: Group 0: 0 2, Group 1: 1 3).
	for _, c := range []struct {
		size, px, py, q int
		want            [][]int
	}{
		{6, 2, 3, 2, [][]int{{0, 2}, {3, 5}, {4, 1}}},
		{4, 2, 2, 2, [][]int{{0, 2}, {1, 3}}},
		{6, 2, 3, 3, [][]int{{0, 2, 4}, {1, 3, 5}}},
		{6, 1, 6, 2, [][]int{{0, 1}, {2, 3}, {4, 5}}},
	} {
		if got := Layout(c.size, c.q, MapOrder(c.size, c.px, c.py), true); !reflect.DeepEqual(got, c.want) {
			t.Errorf("-map %dx%d, %d of %d: groups %v, want %v", c.px, c.py, c.q, c.size, got, c.want)
		}
	}
	// Every map and group size against IMB's procedure; each listed group
	// is one split color, so the records' numbers name the groups the
	// ranks measured in.
	for px := 1; px <= 6; px++ {
		for py := 1; py <= 6; py++ {
			size := px * py
			order := MapOrder(size, px, py)
			for q := 1; q <= size; q++ {
				got := Layout(size, q, order, true)
				if want := imbGroups(size, px, py, q); !reflect.DeepEqual(got, want) {
					t.Errorf("-map %dx%d, groups of %d: %v, IMB %v", px, py, q, got, want)
				}
				for _, g := range got {
					for _, w := range g {
						if Color(w, q, order, true, size) != Color(g[0], q, order, true, size) {
							t.Errorf("-map %dx%d, groups of %d: rank %d not in the color of group %v", px, py, q, w, g)
						}
					}
				}
			}
		}
	}
}
