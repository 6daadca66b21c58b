//go:build cgo && !nompi

#include <stdlib.h>
#include "kernels2021.h"
#include "settle.h"
#include "check.h"
#include "chk.h"
#include "mutant.h"
#include "slots.h"
#include "imbbarrier.h" /* -imb_barrier */

/* The loops of the benchmarks IMB-MPI1 2021 added (imb/bench2021.go), in
 * kernels.c's style: each written once as an always-inlined function with
 * a constant chk, instantiated by mb21_run (chk = 0: the bare MPI calls)
 * and mb21_run_check (chk = 1: every repetition sends this rank's content
 * of that repetition, mpi/pattern.h, into poisoned buffers and counts what
 * arrives wrong, against the sender and root the definition names).
 *
 * Timing follows IMB 2021.11. The collectives (IMB_gather.c, IMB_gatherv.c,
 * IMB_scatter.c, IMB_scatterv.c, IMB_reduce_local.c,
 * IMB_reduce_scatter_block.c) time every call on its own and, with sync
 * (IMB's -sync, on by default), run an MPI_Barrier after it, outside the
 * timing; *acc sums the calls. The point-to-point loops (IMB_pingpong.c,
 * IMB_pingping.c, IMB_bandwidth.c) are timed as a whole by run21. */
#define LOOP static inline __attribute__((always_inline)) int
#define TAG 1
#define SKIP(i) (MUTANT(MB_MUT_FIRST_ONLY) && (i) > 0)

/* TIMED adds the time of one call to *acc. */
#define TIMED(call)                                   \
	do {                                          \
		double t1_ = MPI_Wtime();             \
		CHK(call);                            \
		*acc += MPI_Wtime() - t1_;            \
	} while (0)

/* after ends repetition i of a collective: the sync barrier. */
static int after(const mb21_kernel *k)
{
	return mb_barriers(k->k.comm, k->sync, k->k.imb_barrier);
}

/* prepare is kernels.c's fresh: n bytes of content into s, nr poisoned at r. */
static void prepare(void *s, long long n, void *r, long long nr, int rank, int i)
{
	mb_fill_bytes(s, n, rank, i, 0);
	mb_poison(r, nr);
}

/* expected_root is the root repetition i has by the definition: root0
 * moved i times by root_shift. */
static int expected_root(const mb21_kernel *k, int i, int size)
{
	return (int)(((long long)k->k.root0 + (long long)i * k->root_shift) % size);
}

/* used_root is the root a loop passes to MPI: the wrong-rank mutant takes
 * the next rank. */
static int used_root(int root, int size)
{
	return MUTANT(MB_MUT_WRONG_RANK) ? (root + 1) % size : root;
}

/* bad_gathered counts the wrong bytes of a gathered buffer: block p,
 * counts[p] items of ts bytes at item displs[p], must be rank p's content
 * of repetition i. */
static long long bad_gathered(const char *r, const int *counts, const int *displs, int ts, int size, int i)
{
	long long bad = 0;
	int p;
	for (p = 0; p < size; p++)
		bad += mb_bad_bytes(r + (long long)displs[p] * ts, (long long)counts[p] * ts, p, i, 0);
	return bad;
}

/* rooted_call is one repetition of Gather, Gatherv, Scatter or Scatterv
 * from s to r, items of dt, with root rt and the displacements d of the
 * v-variants. */
static inline __attribute__((always_inline)) int rooted_call(const mb21_kernel *k, int kind, void *s, void *r,
							   MPI_Datatype dt, int rt, const int *d)
{
	const mb_kernel *b = &k->k;
	switch (kind) {
	case MB21_GATHER:
		return MPI_Gather(s, b->count, dt, r, b->count, dt, rt, b->comm);
	case MB21_GATHERV:
		return MPI_Gatherv(s, b->count, dt, r, b->counts, d, dt, rt, b->comm);
	case MB21_SCATTER:
		return MPI_Scatter(s, b->count, dt, r, b->count, dt, rt, b->comm);
	}
	return MPI_Scatterv(s, b->counts, d, dt, r, b->count, dt, rt, b->comm);
}

/* rooted: Gather(v) and Scatter(v) (IMB_gather.c, IMB_gatherv.c,
 * IMB_scatter.c, IMB_scatterv.c): root 0, moved by root_shift after each
 * repetition. A gather brings count items of every rank p to the root's
 * block p (at displs[p]); a scatter brings the root's block p to rank p.
 * The wrong-rank mutant uses the next root, the displ mutant (v-variants)
 * rotated displacements. */
