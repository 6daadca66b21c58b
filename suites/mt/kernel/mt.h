/* IMB-MT 2021.11's loops (src_cpp/MT/MT_benchmark.cpp): the MPI-1
 * operations run at once by several threads of a process, each thread on
 * a communicator of its own. The threads are pthreads made here; thread 0
 * is the calling thread, the one that called MPI_Init_thread. */
#ifndef MB_MT_H
#define MB_MT_H

#include <mpi.h>
#include <pthread.h>

enum {
	MB_MT_PINGPONG,
	MB_MT_PINGPING,
	MB_MT_SENDRECV,
	MB_MT_EXCHANGE,
	MB_MT_UNIBAND,
	MB_MT_BIBAND,
	MB_MT_BARRIER,
	MB_MT_BCAST,
	MB_MT_REDUCE,
	MB_MT_ALLREDUCE
};

/* The barrier between repetitions and before a timed loop (-barrier). */
enum { MB_MT_BARRIER_OFF, MB_MT_BARRIER_ON, MB_MT_BARRIER_SPECIAL };

/* The placement of the threads' buffers (-malloc_algo). */
enum { MB_MT_MALLOC_SERIAL, MB_MT_MALLOC_CONTINUOUS, MB_MT_MALLOC_PARALLEL };

#define MB_MT_MAXTHREADS 256

/* mb_mt_team is the threads of a run: their communicators and buffers. */
typedef struct {
	int nthreads;
	int multiple; /* MPI_THREAD_MULTIPLE asked for: a communicator per thread */
	MPI_Comm world;
	int world_rank;
	MPI_Comm comm[MB_MT_MAXTHREADS];
	char *base[2 * MB_MT_MAXTHREADS]; /* what malloc returned, freed at the end */
	int nbase;
	void *a[MB_MT_MAXTHREADS], *b[MB_MT_MAXTHREADS];
	size_t size_a, size_b;
	MPI_Request *req[MB_MT_MAXTHREADS];
	MPI_Status *st[MB_MT_MAXTHREADS]; /* not MPI_STATUSES_IGNORE: MPICH's headers make gcc warn */
	pthread_barrier_t bar;
	int have_bar;
} mb_mt_team;

/* mb_mt_case is one benchmark at one count. */
typedef struct {
	mb_mt_team *team;
	int kind;
	int count;    /* elements */
	int dt_int;   /* 1: MPI_INT, 0: MPI_CHAR */
	int warmup, repeat, window, stride, barrier;
	int check;
	/* out, per thread */
	double time[MB_MT_MAXTHREADS];
	int ok[MB_MT_MAXTHREADS];
	long long defects[MB_MT_MAXTHREADS];
	int rc[MB_MT_MAXTHREADS];
} mb_mt_case;

int mb_mt_team_init(mb_mt_team *t, MPI_Comm world, int nthreads, int multiple, size_t size_a, size_t size_b,
		    int align, int malloc_algo, int window);
void mb_mt_team_free(mb_mt_team *t);
int mb_mt_run(mb_mt_case *c);

#endif
