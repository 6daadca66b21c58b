/* osudriver.c: mpibench's OSU point-to-point kernels
 * (suites/osu/kernel/osu.c) driven from a plain C main, without Go: the C
 * experiment that tells a gap between `mpibench osu` and OSU's own binary
 * caused by the kernel or its buffers (this program shows it too) from
 * one caused by the Go process around them (this program does not).
 *
 * Usage: mpicc -O2 -Impi -Isuites/osu/kernel -o osudriver lab/osudriver.c \
 *          suites/osu/kernel/osu.c mpi/chk.c mpi/settle.c -lpthread
 *        mpirun -np 2 ./osudriver bw|bibw|latency SIZE [ITERS SKIP WINDOW]
 * Defaults are OSU 7.4's counts at SIZE (counts, below) and window 64. The
 * buffers are allocated as mpibench allocates them (mpi.Alloc:
 * posix_memalign 4096, SIZE bytes each). Prints OSU's row: the size and
 * MB/s (bw, bibw) or µs (latency). See docs/lab.md, "Side by side with the peers". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "osu.h"

static void *alloc(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, n ? n : 1) != 0) {
		fprintf(stderr, "osudriver: cannot allocate %zu bytes\n", n);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(p, 0, n ? n : 1);
	return p;
}

/* counts are OSU 7.4's defaults (osu_util.h, as osu/bench.go): bandwidth
 * tests BW_LOOP_SMALL 100 and BW_SKIP_SMALL 10 up to 8 KiB, 20 and 2
 * above; latency LAT_LOOP_SMALL 10000 and 100, 1000 and 10 above. */
static void counts(int kind, long long size, int *iters, int *skip)
{
	int large = size > 8192;
	if (kind == MB_OSU_LATENCY) {
		*iters = large ? 1000 : 10000;
		*skip = large ? 10 : 100;
	} else {
		*iters = large ? 20 : 100;
		*skip = large ? 2 : 10;
	}
}

int main(int argc, char **argv)
{
	int rank, size_np;
	mb_osu k;
	void *s, *r;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size_np);
	if (argc < 3 || size_np != 2) {
		if (rank == 0)
			fprintf(stderr, "usage: mpirun -np 2 osudriver bw|bibw|latency SIZE [ITERS SKIP WINDOW]\n");
		MPI_Finalize();
		return 2;
	}
	memset(&k, 0, sizeof k);
	k.comm = MPI_COMM_WORLD;
	k.kind = strcmp(argv[1], "bibw") == 0 ? MB_OSU_BIBW : strcmp(argv[1], "bw") == 0 ? MB_OSU_BW : MB_OSU_LATENCY;
	k.type = MPI_CHAR;
	k.count = k.bytes = atoll(argv[2]);
	counts(k.kind, k.count, &k.iters, &k.skip);
	if (argc > 4) {
		k.iters = atoi(argv[3]);
		k.skip = atoi(argv[4]);
	}
	k.window = argc > 5 ? atoi(argv[5]) : 64;
	k.nbufs = 1;
	s = alloc((size_t)k.bytes);
	r = alloc((size_t)k.bytes);
	k.sbuf = &s;
	k.rbuf = &r;
	k.reqs = alloc(2 * (size_t)k.window * sizeof(MPI_Request));
	k.stats = alloc((size_t)k.window * sizeof(MPI_Status));
	if (mb_osu_run(&k) != MPI_SUCCESS)
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (rank == 0) {
		double v = k.kind == MB_OSU_LATENCY ? k.time * 1e6 / (2.0 * k.iters)
			   : (double)k.bytes / 1e6 * k.iters * k.window * (k.kind == MB_OSU_BIBW ? 2 : 1) / k.time;
		printf("%-10lld %.2f\n", k.bytes, v);
	}
	MPI_Finalize();
	return 0;
}
