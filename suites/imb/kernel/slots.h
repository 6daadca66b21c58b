/* The buffers of a kernel loop's repetitions, shared by kernels.c,
 * kernels2021.c and nbc.c: IMB 2021's -off_cache slots and -data_type
 * items, and the displacements of the displ mutant (slots.c). */
#ifndef MB_SLOTS_H
#define MB_SLOTS_H

#include "check.h"
#include "kernels.h"
#include "mutant.h"

/* mb_datatype is the MPI datatype of a kernel's items (red: a reduction). */
MPI_Datatype mb_datatype(int type, int red);

/* mb_shifted_displs is the displ mutant's displacements: rank p's block
 * at rank p+1's place (kept until the next call). Test builds only; one
 * definition for both kernel files (kernels.c's rotated is the same). */
const int *mb_shifted_displs(const int *displs, int size);

/* slots are a loop's buffers in locals (MPI calls could alias *k as far
 * as the compiler knows, so fields would be reloaded on every
 * repetition), with the item type: dt, ts bytes an item; red: a
 * reduction's type. */
typedef struct {
	char *s, *r;
	int si, ri;
	long long so, ro;
	MPI_Datatype dt;
	int type, ts;
} slots;

static inline __attribute__((always_inline)) slots slots_of(const mb_kernel *k, int red)
{
	slots b = {(char *)k->sbuf, (char *)k->rbuf, k->s_iter, k->r_iter, k->s_offs, k->r_offs,
		   mb_datatype(k->type, red), k->type, mb_type_size(k->type, red)};
	return b;
}

/* SB(i) and RB(i) are the send and receive buffers of repetition i: under
 * a constant oc (-off_cache) slot i % s_iter of the send buffer, s_offs
 * bytes each, as IMB 2021 has it (IMB_pingpong.c ...: s_buffer +
 * i%s_cache_iter*s_offs); with oc = 0 the buffers themselves, and the
 * loop is the one of IMB 3.0. */
#define SB(i) (oc ? B.s + (long long)((i) % B.si) * B.so : B.s)
#define RB(i) (oc ? B.r + (long long)((i) % B.ri) * B.ro : B.r)

/* CS(i) and CR(i) are the buffers a loop passes to MPI: SB(i) and RB(i),
 * which the check fills and verifies, or under the no-offset mutant slot
 * 0 whatever the repetition, which the check must catch. A normal build
 * has CS = SB and CR = RB. */
#define CS(i) SB(MUTANT(MB_MUT_NO_OFFSET) ? 0 : (i))
#define CR(i) RB(MUTANT(MB_MUT_NO_OFFSET) ? 0 : (i))

#endif
