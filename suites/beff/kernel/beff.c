//go:build cgo && !nompi

#include "beff.h"
#include "chk.h"
#include "mutant.h"
#include "pattern.h"

/* Each kernel is written once, always inlined with a constant chk: the
 * timed instantiation (chk 0) is the bare loop, the check instantiation
 * (chk 1) runs the same MPI calls in the same order and adds the fill
 * and verify hooks around every execution of the pattern. */
#define MB_INLINE static inline __attribute__((always_inline))

/* chk_it is the pattern.h repetition of step s in execution i: every step
 * of every execution has its own content. */
static long long chk_it(long long i, int s)
{
	return i * MB_BEFF_MAXSTEPS + s;
}

/* chk_fill prepares execution i: the block of each sending step gets this
 * rank's bytes for (i, s); the block of each receiving step is poisoned so
 * that every byte differs from what its source will send. */
static void chk_fill(const mb_beff *b, long long i)
{
	int s, j;
	for (s = 0; s < b->nsteps; s++) {
		unsigned char *sb = (unsigned char *)b->sbuf + b->off[s];
		unsigned char *rb = (unsigned char *)b->rbuf + b->off[s];
		for (j = 0; b->to[s] >= 0 && j < b->len; j++)
			sb[j] = mb_pat_byte(b->rank, chk_it(i, s), j);
		for (j = 0; b->from[s] >= 0 && j < b->len; j++)
			rb[j] = mb_pat_byte(b->from[s], chk_it(i, s), j) ^ 0x5a;
	}
}

/* chk_verify counts the bytes of execution i that differ from what the
 * source of each receiving step sent in its step of the same index (the
 * tag: step s of the source sends to this process exactly when step s
 * here receives from it). */
static long long chk_verify(const mb_beff *b, long long i)
{
	long long bad = 0;
	int s, j;
	for (s = 0; s < b->nsteps; s++) {
		const unsigned char *rb = (const unsigned char *)b->rbuf + b->off[s];
		for (j = 0; b->from[s] >= 0 && j < b->len; j++)
			bad += rb[j] != mb_pat_byte(b->from[s], chk_it(i, s), j);
	}
	return bad;
}

/* sshift is where messages leave relative to their blocks: 0, or 1 for
 * the mutant beff-peer, which sends every message one byte off (the wrong
 * data at every length, in every method, without changing who talks to
 * whom, so the job cannot hang). The buffers have room for the byte. */
MB_INLINE int sshift(void)
{
	return MUTANT(MB_MUT_BEFF_PEER) ? 1 : 0;
}

/* Sendrecv: the steps one after the other (the paper: with more than two
 * processes in a ring the two messages go one after the other). */
MB_INLINE int sendrecv(const mb_beff *b, const int *to, const int *from, long long first, int n, int chk,
		       long long *bad)
{
	int i, s;
	for (i = 0; i < n; i++) {
		if (chk)
			chk_fill(b, first + i);
		for (s = 0; s < b->nsteps; s++)
			CHK(MPI_Sendrecv(b->sbuf + b->off[s] + sshift(), b->len, MPI_BYTE, to[s], s,
					 b->rbuf + b->off[s], b->len, MPI_BYTE, from[s], s,
					 b->comm, MPI_STATUS_IGNORE));
		if (chk)
			*bad += chk_verify(b, first + i);
	}
	return MPI_SUCCESS;
}

/* Alltoallv: one call carries every step; counts are zero except for the
 * neighbours (prepared before timing). The ping and the pong to the same
 * neighbour (a ring or direction of length 2) are one block of 2·L bytes. */
MB_INLINE int alltoallv(const mb_beff *b, long long first, int n, int chk, long long *bad)
{
	int i;
	for (i = 0; i < n; i++) {
		if (chk)
			chk_fill(b, first + i);
		CHK(MPI_Alltoallv(b->sbuf + sshift(), b->scounts, b->sdispls, MPI_BYTE,
				  b->rbuf, b->rcounts, b->rdispls, MPI_BYTE, b->comm));
		if (chk)
			*bad += chk_verify(b, first + i);
	}
	return MPI_SUCCESS;
}

