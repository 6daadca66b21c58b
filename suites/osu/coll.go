package osu

import (
	"fmt"
	"slices"
	"strings"

	"mpibench/mpi"
	"mpibench/run/mpijob"
	"mpibench/suites/osu/kernel"
)

// The getopt strings of OSU 7.4's collective tests (osu_util_options.h,
// OMBOP__COLLECTIVE__*: the subtype each osu_<test>.c sets picks one).
const (
	optsAlltoall   = "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::" // ALLTOALL, ALL_GATHER
	optsRooted     = optsAlltoall + "k:"                 // GATHER, SCATTER
	optsBcast      = "+:hvfm:i:x:M:a:c::u:G:D:P:T:Iz::"
	optsBarrier    = "+:hvfm:i:x:M:a:u:G:P:Iz::"
	optsAllreduce  = "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::" // ALL_REDUCE, REDUCE_SCATTER
	optsReduce     = optsAllreduce + "k:"
	optsNBCBarrier = "+:hvfm:i:x:M:t:a:G:P:Iz::"
	optsNBCAll     = "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::" // NBC_ALLTOALL, NBC_ALL_GATHER
	optsNBCRooted  = optsNBCAll + "k:"                     // NBC_GATHER, NBC_SCATTER
	optsNBCBcast   = "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Iz::"
	optsNBCReduce  = "+:hvfm:i:x:M:t:a:c::u:G:P:T:Ilz::"    // NBC_ALL_REDUCE, NBC_REDUCE_SCATTER
	optsNBCRoot    = optsNBCReduce + "k:"                   // NBC_REDUCE
	optsNbr        = "+:hvfm:i:x:M:a:c::u:N:G:D:P:T:Iz::"   // NHBR_GATHER, NHBR_ALLTOALL
	optsNBCNbr     = "+:hvfm:i:x:M:t:a:c::u:N:G:D:P:T:Iz::" // NBC_NHBR_GATHER, NBC_NHBR_ALLTOALL
)

// collTest is one collective as osucoll.h runs it.
type collTest struct {
	name, title string
	kind        mpi.OSUCollKind
	opts        string
	calls       string
}

// persistent says whether t is one of c/mpi/collective/persistent's tests
// (MPI_..._init once per size, MPI_Start and MPI_Wait in the loop), all
// named osu_*_persistent.
func (t collTest) persistent() bool { return strings.HasSuffix(t.name, "_persistent") }

// blocking are OSU 7.4's c/mpi/collective/blocking tests that mpibench
// has (their BENCHMARK titles and getopt strings); the non-blocking ones
// are the same with "osu_i" and MPI_I... calls (nonBlocking).
var blocking = []collTest{
	{"osu_allgather", "Allgather Latency Test", mpi.OSUAllgather, optsAlltoall, "MPI_Allgather"},
	{"osu_allgatherv", "Allgatherv Latency Test", mpi.OSUAllgatherv, optsAlltoall, "MPI_Allgatherv"},
	{"osu_allreduce", "Allreduce Latency Test", mpi.OSUAllreduce, optsAllreduce, "MPI_Allreduce"},
	{"osu_alltoall", "All-to-All Personalized Exchange Latency Test", mpi.OSUAlltoall, optsAlltoall, "MPI_Alltoall"},
	{"osu_alltoallv", "All-to-Allv Personalized Exchange Latency Test", mpi.OSUAlltoallv, optsAlltoall,
		"MPI_Alltoallv"},
	{"osu_alltoallw", "All-to-Allw Personalized Exchange Latency Test", mpi.OSUAlltoallw, optsAlltoall,
		"MPI_Alltoallw"},
	{"osu_barrier", "Barrier Latency Test", mpi.OSUBarrier, optsBarrier, "MPI_Barrier"},
	{"osu_bcast", "Broadcast Latency Test", mpi.OSUBcast, optsBcast, "MPI_Bcast"},
	{"osu_gather", "Gather Latency Test", mpi.OSUGather, optsRooted, "MPI_Gather"},
	{"osu_gatherv", "Gatherv Latency Test", mpi.OSUGatherv, optsRooted, "MPI_Gatherv"},
	{"osu_reduce", "Reduce Latency Test", mpi.OSUReduce, optsReduce, "MPI_Reduce"},
	{"osu_reduce_scatter", "Reduce_scatter Latency Test", mpi.OSUReduceScatter, optsAllreduce,
		"MPI_Reduce_scatter"},
	{"osu_scatter", "Scatter Latency Test", mpi.OSUScatter, optsRooted, "MPI_Scatter"},
	{"osu_scatterv", "Scatterv Latency Test", mpi.OSUScatterv, optsRooted, "MPI_Scatterv"},
	{"osu_reduce_scatter_block", "Reduce_scatter_block Latency Test", mpi.OSUReduceScatterBlock, optsAllreduce,
		"MPI_Reduce_scatter_block"},
}

