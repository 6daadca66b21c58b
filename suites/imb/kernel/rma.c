//go:build cgo && !nompi

#include <string.h>
#include "rma.h"
#include "rmawin.h" /* mb_rma_set_info */
#include "settle.h"
#include "chk.h"
#include "mutant.h"
#include "check.h"

static int unit(const mb_rma *k) { return k->op == MB_RMA_ACC ? 4 : 1; }

/* slot_at is the byte offset of slot i % iter, offs bytes each. */
static inline long long slot_at(int i, int iter, long long offs) { return (long long)(i % iter) * offs; }

/* o_at is the byte offset of transfer i in the origin buffer: i*stride
 * items, or under a constant oc (-off_cache) IMB 2021.11's slot: Put and
 * Accumulate send from s_buffer + i%s_cache_iter*s_offs
 * (IMB_ones_unidir.c:456,545; IMB_ones_accu.c:166,230), a Get lands at
 * r_buffer + i%r_cache_iter*r_offs (IMB_ones_unidir.c:292,373). Bidir_Put
 * and Bidir_Get call the same kernels (IMB_ones_bidir.c). */
static inline long long o_at(const mb_rma *k, int i, int oc)
{
	if (!oc)
		return (long long)i * k->stride * unit(k);
	return k->op == MB_RMA_GET ? slot_at(i, k->r_iter, k->r_offs) : slot_at(i, k->s_iter, k->s_offs);
}

/* w_at is the byte offset of transfer i in the target's window: a Put's
 * displacement i%r_cache_iter*r_offs (IMB_ones_unidir.c:458,547), a Get's
 * i%s_cache_iter*s_offs (:294,375), Accumulate's i%r_cache_iter*r_off
 * floats with r_off = r_offs/4 rounded down (IMB_ones_accu.c:130,170,232:
 * the window's displacement unit is the float). */
static inline long long w_at(const mb_rma *k, int i, int oc)
{
	if (!oc)
		return (long long)i * k->stride * unit(k);
	switch (k->op) {
	case MB_RMA_GET:
		return slot_at(i, k->s_iter, k->s_offs);
	case MB_RMA_ACC:
		return slot_at(i, k->r_iter, k->r_offs / 4 * 4);
	}
	return slot_at(i, k->r_iter, k->r_offs);
}

/* xfer_at issues transfer i; under the no-offset mutant an -off_cache
 * loop hands MPI slot 0 whatever the repetition, which the check must
 * catch. The switch on k->op is decided identically on every transfer, so
 * it costs a predicted branch next to an MPI call. */
static inline __attribute__((always_inline)) int xfer_at(const mb_rma *k, int i, int oc)
{
	int j = oc && MUTANT(MB_MUT_NO_OFFSET) ? 0 : i, count = k->count;
	void *o = (char *)k->obuf + o_at(k, j, oc);
	MPI_Aint tdisp = (MPI_Aint)(w_at(k, j, oc) / unit(k));
	if (MUTANT(MB_MUT_RMA_OFFSET)) {
		/* Test-only broken kernel: the target displacement one item too
		 * far, the transfer cut at the window's end (MPI would reject
		 * one beyond it). */
		tdisp += 1;
		if (tdisp + count > k->wcount)
			count = tdisp < k->wcount ? (int)(k->wcount - tdisp) : 0;
	}
	switch (k->op) {
	case MB_RMA_PUT:
		return MPI_Put(o, count, MPI_BYTE, k->target, tdisp, count, MPI_BYTE, k->win);
	case MB_RMA_GET:
		return MPI_Get(o, count, MPI_BYTE, k->target, tdisp, count, MPI_BYTE, k->win);
	case MB_RMA_ACC:
		return MPI_Accumulate(o, count, MPI_FLOAT, k->target, tdisp, count, MPI_FLOAT, MPI_SUM, k->win);
	}
	return MPI_ERR_ARG;
}

/* xfer and xfer_oc are the two instantiations: the loops without
 * -off_cache call the first, as before -off_cache existed. */
