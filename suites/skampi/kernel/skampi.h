/* SKaMPI patterns of mpibench: one measurement of one call of a pattern,
 * with its MPI_Wtime pair, in C. Go calls mb_sk_sample once per
 * repetition; the adaptive policy (package measure) decides how many. */
#ifndef MPIBENCH_SKAMPI_H
#define MPIBENCH_SKAMPI_H

#include <mpi.h>
#include "window.h"

/* The operations, in the order of Op in op.go. */
enum {
	MB_SK_EMPTY = 0,  /* the timer pair alone, on comm rank 0 */
	MB_SK_COLL_EMPTY, /* barrier, timer, barrier: the collective's empty measurement */
	/* ping-pong, comm of 2, rank 0 times a round trip */
	MB_SK_PP_BSEND_RECV,
	MB_SK_PP_ISEND_RECV,
	MB_SK_PP_SEND_IPROBE_RECV,
	MB_SK_PP_SEND_IRECV,
	MB_SK_PP_SEND_RECV,
	MB_SK_PP_SEND_RECV_AT,
	MB_SK_PP_SENDRECV,
	MB_SK_PP_SENDRECV_REPLACE,
	MB_SK_PP_SSEND_RECV,
	/* collective, barrier / timer / op / barrier / timer on rank 0 */
	MB_SK_ALLTOALL,
	MB_SK_BARRIER,
	MB_SK_BCAST,
	MB_SK_COMM_SPLIT,
	MB_SK_REDUCE,
	MB_SK_SCAN,
	MB_SK_GATHER,
	MB_SK_SCATTER,
	MB_SK_ALLGATHER,
	MB_SK_ALLREDUCE,
	/* master-worker, rank 0 the master */
	MB_SK_MW_BSEND,
	MB_SK_MW_ISEND,
	MB_SK_MW_RECV_ANY,
	MB_SK_MW_SEND,
	MB_SK_MW_SSEND,
	MB_SK_MW_WAITANY,
	MB_SK_MW_WAITSOME,
	/* simple, one process */
	MB_SK_WTIME,
	MB_SK_COMM_RANK,
	MB_SK_COMM_SIZE,
	MB_SK_IPROBE_FAIL,
	MB_SK_ATTR_GET,
	MB_SK_NOPS
};

typedef struct {
	MPI_Comm comm;
	int op;
	int rank, size; /* in comm */
	char *sbuf, *rbuf; /* size*len bytes each at least */
	int len;           /* message length in bytes */
	int work;          /* master-worker: workpieces per worker */
	MPI_Request *req;  /* master-worker: size entries */
	int *idx;          /* master-worker: size entries */
	int *sent;         /* master-worker: size entries */
	MPI_Status *st;    /* master-worker: size entries */
	int keyval;        /* simple: the attribute's key */
	int no_barrier;    /* collective: no barrier before the timer (-sync none) */
} mb_sk;

/* mb_sk_sample: one measurement; *t is the time in seconds on comm rank
 * 0 (on one process for the simple pattern), 0 elsewhere. */
int mb_sk_sample(const mb_sk *k, double *t);

/* mb_sk_survey: a quick ping-pong of reps round trips (after one untimed)
 * between every pair i < j of comm, the pairs disjoint within each of
 * P-1 rounds (P rounds for odd P) and run at once, a barrier before each
 * round; gives every rank the pair with the largest mean round trip in
 * seconds (the lowest i, then j, on ties). O(1) memory, O(P) rounds. */
int mb_sk_survey(MPI_Comm comm, int reps, int *i, int *j, double *lat);
/* mb_sk_survey_partner: rank's partner in round r of the survey over n
 * slots (n = P rounded up to even; a partner >= P is a bye). */
int mb_sk_survey_partner(int rank, int r, int n);

/* mb_sk_attach / mb_sk_detach: a buffer of n bytes for MPI_Bsend. */
int mb_sk_attach(int n);
int mb_sk_detach(void);
int mb_sk_bsend_overhead(void);

/* mb_sk_keyval / mb_sk_keyval_free: a keyval with an attribute set on
 * comm, for the attribute access of the simple pattern. */
int mb_sk_keyval(MPI_Comm comm, int *keyval);
int mb_sk_keyval_free(MPI_Comm comm, int keyval);

/* mb_win_skampi runs the window loop of a SKaMPI collective (window.h). */
int mb_win_skampi(const mb_sk *k, const mb_win *w);

#endif
