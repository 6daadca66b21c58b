//go:build cgo && !nompi

#include <time.h>
#include "nbc.h"
#include "settle.h"
#include "mpi4.h"
#include "check.h"
#include "chk.h"
#include "mutant.h"
#include "imbbarrier.h" /* -imb_barrier */
#include "slots.h"       /* -off_cache: SB, RB, CS, CR */

/* As in kernels.c, every loop is written once and always inlined with
 * constant arguments (kind, chk, ovl, pst), so each instantiation is the bare
 * MPI calls of one benchmark: no switch on the kind and no check hook runs
 * inside a timed region. */
#define LOOP static inline __attribute__((always_inline)) int

/* SKIP(i): the first-only mutant communicates in repetition 0 only. */
#define SKIP(i) (MUTANT(MB_MUT_FIRST_ONLY) && (i) > 0)

/* The CPU work of IMB_cpu_exploit.c: a 10x10 float matrix-vector product
 * per pass. As in io_cpu.c, each pass multiplies the previous pass's
 * result (y = A x + b, row sums 1/2), so no pass can be skipped and the
 * values stay bounded; IMB's x += A y with y = 0 computes the same number
 * of flops (2·10·10 per pass). */
#define NBC_CPU_N 10
float mb_nbc_a[NBC_CPU_N][NBC_CPU_N];
float mb_nbc_v[2][NBC_CPU_N];
volatile float mb_nbc_sink;

void mb_nbc_cpu(long long n)
{
	long long r;
	int i, j, cur = 0;
	for (r = 0; r < n; r++) {
		float *x = mb_nbc_v[cur], *y = mb_nbc_v[1 - cur];
		for (i = 0; i < NBC_CPU_N; i++)
			y[i] = 1.0f;
		for (j = 0; j < NBC_CPU_N; j++)
			for (i = 0; i < NBC_CPU_N; i++)
				y[i] += mb_nbc_a[j][i] * x[j];
		cur = 1 - cur;
	}
	mb_nbc_sink = mb_nbc_v[cur][0];
}

/* cpu_secs is the thread CPU time of n passes (io_cpu.c's reasons: the
 * undisturbed time on a shared node). */
