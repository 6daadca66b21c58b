//go:build cgo && !nompi

#include <string.h>
#include "rma3.h"
#include "settle.h"
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

/* -off_cache (IMB 2021.11): slot_at is the byte offset of slot i % iter,
 * offs bytes each; page_items is m = min(s_iter, r_iter), the repetitions
 * whose slots are distinct in both buffers; page the bytes of a checked
 * run's page (mb_rma3_run). */
static inline long long slot_at(int i, int iter, long long offs) { return (long long)(i % iter) * offs; }
static inline int page_items(const mb_rma3 *k) { return k->s_iter < k->r_iter ? k->s_iter : k->r_iter; }
static long long page(const mb_rma3 *k)
{
	long long s = (long long)k->s_iter * k->s_offs, r = (long long)k->r_iter * k->r_offs;
	return ((s > r ? s : r) + 3) / 4 * 4;
}

/* timed_at is the byte offset of half h of a repetition's data before
 * its -off_cache slot, as the timed run moves it: IMB moves every
 * repetition at displacement 0 (without -off_cache), Exchange's second
 * block at count. A checked run moves its data at timed_at + chk_at, so
 * that this arithmetic, the timed run's, is checked too (issue 24, gap
 * d); under the rma-half mutant Exchange's second block goes where the
 * first does. */
static inline MPI_Aint timed_at(const mb_rma3 *k, int h)
{
	if (MUTANT(MB_MUT_RMA_HALF))
		return 0;
	return (MPI_Aint)h * k->count * unit(k);
}

/* chk_at is what a checked run adds to timed_at so that every repetition
 * of every owner has a place of its own: (i·P + owner)·halves blocks of
 * count items, or under oc the page of ⌊i/m⌋ and owner. */
static inline MPI_Aint chk_at(const mb_rma3 *k, const role *ro, int oc, int i, int owner)
{
	if (!oc)
		return ((MPI_Aint)i * ro->p + owner) * halves(k) * k->count * unit(k);
	return ((MPI_Aint)(i / page_items(k)) * ro->p + owner) * page(k);
}

/* base is the byte offset of repetition i's data of owner, half h, before
 * its -off_cache slot, where the transfers put it. */
static inline MPI_Aint base(const mb_rma3 *k, const role *ro, int chk, int oc, int i, int owner, int h)
{
	return timed_at(k, h) + (chk ? chk_at(k, ro, oc, i, owner) : 0);
}

/* where is the byte offset at which a checked run's repetition i of
 * owner, half h, must be found (before its -off_cache slot): item
 * ((i·P + owner)·halves + h)·count, or under oc half h's block in the page
 * of ⌊i/m⌋ and owner. The checks (prepare, verify, old_zeros) use it,
 * written apart from base, which the transfers use, so that a slip in
 * either, the timed run's part included, shows as a defect. */
static MPI_Aint where(const mb_rma3 *k, const role *ro, int oc, int i, int owner, int h)
{
	MPI_Aint block = (MPI_Aint)h * k->count * unit(k);
	if (!oc)
		return (((MPI_Aint)i * ro->p + owner) * halves(k) + h) * k->count * unit(k);
	return ((MPI_Aint)(i / page_items(k)) * ro->p + owner) * page(k) + block;
}

/* o_at is the byte offset of repetition i's slot in the origin buffer, in
 * mode aggr: s_buffer + i%s_cache_iter*s_offs for the puts and
 * accumulates (IMB_rma_put.c:102,176,221,284,345,410; IMB_rma_atomic.c:90,
 * 148,204), r_buffer + i%r_cache_iter*r_offs where a get lands
 * (IMB_rma_get.c:104,183,234,308,369); Compare_and_swap's origin is
 * r_buffer's slot of the mode: r in aggregate mode, s otherwise
 * (IMB_rma_atomic.c:262,273). 0 without oc. */
static inline long long o_at(const mb_rma3 *k, int oc, int aggr, int i)
{
	if (!oc)
		return 0;
	if (is_get(k) || (k->op == MB_RMA3_CAS && aggr))
		return slot_at(i, k->r_iter, k->r_offs);
	return slot_at(i, k->s_iter, k->s_offs);
}

/* w_at is the byte offset of the target displacement: i%s_cache_iter*
 * s_offs for a get, i%r_cache_iter*r_offs for a put, r_off =
 * r_offs/sizeof(float) floats for the accumulates (IMB_rma_atomic.c:80,
 * 92). Compare_and_swap's i%r_cache_iter*r_offs counts bytes in IMB's
 * window (displacement unit MPI_BYTE: it is no REDUCTION,
 * IMB_init_transfer.c), ints here: r_offs rounded down to whole ints. */
