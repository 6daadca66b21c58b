#include "kernels.h"
#include "chk.h"

#define TAG 1000

/* PingPong: rank 0 sends and waits for the echo; time is the full round
 * trip, halved by the caller (IMB 3.3.2.1). */
static int pingpong(const mb_kernel *k, int rank)
{
	/* Locals, not k->...: MPI calls could alias *k as far as the compiler
	 * knows, so fields would be reloaded on every repetition. */
	int i, n = k->nrep, count = k->count;
	void *s = k->sbuf, *r = k->rbuf;
	MPI_Comm comm = k->comm;
	MPI_Status st;
	if (rank == 0) {
		for (i = 0; i < n; i++) {
			CHK(MPI_Send(s, count, MPI_BYTE, 1, TAG, comm));
			CHK(MPI_Recv(r, count, MPI_BYTE, 1, TAG, comm, &st));
		}
	} else if (rank == 1) {
		for (i = 0; i < n; i++) {
			CHK(MPI_Recv(r, count, MPI_BYTE, 0, TAG, comm, &st));
			CHK(MPI_Send(s, count, MPI_BYTE, 0, TAG, comm));
		}
	}
	return MPI_SUCCESS;
}

/* PingPing: both ranks post MPI_Isend at once, receive the oncoming
 * message, then wait for their own send (IMB 3.3.2.2). */
static int pingping(const mb_kernel *k, int rank)
{
	int i, other = 1 - rank;
	MPI_Request req;
	MPI_Status st;
	if (rank > 1)
		return MPI_SUCCESS;
	for (i = 0; i < k->nrep; i++) {
		CHK(MPI_Isend(k->sbuf, k->count, MPI_BYTE, other, TAG, k->comm, &req));
		CHK(MPI_Recv(k->rbuf, k->count, MPI_BYTE, other, TAG, k->comm, &st));
		CHK(MPI_Wait(&req, &st));
	}
	return MPI_SUCCESS;
}

/* Sendrecv: periodic chain, send right, receive from left (IMB 3.3.3.1). */
static int sendrecv(const mb_kernel *k, int rank, int size)
{
	int i, right = (rank + 1) % size, left = (rank + size - 1) % size;
	MPI_Status st;
	for (i = 0; i < k->nrep; i++)
		CHK(MPI_Sendrecv(k->sbuf, k->count, MPI_BYTE, right, TAG,
				 k->rbuf, k->count, MPI_BYTE, left, TAG, k->comm, &st));
	return MPI_SUCCESS;
}

/* Exchange: Isend to both neighbours, Recv from both, Waitall
 * (IMB 3.3.3.2). The first half of sbuf goes right, the second left; the
 * first half of rbuf comes from the left, the second from the right. */
static int exchange(const mb_kernel *k, int rank, int size)
{
	int i, right = (rank + 1) % size, left = (rank + size - 1) % size;
	char *s = (char *)k->sbuf, *r = (char *)k->rbuf;
	MPI_Request req[2];
	MPI_Status st[2];
	for (i = 0; i < k->nrep; i++) {
		CHK(MPI_Isend(s, k->count, MPI_BYTE, right, TAG, k->comm, &req[0]));
		CHK(MPI_Isend(s + k->count, k->count, MPI_BYTE, left, TAG, k->comm, &req[1]));
		CHK(MPI_Recv(r, k->count, MPI_BYTE, left, TAG, k->comm, &st[0]));
		CHK(MPI_Recv(r + k->count, k->count, MPI_BYTE, right, TAG, k->comm, &st[0]));
		CHK(MPI_Waitall(2, req, st));
	}
	return MPI_SUCCESS;
}

/* Bcast: the root changes cyclically; the root sends from sbuf, the others
 * receive into rbuf, so every received buffer has a well defined content. */
static int bcast(const mb_kernel *k, int rank, int size)
{
	int i, root = k->root0 % size;
	for (i = 0; i < k->nrep; i++) {
		CHK(MPI_Bcast(rank == root ? k->sbuf : k->rbuf, k->count, MPI_BYTE, root, k->comm));
		if (++root == size)
			root = 0;
	}
	return MPI_SUCCESS;
}

