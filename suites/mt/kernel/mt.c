//go:build cgo && !nompi

/* IMB-MT 2021.11's loops (src_cpp/MT/MT_benchmark.cpp), written anew:
 * see mt.h and docs/imb.md, "IMB-MT". */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>

#include "mt.h"
#include "mutant.h"
#include "settle.h"

/* thr is one thread's view of a case. */
typedef struct {
	mb_mt_case *c;
	int id, rank, size, chk, n; /* n: ints a message holds (check mode) */
	MPI_Comm comm;
	MPI_Datatype dt;
	char *a, *b;
	MPI_Request *req;
	MPI_Status *st;
	long long defects;
	int rc;
} thr;

#define CALL(x) do { int rc_ = (x); if (rc_ != MPI_SUCCESS && w->rc == MPI_SUCCESS) w->rc = rc_; } while (0)

/* val is the int at index i of what world rank r's thread t sends in
 * repetition k (check mode): the thread and the repetition are in it, so
 * that a message of another thread's communicator, of another peer or of
 * another repetition is told apart. Unsigned: sums wrap as MPI's do. */
static inline unsigned val(int r, int t, int k, int i)
{
	return 1u + (unsigned)r * 7919u + (unsigned)t * 104729u + (unsigned)k * 31u + (unsigned)(i % 1021) * 3u;
}

static void fill(thr *w, char *buf, int r, int k)
{
	unsigned *p = (unsigned *)buf;
	for (int i = 0; i < w->n; i++)
		p[i] = val(r, w->id, k, i);
}

static void clear(thr *w, char *buf)
{
	memset(buf, 0xff, (size_t)w->n * sizeof(int));
}

/* expect counts the ints of buf that are not what rank r's thread sent
 * in repetition k; r < 0: the sum over every rank of the communicator. */
static void expect(thr *w, const char *buf, int r, int k)
{
	const unsigned *p = (const unsigned *)buf;
	for (int i = 0; i < w->n; i++) {
		unsigned want = 0;
		if (r >= 0)
			want = val(r, w->id, k, i);
		else
			for (int q = 0; q < w->size; q++)
				want += val(q, w->id, k, i);
		if (p[i] != want)
			w->defects++;
	}
}

/* special_barrier is IMB-MT's -barrier special: a dissemination of empty
 * messages over MPI_COMM_WORLD. */
static int special_barrier(mb_mt_team *t)
{
	int size, tmp = 0, rc = MPI_SUCCESS;
	MPI_Comm_size(t->world, &size);
	for (int mask = 1; mask < size && rc == MPI_SUCCESS; mask <<= 1)
		rc = MPI_Sendrecv(&tmp, 0, MPI_BYTE, (t->world_rank + mask) % size, 1010, &tmp, 0, MPI_BYTE,
				  (t->world_rank - mask + size) % size, 1010, t->world, MPI_STATUS_IGNORE);
	return rc;
}

/* sync is IMB-MT's barrier function: with MPI_THREAD_MULTIPLE the threads
 * meet, thread 0 makes the barrier over MPI_COMM_WORLD, and they meet
 * again; -barrier off makes nothing. */
static void sync_all(thr *w)
{
	mb_mt_team *t = w->c->team;
	if (w->c->barrier == MB_MT_BARRIER_OFF)
		return;
	if (t->multiple)
		pthread_barrier_wait(&t->bar);
	if (w->id == 0)
		CALL(w->c->barrier == MB_MT_BARRIER_ON ? MPI_Barrier(t->world) : special_barrier(t));
	if (t->multiple)
		pthread_barrier_wait(&t->bar);
}

/* pairs is IMB-MT's set_stride: stride 0 is size/2; false where the rank
 * has no partner. */
static int pairs(int rank, int size, int *stride, int *group)
{
	if (*stride == 0)
		*stride = size / 2;
	if (*stride <= 0 || *stride > size / 2)
		return 0;
	*group = rank / *stride;
	if ((*group / 2 == size / (2 * *stride)) && (size % (2 * *stride) != 0))
		return 0;
	return 1;
}

