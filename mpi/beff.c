#include "beff.h"
#include "chk.h"

/* Sendrecv: the steps one after the other (the paper: with more than two
 * processes in a ring the two messages go one after the other). */
static int sendrecv(const mb_beff *b, const int *to, const int *from, int n)
{
	int i, s;
	for (i = 0; i < n; i++)
		for (s = 0; s < b->nsteps; s++)
			CHK(MPI_Sendrecv(b->sbuf + s * b->slot, b->len, MPI_BYTE, to[s], s,
					 b->rbuf + s * b->slot, b->len, MPI_BYTE, from[s], s,
					 b->comm, MPI_STATUS_IGNORE));
	return MPI_SUCCESS;
}

/* Alltoallv: one call carries every step; counts are zero except for the
 * neighbours (prepared before timing). */
static int alltoallv(const mb_beff *b, int n)
{
	int i;
	for (i = 0; i < n; i++)
		CHK(MPI_Alltoallv(b->sbuf, b->scounts, b->sdispls, MPI_BYTE,
				  b->rbuf, b->rcounts, b->rdispls, MPI_BYTE, b->comm));
	return MPI_SUCCESS;
}

/* Nonblocking: MPI_Irecv for every step, MPI_Isend for every step, one
 * MPI_Waitall. */
static int nonblocking(const mb_beff *b, const int *to, const int *from, int n)
{
	MPI_Request rq[2 * MB_BEFF_MAXSTEPS];
	MPI_Status st[2 * MB_BEFF_MAXSTEPS]; /* not MPI_STATUSES_IGNORE: MPICH's headers make gcc warn */
	int i, s, ns = b->nsteps;
	for (i = 0; i < n; i++) {
		for (s = 0; s < ns; s++)
			CHK(MPI_Irecv(b->rbuf + s * b->slot, b->len, MPI_BYTE, from[s], s, b->comm, &rq[s]));
		for (s = 0; s < ns; s++)
			CHK(MPI_Isend(b->sbuf + s * b->slot, b->len, MPI_BYTE, to[s], s, b->comm, &rq[ns + s]));
		CHK(MPI_Waitall(2 * ns, rq, st));
	}
	return MPI_SUCCESS;
}

static int loop(const mb_beff *b, const int *to, const int *from, int n)
{
	switch (b->method) {
	case MB_BEFF_SENDRECV:
		return sendrecv(b, to, from, n);
	case MB_BEFF_ALLTOALLV:
		return alltoallv(b, n);
	default:
		return nonblocking(b, to, from, n);
	}
}

int mb_beff_run(const mb_beff *b, double *t)
{
	int to[MB_BEFF_MAXSTEPS], from[MB_BEFF_MAXSTEPS], s;
	double t0;
	if (b->nsteps > MB_BEFF_MAXSTEPS)
		return MPI_ERR_ARG;
	/* -1 becomes MPI_PROC_NULL before timing, not inside the loop. */
	for (s = 0; s < b->nsteps; s++) {
		to[s] = b->to[s] < 0 ? MPI_PROC_NULL : b->to[s];
		from[s] = b->from[s] < 0 ? MPI_PROC_NULL : b->from[s];
	}
	if (b->warmup)
		CHK(loop(b, to, from, 1));
	CHK(MPI_Barrier(b->comm));
	t0 = MPI_Wtime();
	CHK(loop(b, to, from, b->loop));
	*t = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

int mb_beff_times(double t, double out[3], MPI_Comm comm)
{
	double mm[2] = {t, -t};
	int size;
	CHK(MPI_Allreduce(MPI_IN_PLACE, mm, 2, MPI_DOUBLE, MPI_MAX, comm));
	CHK(MPI_Allreduce(&t, &out[2], 1, MPI_DOUBLE, MPI_SUM, comm));
	CHK(MPI_Comm_size(comm, &size));
	out[0] = mm[0];
	out[1] = -mm[1];
	out[2] /= size;
	return MPI_SUCCESS;
}

int mb_beff_local_size(MPI_Comm comm, int *n)
{
	MPI_Comm node;
	CHK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
	CHK(MPI_Comm_size(node, n));
	return MPI_Comm_free(&node);
}
