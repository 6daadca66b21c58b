//go:build cgo && !nompi

#include <stdlib.h>
#include "chk.h"
#include "mutant.h"
#include "skampi.h"
#include "window.h"

#define TAG 2000

/* The timed region of every pattern holds only the MPI calls of one
 * execution and the two MPI_Wtime calls; variants are separate cases of a
 * switch chosen before the timer starts. */

/* Ping-pong, one half: send to the peer with the variant's send call. */
static int pp_send(const mb_sk *k, int peer)
{
	MPI_Request rq;
	switch (k->op) {
	case MB_SK_PP_BSEND_RECV:
		return MPI_Bsend(k->sbuf, k->len, MPI_BYTE, peer, TAG, k->comm);
	case MB_SK_PP_ISEND_RECV:
		CHK(MPI_Isend(k->sbuf, k->len, MPI_BYTE, peer, TAG, k->comm, &rq));
		return MPI_Wait(&rq, MPI_STATUS_IGNORE);
	case MB_SK_PP_SSEND_RECV:
		return MPI_Ssend(k->sbuf, k->len, MPI_BYTE, peer, TAG, k->comm);
	default:
		return MPI_Send(k->sbuf, k->len, MPI_BYTE, peer, TAG, k->comm);
	}
}

/* Ping-pong, the other half: receive from the peer with the variant's
 * receive call. */
static int pp_recv(const mb_sk *k, int peer)
{
	MPI_Request rq;
	MPI_Status st;
	int flag = 0;
	switch (k->op) {
	case MB_SK_PP_SEND_IPROBE_RECV:
		while (!flag)
			CHK(MPI_Iprobe(peer, TAG, k->comm, &flag, &st));
		return MPI_Recv(k->rbuf, k->len, MPI_BYTE, peer, TAG, k->comm, &st);
	case MB_SK_PP_SEND_IRECV:
		CHK(MPI_Irecv(k->rbuf, k->len, MPI_BYTE, peer, TAG, k->comm, &rq));
		return MPI_Wait(&rq, &st);
	case MB_SK_PP_SEND_RECV_AT:
		return MPI_Recv(k->rbuf, k->len, MPI_BYTE, peer, MPI_ANY_TAG, k->comm, &st);
	default:
		return MPI_Recv(k->rbuf, k->len, MPI_BYTE, peer, TAG, k->comm, &st);
	}
}

/* Ping-pong: rank 0 times one round trip; Sendrecv and Sendrecv_replace
 * are one exchange, both ranks calling at once. */
