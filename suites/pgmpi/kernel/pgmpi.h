/* PGMPI calls of mpibench: the MPI collectives of the performance
 * guidelines and their mock-ups (appendix A of the PGMPI paper), each one
 * execution over prepared buffers, timed per repetition in C. */
#ifndef MPIBENCH_PGMPI_H
#define MPIBENCH_PGMPI_H

#include <mpi.h>

/* The calls, numbered as kernel.Call (call.go) and the table of
 * suites/pgmpi/calls.go. */
enum {
	MB_PG_ALLGATHER = 0,
	MB_PG_ALLREDUCE,
	MB_PG_ALLTOALL,
	MB_PG_BCAST,
	MB_PG_GATHER,
	MB_PG_REDUCE,
	MB_PG_REDUCE_SCATTER,
	MB_PG_REDUCE_SCATTER_BLOCK,
	MB_PG_SCAN,
	MB_PG_SCATTER,
	MB_PG_GATHER_AS_ALLGATHER,                 /* GL3 */
	MB_PG_GATHER_AS_REDUCE,                    /* GL4 */
	MB_PG_ALLGATHER_AS_ALLTOALL,               /* GL5 */
	MB_PG_ALLGATHER_AS_ALLREDUCE,              /* GL6 */
	MB_PG_SCATTER_AS_BCAST,                    /* GL7 */
	MB_PG_REDUCE_AS_ALLREDUCE,                 /* GL8 */
	MB_PG_REDUCE_SCATTER_AS_ALLREDUCE,         /* GL9 */
	MB_PG_BCAST_AS_SCATTER_ALLGATHER,          /* GL10 */
	MB_PG_ALLGATHER_AS_GATHER_BCAST,           /* GL11 */
	MB_PG_ALLREDUCE_AS_REDUCE_BCAST,           /* GL12 */
	MB_PG_ALLREDUCE_AS_RSB_ALLGATHER,          /* GL13 */
	MB_PG_REDUCE_AS_RSB_GATHER,                /* GL14 */
	MB_PG_RSB_AS_REDUCE_SCATTER,               /* GL15 */
	MB_PG_SCAN_AS_EXSCAN_REDUCE_LOCAL,         /* GL16 */
	MB_PG_REDUCE_SCATTER_AS_REDUCE_SCATTERV,   /* GL17 */
	MB_PG_NCALLS
};

/* One call on one communicator at one volume. Every buffer holds count
 * C ints (MPI_INT; reductions use MPI_SUM); count is n/sizeof(int) and a
 * multiple of size, block = count/size. Root is rank 0. */
typedef struct {
	MPI_Comm comm;
	int call;
	int rank, size;
	int count, block;
	int *sbuf;   /* input: the whole vector, or the block at its start */
	int *rbuf;   /* output */
	int *tmp;    /* intermediate result of a mock-up */
	int *pad;    /* GL4, GL6: zeros but for this rank's block */
	int *counts; /* size entries, all block: MPI_Reduce_scatter, Scatterv */
	int *displs; /* size entries, i*block: MPI_Scatterv */
} mb_pg;

/* mb_pg_call: one execution of the call, untimed (warm-up, verification). */
int mb_pg_call(const mb_pg *k);

/* mb_pg_run: nrep repetitions, each after an MPI_Barrier and timed alone
 * by a pair of MPI_Wtime calls on every rank; then an MPI_Reduce with
 * MPI_MAX of the nrep local times gives rank 0 in t[i] the slowest rank's
 * time of repetition i, in seconds. local holds nrep doubles of scratch. */
int mb_pg_run(const mb_pg *k, int nrep, double *local, double *t);

#endif