LOOP rooted(const mb21_kernel *k, int kind, int rank, int size, int chk, int oc, long long *bad, double *acc)
{
	int i, root = k->k.root0 % size;
	int scatter = kind == MB21_SCATTER || kind == MB21_SCATTERV;
	int v = kind == MB21_GATHERV || kind == MB21_SCATTERV;
	const int *d = v && MUTANT(MB_MUT_DISPL) ? mb_shifted_displs(k->k.displs, size) : k->k.displs;
	const slots B = slots_of(&k->k, 0);
	long long nb = (long long)k->k.count * B.ts, all = size * nb;
	for (i = 0; i < k->k.nrep; i++) {
		int want = expected_root(k, i, size);
		if (chk)
			prepare(SB(i), scatter ? all : nb, RB(i), scatter ? nb : all, rank, i);
		if (!SKIP(i))
			TIMED(rooted_call(k, kind, CS(i), CR(i), B.dt, used_root(root, size), d));
		if (chk && scatter)
			*bad += mb_bad_bytes(RB(i), nb, want, i, (long long)k->k.displs[rank] * B.ts);
		else if (chk && rank == want)
			*bad += bad_gathered(RB(i), k->k.counts, k->k.displs, B.ts, size, i);
		root = (root + k->root_shift) % size;
		CHK(after(k));
	}
	return MPI_SUCCESS;
}

/* less is the short-reduce mutant's count: one element short. */
static int less(int count) { return MUTANT(MB_MUT_SHORT_REDUCE) && count > 0 ? count - 1 : count; }

/* reduce_local: MPI_Reduce_local(sbuf, rbuf), MPI_SUM of -red_data_type
 * items (MPI_FLOAT by default), on every rank (IMB_reduce_local.c).
 * Checked, sbuf holds rank 0's content and rbuf rank 1's, so rbuf must
 * come out as their sum. */
LOOP reduce_local(const mb21_kernel *k, int chk, int oc, long long *bad, double *acc)
{
	int i, c = k->k.count, n = less(c);
	const slots B = slots_of(&k->k, 1);
	for (i = 0; i < k->k.nrep; i++) {
		if (chk) {
			mb_fill_red(SB(i), c, B.type, 0, i, 0);
			mb_fill_red(RB(i), c, B.type, 1, i, 0);
		}
		if (!SKIP(i))
			TIMED(MPI_Reduce_local(CS(i), CR(i), n, B.dt, MPI_SUM));
		if (chk)
			*bad += mb_bad_red(RB(i), c, B.type, 2, i, 0);
		CHK(after(k));
	}
	return MPI_SUCCESS;
}

/* reduce_scatter_block: every rank reduces size·count items and gets
 * block rank, count sums (IMB_reduce_scatter_block.c). */
LOOP reduce_scatter_block(const mb21_kernel *k, int rank, int size, int chk, int oc, long long *bad,
			  double *acc)
{
	int i, c = k->k.count, n = less(c);
	const slots B = slots_of(&k->k, 1);
	for (i = 0; i < k->k.nrep; i++) {
		if (chk) {
			mb_fill_red(SB(i), (long long)size * c, B.type, rank, i, 0);
			mb_poison(RB(i), (long long)B.ts * c);
		}
		if (!SKIP(i))
			TIMED(MPI_Reduce_scatter_block(CS(i), CR(i), n, B.dt, MPI_SUM, k->k.comm));
		if (chk)
			*bad += mb_bad_red(RB(i), c, B.type, size, i, (long long)rank * c);
		CHK(after(k));
	}
	return MPI_SUCCESS;
}

/* pingpong: IMB_pingpong.c as IMB-MPI1 2021 runs it: receives take
 * MPI_ANY_TAG, and MPI_ANY_SOURCE when any (PingPongAnySource), else the
 * partner (PingPongSpecificSource). The wrong-rank mutant has rank 1 echo
 * what it received. */
