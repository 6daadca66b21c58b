//go:build cgo && !nompi

#include <limits.h>
#include "bigcount.h"
#include "check.h"
#include "chk.h"
#include "mutant.h"

#define TAG 1000

long long mb_big_limit = INT_MAX;
long long mb_big_block = 1LL << 20;
int mb_big_force = 0;

int mb_big_mode_of(long long n, int floats)
{
	(void)floats;
	if (n <= mb_big_limit && !mb_big_force)
		return MB_BIG_INT;
	return MB_HAVE_LARGE_COUNT && !mb_big_force ? MB_BIG_LARGE : MB_BIG_DERIVED;
}

/* sum_blocks is the user MPI_SUM over contiguous blocks of floats: len
 * elements of *dt, each MPI_Type_size(*dt) / 4 floats. */
static void sum_blocks(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	int size = 0;
	long long j, n;
	const float *a = in;
	float *b = inout;
	MPI_Type_size(*dt, &size);
	n = (long long)*len * (size / 4);
	for (j = 0; j < n; j++)
		b[j] += a[j];
}

/* derived_bytes builds the byte type of the header comment. */
static int derived_bytes(mb_big *m, long long q, long long rem)
{
	MPI_Datatype blk;
	int lens[2] = {(int)q, (int)rem};
	MPI_Aint displs[2] = {0, (MPI_Aint)(q * mb_big_block)};
	MPI_Datatype types[2];
	CHK(MPI_Type_contiguous((int)mb_big_block, MPI_BYTE, &blk));
	if (rem == 0) {
		m->type = blk;
		m->count = q;
		return MPI_Type_commit(&m->type);
	}
	types[0] = blk;
	types[1] = MPI_BYTE;
	CHK(MPI_Type_create_struct(2, lens, displs, types, &m->type));
	CHK(MPI_Type_free(&blk));
	m->count = 1;
	return MPI_Type_commit(&m->type);
}

/* derived_floats builds the blocks of floats and the user sum. */
static int derived_floats(mb_big *m, long long q, long long rem)
{
	CHK(MPI_Type_contiguous((int)mb_big_block, MPI_FLOAT, &m->type));
	CHK(MPI_Type_commit(&m->type));
	CHK(MPI_Op_create(sum_blocks, 1, &m->op));
	m->count = q;
	m->rest = rem;
	m->rest_off = 4 * q * mb_big_block;
	return MPI_SUCCESS;
}

int mb_big_make(mb_big *m, long long n, int floats)
{
	long long q, rem;
	m->mode = mb_big_mode_of(n, floats);
	m->n = m->count = n;
	m->type = floats ? MPI_FLOAT : MPI_BYTE;
	m->op = MPI_SUM;
	m->rest = m->rest_off = 0;
	m->owned = 0;
	if (m->mode != MB_BIG_DERIVED)
		return MPI_SUCCESS;
	q = n / mb_big_block;
	rem = n % mb_big_block;
	if (q > INT_MAX || mb_big_block > INT_MAX)
		return MPI_ERR_COUNT;
	m->owned = 1;
	return floats ? derived_floats(m, q, rem) : derived_bytes(m, q, rem);
}

void mb_big_free(mb_big *m)
{
	if (!m->owned)
		return;
	if (m->type != MPI_DATATYPE_NULL)
		MPI_Type_free(&m->type);
	if (m->op != MPI_SUM && m->op != MPI_OP_NULL)
		MPI_Op_free(&m->op);
	m->owned = 0;
}

/* named returns rc, keeping name for the error (chk.h) when it failed:
 * the error names the MPI call, not the wrapper. */
static int named(int rc, const char *name)
{
	if (rc != MPI_SUCCESS && !mb_chk_call)
		mb_chk_call = name;
	return rc;
}

/* The calls: the _c call in MB_BIG_LARGE mode, else the int call with the
 * count of mb_big (the items, or the derived elements). */