static int xfer(const mb_rma *k, int i) { return xfer_at(k, i, 0); }
static int xfer_oc(const mb_rma *k, int i) { return xfer_at(k, i, 1); }
#define XFER(k, i) (oc ? xfer_oc(k, i) : xfer(k, i))

/* skip: the first-only mutant, which transfers in repetition 0 only. */
static inline int skip(int i) { return MUTANT(MB_MUT_FIRST_ONLY) && i > 0; }

/* chk_prepare sets up repetition i of a checked run in its section (its
 * slots under oc): the data this rank puts or accumulates (its origin
 * buffer) or offers to a Get (its window), poison where a Put or Get
 * delivers to this rank, and zeros that Accumulate sums into at the root. */
static void chk_prepare(const mb_rma *k, int i, int oc)
{
	long long n = (long long)k->count * unit(k);
	char *o = (char *)k->obuf + o_at(k, i, oc), *w = (char *)k->wbuf + w_at(k, i, oc);
	switch (k->op) {
	case MB_RMA_PUT:
		if (k->target >= 0)
			mb_fill_bytes(o, n, k->rank, i, 0);
		if (k->src >= 0)
			mb_poison(w, n);
		break;
	case MB_RMA_GET:
		mb_fill_bytes(w, n, k->rank, i, 0);
		if (k->src >= 0)
			mb_poison(o, n);
		break;
	case MB_RMA_ACC:
		if (k->target >= 0)
			mb_fill_floats((float *)o, k->count, k->rank, i, 0);
		if (k->nacc > 0)
			memset(w, 0, (size_t)n);
		break;
	}
}

/* chk_verify counts the wrong items repetition i left at this rank: the
 * source's pattern where a Put or Get delivered, the exact sum over the
 * nacc accumulating ranks in the root's window; under oc in the slots
 * repetition i used, as IMB's CHK_DIFF checks them (IMB_ones_unidir.c:469,
 * IMB_ones_accu.c:185). */
static long long chk_verify(const mb_rma *k, int i, int oc)
{
	long long n = (long long)k->count * unit(k);
	const char *o = (const char *)k->obuf + o_at(k, i, oc), *w = (const char *)k->wbuf + w_at(k, i, oc);
	switch (k->op) {
	case MB_RMA_PUT:
		return k->src >= 0 ? mb_bad_bytes(w, n, k->src, i, 0) : 0;
	case MB_RMA_GET:
		return k->src >= 0 ? mb_bad_bytes(o, n, k->src, i, 0) : 0;
	case MB_RMA_ACC:
		return k->nacc > 0 ? mb_bad_sums((const float *)w, k->count, k->nacc, i, 0) : 0;
	}
	return 0;
}

/* Non-aggregate mode (section 5.2.8.2): every transfer is completed by a
 * fence before the next; a rank without a target takes part in the fences
 * only, as the passive side of IMB's Unidir benchmarks does. With chk,
 * repetition i is prepared and made public by a fence of its own before
 * its transfer and verified after the fence that completes it. */
static inline __attribute__((always_inline)) int nonaggregate(const mb_rma *k, int chk, int oc, long long *bad)
{
	int i, n = k->nrep;
	for (i = 0; i < n; i++) {
		if (chk) {
			chk_prepare(k, i, oc);
			CHK(MPI_Win_fence(0, k->win));
		}
		if (k->target >= 0 && !skip(i))
			CHK(XFER(k, i));
		CHK(MPI_Win_fence(0, k->win));
		if (chk)
			*bad += chk_verify(k, i, oc);
	}
	return MPI_SUCCESS;
}

/* first_kept is the first repetition whose data stays in its section
 * after an aggregate run: every one where the sections are disjoint (IMB
 * 3.0); only the last where all transfers share offset 0 (IMB 2021.11
 * without -off_cache: i % cache_iter * offs = 0, IMB_ones_unidir.c); under
 * oc the last min(s_iter, r_iter), which use distinct slots (in IMB-EXT
 * both are the slots of one message, s_iter = r_iter). Earlier
 * repetitions of a slot carry the same prepared data as the kept one. */
