//go:build cgo && !nompi

#include "osurma.h"
#include "chk.h"

/* The loops follow osu_put_latency.c and its siblings call for call: the
 * clock is read at the top of iteration skip (under pscw after
 * MPI_Win_start, where OSU reads it) and after the last, and, as OSU
 * does in every timed iteration, around each iteration for -z. */

/* ops issues the window's operations of one iteration to target: operation
 * j moves size bytes between buf + j*size and disp + j*size. */
static inline int ops(const mb_osr *k, int target, MPI_Aint disp, MPI_Win win)
{
	int j, n = (int)k->size;
	for (j = 0; j < k->window; j++) {
		char *b = k->buf + (long long)j * k->size;
		MPI_Aint d = disp + (MPI_Aint)j * (MPI_Aint)k->size;
		if (k->op == MB_OSR_PUT)
			CHK(MPI_Put(b, n, MPI_CHAR, target, d, n, MPI_CHAR, win));
		else
			CHK(MPI_Get(b, n, MPI_CHAR, target, d, n, MPI_CHAR, win));
	}
	return MPI_SUCCESS;
}

/* paired says whether k's loop pairs r < pairs with r + pairs. */
static inline int paired(const mb_osr *k)
{
	return k->shape == MB_OSR_MULTI || (k->shape == MB_OSR_MBW && k->sync == MB_OSR_PSCW);
}

/* partner is the rank whose window this rank's operations reach, or that
 * reaches this rank's; -1 for a rank outside the test. */
static int partner(const mb_osr *k, int rank)
{
	if (paired(k))
		return rank < k->pairs ? rank + k->pairs : rank < 2 * k->pairs ? rank - k->pairs : -1;
	return rank < 2 ? 1 - rank : -1;
}

/* window creates k's window of size * window bytes on every rank as
 * allocate_memory_one_sided does, and gives the displacement of the
 * partner's memory (dynamic windows: its address, exchanged with tag 1,
 * the lower rank sending first). OSU exchanges between ranks 0 and 1
 * only, so that its paired tests on more than two ranks wait forever
 * with -w dynamic; here every pair exchanges. */
static int window(mb_osr *k, int rank, MPI_Win *win, MPI_Aint *disp, void **base)
{
	MPI_Aint bytes = (MPI_Aint)k->size * k->window;
	int peer = partner(k, rank);
	*disp = 0;
	*base = k->base;
	switch (k->win) {
	case MB_OSR_CREATE:
		return MPI_Win_create(k->base, bytes, 1, MPI_INFO_NULL, k->comm, win);
	case MB_OSR_ALLOCATE:
		return MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, k->comm, base, win);
	}
	return mb_osr_dynamic(k->comm, rank, peer, k->base, bytes, win, disp);
}

int mb_osr_dynamic(MPI_Comm comm, int rank, int peer, void *base, MPI_Aint bytes, MPI_Win *win, MPI_Aint *disp)
{
	MPI_Aint local, remote = 0;
	*disp = 0;
	CHK(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, win));
	CHK(MPI_Win_attach(*win, base, bytes));
	CHK(MPI_Get_address(base, &local));
	if (peer < 0)
		return MPI_SUCCESS;
	if (rank < peer) {
		CHK(MPI_Send(&local, 1, MPI_AINT, peer, 1, comm));
		CHK(MPI_Recv(&remote, 1, MPI_AINT, peer, 1, comm, MPI_STATUS_IGNORE));
	} else {
		CHK(MPI_Recv(&remote, 1, MPI_AINT, peer, 1, comm, MPI_STATUS_IGNORE));
		CHK(MPI_Send(&local, 1, MPI_AINT, peer, 1, comm));
	}
	*disp = remote;
	return MPI_SUCCESS;
}

/* passive is rank 0's loop under the passive-target synchronisations:
 * one lock around the loop (flush, flush_local) or one per iteration
 * (lock, lock_all). */