#if MB_HAVE_LARGE_COUNT
#define BIGCALL(m, call, ...)                                                      \
	((m)->mode == MB_BIG_LARGE ? named(call##_c(__VA_ARGS__), #call "_c") \
				   : named(call(__VA_ARGS__), #call))
#else
#define BIGCALL(m, call, ...) named(call(__VA_ARGS__), #call)
#endif

static int big_send(const void *b, const mb_big *m, int to, MPI_Comm c)
{
	return BIGCALL(m, MPI_Send, b, m->count, m->type, to, TAG, c);
}

static int big_recv(void *b, const mb_big *m, int from, MPI_Comm c)
{
	return BIGCALL(m, MPI_Recv, b, m->count, m->type, from, TAG, c, MPI_STATUS_IGNORE);
}

static int big_isend(const void *b, const mb_big *m, int to, MPI_Comm c, MPI_Request *req)
{
	return BIGCALL(m, MPI_Isend, b, m->count, m->type, to, TAG, c, req);
}

static int big_irecv(void *b, const mb_big *m, int from, MPI_Comm c, MPI_Request *req)
{
	return BIGCALL(m, MPI_Irecv, b, m->count, m->type, from, TAG, c, req);
}

static int big_sendrecv(const void *s, int to, void *r, int from, const mb_big *m, MPI_Comm c)
{
	return BIGCALL(m, MPI_Sendrecv, s, m->count, m->type, to, TAG, r, m->count, m->type, from, TAG, c,
		       MPI_STATUS_IGNORE);
}

static int big_bcast(void *b, const mb_big *m, int root, MPI_Comm c)
{
	return BIGCALL(m, MPI_Bcast, b, m->count, m->type, root, c);
}

/* big_reduce is MPI_Reduce (root >= 0) or MPI_Allreduce (root < 0) of
 * m's floats with MPI_SUM: the blocks, then the loose floats. */
static int big_reduce(const void *s, void *r, const mb_big *m, int root, MPI_Comm c)
{
	const char *s2 = (const char *)s + m->rest_off;
	char *r2 = (char *)r + m->rest_off;
	int rc = root >= 0 ? BIGCALL(m, MPI_Reduce, s, r, m->count, m->type, m->op, root, c)
			   : BIGCALL(m, MPI_Allreduce, s, r, m->count, m->type, m->op, c);
	if (rc != MPI_SUCCESS)
		return rc;
	if (m->rest == 0)
		return MPI_SUCCESS;
	if (root >= 0)
		return named(MPI_Reduce(s2, r2, (int)m->rest, MPI_FLOAT, MPI_SUM, root, c), "MPI_Reduce");
	return named(MPI_Allreduce(s2, r2, (int)m->rest, MPI_FLOAT, MPI_SUM, c), "MPI_Allreduce");
}

/* The kernels: kernels.c's loops with an mb_big for the count, each
 * written once with a constant chk (kernels.c explains the pattern). */
#define LOOP static inline __attribute__((always_inline)) int
#define SKIP(i) (MUTANT(MB_MUT_FIRST_ONLY) && (i) > 0)

/* COLL times a collective call alone under t21 (IMB 2021.11), adding its
 * time to *acc; under IMB 3.0 the loop is timed as a whole. */
#define COLL(call)                                    \
	do {                                          \
		double t1_ = t21 ? MPI_Wtime() : 0;   \
		CHK(call);                            \
		if (t21)                              \
			*acc += MPI_Wtime() - t1_;    \
	} while (0)

/* after ends a repetition of a collective: IMB 2021's sync barriers. */
static int after(const mb_bigkernel *k, int t21)
{
	int b;
	for (b = 0; t21 && b < k->sync; b++)
		CHK(MPI_Barrier(k->comm));
	return MPI_SUCCESS;
}

/* PingPong with one buffer: rank 0 sends it and receives the echo into
 * it, rank 1 receives into it and sends it back. In check mode every
 * rank poisons it before a receive and writes its own content before a
 * send; the wrong-rank mutant's rank 1 echoes what it received. */
LOOP pingpong(const mb_bigkernel *k, const mb_big *m, int rank, int chk, long long *bad)
{
	int i, n = k->nrep, other = 1 - rank;
	void *b = k->sbuf;
	MPI_Comm comm = k->comm;
	if (rank > 1)
		return MPI_SUCCESS;
	for (i = 0; i < n; i++) {
		if (chk && rank == 0)
			mb_fill_bytes(b, m->n, 0, i, 0);
		if (rank == 0 && !SKIP(i))
			CHK(big_send(b, m, other, comm));
		if (chk)
			mb_poison(b, m->n);
		if (!SKIP(i))
			CHK(big_recv(b, m, other, comm));
		if (chk)
			*bad += mb_bad_bytes(b, m->n, other, i, 0);
		if (chk && rank == 1 && !MUTANT(MB_MUT_WRONG_RANK))
			mb_fill_bytes(b, m->n, 1, i, 0);
		if (rank == 1 && !SKIP(i))
			CHK(big_send(b, m, other, comm));
	}
	return MPI_SUCCESS;
}

LOOP pingping(const mb_bigkernel *k, const mb_big *m, int rank, int chk, long long *bad)
{
	int i, other = 1 - rank;
	MPI_Request req;
	if (rank > 1)
		return MPI_SUCCESS;
	for (i = 0; i < k->nrep; i++) {
		if (chk) {
			mb_fill_bytes(k->sbuf, m->n, rank, i, 0);
			mb_poison(k->rbuf, m->n);
		}
		if (SKIP(i)) {
		} else if (MUTANT(MB_MUT_WRONG_RANK) && rank == 1) {
			CHK(big_recv(k->rbuf, m, other, k->comm));
			CHK(big_send(k->rbuf, m, other, k->comm));
		} else {
			CHK(big_isend(k->sbuf, m, other, k->comm, &req));
			CHK(big_recv(k->rbuf, m, other, k->comm));
			CHK(MPI_Wait(&req, MPI_STATUS_IGNORE));
		}
		if (chk)
			*bad += mb_bad_bytes(k->rbuf, m->n, other, i, 0);
	}
	return MPI_SUCCESS;
}

LOOP sendrecv(const mb_bigkernel *k, const mb_big *m, int rank, int size, int chk, long long *bad)
{
	int i, right = (rank + 1) % size, left = (rank + size - 1) % size;
	int to = MUTANT(MB_MUT_WRONG_RANK) ? rank : right, from = MUTANT(MB_MUT_WRONG_RANK) ? rank : left;
	for (i = 0; i < k->nrep; i++) {
		if (chk) {
			mb_fill_bytes(k->sbuf, m->n, rank, i, 0);
			mb_poison(k->rbuf, m->n);
		}
		if (!SKIP(i))
			CHK(big_sendrecv(k->sbuf, to, k->rbuf, from, m, k->comm));
		if (chk)
			*bad += mb_bad_bytes(k->rbuf, m->n, left, i, 0);
	}
	return MPI_SUCCESS;
}

/* Exchange: the first half of sbuf goes right, the second left; the first
 * half of rbuf comes from the left, the second from the right. */
LOOP exchange(const mb_bigkernel *k, const mb_big *m, int rank, int size, int chk, long long *bad)
{
	int i, right = (rank + 1) % size, left = (rank + size - 1) % size;
	int to_r = right, to_l = left, from_l = left, from_r = right;
	long long c = m->n;
	char *s = k->sbuf, *r = k->rbuf;
	MPI_Request req[2];
	MPI_Status st[2];
	if (MUTANT(MB_MUT_WRONG_RANK))
		to_r = to_l = from_l = from_r = rank;
	for (i = 0; i < k->nrep; i++) {
		if (chk) {
			mb_fill_bytes(s, 2 * c, rank, i, 0);
			mb_poison(r, 2 * c);
		}
		if (!SKIP(i)) {
			CHK(big_isend(s, m, to_r, k->comm, &req[0]));
			CHK(big_isend(s + c, m, to_l, k->comm, &req[1]));
			CHK(big_recv(r, m, from_l, k->comm));
			CHK(big_recv(r + c, m, from_r, k->comm));
			CHK(MPI_Waitall(2, req, st));
		}
		if (chk)
			*bad += mb_bad_bytes(r, c, left, i, 0) + mb_bad_bytes(r + c, c, right, i, c);
	}
	return MPI_SUCCESS;
}

/* root_of is the root repetition i must have (kernels.c). */
static int root_of(const mb_bigkernel *k, int i, int size)
{
	return (int)(((long long)k->root0 + (long long)i * (k->t21 ? k->root_shift : 1)) % size);
}

/* Bcast with one buffer: the root sends from it, the others receive into
 * it; the root rotates as in kernels.c. */
LOOP bcast(const mb_bigkernel *k, const mb_big *m, int rank, int size, int chk, int t21, double *acc,
	   long long *bad)
{
	int i, root = k->root0 % size;
	int step = MUTANT(MB_MUT_NO_ROTATION) ? 0 : (t21 ? k->root_shift : 1);
	for (i = 0; i < k->nrep; i++) {
		if (chk && rank == root)
			mb_fill_bytes(k->sbuf, m->n, rank, i, 0);
		else if (chk)
			mb_poison(k->sbuf, m->n);
		if (!SKIP(i))
			COLL(big_bcast(k->sbuf, m, root, k->comm));
		if (chk && rank != root_of(k, i, size))
			*bad += mb_bad_bytes(k->sbuf, m->n, root_of(k, i, size), i, 0);
		root = (root + step) % size;
		CHK(after(k, t21));
	}
	return MPI_SUCCESS;
}

/* Reduce (root >= 0 rotating) and Allreduce: MPI_FLOAT, MPI_SUM. The
 * short-reduce mutant reduces one float fewer. */
LOOP reduce(const mb_bigkernel *k, const mb_big *m, int rank, int size, int chk, int t21, double *acc,
	    long long *bad, int all)
{
	int i, root = k->root0 % size;
	int step = MUTANT(MB_MUT_NO_ROTATION) ? 0 : (t21 ? k->root_shift : 1);
	for (i = 0; i < k->nrep; i++) {
		if (chk) {
			mb_fill_floats(k->sbuf, m->n, rank, i, 0);
			mb_poison(k->rbuf, 4 * m->n);
		}
		if (!SKIP(i))
			COLL(big_reduce(k->sbuf, k->rbuf, m, all ? -1 : root, k->comm));
		if (chk && (all || rank == root_of(k, i, size)))
			*bad += mb_bad_sums(k->rbuf, m->n, size, i, 0);
		root = (root + step) % size;
		CHK(after(k, t21));
	}
	return MPI_SUCCESS;
}

LOOP dispatch(const mb_bigkernel *k, const mb_big *m, int rank, int size, int chk, double *acc, long long *bad)
{
	int t21 = k->t21;
	switch (k->kind) {
	case MB_BIG_PINGPONG: return pingpong(k, m, rank, chk, bad);
	case MB_BIG_PINGPING: return pingping(k, m, rank, chk, bad);
	case MB_BIG_SENDRECV: return sendrecv(k, m, rank, size, chk, bad);
	case MB_BIG_EXCHANGE: return exchange(k, m, rank, size, chk, bad);
	case MB_BIG_BCAST: return bcast(k, m, rank, size, chk, t21, acc, bad);
	case MB_BIG_REDUCE: return reduce(k, m, rank, size, chk, t21, acc, bad, 0);
	case MB_BIG_ALLREDUCE: return reduce(k, m, rank, size, chk, t21, acc, bad, 1);
	}
	return MPI_ERR_ARG;
}

/* timed is the loop between barriers and two MPI_Wtime calls (kernels.c's
 * run); under t21 a collective's time is the sum of its calls'. */
LOOP timed(const mb_bigkernel *k, const mb_big *m, double *t, int chk, long long *bad)
{
	int i, rank, size, rc;
	double t0, acc = 0;
	CHK(MPI_Comm_rank(k->comm, &rank));
	CHK(MPI_Comm_size(k->comm, &size));
	CHK(MUTANT_MPI_ERROR(k->comm));
	for (i = 0; i < k->nbarr; i++)
		CHK(MPI_Barrier(k->comm));
	t0 = MPI_Wtime();
	rc = dispatch(k, m, rank, size, chk, &acc, bad);
	t0 = MPI_Wtime() - t0;
	if (k->t21 && k->kind >= MB_BIG_BCAST)
		t0 = acc;
	*t = t0 / (k->nrep > 0 ? k->nrep : 1);
	return rc;
}

/* mb_big_run builds the message's datatype outside the timed region and
 * frees it after. */
int mb_big_run(const mb_bigkernel *k, double *t, int chk, long long *bad)
{
	mb_big m;
	int floats = k->kind >= MB_BIG_REDUCE, rc;
	long long n = MUTANT(MB_MUT_SHORT_REDUCE) && floats && k->n > 0 ? k->n - 1 : k->n;
	*bad = 0;
	CHK(mb_big_make(&m, n, floats));
	m.n = k->n; /* what is filled and checked: all of it, also under the mutant */
	rc = chk ? timed(k, &m, t, 1, bad) : timed(k, &m, t, 0, bad);
	mb_big_free(&m);
	return rc;
}

/* OSU 7.4's loops at n bytes (osu.c has the definitions: each timed
 * iteration between its own two MPI_Wtime calls, summed; -c fills before
 * every iteration, then a barrier, and counts an iteration with any wrong
 * byte as one error). */

static inline void osu_timed(mb_bigosu *k, int i, double t)
{
	k->time += t;
	if (k->samples)
		k->samples[i - k->skip] = t;
}

/* osu_latency with one buffer: rank 0 sends it and receives the echo into
 * it; under -c each rank writes its content before it sends and poisons
 * before it receives; rank 1 checks what it received before it writes its
 * own (the wrong-rank mutant echoes rank 0's data instead). */
LOOP osu_latency(mb_bigosu *k, const mb_big *m, int rank, int chk)
{
	int i, j, peer = 1 - rank;
	double t0 = 0;
	long long bad;
	void *b = k->sbuf;
	for (i = 0; i < k->iters + k->skip; i++) {
		if (chk)
			CHK(MPI_Barrier(k->comm));
		for (j = 0, bad = 0; j <= k->vwarm; j++) {
			int t = i >= k->skip && j == k->vwarm;
			if (rank == 0) {
				if (chk)
					mb_fill_bytes(b, m->n, 0, i, 0);
				if (t)
					t0 = MPI_Wtime();
				CHK(big_send(b, m, peer, k->comm));
				if (chk)
					mb_poison(b, m->n);
				CHK(big_recv(b, m, peer, k->comm));
				if (t)
					osu_timed(k, i, MPI_Wtime() - t0);
			} else {
				if (chk)
					mb_poison(b, m->n);
				CHK(big_recv(b, m, peer, k->comm));
				if (chk)
					bad = mb_bad_bytes(b, m->n, peer, i, 0);
				if (chk && !MUTANT(MB_MUT_WRONG_RANK))
					mb_fill_bytes(b, m->n, 1, i, 0);
				CHK(big_send(b, m, peer, k->comm));
			}
		}
		if (chk && rank == 0)
			bad = mb_bad_bytes(b, m->n, peer, i, 0);
		k->errors += bad > 0;
	}
	return MPI_SUCCESS;
}

/* osu_bw: rank 0 times a window of Isends, their Waitall and rank 1's
 * one-byte ack; rank 1 receives the window into one buffer, as OSU. */
LOOP osu_bw(mb_bigosu *k, const mb_big *m, int rank, int chk)
{
	int i, j, w, peer = 1 - rank;
	double t0 = 0;
	char ack = 0;
	for (i = 0; i < k->iters + k->skip; i++) {
		if (chk && rank == 0 && !MUTANT(MB_MUT_WRONG_RANK)) /* the mutant resends old data */
			mb_fill_bytes(k->sbuf, m->n, 0, i, 0);
		else if (chk && rank == 1)
			mb_poison(k->rbuf, m->n);
		if (chk)
			CHK(MPI_Barrier(k->comm));
		for (j = 0; j <= k->vwarm; j++) {
			int t = i >= k->skip && j == k->vwarm;
			if (t && rank == 0)
				t0 = MPI_Wtime();
			for (w = 0; w < k->window; w++) {
				if (rank == 0)
					CHK(big_isend(k->sbuf, m, peer, k->comm, k->reqs + w));
				else
					CHK(big_irecv(k->rbuf, m, peer, k->comm, k->reqs + w));
			}
			CHK(MPI_Waitall(k->window, k->reqs, k->stats));
			if (rank == 0)
				CHK(MPI_Recv(&ack, 1, MPI_CHAR, peer, TAG + 1, k->comm, MPI_STATUS_IGNORE));
			else
				CHK(MPI_Send(&ack, 1, MPI_CHAR, peer, TAG + 1, k->comm));
			if (t && rank == 0)
				osu_timed(k, i, MPI_Wtime() - t0);
		}
		if (chk && rank == 1)
			k->errors += mb_bad_bytes(k->rbuf, m->n, peer, i, 0) > 0;
	}
	return MPI_SUCCESS;
}

/* osu_bibw: both post the window of Irecvs, then of Isends; rank 0 waits
 * for its sends then its receives and times it all. */
LOOP osu_bibw(mb_bigosu *k, const mb_big *m, int rank, int chk)
{
	int i, j, w, peer = 1 - rank;
	MPI_Request *rreq = k->reqs, *sreq = k->reqs + k->window;
	double t0 = 0;
	for (i = 0; i < k->iters + k->skip; i++) {
		if (chk) { /* the wrong-rank mutant sends what it sent before */
			if (!MUTANT(MB_MUT_WRONG_RANK))
				mb_fill_bytes(k->sbuf, m->n, rank, i, 0);
			mb_poison(k->rbuf, m->n);
			CHK(MPI_Barrier(k->comm));
		}
		for (j = 0; j <= k->vwarm; j++) {
			int t = i >= k->skip && j == k->vwarm;
			if (t && rank == 0)
				t0 = MPI_Wtime();
			for (w = 0; w < k->window; w++)
				CHK(big_irecv(k->rbuf, m, peer, k->comm, rreq + w));
			for (w = 0; w < k->window; w++)
				CHK(big_isend(k->sbuf, m, peer, k->comm, sreq + w));
			CHK(MPI_Waitall(k->window, rank == 0 ? sreq : rreq, k->stats));
			CHK(MPI_Waitall(k->window, rank == 0 ? rreq : sreq, k->stats));
			if (t && rank == 0)
				osu_timed(k, i, MPI_Wtime() - t0);
		}
		if (chk)
			k->errors += mb_bad_bytes(k->rbuf, m->n, peer, i, 0) > 0;
	}
	return MPI_SUCCESS;
}

LOOP osu_loop(mb_bigosu *k, const mb_big *m, int chk)
{
	int rank;
	CHK(MUTANT_MPI_ERROR(k->comm));
	CHK(MPI_Comm_rank(k->comm, &rank));
	CHK(MPI_Barrier(k->comm));
	if (rank > 1)
		return MPI_SUCCESS;
	switch (k->kind) {
	case MB_BIGOSU_LATENCY: return osu_latency(k, m, rank, chk);
	case MB_BIGOSU_BW: return osu_bw(k, m, rank, chk);
	case MB_BIGOSU_BIBW: return osu_bibw(k, m, rank, chk);
	}
	return MPI_ERR_ARG;
}

int mb_bigosu_run(mb_bigosu *k, int chk)
{
	mb_big m;
	int rc;
	k->time = 0;
	k->errors = 0;
	CHK(mb_big_make(&m, k->n, 0));
	k->mode = m.mode;
	rc = chk ? osu_loop(k, &m, 1) : osu_loop(k, &m, 0);
	mb_big_free(&m);
	return rc;
}

/* OSU 7.4's osu_bcast, osu_reduce and osu_allreduce at n items
 * (osucoll.c's pass, with the calls of mb_big). */

/* coll_call is one repetition's call: Bcast from root 0 (osu_bcast.c),
 * Reduce to root, Allreduce. */
static int coll_call(const mb_bigcoll *k, const mb_big *m, int kind, int root)
{
	if (kind == MB_BIGCOLL_BCAST)
		return big_bcast(k->rbuf, m, 0, k->comm);
	return big_reduce(k->sbuf, k->rbuf, m, kind == MB_BIGCOLL_REDUCE ? root : -1, k->comm);
}

/* coll_prepare writes rank's content of repetition i (Bcast: the root's
 * bytes; the reductions: every rank's floats) and poisons what it
 * receives into. */
static void coll_prepare(const mb_bigcoll *k, int kind, int rank, int root, long long i)
{
	if (kind == MB_BIGCOLL_BCAST) {
		if (rank == 0)
			mb_fill_bytes(k->rbuf, k->n, 0, i, 0);
		else
			mb_poison(k->rbuf, k->n);
		return;
	}
	mb_fill_floats(k->sbuf, k->n, rank, i, 0);
	if (kind == MB_BIGCOLL_ALLREDUCE || rank == root)
		mb_poison(k->rbuf, 4 * k->n);
}

/* coll_bad counts the items rank received wrong in repetition i. */
static long long coll_bad(const mb_bigcoll *k, int kind, int rank, int size, int root, long long i)
{
	if (kind == MB_BIGCOLL_BCAST)
		return rank == 0 ? 0 : mb_bad_bytes(k->rbuf, k->n, 0, i, 0);
	if (kind == MB_BIGCOLL_ALLREDUCE || rank == root)
		return mb_bad_sums(k->rbuf, k->n, size, i, 0);
	return 0;
}

/* coll_loop is osucoll.c's pass for one kind (a constant when inlined):
 * -c's -u calls after a barrier each and its barrier before the call;
 * the call alone between the two MPI_Wtime calls; OSU's barrier after
 * the time, before it for Reduce (osu_reduce.c). */
LOOP coll_loop(mb_bigcoll *k, const mb_big *m, int kind, int rank, int size, int chk)
{
	int i, w, root = k->root < 0 ? 0 : k->root, pre = kind == MB_BIGCOLL_REDUCE;
	double t0, t1;
	for (i = 0; i < k->skip + k->iters; i++) {
		if (k->root < 0)
			root = i % size;
		for (w = 0; chk && w < k->vwarm; w++) {
			CHK(MPI_Barrier(k->comm));
			CHK(coll_call(k, m, kind, root));
		}
		if (chk)
			coll_prepare(k, kind, rank, root, i);
		if (pre || chk)
			CHK(MPI_Barrier(k->comm));
		t0 = MPI_Wtime();
		if (!SKIP(i))
			CHK(coll_call(k, m, kind, root));
		t1 = MPI_Wtime();
		if (!pre)
			CHK(MPI_Barrier(k->comm));
		if (chk)
			k->errors += coll_bad(k, kind, rank, size, root, i);
		if (i < k->skip)
			continue;
		k->time += t1 - t0;
		if (k->samples)
			k->samples[i - k->skip] = t1 - t0;
	}
	return MPI_SUCCESS;
}

LOOP coll_kinds(mb_bigcoll *k, const mb_big *m, int chk)
{
	int rank, size;
	CHK(MPI_Comm_rank(k->comm, &rank));
	CHK(MPI_Comm_size(k->comm, &size));
	CHK(MUTANT_MPI_ERROR(k->comm));
	switch (k->kind) {
	case MB_BIGCOLL_BCAST: return coll_loop(k, m, MB_BIGCOLL_BCAST, rank, size, chk);
	case MB_BIGCOLL_REDUCE: return coll_loop(k, m, MB_BIGCOLL_REDUCE, rank, size, chk);
	case MB_BIGCOLL_ALLREDUCE: return coll_loop(k, m, MB_BIGCOLL_ALLREDUCE, rank, size, chk);
	}
	return MPI_ERR_ARG;
}

/* mb_bigcoll_run builds the message's datatype outside the timed loop;
 * the osu-coll-short mutant's calls carry one item fewer, while all n
 * are filled and checked. */
int mb_bigcoll_run(mb_bigcoll *k, int chk)
{
	mb_big m;
	int rc;
	long long n = MUTANT(MB_MUT_OSU_COLL_SHORT) && k->n > 0 ? k->n - 1 : k->n;
	k->time = 0;
	k->errors = 0;
	CHK(mb_big_make(&m, n, k->kind != MB_BIGCOLL_BCAST));
	k->mode = m.mode;
	rc = chk ? coll_kinds(k, &m, 1) : coll_kinds(k, &m, 0);
	mb_big_free(&m);
	return rc;
}
