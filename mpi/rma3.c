//go:build cgo && !nompi

#include <string.h>
#include "rma3.h"
#include "chk.h"
#include "mutant.h"
#include "check.h"
#include "nbc.h"

/* A rank's part in a sample: its size and rank in comm and whether it
 * issues transfers. */
typedef struct {
	int p, r, origin;
} role;

static role role_of(const mb_rma3 *k, int p, int r)
{
	role o = {p, r, 1};
	if (k->flow == MB_RMA3_ONE_ALL || k->flow == MB_RMA3_TRULY || (k->flow == MB_RMA3_PAIR && !k->bidir))
		o.origin = r == 0;
	if (k->flow == MB_RMA3_PAIR && r > 1)
		o.origin = 0;
	return o;
}

/* sends_to: whether origin o moves data to or from rank t's window. */
static int sends_to(const mb_rma3 *k, const role *ro, int o, int t)
{
	role x = role_of(k, ro->p, o);
	if (!x.origin || o == t)
		return 0;
	return k->flow != MB_RMA3_PAIR || t == 1 - o;
}

/* nslots: the repetitions a checked run moves, twice nrep for
 * Truly_passive_put's two loops. */
static inline int nslots(const mb_rma3 *k) { return k->flow == MB_RMA3_TRULY ? 2 * k->nrep : k->nrep; }

/* halves: Exchange moves two blocks per repetition, one per neighbour. */
static inline int halves(const mb_rma3 *k) { return k->flow == MB_RMA3_EXCH ? 2 : 1; }

static inline int is_get(const mb_rma3 *k) { return k->op == MB_RMA3_GET; }

static inline int unit(const mb_rma3 *k) { return k->op >= MB_RMA3_ACC ? 4 : 1; }

/* slot is the item offset of repetition i's data of rank owner, half h,
 * in a checked run; in the timed run h*count: IMB moves every repetition
 * at displacement 0 (without -off_cache), Exchange's second block at
 * count. */
static inline MPI_Aint slot(const mb_rma3 *k, const role *ro, int chk, int i, int owner, int h)
{
	return chk ? (((MPI_Aint)i * ro->p + owner) * halves(k) + h) * k->count : (MPI_Aint)h * k->count;
}

static const int cas_compare = 0;

/* xfer issues repetition i's transfer between this origin and target t.
 * The switch on k->op is decided identically on every transfer: a
 * predicted branch next to an MPI call. */
static inline __attribute__((always_inline)) int xfer(const mb_rma3 *k, const role *ro, int chk, int i, int t, int h,
						       MPI_Win win)
{
	int owner = is_get(k) ? t : ro->r, count = k->count;
	MPI_Aint disp = slot(k, ro, chk, i, owner, h), tdisp = disp, witems = k->wsize / unit(k);
	char *o = (char *)k->obuf + disp * unit(k);
	if (MUTANT(MB_MUT_RMA_OFFSET)) {
		/* Test-only broken kernel: the target displacement one item too
		 * far, the transfer cut at the window's end. */
		tdisp += 1;
		if (tdisp + count > witems)
			count = tdisp < witems ? (int)(witems - tdisp) : 0;
		if (count == 0 && k->op >= MB_RMA3_FOP)
			return MPI_SUCCESS; /* one element, none left in the window */
	}
	switch (k->op) {
	case MB_RMA3_PUT:
		return MPI_Put(o, count, MPI_BYTE, t, tdisp, count, MPI_BYTE, win);
	case MB_RMA3_GET:
		return MPI_Get(o, count, MPI_BYTE, t, tdisp, count, MPI_BYTE, win);
	case MB_RMA3_ACC:
		return MPI_Accumulate(o, count, MPI_FLOAT, t, tdisp, count, MPI_FLOAT, MPI_SUM, win);
	case MB_RMA3_GACC:
		/* The old values land in the origin's window memory, as IMB's
		 * r_buffer. */
		return MPI_Get_accumulate(o, count, MPI_FLOAT, (char *)k->wbuf + disp * 4, count, MPI_FLOAT, t, tdisp,
					  count, MPI_FLOAT, MPI_SUM, win);
	case MB_RMA3_FOP:
		return MPI_Fetch_and_op(o, (char *)k->wbuf + disp * 4, MPI_FLOAT, t, tdisp, MPI_SUM, win);
	case MB_RMA3_CAS:
		/* Compared with 0: in a checked run the target holds the zeros
		 * it was prepared with, so every swap happens. */
		return MPI_Compare_and_swap(o, &cas_compare, (char *)k->wbuf + disp * 4, MPI_INT, t, tdisp, win);
	}
	return MPI_ERR_ARG;
}

