package mpi

import "slices"

// countModes name bigcount.h's enum mb_big_mode in records.
var countModes = []string{"int", "mpi4-large-count", "derived-type"}

// bigBytes is the first length the int kernels cannot carry: 2 GiB, where
// a count of bytes passes INT_MAX. The mutant build's test hook lowers it
// (bigcount_mutant.go).
var bigBytes int64 = 1 << 31

// BigBytes is the length from which a benchmark runs its large-count
// kernels (suites/imb/kernel's BigRun, OSUBigRun).
func BigBytes() int64 { return bigBytes }

// IsBig tells whether x bytes need the large-count kernels.
func IsBig(x int64) bool { return x >= bigBytes }

// BigTestEnv names the test hook of the mutant build that moves the
// large-count threshold down to small messages, so that a test runs every
// large-count kernel and both the MPI-4 and the derived-type paths
// (bigcount.h) in milliseconds: "BYTES:LIMIT:BLOCK:FORCE" sets the first
// length run by BigRun, the items an int count carries, the items of a
// derived block and, with FORCE 1, the derived type even where MPI-4's
// calls exist.
const BigTestEnv = "MPIBENCH_BIG_TEST"

// OSUCollBig is an OSU collective (osu_bcast, osu_reduce, osu_allreduce)
// at a size that may pass 2 GiB, through the large-count layer: Bcast
// MPI_CHAR, the reductions MPI_FLOAT with MPI_SUM (bigcount.h).
type OSUCollBig struct {
	Kind        OSUCollKind
	Bytes       int64
	Iters, Skip int
	VWarm       int  // -u with -c
	Root        int  // osu_reduce: the root, or -1 to rotate
	Check       bool // -c
	Samples     bool // keep each timed repetition's time
}

// osuCollBig are the collectives with a large-count kernel, in the order
// of bigcount.h's enum mb_bigcoll_kind.
var osuCollBig = []OSUCollKind{OSUBcast, OSUReduce, OSUAllreduce}

// OSUCollBigKind tells whether k has a large-count kernel.
func OSUCollBigKind(k OSUCollKind) bool { return slices.Contains(osuCollBig, k) }

// bufs are the bytes of the send and receive buffers rank needs of np:
// Bcast one buffer (it receives where its root sends from), Allreduce
// two, Reduce two on its roots (all with -k rotate) and a send buffer
// elsewhere (the receive buffer is significant at the root only).
func (s *OSUCollBig) bufs(rank, np int) (send, recv int64) {
	switch {
	case s.Kind == OSUBcast:
		return 0, s.Bytes
	case s.Kind == OSUReduce && s.Root >= 0 && rank != s.Root%max(np, 1):
		return s.Bytes, 0
	}
	return s.Bytes, s.Bytes
}
