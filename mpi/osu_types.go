package mpi

// The OSU types that the large-count kernels of this package (bigcount.go)
// share with OSU's own kernels (suites/osu/kernel): the loop kinds and
// what one rank measured. They stay here so that both sides name them
// alike; the loops and their specifications live in suites/osu/kernel.

// OSUKind is one of OSU 7.4's point-to-point loops.
type OSUKind int

// The loops, in the order of suites/osu/kernel/osu.h.
const (
	OSULatency  OSUKind = iota // osu_latency
	OSUBw                      // osu_bw
	OSUBibw                    // osu_bibw
	OSUMbwMr                   // osu_mbw_mr
	OSUMultiLat                // osu_multi_lat
	OSULatMT                   // osu_latency_mt
	OSULatMP                   // osu_latency_mp
	OSUFan                     // osu_bw_fan_in, osu_bw_fan_out
)

// OSUResult is what this rank measured in one size of a point-to-point
// loop.
type OSUResult struct {
	Time    float64   // seconds of the timed iterations
	Samples []float64 // seconds of each timed iteration (when asked)
	Errors  int       // -c: iterations received wrong on this rank
}

// OSUCollKind names one OSU 7.4 collective latency loop.
type OSUCollKind int

// The kinds, in the order of suites/osu/kernel/osucoll.h.
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
	OSUAlltoallw          // Displs in bytes, a type per rank
	OSUNeighborAllgather  // the neighbourhood collectives, on a distributed graph
	OSUNeighborAllgatherv
	OSUNeighborAlltoall
	OSUNeighborAlltoallv
	OSUNeighborAlltoallw
)

// Neighbourhood says whether k is one of the neighbourhood collectives.
func (k OSUCollKind) Neighbourhood() bool {
	return k >= OSUNeighborAllgather && k <= OSUNeighborAlltoallw
}

// OSUCollTimes is one rank's outcome of a pass of an OSU collective, sums
// over the timed repetitions in seconds.
type OSUCollTimes struct {
	Total   float64   // t_stop - t_start
	Init    float64   // overlap pass: the non-blocking call
	Compute float64   // overlap pass: dummy compute, MPI_Test calls included
	Test    float64   // overlap pass: the MPI_Test calls
	Wait    float64   // overlap pass: MPI_Wait
	Samples []float64 // with Samples: each timed repetition's time
	Defects int64     // check mode: items received wrong
}
