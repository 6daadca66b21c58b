package mpi

// This file holds the declarations of package mpi that need no MPI: the
// plain types, constants and run descriptions. Both builds share them, the
// cgo one (mpi.go and the others, `cgo && !nompi`) and the analysis-only
// one without MPI (nompi.go), so that the two cannot drift apart.

import (
	"errors"
	"fmt"
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

// BeffMethod is one of the three communication methods of b_eff.
type BeffMethod int

// The methods, in the order of beff.h.
const (
	BeffSendrecv BeffMethod = iota
	BeffAlltoallv
	BeffNonblocking
)

// BeffPad is the slack past the last block that a buffer needs: the
// mutant beff-peer sends from one byte past each block.
const BeffPad = 64

// BeffRun is one measurement: Loop executions of the pattern with one
// method and messages of Len bytes (the length of the last SetLen).
type BeffRun struct {
	Pattern    *BeffPattern
	Method     BeffMethod
	Len        int
	Send, Recv Buffer // at least steps·slot + BeffPad bytes each
	Loop       int
	Warmup     bool // one untimed execution before the barrier
	// Check runs the same loop with the data check of beff.c: every
	// execution sends rank- and execution-dependent bytes and the
	// received ones are verified; the time is then no benchmark data.
	Check bool
}

// BeffIO access methods, in the order of beffio.h.
const (
	BeffIOWrite = iota
	BeffIORewrite
	BeffIORead
)

// BeffIOPattern is one timed loop of a pattern.
type BeffIOPattern struct {
	Type    int     // 0..4
	Write   bool    // write or rewrite; false: read
	Buf     Buffer  // at least Len bytes
	Len     int     // L: bytes per call
	Reps    int64   // > 0: exactly Reps calls; 0: time-driven
	Sched   float64 // seconds, when time-driven
	MaxReps int64   // time-driven: at most this many calls (the -disk bound); 0: none
	Chunk   int     // l: the chunk on disk, the unit of the data check
	Rank    int     // rank in the partition and the pattern number: the check's content
	Pattern int
	Dir     string // writes: the directory whose file system is watched; "": none
	Room    int64  // writes: bytes one call moves on the whole partition
}

// BeffIOResult is what one loop did.
type BeffIOResult struct {
	Calls   int64
	Time    float64 // from the barrier before the first call to the barrier after the last (and MPI_File_sync for writes)
	Defects int64   // reads: chunks whose check marks are not the writer's
}

// SkampiOp is one operation of a SKaMPI pattern, in the order of skampi.h.
type SkampiOp int

// The operations.
const (
	SkampiEmpty     SkampiOp = iota // timer pair alone on rank 0
	SkampiCollEmpty                 // barrier, timer, barrier: the collective's empty measurement

	SkampiPPBsendRecv
	SkampiPPIsendRecv
	SkampiPPSendIprobeRecv
	SkampiPPSendIrecv
	SkampiPPSendRecv
	SkampiPPSendRecvAT
	SkampiPPSendrecv
	SkampiPPSendrecvReplace
	SkampiPPSsendRecv

	SkampiAlltoall
	SkampiBarrier
	SkampiBcast
	SkampiCommSplit
	SkampiReduce
	SkampiScan
	SkampiGather
	SkampiScatter
	SkampiAllgather
	SkampiAllreduce

	SkampiMWBsend
	SkampiMWIsend
	SkampiMWRecvAny
	SkampiMWSend
	SkampiMWSsend
	SkampiMWWaitany
	SkampiMWWaitsome

	SkampiWtime
	SkampiCommRank
	SkampiCommSize
	SkampiIprobeFail
	SkampiAttrGet
)

// PgmpiCall is one call of the PGMPI guidelines, in the order of pgmpi.h:
// the ten MPI functions, then the mock-ups of GL3-GL17.
type PgmpiCall int

// PgmpiInput is the input value at index i of rank's vector.
func PgmpiInput(rank, i int) int32 { return int32(rank*1000003 + i + 1) }

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
