/* b_eff kernels of mpibench: one pattern of send-receive steps, executed
 * looplength times with one of the three methods of b_eff, between two
 * MPI_Wtime calls, all in C. */
#ifndef MPIBENCH_BEFF_H
#define MPIBENCH_BEFF_H

#include <mpi.h>

#define MB_BEFF_MAXSTEPS 6 /* 3 directions x ping and pong */

enum { MB_BEFF_SENDRECV = 0, MB_BEFF_ALLTOALLV, MB_BEFF_NONBLOCKING };

typedef struct {
	MPI_Comm comm;
	int method;
	int nsteps;
	const int *to;   /* per step: destination, -1 for none */
	const int *from; /* per step: source, -1 for none */
	const int *off;  /* per step: offset of its block in sbuf and rbuf */
	int len;         /* bytes per message */
	char *sbuf, *rbuf;
	const int *scounts, *sdispls, *rcounts, *rdispls; /* Alltoallv, size entries */
	int loop;        /* looplength */
	int warmup;      /* one untimed execution before the barrier */
	int check;       /* data check: fill, poison and verify every execution */
	int rank;        /* this process's rank in comm: the check content */
} mb_beff;

/* mb_beff_run: optional warm-up, MPI_Barrier, then the timed loop; *t is
 * the loop's time in seconds. With check set, every execution (the warm-up
 * included) sends rank- and execution-dependent bytes (pattern.h) and
 * *defects counts the received bytes that differ from what the source of
 * each step sent in that execution; the time is then no benchmark data.
 * Returns MPI_SUCCESS or the first error. */
int mb_beff_run(const mb_beff *b, double *t, long long *defects);

/* mb_beff_times: max, min and mean of t over comm and the sum of bad (the
 * check's wrong bytes, exact below 2^53), on every rank. */
int mb_beff_times(double t, double bad, double out[4], MPI_Comm comm);

#endif
