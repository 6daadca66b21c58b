//go:build cgo && !nompi

#include <string.h>
#include "iokernels.h"
#include "mutant.h"
#include "check.h"

/* IOCHK returns the error code of a failed MPI call and names the call. */
#define IOCHK(name, expr)                       \
	do {                                    \
		int rc_ = (expr);               \
		if (rc_ != MPI_SUCCESS) {       \
			*call = (name);         \
			return rc_;             \
		}                               \
	} while (0)

/* IOXFER is IOCHK for a transfer of n bytes whose status is st: a
 * transfer that moved fewer bytes fails too (MB_IO_SHORT), as Open MPI 4.1
 * returns MPI_SUCCESS with a count of 0 from independent writes on a full
 * file system. mb_io_failure then tells the count and where. */
#define IOXFER(name, expr, st, n)                                           \
	do {                                                                \
		int rc_ = (expr);                                           \
		got_ = -1;                                                  \
		if (rc_ == MPI_SUCCESS)                                     \
			rc_ = MPI_Get_count((st), MPI_BYTE, &got_);         \
		if (rc_ != MPI_SUCCESS || (got_ != (n) && !k->short_ok)) {  \
			*call = (name);                                     \
			return xfer_failed(k, off, rc_, got_);              \
		}                                                           \
	} while (0)

static struct {
	long long got, pos;
} failure;

void mb_io_failure(long long *got, long long *pos)
{
	*got = failure.got;
	*pos = failure.pos;
}

/* xfer_failed records a failed or short transfer: the bytes moved (-1 for
 * a failed call) and the byte offset it started at (explicit offsets) or
 * of the file pointer after it (-1 when unknown); it returns rc, or
 * MB_IO_SHORT for a short transfer. */
static int xfer_failed(const mb_io *k, MPI_Offset off, int rc, int got)
{
	MPI_Offset pos, byte = -1;
	int prc = MPI_SUCCESS;
	failure.got = got;
	if (k->access == MB_IO_EXPL)
		byte = off;
	else if ((prc = k->access == MB_IO_SHARED ? MPI_File_get_position_shared(k->fh, &pos)
						  : MPI_File_get_position(k->fh, &pos)) == MPI_SUCCESS)
		prc = MPI_File_get_byte_offset(k->fh, pos, &byte);
	failure.pos = prc == MPI_SUCCESS ? (long long)byte : -1;
	return rc != MPI_SUCCESS ? rc : MB_IO_SHORT;
}

/* One blocking transfer of n bytes; off is used by the explicit-offset
 * forms only. A uniform signature lets the benchmark pick its MPI-IO call
 * from a table before the timer starts. */
typedef int (*xfer_fn)(MPI_File fh, MPI_Offset off, void *buf, int n, MPI_Status *st);

static int w_indv(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	(void)off;
	return MPI_File_write(fh, b, n, MPI_BYTE, st);
}
static int w_expl(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	return MPI_File_write_at(fh, off, b, n, MPI_BYTE, st);
}
static int w_shared(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	(void)off;
	return MPI_File_write_shared(fh, b, n, MPI_BYTE, st);
}
static int w_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	(void)off;
	return MPI_File_write_all(fh, b, n, MPI_BYTE, st);
}
static int w_at_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	return MPI_File_write_at_all(fh, off, b, n, MPI_BYTE, st);
}
static int w_ordered(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	(void)off;
	return MPI_File_write_ordered(fh, b, n, MPI_BYTE, st);
}
static int r_indv(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	(void)off;
	return MPI_File_read(fh, b, n, MPI_BYTE, st);
}
static int r_expl(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	return MPI_File_read_at(fh, off, b, n, MPI_BYTE, st);
}
static int r_shared(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	(void)off;
	return MPI_File_read_shared(fh, b, n, MPI_BYTE, st);
}
static int r_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	(void)off;
	return MPI_File_read_all(fh, b, n, MPI_BYTE, st);
}
static int r_at_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	return MPI_File_read_at_all(fh, off, b, n, MPI_BYTE, st);
}
static int r_ordered(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Status *st)
{
	(void)off;
	return MPI_File_read_ordered(fh, b, n, MPI_BYTE, st);
}

