//go:build cgo && !nompi

#include <stdlib.h>
#include "osucoll.h"
#include "settle.h"
#include "check.h"
#include "pattern.h"
#include "chk.h"
#include "mutant.h"

/* As in nbc.c, the loop is written once and always inlined with constant
 * kind, nb, chk and ovl, so each instantiation is the bare MPI calls of
 * one test: no switch and no check hook runs inside a timed region. */
#define LOOP static inline __attribute__((always_inline)) int

/* SKIP(i): the first-only mutant communicates in repetition 0 only. */
#define SKIP(i) (MUTANT(MB_MUT_FIRST_ONLY) && (i) > 0)

/* OSU's dummy compute (osu_util_mpi.c: DIM 25, a[][] = 2, x[] = y[] = 1,
 * compute_on_host). Not static: the stores must stay. */
#define OSU_DIM 25
float mb_osu_a[OSU_DIM][OSU_DIM], mb_osu_x[OSU_DIM], mb_osu_y[OSU_DIM];

static void compute_on_host(void)
{
	int i, j;
	for (i = 0; i < OSU_DIM; i++)
		for (j = 0; j < OSU_DIM; j++)
			mb_osu_x[i] = mb_osu_x[i] + mb_osu_a[i][j] * mb_osu_a[j][i] + mb_osu_y[j];
}

static void init_host_arrays(void)
{
	int i, j;
	for (i = 0; i < OSU_DIM; i++) {
		mb_osu_x[i] = mb_osu_y[i] = 1.0f;
		for (j = 0; j < OSU_DIM; j++)
			mb_osu_a[i][j] = 2.0f;
	}
}

/* mb_osu_compute is do_compute_cpu: passes until the MPI_Wtime time of
 * the passes alone reaches the target (so the last pass overshoots). */
void mb_osu_compute(double seconds)
{
	double t1, elapsed = 0;
	while (elapsed < seconds) {
		t1 = MPI_Wtime();
		compute_on_host();
		elapsed += MPI_Wtime() - t1;
	}
}

/* compute_and_probe is do_compute_and_probe for the CPU target: with
 * probes > 0, probes rounds of seconds/probes of compute, each followed
 * by one timed MPI_Test; *test is the time of the MPI_Test calls. */
static int compute_and_probe(double seconds, int probes, MPI_Request *rq, double *test)
{
	int n, flag;
	double t1;
	*test = 0;
	if (probes <= 0) {
		mb_osu_compute(seconds);
		return MPI_SUCCESS;
	}
	for (n = 0; n < probes; n++) {
		mb_osu_compute(seconds / probes);
		t1 = MPI_Wtime();
		CHK(MPI_Test(rq, &flag, MPI_STATUS_IGNORE));
		*test += MPI_Wtime() - t1;
	}
	return MPI_SUCCESS;
}

static MPI_Datatype dtype(int t)
{
	return t == MB_OSU_INT ? MPI_INT : t == MB_OSU_FLOAT ? MPI_FLOAT : MPI_CHAR;
}

static long long esize(int t) { return t == MB_OSU_CHAR ? 1 : 4; }

/* NB(B, I, args): the blocking call B or the non-blocking call I. */
#define NB(B, I, ...) (nb ? I(__VA_ARGS__, rq) : B(__VA_ARGS__))

/* call makes one repetition's call with OSU's arguments (osu_<test>.c):
 * with -l the send buffer of the all-to-all kinds is MPI_IN_PLACE; the
 * root of Gather(v) and Reduce passes MPI_IN_PLACE as its send buffer,
 * the other ranks of Gather(v) NULL as receive buffer and those of Reduce
 * their receive buffer as send buffer; the root of Scatter(v) sends from
 * its receive buffer and receives MPI_IN_PLACE. Bcast's root is 0. */
