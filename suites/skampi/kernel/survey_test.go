//go:build cgo && !nompi

package kernel

import "testing"

// The survey's schedule, checked against its definition for every P up
// to 65: in each round a rank meets at most one other, both agree, and
// over the rounds every pair i < j of real ranks meets exactly once, in
// P-1 rounds for even P and P for odd P.
func TestSurveySchedule(t *testing.T) {
	for p := 2; p <= 65; p++ {
		rounds := p - 1 + p%2
		met := map[[2]int]int{}
		for r := 0; r < rounds; r++ {
			for rank := 0; rank < p; rank++ {
				q := SurveyPartner(rank, r, p)
				if q == rank || q < 0 || q >= p+p%2 {
					t.Fatalf("P=%d round %d: rank %d meets %d", p, r, rank, q)
				}
				if q >= p {
					continue // a bye
				}
				if back := SurveyPartner(q, r, p); back != rank {
					t.Fatalf("P=%d round %d: %d meets %d, who meets %d", p, r, rank, q, back)
				}
				if rank < q {
					met[[2]int{rank, q}]++
				}
			}
		}
		if len(met) != p*(p-1)/2 {
			t.Fatalf("P=%d: %d pairs met, want %d", p, len(met), p*(p-1)/2)
		}
		for pair, n := range met {
			if n != 1 {
				t.Fatalf("P=%d: pair %v met %d times", p, pair, n)
			}
		}
	}
}
