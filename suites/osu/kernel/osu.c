//go:build cgo && !nompi

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "osu.h"
#include "settle.h"
#include "chk.h"
#include "mutant.h"
#include "pattern.h"

/* Each loop is written once, always inlined with a constant chk: mb_osu_run
 * instantiates it with chk = 0, where the fill and verify calls fold away
 * and each iteration is OSU's calls between its two MPI_Wtime calls;
 * mb_osu_run_check with chk = 1, OSU's -c. With -c OSU repeats each
 * iteration vwarm + 1 times (-u, VALIDATION_SKIP_DEFAULT) and times the
 * last, as here; OSU verifies the last only, here every repeat is
 * verified (recheck), each after its own poisoning of the receive
 * buffers, outside the time. The MUTANT branches are 0 in a normal build. */
#define LOOP static inline __attribute__((always_inline)) int

/* OSU 7.4's tags: osu_latency 1; osu_bw 100 and the ack 101; osu_bibw 10
 * and 100; osu_mbw_mr 100 and 101; osu_multi_lat 1. The _persistent
 * tests: osu_latency_persistent 1, osu_bw_persistent 100 and the ack 101,
 * osu_bibw_persistent 100 from rank 0 and 101 from rank 1. */
#define TAG_LAT 1
#define TAG_BW 100
#define TAG_ACK 101
#define TAG_BIBW 10
#define TAG_PBIBW 101

/* count is the count a sender passes: the short-message mutant sends one
 * element less than the receiver expects. */
static inline long long count(const mb_osu *k)
{
	if (MUTANT(MB_MUT_OSU_SHORT))
		return k->count - 1;
	return k->count;
}

/* buffer l's content in iteration it of rank r. */
static inline long long slot(const mb_osu *k, long long it, int l) { return it * k->nbufs + l; }

/* fill_buf writes rank's content of slot it into s and poisons r. */
static void fill_buf(unsigned char *s, unsigned char *r, long long bytes, int rank, long long it)
{
	long long j;
	for (j = 0; j < bytes; j++) {
		s[j] = mb_pat_byte(rank, it, j);
		r[j] = (unsigned char)~mb_pat_byte(rank, it, j);
	}
}

static void fill(mb_osu *k, int rank, long long it)
{
	int l;
	for (l = 0; l < k->nbufs; l++)
		fill_buf(k->sbuf[l], k->rbuf[l], k->bytes, rank, slot(k, it, l));
}

/* wrong says whether r holds other than partner's content of slot it. */
static int wrong(const unsigned char *r, long long bytes, int partner, long long it)
{
	long long j;
	for (j = 0; j < bytes; j++)
		if (r[j] != mb_pat_byte(partner, it, j))
			return 1;
	return 0;
}

/* verify counts iteration it as an error (OSU's validate_data returns 1
 * per buffer) for each receive buffer that holds other than what partner
 * sent from its buffer of the same slot (buffer 0 with one buffer). */
static long long verify(const mb_osu *k, int partner, long long it)
{
	long long bad = 0;
	int l;
	for (l = 0; l < k->nbufs; l++)
		bad += wrong(k->rbuf[l], k->bytes, partner, slot(k, it, l));
	return bad;
}

/* unfill writes into the receive buffers the complement of partner's
 * content of iteration it, byte for byte, so that a repeat that leaves a
 * byte undelivered shows; -c calls it before every repeat. */
static void unfill(const mb_osu *k, int partner, long long it)
{
	long long b;
	int l;
	for (l = 0; l < k->nbufs; l++)
		for (b = 0; b < k->bytes; b++)
			((unsigned char *)k->rbuf[l])[b] = (unsigned char)~mb_pat_byte(partner, slot(k, it, l), b);
}

/* recheck is -c's check of repeat j of iteration it, on a rank that
 * receives from partner: the receive buffers verified, *worst raised to
 * their count of wrong buffers; then, before a next repeat, the buffers
 * poisoned again and (where the loop has no barrier of its own before
 * each repeat) a barrier, so that neither rank's check runs into the
 * next repeat's time, the timed one included. Every repeat is verified,
 * not only the last, timed one that OSU 7.4 verifies. */
