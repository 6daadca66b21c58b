//go:build cgo && !nompi

#include "chk.h"
#include "kernels2021.h"
#include "mutant.h"
#include "window.h"
#include "winloops.h"

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