LOOP call(const mb_osucoll *k, int kind, int nb, const int *cs, int c, MPI_Datatype ty, int rank, int root,
	  MPI_Request *rq)
{
	void *s = k->sbuf, *r = k->rbuf, *as = k->inplace ? MPI_IN_PLACE : s;
	int *ds = k->displs, ip = k->inplace && rank == root;
	MPI_Comm m = k->comm, g = k->nbr;
	MPI_Datatype *ts = k->types;
	MPI_Aint *ad = k->adispls;
	switch (kind) {
	case MB_OSU_ALLGATHER: return NB(MPI_Allgather, MPI_Iallgather, as, c, ty, r, c, ty, m);
	case MB_OSU_ALLGATHERV: return NB(MPI_Allgatherv, MPI_Iallgatherv, as, c, ty, r, cs, ds, ty, m);
	case MB_OSU_ALLREDUCE: return NB(MPI_Allreduce, MPI_Iallreduce, as, r, c, ty, MPI_SUM, m);
	case MB_OSU_ALLTOALL: return NB(MPI_Alltoall, MPI_Ialltoall, as, c, ty, r, c, ty, m);
	case MB_OSU_ALLTOALLV: return NB(MPI_Alltoallv, MPI_Ialltoallv, as, cs, ds, ty, r, cs, ds, ty, m);
	case MB_OSU_BARRIER: return nb ? MPI_Ibarrier(m, rq) : MPI_Barrier(m);
	case MB_OSU_BCAST: return NB(MPI_Bcast, MPI_Ibcast, r, c, ty, 0, m);
	case MB_OSU_GATHER:
		return NB(MPI_Gather, MPI_Igather, ip ? MPI_IN_PLACE : s, c, ty, k->inplace && !ip ? NULL : r, c,
			  ty, root, m);
	case MB_OSU_GATHERV:
		return NB(MPI_Gatherv, MPI_Igatherv, ip ? MPI_IN_PLACE : s, c, ty, k->inplace && !ip ? NULL : r, cs,
			  ds, ty, root, m);
	case MB_OSU_REDUCE:
		return NB(MPI_Reduce, MPI_Ireduce, ip ? MPI_IN_PLACE : k->inplace ? r : s, r, c, ty, MPI_SUM, root,
			  m);
	case MB_OSU_REDUCE_SCATTER: return NB(MPI_Reduce_scatter, MPI_Ireduce_scatter, as, r, cs, ty, MPI_SUM, m);
	case MB_OSU_REDUCE_SCATTER_BLOCK:
		return NB(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, as, r, c, ty, MPI_SUM, m);
	case MB_OSU_SCATTER:
		return NB(MPI_Scatter, MPI_Iscatter, ip ? r : s, c, ty, ip ? MPI_IN_PLACE : r, c, ty, root, m);
	case MB_OSU_SCATTERV:
		return NB(MPI_Scatterv, MPI_Iscatterv, ip ? r : s, cs, ds, ty, ip ? MPI_IN_PLACE : r, c, ty, root, m);
	case MB_OSU_ALLTOALLW: return NB(MPI_Alltoallw, MPI_Ialltoallw, as, cs, ds, ts, r, cs, ds, ts, m);
	case MB_OSU_NBR_ALLGATHER:
		return NB(MPI_Neighbor_allgather, MPI_Ineighbor_allgather, s, c, ty, r, c, ty, g);
	case MB_OSU_NBR_ALLGATHERV:
		return NB(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, s, c, ty, r, cs, ds, ty, g);
	case MB_OSU_NBR_ALLTOALL:
		return NB(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, s, c, ty, r, c, ty, g);
	case MB_OSU_NBR_ALLTOALLV:
		return NB(MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, s, cs, ds, ty, r, cs, ds, ty, g);
	case MB_OSU_NBR_ALLTOALLW:
		return NB(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, s, cs, ad, ts, r, cs, ad, ts, g);
	}
	return MPI_ERR_ARG;
}

/* pinit makes the persistent request of a _persistent test
 * (c/mpi/collective/persistent/osu_*_persistent.c) with call()'s
 * arguments and MPI_INFO_NULL: OSU's persistent tests pass MPI_IN_PLACE
 * where call() does for the all-to-all kinds and at Scatter(v)'s root;
 * where they ignore -l (Allreduce, Gather(v), Reduce) the Go side clears
 * it. The osu-pcoll-buf mutant makes the request on a scratch receive
 * buffer, not the one the repetitions use (as osu_allreduce_persistent.c
 * makes its request on recvbuf_warmup and validates recvbuf). */
