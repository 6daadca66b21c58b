//go:build cgo && !nompi

#include <string.h>
#include "osuatom.h"
#include "osurma.h"
#include "chk.h"
#include "mutant.h"

/* The loop is written once, always inlined with a constant chk:
 * mb_osa_run instantiates it with chk = 0, OSU's calls between its clock
 * readings and nothing else; mb_osa_run_check with chk = 1, mpibench's
 * -c, where every repetition (warm-up ones included) is prepared by each
 * rank writing values of that repetition into its origin, result and
 * compare buffers and its window memory, then MPI_Barrier; the
 * repetition's synchronisation and operation calls run as timed; then,
 * outside the time, what the timed calls leave incomplete is completed
 * (flush_local: MPI_Win_flush), MPI_Barrier, and each rank verifies
 * every element of its window and of its result buffer against what the
 * operations that reached them must have left. The MUTANT branches are 0
 * in a normal build. */
#define LOOP static inline __attribute__((always_inline)) int

static MPI_Datatype dtype(const mb_osa *k)
{
	switch (k->type) {
	case MB_OSA_INT:
		return MPI_INT;
	case MB_OSA_FLOAT:
		return MPI_FLOAT;
	}
	return MPI_CHAR;
}

static int tsize(const mb_osa *k) { return k->type == MB_OSA_CHAR ? 1 : 4; }

/* The values of -c, small integers that char, int and float hold exactly
 * (every sum below 127): element j of rank r's operand, window, result
 * and compare buffers in repetition i. The result buffer's values are
 * none that a window holds before or after an operation, so a result not
 * written is seen; the compare value equals the target's window element
 * in two repetitions of three (the swap happens) and not in the third. */
static int sval(long long i, int r, long long j) { return 1 + (int)((i + 2 * j + 3 * r) % 7); }
static int wval(long long i, int r, long long j) { return 10 + (int)((i + j + 5 * r) % 13); }
static int tval(long long i, int r, long long j) { return 40 + (int)((i + 3 * j + r) % 11); }
static int cval(long long i, int target, long long j)
{
	return i % 3 == 2 ? wval(i, target, j) + 30 : wval(i, target, j);
}

static void put(const mb_osa *k, void *buf, long long j, int v)
{
	switch (k->type) {
	case MB_OSA_INT:
		((int *)buf)[j] = v;
		break;
	case MB_OSA_FLOAT:
		((float *)buf)[j] = (float)v;
		break;
	default:
		((char *)buf)[j] = (char)v;
	}
}

static int same(const mb_osa *k, const void *buf, long long j, int v)
{
	switch (k->type) {
	case MB_OSA_INT:
		return ((const int *)buf)[j] == v;
	case MB_OSA_FLOAT:
		return ((const float *)buf)[j] == (float)v;
	}
	return ((const char *)buf)[j] == (char)v;
}

/* setup writes rank's values of repetition i; peer is the rank its
 * operations target (CAS's compare values follow the target's window). */
static void setup(const mb_osa *k, int rank, int peer, long long i, void *wbase)
{
	long long j, n = k->bytes / tsize(k);
	for (j = 0; j < n; j++) {
		put(k, k->sbuf, j, sval(i, rank, j));
		put(k, wbase, j, wval(i, rank, j));
		if (k->tbuf)
			put(k, k->tbuf, j, tval(i, rank, j));
		if (k->cbuf)
			put(k, k->cbuf, j, cval(i, peer, j));
	}
}

/* verify checks rank's window and result buffer after repetition i:
 * targeted says whether peer's operation reached this rank's window,
 * origin whether this rank's own operation (on peer's window) ran. It
 * records the repetition as a trial, failed if any element is wrong. */
static void verify(mb_osa *k, int rank, int peer, long long i, void *wbase, int targeted, int origin)
{
	long long j, n = k->bytes / tsize(k);
	int bad = 0;
	for (j = 0; j < n && !bad; j++) {
		int w = wval(i, rank, j), t = tval(i, rank, j);
		if (targeted && j < k->count) {
			if (k->op == MB_OSA_CAS)
				w = cval(i, rank, j) == w ? sval(i, peer, j) : w;
			else
				w += sval(i, peer, j);
		}
		if (origin && k->op != MB_OSA_ACC && j < k->count)
			t = wval(i, peer, j); /* the target's value before the operation */
		bad = !same(k, wbase, j, w) || (k->tbuf && !same(k, k->tbuf, j, t));
	}
	k->trials++;
	if (bad) {
		k->failures++;
		if (!k->first)
			k->first = k->trials;
		k->last = k->trials;
	}
}

