//go:build cgo && !nompi

#include <stdint.h>
#include <unistd.h>
#include "p2p.h"
#include "settle.h"
#include "check.h"
#include "chk.h"
#include "mutant.h"

/* Each loop is written once, always inlined with constant kind and chk:
 * mb_p2p_run instantiates it with chk = 0, where the check hooks fold away
 * and the repetition is IMB-P2P's calls and buffer touches; mb_p2p_run_check
 * with chk = 1, where before repetition it every rank writes its content of
 * it (mpi/pattern.h) into its send buffers and poisons its receive buffers,
 * and after it counts the bytes that differ from what the sender named by
 * the definition had to deliver. Check mode leaves out the touches, which
 * would overwrite the content. The MUTANT branches are 0 in a normal build. */
#define LOOP static inline __attribute__((always_inline)) int

#define P2P_TAG 0
#define BARRIER_TAG 1000 /* IMB_P2P_BARRIER_TAG */
#define CACHE_LINE 64    /* IMB_P2P_CACHE_LINE_LEN */

/* SKIP(it): the first-only mutant communicates in repetition 0 only. */
#define SKIP(it) (MUTANT(MB_MUT_FIRST_ONLY) && (it) > 0)

/* barrier is imb_p2p_barrier: a dissemination barrier of empty
 * MPI_Sendrecv calls, no MPI_Barrier. */
static int barrier(MPI_Comm comm)
{
	int size, rank, mask, tmp = 0;
	CHK(MPI_Comm_size(comm, &size));
	CHK(MPI_Comm_rank(comm, &rank));
	for (mask = 1; mask < size; mask <<= 1)
		CHK(MPI_Sendrecv(&tmp, 0, MPI_BYTE, (rank + mask) % size, BARRIER_TAG, &tmp, 0, MPI_BYTE,
				 (rank - mask + size) % size, BARRIER_TAG, comm, MPI_STATUS_IGNORE));
	return MPI_SUCCESS;
}

static void pause_run(const mb_p2p *p)
{
	if (p->pause_usec >= 0)
		usleep((useconds_t)p->pause_usec);
}

/* next_random is IMB-P2P's get_next_random: a 64-bit LCG, bits 24..55. */
static inline uint32_t next_random(uint64_t *seed)
{
	*seed = *seed * 7560690468208412377ull + 4343336064253945357ull;
	return (uint32_t)(*seed >> 24);
}

static inline void touch_send(mb_p2p *p, int chk, void *buf)
{
	unsigned char *b = buf;
	long long i;
	if (chk || !p->touch_send)
		return;
	for (i = 0; i < p->size; i += CACHE_LINE)
		b[i] = (unsigned char)p->dummy++;
}

static inline void touch_recv(mb_p2p *p, int chk, const void *buf)
{
	const signed char *b = buf;
	long long i;
	if (chk || !p->touch_recv)
		return;
	for (i = 0; i < p->size; i += CACHE_LINE)
		p->dummy += (unsigned long long)b[i];
}

/* fill writes this rank's content of repetition it into every send buffer
 * and poisons every receive buffer; the wrong-rank mutant writes the next
 * rank's content instead. */
static void fill(mb_p2p *p, int rank, long long it)
{
	int i, n = p->nnbr > 0 ? p->nnbr : 1;
	int me = MUTANT(MB_MUT_WRONG_RANK) ? rank + 1 : rank;
	for (i = 0; i < n; i++) {
		mb_fill_bytes(p->sbuf[i], p->size, me, it, 0);
		if (p->kind != MB_P2P_SENDRECV_REPLACE)
			mb_poison(p->rbuf[i], p->size);
	}
}

static void verify(mb_p2p *p, const void *buf, int from, long long it)
{
	p->defects += mb_bad_bytes(buf, p->size, from, it, 0);
}

/* pingpong: ranks below n/2 send first, their partner rank + n/2 echoes. */
LOOP pingpong(mb_p2p *p, int chk, int rank, int n, long long it)
{
	int partner = (rank + n / 2) % n;
	void *s = p->sbuf[0], *r = p->rbuf[0];
	int cnt = (int)p->size;
	if (chk)
		fill(p, rank, it);
	if (!SKIP(it) && rank < n / 2) {
		touch_send(p, chk, s);
		CHK(MPI_Send(s, cnt, MPI_BYTE, partner, P2P_TAG, p->comm));
		CHK(MPI_Recv(r, cnt, MPI_BYTE, partner, P2P_TAG, p->comm, MPI_STATUS_IGNORE));
		touch_recv(p, chk, r);
	} else if (!SKIP(it)) {
		CHK(MPI_Recv(r, cnt, MPI_BYTE, partner, P2P_TAG, p->comm, MPI_STATUS_IGNORE));
		touch_recv(p, chk, r);
		touch_send(p, chk, s);
		CHK(MPI_Send(s, cnt, MPI_BYTE, partner, P2P_TAG, p->comm));
	}
	if (chk)
		verify(p, r, partner, it);
	return MPI_SUCCESS;
}

