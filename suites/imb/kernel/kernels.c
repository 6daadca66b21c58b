//go:build cgo && !nompi

#include <stdlib.h>
#include "kernels.h"
#include "settle.h"
#include "check.h"
#include "chk.h"
#include "mutant.h"
#include "slots.h"
#include "imbbarrier.h" /* -imb_barrier */

#define TAG 1000

/* Every kernel loop is written once, as an always-inlined function with a
 * constant argument chk: mb_run instantiates it with chk = 0, where the
 * check hooks fold away and the loop is the bare MPI calls; mb_run_check
 * with chk = 1, where before repetition i every rank writes its content of
 * repetition i (mpi/pattern.h) into its send buffer and poisons its
 * receive buffer, and after it counts the items that differ from what
 * repetition i had to deliver. The expected sender and root are computed
 * from the definition (root0 + i, left and right neighbour), never taken
 * from the loop's own variables, so a loop that strays from its
 * definition is caught. The MUTANT branches (mutant.h) are 0 in a normal
 * build. */
#define LOOP static inline __attribute__((always_inline)) int

/* SKIP(i): the first-only mutant communicates in repetition 0 only. */
#define SKIP(i) (MUTANT(MB_MUT_FIRST_ONLY) && (i) > 0)

/* The collectives (not Barrier) take a constant t21 too: 0 is IMB 3.0's
 * definition, the loop timed as a whole by run; 1 is IMB 2021.11's
 * (IMB_bcast.c, IMB_allreduce.c, ...: each call timed alone, its time
 * added to *acc, then k->sync MPI_Barrier calls outside the time, and
 * the root moved by k->root_shift after each repetition). With t21 = 0
 * the added code folds away: IMB 3.0's loops are unchanged. */
#define COLL(call)                                    \
	do {                                          \
		if (t21) {                            \
			MUTANT_SKEW(k->comm);         \
			double t1_ = MPI_Wtime();     \
			CHK(call);                    \
			*acc += MPI_Wtime() - t1_;    \
		} else {                              \
			CHK(call);                    \
		}                                     \
	} while (0)

/* after21 ends a repetition of a collective: IMB 2021's sync barriers. */
static int after21(const mb_kernel *k)
{
	return mb_barriers(k->comm, k->sync, k->imb_barrier);
}
#define AFTER(t21, k) ((t21) ? after21(k) : MPI_SUCCESS)

/* fresh prepares repetition i of a checked loop: n bytes of this rank's
 * content into s, nr poisoned bytes at r. */
static void fresh(void *s, long long n, void *r, long long nr, int rank, int i)
{
	mb_fill_bytes(s, n, rank, i, 0);
	mb_poison(r, nr);
}

/* fresh_red is fresh for the reductions: n items of type into s. */
static void fresh_red(int type, void *s, long long n, void *r, long long nr, int rank, int i)
{
	mb_fill_red(s, n, type, rank, i, 0);
	mb_poison(r, nr);
}

/* root_of is the root repetition i must have: root0 + i, cyclically
 * (IMB 3.0), or root0 moved i times by root_shift (IMB 2021, t21). */
static int root_of(const mb_kernel *k, int i, int size, int t21)
{
	return (int)(((long long)k->root0 + (long long)i * (t21 ? k->root_shift : 1)) % size);
}

/* PingPong: rank 0 sends and waits for the echo; time is the full round
 * trip, halved by the caller (IMB 3.3.2.1). */
LOOP pingpong(const mb_kernel *k, int rank, int chk, int oc, long long *bad)
{
	int i, n = k->nrep, count = k->count;
	const slots B = slots_of(k, 0);
	long long nb = (long long)count * B.ts;
	MPI_Comm comm = k->comm;
	MPI_Status st;
	if (rank == 0) {
		for (i = 0; i < n; i++) {
			if (chk)
				fresh(SB(i), nb, RB(i), nb, rank, i);
			if (!SKIP(i)) {
				CHK(MPI_Send(CS(i), count, B.dt, 1, TAG, comm));
				CHK(MPI_Recv(CR(i), count, B.dt, 1, TAG, comm, &st));
			}
			if (chk)
				*bad += mb_bad_bytes(RB(i), nb, 1, i, 0);
		}
	} else if (rank == 1) {
		for (i = 0; i < n; i++) {
			/* wrong-rank mutant: rank 1 echoes what it received */
			char *back = MUTANT(MB_MUT_WRONG_RANK) ? CR(i) : CS(i);
			if (chk)
				fresh(SB(i), nb, RB(i), nb, rank, i);
			if (!SKIP(i)) {
				CHK(MPI_Recv(CR(i), count, B.dt, 0, TAG, comm, &st));
				CHK(MPI_Send(back, count, B.dt, 0, TAG, comm));
			}
			if (chk)
				*bad += mb_bad_bytes(RB(i), nb, 0, i, 0);
		}
	}
	return MPI_SUCCESS;
}