static int recheck(mb_osu *k, int recv, int partner, long long it, int j, int barrier, long long *worst)
{
	long long w;
	if (recv) {
		w = verify(k, partner, it);
		if (w > *worst)
			*worst = w;
	}
	if (j == k->vwarm)
		return MPI_SUCCESS;
	if (recv)
		unfill(k, partner, it);
	if (!barrier)
		CHK(MPI_Barrier(k->comm));
	return MPI_SUCCESS;
}

/* stale is the osu-stale mutant: in every repeat j but the last of
 * iteration i the send buffers hold iteration i-1's content, as a sender
 * that refreshes its buffer only before the timed repeat would; -c must
 * see it, so it verifies every repeat, not only the timed one. */
static void stale(mb_osu *k, int rank, long long i, int j)
{
	long long b;
	int l;
	for (l = 0; l < k->nbufs; l++)
		for (b = 0; b < k->bytes; b++)
			((unsigned char *)k->sbuf[l])[b] = mb_pat_byte(rank, slot(k, j < k->vwarm ? i - 1 : i, l), b);
}

/* begin prepares iteration i with -c: this rank's content written, then
 * OSU's MPI_Barrier, which osu_multi_lat and osu_mbw_mr (barrier > 0) have
 * before every repetition anyway. */
static int begin(mb_osu *k, int rank, int i, int barrier)
{
	fill(k, rank, i);
	if (!barrier)
		CHK(MPI_Barrier(k->comm));
	return MPI_SUCCESS;
}

/* timed records one timed iteration of t seconds. */
static inline void timed(mb_osu *k, int i, double t)
{
	k->time += t;
	if (k->samples)
		k->samples[i - k->skip] = t;
}

/* start_wait is one persistent operation: MPI_Start, then MPI_Wait. */
static inline __attribute__((always_inline)) int start_wait(MPI_Request *r)
{
	CHK(MPI_Start(r));
	return MPI_Wait(r, MPI_STATUS_IGNORE);
}

/* lat_send and lat_recv are osu_latency's MPI_Send and MPI_Recv, or with
 * pers (osu_latency_persistent) the requests persist made: reqs[0] the
 * send, reqs[1] the receive. */
static inline __attribute__((always_inline)) int lat_send(mb_osu *k, int pers, int partner)
{
	if (pers)
		return start_wait(&k->reqs[0]);
	return MPI_Send(k->sbuf[0], count(k), k->type, partner, TAG_LAT, k->comm);
}

static inline __attribute__((always_inline)) int lat_recv(mb_osu *k, int pers, int partner)
{
	if (pers)
		return start_wait(&k->reqs[1]);
	return MPI_Recv(k->rbuf[0], k->count, k->type, partner, TAG_LAT, k->comm, MPI_STATUS_IGNORE);
}

/* latency is osu_latency's loop (and osu_multi_lat's with barrier = 1 and
 * any pair; osu_latency_persistent's with pers): the first of a pair
 * times Send then Recv, the second echoes. */
LOOP latency(mb_osu *k, int chk, int pers, int rank, int first, int partner, int barrier)
{
	int i, j;
	double t0 = 0;
	long long worst = 0;
	for (i = 0; i < k->iters + k->skip; i++) {
		worst = 0;
		if (chk)
			CHK(begin(k, rank, i, barrier));
		for (j = 0; j <= k->vwarm; j++) {
			int t = i >= k->skip && j == k->vwarm;
			if (MUTANT(MB_MUT_OSU_STALE))
				stale(k, rank, i, j);
			if (barrier)
				CHK(MPI_Barrier(k->comm));
			if (first) {
				if (t)
					t0 = MPI_Wtime();
				CHK(lat_send(k, pers, partner));
				CHK(lat_recv(k, pers, partner));
				if (t)
					timed(k, i, MPI_Wtime() - t0);
			} else {
				CHK(lat_recv(k, pers, partner));
				CHK(lat_send(k, pers, partner));
			}
			if (chk)
				CHK(recheck(k, 1, partner, i, j, barrier, &worst));
		}
		k->errors += worst;
	}
	return MPI_SUCCESS;
}

/* window posts the window's sends (send) or receives to peer, buffer j
 * of the window its own with -b multiple; with pers (the _persistent
 * tests) it starts the window's requests that persist made. */
