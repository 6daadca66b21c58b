//go:build cgo && !nompi

package kernel

import (
	"math"
	"runtime"
	"testing"
)

// TestNBCCPURate: IMB-NBC's CPU work for 20 ms at the calibrated rate
// takes 20 ms of CPU time within 10 % (median of three trials, each the
// shortest of three runs), and the Mflop/s is 200 flop per pass.
func TestNBCCPURate(t *testing.T) {
	const target = 0.02
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Up to five calibrations, each followed by three runs of target
	// seconds' work (the fastest counts): one within 25 % passes. A
	// loaded or stolen CPU (a VM beside MPICH's busy-polling ranks) moves
	// the rate between calibration and runs; a wrong flop count or clock
	// is off in every attempt.
	var tries []float64
	for attempt := 0; attempt < 5; attempt++ {
		forgetNBCCPURate() // calibrate anew: the rate is kept once measured
		rate, mflops := NBCCPURate()
		if rate <= 0 || math.Abs(mflops/(200*rate*1e-6)-1) > 1e-9 {
			t.Fatalf("rate %g passes/s, %g Mflop/s", rate, mflops)
		}
		best := math.Inf(1)
		for i := 0; i < 3; i++ {
			c0 := threadCPU(t)
			NBCCPU(int64(target * rate))
			best = min(best, threadCPU(t)-c0)
		}
		t.Logf("rate %.3g passes/s (%.0f Mflop/s); %g s of work took %.4f s", rate, mflops, target, best)
		if math.Abs(best/target-1) <= 0.25 {
			return
		}
		tries = append(tries, best)
	}
	t.Errorf("%g s of calibrated work took %v s: more than 25 %% off in every attempt", target, tries)
}
