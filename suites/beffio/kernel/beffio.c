//go:build cgo && !nompi

#include <stddef.h>
#include <sys/statvfs.h>
#include "beffio.h"
#include "chk.h"
#include "io.h"
#include "mutant.h"
#include "pattern.h"

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
	/* An interrupted process removes its files: it creates none again. */
	mb_io_wait_if_halted();
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

/* io is one call of the pattern type; *call names it. The status's count
 * goes to *got: Open MPI 4.1 returns MPI_SUCCESS with a count of 0 from
 * MPI_File_write and _write_ordered on a full file system. */
static int io(const mb_beffio_pat *p, const char **call, long long *got)
{
	MPI_Status st;
	int rc, n = 0;
	switch (p->type) {
	case MB_BEFFIO_SCATTER:
	case MB_BEFFIO_SEGCOLL:
		*call = p->write ? "MPI_File_write_all" : "MPI_File_read_all";
		rc = p->write ? MPI_File_write_all(p->fh, p->buf, p->len, MPI_BYTE, &st)
			: MPI_File_read_all(p->fh, p->buf, p->len, MPI_BYTE, &st);
		break;
	case MB_BEFFIO_SHARED:
		*call = p->write ? "MPI_File_write_ordered" : "MPI_File_read_ordered";
		rc = p->write ? MPI_File_write_ordered(p->fh, p->buf, p->len, MPI_BYTE, &st)
			: MPI_File_read_ordered(p->fh, p->buf, p->len, MPI_BYTE, &st);
		break;
	default:
		*call = p->write ? "MPI_File_write" : "MPI_File_read";
		rc = p->write ? MPI_File_write(p->fh, p->buf, p->len, MPI_BYTE, &st)
			: MPI_File_read(p->fh, p->buf, p->len, MPI_BYTE, &st);
	}
	if (rc == MPI_SUCCESS)
		rc = MPI_Get_count(&st, MPI_BYTE, &n);
	*got = n;
	return rc;
}

/* mutant_seek is the beffio-offset mutant (mutant.h): every write starts
 * 8 bytes behind where the pattern puts it. A normal build removes it. */
static int mutant_seek(const mb_beffio_pat *p)
{
	if (!MUTANT(MB_MUT_BEFFIO_OFFSET) || !p->write)
		return MPI_SUCCESS;
	if (p->type == MB_BEFFIO_SHARED)
		return MPI_File_seek_shared(p->fh, 8, MPI_SEEK_CUR);
	return MPI_File_seek(p->fh, 8, MPI_SEEK_CUR);
}

/* The data check, as the original's (b_eff_io.c 2.1 writes values that
 * depend on the call, the position and the pattern at both ends of every
 * l-chunk and compares them in the read): the first and last MARK bytes
 * of every chunk of l bytes in the call's L bytes of memory hold
 * mb_pat_byte(rank, it, j), it = call·64 + pattern number, j the byte's
 * place in memory. The read of call r of a pattern reads back the places
 * the write and rewrite of call r filled, so it expects the same bytes;
 * data at a wrong offset, of another rank, call or pattern differs. Only
 * the marks are touched, 16 bytes per chunk (at most 1/64 of the data), so
 * the check stays in the timed loop as the original's does. */
#define MARK 8

static long long mark_it(const mb_beffio_pat *p, long long r) { return r * 64 + p->pattern; }

/* put_run writes the m marks of places j.. of rank's call `it` at b + j.
 * Inside a 256-byte block mb_pat_byte grows by 7 from one place to the
 * next (pattern.h), so only the first place of a run and of a block is
 * computed in full. */
static void put_run(unsigned char *b, int rank, long long it, long long j, long long m)
{
	unsigned char v = mb_pat_byte(rank, it, j);
	long long k;
	b[j] = v;
	for (k = j + 1; k < j + m; k++)
		b[k] = v = (k & 255) ? (unsigned char)(v + 7) : mb_pat_byte(rank, it, k);
}

/* run_differs tells whether a mark of places j..j+m-1 is not there. */
static int run_differs(const unsigned char *b, int rank, long long it, long long j, long long m)
{
	unsigned char v = mb_pat_byte(rank, it, j);
	long long k;
	int wrong = b[j] != v;
	for (k = j + 1; k < j + m; k++)
		wrong |= b[k] != (v = (k & 255) ? (unsigned char)(v + 7) : mb_pat_byte(rank, it, k));
	return wrong;
}

static void mark(const mb_beffio_pat *p, long long r)
{
	unsigned char *b = (unsigned char *)p->buf;
	long long it = mark_it(p, r), s, len = p->len, l = p->l;
	int rank = p->rank;
	for (s = 0; s < len; s += l) {
		long long e = s + l < len ? s + l : len;
		long long m = e - s < MARK ? e - s : MARK;
		put_run(b, rank, it, s, m);
		put_run(b, rank, it, e - m, m);
	}
}