static inline int window(mb_osu *k, int pers, int send, int peer, int tag, MPI_Request *req)
{
	int j;
	if (pers)
		return MPI_Startall(k->window, req);
	for (j = 0; j < k->window; j++) {
		int l = k->nbufs > 1 ? j : 0;
		if (send)
			CHK(MPI_Isend(k->sbuf[l], count(k), k->type, peer, tag, k->comm, req + j));
		else
			CHK(MPI_Irecv(k->rbuf[l], k->count, k->type, peer, tag, k->comm, req + j));
	}
	return MPI_SUCCESS;
}

/* bw is osu_bw's loop (barrier = 0; osu_bw_persistent's with pers) and
 * osu_mbw_mr's (barrier = 2): the
 * sender times the window of Isends, their Waitall and the receiver's
 * one-byte ack. osu_mbw_mr 7.4 calls MPI_Barrier twice per iteration, once
 * at its top and once right before the timed window (osu_mbw_mr.c,
 * calc_bw), and so does this loop. */
LOOP bw(mb_osu *k, int chk, int pers, int rank, int sender, int peer, int barrier)
{
	int i, j;
	double t0 = 0;
	long long worst = 0;
	for (i = 0; i < k->iters + k->skip; i++) {
		worst = 0;
		if (chk)
			CHK(begin(k, rank, i, barrier));
		if (barrier > 1)
			CHK(MPI_Barrier(k->comm));
		for (j = 0; j <= k->vwarm; j++) {
			int t = i >= k->skip && j == k->vwarm;
			if (MUTANT(MB_MUT_OSU_STALE) && sender)
				stale(k, rank, i, j);
			if (barrier)
				CHK(MPI_Barrier(k->comm));
			if (sender) {
				if (t)
					t0 = MPI_Wtime();
				CHK(window(k, pers, 1, peer, TAG_BW, k->reqs));
				CHK(MPI_Waitall(k->window, k->reqs, k->stats));
				CHK(MPI_Recv(k->rbuf[0], 1, MPI_CHAR, peer, TAG_ACK, k->comm, MPI_STATUS_IGNORE));
				if (t)
					timed(k, i, MPI_Wtime() - t0);
			} else {
				CHK(window(k, pers, 0, peer, TAG_BW, k->reqs));
				CHK(MPI_Waitall(k->window, k->reqs, k->stats));
				CHK(MPI_Send(k->sbuf[0], 1, MPI_CHAR, peer, TAG_ACK, k->comm));
			}
			if (chk)
				CHK(recheck(k, !sender, peer, i, j, barrier, &worst));
		}
		k->errors += worst;
	}
	return MPI_SUCCESS;
}

/* bibw is osu_bibw's loop: both post the window of Irecvs, then of
 * Isends; rank 0 waits for its sends then its receives and times it all,
 * rank 1 waits for its receives first. With pers, osu_bibw_persistent's:
 * both start their receives then their sends, and both wait for their
 * sends first. */
LOOP bibw(mb_osu *k, int chk, int pers, int rank)
{
	int i, j, peer = 1 - rank;
	int rtag = rank == 0 ? TAG_BIBW : TAG_BW, stag = rank == 0 ? TAG_BW : TAG_BIBW;
	MPI_Request *sreq = k->reqs + k->window, *rreq = k->reqs;
	double t0 = 0;
	long long worst = 0;
	for (i = 0; i < k->iters + k->skip; i++) {
		worst = 0;
		if (chk)
			CHK(begin(k, rank, i, 0));
		for (j = 0; j <= k->vwarm; j++) {
			int t = i >= k->skip && j == k->vwarm;
			if (MUTANT(MB_MUT_OSU_STALE))
				stale(k, rank, i, j);
			if (t && rank == 0)
				t0 = MPI_Wtime();
			CHK(window(k, pers, 0, peer, rtag, rreq));
			CHK(window(k, pers, 1, peer, stag, sreq));
			CHK(MPI_Waitall(k->window, rank == 0 || pers ? sreq : rreq, k->stats));
			CHK(MPI_Waitall(k->window, rank == 0 || pers ? rreq : sreq, k->stats));
			if (t && rank == 0)
				timed(k, i, MPI_Wtime() - t0);
			if (chk)
				CHK(recheck(k, 1, peer, i, j, 0, &worst));
		}
		k->errors += worst;
	}
	return MPI_SUCCESS;
}