/* exchange is one MPI_Irecv from src, MPI_Send to dst, MPI_Wait: the
 * repetition of PingPing, Birandom and Corandom. */
LOOP exchange(mb_p2p *p, int chk, int rank, int src, int dst, long long it)
{
	MPI_Request req;
	void *s = p->sbuf[0], *r = p->rbuf[0];
	int cnt = (int)p->size;
	if (chk)
		fill(p, rank, it);
	if (!SKIP(it)) {
		CHK(MPI_Irecv(r, cnt, MPI_BYTE, src, P2P_TAG, p->comm, &req));
		touch_send(p, chk, s);
		CHK(MPI_Send(s, cnt, MPI_BYTE, dst, P2P_TAG, p->comm));
		CHK(MPI_Wait(&req, MPI_STATUS_IGNORE));
		touch_recv(p, chk, r);
	}
	if (chk)
		verify(p, r, src, it);
	return MPI_SUCCESS;
}

/* random_pair draws Unirandom's and Birandom's pair: rank0, then rank1 !=
 * rank0, both from the same seed on every rank. */
static inline void random_pair(uint64_t *seed, int n, int *rank0, int *rank1)
{
	*rank0 = (int)(next_random(seed) % (uint32_t)n);
	do
		*rank1 = (int)(next_random(seed) % (uint32_t)n);
	while (*rank1 == *rank0);
}

/* unirandom: rank0 sends to rank1; the others wait for the next pair. */
LOOP unirandom(mb_p2p *p, int chk, int rank, int n, long long it, uint64_t *seed, int timed)
{
	int rank0, rank1, cnt = (int)p->size;
	random_pair(seed, n, &rank0, &rank1);
	if (rank == rank0) {
		if (chk)
			fill(p, rank, it);
		touch_send(p, chk, p->sbuf[0]);
		if (!SKIP(it))
			CHK(MPI_Send(p->sbuf[0], cnt, MPI_BYTE, rank1, P2P_TAG, p->comm));
		p->messages += timed;
	} else if (rank == rank1) {
		if (chk)
			fill(p, rank, it);
		if (!SKIP(it))
			CHK(MPI_Recv(p->rbuf[0], cnt, MPI_BYTE, rank0, P2P_TAG, p->comm, MPI_STATUS_IGNORE));
		touch_recv(p, chk, p->rbuf[0]);
		if (chk)
			verify(p, p->rbuf[0], rank0, it);
		p->messages += timed;
	}
	return MPI_SUCCESS;
}

/* birandom: rank0 and rank1 exchange a message each way. */
LOOP birandom(mb_p2p *p, int chk, int rank, int n, long long it, uint64_t *seed, int timed)
{
	int rank0, rank1, other;
	random_pair(seed, n, &rank0, &rank1);
	if (rank != rank0 && rank != rank1)
		return MPI_SUCCESS;
	other = rank == rank0 ? rank1 : rank0;
	p->messages += 2 * timed;
	return exchange(p, chk, rank, other, other, it);
}

/* corandom: a random permutation of the ranks, shuffled further every
 * repetition; each rank receives from its left and sends to its right
 * neighbour on that ring. */
LOOP corandom(mb_p2p *p, int chk, int rank, int n, long long it, uint64_t *seed, int timed)
{
	int i, *ring = p->ring;
	for (i = 0; i < n; i++) {
		int j = (int)(next_random(seed) % (uint32_t)n);
		int t = ring[i];
		ring[i] = ring[j];
		ring[j] = t;
	}
	for (i = 0; ring[i] != rank; i++)
		;
	p->messages += 2 * timed;
	return exchange(p, chk, rank, ring[(i + n - 1) % n], ring[(i + 1) % n], it);
}

/* stencil: MPI_Irecv from every neighbour, MPI_Isend to every one, one
 * MPI_Waitall. */
LOOP stencil(mb_p2p *p, int chk, int rank, long long it, int timed)
{
	MPI_Request req[2 * MB_P2P_MAXNBR];
	MPI_Status st[2 * MB_P2P_MAXNBR]; /* as IMB-P2P; MPICH's MPI_STATUSES_IGNORE makes gcc warn */
	int i, k = p->nnbr, cnt = (int)p->size;
	if (chk)
		fill(p, rank, it);
	for (i = 0; i < k; i++)
		touch_send(p, chk, p->sbuf[i]);
	if (!SKIP(it)) {
		for (i = 0; i < k; i++)
			CHK(MPI_Irecv(p->rbuf[i], cnt, MPI_BYTE, p->nbr[i], P2P_TAG, p->comm, &req[i]));
		for (i = 0; i < k; i++)
			CHK(MPI_Isend(p->sbuf[i], cnt, MPI_BYTE, p->nbr[i], P2P_TAG, p->comm, &req[k + i]));
		CHK(MPI_Waitall(2 * k, req, st));
	}
	for (i = 0; i < k; i++) {
		touch_recv(p, chk, p->rbuf[i]);
		if (chk)
			verify(p, p->rbuf[i], p->nbr[i], it);
	}
	p->messages += 2 * k * timed;
	return MPI_SUCCESS;
}