/* The point-to-point loops: n repetitions, the first numbered k0. */

static void pingpong(thr *w, int n, int k0, int stride, int group)
{
	int cnt = w->c->count, even = group % 2 == 0, pair = even ? w->rank + stride : w->rank - stride;
	for (int i = 0; i < n; i++) {
		if (w->chk) {
			fill(w, w->a, w->rank, k0 + i);
			clear(w, w->b);
		}
		if (even) {
			CALL(MPI_Send(w->a, cnt, w->dt, pair, 0, w->comm));
			CALL(MPI_Recv(w->b, cnt, w->dt, pair, 0, w->comm, MPI_STATUS_IGNORE));
		} else {
			CALL(MPI_Recv(w->b, cnt, w->dt, pair, 0, w->comm, MPI_STATUS_IGNORE));
			CALL(MPI_Send(w->a, cnt, w->dt, pair, 0, w->comm));
		}
		if (w->chk)
			expect(w, w->b, pair, k0 + i);
	}
}

static void pingping(thr *w, int n, int k0, int stride, int group)
{
	int cnt = w->c->count, dest = group % 2 == 0 ? w->rank + stride : w->rank - stride;
	MPI_Request r;
	for (int i = 0; i < n; i++) {
		if (w->chk) {
			fill(w, w->a, w->rank, k0 + i);
			clear(w, w->b);
		}
		CALL(MPI_Isend(w->a, cnt, w->dt, dest, 0, w->comm, &r));
		CALL(MPI_Recv(w->b, cnt, w->dt, dest, 0, w->comm, MPI_STATUS_IGNORE));
		CALL(MPI_Wait(&r, MPI_STATUS_IGNORE));
		if (w->chk)
			expect(w, w->b, dest, k0 + i);
	}
}

static void sendrecv(thr *w, int n, int k0, int stride)
{
	int cnt = w->c->count, dest = (w->rank + stride) % w->size, src = (w->rank + w->size - stride) % w->size;
	for (int i = 0; i < n; i++) {
		if (w->chk) {
			fill(w, w->a, w->rank, k0 + i);
			clear(w, w->b);
		}
		CALL(MPI_Sendrecv(w->a, cnt, w->dt, dest, 0, w->b, cnt, w->dt, src, 0, w->comm, MPI_STATUS_IGNORE));
		if (w->chk)
			expect(w, w->b, src, k0 + i);
	}
}

static void exchange(thr *w, int n, int k0, int stride)
{
	int cnt = w->c->count, right = (w->rank + stride) % w->size, left = (w->rank + w->size - stride) % w->size;
	char *b2 = w->b + (size_t)cnt * (w->c->dt_int ? sizeof(int) : 1);
	MPI_Request r[2];
	MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: MPICH's headers make gcc warn */
	for (int i = 0; i < n; i++) {
		if (w->chk) {
			fill(w, w->a, w->rank, k0 + i);
			clear(w, w->b);
			clear(w, b2);
		}
		CALL(MPI_Isend(w->a, cnt, w->dt, left, 0, w->comm, &r[0]));
		CALL(MPI_Isend(w->a, cnt, w->dt, right, 0, w->comm, &r[1]));
		CALL(MPI_Recv(w->b, cnt, w->dt, left, 0, w->comm, MPI_STATUS_IGNORE));
		CALL(MPI_Recv(b2, cnt, w->dt, right, 0, w->comm, MPI_STATUS_IGNORE));
		CALL(MPI_Waitall(2, r, st));
		if (w->chk) {
			expect(w, w->b, left, k0 + i);
			expect(w, b2, right, k0 + i);
		}
	}
}

/* uniband and biband: a window of messages, then a one-byte reply from
 * the receiving side (IMB-MT's ack). */
