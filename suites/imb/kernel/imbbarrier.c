//go:build cgo && !nompi

#include "imbbarrier.h"
#include "chk.h"

int mb_imb_barrier(MPI_Comm comm)
{
	int size, rank, d;
	char none = 0;
	CHK(MPI_Comm_size(comm, &size));
	CHK(MPI_Comm_rank(comm, &rank));
	for (d = 1; d < size; d <<= 1)
		CHK(MPI_Sendrecv(&none, 0, MPI_BYTE, (rank + d) % size, MB_IMB_BARRIER_TAG,
				 &none, 0, MPI_BYTE, (rank - d + size) % size, MB_IMB_BARRIER_TAG,
				 comm, MPI_STATUS_IGNORE));
	return MPI_SUCCESS;
}

int mb_barriers(MPI_Comm comm, int n, int imb)
{
	int i;
	for (i = 0; i < n; i++)
		if (imb)
			CHK(mb_imb_barrier(comm));
		else
			CHK(MPI_Barrier(comm));
	return MPI_SUCCESS;
}
