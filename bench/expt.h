/* expt.h: the timed ping-pong and the median of the C experiments
 * bench/bufplace.c and bench/sysmon.c (each built alone with mpicc). */
#include <mpi.h>
#include <stdlib.h>

/* half_rtt is half the round trip of an n-byte ping-pong between ranks 0
 * and 1 over s and r, in µs: two barriers, warm untimed round trips, then
 * reps timed ones. */
static double half_rtt(int rank, char *s, char *r, int n, int warm, int reps)
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* median sorts v: v[0] is then the minimum. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof v[0], cmp_double);
	return v[n / 2];
}

/* imb_reps is IMB 3.0's repetition count for n bytes, min(1000, 40 MB / n). */
static int imb_reps(int n)
{
	int reps = n > 0 && 40000000 / n < 1000 ? 40000000 / n : 1000;
	return reps < 1 ? 1 : reps;
}