static int pinit(const mb_osucoll *k, int kind, const int *cs, int c, MPI_Datatype ty, int rank, int root,
		 MPI_Request *rq)
{
#if MPI_VERSION >= 4
	void *s = k->sbuf, *r = MUTANT(MB_MUT_OSU_PCOLL_BUF) ? k->scratch : k->rbuf;
	void *as = k->inplace ? MPI_IN_PLACE : s;
	int *ds = k->displs, ip = k->inplace && rank == root;
	MPI_Comm m = k->comm;
	MPI_Datatype *ts = k->types;
	MPI_Info in = MPI_INFO_NULL;
	switch (kind) {
	case MB_OSU_ALLGATHER: return MPI_Allgather_init(as, c, ty, r, c, ty, m, in, rq);
	case MB_OSU_ALLGATHERV: return MPI_Allgatherv_init(as, c, ty, r, cs, ds, ty, m, in, rq);
	case MB_OSU_ALLREDUCE: return MPI_Allreduce_init(as, r, c, ty, MPI_SUM, m, in, rq);
	case MB_OSU_ALLTOALL: return MPI_Alltoall_init(as, c, ty, r, c, ty, m, in, rq);
	case MB_OSU_ALLTOALLV: return MPI_Alltoallv_init(as, cs, ds, ty, r, cs, ds, ty, m, in, rq);
	case MB_OSU_ALLTOALLW: return MPI_Alltoallw_init(as, cs, ds, ts, r, cs, ds, ts, m, in, rq);
	case MB_OSU_BARRIER: return MPI_Barrier_init(m, in, rq);
	case MB_OSU_BCAST: return MPI_Bcast_init(r, c, ty, 0, m, in, rq);
	case MB_OSU_GATHER:
		return MPI_Gather_init(ip ? MPI_IN_PLACE : s, c, ty, k->inplace && !ip ? NULL : r, c, ty, root, m, in,
				       rq);
	case MB_OSU_GATHERV:
		return MPI_Gatherv_init(ip ? MPI_IN_PLACE : s, c, ty, k->inplace && !ip ? NULL : r, cs, ds, ty, root, m,
					in, rq);
	case MB_OSU_REDUCE:
		return MPI_Reduce_init(ip ? MPI_IN_PLACE : k->inplace ? r : s, r, c, ty, MPI_SUM, root, m, in, rq);
	case MB_OSU_REDUCE_SCATTER: return MPI_Reduce_scatter_init(as, r, cs, ty, MPI_SUM, m, in, rq);
	case MB_OSU_REDUCE_SCATTER_BLOCK: return MPI_Reduce_scatter_block_init(as, r, c, ty, MPI_SUM, m, in, rq);
	case MB_OSU_SCATTER:
		return MPI_Scatter_init(ip ? r : s, c, ty, ip ? MPI_IN_PLACE : r, c, ty, root, m, in, rq);
	case MB_OSU_SCATTERV:
		return MPI_Scatterv_init(ip ? r : s, cs, ds, ty, ip ? MPI_IN_PLACE : r, c, ty, root, m, in, rq);
	}
	return MPI_ERR_ARG;
#else
	(void)k, (void)kind, (void)cs, (void)c, (void)ty, (void)rank, (void)root, (void)rq;
	return MPI_ERR_UNSUPPORTED_OPERATION; /* refused before any run: mb_osu_mpi4 */
#endif
}

int mb_osu_mpi4(void) { return MPI_VERSION >= 4; }

static int nbr(int kind)
{
	return kind >= MB_OSU_NBR_ALLGATHER && kind <= MB_OSU_NBR_ALLTOALLW;
}

static int reduction(int kind)
{
	return kind == MB_OSU_ALLREDUCE || kind == MB_OSU_REDUCE || kind == MB_OSU_REDUCE_SCATTER ||
	       kind == MB_OSU_REDUCE_SCATTER_BLOCK;
}

