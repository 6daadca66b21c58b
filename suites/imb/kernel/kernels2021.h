/* Timed kernels of the benchmarks IMB-MPI1 2021 added to IMB 3.0's list
 * (imb/bench2021.go). Each loop follows its IMB 2021.11 source (named at
 * the loop in kernels2021.c), and is written once for the timed and the
 * checked run, as the loops of kernels.c are.
 */
#ifndef MPIBENCH_KERNELS2021_H
#define MPIBENCH_KERNELS2021_H

#include "kernels.h"

/* The kinds follow kernels.h's, from 100 on, so that one Kernel number
 * names every loop of both files (kinds2021.go). */
enum mb21_kind {
	MB21_GATHER = 100,
	MB21_GATHERV,
	MB21_SCATTER,
	MB21_SCATTERV,
	MB21_REDUCE_LOCAL,
	MB21_REDUCE_SCATTER_BLOCK,
	MB21_UNIBAND,
	MB21_BIBAND,
	MB21_PINGPONG_SPECIFIC,
	MB21_PINGPONG_ANY,
	MB21_PINGPING_SPECIFIC,
	MB21_PINGPING_ANY
};

typedef struct {
	mb_kernel k;     /* buffers, counts, repetitions and barriers as in kernels.h */
	int window;      /* Uniband, Biband: messages in flight per repetition (-window_size) */
	int root_shift;  /* rooted collectives: root i+1 = (root i + root_shift) % size */
	int sync;        /* collectives: MPI_Barrier after every repetition, outside the timing */
} mb21_kernel;

/* mb21_run stores the time per repetition in *t (see kernels2021.c for
 * which loops time each call and which the whole loop). */
int mb21_run(const mb21_kernel *k, double *t);

/* mb21_run_check is mb_run_check for these loops. */
int mb21_run_check(const mb21_kernel *k, double *t, long long *defects);

#endif