// nonBlocking are the c/mpi/collective/non_blocking tests: titles and
// getopt strings as OSU 7.4 spells them (Non-Blocking Broadcast is its
// capital B).
var nonBlocking = []collTest{
	{"osu_iallgather", "Non-blocking Allgather Latency Test", mpi.OSUAllgather, optsNBCAll, "MPI_Iallgather"},
	{"osu_iallgatherv", "Non-blocking Allgatherv Latency Test", mpi.OSUAllgatherv, optsNBCAll, "MPI_Iallgatherv"},
	{"osu_iallreduce", "Non-blocking Allreduce Latency Test", mpi.OSUAllreduce, optsNBCReduce, "MPI_Iallreduce"},
	{"osu_ialltoall", "Non-blocking All-to-All Latency Test", mpi.OSUAlltoall, optsNBCAll, "MPI_Ialltoall"},
	{"osu_ialltoallv", "Non-blocking All-to-Allv Personalized Exchange Latency Test", mpi.OSUAlltoallv,
		optsNBCAll, "MPI_Ialltoallv"},
	{"osu_ialltoallw", "Non-blocking All-to-Allw Personalized Exchange Latency Test", mpi.OSUAlltoallw,
		optsNBCAll, "MPI_Ialltoallw"},
	{"osu_ibarrier", "Non-blocking Barrier Latency Test", mpi.OSUBarrier, optsNBCBarrier, "MPI_Ibarrier"},
	{"osu_ibcast", "Non-Blocking Broadcast Latency Test", mpi.OSUBcast, optsNBCBcast, "MPI_Ibcast"},
	{"osu_igather", "Non-blocking Gather Latency Test", mpi.OSUGather, optsNBCRooted, "MPI_Igather"},
	{"osu_igatherv", "Non-blocking Gatherv Latency Test", mpi.OSUGatherv, optsNBCRooted, "MPI_Igatherv"},
	{"osu_ireduce", "Non-blocking Reduce Latency Test", mpi.OSUReduce, optsNBCRoot, "MPI_Ireduce"},
	{"osu_ireduce_scatter", "Non-blocking Reduce_scatter Latency Test", mpi.OSUReduceScatter, optsNBCReduce,
		"MPI_Ireduce_scatter"},
	{"osu_iscatter", "Non-blocking Scatter Latency Test", mpi.OSUScatter, optsNBCRooted, "MPI_Iscatter"},
	{"osu_iscatterv", "Non-blocking Scatterv Latency Test", mpi.OSUScatterv, optsNBCRooted, "MPI_Iscatterv"},
	{"osu_ireduce_scatter_block", "Non-blocking Reduce_scatter_block Latency Test", mpi.OSUReduceScatterBlock,
		optsNBCReduce, "MPI_Ireduce_scatter_block"},
}

// neighbourhood are OSU 7.4's c/mpi/collective/neighborhood tests,
// blocking; their titles as OSU spells them (osu_neighbor_alltoallw.c
// carries osu_alltoallw.c's BENCHMARK line).
var neighbourhood = []collTest{
	{"osu_neighbor_allgather", "Neighborhood Allgather Latency Test", mpi.OSUNeighborAllgather, optsNbr,
		"MPI_Neighbor_allgather"},
	{"osu_neighbor_allgatherv", "Neighborhood Allgatherv Latency Test", mpi.OSUNeighborAllgatherv, optsNbr,
		"MPI_Neighbor_allgatherv"},
	{"osu_neighbor_alltoall", "Neighborhood Alltoall Latency Test", mpi.OSUNeighborAlltoall, optsNbr,
		"MPI_Neighbor_alltoall"},
	{"osu_neighbor_alltoallv", "Neighborhood All-to-Allv Latency Test", mpi.OSUNeighborAlltoallv, optsNbr,
		"MPI_Neighbor_alltoallv"},
	{"osu_neighbor_alltoallw", "All-to-Allw Personalized Exchange Latency Test", mpi.OSUNeighborAlltoallw, optsNbr,
		"MPI_Neighbor_alltoallw"},
}