static void band(thr *w, int n, int k0, int stride, int group, int both)
{
	int cnt = w->c->count, win = w->c->window, even = group % 2 == 0;
	int peer = even ? w->rank + stride : w->rank - stride;
	char ack = 0;
	for (int i = 0; i < n; i++) {
		if (w->chk) {
			fill(w, w->a, w->rank, k0 + i);
			clear(w, w->b);
		}
		int nreq = 0;
		if (both || !even)
			for (int j = 0; j < win; j++)
				CALL(MPI_Irecv(w->b, cnt, w->dt, peer, 0, w->comm, &w->req[nreq++]));
		if (both || even)
			for (int j = 0; j < win; j++)
				CALL(MPI_Isend(w->a, cnt, w->dt, peer, 0, w->comm, &w->req[nreq++]));
		CALL(MPI_Waitall(nreq, w->req, w->st));
		if (even)
			CALL(MPI_Recv(&ack, 1, MPI_CHAR, peer, 0, w->comm, MPI_STATUS_IGNORE));
		else
			CALL(MPI_Send(&ack, 1, MPI_CHAR, peer, 0, w->comm));
		if (w->chk && (both || !even))
			expect(w, w->b, peer, k0 + i);
	}
}

/* pt2pt is IMB-MT's run_instance for the point-to-point benchmarks: the
 * warm-up, the barrier, and the timed repetitions. It returns whether the
 * rank took part (IMB-MT's result). */
static int pt2pt(thr *w, double *time)
{
	mb_mt_case *c = w->c;
	int stride = c->stride, group = 0, ok = 1;
	if (c->kind == MB_MT_SENDRECV || c->kind == MB_MT_EXCHANGE)
		(void)pairs(w->rank, w->size, &stride, &group); /* IMB-MT ignores the answer there */
	else
		ok = pairs(w->rank, w->size, &stride, &group);
	for (int pass = 0; pass < 2; pass++) {
		int n = pass ? c->repeat : c->warmup, k0 = pass ? c->warmup : 0;
		double t0 = 0;
		if (pass) {
			sync_all(w);
			t0 = MPI_Wtime();
		}
		if (ok)
			switch (c->kind) {
			case MB_MT_PINGPONG: pingpong(w, n, k0, stride, group); break;
			case MB_MT_PINGPING: pingping(w, n, k0, stride, group); break;
			case MB_MT_SENDRECV: sendrecv(w, n, k0, stride); break;
			case MB_MT_EXCHANGE: exchange(w, n, k0, stride); break;
			case MB_MT_UNIBAND: band(w, n, k0, stride, group, 0); break;
			case MB_MT_BIBAND: band(w, n, k0, stride, group, 1); break;
			}
		if (pass)
			*time = MPI_Wtime() - t0;
	}
	return ok;
}

/* coll is IMB-MT's MT_CYCLE: warm-up and timed repetitions alike, each
 * call timed alone and followed by five barriers (BarrierMT: none, its
 * threads meet before each call instead); the sum of the timed ones. */
static int coll(thr *w, double *time)
{
	mb_mt_case *c = w->c;
	int cnt = c->count, root = 0;
	double sum = 0;
	for (int i = 0; i < c->repeat + c->warmup; i++) {
		if (w->chk) {
			fill(w, w->a, w->rank, i);
			clear(w, w->b);
		}
		double t = MPI_Wtime();
		switch (c->kind) {
		case MB_MT_BARRIER:
			if (c->team->multiple)
				pthread_barrier_wait(&c->team->bar);
			CALL(MPI_Barrier(w->comm));
			break;
		case MB_MT_BCAST:
			CALL(MPI_Bcast(w->rank == root ? w->a : w->b, cnt, w->dt, root, w->comm));
			break;
		case MB_MT_REDUCE:
			CALL(MPI_Reduce(w->a, w->b, cnt, w->dt, MPI_SUM, root, w->comm));
			break;
		case MB_MT_ALLREDUCE:
			CALL(MPI_Allreduce(w->a, w->b, cnt, w->dt, MPI_SUM, w->comm));
			break;
		}
		t = MPI_Wtime() - t;
		if (i >= c->warmup)
			sum += t;
		if (w->chk) {
			if (c->kind == MB_MT_BCAST && w->rank != root)
				expect(w, w->b, root, i);
			else if ((c->kind == MB_MT_REDUCE && w->rank == root) || c->kind == MB_MT_ALLREDUCE)
				expect(w, w->b, -1, i);
		}
		if (c->kind != MB_MT_BARRIER)
			for (int j = 0; j < 5; j++)
				sync_all(w);
	}
	*time = sum;
	return 1;
}

