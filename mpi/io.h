/* MPI-IO files of mpibench: the binding's part of IMB-IO and b_eff_io
 * (io.go, beffio.c). IMB-IO's timed loops are in suites/imb/kernel
 * (iokernels.h); they open their files as these functions do.
 */
#ifndef MPIBENCH_IO_H
#define MPIBENCH_IO_H

#include <unistd.h>
#include <mpi.h>

/* MB_IO_AMODE is the amode of every open. */
#define MB_IO_AMODE (MPI_MODE_CREATE | MPI_MODE_RDWR)

/* The info every MPI_File_open and MPI_File_set_view gets: IMB's
 * User_Set_Info (section 5.2.3.3), MPI_INFO_NULL by default. */
MPI_Info mb_io_user_info(void);

/* mb_io_halt makes every later file creation of the calls below wait
 * forever: a signal handler calls it before it removes the files and
 * exits. */
void mb_io_halt(void);

/* mb_io_wait_if_halted is the wait of the calls below, for b_eff_io's
 * opens: after mb_io_halt it sleeps until the process exits. */
void mb_io_wait_if_halted(void);

/* mb_io_halted is mb_io_halt's flag. mb_io_halted_wait is the same wait
 * inline, for the opens below and those of a timed loop (IMB-IO's
 * Open_Close): it keeps a process whose signal handler is removing its
 * files from creating them again, sleeping until the handler exits. */
extern int mb_io_halted;
static inline void mb_io_halted_wait(void)
{
	while (__atomic_load_n(&mb_io_halted, __ATOMIC_RELAXED))
		sleep(1);
}

/* File handling with amode MPI_MODE_CREATE | MPI_MODE_RDWR. */
int mb_io_open(MPI_Comm comm, const char *name, MPI_File *fh);
int mb_io_create(MPI_Comm comm, const char *name, MPI_File *fh);
int mb_io_delete_if_exists(const char *name);
int mb_io_byte_view(MPI_File fh);
int mb_io_block_view(MPI_File fh, MPI_Offset pos, int len, MPI_Offset extent);

#endif