static inline long long w_at(const mb_rma3 *k, int oc, int i)
{
	if (!oc)
		return 0;
	if (is_get(k))
		return slot_at(i, k->s_iter, k->s_offs);
	return slot_at(i, k->r_iter, k->r_offs / unit(k) * unit(k));
}

/* r_at is where the old values of Get_accumulate, Fetch_and_op and
 * Compare_and_swap land: r_buffer + i%r_cache_iter*r_offs
 * (IMB_rma_atomic.c:150,205,264). */
static inline long long r_at(const mb_rma3 *k, int oc, int i) { return oc ? slot_at(i, k->r_iter, k->r_offs) : 0; }

static const int cas_compare = 0;

/* xfer issues repetition i's transfer between this origin and target t,
 * in mode aggr; under the no-offset mutant an -off_cache loop hands MPI
 * slot 0 whatever the repetition. The switch on k->op is decided
 * identically on every transfer: a predicted branch next to an MPI call. */
static inline __attribute__((always_inline)) int xfer(const mb_rma3 *k, const role *ro, int chk, int oc, int aggr,
						       int i, int t, int h, MPI_Win win)
{
	int owner = is_get(k) ? t : ro->r, count = k->count, j = oc && MUTANT(MB_MUT_NO_OFFSET) ? 0 : i;
	MPI_Aint b = base(k, ro, chk, oc, i, owner, h), witems = k->wsize / unit(k);
	MPI_Aint tdisp = (MPI_Aint)((b + w_at(k, oc, j)) / unit(k));
	char *o = (char *)k->obuf + b + o_at(k, oc, aggr, j), *res = (char *)k->wbuf + b + r_at(k, oc, j);
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
		return MPI_Get_accumulate(o, count, MPI_FLOAT, res, count, MPI_FLOAT, t, tdisp, count, MPI_FLOAT, MPI_SUM,
					  win);
	case MB_RMA3_FOP:
		return MPI_Fetch_and_op(o, res, MPI_FLOAT, t, tdisp, MPI_SUM, win);
	case MB_RMA3_CAS:
		/* Compared with 0: in a checked run the target holds the zeros
		 * it was prepared with, so every swap happens. */
		return MPI_Compare_and_swap(o, &cas_compare, res, MPI_INT, t, tdisp, win);
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
 * get (in their -off_cache slots under oc); Accumulate sums rank s's
 * floats into zeros, and only rank 0 accumulates (mb_bad_sums over ranks
 * 0..0). */
static long long verify(const mb_rma3 *k, const role *ro, int oc, int i, int s, int h)
{
	const char *buf = is_get(k) ? (const char *)k->obuf + o_at(k, oc, 0, i) : (const char *)k->wbuf + w_at(k, oc, i);
	buf += where(k, ro, oc, i, s, h);
	if (k->op >= MB_RMA3_ACC)
		return mb_bad_sums((const float *)buf, k->count, 1, i, 0); /* s is 0 */
	return mb_bad_bytes(buf, k->count, s, i, (long long)h * k->count);
}

/* old_zeros counts the wrong old values of repetition i at this origin:
 * Get_accumulate, Fetch_and_op and Compare_and_swap fetch the target's
 * zeros. */
static long long old_zeros(const mb_rma3 *k, const role *ro, int oc, int i)
{
	const char *old = (const char *)k->wbuf + where(k, ro, oc, i, ro->r, 0) + r_at(k, oc, i);
	return bad_zeros((const float *)old, k->count);
}

/* pair runs a one-target loop (Unidir, Bidir, Put_local, Get_local): a
 * shared lock on the partner, the transfers, MPI_Win_flush (or
 * _flush_local) after every one or once after all, unlock. With chk a
 * non-aggregate get is verified after each flush. */
static inline __attribute__((always_inline)) int pair(const mb_rma3 *k, const role *ro, int chk, int oc, int n,
						       int aggr, MPI_Win win, double *t, long long *bad)
{
	int i, tg = 1 - ro->r;
	double t0;
	CHK(MPI_Win_lock(MPI_LOCK_SHARED, tg, 0, win));
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		CHK(xfer(k, ro, chk, oc, aggr, i, tg, 0, win));
		if (!aggr) {
			CHK(k->local ? MPI_Win_flush_local(tg, win) : MPI_Win_flush(tg, win));
			if (chk && is_get(k))
				*bad += verify(k, ro, oc, i, tg, 0);
		}
	}
	if (aggr)
		CHK(k->local ? MPI_Win_flush_local(tg, win) : MPI_Win_flush(tg, win));
	*t = (MPI_Wtime() - t0) / (n > 0 ? n : 1);
	if (chk && is_get(k) && aggr)
		for (i = 0; i < n; i++)
			*bad += verify(k, ro, oc, i, tg, 0);
	if (chk && k->op >= MB_RMA3_GACC)
		for (i = 0; i < n; i++)
			*bad += old_zeros(k, ro, oc, i);
	return MPI_Win_unlock(tg, win);
}

