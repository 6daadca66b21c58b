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
	int imb_barrier; /* collectives: IMB's barrier for nbarr and sync (imbbarrier.h) */
	/* mb_run21 only (IMB 2021.11's definition of the collectives): */
	int sync;       /* MPI_Barrier calls after every repetition, untimed */
	int root_shift; /* root i is (root0 + i*root_shift) % size */
	/* IMB 2021's -data_type and -red_data_type: count's items are of
	 * type (check.h's enum mb_type; 0: MPI_BYTE, MPI_FLOAT for the
	 * reductions). -off_cache: with s_iter > 0 repetition i sends from
	 * sbuf + (i % s_iter)·s_offs and receives at rbuf + (i % r_iter)·
	 * r_offs (IMB_pingpong.c ...; Uniband and Biband: message w of the
	 * window at slot w, IMB_bandwidth.c); s_iter = 0: always sbuf, rbuf. */
	int type;
	int s_iter, r_iter;
	long long s_offs, r_offs;
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

/* mb_run21 and mb_run21_check are mb_run and mb_run_check with IMB
 * 2021.11's definition of the collectives but Barrier: every call timed
 * alone (*t is the mean of their times), sync barriers after each, the
 * root moved by root_shift. The other kernels run as in mb_run. */
int mb_run21(const mb_kernel *k, double *t);
int mb_run21_check(const mb_kernel *k, double *t, long long *defects);

#endif
