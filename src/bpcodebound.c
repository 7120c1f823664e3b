/*-------------------------------------------------------------------------
 *
 * bpcodebound.c
 *	  A scan's range as two bounds on the leading bytes of a packed leaf's
 *	  encoded entries.
 *
 * A packed leaf's integer codes are big-endian and follow the index order,
 * NULLs included (bpcodec.h), so the codes of an entry's leading key
 * columns compare with memcmp as bp_below_range and bp_above_range compare
 * its values with the keys: the columns in order, each while the earlier
 * ones are pinned by an equality key they satisfy.  Each side of the range
 * becomes one byte string, and testing an entry one comparison of its
 * first bytes (one integer comparison up to 8 bytes), without decoding.
 *
 * A key's value lies in a leaf's code space on a code or between two
 * (below the least value code, above the greatest, or past the leaf's
 * base): positions are counted in half codes, 2c + 1 on code c and 2c
 * just below it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"

#include "bpcodebound.h"

/* The largest code of a width of 1 to 7 bytes (NULL under NULLS LAST). */
static uint64
largest_code(int width)
{
	return (UINT64CONST(1) << (8 * width)) - 1;
}

/*
 * Where image lies among the codes of column att, in half codes.  A width
 * of 0 has the one code 0, the base.
 */
static uint64
image_half_code(const BpCodec *codec, int att, uint64 image)
{
	int			width = codec->att_width[att];
	uint64		first = width > 0 && (codec->att_flags[att] & BPC_ATT_NULLS_FIRST) ? 1 : 0;
	uint64		past = width == 0 ? 1 : largest_code(width) + 1 - (1 - first);
	uint64		base = codec->att_base[att];

	if (image < base)
		return 2 * first;
	if (image - base >= past - first)
		return 2 * past;
	return 2 * (first + image - base) + 1;
}

/*
 * The limit the keys of one column (keys[*i] on) put on its codes on one
 * side, in half codes, and the position of its equality key if it has
 * one (*pinned); advances *i past them.  False if there is no limit.
 */
static bool
column_limit(const BpCodec *codec, const BpScanKeys *keys, const uint64 *images,
			 int *i, bool lower, uint64 *limit, bool *pinned, uint64 *equal)
{
	int			att = keys->keys[*i].attno;
	int			width = codec->att_width[att];
	bool		any = false;
	/* NULL's code, or -1 without one: it lies beyond every value's */
	int64		null_code = width == 0 ? -1 :
		(codec->att_flags[att] & BPC_ATT_NULLS_FIRST) ? 0 : (int64) largest_code(width);

	*pinned = false;
	for (; *i < keys->nkeys && keys->keys[*i].attno == att; (*i)++)
	{
		const BpScanKey *key = &keys->keys[*i];
		uint64		half = image_half_code(codec, att, images[*i]);

		if (key->strategy == BTEqualStrategyNumber)
		{
			*pinned = true;
			*equal = half;
		}
		/* > a lies just above a's code, < a just below it (not below 0) */
		if (lower ? key->below_limit >= 0 : key->above_limit <= 0)
			half = lower ? half + (key->below_limit > 0 ? 1 : 0) :
				half - (key->above_limit < 0 && half > 0 ? 1 : 0);
		else if (lower ? null_code == 0 : null_code > 0)
			half = lower ? 2 : 2 * null_code;	/* NULLs match no value */
		else
			continue;
		if (!any || (lower ? half > *limit : half < *limit))
			*limit = half;
		any = true;
	}
	return any;
}

/* Append code to the bound's bytes, big-endian in width bytes. */
static void
append_code(BpCodeBound *bound, uint64 code, int width)
{
	for (int shift = 8 * (width - 1); shift >= 0; shift -= 8)
		bound->bytes[bound->len++] = (uint8) (code >> shift);
}

/*
 * One side of the range of keys (bp_code_bounds_usable) on a packed leaf
 * of codec, the keys' images in images, into bound: its lower bound, or
 * its upper one.
 */
void
bp_code_bound(const BpCodec *codec, const BpScanKeys *keys,
			  const uint64 *images, bool lower, BpCodeBound *bound)
{
	int			i = 0;

	bound->len = 0;
	bound->inclusive = false;
	for (int att = 0; i < keys->nkeys && keys->keys[i].attno == att; att++)
	{
		int			width = codec->att_width[att];
		uint64		limit = 0;
		uint64		equal = 0;
		bool		pinned;

		if (!column_limit(codec, keys, images, &i, lower, &limit, &pinned,
						  &equal))
			break;
		if (width == 0)
		{
			/* every entry holds code 0 (half code 1) here */
			if (limit != 1)
			{
				bound->inclusive = lower ? limit > 1 : limit < 1;
				break;
			}
		}
		else if (limit % 2 == 0)
		{
			/* between codes: entries stop at code limit / 2 */
			uint64		code = limit / 2;

			if (lower ? code > largest_code(width) : code == 0)
				bound->inclusive = true;	/* every entry is past it */
			else if (lower || code <= largest_code(width))
			{
				append_code(bound, code, width);
				bound->inclusive = !lower;
			}
			break;
		}
		else if (limit / 2 > largest_code(width))
		{
			/* past every code: every entry lies below, none above */
			bound->inclusive = lower;
			break;
		}
		else
			append_code(bound, limit / 2, width);
		if (!pinned || limit != equal)
			break;
	}
	bound->value = bound->len <= 8 ? bpc_get_big_endian(bound->bytes, bound->len) : 0;
}

/*
 * Can the range of keys, whose values' images are images, be told by
 * bounds on the codes of a packed leaf of codec?  Value keys only (no NULL
 * tests), the equality keys of a column all of one value (a skip scan's
 * prefix and a driving array's element on one column), on integer columns
 * of at most 7 bytes, none a constant NULL; the caller checks that they
 * are ascending integer-like columns whose keys' values have images in
 * the codec's space.
 */
bool
bp_code_bounds_usable(const BpCodec *codec, const BpScanKeys *keys,
					  const uint64 *images)
{
	for (int i = 0; i < keys->nkeys; i++)
	{
		const BpScanKey *key = &keys->keys[i];
		int			att = key->attno;

		if (key->flags != 0 || codec->att_kind[att] != BPC_INTEGER ||
			codec->att_width[att] > 7 ||
			(codec->att_flags[att] & BPC_ATT_CONST_NULL))
			return false;
		if (key->strategy == BTEqualStrategyNumber)
			for (int j = 0; j < i; j++)
				if (keys->keys[j].attno == att &&
					keys->keys[j].strategy == BTEqualStrategyNumber &&
					images[j] != images[i])
					return false;
	}
	return true;
}
