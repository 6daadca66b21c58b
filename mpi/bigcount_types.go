package mpi

import "slices"

// BigKernels are the kernels that carry counts beyond a C int, in the
// order of bigcount.h's enum mb_big_kind.
var BigKernels = []Kernel{PingPong, PingPing, Sendrecv, Exchange, Bcast, Reduce, Allreduce}

// countModes name bigcount.h's enum mb_big_mode in records.
var countModes = []string{"int", "mpi4-large-count", "derived-type"}

// bigBytes is the first length the int kernels cannot carry: 2 GiB, where
// a count of bytes passes INT_MAX. The mutant build's test hook lowers it
// (bigcount_mutant.go).
var bigBytes int64 = 1 << 31

// BigBytes is the length from which a benchmark runs BigRun.
func BigBytes() int64 { return bigBytes }

// IsBig tells whether x bytes need the large-count kernels.
func IsBig(x int64) bool { return x >= bigBytes }

// BigKernel tells whether k has a large-count kernel.
func BigKernel(k Kernel) bool { return slices.Contains(BigKernels, k) }

// BigFloats tells whether k's items are floats (the reductions).
func BigFloats(k Kernel) bool { return k == Reduce || k == Allreduce }

// CountMode is how kernel k passes a message of x bytes: "int",
// "mpi4-large-count" or "derived-type" (bigcount.h); "" without MPI.
func CountMode(k Kernel, x int64) string {
	if BigFloats(k) {
		return bigMode(x/4, true)
	}
	return bigMode(x, false)
}

// BigTestEnv names the test hook of the mutant build that moves the
// large-count threshold down to small messages, so that a test runs every
// large-count kernel and both the MPI-4 and the derived-type paths
// (bigcount.h) in milliseconds: "BYTES:LIMIT:BLOCK:FORCE" sets the first
// length run by BigRun, the items an int count carries, the items of a
// derived block and, with FORCE 1, the derived type even where MPI-4's
// calls exist.
const BigTestEnv = "MPIBENCH_BIG_TEST"