/* small is rank's MPI_CHAR element j of repetition i for a reduction over
 * np ranks: a pattern byte below 127/np, so that no sum overflows a
 * signed char (overflow is undefined, and Open MPI 4.1's vectorised
 * MPI_SUM on MPI_CHAR saturates at 127 where its scalar tail wraps). */
static char small(int np, int rank, long long i, long long j)
{
	int m = np < 127 ? 127 / np : 1;
	return (char)(mb_pat_byte(rank, i, j) % m);
}

/* fill writes rank's content of repetition i, elements off .. off+n-1,
 * to buf: pattern bytes, or for a reduction over np ranks elements whose
 * sum is known (mb_pat_float's integers as float or int; small bytes). */
static void fill(const mb_osucoll *k, char *buf, long long n, int np, int rank, long long i, long long off)
{
	long long j, e = esize(k->type);
	if (!reduction(k->kind)) {
		mb_fill_bytes(buf, n * e, rank, i, off * e);
		return;
	}
	if (k->type == MB_OSU_FLOAT)
		mb_fill_floats((float *)buf, n, rank, i, off);
	for (j = 0; k->type == MB_OSU_INT && j < n; j++)
		((int *)buf)[j] = (int)mb_pat_float(rank, i, off + j);
	for (j = 0; k->type == MB_OSU_CHAR && j < n; j++)
		buf[j] = small(np, rank, i, off + j);
}

/* bad counts the wrong items of n elements at buf: bytes that are not
 * rank's content at element off on, or for a reduction the elements that
 * are not the sum over np ranks. */
static long long bad(const mb_osucoll *k, const char *buf, long long n, int rank, long long i, long long off)
{
	long long j, w = 0, e = esize(k->type);
	int r, np = rank;
	unsigned char sum;
	if (!reduction(k->kind))
		return mb_bad_bytes(buf, n * e, rank, i, off * e);
	if (k->type == MB_OSU_FLOAT)
		return mb_bad_sums((const float *)buf, n, np, i, off);
	for (j = 0; k->type == MB_OSU_INT && j < n; j++)
		w += ((const int *)buf)[j] != (int)mb_pat_sum(np, i, off + j);
	for (j = 0; k->type == MB_OSU_CHAR && j < n; j++) {
		for (sum = 0, r = 0; r < np; r++)
			sum = (unsigned char)(sum + small(np, r, i, off + j));
		w += (unsigned char)buf[j] != sum;
	}
	return w;
}

/* prepare writes this rank's content of repetition i where the call
 * sends it from (its receive buffer with -l) and poisons the rest of the
 * receive buffer. */
static void prepare(const mb_osucoll *k, int rank, int size, int root, long long i)
{
	long long c = k->count, e = esize(k->type), all = (long long)size * c, n;
	char *s = k->sbuf, *r = k->rbuf;
	int ip = k->inplace, kind = k->kind, p;
	mb_poison(r, (nbr(kind) ? k->indeg * c : all) * e);
	switch (kind) {
	case MB_OSU_NBR_ALLGATHER: case MB_OSU_NBR_ALLGATHERV:
		fill(k, s, c, size, rank, i, 0);
		break;
	case MB_OSU_NBR_ALLTOALL: case MB_OSU_NBR_ALLTOALLV: case MB_OSU_NBR_ALLTOALLW:
		fill(k, s, k->outdeg * c, size, rank, i, 0); /* block j for destination j */
		break;
	case MB_OSU_ALLGATHER: case MB_OSU_ALLGATHERV:
		fill(k, ip ? r + rank * c * e : s, c, size, rank, i, 0);
		break;
	case MB_OSU_ALLTOALL: case MB_OSU_ALLTOALLV: case MB_OSU_ALLTOALLW: case MB_OSU_REDUCE_SCATTER_BLOCK:
		fill(k, ip ? r : s, all, size, rank, i, 0);
		break;
	case MB_OSU_ALLREDUCE: case MB_OSU_REDUCE:
		fill(k, ip ? r : s, c, size, rank, i, 0);
		break;
	case MB_OSU_REDUCE_SCATTER: /* the counts' sum: more than c in osu_reduce_scatter_persistent.c's split */
		for (p = 0, n = 0; p < size; p++)
			n += k->counts[p];
		fill(k, ip ? r : s, n > c ? n : c, size, rank, i, 0);
		break;
	case MB_OSU_BCAST:
		if (rank == 0)
			fill(k, r, c, size, 0, i, 0);
		break;
	case MB_OSU_GATHER: case MB_OSU_GATHERV:
		fill(k, ip && rank == root ? r + root * c * e : s, c, size, rank, i, 0);
		break;
	case MB_OSU_SCATTER: case MB_OSU_SCATTERV:
		if (rank == root)
			fill(k, ip ? r : s, all, size, root, i, 0);
		break;
	}
}

