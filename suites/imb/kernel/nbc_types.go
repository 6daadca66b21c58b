package kernel

import "mpibench/mpi"

// NBCKind names one IMB-NBC loop of nbc.h.
type NBCKind int

// The kinds of nbc.h, in the same order.
const (
	Ibcast NBCKind = iota
	Iallgather
	Iallgatherv
	Igather
	Igatherv
	Iscatter
	Iscatterv
	Ialltoall
	Ialltoallv
	Ireduce
	IreduceScatter
	Iallreduce
	Ibarrier
)

// NBCRun describes one execution of an IMB-NBC loop.
type NBCRun struct {
	Kind       NBCKind
	Comm       mpi.Comm
	Send, Recv mpi.Buffer
	Count      int        // items per process (bytes, or floats for reductions)
	Counts     mpi.Buffer // per-rank counts (C ints): v-variants and Ireduce_scatter
	Displs     mpi.Buffer // per-rank displacements (C ints)
	Reps       int
	Barriers   int   // MPI_Barrier calls before the loop (N_BARR)
	Sync       int   // MPI_Barrier calls after every repetition (not Ibarrier)
	CPU        int64 // CPU work per repetition in passes; < 0: the pure loop
	Persist    bool  // IMB-MPI4: one persistent request (*_init), MPI_Start per repetition
	IMBBarrier bool  // -imb_barrier on: IMB's barrier for Barriers and Sync (imbbarrier.h)
	RootShift  bool  // -root_shift on: the root moves one rank after every repetition (not Persist)
	Slots      Slots // -off_cache: repetition i sends from and receives into slot i (zero: off)
}

// NBCTimes is one rank's outcome of an NBCRun.
type NBCTimes struct {
	T       float64 // seconds per repetition: t_pure, or t_ovrl with CPU work
	TCPU    float64 // seconds of CPU work per repetition
	Defects int     // check mode: items received wrong
}