/* Nonblocking: MPI_Irecv for every step, MPI_Isend for every step, one
 * MPI_Waitall. */
MB_INLINE int nonblocking(const mb_beff *b, const int *to, const int *from, long long first, int n, int chk,
			  long long *bad)
{
	MPI_Request rq[2 * MB_BEFF_MAXSTEPS];
	MPI_Status st[2 * MB_BEFF_MAXSTEPS]; /* not MPI_STATUSES_IGNORE: MPICH's headers make gcc warn */
	int i, s, ns = b->nsteps;
	for (i = 0; i < n; i++) {
		if (chk)
			chk_fill(b, first + i);
		for (s = 0; s < ns; s++)
			CHK(MPI_Irecv(b->rbuf + b->off[s], b->len, MPI_BYTE, from[s], s, b->comm, &rq[s]));
		for (s = 0; s < ns; s++)
			CHK(MPI_Isend(b->sbuf + b->off[s] + sshift(), b->len, MPI_BYTE, to[s], s, b->comm,
				      &rq[ns + s]));
		CHK(MPI_Waitall(2 * ns, rq, st));
		if (chk)
			*bad += chk_verify(b, first + i);
	}
	return MPI_SUCCESS;
}

/* loop runs executions first .. first+n-1 (the numbers only matter to the
 * check content). */
MB_INLINE int loop(const mb_beff *b, const int *to, const int *from, long long first, int n, int chk,
		   long long *bad)
{
	switch (b->method) {
	case MB_BEFF_SENDRECV:
		return sendrecv(b, to, from, first, n, chk, bad);
	case MB_BEFF_ALLTOALLV:
		return alltoallv(b, first, n, chk, bad);
	default:
		return nonblocking(b, to, from, first, n, chk, bad);
	}
}

static int loop_timed(const mb_beff *b, const int *to, const int *from, int n)
{
	long long unused = 0;
	return loop(b, to, from, 0, n, 0, &unused);
}

static int loop_check(const mb_beff *b, const int *to, const int *from, long long first, int n, long long *bad)
{
	return loop(b, to, from, first, n, 1, bad);
}

int mb_beff_run(const mb_beff *b, double *t, long long *defects)
{
	int to[MB_BEFF_MAXSTEPS], from[MB_BEFF_MAXSTEPS], s, rc;
	double t0;
	*defects = 0;
	if (b->nsteps > MB_BEFF_MAXSTEPS)
		return MPI_ERR_ARG;
	CHK(MUTANT_MPI_ERROR(b->comm));
	/* -1 becomes MPI_PROC_NULL before timing, not inside the loop. */
	for (s = 0; s < b->nsteps; s++) {
		to[s] = b->to[s] < 0 ? MPI_PROC_NULL : b->to[s];
		from[s] = b->from[s] < 0 ? MPI_PROC_NULL : b->from[s];
	}
	if (b->warmup)
		CHK(b->check ? loop_check(b, to, from, 0, 1, defects) : loop_timed(b, to, from, 1));
	CHK(MPI_Barrier(b->comm));
	if (b->check) {
		t0 = MPI_Wtime();
		rc = loop_check(b, to, from, 1, b->loop, defects);
		*t = MPI_Wtime() - t0;
		return rc;
	}
	t0 = MPI_Wtime();
	rc = loop_timed(b, to, from, b->loop);
	*t = MPI_Wtime() - t0;
	return rc;
}

int mb_beff_times(double t, double bad, double out[4], MPI_Comm comm)
{
	double mm[2] = {t, -t}, sum[2] = {t, bad};
	int size;
	CHK(MPI_Allreduce(MPI_IN_PLACE, mm, 2, MPI_DOUBLE, MPI_MAX, comm));
	CHK(MPI_Allreduce(sum, &out[2], 2, MPI_DOUBLE, MPI_SUM, comm));
	CHK(MPI_Comm_size(comm, &size));
	out[0] = mm[0];
	out[1] = -mm[1];
	out[2] /= size;
	return MPI_SUCCESS;
}
