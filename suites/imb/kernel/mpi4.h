/* IMB-MPI4's persistent collectives (Intel MPI Benchmarks 2021.11,
 * src_c/IMB_bcast.c IMB_bcast_persist ... IMB_barrier.c
 * IMB_barrier_persist): the request of the nbc.h loops made once, before
 * the loop, with the *_init call of the kind. Which calls exist is decided
 * when the library is compiled against: MPI 4.0's MPI_*_init where
 * mpi.h says MPI_VERSION >= 4 (MPICH 4.0), else Open MPI's pcollreq
 * extension, MPIX_*_init (mpi-ext.h defines OMPI_HAVE_MPI_EXT_PCOLLREQ;
 * Open MPI 4.1 reports MPI_VERSION 3), else none. */
#ifndef MB_MPI4_H
#define MB_MPI4_H
#include "nbc.h"

/* mb_nbc_init creates the persistent request of k's kind (root 0,
 * MPI_INFO_NULL as IMB's c_info->info) in *req. Without the calls it
 * returns MPI_ERR_UNSUPPORTED_OPERATION. */
int mb_nbc_init(const mb_nbc *k, int rank, MPI_Request *req);
#endif
