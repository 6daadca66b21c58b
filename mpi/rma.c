#include "rma.h"
#include "chk.h"

void mb_rma_set_info(MPI_Info *info)
{
	/* The default of IMB 3.0; a site may set hints for its machine here. */
	*info = MPI_INFO_NULL;
}

int mb_win_open(void *base, MPI_Aint size, int disp_unit, MPI_Comm comm, MPI_Win *win)
{
	MPI_Info info;
	mb_rma_set_info(&info);
	CHK(MPI_Win_create(base, size, disp_unit, info, comm, win));
	CHK(MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN));
	return MPI_Win_fence(0, *win);
}

/* xfer issues transfer i. The switch on k->op is decided identically on
 * every transfer, so it costs a predicted branch next to an MPI call. */
static int xfer(const mb_rma *k, int i)
{
	MPI_Aint disp = (MPI_Aint)i * k->stride;
	switch (k->op) {
	case MB_RMA_PUT:
		return MPI_Put((char *)k->obuf + disp, k->count, MPI_BYTE, k->target, disp,
			       k->count, MPI_BYTE, k->win);
	case MB_RMA_GET:
		return MPI_Get((char *)k->obuf + disp, k->count, MPI_BYTE, k->target, disp,
			       k->count, MPI_BYTE, k->win);
	case MB_RMA_ACC:
		return MPI_Accumulate((float *)k->obuf + disp, k->count, MPI_FLOAT, k->target, disp,
				      k->count, MPI_FLOAT, MPI_SUM, k->win);
	}
	return MPI_ERR_ARG;
}

/* Non-aggregate mode (section 5.2.8.2): every transfer is completed by a
 * fence before the next; a rank without a target takes part in the fences
 * only, as the passive side of IMB's Unidir benchmarks does. */
static int nonaggregate(const mb_rma *k)
{
	int i, end = k->first + k->nrep;
	for (i = k->first; i < end; i++) {
		if (k->target >= 0)
			CHK(xfer(k, i));
		CHK(MPI_Win_fence(0, k->win));
	}
	return MPI_SUCCESS;
}

/* Aggregate mode: all transfers, then one fence completes them. */
static int aggregate(const mb_rma *k)
{
	int i, end = k->first + k->nrep;
	if (k->target >= 0)
		for (i = k->first; i < end; i++)
			CHK(xfer(k, i));
	return MPI_Win_fence(0, k->win);
}

int mb_rma_run(const mb_rma *kp, double *t)
{
	/* A local copy: MPI calls could alias *kp as far as the compiler knows. */
	mb_rma k = *kp;
	int i, rc;
	double t0;
	if (k.open_fence)
		CHK(MPI_Win_fence(0, k.win));
	for (i = 0; i < k.nbarr; i++)
		CHK(MPI_Barrier(k.comm));
	t0 = MPI_Wtime();
	rc = k.aggregate ? aggregate(&k) : nonaggregate(&k);
	*t = (MPI_Wtime() - t0) / (k.nrep > 0 ? k.nrep : 1);
	return rc;
}

/* One life cycle of a window. MPI_ERRORS_RETURN is set on every window so
 * that an error comes back as a code; it is a local call, negligible next
 * to the collective MPI_Win_create and MPI_Win_free. */
static int window_once(const mb_window *k, int rank)
{
	MPI_Win win;
	MPI_Info info;
	mb_rma_set_info(&info);
	CHK(MPI_Win_create(k->base, k->size, 1, info, k->comm, &win));
	CHK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHK(MPI_Win_fence(0, win));
	/* The negligible non-trivial action that keeps the window in use; an
	 * empty window has no byte to put. */
	if (k->size > 0)
		CHK(MPI_Put(k->src, 1, MPI_BYTE, rank, 0, 1, MPI_BYTE, win));
	CHK(MPI_Win_fence(0, win));
	return MPI_Win_free(&win);
}

int mb_window_run(const mb_window *kp, double *t)
{
	mb_window k = *kp;
	int i, rank, rc = MPI_SUCCESS;
	double t0;
	CHK(MPI_Comm_rank(k.comm, &rank));
	for (i = 0; i < k.nbarr; i++)
		CHK(MPI_Barrier(k.comm));
	t0 = MPI_Wtime();
	for (i = 0; i < k.nrep && rc == MPI_SUCCESS; i++)
		rc = window_once(&k, rank);
	*t = (MPI_Wtime() - t0) / (k.nrep > 0 ? k.nrep : 1);
	return rc;
}
