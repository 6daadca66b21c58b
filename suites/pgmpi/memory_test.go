package pgmpi

import (
	"math"
	"testing"
)

// need saturates instead of wrapping round to a small or negative
// need.
func TestMemPgmpiNeedSaturates(t *testing.T) {
	for _, c := range []struct{ n, reps, procs int }{
		{16, 9000000000000000000, 2}, {16, math.MaxInt, 2}, {math.MaxInt, math.MaxInt, math.MaxInt},
	} {
		if got := need("MPI_Bcast", c.n, c.reps, c.procs); got.Bytes != math.MaxInt64 {
			t.Errorf("need(%d, %d, %d) = %d, want MaxInt64", c.n, c.reps, c.procs, got.Bytes)
		}
	}
	if got := need("MPI_Bcast", 4<<20, 10, 2); got.Bytes != 4*(4<<20)+8*2+32*10 {
		t.Errorf("need(4 MiB, 10, 2) = %d", got.Bytes)
	}
}
