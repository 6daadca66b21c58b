//go:build cgo && mutant && !nompi

package clocksync

import (
	"fmt"
	"math"
	"os"

	"mpibench/mpi"
)

// A mutant build (tests only) reports, under the clock mutant, how far
// every synchronised clock but rank 0's is from the truth the mutant knows
// (mpi.ClockTruth), next to its own bound and the communicator's clock
// error, and how far its rate is from the true one: the test that the synchronisation recovers an offset and a drift
// reads these lines.
func init() { synced = reportTruth }

func reportTruth(c mpi.Comm, clk Clock) {
	now := mpi.Wtime()
	truth, rate, ok := mpi.ClockTruth(now)
	if !ok || c.Rank() == 0 {
		return
	}
	fmt.Fprintf(os.Stderr, "clock mutant: rank %d of %d: model error %.6g s, bound %.6g s, clock error %.6g s, rate error %.6g\n",
		c.Rank(), c.Size(), math.Abs(clk.Global(now)-truth), clk.Err, clk.MaxErr, math.Abs(clk.S-rate))
}