/* PingPing: both ranks post MPI_Isend at once, receive the oncoming
 * message, then wait for their own send (IMB 3.3.2.2). */
LOOP pingping(const mb_kernel *k, int rank, int chk, int oc, long long *bad)
{
	int i, other = 1 - rank, c = k->count;
	const slots B = slots_of(k, 0);
	long long nb = (long long)c * B.ts;
	MPI_Request req;
	MPI_Status st;
	if (rank > 1)
		return MPI_SUCCESS;
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh(SB(i), nb, RB(i), nb, rank, i);
		if (SKIP(i)) {
		} else if (MUTANT(MB_MUT_WRONG_RANK) && rank == 1) {
			/* rank 1 sends back rank 0's message instead of its own */
			CHK(MPI_Recv(CR(i), c, B.dt, other, TAG, k->comm, &st));
			CHK(MPI_Send(CR(i), c, B.dt, other, TAG, k->comm));
		} else {
			CHK(MPI_Isend(CS(i), c, B.dt, other, TAG, k->comm, &req));
			CHK(MPI_Recv(CR(i), c, B.dt, other, TAG, k->comm, &st));
			CHK(MPI_Wait(&req, &st));
		}
		if (chk)
			*bad += mb_bad_bytes(RB(i), nb, other, i, 0);
	}
	return MPI_SUCCESS;
}

/* Sendrecv: periodic chain, send right, receive from left (IMB 3.3.3.1). */
LOOP sendrecv(const mb_kernel *k, int rank, int size, int chk, int oc, long long *bad)
{
	int i, right = (rank + 1) % size, left = (rank + size - 1) % size;
	int to = right, from = left, c = k->count;
	const slots B = slots_of(k, 0);
	long long nb = (long long)c * B.ts;
	MPI_Status st;
	if (MUTANT(MB_MUT_WRONG_RANK))
		to = from = rank; /* receives its own data */
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh(SB(i), nb, RB(i), nb, rank, i);
		if (!SKIP(i))
			CHK(MPI_Sendrecv(CS(i), c, B.dt, to, TAG, CR(i), c, B.dt, from, TAG, k->comm, &st));
		if (chk)
			*bad += mb_bad_bytes(RB(i), nb, left, i, 0);
	}
	return MPI_SUCCESS;
}

/* Exchange: Isend to both neighbours, Recv from both, Waitall
 * (IMB 3.3.3.2). The first half of sbuf goes right, the second left; the
 * first half of rbuf comes from the left, the second from the right. */
LOOP exchange(const mb_kernel *k, int rank, int size, int chk, int oc, long long *bad)
{
	int i, right = (rank + 1) % size, left = (rank + size - 1) % size;
	int to_r = right, to_l = left, from_l = left, from_r = right;
	int c = k->count;
	const slots B = slots_of(k, 0);
	long long nb = (long long)c * B.ts;
	MPI_Request req[2];
	MPI_Status st[2];
	if (MUTANT(MB_MUT_WRONG_RANK))
		to_r = to_l = from_l = from_r = rank; /* receives its own data */
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh(SB(i), 2 * nb, RB(i), 2 * nb, rank, i);
		if (!SKIP(i)) {
			CHK(MPI_Isend(CS(i), c, B.dt, to_r, TAG, k->comm, &req[0]));
			CHK(MPI_Isend(CS(i) + nb, c, B.dt, to_l, TAG, k->comm, &req[1]));
			CHK(MPI_Recv(CR(i), c, B.dt, from_l, TAG, k->comm, &st[0]));
			CHK(MPI_Recv(CR(i) + nb, c, B.dt, from_r, TAG, k->comm, &st[0]));
			CHK(MPI_Waitall(2, req, st));
		}
		if (chk)
			*bad += mb_bad_bytes(RB(i), nb, left, i, 0) + mb_bad_bytes(RB(i) + nb, nb, right, i, nb);
	}
	return MPI_SUCCESS;
}

