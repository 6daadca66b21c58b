/* Timed kernels of mpibench.
 *
 * Each kernel runs its N_BARR barriers, reads MPI_Wtime, executes the pattern
 * nrep times and reads MPI_Wtime again: the loop and the timer live in C so
 * that no Go call, allocation or branch on Go state sits inside a timed
 * region. Variants are separate loops chosen before timing starts.
 */
#ifndef MPIBENCH_KERNELS_H
#define MPIBENCH_KERNELS_H

#include <mpi.h>

enum mb_kind {
	MB_PINGPONG = 0,
	MB_PINGPING,
	MB_SENDRECV,
	MB_EXCHANGE,
	MB_BCAST,
	MB_ALLGATHER,
	MB_ALLGATHERV,
	MB_ALLTOALL,
	MB_ALLTOALLV,
	MB_REDUCE,
	MB_REDUCE_SCATTER,
	MB_ALLREDUCE,
	MB_BARRIER,
	MB_NKINDS
};

typedef struct {
	MPI_Comm comm;
	int kind;
	void *sbuf;   /* send buffer (root's buffer for Bcast) */
	void *rbuf;   /* receive buffer */
	int count;    /* items per process: bytes, or floats for reductions */
	int *counts;  /* per-rank counts: v-variants and Reduce_scatter */
	int *displs;  /* per-rank displacements: v-variants */
	int nrep;     /* repetitions inside the timed region */
	int root0;    /* root of the first repetition; root i is (root0+i) % size */
	int nbarr;    /* barriers on comm before the timer starts */
} mb_kernel;

/* mb_run executes the kernel and stores (t_end - t_start) / nrep in *t.
 * It returns MPI_SUCCESS or the first MPI error code met. */
int mb_run(const mb_kernel *k, double *t);

/* mb_run_check runs the same loop in check mode (kernels.c): each
 * repetition sends this rank's content of that repetition (pattern.h) into
 * poisoned receive buffers, and *defects counts the items (bytes, or
 * floats for reductions) this rank received wrong over all repetitions.
 * Its time is not benchmark data. */
int mb_run_check(const mb_kernel *k, double *t, long long *defects);

#endif
