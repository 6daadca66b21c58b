/* Handles across cgo packages (handle.go): a suite's kernel package gets
 * MPI handles as Fortran handles and turns them back here, once, when it
 * sets up a kernel. Functions, not the library's names: some libraries
 * make the conversions macros, which cgo cannot call. */
#ifndef MB_HANDLE_H
#define MB_HANDLE_H

#include <mpi.h>

static inline MPI_Comm mb_comm_f2c(int f) { return MPI_Comm_f2c((MPI_Fint)f); }
static inline MPI_Win mb_win_f2c(int f) { return MPI_Win_f2c((MPI_Fint)f); }
static inline MPI_File mb_file_f2c(int f) { return MPI_File_f2c((MPI_Fint)f); }
static inline int mb_comm_c2f(MPI_Comm c) { return (int)MPI_Comm_c2f(c); }
static inline int mb_win_c2f(MPI_Win w) { return (int)MPI_Win_c2f(w); }
static inline int mb_file_c2f(MPI_File f) { return (int)MPI_File_c2f(f); }

#endif
