// Package beff is the effective-bandwidth benchmark b_eff (version 3.1 of
// Rabenseifner's definition, with the ring patterns of the paper as an
// option): its message lengths, communication patterns, looplength policy,
// the b_eff formula and the driver that measures every
// b(pattern, L, method, repetition) under MPI.
package beff

import "math"

const (
	// NLengths is the number of message lengths: 13 fixed (1 B .. 4 KiB)
	// and 8 that grow geometrically from 4 KiB to L_max.
	NLengths     = 21
	fixedLengths = 13
	// MaxLmax is the cap of L_max on systems with 32-bit int (paper,
	// "On maximum message size"): MPI counts and displacements are C ints.
	MaxLmax = 128 << 20
	// MB is the megabyte of memory sizes (-mem, "MB/PE"): 2^20, as the
	// original b_eff prints "MEMORY_PER_PROCESSOR = ... MBytes [1M = 1024*1024]";
	// the sample line "128 MB/PE" on the T3E with L_max = 1 MB (Table 1)
	// is 128·2^20/128 = 2^20 bytes.
	MB = 1 << 20
	// MBps is the megabyte of bandwidths: 10^6 bytes per second, as the
	// original b_eff divides by 1e6.
	MBps = 1e6
)

// Lmax is min(128 MiB, memory per process / 128) for memMB megabytes
// (2^20 bytes) of memory per process.
func Lmax(memMB int) int {
	return int(min(int64(MaxLmax), int64(memMB)*MB/128))
}

// Lengths returns the 21 message lengths for a given L_max: 1, 2, 4, ...,
// 4096, then 4096·a^k for k = 1..8 with a = (L_max/4096)^(1/8), so that the
// last one is L_max. As in the original b_eff, the product is accumulated
// in floating point and each length rounded to the nearest whole byte.
// L_max is at least 8 KiB (-mem ≥ 1 MB), so the lengths increase.
func Lengths(lmax int) []int {
	out := make([]int, 0, NLengths)
	for i := 0; i < fixedLengths; i++ {
		out = append(out, 1<<i)
	}
	lng := float64(out[fixedLengths-1])
	a := math.Pow(float64(lmax)/lng, 1.0/float64(NLengths-fixedLengths))
	for i := fixedLengths; i < NLengths; i++ {
		lng *= a
		out = append(out, int(lng+0.5))
	}
	// Rounding error must not move the last length off L_max.
	out[NLengths-1] = lmax
	return out
}

// The looplength policies (-looplength): Fixed is the version 3.1 page's
// min(300, L_max/L), the default with its Cartesian patterns; Adaptive is
// the paper's (section 3) 2.5-5 ms per loop, the default with its rings.
const (
	Fixed    = "fixed"
	Adaptive = "adaptive"
)

// The adaptive looplength (paper, section 3): "looplength = 300 for the
// shortest message. The looplength is dynamically reduced to achieve an
// execution time for each loop between 2.5 and 5 msec. The minimum
// looplength is 1." 300 is also the most: the paper only reduces it.
const (
	FirstLoop = 300
	LoopLow   = 2.5e-3 // s
	LoopHigh  = 5e-3   // s
	// MaxRetunes bounds the measurements of one b(pat,L,mthd,rep) that
	// are taken again because their loop missed the band.
	MaxRetunes = 3
)

// loopTarget is the geometric middle of the band, √(2.5·5) ms: a loop
// time predicted within a factor √2 of the truth lands in the band.
var loopTarget = math.Sqrt(LoopLow * LoopHigh)

// NextLoop predicts the looplength of the next message length lnext from
// tau, the time per execution of the pattern (seconds, the maximum over
// processes) at length l, as b_eff.c (3.6, main: "looplng =
// looplngs[i_msg-1] / (2 or factor) * max(1, TIMEPERLOOP/comm_looptime)")
// does it: the time per execution is scaled with the length and the
// looplength chosen for a target time, so it is lowered and raised again.
// b_eff.c scales the time with the whole length ratio (a bandwidth-bound
// loop; a latency-bound one takes no longer at the next length); here it
// is scaled with the ratio's square root, the geometric middle of the two,
// within a factor √2 of either when the lengths double, and the target is
// the middle of the paper's band (b_eff.c aims the sum over all patterns
// at TIMEPERLOOP = 0.5 s instead). A tau of 0 (a hung measurement that
// -resume skipped) hands on ll, the looplength used at l.
func NextLoop(ll int, tau float64, l, lnext int) int {
	if tau <= 0 {
		return ll
	}
	return fitLoop(tau * math.Sqrt(float64(lnext)/float64(l)))
}

// Retune decides after a loop of ll executions took t seconds: 0 when it
// landed in 2.5-5 ms or cannot get there (300 below 2.5 ms: the paper's
// most; 1 above 5 ms: its least), else the looplength to measure again
// with, fitted to tau, the shortest time per execution that any try of
// this measurement showed: noise only adds time, so one disturbed try
// does not throw the looplength off; when the fit is ll itself (the miss
// was such noise) the loop is simply measured again.
func Retune(ll int, t, tau float64) int {
	switch {
	case t >= LoopLow && t <= LoopHigh, t < LoopLow && ll >= FirstLoop, t > LoopHigh && ll <= 1:
		return 0
	}
	return fitLoop(tau)
}

// fitLoop is the looplength whose loop takes the target time when one
// execution takes tau seconds, moved by one where rounding would leave
// the band, in 1..300 (tau 0, no measurable time, gives 300).
func fitLoop(tau float64) int {
	if !(tau > 0) {
		return FirstLoop
	}
	n := clampLoop(loopTarget / tau)
	if float64(n)*tau < LoopLow && n < FirstLoop {
		n++
	}
	if float64(n)*tau > LoopHigh && n > 1 {
		n--
	}
	return n
}

// clampLoop rounds a looplength to a whole number in 1..300.
func clampLoop(n float64) int {
	if !(n < FirstLoop) {
		return FirstLoop
	}
	return max(1, int(math.Round(n)))
}

// FixedLoop is the looplength of the version 3.1 page,
// min(300, L_max/L), at least 1 (-looplength fixed).
func FixedLoop(l, lmax int) int {
	return max(1, min(FirstLoop, lmax/l))
}
