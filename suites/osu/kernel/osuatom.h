/* OSU Micro-Benchmarks 7.4's atomic one-sided loops (c/mpi/one-sided:
 * osu_acc_latency.c, osu_get_acc_latency.c, osu_fop_latency.c,
 * osu_cas_latency.c): the window of one size, its warm-up and timed
 * iterations under one synchronisation, in C. Rank 0 is the origin and
 * rank 1 the target; under fence and pscw rank 1 also operates on rank 0,
 * as OSU's loops do. mb_osa_run_check is mpibench's -c: the same loops
 * with every repetition's data written before and verified after it. */
#ifndef MB_OSUATOM_H
#define MB_OSUATOM_H

#include <mpi.h>

/* The operations: MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op
 * (all MPI_SUM), MPI_Compare_and_swap. */
enum mb_osa_op { MB_OSA_ACC, MB_OSA_GACC, MB_OSA_FOP, MB_OSA_CAS };

/* The datatypes of -T: MPI_CHAR, MPI_INT, MPI_FLOAT. */
enum mb_osa_type { MB_OSA_CHAR, MB_OSA_INT, MB_OSA_FLOAT };

typedef struct {
	MPI_Comm comm;
	int op, sync, win, type; /* sync and win numbered as osurma.h's */
	int count;               /* elements of one operation */
	long long bytes;         /* the window's memory and each buffer, in bytes */
	int iters, skip;
	int pre_win;  /* OSU's MPI_Barrier calls before the window's creation */
	int pre_loop; /* and between its creation and the loop */
	int excl;     /* lock and flush's MPI_Win_lock: MPI_LOCK_EXCLUSIVE (else shared) */
	void *sbuf;   /* origin: the operand, 'bytes' bytes */
	void *tbuf;   /* result buffer (get_acc, fop, cas) */
	void *cbuf;   /* compare buffer (cas) */
	void *base;   /* the window's memory for create and dynamic */
	char fill_s, fill_t, fill_c, fill_w; /* OSU's initial bytes of each buffer */
	double *samples; /* iters: each timed iteration's seconds on rank 0 */
	/* results */
	double time; /* rank 0's seconds of the timed iterations */
	/* -c, this rank's: repetitions verified, those with a wrong element,
	 * the first and last of them (1-based, 0: none) */
	long long trials, failures, first, last;
} mb_osa;

int mb_osa_run(mb_osa *k);
int mb_osa_run_check(mb_osa *k);

#endif
