/* OSU Micro-Benchmarks 7.4's point-to-point loops (c/mpi/pt2pt/standard:
 * osu_latency.c, osu_bw.c, osu_bibw.c, osu_mbw_mr.c, osu_multi_lat.c;
 * c/mpi/pt2pt/persistent: osu_latency_persistent.c, osu_bw_persistent.c,
 * osu_bibw_persistent.c; osu_latency_mp.c; c/mpi/pt2pt/congestion:
 * osu_bw_fan_in.c, osu_bw_fan_out.c): the warm-up and timed iterations of
 * one size, all in C. */
#ifndef MB_OSU_H
#define MB_OSU_H

#include <mpi.h>

enum mb_osu_kind {
	MB_OSU_LATENCY,   /* osu_latency: ranks 0 and 1 */
	MB_OSU_BW,        /* osu_bw */
	MB_OSU_BIBW,      /* osu_bibw */
	MB_OSU_MBW_MR,    /* osu_mbw_mr: rank r < pairs sends to r + pairs */
	MB_OSU_MULTI_LAT, /* osu_multi_lat: rank r < pairs pings r + pairs */
	MB_OSU_LATENCY_MT, /* osu_latency_mt: threads of rank 0 ping threads of rank 1 */
	MB_OSU_LATENCY_MP, /* osu_latency_mp: osu_latency's calls with a barrier before each repetition */
	MB_OSU_FAN,        /* osu_bw_fan_in, osu_bw_fan_out: a sender and its peers (fan_send, peers) */
};

typedef struct {
	MPI_Comm comm;
	int kind;
	MPI_Datatype type; /* the element type, or -D's derived type */
	long long count;   /* count of the MPI calls: elements, 1 with -D */
	long long bytes;   /* bytes the message fills in the buffers (-c) */
	int iters, skip;   /* OSU's iterations and skip at this size */
	int window;        /* -W: messages in flight (bandwidth tests) */
	int vwarm;         /* -u with -c: untimed repetitions before the timed one; 0 otherwise */
	int pairs;         /* osu_mbw_mr, osu_multi_lat */
	int nbufs;         /* 1, or -W with -b multiple */
	void **sbuf;       /* nbufs send and receive buffers */
	void **rbuf;
	MPI_Request *reqs; /* 2 * window */
	MPI_Status *stats; /* window: OSU's reqstat, Waitall's statuses */
	double *samples;   /* iters seconds, each timed iteration's; NULL: none */
	int threads;       /* osu_latency_mt: this rank's threads (buffers: nbufs = threads) */
	int tagged;        /* osu_latency_mt: more than one sender thread, iteration i has tag i */
	int persistent;    /* the _persistent tests of latency, bw, bibw: requests made once per size
	                      (MPI_Send_init, MPI_Recv_init) and started in the loop */
	int fan_send;      /* the fan tests: this rank sends (and is timed) */
	int npeers;        /* the fan tests: this rank's peers (reqs and stats hold window * npeers) */
	const int *peers;
	/* results */
	double time;      /* seconds of the timed iterations on this rank (its own timer) */
	long long errors; /* -c: iterations whose received data were wrong, on this rank */
} mb_osu;

/* mb_osu_run measures one size; mb_osu_run_check the same loops with
 * OSU's -c: before every iteration each rank writes its content of that
 * iteration (mpi/pattern.h) into its send buffers and poisons its receive
 * buffers, then a barrier; after it each receiver counts the iteration as
 * an error if any byte differs from what its partner sent. */
int mb_osu_run(mb_osu *k);
int mb_osu_run_check(mb_osu *k);

/* mb_osu_run_mt is osu_latency_mt's size: k->threads threads on this rank,
 * thread t doing iterations t, t + threads, ...; check as mb_osu_run_check. */
int mb_osu_run_mt(mb_osu *k, int check);

/* mb_osu_type makes -D's derived type of count elements of base: ddt 0
 * contiguous, 1 vector (count/stride blocks of block elements, stride
 * apart), 2 indexed (n blocks, displs and blocks in elements), committed,
 * as osu_util_mpi.c's omb_ddt_assign. */
int mb_osu_type(MPI_Datatype base, int ddt, long long count, int stride, int block, int n, const int *displs,
		const int *blocks, MPI_Datatype *out);

/* mb_osu_fork is osu_latency_mp's fork: n processes made from this one,
 * each of which sleeps the given seconds and exits without touching
 * anything of its parent's (no MPI, no Go, no stdio); their ids go to
 * pids. It returns how many it made (fewer than n when fork failed; errno
 * says why). mb_osu_reap ends and waits for them. */
int mb_osu_fork(int n, int seconds, int *pids);
void mb_osu_reap(int n, const int *pids);

/* mb_osu_base is -T's type: 0 MPI_CHAR, 1 MPI_INT, 2 MPI_FLOAT. */
MPI_Datatype mb_osu_base(int t);

#endif
