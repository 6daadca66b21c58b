/* IMB-RMA (Intel MPI Benchmarks 2021.11) passive-target put/get kernels.
 *
 * One C call creates the window of a sample, runs IMB's untimed warm-up
 * and the timed loop on it, and frees it, so no Go code runs inside the
 * timed region (N_BARR barriers, lock, MPI_Wtime, the transfers and their
 * flushes, MPI_Wtime, unlock, barrier).
 */
#ifndef MPIBENCH_RMA3_H
#define MPIBENCH_RMA3_H

#include <mpi.h>

/* Who issues transfers to whom (IMB_rma_put.c, IMB_rma_get.c). */
enum mb_rma3_flow {
	MB_RMA3_PAIR = 0, /* rank 0 to rank 1 (and 1 to 0 when bidir): MPI_Win_lock on the one target */
	MB_RMA3_ONE_ALL,  /* rank 0 to every other rank: MPI_Win_lock_all */
	MB_RMA3_ALL_ALL,  /* every rank to every other rank: MPI_Win_lock_all */
	MB_RMA3_EXCH,     /* every rank with its left and right neighbour: two halves of 2*count items */
	MB_RMA3_TRULY     /* Truly_passive_put: rank 0 puts to rank 1, which waits, then computes */
};

/* The elementary transfer. */
enum mb_rma3_op {
	MB_RMA3_PUT = 0, /* MPI_Put, MPI_BYTE */
	MB_RMA3_GET,     /* MPI_Get, MPI_BYTE */
	MB_RMA3_ACC,     /* MPI_Accumulate, MPI_FLOAT, MPI_SUM */
	MB_RMA3_GACC,    /* MPI_Get_accumulate, MPI_FLOAT, MPI_SUM: the old values land in wbuf */
	MB_RMA3_FOP,     /* MPI_Fetch_and_op, one MPI_FLOAT, MPI_SUM: the old value lands in wbuf */
	MB_RMA3_CAS      /* MPI_Compare_and_swap, one MPI_INT, compared with 0: the old value lands in wbuf */
};

typedef struct {
	MPI_Comm comm;
	int flow;      /* enum mb_rma3_flow */
	int op;        /* enum mb_rma3_op */
	int bidir;     /* MB_RMA3_PAIR: rank 1 transfers too */
	int local;     /* complete with MPI_Win_flush_local(_all) instead of MPI_Win_flush(_all) */
	int aggregate; /* MB_RMA3_PAIR: 1 one flush after the loop, 0 a flush after every transfer */
	void *obuf;    /* origin buffer: the data put, or where gets land */
	void *wbuf;    /* this rank's window memory */
	MPI_Aint wsize;/* bytes of every rank's window */
	int count;     /* items per transfer: bytes, 4-byte items from MB_RMA3_ACC on (1 for _FOP, _CAS) */
	int nrep;      /* timed transfers (per target) */
	int nwarm;     /* untimed warm-up transfers before, in non-aggregate mode */
	int nbarr;     /* barriers before the timer starts */
	double cpu_rate; /* MB_RMA3_TRULY: passes of mb_nbc_cpu per second */
	/* IMB 2021's -off_cache: with s_iter > 0 repetition i uses send slot
	 * i % s_iter (s_offs bytes each) and receive slot i % r_iter (r_offs
	 * bytes each) as IMB_rma_put.c, IMB_rma_get.c and IMB_rma_atomic.c
	 * place them (rma3.c, o_at, w_at, r_at); s_iter = 0: off. */
	int s_iter, r_iter;
	long long s_offs, r_offs;
} mb_rma3;

/* mb_rma3_run creates the window (MPI_Win_create over wbuf, MPI_ERRORS_RETURN),
 * runs the warm-up and the timed loop, frees the window and stores in *t
 * this rank's time per repetition, -1 when it issued no transfer. With
 * chk (results checking, times not benchmark data) repetition i moves its
 * own slot, (i*p + rank)*count items in (Exchange: two, ((i*p + rank)*2 + half)*count): put (accumulate) data from origin
 * o lands in the target's window slot (i*p + o), get data from target t
 * in the origin's slot (i*p + t); every slot is filled with the pattern
 * of its sender and repetition, or poisoned (zeroed where Accumulate sums)
 * before, and after completion the receiving side counts in *defects the
 * items that differ (Get_accumulate, Fetch_and_op, Compare_and_swap: also
 * the old values, zeros, in the origin's window slot; Exchange: its halves as IMB_rma_exchange_put/_get
 * address them, with the pattern at offset half*count; Compare_and_swap
 * moves the origin's float pattern as MPI_INT bits). Both buffers must then hold nrep*p*count items (twice that for Exchange, and for
 * Truly_passive_put, whose second loop moves repetitions nrep..2*nrep-1).
 * Under -off_cache a checked run keeps the slots of the timed run inside
 * pages: repetition i of owner o in page (i / m)*p + o, m = min(s_iter,
 * r_iter), each page max(s_iter*s_offs, r_iter*r_offs) bytes rounded up
 * to 4 (mb_rma3_span says how many bytes both buffers need).
 * Truly_passive_put stores t_pure in *tpure and t_ovrl in *t. */
int mb_rma3_run(const mb_rma3 *k, int chk, double *t, double *tpure, long long *defects);

/* mb_rma3_span is the bytes a checked run of k moves through each buffer
 * on p processes. */
long long mb_rma3_span(const mb_rma3 *k, int p);

#endif