/* persist makes the requests of a _persistent test before its size's
 * barrier, as OSU's programs do: osu_latency_persistent's send in reqs[0]
 * and receive in reqs[1]; osu_bw_persistent's window of sends (rank 0) or
 * of receives (rank 1); osu_bibw_persistent's window of receives, then of
 * sends in reqs[window...]. Buffer j of a window is its own with -b
 * multiple. *n is how many requests it made, for unpersist. */
static int persist(mb_osu *k, int rank, int *n)
{
	int j, peer = 1 - rank;
	MPI_Request *req = k->reqs;
	if (k->kind == MB_OSU_LATENCY) {
		*n = 2;
		CHK(MPI_Send_init(k->sbuf[0], count(k), k->type, peer, TAG_LAT, k->comm, &req[0]));
		return MPI_Recv_init(k->rbuf[0], k->count, k->type, peer, TAG_LAT, k->comm, &req[1]);
	}
	*n = k->kind == MB_OSU_BIBW ? 2 * k->window : k->window;
	for (j = 0; j < k->window; j++) {
		int l = k->nbufs > 1 && !MUTANT(MB_MUT_OSU_PERSIST_BUF) ? j : 0;
		if (k->kind == MB_OSU_BW && rank == 0)
			CHK(MPI_Send_init(k->sbuf[l], count(k), k->type, peer, TAG_BW, k->comm, &req[j]));
		else if (k->kind == MB_OSU_BW)
			CHK(MPI_Recv_init(k->rbuf[l], k->count, k->type, peer, TAG_BW, k->comm, &req[j]));
		else {
			CHK(MPI_Recv_init(k->rbuf[l], k->count, k->type, peer, rank == 0 ? TAG_PBIBW : TAG_BW, k->comm,
					  &req[j]));
			CHK(MPI_Send_init(k->sbuf[l], count(k), k->type, peer, rank == 0 ? TAG_BW : TAG_PBIBW, k->comm,
					  &req[k->window + j]));
		}
	}
	return MPI_SUCCESS;
}

/* unpersist frees the requests persist made (n of them). */
static int unpersist(mb_osu *k, int n)
{
	int j;
	for (j = 0; j < n; j++)
		CHK(MPI_Request_free(&k->reqs[j]));
	return MPI_SUCCESS;
}

/* fan is the loop of osu_bw_fan_in and osu_bw_fan_out (c/mpi/pt2pt/
 * congestion): a sender (osu_bw_fan_in: every child; osu_bw_fan_out:
 * every parent) times, per iteration, the window's Isends to each of its
 * peers in turn (request n + j * npeers for peer n, window slot j), their
 * Waitall, and a one-byte ack from each peer in the peers' order; its
 * peers post the matching Irecvs (buffer j with -b multiple, else buffer
 * 0), wait for them all, and ack each sender. OSU 7.4 gives these tests
 * no -c (OMBOP__PT2PT__CONG_BW), so the loop has no check variant and
 * OSU's validation repeats (warmup_validation, 0 without -c) are none. */
static int fan(mb_osu *k)
{
	int i, j, n, np = k->npeers, w = k->window;
	double t0 = 0;
	for (i = 0; i < k->iters + k->skip; i++) {
		int t = i >= k->skip;
		if (k->fan_send) {
			if (t)
				t0 = MPI_Wtime();
			for (j = 0; j < w; j++)
				for (n = 0; n < np; n++)
					CHK(MPI_Isend(k->sbuf[k->nbufs > 1 ? j : 0], count(k), k->type, k->peers[n],
						      TAG_BW, k->comm, &k->reqs[n + j * np]));
			CHK(MPI_Waitall(w * np, k->reqs, k->stats));
			for (n = 0; n < np; n++)
				CHK(MPI_Recv(k->rbuf[0], 1, MPI_CHAR, k->peers[n], TAG_ACK, k->comm, MPI_STATUS_IGNORE));
			if (t)
				timed(k, i, MPI_Wtime() - t0);
		} else {
			for (j = 0; j < w; j++)
				for (n = 0; n < np; n++)
					CHK(MPI_Irecv(k->rbuf[k->nbufs > 1 ? j : 0], k->count, k->type, k->peers[n],
						      TAG_BW, k->comm, &k->reqs[n + j * np]));
			CHK(MPI_Waitall(w * np, k->reqs, k->stats));
			for (n = 0; n < np; n++)
				CHK(MPI_Send(k->sbuf[0], 1, MPI_CHAR, k->peers[n], TAG_ACK, k->comm));
		}
	}
	return MPI_SUCCESS;
}

