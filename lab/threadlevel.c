/* threadlevel.c: what the thread level asked of MPI_Init_thread costs a
 * ping-pong (the C experiment behind mpibench's default -thread_level).
 *
 * Usage: mpicc -O2 -o threadlevel lab/threadlevel.c
 *        mpirun -np 2 ./threadlevel LEVEL BYTES
 * LEVEL: -1 plain MPI_Init, 0 MPI_THREAD_SINGLE, 1 MPI_THREAD_FUNNELED.
 * Prints the minimum and the median, over 20 runs of 10000 round trips on
 * a communicator from MPI_Comm_split (as IMB and mpibench measure), of
 * half a round trip in microseconds. Run the levels interleaved, several
 * times: see docs/lab.md, "Side by side with the peers".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { RUNS = 21, REPS = 10000, MAXLEN = 65536 };

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static char buf[MAXLEN];
	double t[RUNS];
	int level, n, rank, provided = -1, i, k;
	MPI_Comm comm;

	if (argc != 3 || (n = atoi(argv[2])) < 0 || n > MAXLEN) {
		fprintf(stderr, "usage: threadlevel -1|0|1 BYTES (at most %d)\n", MAXLEN);
		return 2;
	}
	level = atoi(argv[1]);
	if (level < 0)
		MPI_Init(&argc, &argv);
	else
		MPI_Init_thread(&argc, &argv, level ? MPI_THREAD_FUNNELED : MPI_THREAD_SINGLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &comm);
	if (rank < 2) {
		for (k = 0; k < RUNS; k++) {
			MPI_Barrier(comm);
			double t0 = MPI_Wtime();
			for (i = 0; i < REPS; i++) {
				if (rank == 0) {
					MPI_Send(buf, n, MPI_BYTE, 1, 1, comm);
					MPI_Recv(buf, n, MPI_BYTE, 1, 1, comm, MPI_STATUS_IGNORE);
				} else {
					MPI_Recv(buf, n, MPI_BYTE, 0, 1, comm, MPI_STATUS_IGNORE);
					MPI_Send(buf, n, MPI_BYTE, 0, 1, comm);
				}
			}
			t[k] = (MPI_Wtime() - t0) / (2.0 * REPS) * 1e6;
		}
		qsort(t + 1, RUNS - 1, sizeof t[0], cmp); /* run 0 is warm-up */
		if (rank == 0)
			printf("level %d (provided %d) %d B: min %.3f med %.3f us\n", level, provided, n, t[1],
			       t[1 + (RUNS - 1) / 2]);
	}
	MPI_Finalize();
	return 0;
}