/* op issues the operation on target's window at disp. */
static inline int op(const mb_osa *k, int target, MPI_Aint disp, MPI_Win win)
{
	MPI_Datatype t = dtype(k);
	MPI_Op sum = MUTANT(MB_MUT_OSU_ACC_OP) ? MPI_REPLACE : MPI_SUM;
	int n = MUTANT(MB_MUT_OSU_ACC_SHORT) ? k->count - 1 : k->count;
	switch (k->op) {
	case MB_OSA_ACC:
		return MPI_Accumulate(k->sbuf, n, t, target, disp, n, t, sum, win);
	case MB_OSA_GACC:
		return MPI_Get_accumulate(k->sbuf, n, t, k->tbuf, n, t, target, disp, n, t, sum, win);
	case MB_OSA_FOP:
		return MPI_Fetch_and_op(k->sbuf, k->tbuf, t, target, disp, sum, win);
	}
	if (MUTANT(MB_MUT_OSU_CAS_SWAP))
		return MPI_Compare_and_swap(k->cbuf, k->sbuf, k->tbuf, t, target, disp, win);
	return MPI_Compare_and_swap(k->sbuf, k->cbuf, k->tbuf, t, target, disp, win);
}

/* window creates the window as allocate_memory_one_sided and
 * allocate_atomic_memory do (dynamic: the addresses exchanged with tag
 * 1, rank 0 sending first) and fills memory MPI_Win_allocate gave. */
static int window(mb_osa *k, int rank, MPI_Win *win, MPI_Aint *disp, void **wbase)
{
	*disp = 0;
	*wbase = k->base;
	switch (k->win) {
	case MB_OSR_CREATE:
		return MPI_Win_create(k->base, k->bytes, 1, MPI_INFO_NULL, k->comm, win);
	case MB_OSR_ALLOCATE:
		CHK(MPI_Win_allocate(k->bytes, 1, MPI_INFO_NULL, k->comm, wbase, win));
		memset(*wbase, k->fill_w, (size_t)k->bytes);
		return MPI_SUCCESS;
	}
	return mb_osr_dynamic(k->comm, rank, 1 - rank, k->base, k->bytes, win, disp);
}

/* begin is -c's start of repetition i: the values written, MPI_Barrier. */
static int begin(mb_osa *k, int rank, long long i, void *wbase)
{
	setup(k, rank, 1 - rank, i, wbase);
	return MPI_Barrier(k->comm);
}

/* end is -c's end of repetition i: MPI_Barrier, then the verification. */
static int end(mb_osa *k, int rank, long long i, void *wbase, int targeted, int origin)
{
	CHK(MPI_Barrier(k->comm));
	verify(k, rank, 1 - rank, i, wbase, targeted, origin);
	return MPI_SUCCESS;
}

/* passive is the loop under lock, lock_all, flush and flush_local: rank 0
 * operates on rank 1 (one lock around the loop for flush and
 * flush_local, one per iteration for lock and lock_all); rank 1 takes
 * part only with -c, for its values and its verification. */
LOOP passive(mb_osa *k, int chk, int rank, MPI_Aint disp, MPI_Win win, void *wbase)
{
	double t0 = 0, ts = 0, sum = 0;
	int i, s = k->sync, lt = k->excl ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
	int held = s == MB_OSR_FLUSH || s == MB_OSR_FLUSH_LOCAL;
	if (rank != 0) {
		for (i = 0; chk && i < k->skip + k->iters; i++) {
			CHK(begin(k, rank, i, wbase));
			CHK(end(k, rank, i, wbase, 1, 0));
		}
		return MPI_SUCCESS;
	}
	if (held)
		CHK(MPI_Win_lock(lt, 1, 0, win));
	for (i = 0; i < k->skip + k->iters; i++) {
		if (chk)
			CHK(begin(k, rank, i, wbase));
		if (i == k->skip)
			t0 = MPI_Wtime();
		if (i >= k->skip)
			ts = MPI_Wtime();
		CHK(mb_osr_open(s, lt, win));
		CHK(op(k, 1, disp, win));
		CHK(mb_osr_close(s, win));
		if (i >= k->skip) {
			k->samples[i - k->skip] = MPI_Wtime() - ts;
			sum += k->samples[i - k->skip];
		}
		if (chk && s == MB_OSR_FLUSH_LOCAL)
			CHK(MPI_Win_flush(1, win)); /* flush_local completes at the origin only */
		if (chk)
			CHK(end(k, rank, i, wbase, 0, 1));
	}
	k->time = chk ? sum : MPI_Wtime() - t0;
	if (held)
		CHK(MPI_Win_unlock(1, win));
	return MPI_SUCCESS;
}

