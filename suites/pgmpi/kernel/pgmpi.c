//go:build cgo && !nompi

#include <string.h>
#include "chk.h"
#include "mutant.h"
#include "pgmpi.h"

/* The MPI functions of the guidelines. The volume n is the whole vector
 * (count ints) as in section II of the paper: MPI_Bcast sends n to every
 * process, MPI_Scatter gives each process n/p, MPI_Gather and
 * MPI_Allgather collect p blocks of n/p into n, MPI_Alltoall sends n/p to
 * each process (n in all), the reductions and MPI_Scan reduce vectors of
 * n, MPI_Reduce_scatter(_block) reduce n and leave n/p on each process. */
static int function(const mb_pg *k)
{
	MPI_Comm c = k->comm;
	int n = k->count, b = k->block;
	switch (k->call) {
	case MB_PG_ALLGATHER:
		return MPI_Allgather(k->sbuf, b, MPI_INT, k->rbuf, b, MPI_INT, c);
	case MB_PG_ALLREDUCE:
		return MPI_Allreduce(k->sbuf, k->rbuf, n, MPI_INT, MPI_SUM, c);
	case MB_PG_ALLTOALL:
		return MPI_Alltoall(k->sbuf, b, MPI_INT, k->rbuf, b, MPI_INT, c);
	case MB_PG_BCAST: /* in rbuf, which holds the input on the root */
		return MPI_Bcast(k->rbuf, n, MPI_INT, 0, c);
	case MB_PG_GATHER:
		return MPI_Gather(k->sbuf, b, MPI_INT, k->rbuf, b, MPI_INT, 0, c);
	case MB_PG_REDUCE:
		return MPI_Reduce(k->sbuf, k->rbuf, n, MPI_INT, MPI_SUM, 0, c);
	case MB_PG_REDUCE_SCATTER:
		return MPI_Reduce_scatter(k->sbuf, k->rbuf, k->counts, MPI_INT, MPI_SUM, c);
	case MB_PG_REDUCE_SCATTER_BLOCK:
		return MPI_Reduce_scatter_block(k->sbuf, k->rbuf, b, MPI_INT, MPI_SUM, c);
	case MB_PG_SCAN:
		return MPI_Scan(k->sbuf, k->rbuf, n, MPI_INT, MPI_SUM, c);
	case MB_PG_SCATTER:
		return MPI_Scatter(k->sbuf, b, MPI_INT, k->rbuf, b, MPI_INT, 0, c);
	}
	return MPI_ERR_OTHER;
}

/* own is this rank's block of a vector of count ints. */
static int *own(const mb_pg *k, int *v) { return v + (size_t)k->rank * k->block; }

static size_t bytes(int ints) { return (size_t)ints * sizeof(int); }

/* Mock-ups GL3-GL9: one MPI function standing in for another. A mock-up
 * starts from the emulated function's input and ends with its output, so
 * the local copies it needs (placing a block, taking a share) are part of
 * it and of its time; zeroing the padded vector is done once, outside. */
static int mockup_single(const mb_pg *k)
{
	MPI_Comm c = k->comm;
	int n = k->count, b = k->block, i;
	switch (k->call) {
	case MB_PG_GATHER_AS_ALLGATHER: /* GL3 */
		return MPI_Allgather(k->sbuf, b, MPI_INT, k->rbuf, b, MPI_INT, c);
	case MB_PG_GATHER_AS_REDUCE: /* GL4: blocks in a zero vector, summed */
		memcpy(own(k, k->pad), k->sbuf, bytes(b));
		return MPI_Reduce(k->pad, k->rbuf, n, MPI_INT, MPI_SUM, 0, c);
	case MB_PG_ALLGATHER_AS_ALLTOALL: /* GL5: own block sent to all */
		for (i = 0; i < k->size; i++)
			memcpy(k->tmp + (size_t)i * b, k->sbuf, bytes(b));
		return MPI_Alltoall(k->tmp, b, MPI_INT, k->rbuf, b, MPI_INT, c);
	case MB_PG_ALLGATHER_AS_ALLREDUCE: /* GL6 */
		memcpy(own(k, k->pad), k->sbuf, bytes(b));
		return MPI_Allreduce(k->pad, k->rbuf, n, MPI_INT, MPI_SUM, c);
	case MB_PG_SCATTER_AS_BCAST: /* GL7: the whole vector, then a share */
		if (k->rank == 0)
			memcpy(k->tmp, k->sbuf, bytes(n));
		CHK(MPI_Bcast(k->tmp, n, MPI_INT, 0, c));
		memcpy(k->rbuf, own(k, k->tmp), bytes(b));
		return MPI_SUCCESS;
	case MB_PG_REDUCE_AS_ALLREDUCE: /* GL8 */
		return MPI_Allreduce(k->sbuf, k->rbuf, n, MPI_INT, MPI_SUM, c);
	case MB_PG_REDUCE_SCATTER_AS_ALLREDUCE: /* GL9 */
		CHK(MPI_Allreduce(k->sbuf, k->tmp, n, MPI_INT, MPI_SUM, c));
		memcpy(k->rbuf, own(k, k->tmp), bytes(b));
		return MPI_SUCCESS;
	}
	return MPI_ERR_OTHER;
}