/* all runs a loop over every other rank (One_/All_put_all, _get_all,
 * Put_/Get_all_local): MPI_Win_lock_all, every repetition a transfer to
 * each other rank, starting after this one so that the origins spread over
 * the targets, one MPI_Win_flush_all (or _flush_local_all), unlock_all. */
static inline __attribute__((always_inline)) int all(const mb_rma3 *k, const role *ro, int chk, int oc, int n,
						      MPI_Win win, double *t)
{
	int i, peer;
	double t0;
	CHK(MPI_Win_lock_all(0, win));
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++)
		for (peer = 1; peer < ro->p; peer++)
			CHK(xfer(k, ro, chk, oc, 1, i, (peer + ro->r) % ro->p, 0, win));
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
static inline __attribute__((always_inline)) int exch(const mb_rma3 *k, const role *ro, int chk, int oc, int n,
						       MPI_Win win, double *t)
{
	int i, left = (ro->r + ro->p - 1) % ro->p, right = (ro->r + 1) % ro->p;
	int first = is_get(k) ? right : left, second = is_get(k) ? left : right;
	double t0;
	CHK(MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win));
	if (right != left)
		CHK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		CHK(xfer(k, ro, chk, oc, 0, i, first, 0, win));
		CHK(xfer(k, ro, chk, oc, 0, i, second, 1, win));
		CHK(flush2(left, right, win));
	}
	*t = (MPI_Wtime() - t0) / (n > 0 ? n : 1);
	CHK(MPI_Win_unlock(left, win));
	return right == left ? MPI_SUCCESS : MPI_Win_unlock(right, win);
}

/* truly_origin is IMB_put_origin: per repetition a put, MPI_Win_flush and
 * a barrier that meets the target; repetitions first..first+n-1 in a
 * checked run. */
