//go:build cgo && !nompi

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

#include "mpit.h"
#include "chk.h"

int mb_t_init(void)
{
	int provided;
	return MPI_T_init_thread(MPI_THREAD_SERIALIZED, &provided);
}

int mb_cvar_num(int *n) { return MPI_T_cvar_get_num(n); }

int mb_cvar_lens(int i, int *name_len, int *desc_len)
{
	int verbosity, bind, scope;
	MPI_Datatype type;
	MPI_T_enum enumtype;
	*name_len = 0;
	*desc_len = 0;
	return MPI_T_cvar_get_info(i, NULL, name_len, &verbosity, &type, &enumtype, NULL, desc_len, &bind,
				   &scope);
}

int mb_cvar_text(int i, char *name, int name_len, char *desc, int desc_len)
{
	int verbosity, bind, scope;
	MPI_Datatype type;
	MPI_T_enum enumtype;
	return MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, desc, &desc_len, &bind,
				   &scope);
}

/* info_int tells whether variable i is one int bound to no object. */
static int info_int(int i, int *ok)
{
	int verbosity, bind, scope, name_len = 0, desc_len = 0;
	MPI_Datatype type;
	MPI_T_enum enumtype;
	CHK(MPI_T_cvar_get_info(i, NULL, &name_len, &verbosity, &type, &enumtype, NULL, &desc_len, &bind,
				&scope));
	*ok = type == MPI_INT && bind == MPI_T_BIND_NO_OBJECT;
	return MPI_SUCCESS;
}

int mb_cvar_read_int(const char *name, int *val)
{
	int i, ok, count, rc;
	MPI_T_cvar_handle h;
	CHK(MPI_T_cvar_get_index(name, &i));
	CHK(info_int(i, &ok));
	if (!ok)
		return MB_CVAR_NOT_INT;
	CHK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
	rc = count == 1 ? MPI_T_cvar_read(h, val) : MB_CVAR_NOT_INT;
	MPI_T_cvar_handle_free(&h);
	return rc;
}

const char *mb_library_file(void)
{
	Dl_info info;
	/* MPI_T_init_thread, not MPI_Init: a profiling layer may wrap the
	 * latter. */
	if (!dladdr((void *)&MPI_T_init_thread, &info) || !info.dli_fname || !info.dli_fname[0])
		return NULL;
	return info.dli_fname;
}