/* blocks counts the wrong bytes of the size blocks of the receive buffer:
 * block p is p's content from element off on. */
static long long blocks(const mb_osucoll *k, int size, long long i, long long off)
{
	long long w = 0, c = k->count, e = esize(k->type);
	int p;
	for (p = 0; p < size; p++)
		w += bad(k, (char *)k->rbuf + p * c * e, c, p, i, off);
	return w;
}

/* neighbours counts the wrong bytes of the indeg blocks of the receive
 * buffer: block l is source l's content, its whole message (allgather) or
 * its block srcblk[l], the one it sends to this rank (alltoall). */
static long long neighbours(const mb_osucoll *k, long long i, int alltoall)
{
	long long w = 0, c = k->count, e = esize(k->type);
	int l;
	for (l = 0; l < k->indeg; l++)
		w += bad(k, (char *)k->rbuf + l * c * e, c, k->srcs[l], i, alltoall ? k->srcblk[l] * c : 0);
	return w;
}

/* verify counts the items this rank received wrong in repetition i. */
static long long verify(const mb_osucoll *k, int rank, int size, int root, long long i)
{
	long long c = k->count, e = esize(k->type), at = 0;
	char *r = k->rbuf;
	int p;
	switch (k->kind) {
	case MB_OSU_ALLGATHER: case MB_OSU_ALLGATHERV: return blocks(k, size, i, 0);
	case MB_OSU_ALLTOALL: case MB_OSU_ALLTOALLV: case MB_OSU_ALLTOALLW: return blocks(k, size, i, rank * c);
	case MB_OSU_NBR_ALLGATHER: case MB_OSU_NBR_ALLGATHERV: return neighbours(k, i, 0);
	case MB_OSU_NBR_ALLTOALL: case MB_OSU_NBR_ALLTOALLV: case MB_OSU_NBR_ALLTOALLW: return neighbours(k, i, 1);
	case MB_OSU_ALLREDUCE: return bad(k, r, c, size, i, 0);
	case MB_OSU_REDUCE: return rank == root ? bad(k, r, c, size, i, 0) : 0;
	case MB_OSU_REDUCE_SCATTER:
		for (p = 0; p < rank; p++)
			at += k->counts[p];
		return bad(k, r, k->counts[rank], size, i, at);
	case MB_OSU_REDUCE_SCATTER_BLOCK: return bad(k, r, c, size, i, rank * c);
	case MB_OSU_BCAST: return rank == 0 ? 0 : bad(k, r, c, 0, i, 0);
	case MB_OSU_GATHER: case MB_OSU_GATHERV: return rank == root ? blocks(k, size, i, 0) : 0;
	case MB_OSU_SCATTER: case MB_OSU_SCATTERV:
		return bad(k, k->inplace && rank == root ? r + root * c * e : r, c, root, i, rank * c);
	}
	return 0;
}

/* root_of is the root of iteration i by OSU 7.4's definition
 * (omb_get_root_rank: -k's fixed root, or with -k rotate i mod the
 * processes), not the loop's variable: -c sets up and verifies the data
 * the benchmark's definition puts at each rank. */
static int root_of(const mb_osucoll *k, int size, long long i)
{
	return k->root < 0 ? (int)(i % size) : k->root;
}

/* overlapped is the overlap pass's repetition body (osu_iallreduce.c,
 * second loop): the call, the dummy compute with its probes, MPI_Wait,
 * each timed into t[0..3] = init, compute, test, wait. */