static inline int first_kept(const mb_rma *k, int oc)
{
	int n = k->nrep, kept = n;
	if (oc)
		kept = k->s_iter < k->r_iter ? k->s_iter : k->r_iter;
	else if (k->imb2021 && k->stride == 0)
		kept = 1;
	return n > kept ? n - kept : 0;
}

/* Aggregate mode: all transfers, then one fence completes them; with chk,
 * every section that keeps a repetition's data is verified after that
 * fence. */
static inline __attribute__((always_inline)) int aggregate(const mb_rma *k, int chk, int oc, long long *bad)
{
	int i, n = k->nrep;
	if (k->target >= 0)
		for (i = 0; i < n; i++)
			if (!skip(i))
				CHK(XFER(k, i));
	CHK(MPI_Win_fence(0, k->win));
	if (chk)
		for (i = first_kept(k, oc); i < n; i++)
			*bad += chk_verify(k, i, oc);
	return MPI_SUCCESS;
}

/* acc_nonaggr is IMB-EXT 2021.11's non-aggregate Accumulate
 * (IMB_ones_accu.c, IMB_accumulate): no N_BARR barriers; every repetition
 * is an epoch of its own, MPI_Win_fence(MPI_MODE_NOPRECEDE),
 * MPI_Accumulate, MPI_Win_fence(MPI_MODE_NOSUCCEED), and only these are
 * timed (the sum of the repetitions' times over n_sample). With chk, a
 * repetition is prepared and made public by a fence before its epoch and
 * verified after it. */
static inline __attribute__((always_inline)) int acc_nonaggr(const mb_rma *k, double *t, long long *bad, int chk,
							      int oc)
{
	int i, n = k->nrep;
	double t0, sum = 0;
	for (i = 0; i < n; i++) {
		if (chk) {
			chk_prepare(k, i, oc);
			CHK(MPI_Win_fence(0, k->win));
		}
		t0 = MPI_Wtime();
		CHK(MPI_Win_fence(MPI_MODE_NOPRECEDE, k->win));
		if (k->target >= 0 && !skip(i))
			CHK(XFER(k, i));
		CHK(MPI_Win_fence(MPI_MODE_NOSUCCEED, k->win));
		sum += MPI_Wtime() - t0;
		if (chk)
			*bad += chk_verify(k, i, oc);
	}
	*t = sum / (n > 0 ? n : 1);
	return MPI_SUCCESS;
}

/* acc2021 is IMB-EXT 2021.11's Accumulate (IMB_ones_accu.c), which IMB
 * 3.0's loops above do not cover; aggregate mode: N_BARR barriers, then
 * the timer around MPI_Win_fence(MPI_MODE_NOPRECEDE), n_sample
 * accumulates, MPI_Win_fence(MPI_MODE_NOSUCCEED). Repeated accumulates
 * into the same floats do not sum exactly in float, so IMB's CHECK build
 * issues r_cache_iter of them, one into each slot (IMB_ones_accu.c:219,
 * n_sample = r_cache_iter: 1 without -off_cache), and verifies each; a
 * checked run here does the same with the last repetitions' data
 * (first_kept). */
static inline __attribute__((always_inline)) int acc2021(const mb_rma *k, double *t, long long *bad, int chk, int oc)
{
	int i, n = k->nrep, lo = chk ? first_kept(k, oc) : 0;
	double t0;
	CHK(MUTANT_MPI_ERROR(k->comm));
	if (!k->aggregate)
		return acc_nonaggr(k, t, bad, chk, oc);
	if (chk) {
		for (i = lo; i < n; i++)
			chk_prepare(k, i, oc);
		CHK(MPI_Win_fence(0, k->win));
	}
	for (i = 0; i < k->nbarr; i++)
		CHK(MPI_Barrier(k->comm));
	t0 = MPI_Wtime();
	CHK(MPI_Win_fence(MPI_MODE_NOPRECEDE, k->win));
	if (k->target >= 0)
		for (i = lo; i < n; i++)
			if (!skip(i - lo))
				CHK(XFER(k, i));
	CHK(MPI_Win_fence(MPI_MODE_NOSUCCEED, k->win));
	*t = (MPI_Wtime() - t0) / (n > lo ? n - lo : 1);
	if (chk)
		for (i = lo; i < n; i++)
			*bad += chk_verify(k, i, oc);
	return MPI_SUCCESS;
}