/* Bcast: the root changes cyclically; the root sends from sbuf, the others
 * receive into rbuf, so every received buffer has a well defined content.
 * Under -off_cache both advance by one slot per repetition (IMB_bcast.c
 * takes s_offs for both; the receive slots are as large, imb/offcache.go). */
LOOP bcast(const mb_kernel *k, int rank, int size, int chk, int oc, int t21, double *acc, long long *bad)
{
	int i, root = k->root0 % size, c = k->count;
	int step = MUTANT(MB_MUT_NO_ROTATION) ? 0 : (t21 ? k->root_shift : 1);
	const slots B = slots_of(k, 0);
	long long nb = (long long)c * B.ts;
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh(SB(i), nb, RB(i), nb, rank, i);
		if (!SKIP(i))
			COLL(MPI_Bcast(rank == root ? CS(i) : CR(i), c, B.dt, root, k->comm));
		if (chk && rank != root_of(k, i, size, t21))
			*bad += mb_bad_bytes(RB(i), nb, root_of(k, i, size, t21), i, 0);
		root += step;
		if (root == size)
			root = 0;
		CHK(AFTER(t21, k));
	}
	return MPI_SUCCESS;
}

/* bad_blocks counts the wrong bytes of a gathered buffer: the block of
 * every rank p, counts[p] items of ts bytes at item displs[p], must be p's
 * content of repetition i from byte off on. */
static long long bad_blocks(const char *r, const int *counts, const int *displs, int ts, int size, int i,
			    long long off)
{
	long long bad = 0;
	int p;
	for (p = 0; p < size; p++)
		bad += mb_bad_bytes(r + (long long)displs[p] * ts, (long long)counts[p] * ts, p, i, off);
	return bad;
}

/* bad_uniform is bad_blocks for nb bytes per rank at p·nb, each p's
 * content from byte at on. */
static long long bad_uniform(const char *r, long long nb, int size, int i, long long at)
{
	long long bad = 0;
	int p;
	for (p = 0; p < size; p++)
		bad += mb_bad_bytes(r + (long long)p * nb, nb, p, i, at);
	return bad;
}

LOOP allgather(const mb_kernel *k, int rank, int size, int chk, int oc, int t21, double *acc, long long *bad)
{
	int i, c = k->count;
	const slots B = slots_of(k, 0);
	long long nb = (long long)c * B.ts;
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh(SB(i), nb, RB(i), size * nb, rank, i);
		if (!SKIP(i))
			COLL(MPI_Allgather(CS(i), c, B.dt, CR(i), c, B.dt, k->comm));
		if (chk)
			*bad += bad_uniform(RB(i), nb, size, i, 0);
		CHK(AFTER(t21, k));
	}
	return MPI_SUCCESS;
}

LOOP allgatherv(const mb_kernel *k, int rank, int size, int chk, int oc, int t21, double *acc, long long *bad)
{
	int i, c = k->count;
	const slots B = slots_of(k, 0);
	long long nb = (long long)c * B.ts;
	const int *rd = MUTANT(MB_MUT_DISPL) ? mb_shifted_displs(k->displs, size) : k->displs;
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh(SB(i), nb, RB(i), size * nb, rank, i);
		if (!SKIP(i))
			COLL(MPI_Allgatherv(CS(i), c, B.dt, CR(i), k->counts, rd, B.dt, k->comm));
		if (chk)
			*bad += bad_blocks(RB(i), k->counts, k->displs, B.ts, size, i, 0);
		CHK(AFTER(t21, k));
	}
	return MPI_SUCCESS;
}

/* Alltoall: block p of the send buffer goes to rank p, so rank p's block
 * in rbuf is p's content from position rank·count on. */
LOOP alltoall(const mb_kernel *k, int rank, int size, int chk, int oc, int t21, double *acc, long long *bad)
{
	int i, c = k->count;
	const slots B = slots_of(k, 0);
	long long nb = (long long)c * B.ts;
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh(SB(i), size * nb, RB(i), size * nb, rank, i);
		if (!SKIP(i))
			COLL(MPI_Alltoall(CS(i), c, B.dt, CR(i), c, B.dt, k->comm));
		if (chk)
			*bad += bad_uniform(RB(i), nb, size, i, rank * nb);
		CHK(AFTER(t21, k));
	}
	return MPI_SUCCESS;
}

/* Alltoallv: the same counts and displacements on both sides, so rank p's
 * block in rbuf is p's content from position displs[rank] on. */
