//go:build cgo && !nompi

#include "io.h"

MPI_Info mb_io_user_info(void) { return MPI_INFO_NULL; }

int mb_io_halted;

void mb_io_halt(void) { __atomic_store_n(&mb_io_halted, 1, __ATOMIC_SEQ_CST); }

void mb_io_wait_if_halted(void) { mb_io_halted_wait(); }

int mb_io_open(MPI_Comm comm, const char *name, MPI_File *fh)
{
	mb_io_halted_wait();
	return MPI_File_open(comm, (char *)name, MB_IO_AMODE, mb_io_user_info(), fh);
}

/* mb_io_create is mb_io_open with MPI_MODE_EXCL: for the one open that
 * creates a benchmark file after mb_io_delete_if_exists removed it. A
 * file or link that appeared in between, in a directory other users can
 * write to, makes it fail instead of being written through. Every later
 * open of the file (each sample, the non-blocking re-open, Open_Close's
 * rounds, the -check read-back) finds it there and uses mb_io_open. */
int mb_io_create(MPI_Comm comm, const char *name, MPI_File *fh)
{
	mb_io_halted_wait();
	return MPI_File_open(comm, (char *)name, MB_IO_AMODE | MPI_MODE_EXCL, mb_io_user_info(), fh);
}

/* Section 5.2.3.2: a file that exists is deleted by opening it with
 * MPI_MODE_DELETE_ON_CLOSE and closing it. */
int mb_io_delete_if_exists(const char *name)
{
	MPI_File fh;
	int rc;
	mb_io_halted_wait();
	rc = MPI_File_open(MPI_COMM_SELF, (char *)name, MB_IO_AMODE | MPI_MODE_DELETE_ON_CLOSE, mb_io_user_info(), &fh);
	if (rc != MPI_SUCCESS)
		return rc;
	return MPI_File_close(&fh);
}

/* The view of section 5.2.3.4: disp 0, etype MPI_BYTE, "native". */
int mb_io_byte_view(MPI_File fh)
{
	return MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", mb_io_user_info());
}

/* The filetype of P_ and C_ [ACTION]_indv: this process's contiguous block
 * of len bytes at pos inside every extent bytes, so that successive
 * transfers with the individual pointer fill disjoint blocks. An empty
 * block gets the plain byte view. */
int mb_io_block_view(MPI_File fh, MPI_Offset pos, int len, MPI_Offset extent)
{
	MPI_Datatype block, ft;
	MPI_Aint disp = (MPI_Aint)pos;
	int rc;
	if (len == 0)
		return mb_io_byte_view(fh);
	if ((rc = MPI_Type_create_hindexed(1, &len, &disp, MPI_BYTE, &block)) != MPI_SUCCESS)
		return rc;
	rc = MPI_Type_create_resized(block, 0, (MPI_Aint)extent, &ft);
	MPI_Type_free(&block);
	if (rc != MPI_SUCCESS)
		return rc;
	if ((rc = MPI_Type_commit(&ft)) == MPI_SUCCESS)
		rc = MPI_File_set_view(fh, 0, MPI_BYTE, ft, "native", mb_io_user_info());
	/* the view keeps its own reference to the type */
	MPI_Type_free(&ft);
	return rc;
}