/* bad_zeros counts the nonzero floats of n. */
static long long bad_zeros(const float *f, long long n)
{
	long long j, bad = 0;
	for (j = 0; j < n; j++)
		bad += f[j] != 0;
	return bad;
}

/* verify counts the wrong items of repetition i that arrived at this rank
 * from rank s: in the window after a put, in the origin buffer after a
 * get; Accumulate sums rank s's floats into zeros, and only rank 0
 * accumulates (mb_bad_sums over ranks 0..0). */
static long long verify(const mb_rma3 *k, const role *ro, int i, int s, int h)
{
	const char *buf = is_get(k) ? k->obuf : k->wbuf;
	buf += slot(k, ro, 1, i, s, h) * unit(k);
	if (k->op >= MB_RMA3_ACC)
		return mb_bad_sums((const float *)buf, k->count, 1, i, 0); /* s is 0 */
	return mb_bad_bytes(buf, k->count, s, i, (long long)h * k->count);
}

/* pair runs a one-target loop (Unidir, Bidir, Put_local, Get_local): a
 * shared lock on the partner, the transfers, MPI_Win_flush (or
 * _flush_local) after every one or once after all, unlock. With chk a
 * non-aggregate get is verified after each flush. */
static inline __attribute__((always_inline)) int pair(const mb_rma3 *k, const role *ro, int chk, int n, int aggr,
						       MPI_Win win, double *t, long long *bad)
{
	int i, tg = 1 - ro->r;
	double t0;
	CHK(MPI_Win_lock(MPI_LOCK_SHARED, tg, 0, win));
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		CHK(xfer(k, ro, chk, i, tg, 0, win));
		if (!aggr) {
			CHK(k->local ? MPI_Win_flush_local(tg, win) : MPI_Win_flush(tg, win));
			if (chk && is_get(k))
				*bad += verify(k, ro, i, tg, 0);
		}
	}
	if (aggr)
		CHK(k->local ? MPI_Win_flush_local(tg, win) : MPI_Win_flush(tg, win));
	*t = (MPI_Wtime() - t0) / (n > 0 ? n : 1);
	if (chk && is_get(k) && aggr)
		for (i = 0; i < n; i++)
			*bad += verify(k, ro, i, tg, 0);
	if (chk && k->op >= MB_RMA3_GACC) /* the old values: the target's zeros */
		for (i = 0; i < n; i++)
			*bad += bad_zeros((const float *)k->wbuf + slot(k, ro, 1, i, ro->r, 0), k->count);
	return MPI_Win_unlock(tg, win);
}

/* all runs a loop over every other rank (One_/All_put_all, _get_all,
 * Put_/Get_all_local): MPI_Win_lock_all, every repetition a transfer to
 * each other rank, starting after this one so that the origins spread over
 * the targets, one MPI_Win_flush_all (or _flush_local_all), unlock_all. */
static inline __attribute__((always_inline)) int all(const mb_rma3 *k, const role *ro, int chk, int n, MPI_Win win,
						      double *t)
{
	int i, peer;
	double t0;
	CHK(MPI_Win_lock_all(0, win));
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++)
		for (peer = 1; peer < ro->p; peer++)
			CHK(xfer(k, ro, chk, i, (peer + ro->r) % ro->p, 0, win));
	CHK(k->local ? MPI_Win_flush_local_all(win) : MPI_Win_flush_all(win));
	*t = (MPI_Wtime() - t0) / (n > 0 ? n : 1);
	return MPI_Win_unlock_all(win);
}

/* flush2 completes the transfers to both neighbours (one when they are
 * the same rank, as IMB does with two processes). */
static inline int flush2(int left, int right, MPI_Win win)
{
	CHK(MPI_Win_flush(left, win));
	return left == right ? MPI_SUCCESS : MPI_Win_flush(right, win);
}

/* exch is Exchange_put/_get: shared locks on both neighbours, then per
 * repetition a block to the left neighbour at displacement 0 and one to
 * the right at count (put), or from the right at 0 and from the left at
 * count (get), and MPI_Win_flush of both. */
