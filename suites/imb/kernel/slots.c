//go:build cgo && !nompi

#include <stdlib.h>
#include "slots.h"

/* The functions of slots.h, one definition for kernels.c and
 * kernels2021.c, so that neither loop file needs the other. */

MPI_Datatype mb_datatype(int type, int red)
{
	switch (type) {
	case MB_T_BYTE: return MPI_BYTE;
	case MB_T_CHAR: return MPI_CHAR;
	case MB_T_INT: return MPI_INT;
	case MB_T_FLOAT: return MPI_FLOAT;
	case MB_T_DOUBLE: return MPI_DOUBLE;
	}
	return red ? MPI_FLOAT : MPI_BYTE;
}

const int *mb_shifted_displs(const int *displs, int size)
{
	static int *rot;
	int p;
	free(rot);
	rot = malloc(sizeof(int) * (size_t)size);
	if (rot == NULL)
		return displs;
	for (p = 0; p < size; p++)
		rot[p] = displs[(p + 1) % size];
	return rot;
}
