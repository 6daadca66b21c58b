//go:build cgo && !nompi

package kernel

import (
	"math"
	"runtime"
	"slices"
	"syscall"
	"testing"
)

// threadCPU is the calling thread's CPU time from getrusage(RUSAGE_THREAD),
// a clock read independently of the calibration's clock_gettime.
func threadCPU(t *testing.T) float64 {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		t.Fatal(err)
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + 1e-6*float64(ru.Utime.Usec+ru.Stime.Usec)
}

// TestCPUExploitCalibration: after calibrating for IMB-IO's
// TARGET_CPU_SECS = 0.1 s, the t_CPU it reports and the CPU time the
// kernel then takes (shortest of three runs, timed here) are within 20 % of
// 0.1 s. The median of three trials tolerates one trial disturbed on a
// shared node; the tolerance is wide because a CI machine's clock rate moves
// by 10 % between calibration and use (seen: 12375 and 13606 Mflop/s in one
// run), while a wrong calibration (units, a lost factor of the loop count)
// misses by a factor of 2 or more.
func TestCPUExploitCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: three calibrations of a CPU-bound loop, seconds each")
	}
	const target = 0.1
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var reported, taken []float64
	for trial := 0; trial < 3; trial++ {
		secs, mflops := CalibrateCPUExploit(target)
		best := math.Inf(1)
		for i := 0; i < 3; i++ {
			c0 := threadCPU(t)
			CPUExploit()
			best = min(best, threadCPU(t)-c0)
		}
		t.Logf("trial %d: t_CPU %.4f s (%.0f Mflop/s), the kernel then took %.4f s", trial, secs, mflops, best)
		reported, taken = append(reported, secs), append(taken, best)
	}
	for _, v := range []struct {
		what string
		t    []float64
	}{{"reported t_CPU", reported}, {"CPU time of the calibrated kernel", taken}} {
		slices.Sort(v.t)
		if med := v.t[1]; math.Abs(med/target-1) > 0.20 {
			t.Errorf("median %s %.4f s, more than 20 %% from %g s (trials %v)", v.what, med, target, v.t)
		}
	}
}