static inline __attribute__((always_inline)) int exch(const mb_rma3 *k, const role *ro, int chk, int n, MPI_Win win,
						       double *t)
{
	int i, left = (ro->r + ro->p - 1) % ro->p, right = (ro->r + 1) % ro->p;
	int first = is_get(k) ? right : left, second = is_get(k) ? left : right;
	double t0;
	CHK(MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win));
	if (right != left)
		CHK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		CHK(xfer(k, ro, chk, i, first, 0, win));
		CHK(xfer(k, ro, chk, i, second, 1, win));
		CHK(flush2(left, right, win));
	}
	*t = (MPI_Wtime() - t0) / (n > 0 ? n : 1);
	CHK(MPI_Win_unlock(left, win));
	return right == left ? MPI_SUCCESS : MPI_Win_unlock(right, win);
}

/* truly_origin is IMB_put_origin: per repetition a put, MPI_Win_flush and
 * a barrier that meets the target; repetitions first..first+n-1 in a
 * checked run. */
static inline __attribute__((always_inline)) int truly_origin(const mb_rma3 *k, const role *ro, int chk, int n,
							       int first, MPI_Win win, double *t)
{
	int i;
	double t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		CHK(xfer(k, ro, chk, first + i, 1, 0, win));
		CHK(MPI_Win_flush(1, win));
		CHK(MPI_Barrier(k->comm));
	}
	*t = (MPI_Wtime() - t0) / (n > 0 ? n : 1);
	return MPI_SUCCESS;
}

/* truly_target is IMB_put_target: per repetition CPU work (none in the
 * first loop), then the barrier. */
static int truly_target(const mb_rma3 *k, int n, long long passes)
{
	int i;
	for (i = 0; i < n; i++) {
		if (passes > 0)
			mb_nbc_cpu(passes);
		CHK(MPI_Barrier(k->comm));
	}
	return MPI_SUCCESS;
}

/* truly is IMB_rma_passive_put: rank 0 holds a shared lock on rank 1 and
 * times its loop while rank 1 waits in MPI_Barrier (t_pure), sends t_pure
 * to rank 1, and times it again while rank 1 computes for t_pure before
 * each barrier (t_ovrl): a library that needs the target inside MPI to
 * complete a put shows t_ovrl well above t_pure. */
static inline __attribute__((always_inline)) int truly(const mb_rma3 *k, const role *ro, int chk, int n, MPI_Win win,
							double *t, double *tpure)
{
	double tp = 0;
	CHK(MPI_Barrier(k->comm));
	if (ro->r == 0) {
		CHK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
		CHK(truly_origin(k, ro, chk, n, 0, win, tpure));
		CHK(MPI_Send(tpure, 1, MPI_DOUBLE, 1, 1, k->comm));
		CHK(MPI_Barrier(k->comm));
		CHK(truly_origin(k, ro, chk, n, n, win, t));
		return MPI_Win_unlock(1, win);
	}
	CHK(truly_target(k, n, 0));
	CHK(MPI_Recv(&tp, 1, MPI_DOUBLE, 0, 1, k->comm, MPI_STATUS_IGNORE));
	CHK(MPI_Barrier(k->comm));
	/* IMB_cpu_exploit(t_pure, 0): about t_pure of work, at least a pass. */
	return truly_target(k, n, tp > 0 ? (long long)(tp * k->cpu_rate) + 1 : 0);
}

/* once is one call of IMB's kernel function: N_BARR barriers, the loop on
 * the origins, a barrier that lets the targets wait for them. */
static inline __attribute__((always_inline)) int once(const mb_rma3 *k, const role *ro, int chk, int n, int aggr,
						       MPI_Win win, double *t, double *tpure, long long *bad)
{
	int i;
	*t = *tpure = -1;
	CHK(MUTANT_MPI_ERROR(k->comm));
	if (k->flow == MB_RMA3_TRULY)
		return truly(k, ro, chk, n, win, t, tpure);
	for (i = 0; i < k->nbarr; i++)
		CHK(MPI_Barrier(k->comm));
	if (ro->origin) {
		if (k->flow == MB_RMA3_PAIR)
			CHK(pair(k, ro, chk, n, aggr, win, t, bad));
		else if (k->flow == MB_RMA3_EXCH)
			CHK(exch(k, ro, chk, n, win, t));
		else
			CHK(all(k, ro, chk, n, win, t));
	}
	return MPI_Barrier(k->comm);
}

