package beffio

import (
	"math"
	"testing"
)

func TestSched(t *testing.T) {
	for _, c := range []struct {
		total    float64
		u, parts int
		want     float64
	}{
		{900, 4, 1, 18.75}, // 900·4/64/3
		{900, 1, 1, 4.6875},
		{900, 0, 1, 0},
		{1800, 2, 3, 6.25}, // 600·2/64/3
		{3, 4, 1, 0.0625},
	} {
		if got := Sched(c.total, c.u, c.parts); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Sched(%g, %d, %d) = %g, want %g", c.total, c.u, c.parts, got, c.want)
		}
	}
	// The patterns of one access method fill T/3 of a partition.
	sum := 0.0
	for _, p := range Table(2 * MB) {
		sum += Sched(900, p.U, 1)
	}
	if math.Abs(sum-300) > 1e-9 {
		t.Errorf("scheduled time of one access method = %g, want 300", sum)
	}
}

// Segment by hand, M_PART = 2 MB.
func TestSegment(t *testing.T) {
	tab := Table(2 * MB)
	reps := make([]int64, len(tab))
	// type 0: p1 (M_PART) 3, p2 (L=2 MB) 99, p3 (1 MB) 5, p4 (32k in 1 MB) 2,
	// p5 (1k in 1 MB) 1, p6 (32k+8) 1, p7 (1k+8) 1, p8 (1 MB+8) 7
	copy(reps[0:], []int64{1, 3, 99, 5, 2, 1, 1, 1, 7})
	// type 1: 1, M_PART 1, 1 MB 4, 32k 1, 1k 200, 32k+8 2, 1k+8 300, 1 MB+8 9
	copy(reps[9:], []int64{1, 1, 4, 1, 200, 2, 300, 9})
	// type 2: 1, M_PART 4, 1 MB 6, 32k 100, 1k 5000, 32k+8 8, 1k+8 2000, 1 MB+8 8
	copy(reps[17:], []int64{1, 4, 6, 100, 5000, 8, 2000, 8})
	seg, lseg, fill := Segment(tab, reps)
	// k=1: min(3·1, 10·1, 4) = 3        k=2: min(5·1, 40, 6) = 5
	// k=3: min(2·32, 10, 100) = 10      k=4: min(1·1024, 2000, 5000) = 1024
	// k=5: min(1·32, 20, 8) = 8         k=6: min(1·1024, 3000, 2000) = 1024
	// k=7: min(7·1, 90, 8) = 7
	want := []int64{1, 3, 5, 10, 1024, 8, 1024, 7, 1}
	for k := range want {
		if seg[k] != want[k] {
			t.Errorf("segment reps[%d] = %d, want %d", k, seg[k], want[k])
		}
	}
	sum := int64(MB) + 3*2*MB + 5*MB + 10*32*KB + 1024*KB + 8*(32*KB+8) + 1024*(KB+8) + 7*(MB+8)
	wantSeg := (sum + MB - 1) / MB * MB
	if lseg != wantSeg || int64(fill) != wantSeg-sum {
		t.Errorf("Lseg = %d, fill = %d; want %d, %d", lseg, fill, wantSeg, wantSeg-sum)
	}
	if lseg%MB != 0 || fill < 0 || fill >= MB {
		t.Errorf("Lseg %d not a multiple of 1 MB above the data (fill %d)", lseg, fill)
	}
}