static inline __attribute__((always_inline)) int truly_origin(const mb_rma3 *k, const role *ro, int chk, int oc,
							       int n, int first, MPI_Win win, double *t)
{
	int i;
	double t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		CHK(xfer(k, ro, chk, oc, 0, first + i, 1, 0, win));
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
static inline __attribute__((always_inline)) int truly(const mb_rma3 *k, const role *ro, int chk, int oc, int n,
							MPI_Win win, double *t, double *tpure)
{
	double tp = 0;
	CHK(MPI_Barrier(k->comm));
	if (ro->r == 0) {
		CHK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
		CHK(truly_origin(k, ro, chk, oc, n, 0, win, tpure));
		CHK(MPI_Send(tpure, 1, MPI_DOUBLE, 1, 1, k->comm));
		CHK(MPI_Barrier(k->comm));
		CHK(truly_origin(k, ro, chk, oc, n, n, win, t));
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
static inline __attribute__((always_inline)) int once(const mb_rma3 *k, const role *ro, int chk, int oc, int n,
						       int aggr, MPI_Win win, double *t, double *tpure, long long *bad)
{
	int i;
	*t = *tpure = -1;
	CHK(MUTANT_MPI_ERROR(k->comm));
	if (k->flow == MB_RMA3_TRULY)
		return truly(k, ro, chk, oc, n, win, t, tpure);
	for (i = 0; i < k->nbarr; i++)
		CHK(MPI_Barrier(k->comm));
	if (ro->origin) {
		if (k->flow == MB_RMA3_PAIR)
			CHK(pair(k, ro, chk, oc, n, aggr, win, t, bad));
		else if (k->flow == MB_RMA3_EXCH)
			CHK(exch(k, ro, chk, oc, n, win, t));
		else
			CHK(all(k, ro, chk, oc, n, win, t));
	}
	return MPI_Barrier(k->comm);
}

long long mb_rma3_span(const mb_rma3 *k, int p)
{
	int m;
	if (k->s_iter <= 0)
		return (long long)nslots(k) * p * halves(k) * k->count * unit(k);
	m = page_items(k);
	return (long long)((nslots(k) + m - 1) / m) * p * page(k);
}

/* prepare fills this rank's data slots with its pattern and poisons
 * where data arrives; chk_after verifies every slot that arrived and was
 * not verified inside the loop. */
static void prepare(const mb_rma3 *k, const role *ro, int oc)
{
	char *data = is_get(k) ? k->wbuf : k->obuf, *land = is_get(k) ? k->obuf : k->wbuf;
	int i, h, nsl = nslots(k);
	if (k->op >= MB_RMA3_ACC)
		memset(land, 0, (size_t)mb_rma3_span(k, ro->p)); /* Accumulate sums into zeros */
	else
		mb_poison(land, mb_rma3_span(k, ro->p));
	for (i = 0; i < nsl; i++) {
		char *at = data + (is_get(k) ? w_at(k, oc, i) : o_at(k, oc, k->aggregate, i));
		if (k->op >= MB_RMA3_ACC)
			mb_fill_floats((float *)(at + where(k, ro, oc, i, ro->r, 0)), k->count, ro->r, i, 0);
		else
			for (h = 0; h < halves(k); h++)
				mb_fill_bytes(at + where(k, ro, oc, i, ro->r, h), k->count, ro->r, i, (long long)h * k->count);
		if (k->op >= MB_RMA3_GACC && ro->origin) /* where the old values land */
			mb_poison(land + where(k, ro, oc, i, ro->r, 0) + r_at(k, oc, i), (long long)k->count * 4);
	}
}

static long long chk_after(const mb_rma3 *k, const role *ro, int oc)
{
	long long bad = 0;
	int i, s;
	if (k->flow == MB_RMA3_EXCH) {
		/* A put's first block goes left, so this rank's half 0 comes
		 * from its right neighbour, half 1 from its left; a get takes
		 * half 0 from the right neighbour, half 1 from the left. */
		int left = (ro->r + ro->p - 1) % ro->p, right = (ro->r + 1) % ro->p;
		for (i = 0; i < k->nrep; i++)
			bad += verify(k, ro, oc, i, right, 0) + verify(k, ro, oc, i, left, 1);
		return bad;
	}
	if (is_get(k) && (k->flow == MB_RMA3_PAIR || !ro->origin))
		return 0; /* verified by pair(), or nothing arrived */
	for (s = 0; s < ro->p; s++) {
		int from = is_get(k) ? sends_to(k, ro, ro->r, s) : sends_to(k, ro, s, ro->r);
		for (i = 0; from && i < nslots(k); i++)
			bad += verify(k, ro, oc, i, s, 0);
	}
	return bad;
}

static inline __attribute__((always_inline)) int run(const mb_rma3 *k, int chk, int oc, double *t, double *tpure,
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
		prepare(k, &ro, oc);
	CHK(MPI_Win_create(k->wbuf, k->wsize, unit(k), MPI_INFO_NULL, k->comm, &win));
	CHK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	/* IMB_warm_up.c: the kernel function in its first run mode
	 * (non-aggregate) with a tenth of the repetitions. A checked run has
	 * none: it would write the slots the check expects from the loop. */
	rc = chk || k->nwarm == 0 ? MPI_SUCCESS : once(k, &ro, 0, oc, k->nwarm, 0, win, &tw, &twp, bad);
	if (rc == MPI_SUCCESS)
		rc = once(k, &ro, chk, oc, k->nrep, k->aggregate, win, t, tpure, bad);
	if (rc != MPI_SUCCESS)
		return rc; /* the window is not freed: MPI_Win_free is collective and the job aborts */
	CHK(MPI_Win_free(&win));
	if (chk)
		*bad += chk_after(k, &ro, oc);
	return MPI_SUCCESS;
}

/* mb_rma3_run instantiates run with constant chk and oc: the loops
 * without -off_cache stay those without slots. */
int mb_rma3_run(const mb_rma3 *kp, int chk, double *t, double *tpure, long long *defects)
{
	mb_rma3 k = *kp; /* a local copy: MPI calls could alias *kp as far as the compiler knows */
	*defects = 0;
	mb_settle();
	if (k.s_iter > 0)
		return chk ? run(&k, 1, 1, t, tpure, defects) : run(&k, 0, 1, t, tpure, defects);
	return chk ? run(&k, 1, 0, t, tpure, defects) : run(&k, 0, 0, t, tpure, defects);
}