static int passive(mb_osr *k, MPI_Aint disp, MPI_Win win)
{
	double t0 = 0, ts = 0;
	int i, sync = k->sync;
	if (sync == MB_OSR_FLUSH || sync == MB_OSR_FLUSH_LOCAL)
		CHK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
	for (i = 0; i < k->skip + k->iters; i++) {
		if (i == k->skip)
			t0 = MPI_Wtime();
		if (i >= k->skip)
			ts = MPI_Wtime();
		CHK(mb_osr_open(sync, MPI_LOCK_SHARED, win));
		CHK(ops(k, 1, disp, win));
		CHK(mb_osr_close(sync, win));
		if (i >= k->skip)
			k->samples[i - k->skip] = MPI_Wtime() - ts;
	}
	k->time = MPI_Wtime() - t0;
	if (sync == MB_OSR_FLUSH || sync == MB_OSR_FLUSH_LOCAL)
		CHK(MPI_Win_unlock(1, win));
	return MPI_SUCCESS;
}

/* fence is one rank's loop under MPI_Win_fence. Latency: rank 0 puts or
 * gets between its first two fences, rank 1 between its second and third
 * (three fences an iteration). Bandwidth: rank 0 issues the window
 * between two fences, rank 1 only fences; osu_put_bibw: both issue. */
