/* bufplace.c: does the placement of the send and receive buffers change a
 * ping-pong? (the C experiment behind mpibench's buffer placement)
 *
 * Usage: mpicc -O2 -o bufplace lab/bufplace.c
 *        mpirun -np 2 ./bufplace [LEN [RUNS]]
 * Two placements in one process, timed alternately (A B A B ...), so that
 * drift and other jobs on the machine hit both alike:
 *   aligned: both buffers from posix_memalign(4096), as mpi.Alloc does;
 *   malloc:  both from malloc (glibc: an mmap'd chunk, page + 16 bytes),
 *            as IMB's IMB_v_alloc.
 * Each run is 2 untimed round trips (the buffers back in cache, as in a
 * benchmark that reuses them) and IMB's count of timed ones,
 * min(1000, 40 MB / LEN) (LEN default 4 MiB). Prints, per placement,
 * the minimum and the median over RUNS (default 41) of half a round trip
 * in microseconds, and the median of the per-pair ratios aligned/malloc.
 * See docs/lab.md, "Side by side with the peers".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expt.h"

enum { MAXRUNS = 1001, WARM = 2 };

static char *aligned(size_t n)
{
	void *p = NULL;
	return posix_memalign(&p, 4096, n) == 0 ? p : NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4194304;
	static double a[MAXRUNS], m[MAXRUNS], q[MAXRUNS];
	int rank, k, reps, runs = argc > 2 ? atoi(argv[2]) : 41;
	char *as, *ar, *ms, *mr;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	check_args("bufplace", n, runs, MAXRUNS);
	reps = imb_reps(n);
	as = aligned(n + 1), ar = aligned(n + 1), ms = malloc(n + 1), mr = malloc(n + 1);
	if (as == NULL || ar == NULL || ms == NULL || mr == NULL) {
		fprintf(stderr, "bufplace: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(as, rank, n), memset(ms, rank, n), memset(ar, 0, n), memset(mr, 0, n);
	for (k = 0; k < runs; k++) {
		/* alternate which placement goes first */
		if (k % 2) {
			a[k] = half_rtt(rank, as, ar, n, WARM, reps);
			m[k] = half_rtt(rank, ms, mr, n, WARM, reps);
		} else {
			m[k] = half_rtt(rank, ms, mr, n, WARM, reps);
			a[k] = half_rtt(rank, as, ar, n, WARM, reps);
		}
		q[k] = a[k] / m[k];
	}
	if (rank == 0)
		printf("malloc %%4096: send %lu recv %lu\n", (unsigned long)((size_t)ms % 4096),
		       (unsigned long)((size_t)mr % 4096));
	print_pairs(rank, n, "aligned", a, "malloc", m, q, runs);
	MPI_Finalize();
	return 0;
}