// neighbourhoodNB are their non-blocking forms (osu_ineighbor_*.c).
var neighbourhoodNB = []collTest{
	{"osu_ineighbor_allgather", "Non-blocking Neighborhood Allgather Latency Test", mpi.OSUNeighborAllgather,
		optsNBCNbr, "MPI_Ineighbor_allgather"},
	{"osu_ineighbor_allgatherv", "Non-blocking Neighborhood Allgatherv Latency Test", mpi.OSUNeighborAllgatherv,
		optsNBCNbr, "MPI_Ineighbor_allgatherv"},
	{"osu_ineighbor_alltoall", "Non-blocking Neighborhood Alltoall Latency Test", mpi.OSUNeighborAlltoall,
		optsNBCNbr, "MPI_Ineighbor_alltoall"},
	{"osu_ineighbor_alltoallv", "Non-blocking Neighborhood Alltoallv Latency Test", mpi.OSUNeighborAlltoallv,
		optsNBCNbr, "MPI_Ineighbor_alltoallv"},
	{"osu_ineighbor_alltoallw", "Non-blocking Neighborhood Alltoallw Latency Test", mpi.OSUNeighborAlltoallw,
		optsNBCNbr, "MPI_Ineighbor_alltoallw"},
}

// persistentColl are OSU 7.4's c/mpi/collective/persistent tests (built
// by OSU only against an MPI-4 library): their BENCHMARK titles and the
// getopt strings of their subtypes (osu_util_options.h,
// OMBOP__COLLECTIVE__*_P: GATHER_P and SCATTER_P are ALLTOALL_P's, without
// -k; REDUCE_P and REDUCE_SCATTER_P are ALL_REDUCE_P's, without -k).
var persistentColl = []collTest{
	{"osu_allgather_persistent", "Allgather Persistent Latency Test", mpi.OSUAllgather, optsAlltoall,
		"MPI_Allgather_init"},
	{"osu_allgatherv_persistent", "Allgatherv Persistent Latency Test", mpi.OSUAllgatherv, optsAlltoall,
		"MPI_Allgatherv_init"},
	{"osu_allreduce_persistent", "Allreduce Persistent Latency Test", mpi.OSUAllreduce, optsAllreduce,
		"MPI_Allreduce_init"},
	{"osu_alltoall_persistent", "All-to-All Personalized Exchange Persistent Latency Test", mpi.OSUAlltoall,
		optsAlltoall, "MPI_Alltoall_init"},
	{"osu_alltoallv_persistent", "All-to-Allv Personalized Exchange Persistent Latency Test", mpi.OSUAlltoallv,
		optsAlltoall, "MPI_Alltoallv_init"},
	{"osu_alltoallw_persistent", "All-to-Allw Personalized Exchange Persistent Latency Test", mpi.OSUAlltoallw,
		optsAlltoall, "MPI_Alltoallw_init"},
	{"osu_barrier_persistent", "Barrier Persistent Latency Test", mpi.OSUBarrier, optsBarrier, "MPI_Barrier_init"},
	{"osu_bcast_persistent", "Broadcast Persistent Latency Test", mpi.OSUBcast, optsBcast, "MPI_Bcast_init"},
	{"osu_gather_persistent", "Gather Persistent Latency Test", mpi.OSUGather, optsAlltoall, "MPI_Gather_init"},
	{"osu_gatherv_persistent", "Gatherv Persistent Latency Test", mpi.OSUGatherv, optsAlltoall,
		"MPI_Gatherv_init"},
	{"osu_reduce_persistent", "Reduce Persistent Latency Test", mpi.OSUReduce, optsAllreduce, "MPI_Reduce_init"},
	{"osu_reduce_scatter_persistent", "Reduce_scatter Persistent Latency Test", mpi.OSUReduceScatter,
		optsAllreduce, "MPI_Reduce_scatter_init"},
	{"osu_scatter_persistent", "Scatter Persistent Latency Test", mpi.OSUScatter, optsAlltoall,
		"MPI_Scatter_init"},
	{"osu_scatterv_persistent", "Scatterv Persistent Latency Test", mpi.OSUScatterv, optsAlltoall,
		"MPI_Scatterv_init"},
}