static int pingpong(const mb_sk *k, double *t)
{
	int peer = 1 - k->rank;
	double t0 = MPI_Wtime();
	switch (k->op) {
	case MB_SK_PP_SENDRECV:
		CHK(MPI_Sendrecv(k->sbuf, k->len, MPI_BYTE, peer, TAG,
				 k->rbuf, k->len, MPI_BYTE, peer, TAG, k->comm, MPI_STATUS_IGNORE));
		break;
	case MB_SK_PP_SENDRECV_REPLACE:
		CHK(MPI_Sendrecv_replace(k->rbuf, k->len, MPI_BYTE, peer, TAG, peer, TAG,
					 k->comm, MPI_STATUS_IGNORE));
		break;
	default:
		if (k->rank == 0) {
			CHK(pp_send(k, peer));
			CHK(pp_recv(k, peer));
		} else {
			CHK(pp_recv(k, peer));
			CHK(pp_send(k, peer));
		}
	}
	*t = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

/* One collective call of the operation. Reductions are bit-wise or on
 * bytes (MPI_BOR is defined on MPI_BYTE), as SKaMPI's report says. */
static int coll_op(const mb_sk *k)
{
	int n = k->len;
	MPI_Comm c = k->comm;
	switch (k->op) {
	case MB_SK_ALLTOALL:
		return MPI_Alltoall(k->sbuf, n, MPI_BYTE, k->rbuf, n, MPI_BYTE, c);
	case MB_SK_BARRIER:
		return MPI_Barrier(c);
	case MB_SK_BCAST:
		return MPI_Bcast(k->sbuf, n, MPI_BYTE, 0, c);
	case MB_SK_REDUCE:
		return MPI_Reduce(k->sbuf, k->rbuf, n, MPI_BYTE, MPI_BOR, 0, c);
	case MB_SK_SCAN:
		return MPI_Scan(k->sbuf, k->rbuf, n, MPI_BYTE, MPI_BOR, c);
	case MB_SK_GATHER:
		return MPI_Gather(k->sbuf, n, MPI_BYTE, k->rbuf, n, MPI_BYTE, 0, c);
	case MB_SK_SCATTER:
		return MPI_Scatter(k->sbuf, n, MPI_BYTE, k->rbuf, n, MPI_BYTE, 0, c);
	case MB_SK_ALLGATHER:
		return MPI_Allgather(k->sbuf, n, MPI_BYTE, k->rbuf, n, MPI_BYTE, c);
	case MB_SK_ALLREDUCE:
		return MPI_Allreduce(k->sbuf, k->rbuf, n, MPI_BYTE, MPI_BOR, c);
	default: /* MB_SK_COLL_EMPTY */
		return MPI_SUCCESS;
	}
}


/* Collective: synchronise with MPI_Barrier, time on rank 0 from after the
 * barrier until every process has finished, which a second barrier
 * tells. The time of barrier + timer alone (MB_SK_COLL_EMPTY) is the
 * empty measurement the caller subtracts. With no_barrier (-sync none,
 * not SKaMPI's pattern) the first barrier is left out: every rank starts
 * when it is done with the previous repetition. Comm_split keeps it. */
static int coll(const mb_sk *k, double *t)
{
	double t0;
	MPI_Comm nc;
	/* The skew mutant: rank 1 late for a repetition, which the first
	 * barrier absorbs and -sync none measures (not the empty one). */
	if (k->op != MB_SK_COLL_EMPTY)
		MUTANT_SKEW(k->comm);
	if (!k->no_barrier || k->op == MB_SK_COMM_SPLIT)
		CHK(MPI_Barrier(k->comm));
	t0 = MPI_Wtime();
	if (k->op == MB_SK_COMM_SPLIT) { /* freed after the timer */
		CHK(MPI_Comm_split(k->comm, 0, k->rank, &nc));
		CHK(MPI_Barrier(k->comm));
		*t = MPI_Wtime() - t0;
		return MPI_Comm_free(&nc);
	}
	CHK(coll_op(k));
	CHK(MPI_Barrier(k->comm));
	*t = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

/* mw_send sends workpiece bytes to worker w with the variant's call. */
static int mw_send(const mb_sk *k, int w, MPI_Request *rq)
{
	char *b = k->sbuf + (size_t)w * k->len;
	switch (k->op) {
	case MB_SK_MW_BSEND:
		return MPI_Bsend(b, k->len, MPI_BYTE, w, TAG, k->comm);
	case MB_SK_MW_ISEND:
		return MPI_Isend(b, k->len, MPI_BYTE, w, TAG, k->comm, rq);
	case MB_SK_MW_SSEND:
		return MPI_Ssend(b, k->len, MPI_BYTE, w, TAG, k->comm);
	default:
		return MPI_Send(b, k->len, MPI_BYTE, w, TAG, k->comm);
	}
}

/* Rounds: work times, send one piece to every worker (Isend: post all,
 * then MPI_Waitall), then receive every worker's result in rank order.
 * These variants compare the ways of sending work out. */
static int mw_rounds(const mb_sk *k)
{
	int r, w, n = k->size - 1;
	for (r = 0; r < k->work; r++) {
		for (w = 1; w <= n; w++)
			CHK(mw_send(k, w, &k->req[w - 1]));
		if (k->op == MB_SK_MW_ISEND)
			CHK(MPI_Waitall(n, k->req, k->st));
		for (w = 1; w <= n; w++)
			CHK(MPI_Recv(k->rbuf + (size_t)w * k->len, k->len, MPI_BYTE, w, TAG, k->comm, &k->st[0]));
	}
	return MPI_SUCCESS;
}

/* Dynamic dispatch: one piece to every worker, then whoever returns a
 * result first gets the next piece until each has had work pieces.
 * Results are taken with MPI_Recv(MPI_ANY_SOURCE), MPI_Waitany or
 * MPI_Waitsome over one MPI_Irecv per worker: these variants compare the
 * ways of collecting results under contention. */
static int mw_dynamic(const mb_sk *k)
{
	int i, w, n = k->size - 1, left = n * k->work, done;
	MPI_Status st;
	for (w = 1; w <= n; w++) {
		CHK(MPI_Send(k->sbuf + (size_t)w * k->len, k->len, MPI_BYTE, w, TAG, k->comm));
		k->sent[w] = 1;
		if (k->op != MB_SK_MW_RECV_ANY)
			CHK(MPI_Irecv(k->rbuf + (size_t)w * k->len, k->len, MPI_BYTE, w, TAG, k->comm, &k->req[w - 1]));
	}
	while (left > 0) {
		done = 0;
		switch (k->op) {
		case MB_SK_MW_RECV_ANY:
			CHK(MPI_Recv(k->rbuf, k->len, MPI_BYTE, MPI_ANY_SOURCE, TAG, k->comm, &st));
			k->idx[done++] = st.MPI_SOURCE - 1;
			break;
		case MB_SK_MW_WAITANY:
			CHK(MPI_Waitany(n, k->req, &k->idx[0], &st));
			done = 1;
			break;
		default:
			CHK(MPI_Waitsome(n, k->req, &done, k->idx, k->st));
		}
		for (i = 0; i < done; i++) {
			w = k->idx[i] + 1;
			left--;
			if (k->sent[w] == k->work)
				continue;
			CHK(MPI_Send(k->sbuf + (size_t)w * k->len, k->len, MPI_BYTE, w, TAG, k->comm));
			k->sent[w]++;
			if (k->op != MB_SK_MW_RECV_ANY)
				CHK(MPI_Irecv(k->rbuf + (size_t)w * k->len, k->len, MPI_BYTE, w, TAG, k->comm, &k->req[w - 1]));
		}
	}
	return MPI_SUCCESS;
}

/* Master-worker: the master (rank 0) times the whole distribution of
 * size-1 times work pieces; every worker receives a piece and sends a
 * result of the same length back, work times. */
static int master_worker(const mb_sk *k, double *t)
{
	int i;
	double t0;
	if (k->rank != 0) {
		for (i = 0; i < k->work; i++) {
			CHK(MPI_Recv(k->rbuf, k->len, MPI_BYTE, 0, TAG, k->comm, MPI_STATUS_IGNORE));
			CHK(MPI_Send(k->sbuf, k->len, MPI_BYTE, 0, TAG, k->comm));
		}
		return MPI_SUCCESS;
	}
	t0 = MPI_Wtime();
	switch (k->op) {
	case MB_SK_MW_RECV_ANY:
	case MB_SK_MW_WAITANY:
	case MB_SK_MW_WAITSOME:
		CHK(mw_dynamic(k));
		break;
	default:
		CHK(mw_rounds(k));
	}
	*t = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

/* Simple: one call on this process. The volatile sinks keep the compiler
 * from dropping calls whose result is unused. */
static int simple(const mb_sk *k, double *t)
{
	volatile double x;
	volatile int v;
	int r, flag;
	void *attr;
	double t0 = MPI_Wtime();
	switch (k->op) {
	case MB_SK_WTIME:
		x = MPI_Wtime();
		break;
	case MB_SK_COMM_RANK:
		CHK(MPI_Comm_rank(k->comm, &r));
		v = r;
		break;
	case MB_SK_COMM_SIZE:
		CHK(MPI_Comm_size(k->comm, &r));
		v = r;
		break;
	case MB_SK_IPROBE_FAIL:
		/* Nothing is ever sent to MPI_COMM_SELF: always unsuccessful. */
		CHK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE));
		v = flag;
		break;
	case MB_SK_ATTR_GET:
		CHK(MPI_Comm_get_attr(k->comm, k->keyval, &attr, &flag));
		v = flag;
		break;
	}
	*t = MPI_Wtime() - t0;
	(void)x;
	(void)v;
	return MPI_SUCCESS;
}

int mb_sk_sample(const mb_sk *k, double *t)
{
	double t0;
	*t = 0;
	CHK(MUTANT_MPI_ERROR(k->comm));
	if (k->op == MB_SK_EMPTY) {
		if (k->rank == 0) {
			t0 = MPI_Wtime();
			*t = MPI_Wtime() - t0;
		}
		return MPI_SUCCESS;
	}
	if (k->op == MB_SK_COLL_EMPTY || (k->op >= MB_SK_ALLTOALL && k->op <= MB_SK_ALLREDUCE))
		return coll(k, t);
	if (k->op >= MB_SK_PP_BSEND_RECV && k->op <= MB_SK_PP_SSEND_RECV) {
		CHK(pingpong(k, t));
		if (k->rank != 0)
			*t = 0;
		return MPI_SUCCESS;
	}
	if (k->op >= MB_SK_MW_BSEND && k->op <= MB_SK_MW_WAITSOME)
		return master_worker(k, t);
	if (k->op >= MB_SK_WTIME && k->op < MB_SK_NOPS)
		return simple(k, t);
	return MPI_ERR_ARG;
}

/* mb_sk_survey_partner: rank's partner in round r of the circle method over n
 * slots (n even; a slot past the last rank is a bye): slot n-1 meets r,
 * every other slot x meets 2r - x (mod n-1), so that each round pairs
 * every slot once and the n-1 rounds pair every two slots once. */
int mb_sk_survey_partner(int rank, int r, int n)
{
	if (rank == n - 1)
		return r;
	if (rank == r)
		return n - 1;
	return ((2 * r - rank) % (n - 1) + (n - 1)) % (n - 1);
}

int mb_sk_survey(MPI_Comm comm, int reps, int *pi, int *pj, double *plat)
{
	int rank, size, n, r, k, j, bestj = -1;
	char b = 0;
	double t0 = 0, l;
	struct {
		double lat;
		int rank;
	} in, out;
	CHK(MPI_Comm_rank(comm, &rank));
	CHK(MPI_Comm_size(comm, &size));
	n = size + size % 2;
	in.lat = -1;
	in.rank = rank;
	for (r = 0; r < n - 1; r++) {
		CHK(MPI_Barrier(comm));
		j = mb_sk_survey_partner(rank, r, n);
		if (j >= size)
			continue; /* a bye */
		if (rank < j) {
			for (k = -1; k < reps; k++) { /* k = -1: warm-up */
				if (k == 0)
					t0 = MPI_Wtime();
				CHK(MPI_Send(&b, 1, MPI_BYTE, j, TAG, comm));
				CHK(MPI_Recv(&b, 1, MPI_BYTE, j, TAG, comm, MPI_STATUS_IGNORE));
			}
			l = (MPI_Wtime() - t0) / reps;
			if (l > in.lat || (l == in.lat && j < bestj)) {
				in.lat = l;
				bestj = j;
			}
		} else {
			for (k = -1; k < reps; k++) {
				CHK(MPI_Recv(&b, 1, MPI_BYTE, j, TAG, comm, MPI_STATUS_IGNORE));
				CHK(MPI_Send(&b, 1, MPI_BYTE, j, TAG, comm));
			}
		}
	}
	/* The largest latency, the lowest rank on ties (MPI_MAXLOC), whose
	 * partner it then broadcasts: the first pair in row order among the
	 * slowest, as a P×P matrix scanned row by row would give. */
	CHK(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm));
	CHK(MPI_Bcast(&bestj, 1, MPI_INT, out.rank, comm));
	*pi = out.rank;
	*pj = bestj;
	*plat = out.lat;
	return MPI_SUCCESS;
}

int mb_sk_attach(int n)
{
	void *p = malloc(n);
	if (p == NULL)
		return MPI_ERR_NO_MEM;
	return MPI_Buffer_attach(p, n);
}

int mb_sk_detach(void)
{
	void *p;
	int n;
	CHK(MPI_Buffer_detach(&p, &n));
	free(p);
	return MPI_SUCCESS;
}

int mb_sk_bsend_overhead(void) { return MPI_BSEND_OVERHEAD; }

static int attr_value = 42;

int mb_sk_keyval(MPI_Comm comm, int *keyval)
{
	CHK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval, NULL));
	return MPI_Comm_set_attr(comm, *keyval, &attr_value);
}

int mb_sk_keyval_free(MPI_Comm comm, int keyval)
{
	CHK(MPI_Comm_delete_attr(comm, keyval));
	return MPI_Comm_free_keyval(&keyval);
}

/* mb_win_skampi is the window loop of a SKaMPI collective (window.h). */
int mb_win_skampi(const mb_sk *k, const mb_win *w)
{
#define SK_CALL(i) coll_op(k)
	WINDOW(w, k->comm, SK_CALL);
#undef SK_CALL
	return MPI_SUCCESS;
}