/* sendrecv_replace: one buffer, sent to rank + 1 and replaced by what
 * rank - 1 sends. */
LOOP sendrecv_replace(mb_p2p *p, int chk, int rank, int n, long long it)
{
	int src = (rank + n - 1) % n;
	if (chk)
		fill(p, rank, it);
	touch_send(p, chk, p->sbuf[0]);
	if (!SKIP(it))
		CHK(MPI_Sendrecv_replace(p->sbuf[0], (int)p->size, MPI_BYTE, (rank + 1) % n, P2P_TAG, src, P2P_TAG,
					 p->comm, MPI_STATUS_IGNORE));
	if (chk)
		verify(p, p->sbuf[0], src, it);
	return MPI_SUCCESS;
}

/* loop runs count repetitions of kind; timed counts the messages. The
 * random benchmarks start from seed 0 and Corandom from the identity ring
 * in the warm-up and again in the timed loop, as IMB-P2P does. */
LOOP loop(mb_p2p *p, int kind, int chk, long long count, int timed)
{
	int rank, n, i;
	long long it;
	uint64_t seed = 0;
	CHK(MPI_Comm_rank(p->comm, &rank));
	CHK(MPI_Comm_size(p->comm, &n));
	if (kind == MB_P2P_CORANDOM)
		for (i = 0; i < n; i++)
			p->ring[i] = i;
	for (it = 0; it < count; it++) {
		int rc = MPI_SUCCESS;
		switch (kind) {
		case MB_P2P_PINGPONG:
			rc = pingpong(p, chk, rank, n, it);
			break;
		case MB_P2P_PINGPING:
			rc = exchange(p, chk, rank, (rank + n / 2) % n, (rank + n / 2) % n, it);
			break;
		case MB_P2P_UNIRANDOM:
			rc = unirandom(p, chk, rank, n, it, &seed, timed);
			break;
		case MB_P2P_BIRANDOM:
			rc = birandom(p, chk, rank, n, it, &seed, timed);
			break;
		case MB_P2P_CORANDOM:
			rc = corandom(p, chk, rank, n, it, &seed, timed);
			break;
		case MB_P2P_STENCIL:
			rc = stencil(p, chk, rank, it, timed);
			break;
		case MB_P2P_SENDRECV_REPLACE:
			rc = sendrecv_replace(p, chk, rank, n, it);
			break;
		}
		if (rc != MPI_SUCCESS)
			return rc;
	}
	return MPI_SUCCESS;
}

/* measure is one length of kind: IMB-P2P's sequence around the loops.
 * Unirandom and Birandom run nranks times the iterations (one pair per
 * repetition); SendRecv_Replace has no barrier between warm-up and timed
 * loop and reads its buffer once after each loop. */
LOOP measure(mb_p2p *p, int kind, int chk)
{
	int n;
	long long scale = 1;
	double t0;
	CHK(MPI_Comm_size(p->comm, &n));
	CHK(MUTANT_MPI_ERROR(p->comm));
	mb_settle();
	if (kind == MB_P2P_UNIRANDOM || kind == MB_P2P_BIRANDOM)
		scale = n;
	p->messages = p->defects = 0;
	pause_run(p);
	CHK(barrier(p->comm));
	CHK(loop(p, kind, chk, scale * p->warm, 0));
	if (kind == MB_P2P_SENDRECV_REPLACE)
		touch_recv(p, chk, p->sbuf[0]);
	else
		CHK(barrier(p->comm));
	t0 = MPI_Wtime();
	CHK(loop(p, kind, chk, scale * p->iters, 1));
	if (kind == MB_P2P_SENDRECV_REPLACE)
		touch_recv(p, chk, p->sbuf[0]);
	p->time = MPI_Wtime() - t0;
	pause_run(p);
	return barrier(p->comm);
}

/* dispatch instantiates measure for each kind with a constant chk. */
#define DISPATCH(CHKV)                                                                       \
	switch (p->kind) {                                                                   \
	case MB_P2P_PINGPONG: return measure(p, MB_P2P_PINGPONG, CHKV);                     \
	case MB_P2P_PINGPING: return measure(p, MB_P2P_PINGPING, CHKV);                     \
	case MB_P2P_UNIRANDOM: return measure(p, MB_P2P_UNIRANDOM, CHKV);                   \
	case MB_P2P_BIRANDOM: return measure(p, MB_P2P_BIRANDOM, CHKV);                     \
	case MB_P2P_CORANDOM: return measure(p, MB_P2P_CORANDOM, CHKV);                     \
	case MB_P2P_STENCIL: return measure(p, MB_P2P_STENCIL, CHKV);                       \
	case MB_P2P_SENDRECV_REPLACE: return measure(p, MB_P2P_SENDRECV_REPLACE, CHKV);     \
	}                                                                                    \
	return MPI_ERR_ARG

int mb_p2p_run(mb_p2p *p) { DISPATCH(0); }

int mb_p2p_run_check(mb_p2p *p) { DISPATCH(1); }
