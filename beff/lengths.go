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

// Looplength policy (paper, section 3): 300 iterations for the shortest
// message, "dynamically reduced to achieve an execution time for each loop
// between 2.5 and 5 msec", never below 1.
const (
	FirstLoop  = 300
	loopLow    = 2.5e-3 // s
	loopHigh   = 5e-3   // s
	loopTarget = (loopLow + loopHigh) / 2
)

// NextLoop chooses the looplength for the next message length lnext from
// the looplength ll used at length l and the time t (seconds, the maximum
// over processes and repetitions) that loop took. The loop time at lnext
// is predicted as t·lnext/l (bandwidth-bound: an upper bound when latency
// dominates). If that exceeds 5 ms the looplength is cut so that the
// prediction lands in the middle of the 2.5-5 ms band; it is never raised,
// because the paper only reduces it, starting from 300.
func NextLoop(ll int, t float64, l, lnext int) int {
	pred := t * float64(lnext) / float64(l)
	if pred <= loopHigh {
		return ll
	}
	n := int(float64(ll) * loopTarget / pred)
	return max(1, min(n, ll))
}

// FixedLoop is the looplength of the version 3.1 page,
// min(300, L_max/L), at least 1 (-looplength fixed).
func FixedLoop(l, lmax int) int {
	return max(1, min(FirstLoop, lmax/l))
}