LOOP pingpong(const mb21_kernel *k, int any, int rank, int chk, int oc, long long *bad)
{
	int i, n = k->k.nrep, c = k->k.count, peer = 1 - rank;
	int from = any ? MPI_ANY_SOURCE : peer;
	const slots B = slots_of(&k->k, 0);
	long long nb = (long long)c * B.ts;
	MPI_Comm comm = k->k.comm;
	MPI_Status st;
	if (rank > 1)
		return MPI_SUCCESS;
	for (i = 0; i < n; i++) {
		char *back = MUTANT(MB_MUT_WRONG_RANK) ? CR(i) : CS(i);
		if (chk)
			prepare(SB(i), nb, RB(i), nb, rank, i);
		if (SKIP(i)) {
		} else if (rank == 0) {
			CHK(MPI_Send(CS(i), c, B.dt, peer, TAG, comm));
			CHK(MPI_Recv(CR(i), c, B.dt, from, MPI_ANY_TAG, comm, &st));
		} else {
			CHK(MPI_Recv(CR(i), c, B.dt, from, MPI_ANY_TAG, comm, &st));
			CHK(MPI_Send(back, c, B.dt, peer, TAG, comm));
		}
		if (chk)
			*bad += mb_bad_bytes(RB(i), nb, peer, i, 0);
	}
	return MPI_SUCCESS;
}

/* pingping: IMB_pingping.c: MPI_Isend, MPI_Recv (MPI_ANY_TAG; source as
 * in pingpong), MPI_Wait. The wrong-rank mutant has rank 1 send back rank
 * 0's message instead of its own. */
LOOP pingping(const mb21_kernel *k, int any, int rank, int chk, int oc, long long *bad)
{
	int i, c = k->k.count, peer = 1 - rank;
	int from = any ? MPI_ANY_SOURCE : peer;
	const slots B = slots_of(&k->k, 0);
	long long nb = (long long)c * B.ts;
	MPI_Request req;
	MPI_Status st;
	if (rank > 1)
		return MPI_SUCCESS;
	for (i = 0; i < k->k.nrep; i++) {
		if (chk)
			prepare(SB(i), nb, RB(i), nb, rank, i);
		if (SKIP(i)) {
		} else if (MUTANT(MB_MUT_WRONG_RANK) && rank == 1) {
			CHK(MPI_Recv(CR(i), c, B.dt, from, MPI_ANY_TAG, k->k.comm, &st));
			CHK(MPI_Send(CR(i), c, B.dt, peer, TAG, k->k.comm));
		} else {
			CHK(MPI_Isend(CS(i), c, B.dt, peer, TAG, k->k.comm, &req));
			CHK(MPI_Recv(CR(i), c, B.dt, from, MPI_ANY_TAG, k->k.comm, &st));
			CHK(MPI_Wait(&req, &st));
		}
		if (chk)
			*bad += mb_bad_bytes(RB(i), nb, peer, i, 0);
	}
	return MPI_SUCCESS;
}

/* band: IMB_bandwidth.c. The first half of the ranks pairs with the
 * second (rank p with p + size/2; an odd last rank is never given to
 * these loops, imb/bench2021.go). Per repetition, Uniband (bi = 0) has the
 * first half post window MPI_Isends and the second window MPI_Irecvs;
 * Biband (bi = 1) has every rank post window MPI_Irecvs, then window
 * MPI_Isends. Each waits for all, then the second half sends a one-byte
 * acknowledgement. As in IMB, the window's messages share one send and one
 * receive buffer; under -off_cache message ws of every repetition takes
 * slot ws (IMB_bandwidth.c: s_buffer + ws%s_cache_iter*s_offs), and a
 * checked run fills and verifies every slot the window uses (ns, nr). The
 * wrong-rank mutant has Uniband's senders send their (poisoned) receive
 * buffer. */
LOOP band(const mb21_kernel *k, int bi, int rank, int size, MPI_Request *reqs, MPI_Status *stats, int chk,
	  int oc, long long *bad)
{
	int i, ws, half = size / 2, c = k->k.count, w = k->window;
	int low = rank < half, peer = low ? rank + half : rank - half;
	int wrong = MUTANT(MB_MUT_WRONG_RANK) && !bi;
	const slots B = slots_of(&k->k, 0);
	long long nb = (long long)c * B.ts;
	int ns = oc && B.si < w ? B.si : (oc ? w : 1), nr = oc && B.ri < w ? B.ri : (oc ? w : 1);
	char ack = 0;
	MPI_Comm comm = k->k.comm;
	if (rank >= 2 * half)
		return MPI_SUCCESS;
	for (i = 0; i < k->k.nrep; i++) {
		for (ws = 0; chk && ws < ns; ws++)
			mb_fill_bytes(SB(ws), nb, rank, i, 0);
		for (ws = 0; chk && ws < nr; ws++)
			mb_poison(RB(ws), nb);
		if (!SKIP(i)) {
			MPI_Request *q = reqs;
			for (ws = 0; (bi || !low) && ws < w; ws++)
				CHK(MPI_Irecv(CR(ws), c, B.dt, peer, TAG, comm, q++));
			for (ws = 0; (bi || low) && ws < w; ws++)
				CHK(MPI_Isend(wrong ? CR(ws) : CS(ws), c, B.dt, peer, TAG, comm, q++));
			CHK(MPI_Waitall((int)(q - reqs), reqs, stats));
			if (low)
				CHK(MPI_Recv(&ack, 1, MPI_CHAR, peer, TAG, comm, MPI_STATUS_IGNORE));
			else
				CHK(MPI_Send(&ack, 1, MPI_CHAR, peer, TAG, comm));
		}
		for (ws = 0; chk && (bi || !low) && ws < nr; ws++)
			*bad += mb_bad_bytes(RB(ws), nb, peer, i, 0);
	}
	return MPI_SUCCESS;
}