/* Mock-ups GL10-GL17: two MPI operations in sequence. */
static int mockup_pair(const mb_pg *k)
{
	MPI_Comm c = k->comm;
	int n = k->count, b = k->block;
	switch (k->call) {
	case MB_PG_BCAST_AS_SCATTER_ALLGATHER: /* GL10 */
		CHK(MPI_Scatter(k->rbuf, b, MPI_INT, k->tmp, b, MPI_INT, 0, c));
		return MPI_Allgather(k->tmp, b, MPI_INT, k->rbuf, b, MPI_INT, c);
	case MB_PG_ALLGATHER_AS_GATHER_BCAST: /* GL11 */
		CHK(MPI_Gather(k->sbuf, b, MPI_INT, k->rbuf, b, MPI_INT, 0, c));
		return MPI_Bcast(k->rbuf, n, MPI_INT, 0, c);
	case MB_PG_ALLREDUCE_AS_REDUCE_BCAST: /* GL12 */
		CHK(MPI_Reduce(k->sbuf, k->rbuf, n, MPI_INT, MPI_SUM, 0, c));
		return MPI_Bcast(k->rbuf, n, MPI_INT, 0, c);
	case MB_PG_ALLREDUCE_AS_RSB_ALLGATHER: /* GL13 */
		CHK(MPI_Reduce_scatter_block(k->sbuf, k->tmp, b, MPI_INT, MPI_SUM, c));
		return MPI_Allgather(k->tmp, b, MPI_INT, k->rbuf, b, MPI_INT, c);
	case MB_PG_REDUCE_AS_RSB_GATHER: /* GL14 */
		CHK(MPI_Reduce_scatter_block(k->sbuf, k->tmp, b, MPI_INT, MPI_SUM, c));
		return MPI_Gather(k->tmp, b, MPI_INT, k->rbuf, b, MPI_INT, 0, c);
	case MB_PG_RSB_AS_REDUCE_SCATTER: /* GL15 */
		CHK(MPI_Reduce(k->sbuf, k->tmp, n, MPI_INT, MPI_SUM, 0, c));
		return MPI_Scatter(k->tmp, b, MPI_INT, k->rbuf, b, MPI_INT, 0, c);
	case MB_PG_SCAN_AS_EXSCAN_REDUCE_LOCAL: /* GL16 */
		CHK(MPI_Exscan(k->sbuf, k->rbuf, n, MPI_INT, MPI_SUM, c));
		if (k->rank == 0) /* MPI_Exscan leaves rank 0's result undefined */
			memcpy(k->rbuf, k->sbuf, bytes(n));
		else
			CHK(MPI_Reduce_local(k->sbuf, k->rbuf, n, MPI_INT, MPI_SUM));
		return MPI_SUCCESS;
	case MB_PG_REDUCE_SCATTER_AS_REDUCE_SCATTERV: /* GL17 */
		CHK(MPI_Reduce(k->sbuf, k->tmp, n, MPI_INT, MPI_SUM, 0, c));
		return MPI_Scatterv(k->tmp, k->counts, k->displs, MPI_INT,
				    k->rbuf, k->counts[k->rank], MPI_INT, 0, c);
	}
	return MPI_ERR_OTHER;
}

int mb_pg_call(const mb_pg *k)
{
	if (k->call < MB_PG_GATHER_AS_ALLGATHER)
		return function(k);
	if (k->call < MB_PG_BCAST_AS_SCATTER_ALLGATHER)
		return mockup_single(k);
	return mockup_pair(k);
}

int mb_pg_run(const mb_pg *k, int nrep, double *local, double *t)
{
	int i;
	double t0;
	CHK(MUTANT_MPI_ERROR(k->comm));
	for (i = 0; i < nrep; i++) {
		CHK(MPI_Barrier(k->comm));
		t0 = MPI_Wtime();
		CHK(mb_pg_call(k));
		local[i] = MPI_Wtime() - t0;
	}
	return MPI_Reduce(local, t, nrep, MPI_DOUBLE, MPI_MAX, 0, k->comm);
}