/* Indexed by variant(k): read/write, then independent/collective, then
 * the access of enum mb_io_access. */
static const xfer_fn blocking[12] = {
	r_indv, r_expl, r_shared, r_all, r_at_all, r_ordered,
	w_indv, w_expl, w_shared, w_all, w_at_all, w_ordered,
};
static const char *blocking_name[12] = {
	"MPI_File_read", "MPI_File_read_at", "MPI_File_read_shared",
	"MPI_File_read_all", "MPI_File_read_at_all", "MPI_File_read_ordered",
	"MPI_File_write", "MPI_File_write_at", "MPI_File_write_shared",
	"MPI_File_write_all", "MPI_File_write_at_all", "MPI_File_write_ordered",
};

/* The non-blocking forms: an i-call and MPI_Wait for independent access,
 * the split collective _begin and _end for collective access. */
typedef int (*start_fn)(MPI_File fh, MPI_Offset off, void *buf, int n, MPI_Request *req);
typedef int (*end_fn)(MPI_File fh, void *buf, MPI_Request *req, MPI_Status *st);

static int iw_indv(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)off;
	return MPI_File_iwrite(fh, b, n, MPI_BYTE, r);
}
static int iw_expl(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	return MPI_File_iwrite_at(fh, off, b, n, MPI_BYTE, r);
}
static int iw_shared(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)off;
	return MPI_File_iwrite_shared(fh, b, n, MPI_BYTE, r);
}
static int bw_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)off, (void)r;
	return MPI_File_write_all_begin(fh, b, n, MPI_BYTE);
}
static int bw_at_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)r;
	return MPI_File_write_at_all_begin(fh, off, b, n, MPI_BYTE);
}
static int bw_ordered(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)off, (void)r;
	return MPI_File_write_ordered_begin(fh, b, n, MPI_BYTE);
}
static int ir_indv(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)off;
	return MPI_File_iread(fh, b, n, MPI_BYTE, r);
}
static int ir_expl(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	return MPI_File_iread_at(fh, off, b, n, MPI_BYTE, r);
}
static int ir_shared(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)off;
	return MPI_File_iread_shared(fh, b, n, MPI_BYTE, r);
}
static int br_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)off, (void)r;
	return MPI_File_read_all_begin(fh, b, n, MPI_BYTE);
}
static int br_at_all(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)r;
	return MPI_File_read_at_all_begin(fh, off, b, n, MPI_BYTE);
}
static int br_ordered(MPI_File fh, MPI_Offset off, void *b, int n, MPI_Request *r)
{
	(void)off, (void)r;
	return MPI_File_read_ordered_begin(fh, b, n, MPI_BYTE);
}

static int wait_req(MPI_File fh, void *b, MPI_Request *r, MPI_Status *st)
{
	(void)fh, (void)b;
	return MPI_Wait(r, st);
}
static int ew_all(MPI_File fh, void *b, MPI_Request *r, MPI_Status *st)
{
	(void)r;
	return MPI_File_write_all_end(fh, b, st);
}
static int ew_at_all(MPI_File fh, void *b, MPI_Request *r, MPI_Status *st)
{
	(void)r;
	return MPI_File_write_at_all_end(fh, b, st);
}
static int ew_ordered(MPI_File fh, void *b, MPI_Request *r, MPI_Status *st)
{
	(void)r;
	return MPI_File_write_ordered_end(fh, b, st);
}
static int er_all(MPI_File fh, void *b, MPI_Request *r, MPI_Status *st)
{
	(void)r;
	return MPI_File_read_all_end(fh, b, st);
}
static int er_at_all(MPI_File fh, void *b, MPI_Request *r, MPI_Status *st)
{
	(void)r;
	return MPI_File_read_at_all_end(fh, b, st);
}
static int er_ordered(MPI_File fh, void *b, MPI_Request *r, MPI_Status *st)
{
	(void)r;
	return MPI_File_read_ordered_end(fh, b, st);
}