LOOP overlapped(const mb_osucoll *k, int kind, const int *cs, int c, MPI_Datatype ty, int rank, int root, int skip,
		double *t)
{
	MPI_Request rq = MPI_REQUEST_NULL;
	double a = MPI_Wtime();
	if (!skip)
		CHK(call(k, kind, 1, cs, c, ty, rank, root, &rq));
	t[0] = MPI_Wtime() - a;
	a = MPI_Wtime();
	CHK(compute_and_probe(k->compute, k->probes, &rq, &t[2]));
	t[1] = MPI_Wtime() - a;
	a = MPI_Wtime();
	CHK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
	t[3] = MPI_Wtime() - a;
	return MPI_SUCCESS;
}

/* warmup is -c's validation warm-up (osu_allreduce.c ...: -u calls, each
 * after a barrier, before the repetition's buffers are set), on the same
 * buffers: its results are overwritten by prepare. */
LOOP warmup(const mb_osucoll *k, int kind, int nb, int pers, const int *cs, int c, MPI_Datatype ty, int rank,
	    int root, MPI_Request *prq)
{
	int w;
	MPI_Request rq;
	for (w = 0; w < k->vwarm; w++) {
		rq = MPI_REQUEST_NULL;
		CHK(MPI_Barrier(k->comm));
		if (pers) {
			CHK(MPI_Start(prq));
			CHK(MPI_Wait(prq, MPI_STATUS_IGNORE));
			continue;
		}
		CHK(call(k, kind, nb, cs, c, ty, rank, root, &rq));
		if (nb)
			CHK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
	}
	return MPI_SUCCESS;
}

/* pass runs skip + iters repetitions. Barriers as OSU places them: after
 * the time (before it for blocking Reduce; none for Barrier and the pure
 * pass of Ibarrier); check mode adds one before the call, as -c does. */
LOOP pass(const mb_osucoll *k, int kind, int nb, int pers, int chk, int ovl, const int *cs, int c, int rank,
	  int size, mb_osucoll_times *o)
{
	int i, b, n = k->skip + k->iters;
	int root = MUTANT(MB_MUT_FIXED_ROOT) ? 0 : k->root; /* the fixed-root mutant ignores -k fixed:N */
	int pre = kind == MB_OSU_REDUCE && !nb;
	int post = kind == MB_OSU_BARRIER ? ovl : !pre;
	MPI_Datatype ty = k->derived ? k->ddt : dtype(k->type);
	MPI_Request rq, prq = MPI_REQUEST_NULL;
	double t0, t1, t[4] = {0, 0, 0, 0};
	if (pers) { /* osu_*_persistent.c: the request once per size, then its barrier */
		CHK(pinit(k, kind, cs, c, ty, rank, root, &prq));
		for (b = 0; b < k->prebar; b++)
			CHK(MPI_Barrier(k->comm));
	}
	for (i = 0; i < n; i++) {
		if (k->root < 0) /* the no-rotation mutant leaves it at 0 */
			root = MUTANT(MB_MUT_NO_ROTATION) ? 0 : i % size;
		if (chk && kind != MB_OSU_BARRIER) {
			CHK(warmup(k, kind, nb, pers, cs, c, ty, rank, root, &prq));
			prepare(k, rank, size, root_of(k, size, i), i);
		}
		if (pre || (chk && kind != MB_OSU_BARRIER))
			CHK(MPI_Barrier(k->comm));
		rq = MPI_REQUEST_NULL;
		t0 = MPI_Wtime();
		if (ovl) {
			CHK(overlapped(k, kind, cs, c, ty, rank, root, SKIP(i), t));
		} else if (pers) {
			if (!SKIP(i))
				CHK(MPI_Start(&prq));
			CHK(MPI_Wait(&prq, MPI_STATUS_IGNORE));
		} else {
			if (!SKIP(i))
				CHK(call(k, kind, nb, cs, c, ty, rank, root, &rq));
			if (nb)
				CHK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
		}
		t1 = MPI_Wtime();
		if (post)
			CHK(MPI_Barrier(k->comm));
		if (chk && kind != MB_OSU_BARRIER)
			o->bad += verify(k, rank, size, root_of(k, size, i), i);
		if (i < k->skip)
			continue;
		o->total += t1 - t0;
		o->init += t[0], o->compute += t[1], o->test += t[2], o->wait += t[3];
		if (k->lat)
			k->lat[i - k->skip] = t1 - t0;
	}
	if (pers)
		CHK(MPI_Request_free(&prq));
	return MPI_SUCCESS;
}

