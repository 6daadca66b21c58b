/* pingpong.c: a minimal standalone MPI ping-pong, the reference point of
 * the overhead proof (lab/run.sh).
 *
 * It follows the methodology of mpibench's PingPong kernel (suites/imb/kernel/kernels.c)
 * with nothing in between: for each message length X of 0, 1 KiB and
 * 4 MiB, n = 1000 repetitions for X = 0, else max(1, min(1000, 40 MiB / X));
 * like mpibench (default -thread_level single) it asks MPI_Init_thread for
 * MPI_THREAD_SINGLE (Open MPI's latency depends on the level), warms up
 * once with two runs of the loop at the longest length, then for each
 * length: two MPI_Barrier calls, then
 *
 *     t0 = MPI_Wtime();
 *     n times: rank 0 MPI_Send + MPI_Recv, rank 1 MPI_Recv + MPI_Send
 *     t = (MPI_Wtime() - t0) / n;
 *
 * with MPI_BYTE and tag 1000. Each rank's t/2 in microseconds is reduced
 * with MPI_MAX to rank 0, which prints "<bytes> <reps> <t_usec>" per length.
 *
 * Build: mpicc -O2 -Wall -o pingpong lab/pingpong.c
 * Run:   mpirun -np 2 ./pingpong
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG 1000

/* The communicator of the active processes. IMB, and so mpibench, measure
 * on a communicator made by MPI_Comm_split even when every process is
 * active; Open MPI's latency on such a communicator is measurably higher
 * than on MPI_COMM_WORLD, so the reference must use one too. */
static MPI_Comm comm;
#define N_WARMUP 2
#define N_BARR 2
#define MSGS_PER_SAMPLE 1000
#define OVERALL_VOL (40 << 20)

static const int lengths[] = {0, 1024, 4194304};
#define N_LENGTHS ((int)(sizeof lengths / sizeof lengths[0]))

static int reps_for(int x)
{
	int n;
	if (x == 0)
		return MSGS_PER_SAMPLE;
	n = OVERALL_VOL / x;
	if (n > MSGS_PER_SAMPLE)
		n = MSGS_PER_SAMPLE;
	return n < 1 ? 1 : n;
}

/* loop runs n round trips between ranks 0 and 1; other ranks do nothing. */
static void loop(int rank, void *sbuf, void *rbuf, int count, int n)
{
	int i;
	MPI_Status st;
	if (rank == 0) {
		for (i = 0; i < n; i++) {
			MPI_Send(sbuf, count, MPI_BYTE, 1, TAG, comm);
			MPI_Recv(rbuf, count, MPI_BYTE, 1, TAG, comm, &st);
		}
	} else if (rank == 1) {
		for (i = 0; i < n; i++) {
			MPI_Recv(rbuf, count, MPI_BYTE, 0, TAG, comm, &st);
			MPI_Send(sbuf, count, MPI_BYTE, 0, TAG, comm);
		}
	}
}

static void *page_alloc(size_t n)
{
	void *p = NULL;
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;
	if (n == 0)
		n = 1;
	if (posix_memalign(&p, (size_t)page, n) != 0)
		return NULL;
	memset(p, 0, n); /* touch every page before timing */
	return p;
}

int main(int argc, char **argv)
{
	int rank, size, i, j, maxlen = 0;
	void *sbuf, *rbuf;

	int provided;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &comm);
	if (size < 2) {
		if (rank == 0)
			fprintf(stderr, "pingpong: needs at least 2 processes\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	/* MPI_Errors_are_fatal is the default: a failed call aborts the job. */

	for (i = 0; i < N_LENGTHS; i++)
		if (lengths[i] > maxlen)
			maxlen = lengths[i];
	sbuf = page_alloc((size_t)maxlen);
	rbuf = page_alloc((size_t)maxlen);
	if (sbuf == NULL || rbuf == NULL) {
		fprintf(stderr, "pingpong: rank %d: out of memory\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 3);
	}

	for (j = 0; j < N_WARMUP; j++)
		loop(rank, sbuf, rbuf, maxlen, reps_for(maxlen));
	for (i = 0; i < N_LENGTHS; i++) {
		int x = lengths[i], n = reps_for(x);
		double t0, t, tmax = 0;

		for (j = 0; j < N_BARR && comm != MPI_COMM_NULL; j++)
			MPI_Barrier(comm);
		t0 = MPI_Wtime();
		loop(rank, sbuf, rbuf, x, n);
		t = (MPI_Wtime() - t0) / n;

		/* Only ranks 0 and 1 are active; idle ranks contribute 0. */
		t = rank < 2 ? t / 2 * 1e6 : 0;
		MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
		if (rank == 0)
			printf("%d %d %.4f\n", x, n, tmax);
	}
	if (rank == 0)
		fflush(stdout);

	if (comm != MPI_COMM_NULL)
		MPI_Comm_free(&comm);
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