static const start_fn starts[12] = {
	ir_indv, ir_expl, ir_shared, br_all, br_at_all, br_ordered,
	iw_indv, iw_expl, iw_shared, bw_all, bw_at_all, bw_ordered,
};
static const end_fn ends[12] = {
	wait_req, wait_req, wait_req, er_all, er_at_all, er_ordered,
	wait_req, wait_req, wait_req, ew_all, ew_at_all, ew_ordered,
};
static const char *start_name[12] = {
	"MPI_File_iread", "MPI_File_iread_at", "MPI_File_iread_shared",
	"MPI_File_read_all_begin", "MPI_File_read_at_all_begin", "MPI_File_read_ordered_begin",
	"MPI_File_iwrite", "MPI_File_iwrite_at", "MPI_File_iwrite_shared",
	"MPI_File_write_all_begin", "MPI_File_write_at_all_begin", "MPI_File_write_ordered_begin",
};
static const char *end_name[12] = {
	"MPI_Wait", "MPI_Wait", "MPI_Wait",
	"MPI_File_read_all_end", "MPI_File_read_at_all_end", "MPI_File_read_ordered_end",
	"MPI_Wait", "MPI_Wait", "MPI_Wait",
	"MPI_File_write_all_end", "MPI_File_write_at_all_end", "MPI_File_write_ordered_end",
};

static int variant(const mb_io *k) { return 6 * (k->write != 0) + 3 * (k->collective != 0) + k->access; }

static int barriers(const mb_io *k, const char **call)
{
	int i;
	IOCHK("MPI_Send", MUTANT_MPI_ERROR(k->comm));
	for (i = 0; i < k->nbarr; i++)
		IOCHK("MPI_Barrier", MPI_Barrier(k->comm));
	return MPI_SUCCESS;
}

/* skip: the first-only mutant, which transfers in repetition 0 only
 * (every process skips the same calls, so collectives still match). */
static inline int skip(int i) { return MUTANT(MB_MUT_FIRST_ONLY) && i > 0; }

/* misplace is the io-offset mutant, a write at the wrong file offset: the
 * first transfer starts one byte (etype) late, and every later one with
 * it. Explicit offsets move *off; the individual and the shared file
 * pointer are moved by a seek (MPI_File_seek_shared is collective: every
 * process of the file runs the loop). */
static int misplace(const mb_io *k, MPI_Offset *off, const char **call)
{
	if (!MUTANT(MB_MUT_IO_OFFSET) || !k->write)
		return MPI_SUCCESS;
	if (k->access == MB_IO_EXPL)
		*off += 1;
	else if (k->access == MB_IO_INDV)
		IOCHK("MPI_File_seek", MPI_File_seek(k->fh, 1, MPI_SEEK_SET));
	else
		IOCHK("MPI_File_seek_shared", MPI_File_seek_shared(k->fh, 1, MPI_SEEK_SET));
	return MPI_SUCCESS;
}

/* chk_before prepares repetition i of a checked run: a write buffer gets
 * this rank's content of repetition i (check.h), a read buffer poison. */
static void chk_before(const mb_io *k, char *buf, int i)
{
	if (k->write)
		mb_fill_bytes(buf, k->count, k->chk_rank, i, 0);
	else
		mb_poison(buf, k->count);
}

/* chk_after keeps what read i delivered, for the verification in Go. */
static void chk_after(const mb_io *k, const char *buf, int i)
{
	if (!k->write && k->count > 0)
		memcpy((char *)k->save + (long long)i * k->count, buf, (size_t)k->count);
}

/* Blocking case (section 5.2.8.2): aggregate writes sync once after the
 * nrep transfers, non-aggregate writes after every transfer; reads never.
 * With chk, the same loop runs with chk_before and chk_after around every
 * transfer. */