/* kind runs the kind's loop, pers the persistent variant's. */
LOOP kind(mb_osu *k, int chk, int pers, int rank)
{
	switch (k->kind) {
	case MB_OSU_LATENCY:
		return latency(k, chk, pers, rank, rank == 0, 1 - rank, 0);
	case MB_OSU_MULTI_LAT:
		return latency(k, chk, 0, rank, rank < k->pairs, rank < k->pairs ? rank + k->pairs : rank - k->pairs, 2);
	case MB_OSU_BW:
		return bw(k, chk, pers, rank, rank == 0, 1 - rank, 0);
	case MB_OSU_MBW_MR:
		return bw(k, chk, 0, rank, rank < k->pairs, rank < k->pairs ? rank + k->pairs : rank - k->pairs, 2);
	case MB_OSU_BIBW:
		return bibw(k, chk, pers, rank);
	case MB_OSU_LATENCY_MP:
		/* osu_latency_mp.c, communicate: osu_latency's Send and Recv
		 * after an MPI_Barrier before every repetition, -c or not. */
		return latency(k, chk, 0, rank, rank == 0, 1 - rank, 1);
	case MB_OSU_FAN:
		return fan(k);
	}
	return MPI_ERR_ARG;
}

/* loop runs the kind's loop after a barrier, as each OSU test begins
 * every size with MPI_Barrier; a _persistent test makes its requests
 * before the barrier and frees them after its iterations. */
LOOP loop(mb_osu *k, int chk)
{
	int rank, rc, n = 0;
	CHK(MUTANT_MPI_ERROR(k->comm));
	mb_settle();
	CHK(MPI_Comm_rank(k->comm, &rank));
	k->time = 0;
	k->errors = 0;
	if (k->persistent)
		CHK(persist(k, rank, &n));
	CHK(MPI_Barrier(k->comm));
	rc = k->persistent ? kind(k, chk, 1, rank) : kind(k, chk, 0, rank);
	if (n > 0 && rc == MPI_SUCCESS)
		rc = unpersist(k, n);
	return rc;
}

int mb_osu_run(mb_osu *k) { return loop(k, 0); }

int mb_osu_run_check(mb_osu *k) { return loop(k, 1); }

int mb_osu_type(MPI_Datatype base, int ddt, long long count, int stride, int block, int n, const int *displs,
		const int *blocks, MPI_Datatype *out)
{
	switch (ddt) {
	case 0:
		CHK(MPI_Type_contiguous((int)count, base, out));
		break;
	case 1:
		CHK(MPI_Type_vector((int)(count / stride), block, stride, base, out));
		break;
	default:
		CHK(MPI_Type_indexed(n, blocks, displs, base, out));
	}
	CHK(MPI_Type_commit(out));
	return MPI_SUCCESS;
}

MPI_Datatype mb_osu_base(int t)
{
	switch (t) {
	case 1:
		return MPI_INT;
	case 2:
		return MPI_FLOAT;
	}
	return MPI_CHAR;
}

/* mt is one thread of osu_latency_mt (osu_latency_mt.c: send_thread,
 * recv_thread): iterations id, id + threads, ...; with one sender thread
 * the ping has tag 1 and the pong tag 2 (any receiver thread takes any),
 * with more each iteration i has tag i. Only the senders time. */
typedef struct {
	mb_osu *k;
	int rank, id, rc;
	double time;
	long long errors;
} mt_arg;