// persistentInPlace says whether a persistent test passes MPI_IN_PLACE
// with -l: osu_allgather(v)_persistent.c, osu_alltoall(v,w)_persistent.c,
// osu_reduce_scatter_persistent.c (the send buffer) and
// osu_scatter(v)_persistent.c (rank 0's receive buffer). The others take
// -l in their getopt string and never read it.
func persistentInPlace(kind mpi.OSUCollKind) bool {
	switch kind {
	case mpi.OSUAllreduce, mpi.OSUGather, mpi.OSUGatherv, mpi.OSUReduce, mpi.OSUBcast, mpi.OSUBarrier:
		return false
	}
	return true
}

// noValidationWarmup says whether the test, run with -l and -c, sets -u
// to 0 and says so before its preamble, without a newline:
// osu_alltoall(v,w)_persistent.c and osu_reduce_scatter_persistent.c
// ("# Setting number of validation warmup iterations to 0.").
func noValidationWarmup(b *Benchmark, o *Options) bool {
	if !b.Persistent || !b.Kind.Collective() || !o.InPlace || !o.Validate {
		return false
	}
	switch collKind(b) {
	case mpi.OSUAlltoall, mpi.OSUAlltoallv, mpi.OSUAlltoallw, mpi.OSUReduceScatter:
		return true
	}
	return false
}

// needMPI4 refuses a persistent collective where the MPI library has no
// MPI 4.0 persistent collectives (Open MPI 4.1: MPI 3.1, whose MPIX_
// extension OSU does not use): OSU builds these tests only against an
// MPI-4 library.
func needMPI4(b *Benchmark) error {
	if !b.Persistent || !b.Kind.Collective() || kernel.MPI4() {
		return nil
	}
	return fmt.Errorf("needs MPI-4 persistent collectives (%s), and the MPI library this binary was built "+
		"against (%s) has none: OSU 7.4 builds its persistent collective tests only against an MPI-4 library",
		b.Calls, mpi.Flavor)
}

// atLeastTwo is every collective's check ("This test requires at least
// two processes").
func atLeastTwo(n int) error {
	if n < 2 {
		return fmt.Errorf("this test requires at least two processes, have %d", n)
	}
	return nil
}

// osuTypes maps -T's names to osucoll.h's types.
var osuTypes = map[string]kernel.Type{"MPI_CHAR": kernel.Char, "MPI_INT": kernel.Int, "MPI_FLOAT": kernel.Float}

