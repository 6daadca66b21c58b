/* One-sided windows as IMB prepares them (section 5.2.3.1): the binding's
 * part of IMB-EXT, which Comm.WinCreate and the Window benchmark's loop
 * (suites/imb/kernel, rma.c) share. */
#ifndef MPIBENCH_RMAWIN_H
#define MPIBENCH_RMAWIN_H

#include <mpi.h>

/* mb_rma_set_info is IMB's User_Set_Info for MPI_Win_create (section
 * 5.2.3.3): the info every window is created with. */
void mb_rma_set_info(MPI_Info *info);

/* mb_win_open creates a window as IMB prepares one (section 5.2.3.1):
 * the info of mb_rma_set_info, MPI_ERRORS_RETURN on the window, then
 * MPI_Win_fence to start the first epoch. */
int mb_win_open(void *base, MPI_Aint size, int disp_unit, MPI_Comm comm, MPI_Win *win);

#endif
