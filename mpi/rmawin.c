//go:build cgo && !nompi

#include "rmawin.h"
#include "chk.h"

void mb_rma_set_info(MPI_Info *info)
{
	/* The default of IMB 3.0; a site may set hints for its machine here. */
	*info = MPI_INFO_NULL;
}

int mb_win_open(void *base, MPI_Aint size, int disp_unit, MPI_Comm comm, MPI_Win *win)
{
	MPI_Info info;
	mb_rma_set_info(&info);
	CHK(MPI_Win_create(base, size, disp_unit, info, comm, win));
	CHK(MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN));
	return MPI_Win_fence(0, *win);
}
