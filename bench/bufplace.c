/* bufplace.c: does the placement of the send and receive buffers change a
 * 4 MiB ping-pong? (the C experiment behind mpibench's buffer placement)
 *
 * Usage: mpicc -O2 -o bufplace bench/bufplace.c
 *        mpirun -np 2 ./bufplace MODE SOFF ROFF
 * MODE 0: both buffers from posix_memalign(4096) plus SOFF and ROFF bytes;
 * MODE 1: both from malloc (glibc: an mmap'd chunk, page + 16 bytes).
 * Prints the minimum and the median, over 13 runs of 10 round trips, of
 * half a round trip in microseconds. Run the placements interleaved,
 * several times: see README.md, "Side-by-side benchmark".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RUNS = 15, WARM = 2, REPS = 10 };

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static char *place(int mode, size_t n, size_t off)
{
	void *p = NULL;
	if (mode == 1)
		return malloc(n);
	if (posix_memalign(&p, 4096, n + off) != 0)
		return NULL;
	return (char *)p + off;
}

int main(int argc, char **argv)
{
	const size_t n = 4194304;
	double t[RUNS];
	int mode, rank, i, k;
	char *s, *r;

	if (argc != 4) {
		fprintf(stderr, "usage: bufplace 0|1 SOFF ROFF\n");
		return 2;
	}
	mode = atoi(argv[1]);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	s = place(mode, n, (size_t)atol(argv[2]));
	r = place(mode, n, (size_t)atol(argv[3]));
	if (s == NULL || r == NULL) {
		fprintf(stderr, "bufplace: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(s, rank, n);
	memset(r, 0, n);
	for (k = 0; k < RUNS; k++) {
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
		for (i = 0; i < REPS && rank < 2; i++) {
			if (rank == 0) {
				MPI_Send(s, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
				MPI_Recv(r, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(r, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(s, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
			}
		}
		t[k] = (MPI_Wtime() - t0) / (2.0 * REPS) * 1e6;
	}
	qsort(t + WARM, RUNS - WARM, sizeof t[0], cmp);
	if (rank == 0)
		printf("mode %d send %%4096 = %lu, recv %%4096 = %lu: min %.1f med %.1f us\n", mode,
		       (unsigned long)((size_t)s % 4096), (unsigned long)((size_t)r % 4096), t[WARM],
		       t[WARM + (RUNS - WARM) / 2]);
	MPI_Finalize();
	return 0;
}
