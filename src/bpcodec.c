/*-------------------------------------------------------------------------
 *
 * bpcodec.c
 *	  Leaf codec: choose a leaf's code widths, encode and decode entries,
 *	  store the codec on the page.
 *
 * See bpcodec.h for the encoding.  This file depends on the C standard
 * library only.
 *
 *-------------------------------------------------------------------------
 */
#include "bpcodec.h"

#include <string.h>

#define STORED_HEADER	16
#define ALIGN8(x)		(((x) + 7) & ~((size_t) 7))

/* The largest code of a non-NULL value in width bytes (the next is NULL). */
uint64_t
bpc_max_code(int width)
{
	if (width <= 0)
		return 0;
	if (width >= 8)
		return UINT64_MAX - 1;
	return (UINT64_C(1) << (8 * width)) - 2;
}

/* The fewest bytes (1..8) whose codes cover span, or 9 if none do. */
int
bpc_code_width(uint64_t span)
{
	for (int w = 1; w <= 8; w++)
		if (span <= bpc_max_code(w))
			return w;
	return 9;
}

/* The fewest bytes (0..4) that hold every number up to span. */
int
bpc_unsigned_width(uint64_t span)
{
	int			w = 0;

	while (w < 4 && (w == 0 ? span > 0 : span >> (8 * w) != 0))
		w++;
	return w;
}

/* Write value big-endian in width bytes. */
static void
put_big_endian(uint8_t *out, uint64_t value, int width)
{
	for (int i = width - 1; i >= 0; i--)
	{
		out[i] = (uint8_t) value;
		value >>= 8;
	}
}

/* Start a range that spans nothing. */
void
bpc_range_init(BpcRange *range, int natts)
{
	memset(range, 0, sizeof(BpcRange));
	range->natts = natts;
}

/* Widen range to cover one entry. */
void
bpc_range_add(BpcRange *range, const BpcValue *values, uint32_t block,
			  uint16_t offset)
{
	for (int i = 0; i < range->natts; i++)
	{
		uint64_t	image = values[i].image;

		if (values[i].isnull)
			range->any_null[i] = true;
		else if (!range->any_value[i])
		{
			range->any_value[i] = true;
			range->min[i] = range->max[i] = image;
		}
		else
		{
			if (image < range->min[i])
				range->min[i] = image;
			if (image > range->max[i])
				range->max[i] = image;
		}
	}
	if (!range->any_entry || block < range->min_block)
		range->min_block = block;
	if (!range->any_entry || block > range->max_block)
		range->max_block = block;
	if (offset > range->max_offset)
		range->max_offset = offset;
	range->any_entry = true;
}

/* The bytes of a code for values lo..hi, and NULL if any_null. */
static int
span_width(uint64_t lo, uint64_t hi, bool any_null)
{
	return (lo == hi && !any_null) ? 0 : bpc_code_width(hi - lo);
}

/*
 * Choose the code of integer column i: its base and width cover the
 * entries' span with a quarter of it as head room on each side, kept
 * inside the fences' bound if there is one.  A code that would take no
 * fewer bytes than the whole bound covers the bound instead, so that no
 * key the leaf may hold needs a re-encode.  False if no width covers it.
 */
static bool
choose_integer(const BpcRange *range, const BpcBound *bound, int i,
			   BpCodec *codec)
{
	bool		have = range->any_value[i];
	bool		bounded = bound && bound->bounded;
	uint64_t	lo = range->min[i];
	uint64_t	hi = range->max[i];
	int			width;

	if (have)
	{
		uint64_t	extra = (hi - lo) / 4;

		lo = lo >= extra ? lo - extra : 0;
		hi = hi <= UINT64_MAX - extra ? hi + extra : UINT64_MAX;
	}
	if (bounded)
	{
		lo = (have && lo > bound->lo) ? lo : bound->lo;
		hi = (have && hi < bound->hi) ? hi : bound->hi;
		if (span_width(lo, hi, range->any_null[i]) >=
			span_width(bound->lo, bound->hi, range->any_null[i]))
		{
			lo = bound->lo;
			hi = bound->hi;
		}
		have = true;
	}
	codec->att_base[i] = have ? lo : 0;
	codec->att_flags[i] = 0;
	if (!have)
	{
		codec->att_width[i] = 0;
		if (range->any_null[i])
			codec->att_flags[i] = BPC_ATT_CONST_NULL;
		return true;
	}
	width = span_width(lo, hi, range->any_null[i]);
	codec->att_width[i] = (uint8_t) width;
	return width <= 8;
}

/*
 * Choose the codec of a leaf whose entries span range and whose fences
 * bound its integer columns as bounds says (NULL: no bounds).  False when
 * no codec can hold these entries.
 */