static double cpu_secs(long long n)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	mb_nbc_cpu(n);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	return (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

/* mb_nbc_cpu_rate measures the passes per second as io_cpu.c calibrates
 * CPU_Exploit: a block of 2 ms or more of CPU time, the fastest of five
 * runs (the undisturbed speed). IMB measures one run of 50 Mflop with
 * MPI_Wtime (IMB_cpu_exploit.c); the rate is then used to turn each
 * rank's t_pure into passes. */
static double nbc_rate; /* the calibration, once per process */

/* mb_nbc_cpu_forget drops the calibration, so that the next
 * mb_nbc_cpu_rate measures again (tests of the calibration). */
void mb_nbc_cpu_forget(void) { nbc_rate = 0; }

double mb_nbc_cpu_rate(double *mflops)
{
	double rate = nbc_rate;
	long long block = 1;
	double best, t;
	int i, j;
	if (rate <= 0) {
		for (j = 0; j < NBC_CPU_N; j++)
			for (i = 0; i < NBC_CPU_N; i++)
				mb_nbc_a[j][i] = 0.5f / NBC_CPU_N;
		while (cpu_secs(block) < 0.002 && block < (1LL << 40))
			block *= 2;
		best = cpu_secs(block);
		for (i = 1; i < 5; i++)
			if ((t = cpu_secs(block)) < best)
				best = t;
		rate = (double)block / (best > 1e-9 ? best : 1e-9);
		nbc_rate = rate;
	}
	*mflops = 2.0 * NBC_CPU_N * NBC_CPU_N * rate * 1e-6;
	return rate;
}

/* start posts a repetition's non-blocking call from s into r with root
 * root (the rooted kinds). */
LOOP start(const mb_nbc *k, int kind, int rank, int root, void *s, void *r, MPI_Request *req)
{
	int c = k->count;
	MPI_Comm comm = k->comm;
	switch (kind) {
	case MB_IBCAST: return MPI_Ibcast(rank == root ? s : r, c, MPI_BYTE, root, comm, req);
	case MB_IALLGATHER: return MPI_Iallgather(s, c, MPI_BYTE, r, c, MPI_BYTE, comm, req);
	case MB_IALLGATHERV:
		return MPI_Iallgatherv(s, c, MPI_BYTE, r, k->counts, k->displs, MPI_BYTE, comm, req);
	case MB_IGATHER: return MPI_Igather(s, c, MPI_BYTE, r, c, MPI_BYTE, root, comm, req);
	case MB_IGATHERV:
		return MPI_Igatherv(s, c, MPI_BYTE, r, k->counts, k->displs, MPI_BYTE, root, comm, req);
	case MB_ISCATTER: return MPI_Iscatter(s, c, MPI_BYTE, r, c, MPI_BYTE, root, comm, req);
	case MB_ISCATTERV:
		return MPI_Iscatterv(s, k->counts, k->displs, MPI_BYTE, r, c, MPI_BYTE, root, comm, req);
	case MB_IALLTOALL: return MPI_Ialltoall(s, c, MPI_BYTE, r, c, MPI_BYTE, comm, req);
	case MB_IALLTOALLV:
		return MPI_Ialltoallv(s, k->counts, k->displs, MPI_BYTE, r, k->counts, k->displs, MPI_BYTE,
				      comm, req);
	case MB_IREDUCE: return MPI_Ireduce(s, r, c, MPI_FLOAT, MPI_SUM, root, comm, req);
	case MB_IREDUCE_SCATTER:
		return MPI_Ireduce_scatter(s, r, k->counts, MPI_FLOAT, MPI_SUM, comm, req);
	case MB_IALLREDUCE: return MPI_Iallreduce(s, r, c, MPI_FLOAT, MPI_SUM, comm, req);
	case MB_IBARRIER: return MPI_Ibarrier(comm, req);
	}
	return MPI_ERR_ARG;
}

/* mb_nbc_start is start for the window loop (window.c). */
int mb_nbc_start(const mb_nbc *k, int rank, MPI_Request *req)
{
	return start(k, k->kind, rank, 0, k->sbuf, k->rbuf, req);
}

/* sends and recvs are the items a rank sends from sbuf and receives into
 * rbuf in one repetition. */
static long long sends(const mb_nbc *k, int size)
{
	switch (k->kind) {
	case MB_ISCATTER: case MB_ISCATTERV: case MB_IALLTOALL: case MB_IALLTOALLV: case MB_IREDUCE_SCATTER:
		return (long long)size * k->count;
	case MB_IBARRIER:
		return 0;
	}
	return k->count;
}

static long long recvs(const mb_nbc *k, int size)
{
	switch (k->kind) {
	case MB_IALLGATHER: case MB_IALLGATHERV: case MB_IGATHER: case MB_IGATHERV: case MB_IALLTOALL:
	case MB_IALLTOALLV:
		return (long long)size * k->count;
	case MB_IBARRIER:
		return 0;
	}
	return k->count;
}

static int reduction(int kind)
{
	return kind == MB_IREDUCE || kind == MB_IREDUCE_SCATTER || kind == MB_IALLREDUCE;
}

/* prepare writes this rank's content of repetition i into what it sends
 * from s and poisons what it receives at r (check mode only). */
static void prepare(const mb_nbc *k, int rank, int size, int i, void *s, void *r)
{
	if (reduction(k->kind)) {
		mb_fill_floats(s, sends(k, size), rank, i, 0);
		mb_poison(r, 4 * recvs(k, size));
	} else {
		mb_fill_bytes(s, sends(k, size), rank, i, 0);
		mb_poison(r, recvs(k, size));
	}
}

/* blocks counts the wrong bytes of size blocks of count bytes at r: block
 * p must be p's content of repetition i from position at on. */
static long long blocks(const mb_nbc *k, int size, int i, long long at, const void *r)
{
	long long bad = 0;
	int p;
	for (p = 0; p < size; p++)
		bad += mb_bad_bytes((const char *)r + (long long)p * k->count, k->count, p, i, at);
	return bad;
}

/* root_of is the root of repetition i by IMB 2021's definition, not the
 * loop's variable: 0 moved i times by root_shift (IMB_ibcast ...: root =
 * (root + c_info->root_shift) % num_procs after each repetition), and 0
 * for a persistent request, bound to the root of its *_init call. */
static int root_of(const mb_nbc *k, int pst, int size, int i)
{
	return pst ? 0 : (int)(((long long)i * k->root_shift) % size);
}

/* verify counts the items this rank received wrong at r in repetition
 * i; the sender and position follow from the definition (the root of
 * repetition i, block p from rank p, rank p's block of the root's buffer
 * at p·count). */
static long long verify(const mb_nbc *k, int rank, int pst, int size, int i, const void *r)
{
	long long at = (long long)rank * k->count;
	int root = root_of(k, pst, size, i);
	switch (k->kind) {
	case MB_IBCAST: return rank == root ? 0 : mb_bad_bytes(r, k->count, root, i, 0);
	case MB_IALLGATHER: case MB_IALLGATHERV: return blocks(k, size, i, 0, r);
	case MB_IGATHER: case MB_IGATHERV: return rank == root ? blocks(k, size, i, 0, r) : 0;
	case MB_ISCATTER: case MB_ISCATTERV: return mb_bad_bytes(r, k->count, root, i, at);
	case MB_IALLTOALL: case MB_IALLTOALLV: return blocks(k, size, i, at, r);
	case MB_IREDUCE: return rank == root ? mb_bad_sums(r, k->count, size, i, 0) : 0;
	case MB_IREDUCE_SCATTER: return mb_bad_sums(r, k->count, size, i, at);
	case MB_IALLREDUCE: return mb_bad_sums(r, k->count, size, i, 0);
	}
	return 0;
}

/* slots_nbc are k's buffers as slots.h's loops take them: under a
 * constant oc (-off_cache) repetition i sends from send slot i % s_iter
 * and receives into receive slot i % r_iter (IMB_ibcast.c ...:
 * s_buffer + i%s_cache_iter*s_offs). Ibcast's root sends from its send
 * slot, the others receive into their receive slot: IMB takes s_offs and
 * s_cache_iter for both, which are the receive slots' too (the send and
 * receive buffers of Ibcast are one message each). */
static inline __attribute__((always_inline)) slots slots_nbc(const mb_nbc *k)
{
	slots b = {(char *)k->sbuf, (char *)k->rbuf, k->s_iter, k->r_iter, k->s_offs, k->r_offs,
		   MPI_BYTE, 0, 1};
	return b;
}

/* repeat is the loop of every kind but Ibarrier: each repetition timed on
 * its own (IMB: t -= MPI_Wtime() before the call, += after MPI_Wait), then
 * the check and sync barriers outside the time. With pst (IMB-MPI4's
 * *_persist) the request is made once before the loop by the kind's *_init
 * call and freed after it, both untimed (IMB_bcast.c IMB_bcast_persist),
 * and each repetition starts it with MPI_Start instead of the call. With
 * oc (-off_cache, never with pst) repetition i uses slot i (slots_nbc).
 * The root moves by k->root_shift after every repetition, outside the
 * time (IMB_bcast.c IMB_ibcast: root = (root + c_info->root_shift) %
 * num_procs); a persistent request keeps the root of its *_init call, 0,
 * as IMB_bcast_persist's does (it shifts only the variable it checks). */
LOOP repeat(const mb_nbc *k, int kind, int chk, int ovl, int pst, int oc, int rank, int size, double *t,
	    double *tc, long long *bad)
{
	int i, n = k->nrep, sync = k->sync, root = 0;
	/* The no-rotation mutant leaves the root at 0 under -root_shift on. */
	int shift = pst || MUTANT(MB_MUT_NO_ROTATION) ? 0 : k->root_shift;
	long long cpu = k->cpu;
	double t0, c0;
	const slots B = slots_nbc(k);
	MPI_Request req = MPI_REQUEST_NULL;
	if (pst)
		CHK(mb_nbc_init(k, rank, &req));
	for (i = 0; i < n; i++) {
		if (chk)
			prepare(k, rank, size, i, SB(i), RB(i));
		if (!ovl) /* a skewed rank for the pure loops' -sync tests */
			MUTANT_SKEW(k->comm);
		t0 = MPI_Wtime();
		if (!pst)
			req = MPI_REQUEST_NULL;
		if (pst && !SKIP(i))
			CHK(MPI_Start(&req));
		else if (!SKIP(i))
			CHK(start(k, kind, rank, root, CS(i), CR(i), &req));
		if (ovl) {
			c0 = MPI_Wtime();
			mb_nbc_cpu(cpu);
			*tc += MPI_Wtime() - c0;
		}
		CHK(MPI_Wait(&req, MPI_STATUS_IGNORE));
		*t += MPI_Wtime() - t0;
		if (chk)
			*bad += verify(k, rank, pst, size, i, RB(i));
		root = (root + shift) % size;
		CHK(mb_barriers(k->comm, sync, k->imb_barrier));
	}
	if (pst)
		CHK(MPI_Request_free(&req));
	return MPI_SUCCESS;
}

/* barrier_loop is Ibarrier's loop (IMB_barrier.c): one time around all
 * repetitions and no barriers between them. With pst (Barrier_persist)
 * MPI_Barrier_init comes before the time and MPI_Request_free inside it,
 * before the end time, as IMB_barrier_persist has it. */
LOOP barrier_loop(const mb_nbc *k, int ovl, int pst, int rank, double *t, double *tc)
{
	int i, n = k->nrep;
	long long cpu = k->cpu;
	double t0, c0;
	MPI_Request req = MPI_REQUEST_NULL;
	if (pst)
		CHK(mb_nbc_init(k, rank, &req));
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		if (!pst)
			req = MPI_REQUEST_NULL;
		if (pst && !SKIP(i))
			CHK(MPI_Start(&req));
		else if (!SKIP(i))
			CHK(MPI_Ibarrier(k->comm, &req));
		if (ovl) {
			c0 = MPI_Wtime();
			mb_nbc_cpu(cpu);
			*tc += MPI_Wtime() - c0;
		}
		CHK(MPI_Wait(&req, MPI_STATUS_IGNORE));
	}
	if (pst)
		CHK(MPI_Request_free(&req));
	*t = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

#define KIND(K) case K: return repeat(k, K, chk, ovl, pst, oc, rank, size, t, tc, bad)

/* kinds instantiates repeat for every kind with constant chk, ovl, pst
 * and oc. */
LOOP kinds(const mb_nbc *k, int chk, int ovl, int pst, int oc, int rank, int size, double *t, double *tc,
	   long long *bad)
{
	switch (k->kind) {
	KIND(MB_IBCAST);
	KIND(MB_IALLGATHER);
	KIND(MB_IALLGATHERV);
	KIND(MB_IGATHER);
	KIND(MB_IGATHERV);
	KIND(MB_ISCATTER);
	KIND(MB_ISCATTERV);
	KIND(MB_IALLTOALL);
	KIND(MB_IALLTOALLV);
	KIND(MB_IREDUCE);
	KIND(MB_IREDUCE_SCATTER);
	KIND(MB_IALLREDUCE);
	case MB_IBARRIER: return barrier_loop(k, ovl, pst, rank, t, tc);
	}
	return MPI_ERR_ARG;
}

/* offsets passes oc on as a constant: the -off_cache loops are
 * instantiations of their own, chosen before the timing, and the loops
 * without it stay as they were. A persistent request is bound to the
 * buffers of its *_init call, which IMB makes at slot 0 (IMB_bcast.c
 * IMB_bcast_persist: MPI_Bcast_init(bc_buf + i%s_cache_iter*s_offs, ...)
 * with i = 0), so pst runs without offsets. */
LOOP offsets(const mb_nbc *k, int chk, int ovl, int pst, int rank, int size, double *t, double *tc,
	     long long *bad)
{
	if (!pst && k->s_iter > 0)
		return kinds(k, chk, ovl, pst, 1, rank, size, t, tc, bad);
	return kinds(k, chk, ovl, pst, 0, rank, size, t, tc, bad);
}

/* modes passes chk and ovl on as constants; pst is constant here. */
LOOP modes(const mb_nbc *k, int chk, int pst, int rank, int size, double *t, double *tc, long long *bad)
{
	int ovl = k->cpu >= 0;
	if (chk)
		return ovl ? offsets(k, 1, 1, pst, rank, size, t, tc, bad) : offsets(k, 1, 0, pst, rank, size, t, tc, bad);
	return ovl ? offsets(k, 0, 1, pst, rank, size, t, tc, bad) : offsets(k, 0, 0, pst, rank, size, t, tc, bad);
}

int mb_nbc_run(const mb_nbc *k, int chk, double *t, double *t_cpu, long long *bad)
{
	int rank, size, rc;
	long long unused = 0;
	*t = *t_cpu = 0;
	*bad = 0;
	CHK(MPI_Comm_rank(k->comm, &rank));
	CHK(MPI_Comm_size(k->comm, &size));
	CHK(MUTANT_MPI_ERROR(k->comm));
	mb_settle();
	CHK(mb_barriers(k->comm, k->nbarr, k->imb_barrier));
	if (!chk)
		bad = &unused;
	if (k->persist)
		rc = modes(k, chk != 0, 1, rank, size, t, t_cpu, bad);
	else
		rc = modes(k, chk != 0, 0, rank, size, t, t_cpu, bad);
	if (k->nrep > 0) {
		*t /= k->nrep;
		*t_cpu /= k->nrep;
	}
	return rc;
}