LOOP alltoallv(const mb_kernel *k, int rank, int size, int chk, int oc, int t21, double *acc, long long *bad)
{
	int i;
	const slots B = slots_of(k, 0);
	long long all = (long long)size * k->count * B.ts;
	const int *rd = MUTANT(MB_MUT_DISPL) ? mb_shifted_displs(k->displs, size) : k->displs;
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh(SB(i), all, RB(i), all, rank, i);
		if (!SKIP(i))
			COLL(MPI_Alltoallv(CS(i), k->counts, k->displs, B.dt, CR(i), k->counts, rd, B.dt, k->comm));
		if (chk)
			*bad += bad_blocks(RB(i), k->counts, k->displs, B.ts, size, i,
					   (long long)k->displs[rank] * B.ts);
		CHK(AFTER(t21, k));
	}
	return MPI_SUCCESS;
}

/* short_count is the short-reduce mutant's count: one element short. */
static int short_count(int count) { return count > 0 ? count - 1 : 0; }

/* Reduce: MPI_SUM of -red_data_type items (MPI_FLOAT by default), root
 * changing cyclically (IMB 3.3.4.1). */
LOOP reduce(const mb_kernel *k, int rank, int size, int chk, int oc, int t21, double *acc, long long *bad)
{
	int i, root = k->root0 % size;
	int step = MUTANT(MB_MUT_NO_ROTATION) ? 0 : (t21 ? k->root_shift : 1);
	int count = MUTANT(MB_MUT_SHORT_REDUCE) ? short_count(k->count) : k->count;
	const slots B = slots_of(k, 1);
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh_red(B.type, SB(i), k->count, RB(i), (long long)B.ts * k->count, rank, i);
		if (!SKIP(i))
			COLL(MPI_Reduce(CS(i), CR(i), count, B.dt, MPI_SUM, root, k->comm));
		if (chk && rank == root_of(k, i, size, t21))
			*bad += mb_bad_red(RB(i), k->count, B.type, size, i, 0);
		root += step;
		if (root == size)
			root = 0;
		CHK(AFTER(t21, k));
	}
	return MPI_SUCCESS;
}

/* shortened is the short-reduce mutant's Reduce_scatter counts: the last
 * rank with elements gets one fewer. Test builds only. */
static const int *shortened(const int *counts, int size)
{
	static int *c;
	int p;
	free(c);
	c = malloc(sizeof(int) * (size_t)size);
	if (c == NULL)
		return counts;
	for (p = 0; p < size; p++)
		c[p] = counts[p];
	for (p = size - 1; p >= 0; p--)
		if (c[p] > 0) {
			c[p]--;
			break;
		}
	return c;
}

/* Reduce_scatter: rank p gets counts[p] sums, from position
 * counts[0] + ... + counts[p-1] of the reduced vector of count items. */
LOOP reduce_scatter(const mb_kernel *k, int rank, int size, int chk, int oc, int t21, double *acc, long long *bad)
{
	int i, p;
	long long off = 0;
	const int *counts = MUTANT(MB_MUT_SHORT_REDUCE) ? shortened(k->counts, size) : k->counts;
	const slots B = slots_of(k, 1);
	if (chk)
		for (p = 0; p < rank; p++)
			off += k->counts[p];
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh_red(B.type, SB(i), k->count, RB(i), (long long)B.ts * k->counts[rank], rank, i);
		if (!SKIP(i))
			COLL(MPI_Reduce_scatter(CS(i), CR(i), counts, B.dt, MPI_SUM, k->comm));
		if (chk)
			*bad += mb_bad_red(RB(i), k->counts[rank], B.type, size, i, off);
		CHK(AFTER(t21, k));
	}
	return MPI_SUCCESS;
}

LOOP allreduce(const mb_kernel *k, int rank, int size, int chk, int oc, int t21, double *acc, long long *bad)
{
	int i;
	int count = MUTANT(MB_MUT_SHORT_REDUCE) ? short_count(k->count) : k->count;
	const slots B = slots_of(k, 1);
	for (i = 0; i < k->nrep; i++) {
		if (chk)
			fresh_red(B.type, SB(i), k->count, RB(i), (long long)B.ts * k->count, rank, i);
		if (!SKIP(i))
			COLL(MPI_Allreduce(CS(i), CR(i), count, B.dt, MPI_SUM, k->comm));
		if (chk)
			*bad += mb_bad_red(RB(i), k->count, B.type, size, i, 0);
		CHK(AFTER(t21, k));
	}
	return MPI_SUCCESS;
}