bool
bpc_choose(const BpcColumns *columns, const BpcRange *range,
		   const BpcBound *bounds, BpCodec *codec)
{
	size_t		width = 0;

	memset(codec, 0, sizeof(BpCodec));
	codec->natts = (uint8_t) columns->natts;
	codec->nkeys = (uint8_t) columns->nkeys;
	for (int i = 0; i < columns->natts; i++)
	{
		codec->att_kind[i] = columns->kind[i];
		if (columns->kind[i] == BPC_BYTES)
		{
			codec->att_flags[i] = range->any_null[i] ? BPC_ATT_NULL_BYTE : 0;
			codec->att_width[i] = (uint8_t) (columns->length[i] +
											 (range->any_null[i] ? 1 : 0));
		}
		else if (!choose_integer(range, bounds ? &bounds[i] : NULL, i, codec))
			return false;
		else if (columns->nulls_first[i])
			codec->att_flags[i] |= BPC_ATT_NULLS_FIRST;
		width += codec->att_width[i];
		if (i + 1 == columns->nkeys)
			codec->tid_position = (uint16_t) width;
	}
	if (range->any_entry)
	{
		uint32_t	span = range->max_block - range->min_block;
		uint32_t	extra = span / 8;
		uint32_t	base = range->min_block >= extra ? range->min_block - extra : 0;
		uint32_t	top = range->max_block <= UINT32_MAX - extra ?
			range->max_block + extra : UINT32_MAX;

		codec->block_base = base;
		codec->block_width = (uint8_t) bpc_unsigned_width(top - base);
	}
	/* an entry takes at least 2 bytes, as the BPA's scratch areas assume */
	codec->offset_width = (range->max_offset <= 0xFF && width + codec->block_width > 0) ? 1 : 2;
	width += codec->block_width + codec->offset_width;
	codec->width = (uint16_t) width;
	return true;
}

/*
 * The code of an integer column value, offset from the codec's base (or
 * NULL): NULL takes the code after the values', or with NULLs first code
 * 0 and the values the codes after it.
 */
static inline uint64_t
integer_code(const BpCodec *codec, int i, bool isnull, uint64_t offset)
{
	int			width = codec->att_width[i];

	if (codec->att_flags[i] & BPC_ATT_NULLS_FIRST)
		return isnull ? 0 : offset + 1;
	return isnull ? bpc_max_code(width) + 1 : offset;
}

/* Encode one integer column value; false if the codec cannot hold it. */
static bool
encode_integer(const BpCodec *codec, int i, const BpcValue *value,
			   uint8_t *out)
{
	int			width = codec->att_width[i];
	uint64_t	base = codec->att_base[i];

	if (width == 0)
		return (codec->att_flags[i] & BPC_ATT_CONST_NULL) ? value->isnull :
			(!value->isnull && value->image == base);
	if (value->image < base && !value->isnull)
		return false;
	if (!value->isnull && value->image - base > bpc_max_code(width))
		return false;
	put_big_endian(out, integer_code(codec, i, value->isnull,
									 value->image - base), width);
	return true;
}

/* Encode column i of an entry at out; false if the codec cannot hold it. */
static bool
encode_column(const BpCodec *codec, int i, const BpcValue *value,
			  uint8_t *out)
{
	int			length = codec->att_width[i];

	if (codec->att_kind[i] != BPC_BYTES)
		return encode_integer(codec, i, value, out);
	if (codec->att_flags[i] & BPC_ATT_NULL_BYTE)
	{
		*out++ = value->isnull ? 1 : 0;
		length--;
		if (value->isnull)
			memset(out, 0, length);
		else
			memcpy(out, value->bytes, length);
		return true;
	}
	if (value->isnull)
		return false;
	memcpy(out, value->bytes, length);
	return true;
}

/* Encode a heap TID at out; false if the codec cannot hold it. */
static bool
encode_tid(const BpCodec *codec, uint32_t block, uint16_t offset,
		   uint8_t *out)
{
	if (block < codec->block_base ||
		(codec->block_width < 4 &&
		 (uint64_t) (block - codec->block_base) >> (8 * codec->block_width) != 0) ||
		(codec->offset_width == 1 && offset > 0xFF))
		return false;
	put_big_endian(out, block - codec->block_base, codec->block_width);
	put_big_endian(out + codec->block_width, offset, codec->offset_width);
	return true;
}

/*
 * Encode an entry into out (codec->width bytes).  False if the codec
 * cannot hold it: a value or TID outside its range, a NULL it has no code
 * for.
 */
bool
bpc_encode(const BpCodec *codec, const BpcValue *values, uint32_t block,
		   uint16_t offset, uint8_t *out)
{
	uint8_t    *p = out;

	for (int i = 0; i < codec->natts; i++)
	{
		if (i == codec->nkeys)
			p += codec->block_width + codec->offset_width;
		if (!encode_column(codec, i, &values[i], p))
			return false;
		p += codec->att_width[i];
	}
	return encode_tid(codec, block, offset, out + codec->tid_position);
}