/* fence is one rank's loop under MPI_Win_fence: rank 0 operates between
 * an iteration's first two fences, rank 1 between its second and third. */
LOOP fence(mb_osa *k, int chk, int rank, MPI_Aint disp, MPI_Win win, void *wbase)
{
	double t0 = 0, ts = 0, sum = 0;
	int i;
	for (i = 0; i < k->skip + k->iters; i++) {
		if (chk)
			CHK(begin(k, rank, i, wbase));
		if (rank == 0 && i == k->skip)
			t0 = MPI_Wtime();
		if (rank == 0 && i >= k->skip)
			ts = MPI_Wtime();
		CHK(MPI_Win_fence(0, win));
		if (rank == 0)
			CHK(op(k, 1, disp, win));
		CHK(MPI_Win_fence(0, win));
		if (rank == 1)
			CHK(op(k, 0, disp, win));
		CHK(MPI_Win_fence(0, win));
		if (rank == 0 && i >= k->skip) {
			k->samples[i - k->skip] = MPI_Wtime() - ts;
			sum += k->samples[i - k->skip];
		}
		if (chk)
			CHK(end(k, rank, i, wbase, 1, 1));
	}
	if (rank == 0)
		k->time = chk ? sum : MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

/* pscw is one rank's loop under post/start/complete/wait: rank 0's
 * access epoch then an exposure epoch for rank 1's operation, the clock
 * read after MPI_Win_start; rank 1 the mirror. */
LOOP pscw(mb_osa *k, int chk, int rank, MPI_Group g, MPI_Aint disp, MPI_Win win, void *wbase)
{
	double t0 = 0, ts = 0, sum = 0;
	int i;
	for (i = 0; i < k->skip + k->iters; i++) {
		if (chk)
			CHK(begin(k, rank, i, wbase));
		if (rank == 0) {
			CHK(MPI_Win_start(g, 0, win));
			if (i == k->skip)
				t0 = MPI_Wtime();
			if (i >= k->skip)
				ts = MPI_Wtime();
			CHK(op(k, 1, disp, win));
			CHK(MPI_Win_complete(win));
			CHK(MPI_Win_post(g, 0, win));
			CHK(MPI_Win_wait(win));
			if (i >= k->skip) {
				k->samples[i - k->skip] = MPI_Wtime() - ts;
				sum += k->samples[i - k->skip];
			}
		} else {
			CHK(MPI_Win_post(g, 0, win));
			CHK(MPI_Win_wait(win));
			CHK(MPI_Win_start(g, 0, win));
			CHK(op(k, 0, disp, win));
			CHK(MPI_Win_complete(win));
		}
		if (chk)
			CHK(end(k, rank, i, wbase, 1, 1));
	}
	if (rank == 0)
		k->time = chk ? sum : MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

/* run: OSU's barriers before the window's creation, the window, its
 * barriers before the loop, the loop, MPI_Barrier, the window freed. */
LOOP run(mb_osa *k, int chk)
{
	MPI_Win win;
	MPI_Aint disp;
	MPI_Group world, g;
	void *wbase;
	int rank, peer, i, rc = MPI_SUCCESS;
	CHK(MPI_Comm_rank(k->comm, &rank));
	peer = 1 - rank;
	k->time = 0;
	k->trials = k->failures = k->first = k->last = 0;
	for (i = 0; i < k->pre_win; i++)
		CHK(MPI_Barrier(k->comm));
	CHK(window(k, rank, &win, &disp, &wbase));
	for (i = 0; i < k->pre_loop; i++)
		CHK(MPI_Barrier(k->comm));
	switch (k->sync) {
	case MB_OSR_FENCE:
		rc = fence(k, chk, rank, disp, win, wbase);
		break;
	case MB_OSR_PSCW:
		CHK(MPI_Comm_group(k->comm, &world));
		CHK(MPI_Group_incl(world, 1, &peer, &g));
		CHK(MPI_Group_free(&world));
		rc = pscw(k, chk, rank, g, disp, win, wbase);
		CHK(rc);
		CHK(MPI_Group_free(&g));
		break;
	default:
		rc = passive(k, chk, rank, disp, win, wbase);
	}
	CHK(rc);
	CHK(MPI_Barrier(k->comm));
	if (k->win == MB_OSR_DYNAMIC)
		CHK(MPI_Win_detach(win, k->base));
	CHK(MPI_Win_free(&win));
	return MPI_SUCCESS;
}

int mb_osa_run(mb_osa *k) { return run(k, 0); }

int mb_osa_run_check(mb_osa *k) { return run(k, 1); }
