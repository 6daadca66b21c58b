/* Timed one-sided (IMB-EXT) kernels of mpibench.
 *
 * As in kernels.h, every timed region (N_BARR barriers, MPI_Wtime, the
 * transfers and their completion by MPI_Win_fence, MPI_Wtime) is one C
 * call, so no Go code runs inside it.
 */
#ifndef MPIBENCH_RMA_H
#define MPIBENCH_RMA_H

#include <mpi.h>

enum mb_rma_op {
	MB_RMA_PUT = 0, /* MPI_Put, MPI_BYTE */
	MB_RMA_GET,     /* MPI_Get, MPI_BYTE */
	MB_RMA_ACC      /* MPI_Accumulate, MPI_FLOAT, MPI_SUM */
};

/* One execution of a transfer benchmark on an open window. Transfer i
 * (0 <= i < nrep) moves count items between origin offset i*stride and
 * target displacement i*stride (both in items); stride is count in
 * aggregate mode (disjoint sections) and 0 otherwise. */
typedef struct {
	MPI_Win win;
	MPI_Comm comm;
	int op;         /* enum mb_rma_op */
	void *obuf;     /* origin buffer: the data put / accumulated, or where gets land */
	int count;      /* items per transfer: bytes, floats for MB_RMA_ACC */
	int stride;     /* items from one transfer to the next */
	int target;     /* target rank; -1: this rank only takes part in the fences */
	int nrep;       /* transfers inside the timed region */
	int aggregate;  /* 1: nrep transfers, then one fence; 0: a fence after each */
	int open_fence; /* 1: MPI_Win_fence before the barriers */
	int nbarr;      /* barriers on comm before the timer starts */
	int imb2021;    /* 1: IMB-EXT 2021.11's definition: Accumulate's fences
			 * (acc2021 in rma.c); with stride 0 an aggregate check
			 * verifies the last transfer, the one the data stays of */
	/* The window and the check run's roles; the timed run reads wcount
	 * only in the test-only rma-offset mutant. */
	void *wbuf;     /* this rank's window memory */
	MPI_Aint wcount;/* items in every rank's window */
	int rank;       /* this rank's pattern */
	int src;        /* Put/Get: whose data arrives at this rank (window, origin), -1 none */
	int nacc;       /* Accumulate: ranks summing into this rank's window, 0 if not the root */
	/* IMB 2021's -off_cache (imb2021 only): with s_iter > 0 transfer i
	 * uses send slot i % s_iter (s_offs bytes each) and receive slot
	 * i % r_iter (r_offs bytes each), stride 0: rma.c, o_at and w_at.
	 * s_iter = 0: off. */
	int s_iter, r_iter;
	long long s_offs, r_offs;
} mb_rma;

/* mb_rma_run executes the pattern and stores the time per transfer in *t.
 * It returns MPI_SUCCESS or the first MPI error code met. */
int mb_rma_run(const mb_rma *k, double *t);

/* mb_rma_check runs the same loop with results checking (its time is no
 * benchmark data): before repetition i the origin data of the Put and
 * Accumulate ranks and the window of Get targets hold repetition i's
 * content (check.h), the landing zone of a Put or Get is poisoned and the
 * root's Accumulate window zeroed, and a fence makes them public; after
 * the fence that completes repetition i (all sections after the one fence
 * in aggregate mode) it counts in *defects the bytes (floats for
 * Accumulate) that differ from what rank src sent or, at the root, from
 * the sum over the nacc ranks. */
int mb_rma_check(const mb_rma *k, double *t, long long *defects);

/* The Window benchmark: nrep times MPI_Win_create over size bytes of base,
 * MPI_Win_fence, a one-byte MPI_Put from src into the own window (when size
 * > 0), MPI_Win_fence, MPI_Win_free. */
typedef struct {
	MPI_Comm comm;
	void *base;
	void *src;
	MPI_Aint size;
	int nrep;
	int nbarr;
} mb_window;

int mb_window_run(const mb_window *k, double *t);

#endif