/* Decode an encoded entry. */
void
bpc_decode(const BpCodec *codec, const uint8_t *in, BpcValue *values,
		   uint32_t *block, uint16_t *offset)
{
	const uint8_t *p = in;

	for (int i = 0; i < codec->natts; i++)
	{
		int			width = codec->att_width[i];

		if (i == codec->nkeys)
			p += codec->block_width + codec->offset_width;
		if (codec->att_kind[i] == BPC_BYTES)
		{
			int			length = width;

			values[i].isnull = false;
			if (codec->att_flags[i] & BPC_ATT_NULL_BYTE)
			{
				values[i].isnull = *p != 0;
				p++;
				length--;
			}
			memcpy(values[i].bytes, p, length);
			p += length;
			continue;
		}
		if (width == 0)
		{
			values[i].isnull = (codec->att_flags[i] & BPC_ATT_CONST_NULL) != 0;
			values[i].image = codec->att_base[i];
			continue;
		}
		values[i].image = bpc_integer_value(codec, i, bpc_get_big_endian(p, width),
										&values[i].isnull);
		p += width;
	}
	bpc_decode_tid_at(codec, in + codec->tid_position, block, offset);
}

/* The code of the first column (an integer column) of an encoded entry. */
uint64_t
bpc_first_code(const BpCodec *codec, const uint8_t *in)
{
	return bpc_get_big_endian(in, codec->att_width[0]);
}

/* Bytes a codec of natts columns takes on a page (a multiple of 8). */
size_t
bpc_stored_size(int natts)
{
	return STORED_HEADER + ALIGN8((size_t) 2 * natts) + (size_t) 8 * natts;
}

/* Store codec in bpc_stored_size(codec->natts) bytes at out. */
void
bpc_store(const BpCodec *codec, uint8_t *out)
{
	int			natts = codec->natts;
	uint8_t    *bases = out + STORED_HEADER + ALIGN8((size_t) 2 * natts);

	memset(out, 0, bpc_stored_size(natts));
	out[0] = codec->natts;
	out[1] = codec->block_width;
	out[2] = codec->offset_width;
	memcpy(out + 4, &codec->width, sizeof(uint16_t));
	memcpy(out + 8, &codec->block_base, sizeof(uint32_t));
	memcpy(out + STORED_HEADER, codec->att_width, natts);
	memcpy(out + STORED_HEADER + natts, codec->att_flags, natts);
	memcpy(bases, codec->att_base, sizeof(uint64_t) * natts);
}

/* Problems of one column of a loaded codec, or NULL. */
static const char *
check_column(const BpCodec *codec, const BpcColumns *columns, int i)
{
	int			width = codec->att_width[i];
	int			flags = codec->att_flags[i];

	if (columns->kind[i] == BPC_BYTES)
	{
		if (flags & ~BPC_ATT_NULL_BYTE ||
			width != columns->length[i] + ((flags & BPC_ATT_NULL_BYTE) ? 1 : 0))
			return "a bytes column of the leaf codec has the wrong width";
		return NULL;
	}
	if (width > 8 || (flags & ~(BPC_ATT_CONST_NULL | BPC_ATT_NULLS_FIRST)) ||
		((flags & BPC_ATT_CONST_NULL) && width != 0) ||
		((flags & BPC_ATT_NULLS_FIRST) != 0) != columns->nulls_first[i])
		return "an integer column of the leaf codec is invalid";
	return NULL;
}

/*
 * Load the codec stored at in for an index with these columns; returns
 * the problem of an invalid one, or NULL.  Every inserted entry opens its
 * leaf, so only the natts columns' entries of the arrays are written
 * (the others keep what they held).
 */
const char *
bpc_load(const uint8_t *in, int natts, const BpcColumns *columns,
		 BpCodec *codec)
{
	const uint8_t *bases = in + STORED_HEADER + ALIGN8((size_t) 2 * natts);
	size_t		width = 0;

	if (in[0] != natts || natts > BPC_MAX_COLUMNS)
		return "the leaf codec has the wrong number of columns";
	codec->natts = in[0];
	codec->tid_position = 0;
	codec->nkeys = (uint8_t) columns->nkeys;
	codec->block_width = in[1];
	codec->offset_width = in[2];
	memcpy(&codec->width, in + 4, sizeof(uint16_t));
	memcpy(&codec->block_base, in + 8, sizeof(uint32_t));
	memcpy(codec->att_width, in + STORED_HEADER, natts);
	memcpy(codec->att_flags, in + STORED_HEADER + natts, natts);
	memcpy(codec->att_base, bases, sizeof(uint64_t) * natts);
	for (int i = 0; i < natts; i++)
	{
		const char *problem;

		codec->att_kind[i] = columns->kind[i];
		problem = check_column(codec, columns, i);
		if (problem)
			return problem;
		width += codec->att_width[i];
		if (i + 1 == columns->nkeys)
			codec->tid_position = (uint16_t) width;
	}
	if (codec->block_width > 4 || codec->offset_width < 1 ||
		codec->offset_width > 2)
		return "the leaf codec's TID widths are invalid";
	width += codec->block_width + codec->offset_width;
	if (codec->width != width)
		return "the leaf codec's entry width does not match its columns";
	return NULL;
}
