/* Window-synchronised timing (package clocksync): every rank waits until
 * the local time at which repetition i starts (its common global start
 * time, mapped through the rank's clock model), runs one collective call
 * and stores its end time. The loops live in C with their arrays
 * allocated before the loop; Go computes the targets before and the
 * per-repetition times after (clocksync/window.go). */
#ifndef MB_WINDOW_H
#define MB_WINDOW_H

#include <mpi.h>
#include "kernels.h"
#include "nbc.h"
#include "skampi.h"

typedef struct {
	const double *target; /* local MPI_Wtime at which repetition i starts */
	double *end;          /* local MPI_Wtime after repetition i's call */
	double *lag;          /* the rank's first MPI_Wtime at or after target[i], minus target[i] */
	int nrep;
	int root_step; /* rooted calls: root i = (root0 + i * root_step) % size */
} mb_win;

/* mb_win_mpi1 runs the window loop of an IMB-MPI1 collective (the kinds of
 * kernels.h and kernels2021.h that are collectives) with the buffers,
 * counts and root0 of k; mb_win_nbc of an IMB-NBC pure loop (the call and
 * its MPI_Wait); mb_win_skampi of a SKaMPI collective. */
int mb_win_mpi1(const mb_kernel *k, const mb_win *w);
int mb_win_nbc(const mb_nbc *k, const mb_win *w);
int mb_win_skampi(const mb_sk *k, const mb_win *w);

/* The single calls of nbc.c and skampi.c that the window loops share. */
int mb_nbc_start(const mb_nbc *k, int rank, MPI_Request *req);
int mb_sk_coll(const mb_sk *k);

#endif