LOOP mt_loop(mt_arg *a, int chk)
{
	mb_osu *k = a->k;
	void *sb = k->sbuf[a->id], *rb = k->rbuf[a->id];
	int i, j, peer = 1 - a->rank;
	double t0 = 0;
	for (i = a->id; i < k->iters + k->skip; i += k->threads) {
		int ping = k->tagged ? i : 1, pong = k->tagged ? i : 2;
		if (chk)
			fill_buf(sb, rb, k->bytes, a->rank, i);
		for (j = 0; j <= k->vwarm; j++) {
			int t = i >= k->skip && j == k->vwarm;
			if (a->rank == 0) {
				if (t)
					t0 = MPI_Wtime();
				CHK(MPI_Send(sb, count(k), k->type, peer, ping, k->comm));
				CHK(MPI_Recv(rb, k->count, k->type, peer, pong, k->comm, MPI_STATUS_IGNORE));
				if (t) {
					double dt = MPI_Wtime() - t0;
					a->time += dt;
					if (k->samples)
						k->samples[i - k->skip] = dt;
				}
			} else {
				CHK(MPI_Recv(rb, k->count, k->type, peer, ping, k->comm, MPI_STATUS_IGNORE));
				CHK(MPI_Send(sb, count(k), k->type, peer, pong, k->comm));
			}
		}
		if (chk)
			a->errors += wrong(rb, k->bytes, peer, i);
	}
	return MPI_SUCCESS;
}

static void *mt_run(void *p)
{
	mt_arg *a = p;
	a->rc = mt_loop(a, 0);
	return NULL;
}

static void *mt_run_check(void *p)
{
	mt_arg *a = p;
	a->rc = mt_loop(a, 1);
	return NULL;
}

int mb_osu_run_mt(mb_osu *k, int check)
{
	pthread_t th[128];
	mt_arg arg[128];
	int rank, t, n = k->threads, rc = MPI_SUCCESS;
	if (n < 1 || n > 128)
		return MPI_ERR_ARG;
	mb_settle();
	CHK(MUTANT_MPI_ERROR(k->comm));
	CHK(MPI_Comm_rank(k->comm, &rank));
	k->time = 0;
	k->errors = 0;
	CHK(MPI_Barrier(k->comm));
	for (t = 0; t < n; t++) {
		arg[t] = (mt_arg){.k = k, .rank = rank, .id = t};
		if (pthread_create(&th[t], NULL, check ? mt_run_check : mt_run, &arg[t]) != 0) {
			n = t;
			rc = MPI_ERR_OTHER;
			break;
		}
	}
	for (t = 0; t < n; t++) {
		pthread_join(th[t], NULL);
		k->time += arg[t].time;
		k->errors += arg[t].errors;
		if (rc == MPI_SUCCESS)
			rc = arg[t].rc;
	}
	return rc;
}

/* sleeper is a process of mb_osu_fork after fork: the copy of one thread
 * of a multi-threaded (Go) process, so it calls only async-signal-safe
 * functions. The handlers it inherited are Go's or the MPI library's,
 * which cannot run here: every signal goes back to its default action
 * (made in the parent, sa), then the signals are unblocked, so that a
 * kill ends it as it would OSU's child. It sleeps the seconds, as OSU's
 * child sleeps CHILD_SLEEP_SECONDS, and leaves with _exit: OSU's child
 * returns from main, running exit's handlers, which in this process
 * belong to its parent (the MPI library's, stdio's buffers). */
static void sleeper(int seconds, const struct sigaction *sa, const sigset_t *none)
{
	struct timespec ts = {seconds, 0};
	int s;
	for (s = 1; s < NSIG; s++)
		sigaction(s, sa, NULL); /* SIGKILL, SIGSTOP and libc's own fail: nothing to do */
	sigprocmask(SIG_SETMASK, none, NULL);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	_exit(0);
}

int mb_osu_fork(int n, int seconds, int *pids)
{
	struct sigaction sa;
	sigset_t all, none, old;
	int i, made = 0, err = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&none);
	sigfillset(&all);
	/* No signal handler may run in a child before it has reset them. */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0)
			sleeper(seconds, &sa, &none);
		if (p < 0) {
			err = errno;
			break;
		}
		pids[made++] = (int)p;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return made;
}

void mb_osu_reap(int n, const int *pids)
{
	int i;
	for (i = 0; i < n; i++) {
		kill((pid_t)pids[i], SIGKILL);
		while (waitpid((pid_t)pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	}
}
