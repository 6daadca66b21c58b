#include "beffio.h"
#include "chk.h"

int mb_beffio_open(MPI_Comm comm, int self, const char *name, int access,
	MPI_File *fh, double *t)
{
	/* As the original: the first write creates, the rewrite opens the
	 * existing file, the read deletes it on close. UNIQUE_OPEN tells the
	 * library no other program touches the file. The write is the only
	 * open with CREATE of each name, a name of this run only (its prefix
	 * is this run's, the partition sizes are distinct; leftovers of a killed
	 * run of the same prefix are removed before the run), so
	 * EXCL costs nothing and keeps a link planted under the name in a
	 * shared directory from being written through. */
	int amode = MPI_MODE_UNIQUE_OPEN;
	double t0;
	switch (access) {
	case MB_BEFFIO_WRITE: amode |= MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR; break;
	case MB_BEFFIO_REWRITE: amode |= MPI_MODE_RDWR; break;
	default: amode |= MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE; break;
	}
	CHK(MPI_Barrier(comm));
	t0 = MPI_Wtime();
	CHK(MPI_File_open(self ? MPI_COMM_SELF : comm, (char *)name, amode, MPI_INFO_NULL, fh));
	CHK(MPI_Barrier(comm));
	*t = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

int mb_beffio_close(MPI_Comm comm, MPI_File *fh, double *t)
{
	double t0 = MPI_Wtime();
	CHK(MPI_File_close(fh));
	CHK(MPI_Barrier(comm));
	*t = MPI_Wtime() - t0;
	return MPI_SUCCESS;
}

int mb_beffio_view(MPI_File fh, int type, int n, int rank, int l,
	MPI_Offset disp)
{
	MPI_Datatype chunk, ft;
	int rc;
	if (type != MB_BEFFIO_SCATTER || l == 0)
		return MPI_File_set_view(fh, disp, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
	/* l bytes, then a hole to the next n*l stride: from rank*l on,
	 * consecutive filetypes tile the file with every rank's chunks. The
	 * extent is an MPI_Aint and the offset an MPI_Offset, so n*l may
	 * exceed 2 GiB (a subarray's int sizes would overflow there). */
	CHK(MPI_Type_contiguous(l, MPI_BYTE, &chunk));
	rc = MPI_Type_create_resized(chunk, 0, (MPI_Aint)n * l, &ft);
	MPI_Type_free(&chunk);
	if (rc != MPI_SUCCESS)
		return rc;
	CHK(MPI_Type_commit(&ft));
	rc = MPI_File_set_view(fh, disp + (MPI_Offset)rank * l, MPI_BYTE, ft, "native", MPI_INFO_NULL);
	MPI_Type_free(&ft);
	return rc;
}

/* io is one call of the pattern type. */
static int io(const mb_beffio_pat *p)
{
	MPI_Status st;
	switch (p->type) {
	case MB_BEFFIO_SCATTER:
	case MB_BEFFIO_SEGCOLL:
		return p->write ? MPI_File_write_all(p->fh, p->buf, p->len, MPI_BYTE, &st)
			: MPI_File_read_all(p->fh, p->buf, p->len, MPI_BYTE, &st);
	case MB_BEFFIO_SHARED:
		return p->write ? MPI_File_write_ordered(p->fh, p->buf, p->len, MPI_BYTE, &st)
			: MPI_File_read_ordered(p->fh, p->buf, p->len, MPI_BYTE, &st);
	default:
		return p->write ? MPI_File_write(p->fh, p->buf, p->len, MPI_BYTE, &st)
			: MPI_File_read(p->fh, p->buf, p->len, MPI_BYTE, &st);
	}
}

/* more decides after r calls whether the time-driven loop goes on. The
 * original checks after every call with a barrier and a broadcast; here
 * the check comes after calls 1..8 and then every r/8 calls, so a loop of
 * many small chunks is not dominated by the check. The ranks agree
 * through the maximum elapsed time, so all stop after the same call. The
 * loop goes on while the time extrapolated to the next check still fits
 * the schedule, as the original's (t*(r+1)/r <= Tp). */
static int more(const mb_beffio_pat *p, long long r, long long *next, double t0, int *go)
{
	double el, elmax;
	long long step;
	if (r < *next)
		return MPI_SUCCESS;
	el = MPI_Wtime() - t0;
	CHK(MPI_Allreduce(&el, &elmax, 1, MPI_DOUBLE, MPI_MAX, p->comm));
	step = r < 8 ? 1 : r / 8;
	*next = r + step;
	*go = elmax * (double)(*next) / (double)r <= p->sched;
	return MPI_SUCCESS;
}

int mb_beffio_pattern(const mb_beffio_pat *p, long long *done, double *t)
{
	long long r = 0, next = 1;
	int go = 1;
	double t0;
	CHK(MPI_Barrier(p->comm));
	t0 = MPI_Wtime();
	while (go) {
		CHK(io(p));
		r++;
		if (p->reps > 0)
			go = r < p->reps;
		else
			CHK(more(p, r, &next, t0, &go));
	}
	if (p->write) {
		CHK(MPI_Barrier(p->comm));
		CHK(MPI_File_sync(p->fh));
	}
	CHK(MPI_Barrier(p->comm));
	*t = MPI_Wtime() - t0;
	*done = r;
	return MPI_SUCCESS;
}
