/* imbdriver.c: mpibench's IMB 3.0 kernels (suites/imb/kernel/kernels.c) driven from a
 * plain C main, without Go: the C experiment that tells a gap between
 * `mpibench mpi1` and IMB-MPI1 caused by the kernel or its buffers (this
 * program shows it too) from one caused by the Go process around them
 * (this program does not).
 *
 * Usage: mpicc -O2 -Impi -Isuites/imb/kernel -o imbdriver lab/imbdriver.c \
 *            suites/imb/kernel/kernels.c suites/imb/kernel/slots.c suites/imb/kernel/imbbarrier.c \
 *            mpi/check.c mpi/chk.c mpi/settle.c -lpthread
 *        mpirun -np 2 ./imbdriver KERNEL[,KERNEL...] LEN...
 * KERNEL is PingPong, PingPing, Bcast or Reduce; several, comma-separated,
 * run one after the other in one process, as one mpi1 launch runs them.
 * As mpibench's mpi1 runs them: one send and one receive buffer of the
 * longest length (posix_memalign 4096, as mpi.Alloc), the warm-up of IMB 3.0
 * (one sample at the longest length, untimed), then per length IMB 3.0's
 * count, min(1000, 40 MiB / LEN), after N_BARR = 2 barriers, the root
 * cycling from 0 (Bcast, Reduce: floats). Prints rank 0's time per
 * repetition in µs per length (for Bcast and Reduce the mean over ranks,
 * IMB's t_avg). See docs/lab.md, "Side by side with the peers". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"

static void *alloc(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, n ? n : 1) != 0)
		MPI_Abort(MPI_COMM_WORLD, 1);
	memset(p, 0, n ? n : 1);
	return p;
}

static int kind_of(const char *s)
{
	if (strcmp(s, "PingPing") == 0)
		return MB_PINGPING;
	if (strcmp(s, "Bcast") == 0)
		return MB_BCAST;
	if (strcmp(s, "Reduce") == 0)
		return MB_REDUCE;
	return MB_PINGPONG;
}

static double sample(mb_kernel *k, long long len)
{
	double t = 0;
	int red = k->kind == MB_REDUCE;
	k->count = (int)(red ? len / 4 : len);
	k->nrep = len ? (int)(40LL * 1024 * 1024 / len) : 1000;
	if (k->nrep > 1000)
		k->nrep = 1000;
	if (mb_run(k, &t) != MPI_SUCCESS)
		MPI_Abort(MPI_COMM_WORLD, 1);
	return t;
}

/* bench runs one benchmark as mpi1 does: its own buffers, the warm-up,
 * then each length. */
static void bench(const char *name, int nlen, char **lens, long long max, int rank, int np)
{
	mb_kernel k;
	int i;
	memset(&k, 0, sizeof k);
	k.comm = MPI_COMM_WORLD;
	k.kind = kind_of(name);
	k.sbuf = alloc((size_t)max + (getenv("PAD") ? 8192 : 0));
	k.rbuf = alloc((size_t)max + (getenv("PAD") ? 8192 : 0));
	k.sbuf = (char *)k.sbuf + (getenv("SOFF") ? atoi(getenv("SOFF")) : 0);
	k.rbuf = (char *)k.rbuf + (getenv("ROFF") ? atoi(getenv("ROFF")) : 0);
	if (rank == 0 && getenv("SHOWBUF"))
		printf("%s sbuf %p rbuf %p\n", name, k.sbuf, k.rbuf);
	k.nbarr = 2;
	sample(&k, max); /* IMB 3.0's warm-up */
	for (i = 0; i < nlen; i++) {
		double t = sample(&k, atoll(lens[i])), sum = 0;
		MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		if (k.kind == MB_PINGPONG)
			t /= 2;
		if (k.kind == MB_BCAST || k.kind == MB_REDUCE)
			t = sum / np;
		if (rank == 0)
			printf("%-10s %-10s %.2f\n", name, lens[i], t * 1e6);
	}
}

int main(int argc, char **argv)
{
	int rank, np, i;
	long long max = 0;
	char *name;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc < 3) {
		if (rank == 0)
			fprintf(stderr, "usage: imbdriver PingPong|PingPing|Bcast|Reduce LEN...\n");
		MPI_Finalize();
		return 2;
	}
	for (i = 2; i < argc; i++)
		if (atoll(argv[i]) > max)
			max = atoll(argv[i]);
	for (name = strtok(argv[1], ","); name; name = strtok(NULL, ","))
		bench(name, argc - 2, argv + 2, max, rank, np);
	MPI_Finalize();
	return 0;
}
