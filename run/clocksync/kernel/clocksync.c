//go:build cgo && !nompi

#include <stddef.h>
#include "chk.h"
#include "clocksync.h"
#include "mutant.h" /* MB_WTIME */

#define TAG 3000

/* The reference's side: answer every ping with the time it was read. */
static int reference(MPI_Comm comm, int peer, int total, const double *model)
{
	int i;
	double tr;
	for (i = 0; i < total; i++) {
		CHK(MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG, comm, MPI_STATUS_IGNORE));
		tr = MB_WTIME();
		CHK(MPI_Send(&tr, 1, MPI_DOUBLE, peer, TAG, comm));
	}
	return MPI_Send(model, 3, MPI_DOUBLE, peer, TAG, comm);
}

int mb_cs_pair(MPI_Comm comm, int peer, int client, int n, int m, double *x, double *off,
	       double *rtt, double *model)
{
	int i, j;
	double ts, te, tr, best;
	if (!client)
		return reference(comm, peer, n * m, model);
	for (i = 0; i < n; i++) {
		best = -1;
		for (j = 0; j < m; j++) {
			ts = MB_WTIME();
			CHK(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG, comm));
			CHK(MPI_Recv(&tr, 1, MPI_DOUBLE, peer, TAG, comm, MPI_STATUS_IGNORE));
			te = MB_WTIME();
			if (best < 0 || te - ts < best) {
				best = te - ts;
				x[i] = (ts + te) / 2;
				off[i] = tr - x[i];
				rtt[i] = best;
			}
		}
	}
	return MPI_Recv(model, 3, MPI_DOUBLE, peer, TAG, comm, MPI_STATUS_IGNORE);
}

int mb_cs_max(double *v, int n, MPI_Comm comm)
{
	return MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, comm);
}

int mb_cs_bcast(double *v, int n, MPI_Comm comm)
{
	return MPI_Bcast(v, n, MPI_DOUBLE, 0, comm);
}
