//go:build cgo && !nompi

#include "mpi4.h"
#ifdef OPEN_MPI
#include <mpi-ext.h>
#endif

#if MPI_VERSION >= 4
#define PINIT(f) MPI_##f##_init
#define PAPI "MPI"
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define PINIT(f) MPIX_##f##_init
#define PAPI "MPIX"
#else
#define PAPI ""
#endif

const char *mb_nbc_persist_api(void) { return PAPI; }

#ifdef PINIT
/* The arguments are those of start() in nbc.c, the non-blocking call of
 * the same kind, with MPI_INFO_NULL before the request. */
int mb_nbc_init(const mb_nbc *k, int rank, MPI_Request *req)
{
	void *s = k->sbuf, *r = k->rbuf;
	int c = k->count;
	MPI_Comm comm = k->comm;
	MPI_Info in = MPI_INFO_NULL;
	switch (k->kind) {
	case MB_IBCAST: return PINIT(Bcast)(rank == 0 ? s : r, c, MPI_BYTE, 0, comm, in, req);
	case MB_IALLGATHER: return PINIT(Allgather)(s, c, MPI_BYTE, r, c, MPI_BYTE, comm, in, req);
	case MB_IALLGATHERV:
		return PINIT(Allgatherv)(s, c, MPI_BYTE, r, k->counts, k->displs, MPI_BYTE, comm, in, req);
	case MB_IGATHER: return PINIT(Gather)(s, c, MPI_BYTE, r, c, MPI_BYTE, 0, comm, in, req);
	case MB_IGATHERV:
		return PINIT(Gatherv)(s, c, MPI_BYTE, r, k->counts, k->displs, MPI_BYTE, 0, comm, in, req);
	case MB_ISCATTER: return PINIT(Scatter)(s, c, MPI_BYTE, r, c, MPI_BYTE, 0, comm, in, req);
	case MB_ISCATTERV:
		return PINIT(Scatterv)(s, k->counts, k->displs, MPI_BYTE, r, c, MPI_BYTE, 0, comm, in, req);
	case MB_IALLTOALL: return PINIT(Alltoall)(s, c, MPI_BYTE, r, c, MPI_BYTE, comm, in, req);
	case MB_IALLTOALLV:
		return PINIT(Alltoallv)(s, k->counts, k->displs, MPI_BYTE, r, k->counts, k->displs, MPI_BYTE,
					comm, in, req);
	case MB_IREDUCE: return PINIT(Reduce)(s, r, c, MPI_FLOAT, MPI_SUM, 0, comm, in, req);
	case MB_IREDUCE_SCATTER:
		return PINIT(Reduce_scatter)(s, r, k->counts, MPI_FLOAT, MPI_SUM, comm, in, req);
	case MB_IALLREDUCE: return PINIT(Allreduce)(s, r, c, MPI_FLOAT, MPI_SUM, comm, in, req);
	case MB_IBARRIER: return PINIT(Barrier)(comm, in, req);
	}
	return MPI_ERR_ARG;
}
#else
int mb_nbc_init(const mb_nbc *k, int rank, MPI_Request *req)
{
	(void)k;
	(void)rank;
	*req = MPI_REQUEST_NULL;
	return MPI_ERR_UNSUPPORTED_OPERATION;
}
#endif
