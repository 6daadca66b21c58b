/* Timed loops of the OSU Micro-Benchmarks 7.4 collective latency tests
 * (c/mpi/collective/blocking/osu_*.c and non_blocking/osu_i*.c).
 *
 * Every repetition is timed on its own, as OSU does: t_start = MPI_Wtime(),
 * the call (and MPI_Wait for the non-blocking ones), t_stop = MPI_Wtime(),
 * then an MPI_Barrier outside the time. Exceptions, as in OSU: osu_reduce
 * has its barrier before the call instead of after it (osu_reduce.c);
 * osu_barrier and the pure pass of osu_ibarrier have none. The first skip
 * repetitions are warm-up and not summed.
 *
 * The overlap pass of the non-blocking tests (osu_iallreduce.c and
 * friends, second loop) times, per repetition, the call (Coll. Init), OSU's
 * dummy compute of the rank's own pure latency (a 25x25 float kernel
 * repeated until MPI_Wtime says the time is spent, with `probes` MPI_Test
 * calls timed in between when -t asks; osu_util_mpi.c do_compute_and_probe)
 * and MPI_Wait; the whole is Overall. */
#ifndef MB_OSUCOLL_H
#define MB_OSUCOLL_H
#include <mpi.h>

enum mb_osu_kind {
	MB_OSU_ALLGATHER = 0,
	MB_OSU_ALLGATHERV,
	MB_OSU_ALLREDUCE,
	MB_OSU_ALLTOALL,
	MB_OSU_ALLTOALLV,
	MB_OSU_BARRIER,
	MB_OSU_BCAST,
	MB_OSU_GATHER,
	MB_OSU_GATHERV,
	MB_OSU_REDUCE,
	MB_OSU_REDUCE_SCATTER,
	MB_OSU_SCATTER,
	MB_OSU_SCATTERV,
	MB_OSU_REDUCE_SCATTER_BLOCK, /* count: elements each rank receives */
	MB_OSU_ALLTOALLW,            /* displs in bytes, one type per rank (osu_alltoallw.c) */
	MB_OSU_NBR_ALLGATHER,        /* the neighbourhood collectives on k->nbr */
	MB_OSU_NBR_ALLGATHERV,
	MB_OSU_NBR_ALLTOALL,
	MB_OSU_NBR_ALLTOALLV,
	MB_OSU_NBR_ALLTOALLW, /* displs in bytes, as MPI_Aint */
	MB_OSU_NKINDS
};

/* The element types of OSU's -T. */
enum mb_osu_type { MB_OSU_CHAR = 0, MB_OSU_INT, MB_OSU_FLOAT };

typedef struct {
	MPI_Comm comm;
	int kind;
	int nb;          /* the non-blocking call (MPI_Iallreduce ...) and MPI_Wait */
	int type;        /* mb_osu_type */
	void *sbuf;      /* send buffer: nprocs·count elements */
	void *rbuf;      /* receive buffer: nprocs·count elements */
	int count;       /* elements per process (reduce_scatter: in all) */
	int *counts;     /* v-variants and reduce_scatter: per-rank counts */
	int *displs;     /* v-variants: per-rank displacements */
	int skip, iters; /* warm-up and timed repetitions */
	int inplace;     /* -l: MPI_IN_PLACE as OSU passes it */
	int root;        /* rooted tests: the root; -1: rotate (i mod nprocs) */
	double compute;  /* overlap pass: seconds of dummy compute; < 0: pure pass */
	int probes;      /* overlap pass: MPI_Test calls (-t) */
	int vwarm;       /* check mode: untimed calls before each repetition (-u) */
	double *lat;     /* NULL or iters per-repetition times (seconds) */
	int derived;     /* -D: the calls' type is ddt, not type's (no check mode) */
	MPI_Datatype ddt;
	/* The neighbourhood kinds: the distributed graph the calls use (the
	 * barriers stay on comm), this rank's in- and out-degree, its sources
	 * in the graph's order and, per source l, the index of this rank among
	 * that source's destinations (which of its blocks it sends here), both
	 * from the topology's definition for the check. */
	MPI_Comm nbr;
	int indeg, outdeg;
	const int *srcs, *srcblk;
	/* Set by mb_osucoll_run: the types (all the call's type) and MPI_Aint
	 * displacements of the w kinds. */
	MPI_Datatype *types;
	MPI_Aint *adispls;
	int *wdispls;
	/* The _persistent tests (c/mpi/collective/persistent): the request is
	 * made once per pass (MPI_..._init with MPI_INFO_NULL), prebar
	 * MPI_Barrier calls follow it, every repetition (and -u's warm-up)
	 * is MPI_Start and MPI_Wait, and MPI_Request_free ends the pass. */
	int persistent, prebar;
	void *scratch; /* set by mb_osucoll_run: the osu-pcoll-buf mutant's receive buffer */
} mb_osucoll;

/* Sums over the timed repetitions, in seconds (this rank). */
typedef struct {
	double total;   /* t_stop - t_start */
	double init;    /* overlap pass: the non-blocking call */
	double compute; /* overlap pass: the dummy compute with its MPI_Test calls */
	double test;    /* overlap pass: the MPI_Test calls */
	double wait;    /* overlap pass: MPI_Wait */
	long long bad;  /* check mode: elements received wrong (all repetitions) */
} mb_osucoll_times;

/* mb_osucoll_run runs skip + iters repetitions of k. With chk = 1 every
 * repetition (warm-up included) first makes vwarm untimed calls, each
 * after a barrier (OSU's -u validation warm-up), then carries this rank's
 * content of that repetition (pattern.h) into poisoned receive buffers,
 * and a barrier comes before the timed call (OSU's -c has one too);
 * out->bad counts the wrong items. It returns MPI_SUCCESS or the first MPI error code. */
int mb_osucoll_run(const mb_osucoll *k, int chk, mb_osucoll_times *out);

/* mb_osu_nbr_create is omb_neighborhood_create's end (osu_util_mpi.c):
 * MPI_Dist_graph_create_adjacent of comm with this rank's sources and
 * destinations, weights 1, no info, no reordering, timed into *seconds
 * (OSU's t_gca). The osu-nbr-reverse mutant lists both in reverse. */
int mb_osu_nbr_create(MPI_Comm comm, int indeg, const int *srcs, int outdeg, const int *dsts, MPI_Comm *graph,
		      double *seconds);

/* mb_osu_cart is the cart branch's set-up (omb_neighborhood_create):
 * MPI_Dims_create of comm's size in d dimensions into dims, a periodic
 * MPI_Cart_create without reordering, an MPI_Barrier of comm and the
 * cartesian communicator freed. */
int mb_osu_cart(MPI_Comm comm, int d, int *dims);

/* mb_osu_mpi4 says whether the MPI library this was compiled against
 * has MPI 4.0's persistent collectives (MPI_VERSION >= 4, as OSU's
 * configure requires MPI-4 to build c/mpi/collective/persistent). */
int mb_osu_mpi4(void);

/* mb_osu_compute runs OSU's dummy compute for the given seconds (tests). */
void mb_osu_compute(double seconds);
#endif
