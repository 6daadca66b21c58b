/* IMB 2021's own barrier (-imb_barrier on), for the barriers IMB runs
 * outside the timing of its collectives. */
#ifndef MPIBENCH_IMBBARRIER_H
#define MPIBENCH_IMBBARRIER_H

#include <mpi.h>

/* MB_IMB_BARRIER_TAG is the tag of the barrier's messages, IMB's
 * IMB_BARRIER_TAG (IMB_utils.c). */
#define MB_IMB_BARRIER_TAG 1000

/* mb_imb_barrier is IMB 2021.11's IMB_Barrier (IMB_utils.c): a
 * dissemination barrier of ceil(log2 size) rounds; in the round of
 * distance d = 1, 2, 4, ... every rank sends an empty message to rank
 * (rank + d) mod size and receives one from (rank - d) mod size with
 * MPI_Sendrecv. */
int mb_imb_barrier(MPI_Comm comm);

/* mb_barriers runs n barriers on comm: IMB's (mb_imb_barrier) when imb is
 * non-zero, MPI_Barrier otherwise, as IMB's IMB_do_n_barriers does
 * (IMB_declare.h). It returns the first error code met. */
int mb_barriers(MPI_Comm comm, int n, int imb);

#endif