static inline __attribute__((always_inline)) int io_run(const mb_io *k, double *t, const char **call, int chk)
{
	int v = variant(k), i, n = k->nrep, count = k->count;
	int sync_each = k->write && !k->aggregate, sync_end = k->write && k->aggregate;
	xfer_fn fn = blocking[v];
	const char *name = blocking_name[v];
	MPI_File fh = k->fh;
	MPI_Offset off = k->offset, stride = k->stride;
	char *buf = (char *)k->buf;
	long long step = k->bufstep;
	MPI_Status st;
	double t0;
	int got_, rc = barriers(k, call);
	failure.got = failure.pos = -1;
	if (rc == MPI_SUCCESS)
		rc = misplace(k, &off, call);
	if (rc != MPI_SUCCESS)
		return rc;
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		if (chk)
			chk_before(k, buf, i);
		if (!skip(i))
			IOXFER(name, fn(fh, off, buf, count, &st), &st, count);
		if (sync_each)
			IOCHK("MPI_File_sync", MPI_File_sync(fh));
		if (chk)
			chk_after(k, buf, i);
		off += stride;
		buf += step;
	}
	if (sync_end)
		IOCHK("MPI_File_sync", MPI_File_sync(fh));
	*t = (MPI_Wtime() - t0) / (n > 0 ? n : 1);
	return MPI_SUCCESS;
}

/* Non-blocking case (section 4.2.5): start a transfer, exploit the CPU,
 * wait for the transfer; writes end with one MPI_File_sync as the
 * non-blocking benchmarks run in aggregate mode. */
static inline __attribute__((always_inline)) int io_irun(const mb_io *k, double *t, const char **call, int chk)
{
	int v = variant(k), i, n = k->nrep, count = k->count;
	start_fn start = starts[v];
	end_fn end = ends[v];
	const char *sname = start_name[v], *ename = end_name[v];
	MPI_File fh = k->fh;
	MPI_Offset off = k->offset, stride = k->stride;
	char *buf = (char *)k->buf;
	long long step = k->bufstep;
	MPI_Request req = MPI_REQUEST_NULL;
	MPI_Status st;
	double t0;
	int got_, rc = barriers(k, call);
	failure.got = failure.pos = -1;
	if (rc == MPI_SUCCESS)
		rc = misplace(k, &off, call);
	if (rc != MPI_SUCCESS)
		return rc;
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		if (chk)
			chk_before(k, buf, i);
		if (!skip(i))
			IOCHK(sname, start(fh, off, buf, count, &req));
		mb_cpu_exploit();
		if (!skip(i))
			IOXFER(ename, end(fh, buf, &req, &st), &st, count);
		if (chk)
			chk_after(k, buf, i);
		off += stride;
		buf += step;
	}
	if (k->write)
		IOCHK("MPI_File_sync", MPI_File_sync(fh));
	*t = (MPI_Wtime() - t0) / (n > 0 ? n : 1);
	return MPI_SUCCESS;
}

int mb_io_run(const mb_io *k, double *t, const char **call) { return io_run(k, t, call, 0); }
int mb_io_irun(const mb_io *k, double *t, const char **call) { return io_irun(k, t, call, 0); }
int mb_io_check(const mb_io *k, double *t, const char **call) { return io_run(k, t, call, 1); }
int mb_io_icheck(const mb_io *k, double *t, const char **call) { return io_irun(k, t, call, 1); }

int mb_io_open_close(MPI_Comm comm, const char *name, int nrep, int nbarr, double *t, const char **call)
{
	MPI_Info info = mb_io_user_info();
	MPI_File fh;
	MPI_Status st;
	int i, got, dum = 0;
	double t0;
	for (i = 0; i < nbarr; i++)
		IOCHK("MPI_Barrier", MPI_Barrier(comm));
	t0 = MPI_Wtime();
	for (i = 0; i < nrep; i++) {
		mb_io_halted_wait();
		IOCHK("MPI_File_open", MPI_File_open(comm, (char *)name, MB_IO_AMODE, info, &fh));
		/* the negligible non-trivial action of Figure 19: one byte */
		IOCHK("MPI_File_write", MPI_File_write(fh, &dum, 1, MPI_BYTE, &st));
		IOCHK("MPI_Get_count", MPI_Get_count(&st, MPI_BYTE, &got));
		if (got != 1) {
			*call = "MPI_File_write";
			failure.got = got;
			failure.pos = -1;
			return MB_IO_SHORT;
		}
		IOCHK("MPI_File_close", MPI_File_close(&fh));
	}
	*t = (MPI_Wtime() - t0) / (nrep > 0 ? nrep : 1);
	return MPI_SUCCESS;
}

