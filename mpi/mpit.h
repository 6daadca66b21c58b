/* MPI_T control variables (MPI 3.1, section 14.3.6): the library's own
 * tunables, their names and descriptions, read in a process that need not
 * call MPI_Init nor be started by a launcher. mpibench tune discovers
 * MPICH's collective algorithms from them (suites/tune/mpich.go). */
#ifndef MPIBENCH_MPIT_H
#define MPIBENCH_MPIT_H

#include <mpi.h>

/* MB_CVAR_NOT_INT is mb_cvar_read_int's refusal of a variable that is not
 * one int bound to no object: no MPI code is negative. */
#define MB_CVAR_NOT_INT (-1)

/* mb_t_init initialises MPI_T for calls made one at a time. */
int mb_t_init(void);
int mb_cvar_num(int *n);

/* mb_cvar_lens sets the buffer lengths, NUL included, of variable i's
 * name and description (MPI's convention for strings: a length of 0 asks
 * for the length). */
int mb_cvar_lens(int i, int *name_len, int *desc_len);

/* mb_cvar_text copies variable i's name and description into buffers of
 * the lengths mb_cvar_lens gave. */
int mb_cvar_text(int i, char *name, int name_len, char *desc, int desc_len);

/* mb_cvar_read_int reads the int variable of the name: its value as the
 * environment set it when MPI_T was initialised. */
int mb_cvar_read_int(const char *name, int *val);

/* mb_library_file is the path of the shared object that holds the MPI
 * library's code (dladdr), NULL when none is known. */
const char *mb_library_file(void);

#endif