/* prepare fills this rank's data slots with its pattern and poisons
 * where data arrives; chk_after verifies every slot that arrived and was
 * not verified inside the loop. */
static void prepare(const mb_rma3 *k, const role *ro)
{
	char *data = is_get(k) ? k->wbuf : k->obuf, *land = is_get(k) ? k->obuf : k->wbuf;
	long long size = (long long)nslots(k) * ro->p * halves(k) * k->count * unit(k);
	int i, h, nsl = nslots(k);
	if (k->op >= MB_RMA3_ACC)
		memset(land, 0, (size_t)size); /* Accumulate sums into zeros */
	else
		mb_poison(land, size);
	for (i = 0; i < nsl; i++) {
		MPI_Aint at = slot(k, ro, 1, i, ro->r, 0);
		if (k->op >= MB_RMA3_ACC)
			mb_fill_floats((float *)data + at, k->count, ro->r, i, 0);
		else
			for (h = 0; h < halves(k); h++)
				mb_fill_bytes(data + slot(k, ro, 1, i, ro->r, h), k->count, ro->r, i, (long long)h * k->count);
		if (k->op >= MB_RMA3_GACC && ro->origin) /* where the old values land */
			mb_poison((float *)land + at, (long long)k->count * 4);
	}
}

static long long chk_after(const mb_rma3 *k, const role *ro)
{
	long long bad = 0;
	int i, s;
	if (k->flow == MB_RMA3_EXCH) {
		/* A put's first block goes left, so this rank's half 0 comes
		 * from its right neighbour, half 1 from its left; a get takes
		 * half 0 from the right neighbour, half 1 from the left. */
		int left = (ro->r + ro->p - 1) % ro->p, right = (ro->r + 1) % ro->p;
		for (i = 0; i < k->nrep; i++)
			bad += verify(k, ro, i, right, 0) + verify(k, ro, i, left, 1);
		return bad;
	}
	if (is_get(k) && (k->flow == MB_RMA3_PAIR || !ro->origin))
		return 0; /* verified by pair(), or nothing arrived */
	for (s = 0; s < ro->p; s++) {
		int from = is_get(k) ? sends_to(k, ro, ro->r, s) : sends_to(k, ro, s, ro->r);
		for (i = 0; from && i < nslots(k); i++)
			bad += verify(k, ro, i, s, 0);
	}
	return bad;
}

static inline __attribute__((always_inline)) int run(const mb_rma3 *k, int chk, double *t, double *tpure,
						      long long *bad)
{
	MPI_Win win;
	role ro;
	int p, r, rc;
	double tw, twp;
	CHK(MPI_Comm_size(k->comm, &p));
	CHK(MPI_Comm_rank(k->comm, &r));
	ro = role_of(k, p, r);
	if (chk)
		prepare(k, &ro);
	CHK(MPI_Win_create(k->wbuf, k->wsize, unit(k), MPI_INFO_NULL, k->comm, &win));
	CHK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	/* IMB_warm_up.c: the kernel function in its first run mode
	 * (non-aggregate) with a tenth of the repetitions. A checked run has
	 * none: it would write the slots the check expects from the loop. */
	rc = chk || k->nwarm == 0 ? MPI_SUCCESS : once(k, &ro, 0, k->nwarm, 0, win, &tw, &twp, bad);
	if (rc == MPI_SUCCESS)
		rc = once(k, &ro, chk, k->nrep, k->aggregate, win, t, tpure, bad);
	if (rc != MPI_SUCCESS)
		return rc; /* the window is not freed: MPI_Win_free is collective and the job aborts */
	CHK(MPI_Win_free(&win));
	if (chk)
		*bad += chk_after(k, &ro);
	return MPI_SUCCESS;
}

int mb_rma3_run(const mb_rma3 *kp, int chk, double *t, double *tpure, long long *defects)
{
	mb_rma3 k = *kp; /* a local copy: MPI calls could alias *kp as far as the compiler knows */
	*defects = 0;
	return chk ? run(&k, 1, t, tpure, defects) : run(&k, 0, t, tpure, defects);
}
