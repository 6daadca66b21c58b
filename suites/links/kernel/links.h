/* mpibench links: mpiGraph's shift pattern (LLNL mpiGraph 1.5, mpiGraph.c,
 * code()): at distance d every rank sends to rank+d and receives from
 * rank-d, all ranks at once. */
#ifndef MB_LINKS_H
#define MB_LINKS_H

#include <mpi.h>

typedef struct {
	MPI_Comm comm;
	long long size; /* bytes per message */
	int times;      /* iterations per distance (mpiGraph's "times") */
	int window;     /* messages in flight per iteration ("window") */
	int warm;       /* untimed iterations before them, per distance (mpiGraph: none) */
	char *sbuf;     /* window*size bytes each: one slot per message */
	char *rbuf;
	MPI_Request *req; /* 2*window */
	MPI_Status *st;   /* 2*window: not MPI_STATUSES_IGNORE, which MPICH's headers make gcc warn about */
	/* results of one distance, one value per iteration, µs */
	double *send_us; /* send time per message: all sends done / window */
	double *recv_us; /* receive time per message: all receives done / window */
	double *lat_us;  /* half the round trip of a 0-byte ping to rank+d */
} mb_links;

/* mb_links_bw measures the bandwidth iterations of distance dist. */
int mb_links_bw(mb_links *l, int dist);

/* mb_links_lat measures the latency iterations of distance dist. */
int mb_links_lat(mb_links *l, int dist);

#endif
