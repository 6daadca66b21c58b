/* Check-mode helpers of the IMB-EXT and IMB-IO kernels: fill a block with
 * a rank's pattern of one repetition (pattern.h), poison a block where
 * that pattern is expected, count the bytes that differ from it.
 *
 * Byte j of a block is mb_pat_byte(rank, rep, j), j counted from the
 * block's start, so a block that lands or is read at a wrong offset, a
 * block of another repetition and a block of another rank all differ from
 * the expected one. The poison is the complement of the expected byte, so
 * that a byte nobody delivered is wrong whatever the pattern is there.
 * Static inline: they are compiled into the check instantiations of the
 * kernels only.
 */
#ifndef MB_XFERCHK_H
#define MB_XFERCHK_H

#include "pattern.h"

static inline void mb_xc_fill(void *buf, long long n, int rank, long long rep)
{
	unsigned char *b = (unsigned char *)buf;
	long long j;
	for (j = 0; j < n; j++)
		b[j] = mb_pat_byte(rank, rep, j);
}

static inline void mb_xc_poison(void *buf, long long n, int rank, long long rep)
{
	unsigned char *b = (unsigned char *)buf;
	long long j;
	for (j = 0; j < n; j++)
		b[j] = (unsigned char)~mb_pat_byte(rank, rep, j);
}

static inline long long mb_xc_count(const void *buf, long long n, int rank, long long rep)
{
	const unsigned char *b = (const unsigned char *)buf;
	long long j, bad = 0;
	for (j = 0; j < n; j++)
		bad += b[j] != mb_pat_byte(rank, rep, j);
	return bad;
}

#endif
