/* Clock synchronisation of mpibench (run/clocksync): the ping-pong
 * exchanges from which a client rank's clock model against its reference
 * is fitted, and the reductions of doubles the synchronisation and the
 * window loop's schedule use. The clock is MPI_Wtime on every rank; the
 * fit and the model live in Go. */
#ifndef MB_CLOCKSYNC_H
#define MB_CLOCKSYNC_H

#include <mpi.h>

/* mb_cs_pair runs n fit points of m exchanges between the reference and
 * the client (client = 1 on the client, 0 on the reference; peer the
 * other rank of comm). In an exchange the client sends an empty message at
 * its time ts, the reference answers with its MPI_Wtime tr, the client
 * receives it at te. For each fit point the client keeps the exchange with
 * the shortest round trip: x[i] = (ts+te)/2, off[i] = tr - x[i],
 * rtt[i] = te - ts. Last the reference sends its model (3 doubles) to the
 * client, which stores it in model. */
int mb_cs_pair(MPI_Comm comm, int peer, int client, int n, int m, double *x, double *off,
	       double *rtt, double *model);

/* mb_cs_max reduces n doubles with MPI_MAX onto every rank, in place. */
int mb_cs_max(double *v, int n, MPI_Comm comm);

/* mb_cs_bcast broadcasts n doubles from rank 0. */
int mb_cs_bcast(double *v, int n, MPI_Comm comm);

#endif