// collCounts are the per-rank counts OSU gives the v-variants (all equal
// to n, displacements p·n: osu_allgatherv.c ...) and, for reduce_scatter,
// n split as osu_reduce_scatter.c splits it: n/np each, the first n mod
// np ranks one more, and with n < np one element to each of the first n.
//
// osu_reduce_scatter_persistent.c differs where n < np: it gives one
// element to each of the first size ranks, size in bytes ("if (i <
// size)"), so with a 4-byte type the counts may add up to more than n;
// ones is that bound (n elsewhere).
func collCounts(kind mpi.OSUCollKind, n, np, ones int) (counts, displs []int32) {
	counts, displs = make([]int32, np), make([]int32, np)
	for p := range counts {
		counts[p], displs[p] = int32(n), int32(p*n)
		if kind != mpi.OSUReduceScatter {
			continue
		}
		switch {
		case n < np:
			counts[p] = int32(b2i(p < ones))
		default:
			counts[p] = int32(n/np + b2i(p < n%np))
		}
	}
	return counts, displs
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func init() {
	for _, t := range blocking {
		register(t.benchmark(Collective, false))
	}
	for _, t := range nonBlocking {
		register(t.benchmark(NonBlocking, true))
	}
	for _, t := range neighbourhood {
		register(t.benchmark(Collective, false))
	}
	for _, t := range neighbourhoodNB {
		register(t.benchmark(NonBlocking, true))
	}
	for _, t := range persistentColl {
		register(t.benchmark(Collective, false))
	}
}

// benchmark is the table entry of the test.
func (t collTest) benchmark(kind Kind, nb bool) *Benchmark {
	return &Benchmark{Name: t.name, Title: t.title, Kind: kind, Opts: t.opts, Calls: t.calls, Procs: atLeastTwo,
		Persistent: t.persistent(), Measure: func(r *Run, size int64) (Result, error) { return measureColl(r, t, nb, size) }}
}

// measureColl measures one size of the run's datatype on every rank.
func measureColl(r *Run, t collTest, nb bool, size int64) (Result, error) {
	if r.Opts.Root >= r.Size && t.kind != mpi.OSUBcast && !t.persistent() {
		// omb_get_root_rank: "Root rank('-k') cannot be more than number of processes".
		return Result{}, fmt.Errorf("-k fixed:%d: the root must be below the %d processes", r.Opts.Root, r.Size)
	}
	if bigColl(r, t, nb, size) {
		return measureCollBig(r, t, size) // big.go
	}
	bufs, err := newCollBuffers(max(r.Size, graphSpan(r.Graph)), collBytes(r, size))
	if err != nil {
		// This rank alone: the others wait in the test's first barrier.
		return Result{}, &mpi.LocalError{Err: err}
	}
	defer bufs.free()
	s := &collSetup{comm: r.World, test: t, nb: nb, opts: r.Opts, bufs: bufs, typ: osuTypes[r.TypeName], size: size,
		graph: r.Graph}
	s.iters, s.skip = r.Opts.Counts(size)
	res, nbc, err := s.measure()
	res.NBC = nbc
	return res, err
}

// collDispls are the displacements of kind's calls: collCounts's, and for
// the w kinds in bytes, each times the size of -T's type (osu_alltoallw.c,
// osu_neighbor_alltoallw.c: "disp * mpi_type_size", also with -D, where
// the count is one derived type and the displacements stay p times the
// base type's size).
func collDispls(kind mpi.OSUCollKind, displs []int32, typeSize int) {
	if kind != mpi.OSUAlltoallw && kind != mpi.OSUNeighborAlltoallw {
		return
	}
	for p := range displs {
		displs[p] *= int32(typeSize)
	}
}

// collBytes are the bytes per rank the buffers hold at size: size, or
// with -D an indexed type's reach if that is more (OSU's buffers are
// size·np; its file's blocks may end beyond the message).
func collBytes(r *Run, size int64) int64 {
	if r.Opts.DDT == nil {
		return size
	}
	return max(size, r.Opts.DDT.reach()*int64(r.TypeSize))
}

// checkMemLimit is OSU's check_mem_limit (osu_util_mpi.c): for the tests
// whose buffers grow with the processes (gathers, scatters, all-to-all,
// allgathers) a maximum size above -M / np is lowered to it, and for the
// others (bcast, reduces) one above -M to -M, with OSU's warning on rank 0.
func checkMemLimit(b *Benchmark, o *Options, np int, env *mpijob.Env) {
	if !b.Kind.Collective() || noSize(b) {
		return
	}
	limit := o.MemLimit
	switch k := collKind(b); {
	case k == mpi.OSUAllreduce || k == mpi.OSUReduce || k == mpi.OSUReduceScatter || k == mpi.OSUBcast ||
		k == mpi.OSUReduceScatterBlock:
	default:
		limit /= int64(np)
	}
	if o.MaxSize <= limit {
		return
	}
	o.MaxSize = limit
	if env.World.Rank() == 0 {
		_, _ = fmt.Fprintf(env.Stderr, "Warning! Limiting max message size to: %d. "+
			"Increase -M, --mem-limit for higher message sizes.\n", limit) // stderr: best effort
	}
}

// collKind is the osucoll.h kind of a collective benchmark.
func collKind(b *Benchmark) mpi.OSUCollKind {
	for _, t := range slices.Concat(blocking, nonBlocking, neighbourhood, neighbourhoodNB, persistentColl) {
		if t.name == b.Name {
			return t.kind
		}
	}
	return mpi.OSUBarrier
}