static void *thread_main(void *p)
{
	thr *w = p;
	mb_mt_case *c = w->c;
	mb_mt_team *t = c->team;
	int id = w->id;
	/* The mutant: on odd world ranks each thread runs on the next thread's
	 * communicator, so that its partners are other threads. */
	int ci = MUTANT(MB_MUT_MT_SWAP_COMM) && t->world_rank % 2 == 1 ? (id + 1) % t->nthreads : id;
	w->comm = t->comm[ci];
	w->dt = c->dt_int ? MPI_INT : MPI_CHAR;
	w->a = t->a[id];
	w->b = t->b[id];
	w->req = t->req[id];
	w->st = t->st[id];
	w->chk = c->check && c->dt_int;
	w->n = c->dt_int ? c->count : 0;
	w->rc = MPI_SUCCESS;
	w->defects = 0;
	MPI_Comm_rank(w->comm, &w->rank);
	MPI_Comm_size(w->comm, &w->size);
	double time = 0;
	int ok = 0;
	if (c->repeat > 0) {
		if (c->kind >= MB_MT_BARRIER)
			ok = coll(w, &time);
		else
			ok = pt2pt(w, &time);
	}
	if (!ok)
		time = 0;
	c->time[id] = time;
	c->ok[id] = ok;
	c->defects[id] = w->defects;
	c->rc[id] = w->rc;
	return NULL;
}

int mb_mt_run(mb_mt_case *c)
{
	mb_mt_team *t = c->team;
	thr w[MB_MT_MAXTHREADS];
	pthread_t th[MB_MT_MAXTHREADS];
	int n = t->nthreads, started = 1, rc = MPI_SUCCESS;
	mb_settle();
	for (int i = 0; i < n; i++)
		w[i] = (thr){.c = c, .id = i};
	for (int i = 1; i < n; i++) {
		if (pthread_create(&th[i], NULL, thread_main, &w[i]) != 0)
			return MPI_ERR_OTHER; /* the threads made wait at the first barrier: the watchdog ends the job */
		started++;
	}
	thread_main(&w[0]);
	for (int i = 1; i < started; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < n; i++)
		if (rc == MPI_SUCCESS)
			rc = c->rc[i];
	return rc;
}

/* alloc is IMB-MT's AlignedAllocator: size + align bytes, zeroed, and the
 * pointer moved up to the next multiple of align (always up, by 1 to
 * align bytes). */
static void *alloc(mb_mt_team *t, int slot, size_t size, int align)
{
	char *p = malloc(size + (size_t)align);
	if (p == NULL)
		return NULL;
	memset(p, 0, size + (size_t)align);
	t->base[slot] = p;
	return p + ((size_t)align - (uintptr_t)p % (size_t)align);
}

typedef struct {
	mb_mt_team *t;
	int id, align, ok;
} allocarg;

static void *alloc_own(void *p)
{
	allocarg *x = p;
	x->t->a[x->id] = alloc(x->t, 2 * x->id, x->t->size_a, x->align);
	x->t->b[x->id] = alloc(x->t, 2 * x->id + 1, x->t->size_b, x->align);
	x->ok = x->t->a[x->id] != NULL && x->t->b[x->id] != NULL;
	return NULL;
}