static int fence(mb_osr *k, int rank, MPI_Aint disp, MPI_Win win)
{
	double t0 = 0, ts = 0;
	int i, lat = k->shape == MB_OSR_LAT;
	int mine = rank == 0 || k->shape == MB_OSR_BIBW;
	for (i = 0; i < k->skip + k->iters; i++) {
		if (rank == 0 && i == k->skip)
			t0 = MPI_Wtime();
		if (rank == 0 && i >= k->skip)
			ts = MPI_Wtime();
		CHK(MPI_Win_fence(0, win));
		if (mine)
			CHK(ops(k, 1 - rank, disp, win));
		CHK(MPI_Win_fence(0, win));
		if (lat && rank == 1)
			CHK(ops(k, 0, disp, win));
		if (lat)
			CHK(MPI_Win_fence(0, win));
		if (rank == 0 && i >= k->skip)
			k->samples[i - k->skip] = MPI_Wtime() - ts;
	}
	if (rank == 0)
		k->time = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

/* pscw0 is rank 0's loop under post/start/complete/wait. Latency: its
 * access epoch, then an exposure epoch for rank 1's operation; bandwidth:
 * access epochs only; osu_put_bibw: both at once. The clock starts after
 * MPI_Win_start except in osu_put_bibw, where OSU reads it first. */
static int pscw0(mb_osr *k, MPI_Group g, MPI_Aint disp, MPI_Win win)
{
	double t0 = 0, ts = 0;
	int i, bibw = k->shape == MB_OSR_BIBW;
	for (i = 0; i < k->skip + k->iters; i++) {
		if (bibw) {
			if (i == k->skip)
				t0 = MPI_Wtime();
			if (i >= k->skip)
				ts = MPI_Wtime();
			CHK(MPI_Win_post(g, 0, win));
		}
		CHK(MPI_Win_start(g, 0, win));
		if (!bibw && i == k->skip)
			t0 = MPI_Wtime();
		if (!bibw && i >= k->skip)
			ts = MPI_Wtime();
		CHK(ops(k, 1, disp, win));
		CHK(MPI_Win_complete(win));
		if (k->shape == MB_OSR_LAT)
			CHK(MPI_Win_post(g, 0, win));
		if (k->shape != MB_OSR_BW)
			CHK(MPI_Win_wait(win));
		if (i >= k->skip)
			k->samples[i - k->skip] = MPI_Wtime() - ts;
	}
	k->time = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

/* pscw1 is rank 1's loop, the mirror of pscw0's. */
static int pscw1(mb_osr *k, MPI_Group g, MPI_Aint disp, MPI_Win win)
{
	int i;
	for (i = 0; i < k->skip + k->iters; i++) {
		CHK(MPI_Win_post(g, 0, win));
		if (k->shape == MB_OSR_BW) {
			CHK(MPI_Win_wait(win));
			continue;
		}
		if (k->shape == MB_OSR_LAT)
			CHK(MPI_Win_wait(win));
		CHK(MPI_Win_start(g, 0, win));
		CHK(ops(k, 0, disp, win));
		CHK(MPI_Win_complete(win));
		if (k->shape == MB_OSR_BIBW)
			CHK(MPI_Win_wait(win));
	}
	return MPI_SUCCESS;
}

/* pairs is the loop of osu_get_mbw under pscw and of osu_get_multi_lat:
 * an MPI_Barrier of all ranks before each iteration; origin r < pairs
 * gets from r + pairs, osu_get_mbw window operations in an access epoch
 * (the clock read before MPI_Win_start), osu_get_multi_lat one, then
 * an exposure epoch for its partner's get (the clock read after
 * MPI_Win_start, as in osu_get_latency). */
static int pairs(mb_osr *k, int rank, MPI_Group g, MPI_Aint disp, MPI_Win win)
{
	double t0 = 0, ts = 0;
	int i, multi = k->shape == MB_OSR_MULTI, peer = partner(k, rank), origin = rank < k->pairs;
	for (i = 0; i < k->skip + k->iters; i++) {
		CHK(MPI_Barrier(k->comm));
		if (!origin) {
			CHK(MPI_Win_post(g, 0, win));
			CHK(MPI_Win_wait(win));
			if (multi) {
				CHK(MPI_Win_start(g, 0, win));
				CHK(ops(k, peer, disp, win));
				CHK(MPI_Win_complete(win));
			}
			continue;
		}
		if (!multi && i == k->skip)
			t0 = MPI_Wtime();
		if (!multi && i >= k->skip)
			ts = MPI_Wtime();
		CHK(MPI_Win_start(g, 0, win));
		if (multi && i == k->skip)
			t0 = MPI_Wtime();
		if (multi && i >= k->skip)
			ts = MPI_Wtime();
		CHK(ops(k, peer, disp, win));
		CHK(MPI_Win_complete(win));
		if (multi) {
			CHK(MPI_Win_post(g, 0, win));
			CHK(MPI_Win_wait(win));
		}
		if (i >= k->skip)
			k->samples[i - k->skip] = MPI_Wtime() - ts;
	}
	if (origin)
		k->time = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

/* pscw makes the group of the partner and runs this rank's loop. */
static int pscw(mb_osr *k, int rank, MPI_Aint disp, MPI_Win win)
{
	MPI_Group world, g;
	int peer = partner(k, rank), rc;
	CHK(MPI_Comm_group(k->comm, &world));
	CHK(MPI_Group_incl(world, 1, &peer, &g));
	CHK(MPI_Group_free(&world));
	if (paired(k))
		rc = pairs(k, rank, g, disp, win);
	else
		rc = rank == 0 ? pscw0(k, g, disp, win) : pscw1(k, g, disp, win);
	CHK(rc);
	CHK(MPI_Group_free(&g));
	return MPI_SUCCESS;
}

int mb_osr_run(mb_osr *k)
{
	MPI_Win win;
	MPI_Aint disp;
	void *base;
	int rank, i, rc = MPI_SUCCESS, shape = k->shape;
	CHK(MPI_Comm_rank(k->comm, &rank));
	k->time = 0;
	if (shape == MB_OSR_MULTI)
		k->sync = MB_OSR_PSCW; /* osu_get_multi_lat reads -s and runs pscw whatever it says */
	if (shape == MB_OSR_MBW && k->sync != MB_OSR_PSCW)
		k->shape = MB_OSR_BW; /* osu_get_bw's loops on ranks 0 and 1 */
	CHK(window(k, rank, &win, &disp, &base));
	for (i = 0; i < k->pre_barriers; i++)
		CHK(MPI_Barrier(k->comm));
	switch (k->sync) {
	case MB_OSR_FENCE:
		rc = fence(k, rank, disp, win);
		break;
	case MB_OSR_PSCW:
		rc = pscw(k, rank, disp, win);
		break;
	default:
		if (rank == 0)
			rc = passive(k, disp, win);
	}
	k->shape = shape;
	CHK(rc);
	CHK(MPI_Barrier(k->comm));
	if (k->win == MB_OSR_DYNAMIC)
		CHK(MPI_Win_detach(win, k->base));
	CHK(MPI_Win_free(&win));
	return MPI_SUCCESS;
}