/* rma_run is the timed run; the check run (chk = 1) is the same loop with
 * the per-repetition preparation and verification; oc (-off_cache) moves
 * every repetition to its slots. In aggregate mode the sections are
 * prepared before the opening fence, which the check run always has, so
 * that the window's public copy holds them. */
static inline __attribute__((always_inline)) int rma_run(const mb_rma *kp, double *t, long long *bad, int chk,
							  int oc)
{
	/* A local copy: MPI calls could alias *kp as far as the compiler knows. */
	mb_rma k = *kp;
	int i, rc;
	double t0;
	mb_settle();
	if (k.imb2021 && k.op == MB_RMA_ACC)
		return acc2021(&k, t, bad, chk, oc);
	if (chk && k.aggregate)
		for (i = first_kept(&k, oc); i < k.nrep; i++)
			chk_prepare(&k, i, oc);
	if (k.open_fence || (chk && k.aggregate))
		CHK(MPI_Win_fence(0, k.win));
	CHK(MUTANT_MPI_ERROR(k.comm));
	for (i = 0; i < k.nbarr; i++)
		CHK(MPI_Barrier(k.comm));
	t0 = MPI_Wtime();
	rc = k.aggregate ? aggregate(&k, chk, oc, bad) : nonaggregate(&k, chk, oc, bad);
	*t = (MPI_Wtime() - t0) / (k.nrep > 0 ? k.nrep : 1);
	return rc;
}

int mb_rma_run(const mb_rma *k, double *t)
{
	long long unused = 0;
	return k->s_iter > 0 ? rma_run(k, t, &unused, 0, 1) : rma_run(k, t, &unused, 0, 0);
}

int mb_rma_check(const mb_rma *k, double *t, long long *defects)
{
	*defects = 0;
	return k->s_iter > 0 ? rma_run(k, t, defects, 1, 1) : rma_run(k, t, defects, 1, 0);
}

/* One life cycle of a window. MPI_ERRORS_RETURN is set on every window so
 * that an error comes back as a code; it is a local call, negligible next
 * to the collective MPI_Win_create and MPI_Win_free. */
static int window_once(const mb_window *k, int rank)
{
	MPI_Win win;
	MPI_Info info;
	mb_rma_set_info(&info);
	CHK(MPI_Win_create(k->base, k->size, 1, info, k->comm, &win));
	CHK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHK(MPI_Win_fence(0, win));
	/* The negligible non-trivial action that keeps the window in use; an
	 * empty window has no byte to put. */
	if (k->size > 0)
		CHK(MPI_Put(k->src, 1, MPI_BYTE, rank, 0, 1, MPI_BYTE, win));
	CHK(MPI_Win_fence(0, win));
	return MPI_Win_free(&win);
}

int mb_window_run(const mb_window *kp, double *t)
{
	mb_window k = *kp;
	int i, rank, rc = MPI_SUCCESS;
	double t0;
	CHK(MPI_Comm_rank(k.comm, &rank));
	mb_settle();
	for (i = 0; i < k.nbarr; i++)
		CHK(MPI_Barrier(k.comm));
	t0 = MPI_Wtime();
	for (i = 0; i < k.nrep && rc == MPI_SUCCESS; i++)
		rc = window_once(&k, rank);
	*t = (MPI_Wtime() - t0) / (k.nrep > 0 ? k.nrep : 1);
	return rc;
}
