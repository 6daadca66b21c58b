//go:build cgo && !nompi

/* mpibench links: the timed loops, all in C (see links.h). */
#include "links.h"
#include "chk.h"
#include "mutant.h"

/* links_iter is one bandwidth iteration of mpiGraph's code(): two
 * barriers, then from one start time a window of receives from recv (any
 * tag, as mpiGraph) and a window of sends to send (tag = slot), polled
 * with MPI_Testall until both halves are done, each half's end time taken
 * when its Testall first succeeds. mpiGraph 1.5 tests the sends as
 * request_array[(k+1)/2-1 ...], one slot early: it includes the last
 * receive and leaves the last send out; here the sends are exactly the
 * sends. */
static int links_iter(mb_links *l, int send, int recv, double *ts, double *tr)
{
	int rc, w, n = l->window, sdone = 0, rdone = 0;
	double t0, tsend = 0, trecv = 0;
	if ((rc = MPI_Barrier(l->comm)) != MPI_SUCCESS || (rc = MPI_Barrier(l->comm)) != MPI_SUCCESS)
		return rc;
	t0 = MPI_Wtime();
	for (w = 0; w < n; w++) {
		rc = MPI_Irecv(l->rbuf + (long long)w * l->size, (int)l->size, MPI_BYTE, recv, MPI_ANY_TAG,
			       l->comm, &l->req[w]);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	for (w = 0; w < n; w++) {
		rc = MPI_Isend(l->sbuf + (long long)w * l->size, (int)l->size, MPI_BYTE, send, w, l->comm,
			       &l->req[n + w]);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	while (!sdone || !rdone) {
		if (!sdone) {
			if ((rc = MPI_Testall(n, &l->req[n], &sdone, &l->st[n])) != MPI_SUCCESS)
				return rc;
			if (sdone)
				tsend = MPI_Wtime();
		}
		if (!rdone) {
			if ((rc = MPI_Testall(n, &l->req[0], &rdone, &l->st[0])) != MPI_SUCCESS)
				return rc;
			if (rdone)
				trecv = MPI_Wtime();
		}
	}
	*ts = (tsend - t0) * 1e6 / n;
	*tr = (trecv - t0) * 1e6 / n;
	return MPI_SUCCESS;
}

int mb_links_bw(mb_links *l, int dist)
{
	int rank, np, rc, i;
	CHK(MUTANT_MPI_ERROR(l->comm));
	MPI_Comm_rank(l->comm, &rank);
	MPI_Comm_size(l->comm, &np);
	int send = (rank + dist) % np, recv = (rank - dist + np) % np;
	double ts, tr;
	for (i = 0; i < l->warm; i++)
		if ((rc = links_iter(l, send, recv, &ts, &tr)) != MPI_SUCCESS)
			return rc;
	for (i = 0; i < l->times; i++)
		if ((rc = links_iter(l, send, recv, &l->send_us[i], &l->recv_us[i])) != MPI_SUCCESS)
			return rc;
	return MPI_SUCCESS;
}

/* links_ping is one latency iteration (not in mpiGraph, which measures
 * bandwidth only): after two barriers every rank pings rank+d with an
 * empty message and answers the ping of rank-d, all at once; the time to
 * its own answer is a round trip through the link under the same load
 * as the bandwidth pattern. Pings have tag 0, answers tag 1. */
static int links_ping(mb_links *l, int send, int recv, double *us)
{
	MPI_Request r[4];
	MPI_Status st[2];
	int rc;
	double t0;
	if ((rc = MPI_Barrier(l->comm)) != MPI_SUCCESS || (rc = MPI_Barrier(l->comm)) != MPI_SUCCESS)
		return rc;
	t0 = MPI_Wtime();
	if ((rc = MPI_Irecv(l->rbuf, 0, MPI_BYTE, send, 1, l->comm, &r[0])) != MPI_SUCCESS ||
	    (rc = MPI_Irecv(l->rbuf, 0, MPI_BYTE, recv, 0, l->comm, &r[1])) != MPI_SUCCESS ||
	    (rc = MPI_Isend(l->sbuf, 0, MPI_BYTE, send, 0, l->comm, &r[2])) != MPI_SUCCESS ||
	    (rc = MPI_Wait(&r[1], MPI_STATUS_IGNORE)) != MPI_SUCCESS ||
	    (rc = MPI_Isend(l->sbuf, 0, MPI_BYTE, recv, 1, l->comm, &r[3])) != MPI_SUCCESS ||
	    (rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE)) != MPI_SUCCESS)
		return rc;
	*us = (MPI_Wtime() - t0) * 1e6 / 2;
	return MPI_Waitall(2, &r[2], st);
}

int mb_links_lat(mb_links *l, int dist)
{
	int rank, np, rc, i;
	CHK(MUTANT_MPI_ERROR(l->comm));
	MPI_Comm_rank(l->comm, &rank);
	MPI_Comm_size(l->comm, &np);
	int send = (rank + dist) % np, recv = (rank - dist + np) % np;
	double t;
	for (i = 0; i < l->warm; i++)
		if ((rc = links_ping(l, send, recv, &t)) != MPI_SUCCESS)
			return rc;
	for (i = 0; i < l->times; i++)
		if ((rc = links_ping(l, send, recv, &l->lat_us[i])) != MPI_SUCCESS)
			return rc;
	return MPI_SUCCESS;
}
