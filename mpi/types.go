package mpi

// This file holds the declarations of package mpi that need no MPI: the
// plain types, constants and run descriptions. Both builds share them, the
// cgo one (mpi.go and the others, `cgo && !nompi`) and the analysis-only
// one without MPI (nompi.go), so that the two cannot drift apart.

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoMPI is Init's error in a binary built without MPI (-tags nompi or
// CGO_ENABLED=0): such a binary only analyses records. The MPI build never
// returns it.
var ErrNoMPI = errors.New("this binary was built without MPI (-tags nompi or CGO_ENABLED=0) and only " +
	"analyses records (report, merge, guidelines check, list); to run benchmarks, install Open MPI or " +
	"MPICH with its development files and build with `go build ./cmd/mpibench` " +
	"(MPICH: `go build -tags mpich ./cmd/mpibench`)")

// ThreadLevel is the thread support the MPI library provided.
type ThreadLevel int

// ThreadLevelNames are IMB's -thread_level values, lowest level first.
var ThreadLevelNames = []string{"single", "funneled", "serialized", "multiple"}

// threadLevelIndex is the index of name in ThreadLevelNames.
func threadLevelIndex(name string) (int, error) {
	for i, n := range ThreadLevelNames {
		if n == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("-thread_level %q: want single, funneled, serialized or multiple", name)
}

// Kernel names one timed C kernel.
type Kernel int

// The kernels of kernels.h, in the same order.
const (
	PingPong Kernel = iota
	PingPing
	Sendrecv
	Exchange
	Bcast
	Allgather
	Allgatherv
	Alltoall
	Alltoallv
	Reduce
	ReduceScatter
	Allreduce
	Barrier
)

// Run describes one execution of a kernel.
type Run struct {
	Kernel   Kernel
	Comm     Comm
	Send     Buffer
	Recv     Buffer
	Count    int    // items per process (bytes, or floats for reductions)
	Counts   Buffer // per-rank counts (C ints) for v-variants and Reduce_scatter
	Displs   Buffer // per-rank displacements (C ints)
	Reps     int
	Root0    int // root of the first repetition for rotating roots
	Barriers int // MPI_Barrier calls before the timer starts
	Window   int // Uniband, Biband: messages in flight per repetition

	// IMB2021 runs IMB 3.0's collectives (but Barrier) as IMB 2021.11
	// defines them (kernels.c, mb_run21): each call timed alone, NoSync
	// leaves out the barrier after each, RootShift moves the root by one
	// after each (else it stays Root0). NoSync and RootShift apply to the
	// kernels of IMB 2021's benchmarks (kernels2021.c) too. The zero
	// values are IMB 2021's defaults (-sync on, -root_shift off).
	IMB2021   bool
	NoSync    bool
	RootShift bool

	// Type is the items' type (IMB 2021's -data_type, or -red_data_type
	// for the reductions); Count counts them. 0: MPI_BYTE, MPI_FLOAT for
	// the reductions.
	Type DataType
	// Slots is IMB 2021's -off_cache layout; the zero value is off.
	Slots Slots
	// IMBBarrier (-imb_barrier on) runs IMB's own barrier
	// (imbbarrier.h) for the Barriers before a collective's timing and
	// the sync barriers, where IMB 2021.11 calls IMB_do_n_barriers.
	IMBBarrier bool
}

// Slots is the -off_cache layout of a kernel call: with SIter > 0,
// repetition i sends from byte (i mod SIter)·SOffs of Send and receives at
// byte (i mod RIter)·ROffs of Recv (Uniband and Biband: message w of a
// window at slot w), in separate C loops (kernels.c, slots.h).
type Slots struct {
	SIter, RIter int
	SOffs, ROffs int
}

// DataType is one of the item types of IMB 2021's -data_type and
// -red_data_type (check.h's enum mb_type, in the same order).
type DataType int

// The types; TypeDefault is IMB's: MPI_BYTE, MPI_FLOAT for the reductions.
const (
	TypeDefault DataType = iota
	TypeByte
	TypeChar
	TypeInt
	TypeFloat
	TypeDouble
)

// typeNames are the flag values of the types, in order.
var typeNames = []string{"", "byte", "char", "int", "float", "double"}

// ParseDataType is the type named by a -data_type or -red_data_type value.
func ParseDataType(name string) (DataType, bool) {
	for i, n := range typeNames {
		if n == name && i > 0 {
			return DataType(i), true
		}
	}
	return TypeDefault, false
}

// String is the flag value ("" for the default).
func (t DataType) String() string { return typeNames[t] }

// MPIName is the type's MPI name, as IMB's header prints it (MPI_INT).
func (t DataType) MPIName() string { return "MPI_" + strings.ToUpper(typeNames[t]) }

// Size is the size of an item in bytes (C's sizes: int 4, double 8).
func (t DataType) Size() int { return [...]int{1, 1, 1, 4, 4, 8}[t] }

// RMAOp is the elementary transfer of a one-sided kernel.
type RMAOp int

// The transfers of rma.h, in the same order.
const (
	RMAPut        RMAOp = iota // MPI_Put, MPI_BYTE
	RMAGet                     // MPI_Get, MPI_BYTE
	RMAAccumulate              // MPI_Accumulate, MPI_FLOAT, MPI_SUM
)

// RMARun describes one execution of a one-sided transfer pattern on an open
// window. Transfer i (0 <= i < Reps) moves Count items between origin
// offset i*Stride and target displacement i*Stride, in items.
type RMARun struct {
	Op        RMAOp
	Win       Win
	Comm      Comm
	Origin    Buffer // the data put or accumulated, or where gets land
	Window    Buffer // this rank's window memory: its first WinItems items
	WinItems  int    // items in every rank's window
	Count     int    // items per transfer: bytes, floats for RMAAccumulate
	Stride    int    // items from one transfer to the next
	Target    int    // target rank; -1: this rank only takes part in the fences
	Reps      int
	Aggregate bool // all transfers, then one fence; else a fence after each
	OpenFence bool // MPI_Win_fence before the barriers
	Barriers  int  // MPI_Barrier calls before the timer starts
	IMB2021   bool // IMB-EXT 2021.11's definition (mb_rma.imb2021 in rma.h)
	// The roles of a checked run (Check): Rank's pattern is what this
	// rank sends; Source is the rank whose data a Put or Get delivers to
	// this rank (-1: none); Summands is the number of ranks whose
	// Accumulate sums into this rank's window (0 if none).
	Rank, Source, Summands int
	// Slots is IMB 2021's -off_cache layout (IMB2021 only, Stride 0):
	// transfer i at the slots of IMB-EXT's kernels (rma.c, o_at and w_at);
	// the zero value is off.
	Slots Slots
}

// WinRun describes one execution of the Window benchmark: Reps life cycles
// of a window over the first Size bytes of Base, each with a one-byte
// MPI_Put from Src into the own window.
type WinRun struct {
	Comm      Comm
	Base, Src Buffer
	Size      int
	Reps      int
	Barriers  int
}

// FileAccess is how a transfer positions itself in the file.
type FileAccess int

// The accesses of io.h, in the same order.
const (
	FileIndv   FileAccess = iota // individual file pointer
	FileExpl                     // explicit offsets
	FileShared                   // shared file pointer (ordered when collective)
)

// FileRun describes one timed IMB-IO loop.
type FileRun struct {
	File       *File
	Comm       Comm // the barriers before the timer
	Access     FileAccess
	Collective bool
	Write      bool
	Aggregate  bool // writes: one MPI_File_sync after all transfers, else after each
	Buf        Buffer
	Count      int   // bytes per transfer
	BufStep    int   // bytes the buffer advances per transfer; 0: the same bytes
	Offset     int64 // explicit offsets: the first one
	Stride     int64 // explicit offsets: the step
	Reps       int
	Barriers   int
	// ShortOK lets a -check read move fewer bytes than asked: the check
	// counts the bytes missing as defects. Any other short transfer fails.
	ShortOK bool
	// Check runs the loop with results checking (mb_io_check): writes
	// send Rank's pattern of each repetition, reads are kept in Save
	// (Reps·Count bytes) for the caller to verify.
	Check bool
	Rank  int
	Save  Buffer
}

// LocalError is an error this process met alone, outside MPI (a file it
// refused to open), at a point where the other processes may wait for it
// in MPI: like an MPI error, it must end the whole job.
type LocalError struct{ Err error }

func (e *LocalError) Error() string { return e.Err.Error() }
func (e *LocalError) Unwrap() error { return e.Err }

// Error is an MPI error code with the name of the call that returned it.
type Error struct {
	Call string
	Code int
	Text string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s (MPI error %d)", e.Call, e.Text, e.Code) }

// EndsJob tells whether err was met by this process alone (an MPI error or
// a LocalError), so that the others cannot be told and the job must be
// aborted.
func EndsJob(err error) bool {
	var me *Error
	var le *LocalError
	return errors.As(err, &me) || errors.As(err, &le)
}