LOOP dispatch(const mb21_kernel *k, int rank, int size, MPI_Request *reqs, MPI_Status *stats, int chk,
	      int oc, long long *bad, double *acc)
{
	switch (k->k.kind) {
	case MB21_GATHER: return rooted(k, MB21_GATHER, rank, size, chk, oc, bad, acc);
	case MB21_GATHERV: return rooted(k, MB21_GATHERV, rank, size, chk, oc, bad, acc);
	case MB21_SCATTER: return rooted(k, MB21_SCATTER, rank, size, chk, oc, bad, acc);
	case MB21_SCATTERV: return rooted(k, MB21_SCATTERV, rank, size, chk, oc, bad, acc);
	case MB21_REDUCE_LOCAL: return reduce_local(k, chk, oc, bad, acc);
	case MB21_REDUCE_SCATTER_BLOCK: return reduce_scatter_block(k, rank, size, chk, oc, bad, acc);
	case MB21_UNIBAND: return band(k, 0, rank, size, reqs, stats, chk, oc, bad);
	case MB21_BIBAND: return band(k, 1, rank, size, reqs, stats, chk, oc, bad);
	case MB21_PINGPONG_SPECIFIC: return pingpong(k, 0, rank, chk, oc, bad);
	case MB21_PINGPONG_ANY: return pingpong(k, 1, rank, chk, oc, bad);
	case MB21_PINGPING_SPECIFIC: return pingping(k, 0, rank, chk, oc, bad);
	case MB21_PINGPING_ANY: return pingping(k, 1, rank, chk, oc, bad);
	}
	return MPI_ERR_ARG;
}

/* percall: the loops that time each call themselves (the collectives). */
static int percall(int kind) { return kind < MB21_UNIBAND; }

/* run21 is mb21_run and mb21_run_check, with and without -off_cache (oc):
 * the barriers, then the loop, timed call by call or as a whole (see the
 * top of the file). The request and status arrays of Uniband and Biband
 * are allocated before the timing, as IMB does. */
LOOP run21(const mb21_kernel *k, double *t, int chk, int oc, long long *bad)
{
	int rank, size, rc = MPI_SUCCESS;
	double t0, acc = 0;
	int nrep = k->k.nrep > 0 ? k->k.nrep : 1;
	MPI_Request *reqs;
	MPI_Status *stats;
	size_t w = (size_t)(2 * (k->window > 0 ? k->window : 1));
	CHK(MPI_Comm_rank(k->k.comm, &rank));
	CHK(MPI_Comm_size(k->k.comm, &size));
	CHK(MUTANT_MPI_ERROR(k->k.comm));
	mb_settle();
	reqs = malloc(sizeof(MPI_Request) * w);
	stats = malloc(sizeof(MPI_Status) * w);
	if (reqs == NULL || stats == NULL)
		rc = MPI_ERR_NO_MEM;
	if (rc == MPI_SUCCESS) /* -imb_barrier: IMB's barrier before its collectives */
		rc = mb_barriers(k->k.comm, k->k.nbarr, k->k.imb_barrier && percall(k->k.kind));
	if (rc == MPI_SUCCESS) {
		t0 = MPI_Wtime();
		rc = dispatch(k, rank, size, reqs, stats, chk, oc, bad, &acc);
		*t = (percall(k->k.kind) ? acc : MPI_Wtime() - t0) / nrep;
	}
	free(reqs);
	free(stats);
	return rc;
}

int mb21_run(const mb21_kernel *k, double *t)
{
	return k->k.s_iter > 0 ? run21(k, t, 0, 1, NULL) : run21(k, t, 0, 0, NULL);
}

int mb21_run_check(const mb21_kernel *k, double *t, long long *defects)
{
	*defects = 0;
	return k->k.s_iter > 0 ? run21(k, t, 1, 1, defects) : run21(k, t, 1, 0, defects);
}
