/* The window loops of the IMB family (winloops.c): window.h's WINDOW
 * around one repetition of an IMB-MPI1 or IMB-NBC collective. */
#ifndef MB_WINLOOPS_H
#define MB_WINLOOPS_H

#include "window.h"
#include "kernels.h"
#include "nbc.h"

/* mb_win_mpi1 runs the window loop of an IMB-MPI1 collective (the kinds of
 * kernels.h and kernels2021.h that are collectives) with the buffers,
 * counts and root0 of k; mb_win_nbc of an IMB-NBC pure loop (the call and
 * its MPI_Wait). */
int mb_win_mpi1(const mb_kernel *k, const mb_win *w);
int mb_win_nbc(const mb_nbc *k, const mb_win *w);

/* The single call of nbc.c that the window loop shares. */
int mb_nbc_start(const mb_nbc *k, int rank, MPI_Request *req);

#endif