/* Barrier moves no data: nothing to check. */
LOOP barrier(const mb_kernel *k)
{
	int i;
	for (i = 0; i < k->nrep; i++)
		if (!SKIP(i))
			CHK(MPI_Barrier(k->comm));
	return MPI_SUCCESS;
}

LOOP dispatch(const mb_kernel *k, int rank, int size, int chk, int oc, int t21, double *acc, long long *bad)
{
	switch (k->kind) {
	case MB_PINGPONG: return pingpong(k, rank, chk, oc, bad);
	case MB_PINGPING: return pingping(k, rank, chk, oc, bad);
	case MB_SENDRECV: return sendrecv(k, rank, size, chk, oc, bad);
	case MB_EXCHANGE: return exchange(k, rank, size, chk, oc, bad);
	case MB_BCAST: return bcast(k, rank, size, chk, oc, t21, acc, bad);
	case MB_ALLGATHER: return allgather(k, rank, size, chk, oc, t21, acc, bad);
	case MB_ALLGATHERV: return allgatherv(k, rank, size, chk, oc, t21, acc, bad);
	case MB_ALLTOALL: return alltoall(k, rank, size, chk, oc, t21, acc, bad);
	case MB_ALLTOALLV: return alltoallv(k, rank, size, chk, oc, t21, acc, bad);
	case MB_REDUCE: return reduce(k, rank, size, chk, oc, t21, acc, bad);
	case MB_REDUCE_SCATTER: return reduce_scatter(k, rank, size, chk, oc, t21, acc, bad);
	case MB_ALLREDUCE: return allreduce(k, rank, size, chk, oc, t21, acc, bad);
	case MB_BARRIER: return barrier(k);
	}
	return MPI_ERR_ARG;
}

/* each21 tells whether IMB 2021 times kind call by call: its collectives
 * but Barrier (IMB_barrier.c times the loop as a whole, as IMB 3.0). */
static int each21(int kind)
{
	return kind >= MB_BCAST && kind <= MB_ALLREDUCE;
}

/* run is mb_run, mb_run_check, mb_run21 and mb_run21_check, each with
 * and without -off_cache (oc): barriers, then the loop between two
 * MPI_Wtime calls; under t21 a collective's time is the sum of its calls'
 * times instead. */
LOOP run(const mb_kernel *k, double *t, int chk, int oc, int t21, long long *bad)
{
	int rank, size, rc;
	double t0, acc = 0;
	CHK(MPI_Comm_rank(k->comm, &rank));
	CHK(MPI_Comm_size(k->comm, &size));
	CHK(MUTANT_MPI_ERROR(k->comm));
	mb_settle();
	/* The skew mutant: rank 1 late for IMB 3.0's loop of a collective,
	 * which its barriers absorb and -sync none measures. */
	if (!t21 && k->kind >= MB_BCAST)
		MUTANT_SKEW(k->comm);
	/* -imb_barrier: IMB's barrier before its collectives' timing. */
	CHK(mb_barriers(k->comm, k->nbarr, k->imb_barrier && k->kind >= MB_BCAST));
	t0 = MPI_Wtime();
	rc = dispatch(k, rank, size, chk, oc, t21, &acc, bad);
	t0 = MPI_Wtime() - t0;
	if (t21 && each21(k->kind))
		t0 = acc;
	*t = t0 / (k->nrep > 0 ? k->nrep : 1);
	return rc;
}

/* The offset loops (oc = 1) are instantiations of their own, chosen
 * before the timing: the loops without -off_cache stay IMB 3.0's. */
int mb_run(const mb_kernel *k, double *t)
{
	return k->s_iter > 0 ? run(k, t, 0, 1, 0, NULL) : run(k, t, 0, 0, 0, NULL);
}

int mb_run_check(const mb_kernel *k, double *t, long long *defects)
{
	*defects = 0;
	return k->s_iter > 0 ? run(k, t, 1, 1, 0, defects) : run(k, t, 1, 0, 0, defects);
}

int mb_run21(const mb_kernel *k, double *t)
{
	return k->s_iter > 0 ? run(k, t, 0, 1, 1, NULL) : run(k, t, 0, 0, 1, NULL);
}

int mb_run21_check(const mb_kernel *k, double *t, long long *defects)
{
	*defects = 0;
	return k->s_iter > 0 ? run(k, t, 1, 1, 1, defects) : run(k, t, 1, 0, 1, defects);
}
