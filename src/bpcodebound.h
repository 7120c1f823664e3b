/*-------------------------------------------------------------------------
 *
 * bpcodebound.h
 *	  A scan's range as two bounds on the leading bytes of a packed leaf's
 *	  encoded entries, which compare as the index orders them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPCODEBOUND_H
#define BPCODEBOUND_H

#include "bpcodec.h"
#include "bpscankey.h"

/* Longest bound: four key columns of 7-byte codes. */
#define BP_CODE_BOUND_BYTES		28

/*
 * One side of a range: an entry lies outside it on that side when its
 * first len bytes compare beyond bytes (below them for the lower bound,
 * above them for the upper one), or, inclusive, when they also equal them.
 */
typedef struct BpCodeBound
{
	uint8		len;
	bool		inclusive;
	uint64		value;			/* len <= 8: the bytes as a big-endian number */
	uint8		bytes[BP_CODE_BOUND_BYTES];
} BpCodeBound;

extern bool bp_code_bounds_usable(const BpCodec *codec, const BpScanKeys *keys,
								  const uint64 *images);
extern void bp_code_bound(const BpCodec *codec, const BpScanKeys *keys,
						  const uint64 *images, bool lower, BpCodeBound *bound);

/* How the first bytes of a stored entry compare with a bound's. */
static inline int
bp_code_bound_compare(const uint8 *stored, const BpCodeBound *bound)
{
	if (bound->len <= 8)
	{
		uint64		v = bpc_get_big_endian(stored, bound->len);

		return (v > bound->value) - (v < bound->value);
	}
	return memcmp(stored, bound->bytes, bound->len);
}

/* Does a stored entry lie below the lower bound? */
static inline bool
bp_code_below(const uint8 *stored, const BpCodeBound *lower)
{
	int			c = bp_code_bound_compare(stored, lower);

	return lower->inclusive ? c <= 0 : c < 0;
}

/* Does a stored entry lie above the upper bound? */
static inline bool
bp_code_above(const uint8 *stored, const BpCodeBound *upper)
{
	int			c = bp_code_bound_compare(stored, upper);

	return upper->inclusive ? c >= 0 : c > 0;
}

#endif							/* BPCODEBOUND_H */