#define KIND(K) case K: return pass(k, K, nb, pers, chk, ovl, cs, c, rank, size, o)

/* kinds instantiates pass for every kind with constant nb, pers, chk and
 * ovl. */
LOOP kinds(const mb_osucoll *k, int nb, int pers, int chk, int ovl, const int *cs, int c, int rank, int size,
	   mb_osucoll_times *o)
{
	switch (k->kind) {
	KIND(MB_OSU_ALLGATHER);
	KIND(MB_OSU_ALLGATHERV);
	KIND(MB_OSU_ALLREDUCE);
	KIND(MB_OSU_ALLTOALL);
	KIND(MB_OSU_ALLTOALLV);
	KIND(MB_OSU_BARRIER);
	KIND(MB_OSU_BCAST);
	KIND(MB_OSU_GATHER);
	KIND(MB_OSU_GATHERV);
	KIND(MB_OSU_REDUCE);
	KIND(MB_OSU_REDUCE_SCATTER);
	KIND(MB_OSU_SCATTER);
	KIND(MB_OSU_SCATTERV);
	KIND(MB_OSU_REDUCE_SCATTER_BLOCK);
	KIND(MB_OSU_ALLTOALLW);
	KIND(MB_OSU_NBR_ALLGATHER);
	KIND(MB_OSU_NBR_ALLGATHERV);
	KIND(MB_OSU_NBR_ALLTOALL);
	KIND(MB_OSU_NBR_ALLTOALLV);
	KIND(MB_OSU_NBR_ALLTOALLW);
	}
	return MPI_ERR_ARG;
}

/* modes passes nb, pers, chk and ovl on as constants. */
static int modes(const mb_osucoll *k, int chk, const int *cs, int c, int rank, int size, mb_osucoll_times *o)
{
	int ovl = k->nb && k->compute >= 0;
	if (k->persistent)
		return chk ? kinds(k, 0, 1, 1, 0, cs, c, rank, size, o) : kinds(k, 0, 1, 0, 0, cs, c, rank, size, o);
	if (!k->nb)
		return chk ? kinds(k, 0, 0, 1, 0, cs, c, rank, size, o) : kinds(k, 0, 0, 0, 0, cs, c, rank, size, o);
	if (ovl)
		return chk ? kinds(k, 1, 0, 1, 1, cs, c, rank, size, o) : kinds(k, 1, 0, 0, 1, cs, c, rank, size, o);
	return chk ? kinds(k, 1, 0, 1, 0, cs, c, rank, size, o) : kinds(k, 1, 0, 0, 0, cs, c, rank, size, o);
}

/* wtypes sets up the w kinds' arrays in kk (outside any timed region):
 * n types, all the call's type, and for Neighbor_alltoallw the byte
 * displacements as MPI_Aint. The osu-w-displ mutant takes the
 * displacements for elements (divides them by the element size). */
static int wtypes(mb_osucoll *kk, int n)
{
	int p;
	MPI_Datatype ty = kk->derived ? kk->ddt : dtype(kk->type);
	long long e = MUTANT(MB_MUT_OSU_W_DISPL) ? esize(kk->type) : 1;
	kk->types = malloc(sizeof(MPI_Datatype) * (size_t)n);
	kk->adispls = malloc(sizeof(MPI_Aint) * (size_t)n);
	kk->wdispls = malloc(sizeof(int) * (size_t)n);
	if (!kk->types || !kk->adispls || !kk->wdispls)
		return MPI_ERR_NO_MEM;
	for (p = 0; p < n; p++) {
		kk->types[p] = ty;
		kk->wdispls[p] = (int)(kk->displs[p] / e);
		kk->adispls[p] = (MPI_Aint)kk->wdispls[p];
	}
	kk->displs = kk->wdispls;
	return MPI_SUCCESS;
}

