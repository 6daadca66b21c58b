/* expt.h: what the C experiments share (the timed ping-pong, medians,
 * arguments, buffers); lab/bufplace.c, sysmon.c and warmup.c include it
 * and are each built alone with mpicc. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* half_rtt is half the round trip of an n-byte ping-pong between ranks 0
 * and 1 over s and r, in µs: two barriers, warm untimed round trips, then
 * reps timed ones. */
static inline double half_rtt(int rank, char *s, char *r, int n, int warm, int reps)
{
	int i;
	double t0 = 0;
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	for (i = 0; i < warm + reps; i++) {
		if (i == warm)
			t0 = MPI_Wtime();
		if (rank == 0) {
			MPI_Send(s, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(r, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(r, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(s, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
		}
	}
	return (MPI_Wtime() - t0) / (2.0 * reps) * 1e6;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* median sorts v: v[0] is then the minimum. */
static inline double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof v[0], cmp_double);
	return v[n / 2];
}

/* imb_reps is IMB 3.0's repetition count for n bytes, min(1000, 40 MB / n). */
static inline int imb_reps(int n)
{
	int reps = n > 0 && 40000000 / n < 1000 ? 40000000 / n : 1000;
	return reps < 1 ? 1 : reps;
}

/* print_pairs prints, on rank 0, the median of the per-pair ratios a/b
 * (q holds them) and the minimum and the median of a (named an) and of b
 * (bn), for runs pairs at n bytes. It sorts the three arrays. */
static inline void print_pairs(int rank, int n, const char *an, double *a, const char *bn,
			       double *b, double *q, int runs)
{
	double rq = median(q, runs), ra = median(a, runs), rb = median(b, runs);
	if (rank == 0)
		printf("%d B: %s/%s median ratio %.3f; %s min %.3f med %.3f us; %s min %.3f med %.3f us\n",
		       n, an, bn, rq, an, a[0], ra, bn, b[0], rb);
}

/* check_args ends the job (exit 2) unless 0 <= n and 1 <= runs <= maxruns. */
static inline void check_args(const char *prog, int n, int runs, int maxruns)
{
	if (n < 0 || runs < 1 || runs > maxruns) {
		fprintf(stderr, "%s: LEN must be >= 0, RUNS 1 to %d\n", prog, maxruns);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
}

/* buffers allocates the n-byte send (this rank's byte) and receive (zeros)
 * buffers with malloc, or ends the job. */
static inline void buffers(const char *prog, int rank, int n, char **s, char **r)
{
	*s = malloc((size_t)n + 1), *r = malloc((size_t)n + 1);
	if (*s == NULL || *r == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(*s, rank, (size_t)n + 1), memset(*r, 0, (size_t)n + 1);
}