static int allgather(const mb_kernel *k)
{
	int i;
	for (i = 0; i < k->nrep; i++)
		CHK(MPI_Allgather(k->sbuf, k->count, MPI_BYTE, k->rbuf, k->count, MPI_BYTE, k->comm));
	return MPI_SUCCESS;
}

static int allgatherv(const mb_kernel *k)
{
	int i;
	for (i = 0; i < k->nrep; i++)
		CHK(MPI_Allgatherv(k->sbuf, k->count, MPI_BYTE, k->rbuf, k->counts, k->displs,
				   MPI_BYTE, k->comm));
	return MPI_SUCCESS;
}

static int alltoall(const mb_kernel *k)
{
	int i;
	for (i = 0; i < k->nrep; i++)
		CHK(MPI_Alltoall(k->sbuf, k->count, MPI_BYTE, k->rbuf, k->count, MPI_BYTE, k->comm));
	return MPI_SUCCESS;
}

static int alltoallv(const mb_kernel *k)
{
	int i;
	for (i = 0; i < k->nrep; i++)
		CHK(MPI_Alltoallv(k->sbuf, k->counts, k->displs, MPI_BYTE, k->rbuf, k->counts,
				  k->displs, MPI_BYTE, k->comm));
	return MPI_SUCCESS;
}

/* Reduce: MPI_FLOAT, MPI_SUM, root changing cyclically (IMB 3.3.4.1). */
static int reduce(const mb_kernel *k, int size)
{
	int i, root = k->root0 % size;
	for (i = 0; i < k->nrep; i++) {
		CHK(MPI_Reduce(k->sbuf, k->rbuf, k->count, MPI_FLOAT, MPI_SUM, root, k->comm));
		if (++root == size)
			root = 0;
	}
	return MPI_SUCCESS;
}

static int reduce_scatter(const mb_kernel *k)
{
	int i;
	for (i = 0; i < k->nrep; i++)
		CHK(MPI_Reduce_scatter(k->sbuf, k->rbuf, k->counts, MPI_FLOAT, MPI_SUM, k->comm));
	return MPI_SUCCESS;
}

static int allreduce(const mb_kernel *k)
{
	int i;
	for (i = 0; i < k->nrep; i++)
		CHK(MPI_Allreduce(k->sbuf, k->rbuf, k->count, MPI_FLOAT, MPI_SUM, k->comm));
	return MPI_SUCCESS;
}

static int barrier(const mb_kernel *k)
{
	int i;
	for (i = 0; i < k->nrep; i++)
		CHK(MPI_Barrier(k->comm));
	return MPI_SUCCESS;
}

static int dispatch(const mb_kernel *k, int rank, int size)
{
	switch (k->kind) {
	case MB_PINGPONG: return pingpong(k, rank);
	case MB_PINGPING: return pingping(k, rank);
	case MB_SENDRECV: return sendrecv(k, rank, size);
	case MB_EXCHANGE: return exchange(k, rank, size);
	case MB_BCAST: return bcast(k, rank, size);
	case MB_ALLGATHER: return allgather(k);
	case MB_ALLGATHERV: return allgatherv(k);
	case MB_ALLTOALL: return alltoall(k);
	case MB_ALLTOALLV: return alltoallv(k);
	case MB_REDUCE: return reduce(k, size);
	case MB_REDUCE_SCATTER: return reduce_scatter(k);
	case MB_ALLREDUCE: return allreduce(k);
	case MB_BARRIER: return barrier(k);
	}
	return MPI_ERR_ARG;
}

int mb_run(const mb_kernel *k, double *t)
{
	int i, rank, size, rc;
	double t0;
	CHK(MPI_Comm_rank(k->comm, &rank));
	CHK(MPI_Comm_size(k->comm, &size));
	for (i = 0; i < k->nbarr; i++)
		CHK(MPI_Barrier(k->comm));
	t0 = MPI_Wtime();
	rc = dispatch(k, rank, size);
	*t = (MPI_Wtime() - t0) / (k->nrep > 0 ? k->nrep : 1);
	return rc;
}
