/* OSU Micro-Benchmarks 7.4's one-sided loops (c/mpi/one-sided:
 * osu_put_latency.c, osu_get_latency.c, osu_put_bw.c, osu_get_bw.c,
 * osu_put_bibw.c, osu_get_mbw.c, osu_get_multi_lat.c): the window of one
 * size, its warm-up and timed iterations under one synchronisation, all
 * in C. Rank 0 is the origin and rank 1 the target, as OSU has them;
 * osu_get_multi_lat and osu_get_mbw under pscw pair rank r < pairs
 * (origin) with r + pairs (target). */
#ifndef MB_OSURMA_H
#define MB_OSURMA_H

#include <mpi.h>

/* The operation. */
enum mb_osr_op { MB_OSR_PUT, MB_OSR_GET };

/* The synchronisations, in the order of OSU's enum SYNC (osu_util.h). */
enum mb_osr_sync { MB_OSR_LOCK, MB_OSR_PSCW, MB_OSR_FENCE, MB_OSR_FLUSH, MB_OSR_FLUSH_LOCAL, MB_OSR_LOCK_ALL };

/* The window creations, in the order of OSU's enum WINDOW. */
enum mb_osr_win { MB_OSR_CREATE, MB_OSR_ALLOCATE, MB_OSR_DYNAMIC };

/* The shape of the loop: a latency test (one operation per iteration;
 * under fence and pscw both ranks take turns), a bandwidth test (window
 * operations per iteration from rank 0), osu_put_bibw (both ranks),
 * osu_get_mbw (osu_get_bw's loops on ranks 0 and 1, but under pscw every
 * pair, a barrier before each iteration), osu_get_multi_lat (every pair
 * under pscw, a barrier before each iteration, an operation each way). */
enum mb_osr_shape { MB_OSR_LAT, MB_OSR_BW, MB_OSR_BIBW, MB_OSR_MBW, MB_OSR_MULTI };

typedef struct {
	MPI_Comm comm;
	int op, sync, win, shape;
	long long size;   /* bytes of one operation (MPI_CHAR) */
	int window;       /* operations per iteration (-W; 1 for latency) */
	int iters, skip;  /* OSU's iterations and skip at this size */
	int pre_barriers; /* the MPI_Barrier calls OSU makes between the window's creation and the loop */
	int pairs;        /* osu_get_mbw, osu_get_multi_lat: np / 2 */
	char *buf;        /* size * window bytes: the origin buffer, 'a' */
	char *base;       /* size * window bytes: the window's memory for create and dynamic, 'a' */
	double *samples;  /* iters: each timed iteration's seconds on rank 0 */
	/* result */
	double time; /* an origin's seconds from the first timed iteration to the end of the last; 0 elsewhere */
} mb_osr;

/* mb_osr_run creates the window, runs the size and frees the window. */
int mb_osr_run(mb_osr *k);

#endif
