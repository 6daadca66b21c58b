package mpi

// RMA3Flow is who issues the transfers of an IMB-RMA put/get benchmark
// (rma3.h, enum mb_rma3_flow).
type RMA3Flow int

// The flows, in rma3.h's order.
const (
	RMA3Pair   RMA3Flow = iota // rank 0 to rank 1 (both ways when Bidir)
	RMA3OneAll                 // rank 0 to every other rank
	RMA3AllAll                 // every rank to every other rank
)

// RMA3Run describes one sample of an IMB-RMA put/get benchmark: the window
// over Window's first WinSize bytes, the warm-up and the timed loop.
type RMA3Run struct {
	Comm      Comm
	Flow      RMA3Flow
	Get       bool // MPI_Get from the target window; else MPI_Put into it
	Bidir     bool // RMA3Pair: rank 1 transfers too
	Local     bool // complete with MPI_Win_flush_local(_all)
	Aggregate bool // RMA3Pair: one flush after all transfers
	Origin    Buffer
	Window    Buffer
	WinSize   int
	Count     int // bytes per transfer
	Reps      int
	Warm      int // warm-up repetitions (untimed, non-aggregate)
	Barriers  int
}
