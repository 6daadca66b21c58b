package kernel

import "mpibench/mpi"

// The access methods, in the order of beffio.h.
const (
	Write = iota
	Rewrite
	Read
)

// Pattern is one timed loop of a pattern.
type Pattern struct {
	Type    int        // 0..4
	Write   bool       // write or rewrite; false: read
	Buf     mpi.Buffer // at least Len bytes
	Len     int        // L: bytes per call
	Reps    int64      // > 0: exactly Reps calls; 0: time-driven
	Sched   float64    // seconds, when time-driven
	MaxReps int64      // time-driven: at most this many calls (the -disk bound); 0: none
	Chunk   int        // l: the chunk on disk, the unit of the data check
	Rank    int        // rank in the partition and the pattern number: the check's content
	Pattern int
	Dir     string // writes: the directory whose file system is watched; "": none
	Room    int64  // writes: bytes one call moves on the whole partition
}

// Result is what one loop did.
type Result struct {
	Calls   int64
	Time    float64 // from the barrier before the first call to the barrier after the last (and MPI_File_sync for writes)
	Defects int64   // reads: chunks whose check marks are not the writer's
}