int mb_osucoll_run(const mb_osucoll *k0, int chk, mb_osucoll_times *o)
{
	int p, rank, size, rc, c = k0->count;
	int *cs = k0->counts, *short_cs = NULL;
	mb_osucoll kk = *k0, *k = &kk;
	static int ready;
	*o = (mb_osucoll_times){0, 0, 0, 0, 0, 0};
	mb_settle();
	if (!ready) {
		init_host_arrays();
		ready = 1;
	}
	CHK(MPI_Comm_rank(k->comm, &rank));
	CHK(MPI_Comm_size(k->comm, &size));
	CHK(MUTANT_MPI_ERROR(k->comm));
	/* The osu-coll-short mutant: every call carries one element fewer. */
	if (MUTANT(MB_MUT_OSU_COLL_SHORT)) {
		c = c > 0 ? c - 1 : 0;
		if (cs && (short_cs = malloc(sizeof(int) * (size_t)size)) != NULL) {
			for (p = 0; p < size; p++)
				short_cs[p] = cs[p] > 0 ? cs[p] - 1 : 0;
			cs = short_cs;
		}
	}
	kk.types = NULL, kk.adispls = NULL, kk.wdispls = NULL, kk.scratch = NULL;
	rc = MPI_SUCCESS;
	if (MUTANT(MB_MUT_OSU_PCOLL_BUF) && k->persistent) {
		/* Room for every block (and reduce_scatter's split), 4-byte elements. */
		kk.scratch = malloc((size_t)(size + 1) * (size_t)(c + 1) * 4);
		if (!kk.scratch)
			rc = MPI_ERR_NO_MEM;
	}
	if (rc == MPI_SUCCESS && (k->kind == MB_OSU_ALLTOALLW || k->kind == MB_OSU_NBR_ALLTOALLW))
		rc = wtypes(&kk, k->kind == MB_OSU_ALLTOALLW ? size : (k->outdeg > k->indeg ? k->outdeg : k->indeg));
	if (rc == MPI_SUCCESS)
		rc = modes(k, chk != 0, cs, c, rank, size, o);
	free(short_cs);
	free(kk.scratch);
	free(kk.types);
	free(kk.adispls);
	free(kk.wdispls);
	return rc;
}

int mb_osu_nbr_create(MPI_Comm comm, int indeg, const int *srcs, int outdeg, const int *dsts, MPI_Comm *graph,
		      double *seconds)
{
	int n = (indeg > outdeg ? indeg : outdeg) + 1, p, rc;
	int *w = malloc(sizeof(int) * (size_t)n), *s = malloc(sizeof(int) * (size_t)n),
	    *d = malloc(sizeof(int) * (size_t)n);
	double t;
	if (!w || !s || !d) {
		free(w), free(s), free(d);
		return MPI_ERR_NO_MEM;
	}
	for (p = 0; p < n; p++)
		w[p] = 1;
	for (p = 0; p < indeg; p++)
		s[p] = srcs[MUTANT(MB_MUT_OSU_NBR_REVERSE) ? indeg - 1 - p : p];
	for (p = 0; p < outdeg; p++)
		d[p] = dsts[MUTANT(MB_MUT_OSU_NBR_REVERSE) ? outdeg - 1 - p : p];
	t = MPI_Wtime();
	rc = MPI_Dist_graph_create_adjacent(comm, indeg, s, w, outdeg, d, w, MPI_INFO_NULL, 0, graph);
	*seconds = MPI_Wtime() - t;
	free(w), free(s), free(d);
	return rc;
}

int mb_osu_cart(MPI_Comm comm, int d, int *dims)
{
	int p, size, *periods = malloc(sizeof(int) * (size_t)d);
	MPI_Comm cart;
	if (!periods)
		return MPI_ERR_NO_MEM;
	for (p = 0; p < d; p++)
		periods[p] = 1, dims[p] = 0;
	CHK(MPI_Comm_size(comm, &size));
	CHK(MPI_Dims_create(size, d, dims));
	CHK(MPI_Cart_create(comm, d, dims, periods, 0, &cart));
	free(periods);
	CHK(MPI_Barrier(comm));
	return MPI_Comm_free(&cart);
}
