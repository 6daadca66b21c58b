package kernel

import "mpibench/mpi"

// RMA3Flow is who issues the transfers of an IMB-RMA put/get benchmark
// (rma3.h, enum mb_rma3_flow).
type RMA3Flow int

// The flows, in rma3.h's order.
const (
	RMA3Pair   RMA3Flow = iota // rank 0 to rank 1 (both ways when Bidir)
	RMA3OneAll                 // rank 0 to every other rank
	RMA3AllAll                 // every rank to every other rank
	RMA3Exch                   // every rank with both neighbours, a block each (two per repetition)
	RMA3Truly                  // Truly_passive_put: rank 0 to rank 1, a loop with a waiting and one with a busy target
)

// Blocks is the blocks of Count items a repetition moves per origin and
// target pair of slots: 2 for Exchange, else 1.
func (f RMA3Flow) Blocks() int {
	if f == RMA3Exch || f == RMA3Truly { // Truly_passive_put's second loop has slots of its own
		return 2
	}
	return 1
}

// RMA3Op is the elementary transfer of an IMB-RMA benchmark (rma3.h,
// enum mb_rma3_op).
type RMA3Op int

// The transfers, in rma3.h's order.
const (
	RMA3Put     RMA3Op = iota // MPI_Put, bytes
	RMA3Get                   // MPI_Get, bytes
	RMA3Acc                   // MPI_Accumulate, MPI_FLOAT, MPI_SUM
	RMA3GetAcc                // MPI_Get_accumulate, MPI_FLOAT, MPI_SUM
	RMA3FetchOp               // MPI_Fetch_and_op, one MPI_FLOAT, MPI_SUM
	RMA3CAS                   // MPI_Compare_and_swap, one MPI_INT
)

// Unit is the bytes of one item the transfer moves.
func (o RMA3Op) Unit() int {
	if o >= RMA3Acc {
		return 4
	}
	return 1
}

// RMA3Run describes one sample of an IMB-RMA put/get benchmark: the window
// over Window's first WinSize bytes (disp_unit Op.Unit), the warm-up and the timed loop.
type RMA3Run struct {
	Comm      mpi.Comm
	Flow      RMA3Flow
	Op        RMA3Op
	Bidir     bool // RMA3Pair: rank 1 transfers too
	Local     bool // complete with MPI_Win_flush_local(_all)
	Aggregate bool // RMA3Pair: one flush after all transfers
	Origin    mpi.Buffer
	Window    mpi.Buffer
	WinSize   int
	Count     int // items per transfer (Op.Unit bytes each)
	Reps      int
	Warm      int // warm-up repetitions (untimed, non-aggregate)
	Barriers  int
	CPURate   float64 // RMA3Truly: passes of the CPU work per second (NBCCPURate)
	// Slots is IMB 2021's -off_cache layout (rma3.c, o_at, w_at, r_at);
	// the zero value is off.
	Slots Slots
}

// RMA3Times is one rank's outcome of an RMA3Run.
type RMA3Times struct {
	T       float64 // seconds per repetition (t_ovrl of Truly_passive_put); -1: no transfers
	TPure   float64 // Truly_passive_put: t_pure; else -1
	Defects int
}