/* verify counts the chunks of call r whose marks are not the writer's. */
static long long verify(const mb_beffio_pat *p, long long r)
{
	const unsigned char *b = (const unsigned char *)p->buf;
	long long it = mark_it(p, r), s, len = p->len, l = p->l, bad = 0;
	int rank = p->rank;
	for (s = 0; s < len; s += l) {
		long long e = s + l < len ? s + l : len;
		long long m = e - s < MARK ? e - s : MARK;
		bad += run_differs(b, rank, it, s, m) | run_differs(b, rank, it, e - m, m);
	}
	return bad;
}

/* disk_full tells whether the watched file system has less than one more
 * call's bytes free (see diskcheck.Full): writes may have been lost. */
static int disk_full(const mb_beffio_pat *p, long long *free)
{
	struct statvfs sv;
	if (!p->write || p->dir == NULL || statvfs(p->dir, &sv) != 0)
		return 0;
	*free = (long long)sv.f_bavail * (long long)(sv.f_frsize ? sv.f_frsize : sv.f_bsize);
	return *free < p->room;
}

/* more decides after r calls whether the loop goes on; checks come after
 * calls 1..8 and then every r/8 calls, so a loop of many small chunks is
 * not dominated by them. A time-driven loop: the original checks after
 * every call with a barrier and a broadcast; here the ranks agree through
 * the maximum elapsed time, so all stop after the same call, and the loop
 * goes on while the time extrapolated to the next check still fits the
 * schedule, as the original's (t*(r+1)/r <= Tp), and the -disk bound
 * (maxreps) is not reached. Writes also look at the file system. */
static int more(const mb_beffio_pat *p, long long r, long long *next, double t0, int *go, mb_beffio_out *o)
{
	double el, elmax;
	long long step;
	if (p->reps > 0)
		*go = r < p->reps;
	else
		*go = p->maxreps <= 0 || r < p->maxreps;
	if (r < *next && *go)
		return MPI_SUCCESS;
	step = r < 8 ? 1 : r / 8;
	*next = r + step;
	if (disk_full(p, &o->free))
		return MB_BEFFIO_FULL;
	if (p->reps > 0 || !*go)
		return MPI_SUCCESS;
	el = MPI_Wtime() - t0;
	CHK(MPI_Allreduce(&el, &elmax, 1, MPI_DOUBLE, MPI_MAX, p->comm));
	*go = elmax * (double)(*next) / (double)r <= p->sched;
	return MPI_SUCCESS;
}

/* where finds the byte offset of the file pointer after a failed call. */
static long long where(const mb_beffio_pat *p)
{
	MPI_Offset pos, byte;
	int rc = p->type == MB_BEFFIO_SHARED ? MPI_File_get_position_shared(p->fh, &pos)
					     : MPI_File_get_position(p->fh, &pos);
	if (rc != MPI_SUCCESS || MPI_File_get_byte_offset(p->fh, pos, &byte) != MPI_SUCCESS)
		return -1;
	return (long long)byte;
}

/* fail records where the loop stopped and returns rc. */
static int fail(const mb_beffio_pat *p, mb_beffio_out *o, int rc, long long r)
{
	o->done = r;
	o->pos = where(p);
	return rc;
}

int mb_beffio_pattern(const mb_beffio_pat *p, mb_beffio_out *o)
{
	long long r = 0, next = 1;
	int go = 1, rc;
	double t0;
	o->defects = 0;
	o->pos = -1;
	o->call = "MPI_Send";
	CHK(MUTANT_MPI_ERROR(p->comm));
	o->call = "MPI_Barrier";
	CHK(MPI_Barrier(p->comm));
	t0 = MPI_Wtime();
	while (go) {
		if (p->write)
			mark(p, r);
		if ((rc = mutant_seek(p)) != MPI_SUCCESS)
			return fail(p, o, rc, r);
		if ((rc = io(p, &o->call, &o->got)) != MPI_SUCCESS)
			return fail(p, o, rc, r);
		if (o->got != p->len)
			return fail(p, o, MB_BEFFIO_SHORT, r);
		if (!p->write)
			o->defects += verify(p, r);
		r++;
		if ((rc = more(p, r, &next, t0, &go, o)) != MPI_SUCCESS)
			return fail(p, o, rc, r);
	}
	if (p->write) {
		o->call = "MPI_Barrier";
		CHK(MPI_Barrier(p->comm));
		o->call = "MPI_File_sync";
		CHK(MPI_File_sync(p->fh));
		if (disk_full(p, &o->free))
			return fail(p, o, MB_BEFFIO_FULL, r);
	}
	o->call = "MPI_Barrier";
	CHK(MPI_Barrier(p->comm));
	o->t = MPI_Wtime() - t0;
	o->done = r;
	return MPI_SUCCESS;
}
