//go:build cgo && !nompi

package kernel

import (
	"fmt"
	"math"
	"runtime"
	"strings"
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
// 0.1 s, in one trial of at most five. A wrong calibration (units, a lost
// factor of the loop count) misses by a factor of 2 or more in every
// trial. Load beside the test moves a trial both ways: a calibration
// under load counts too few Mflop/s and the kernel then runs short, a
// kernel run under load takes longer (seen in CI, with other test
// packages on the other core: 0.098, 0.144 and 0.158 s in three trials),
// and a CI machine's clock rate moves by 10 % between calibration and use
// (12375 and 13606 Mflop/s in one run); so one undisturbed trial decides.
func TestCPUExploitCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: up to five calibrations of a CPU-bound loop, seconds each")
	}
	const target = 0.1
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	near := func(v float64) bool { return math.Abs(v/target-1) <= 0.20 }
	var trials []string
	for trial := 0; trial < 5; trial++ {
		secs, mflops := CalibrateCPUExploit(target)
		best := math.Inf(1)
		for i := 0; i < 3; i++ {
			c0 := threadCPU(t)
			CPUExploit()
			best = min(best, threadCPU(t)-c0)
		}
		t.Logf("trial %d: t_CPU %.4f s (%.0f Mflop/s), the kernel then took %.4f s", trial, secs, mflops, best)
		if near(secs) && near(best) {
			return
		}
		trials = append(trials, fmt.Sprintf("t_CPU %.4f s, kernel %.4f s", secs, best))
	}
	t.Errorf("no trial had both the reported t_CPU and the calibrated kernel's CPU time within 20 %% of %g s: %s",
		target, strings.Join(trials, "; "))
}
