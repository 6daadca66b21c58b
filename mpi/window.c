//go:build cgo && !nompi

#include <time.h>
#include "chk.h"
#include "kernels2021.h"
#include "mutant.h"
#include "window.h"

/* SPIN is how long before its start a rank stops sleeping and spins on
 * MPI_Wtime: a rank one core to itself starts from a warm spin, and the
 * ranks of an oversubscribed node leave the cores to each other for the
 * rest of the window (spinning all along, half of them were descheduled
 * at the start, and the window time was the scheduler's). */
#define SPIN 1e-3

/* doze sleeps about s seconds and returns the clock (MB_WTIME). */
static double doze(double s)
{
	struct timespec d;
	d.tv_sec = (time_t)s;
	d.tv_nsec = (long)((s - (double)d.tv_sec) * 1e9);
	nanosleep(&d, NULL);
	return MB_WTIME();
}

/* WINDOW is the loop every suite shares, with CALL(i) one repetition's
 * collective: the wait until the start time, the call, the end time. The
 * lag is the rank's first clock reading at or after its start time minus
 * that time: large when it reached the wait late or was descheduled in
 * it. A late rank calls at once (the collective must still match on every
 * rank); Go excludes the repetition. Nothing but the clock reads, the compare and
 * the stores sits between two calls. The skew mutant (tests only) delays
 * one rank before its wait. */
#define WINDOW(w, comm, CALL)                                              \
	do {                                                               \
		int i_;                                                    \
		double now_, t_;                                           \
		CHK(MUTANT_MPI_ERROR(comm));                               \
		for (i_ = 0; i_ < (w)->nrep; i_++) {                       \
			MUTANT_SKEW(comm);                                 \
			t_ = (w)->target[i_];                              \
			now_ = MB_WTIME();                                 \
			if (t_ - now_ > SPIN)                              \
				now_ = doze(t_ - SPIN - now_);             \
			while (now_ < t_)                                  \
				now_ = MB_WTIME();                         \
			(w)->lag[i_] = now_ - t_;                          \
			CHK(CALL(i_));                                     \
			(w)->end[i_] = MB_WTIME();                         \
		}                                                          \
	} while (0)

/* mpi1_call is one repetition of an IMB-MPI1 collective, with the calls,
 * types and operations of kernels.c and kernels2021.c (reductions:
 * MPI_FLOAT with MPI_SUM; root0 moved by root_step each repetition). */
static inline __attribute__((always_inline)) int mpi1_call(const mb_kernel *k, int root, int rank)
{
	void *s = k->sbuf, *r = k->rbuf;
	int c = k->count;
	MPI_Comm m = k->comm;
	switch (k->kind) {
	case MB_BCAST: return MPI_Bcast(rank == root ? s : r, c, MPI_BYTE, root, m);
	case MB_ALLGATHER: return MPI_Allgather(s, c, MPI_BYTE, r, c, MPI_BYTE, m);
	case MB_ALLGATHERV: return MPI_Allgatherv(s, c, MPI_BYTE, r, k->counts, k->displs, MPI_BYTE, m);
	case MB_ALLTOALL: return MPI_Alltoall(s, c, MPI_BYTE, r, c, MPI_BYTE, m);
	case MB_ALLTOALLV:
		return MPI_Alltoallv(s, k->counts, k->displs, MPI_BYTE, r, k->counts, k->displs, MPI_BYTE, m);
	case MB_REDUCE: return MPI_Reduce(s, r, c, MPI_FLOAT, MPI_SUM, root, m);
	case MB_REDUCE_SCATTER: return MPI_Reduce_scatter(s, r, k->counts, MPI_FLOAT, MPI_SUM, m);
	case MB_ALLREDUCE: return MPI_Allreduce(s, r, c, MPI_FLOAT, MPI_SUM, m);
	case MB_BARRIER: return MPI_Barrier(m);
	case MB21_GATHER: return MPI_Gather(s, c, MPI_BYTE, r, c, MPI_BYTE, root, m);
	case MB21_GATHERV: return MPI_Gatherv(s, c, MPI_BYTE, r, k->counts, k->displs, MPI_BYTE, root, m);
	case MB21_SCATTER: return MPI_Scatter(s, c, MPI_BYTE, r, c, MPI_BYTE, root, m);
	case MB21_SCATTERV: return MPI_Scatterv(s, k->counts, k->displs, MPI_BYTE, r, c, MPI_BYTE, root, m);
	case MB21_REDUCE_SCATTER_BLOCK: return MPI_Reduce_scatter_block(s, r, c, MPI_FLOAT, MPI_SUM, m);
	}
	return MPI_ERR_ARG;
}

int mb_win_mpi1(const mb_kernel *k, const mb_win *w)
{
	int rank, size;
	CHK(MPI_Comm_rank(k->comm, &rank));
	CHK(MPI_Comm_size(k->comm, &size));
#define MPI1_CALL(i) mpi1_call(k, (int)(((long long)k->root0 + (long long)(i) * w->root_step) % size), rank)
	WINDOW(w, k->comm, MPI1_CALL);
#undef MPI1_CALL
	return MPI_SUCCESS;
}

/* nbc_call is one repetition of an IMB-NBC pure loop: the call and its
 * MPI_Wait (nbc.c's start, root 0). */
static inline __attribute__((always_inline)) int nbc_call(const mb_nbc *k, int rank)
{
	MPI_Request req;
	CHK(mb_nbc_start(k, rank, &req));
	return MPI_Wait(&req, MPI_STATUS_IGNORE);
}

int mb_win_nbc(const mb_nbc *k, const mb_win *w)
{
	int rank;
	CHK(MPI_Comm_rank(k->comm, &rank));
#define NBC_CALL(i) nbc_call(k, rank)
	WINDOW(w, k->comm, NBC_CALL);
#undef NBC_CALL
	return MPI_SUCCESS;
}

int mb_win_skampi(const mb_sk *k, const mb_win *w)
{
#define SK_CALL(i) mb_sk_coll(k)
	WINDOW(w, k->comm, SK_CALL);
#undef SK_CALL
	return MPI_SUCCESS;
}