int mb_mt_team_init(mb_mt_team *t, MPI_Comm world, int nthreads, int multiple, size_t size_a, size_t size_b,
		    int align, int malloc_algo, int window)
{
	memset(t, 0, sizeof *t);
	if (nthreads < 1 || nthreads > MB_MT_MAXTHREADS || align < 1)
		return MPI_ERR_ARG;
	t->nthreads = nthreads;
	t->multiple = multiple;
	t->world = world;
	t->size_a = size_a;
	t->size_b = size_b;
	t->nbase = 2 * nthreads;
	MPI_Comm_rank(world, &t->world_rank);
	for (int i = 0; i < nthreads; i++)
		t->comm[i] = MPI_COMM_NULL;
	if (pthread_barrier_init(&t->bar, NULL, (unsigned)nthreads) != 0)
		return MPI_ERR_OTHER;
	t->have_bar = 1;
	/* IMB-MT's duplicate_comm: MPI_COMM_WORLD itself without
	 * MPI_THREAD_MULTIPLE, else a duplicate per thread with the info
	 * thread_id = the thread's number. */
	for (int i = 0; i < nthreads; i++) {
		if (!multiple) {
			t->comm[i] = world;
			continue;
		}
		int rc = MPI_Comm_dup(world, &t->comm[i]);
		if (rc != MPI_SUCCESS)
			return rc;
		MPI_Info info;
		char num[16];
		snprintf(num, sizeof num, "%d", i);
		MPI_Info_create(&info);
		MPI_Info_set(info, "thread_id", num);
		MPI_Comm_set_info(t->comm[i], info);
		MPI_Info_free(&info);
	}
	if (malloc_algo == MB_MT_MALLOC_CONTINUOUS) {
		char *a = alloc(t, 0, size_a * nthreads, align), *b = alloc(t, 1, size_b * nthreads, align);
		if (a == NULL || b == NULL)
			return MPI_ERR_NO_MEM;
		for (int i = 0; i < nthreads; i++) {
			t->a[i] = a + (size_t)i * size_a;
			t->b[i] = b + (size_t)i * size_b;
		}
	} else if (malloc_algo == MB_MT_MALLOC_PARALLEL) {
		/* each thread allocates and zeroes its own buffers (first touch) */
		allocarg x[MB_MT_MAXTHREADS];
		pthread_t th[MB_MT_MAXTHREADS];
		int started = 0, ok = 1;
		for (int i = 0; i < nthreads; i++) {
			x[i] = (allocarg){.t = t, .id = i, .align = align};
			if (pthread_create(&th[i], NULL, alloc_own, &x[i]) != 0)
				break;
			started++;
		}
		for (int i = 0; i < started; i++) {
			pthread_join(th[i], NULL);
			ok = ok && x[i].ok;
		}
		if (started < nthreads || !ok)
			return MPI_ERR_NO_MEM;
	} else {
		for (int i = 0; i < nthreads; i++) {
			t->a[i] = alloc(t, 2 * i, size_a, align);
			t->b[i] = alloc(t, 2 * i + 1, size_b, align);
			if (t->a[i] == NULL || t->b[i] == NULL)
				return MPI_ERR_NO_MEM;
		}
	}
	for (int i = 0; i < nthreads; i++) {
		t->req[i] = malloc(2 * (size_t)(window > 0 ? window : 1) * sizeof(MPI_Request));
		t->st[i] = malloc(2 * (size_t)(window > 0 ? window : 1) * sizeof(MPI_Status));
		if (t->req[i] == NULL || t->st[i] == NULL)
			return MPI_ERR_NO_MEM;
	}
	return MPI_SUCCESS;
}

void mb_mt_team_free(mb_mt_team *t)
{
	for (int i = 0; i < t->nthreads; i++) {
		if (t->multiple && t->comm[i] != MPI_COMM_NULL)
			MPI_Comm_free(&t->comm[i]);
		free(t->req[i]);
		free(t->st[i]);
		t->req[i] = NULL;
		t->st[i] = NULL;
	}
	for (int i = 0; i < t->nbase; i++) {
		free(t->base[i]);
		t->base[i] = NULL;
	}
	if (t->have_bar)
		pthread_barrier_destroy(&t->bar);
	t->have_bar = 0;
}
