/* sysmon.c: what a thread that wakes like the Go runtime's monitor (sysmon)
 * costs a ping-pong: the C experiment behind mpi.Init's GOMAXPROCS(1).
 *
 * Usage: mpicc -O2 -o sysmon lab/sysmon.c -lpthread
 *        mpirun -np 2 ./sysmon LEN [RUNS]
 * While the Go thread that calls a cgo function holds its P and another P is
 * idle, sysmon sleeps 20 µs between checks for its first 50 checks, then
 * doubles the sleep up to 10 ms (runtime/proc.go, sysmon). Here a thread
 * does the same from the start of every "monitor" run and blocks on a
 * condition variable during "none" runs; the two alternate in one process
 * (RUNS pairs, default 61), so that drift and other jobs hit both alike.
 * Each run is IMB's count, min(1000, 40 MB / LEN), of round trips. Prints
 * the median of the per-pair ratios and, per variant, the minimum and the
 * median of half a round trip in µs. See docs/lab.md, "Side by side with the peers".
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "expt.h"

enum { MAXRUNS = 1001 };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int active, gen;

/* busy reports whether the run the monitor started for (gen g) still lasts. */
static int busy(int g)
{
	int b;
	pthread_mutex_lock(&mu);
	b = active && gen == g;
	pthread_mutex_unlock(&mu);
	return b;
}

static void *monitor(void *arg)
{
	(void)arg;
	for (;;) {
		int g, idle = 0;
		unsigned delay = 20;
		pthread_mutex_lock(&mu);
		while (!active)
			pthread_cond_wait(&cv, &mu);
		g = gen;
		pthread_mutex_unlock(&mu);
		while (busy(g)) {
			if (idle++ > 50 && delay < 10000)
				delay *= 2;
			usleep(delay);
		}
	}
	return NULL;
}

static void set_active(int on)
{
	pthread_mutex_lock(&mu);
	active = on;
	gen++;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
}

int main(int argc, char **argv)
{
	static double on[MAXRUNS], off[MAXRUNS], q[MAXRUNS];
	int n = argc > 1 ? atoi(argv[1]) : 8, runs = argc > 2 ? atoi(argv[2]) : 61;
	int rank, k, j, reps, provided;
	char *s, *r;
	pthread_t th;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	check_args("sysmon", n, runs, MAXRUNS);
	reps = imb_reps(n);
	buffers("sysmon", rank, n, &s, &r);
	if (pthread_create(&th, NULL, monitor, NULL) != 0) {
		fprintf(stderr, "sysmon: cannot start a thread\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (k = 0; k < runs; k++) {
		for (j = 0; j < 2; j++) {
			int mon = (j + k) % 2; /* alternate which variant goes first */
			double t;
			set_active(mon);
			t = half_rtt(rank, s, r, n, 0, reps);
			set_active(0);
			if (mon)
				on[k] = t;
			else
				off[k] = t;
		}
		q[k] = on[k] / off[k];
	}
	print_pairs(rank, n, "monitor", on, "none", off, q, runs);
	MPI_Finalize();
	return 0;
}
