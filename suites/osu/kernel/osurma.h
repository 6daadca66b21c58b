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
#include "chk.h"

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

/* mb_osr_dynamic creates a dynamic window on comm with bytes at base
 * attached, as allocate_memory_one_sided does, and gives in *disp the
 * address of peer's memory, exchanged with tag 1, the lower rank sending
 * first (0 and no exchange for peer < 0). Here and in osuatom.c. */
int mb_osr_dynamic(MPI_Comm comm, int rank, int peer, void *base, MPI_Aint bytes, MPI_Win *win, MPI_Aint *disp);

/* mb_osr_open and mb_osr_close are a passive-target iteration's calls
 * around its operations on rank 1 under sync: MPI_Win_lock (lock_type)
 * or MPI_Win_lock_all before; MPI_Win_flush, MPI_Win_flush_local (inside
 * the one lock flush and flush_local hold around the loop),
 * MPI_Win_unlock or MPI_Win_unlock_all after. Always inlined: they are
 * in the timed loops of osurma.c and osuatom.c. */
static inline __attribute__((always_inline)) int mb_osr_open(int sync, int lock_type, MPI_Win win)
{
	if (sync == MB_OSR_LOCK)
		CHK(MPI_Win_lock(lock_type, 1, 0, win));
	else if (sync == MB_OSR_LOCK_ALL)
		CHK(MPI_Win_lock_all(0, win));
	return MPI_SUCCESS;
}

static inline __attribute__((always_inline)) int mb_osr_close(int sync, MPI_Win win)
{
	if (sync == MB_OSR_FLUSH)
		CHK(MPI_Win_flush(1, win));
	else if (sync == MB_OSR_FLUSH_LOCAL)
		CHK(MPI_Win_flush_local(1, win));
	else if (sync == MB_OSR_LOCK)
		CHK(MPI_Win_unlock(1, win));
	else
		CHK(MPI_Win_unlock_all(win));
	return MPI_SUCCESS;
}

#endif
