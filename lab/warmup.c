/* warmup.c: does IMB 2021's warm-up of every length change the timed
 * ping-pong that follows? (the C experiment behind docs/log/2026-11-25-rows-over-goal.md, "Rows over
 * goal, and why")
 *
 * Usage: mpicc -O2 -o warmup lab/warmup.c
 *        mpirun -np 2 ./warmup LEN [RUNS]
 * Every run first times a ping-pong of LEN/2 bytes (the sample of the
 * length before), then LEN bytes after either one untimed round trip
 * (IMB 3.0 and mpibench: the `-time` probe) or IMB 2021's 1 + n_sample +
 * max(n_sample/10, min(10, n_sample)) (`IMB_init_buffers_iter`'s probes and
 * `IMB_warm_up`), n_sample being IMB 3.0's count. The two alternate in one
 * process (RUNS pairs, default 41). Prints the median of the per-pair
 * ratios warm/cold and, per variant, the minimum and the median of half a
 * round trip in µs.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expt.h"

enum { MAXRUNS = 1001 };

/* imb2021_warm is the round trips IMB 2021 runs at a length before timing it. */
static int imb2021_warm(int reps)
{
	int tenth = reps / 10, least = reps < 10 ? reps : 10;
	return 1 + reps + (tenth > least ? tenth : least);
}

int main(int argc, char **argv)
{
	static double warm[MAXRUNS], cold[MAXRUNS], q[MAXRUNS];
	int n = argc > 1 ? atoi(argv[1]) : 4194304, runs = argc > 2 ? atoi(argv[2]) : 41;
	int rank, k, j, reps;
	char *s, *r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	check_args("warmup", n, runs, MAXRUNS);
	reps = imb_reps(n);
	buffers("warmup", rank, n, &s, &r);
	for (k = 0; k < runs; k++) {
		for (j = 0; j < 2; j++) {
			int w = (j + k) % 2; /* alternate which variant goes first */
			half_rtt(rank, s, r, n / 2, 0, imb_reps(n / 2));
			if (w)
				warm[k] = half_rtt(rank, s, r, n, imb2021_warm(reps), reps);
			else
				cold[k] = half_rtt(rank, s, r, n, 1, reps);
		}
		q[k] = warm[k] / cold[k];
	}
	print_pairs(rank, n, "warm", warm, "cold", cold, q, runs);
	MPI_Finalize();
	return 0;
}
