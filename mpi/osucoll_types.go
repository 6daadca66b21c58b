package mpi

// OSUCollKind names one OSU 7.4 collective latency loop of osucoll.h.
type OSUCollKind int

// The kinds of osucoll.h, in the same order.
const (
	OSUAllgather OSUCollKind = iota
	OSUAllgatherv
	OSUAllreduce
	OSUAlltoall
	OSUAlltoallv
	OSUBarrier
	OSUBcast
	OSUGather
	OSUGatherv
	OSUReduce
	OSUReduceScatter
	OSUScatter
	OSUScatterv
	OSUReduceScatterBlock // Count: the elements each rank receives
)

// OSUCollType is an element type of OSU's -T.
type OSUCollType int

// The types of osucoll.h's mb_osu_type, in the same order.
const (
	OSUChar OSUCollType = iota
	OSUInt
	OSUFloat
)

// Size is the type's size in bytes (MPI_CHAR 1, MPI_INT and MPI_FLOAT 4).
func (t OSUCollType) Size() int {
	if t == OSUChar {
		return 1
	}
	return 4
}

// OSUColl describes one pass of an OSU collective test: Skip warm-up and
// Iters timed repetitions.
type OSUColl struct {
	Comm       Comm
	Kind       OSUCollKind
	NB         bool // the non-blocking call and MPI_Wait
	Type       OSUCollType
	Send, Recv Buffer // nprocs·Count elements each
	Count      int    // elements per process (reduce_scatter: in all)
	Counts     Buffer // per-rank counts (C ints): v-variants and reduce_scatter
	Displs     Buffer // per-rank displacements (C ints): v-variants
	Skip       int
	Iters      int
	InPlace    bool    // -l
	Root       int     // rooted tests: the root, or -1 to rotate
	Compute    float64 // non-blocking overlap pass: dummy compute seconds; < 0: pure pass
	Probes     int     // overlap pass: MPI_Test calls during the compute (-t)
	Samples    bool    // keep every timed repetition's time
	// ValidationWarmup is -u: in check mode, untimed calls before each
	// repetition.
	ValidationWarmup int
	// DDT is -D: the calls send one derived type made of Elements of Type
	// (Count and Counts are then 1 and Displs in its extents, as OSU's
	// num_elements = omb_ddt_get_size(...) = 1); nil: Type itself.
	DDT      *OSUDDT
	Elements int64
}

// OSUCollTimes is one rank's outcome of an OSUColl, sums over the timed
// repetitions in seconds.
type OSUCollTimes struct {
	Total   float64   // t_stop - t_start
	Init    float64   // overlap pass: the non-blocking call
	Compute float64   // overlap pass: dummy compute, MPI_Test calls included
	Test    float64   // overlap pass: the MPI_Test calls
	Wait    float64   // overlap pass: MPI_Wait
	Samples []float64 // with Samples: each timed repetition's time
	Defects int64     // check mode: items received wrong
}
