/*-------------------------------------------------------------------------
 *
 * bpcodec.h
 *	  Leaf codec: the compressed form of a leaf's entries (on-disk format 4).
 *
 * A leaf chooses a codec for the entries it holds.  An encoded entry is the
 * concatenation of each key column's code, the heap TID's block and offset
 * codes, and then the codes of the INCLUDE columns, all big-endian and
 * unsigned, so that two entries encoded by one codec compare with memcmp
 * exactly as the index orders them (key columns, then heap TID; no two
 * entries of a leaf share a TID, so the INCLUDE columns after it never
 * decide).  The images the caller gives follow the index order (a DESC
 * column's are complemented):
 *
 *	 integer column	 a code of 0..8 bytes: the column's order-preserving
 *					 64-bit image minus the leaf's base; the largest code of
 *					 the width is NULL, or with BPC_ATT_NULLS_FIRST code 0
 *					 is NULL and the values' codes are one more; width 0
 *					 means every entry holds the base (or, with
 *					 BPC_ATT_CONST_NULL, NULL);
 *	 bytes column	 the value's bytes (compared bytewise, as uuid is),
 *					 after a byte 0 (value) or 1 (NULL) if the leaf holds
 *					 NULLs in it;
 *	 block			 0..4 bytes: TID block minus the leaf's block base;
 *	 offset			 1 or 2 bytes;
 *	 INCLUDE column	 as an integer or bytes column.
 *
 * The module is pure: it depends on the C standard library only and has
 * its own unit tests (test/bpa).  bpslot.c maps column values to images, bpleafcodec.c encodes entries.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPCODEC_H
#define BPCODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BPC_MAX_COLUMNS		32
#define BPC_MAX_BYTES		16	/* longest bytes column */

/* How a column is encoded. */
#define BPC_INTEGER			0
#define BPC_BYTES			1

/* Flags of a column in a codec. */
#define BPC_ATT_CONST_NULL	0x01	/* integer, width 0: every entry NULL */
#define BPC_ATT_NULL_BYTE	0x02	/* bytes: a leading null byte */
#define BPC_ATT_NULLS_FIRST	0x04	/* integer: NULL is code 0, values follow */

/* The columns of an index, as the codec sees them: keys, then INCLUDE. */
typedef struct BpcColumns
{
	int			natts;			/* all columns */
	int			nkeys;			/* key columns, the first nkeys */
	uint8_t		kind[BPC_MAX_COLUMNS];	/* BPC_INTEGER, BPC_BYTES */
	uint8_t		length[BPC_MAX_COLUMNS];	/* bytes of a BPC_BYTES value */
	bool		nulls_first[BPC_MAX_COLUMNS];	/* integer: NULLs sort first */
} BpcColumns;

/* One column value of an entry. */
typedef struct BpcValue
{
	bool		isnull;
	uint64_t	image;			/* BPC_INTEGER: order-preserving image */
	uint8_t		bytes[BPC_MAX_BYTES];	/* BPC_BYTES */
} BpcValue;

/* A leaf's codec. */
typedef struct BpCodec
{
	uint8_t		natts;
	uint8_t		nkeys;			/* key columns (BpcColumns.nkeys) */
	uint16_t	tid_position;	/* bytes of the key columns' codes */
	uint8_t		block_width;	/* 0..4 */
	uint8_t		offset_width;	/* 1 or 2 */
	uint16_t	width;			/* bytes of an encoded entry, >= 2 */
	uint32_t	block_base;
	uint8_t		att_kind[BPC_MAX_COLUMNS];
	uint8_t		att_width[BPC_MAX_COLUMNS];	/* bytes of the column's code */
	uint8_t		att_flags[BPC_MAX_COLUMNS];
	uint64_t	att_base[BPC_MAX_COLUMNS];
} BpCodec;

/* What a set of entries spans, to choose a codec from. */
typedef struct BpcRange
{
	int			natts;
	bool		any_value[BPC_MAX_COLUMNS];
	bool		any_null[BPC_MAX_COLUMNS];
	uint64_t	min[BPC_MAX_COLUMNS];	/* images of the non-NULL values */
	uint64_t	max[BPC_MAX_COLUMNS];
	bool		any_entry;
	uint32_t	min_block;
	uint32_t	max_block;
	uint16_t	max_offset;
} BpcRange;

/*
 * What a leaf's fences guarantee about an integer column of every entry it
 * may ever hold: its images lie in [lo, hi], and no entry is NULL there if
 * no_nulls.  Columns not bounded get head room around the entries' span.
 */
typedef struct BpcBound
{
	bool		bounded;
	bool		no_nulls;
	uint64_t	lo;
	uint64_t	hi;
} BpcBound;

extern void bpc_range_init(BpcRange *range, int natts);
extern void bpc_range_add(BpcRange *range, const BpcValue *values,
						  uint32_t block, uint16_t offset);
extern bool bpc_choose(const BpcColumns *columns, const BpcRange *range,
					   const BpcBound *bounds, BpCodec *codec);

extern bool bpc_encode(const BpCodec *codec, const BpcValue *values,
					   uint32_t block, uint16_t offset, uint8_t *out);
extern void bpc_decode(const BpCodec *codec, const uint8_t *in,
					   BpcValue *values, uint32_t *block, uint16_t *offset);
extern uint64_t bpc_max_code(int width);
extern int	bpc_code_width(uint64_t span);
extern int	bpc_unsigned_width(uint64_t span);
extern uint64_t bpc_first_code(const BpCodec *codec, const uint8_t *in);

extern size_t bpc_stored_size(int natts);
extern void bpc_store(const BpCodec *codec, uint8_t *out);
extern const char *bpc_load(const uint8_t *in, int natts,
							const BpcColumns *columns, BpCodec *codec);

/*
 * Decoding, inline: scans decode every entry they return.
 */

/* A 2-, 4- or 8-byte big-endian number at in, read with one load. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BPC_LOAD_BE(bits, in) __extension__ ({ \
	uint##bits##_t loaded_; \
	memcpy(&loaded_, (in), sizeof(loaded_)); \
	(uint64_t) __builtin_bswap##bits(loaded_); })
#else
#define BPC_LOAD_BE(bits, in) bpc_load_be_bytes(in, (bits) / 8)
#endif

/* Read width (0..8) bytes big-endian, one byte at a time. */
static inline uint64_t
bpc_load_be_bytes(const uint8_t *in, int width)
{
	uint64_t	value = 0;

	for (int i = 0; i < width; i++)
		value = (value << 8) | in[i];
	return value;
}

/* Read width (0..8) bytes big-endian, reading no byte past them. */
static inline uint64_t
bpc_get_big_endian(const uint8_t *in, int width)
{
	switch (width)
	{
		case 0:
			return 0;
		case 1:
			return in[0];
		case 2:
			return BPC_LOAD_BE(16, in);
		case 3:
			return BPC_LOAD_BE(16, in) << 8 | in[2];
		case 4:
			return BPC_LOAD_BE(32, in);
		case 5:
			return BPC_LOAD_BE(32, in) << 8 | in[4];
		case 6:
			return BPC_LOAD_BE(32, in) << 16 | BPC_LOAD_BE(16, in + 4);
		case 7:
			return BPC_LOAD_BE(32, in) << 24 | BPC_LOAD_BE(16, in + 4) << 8 |
				in[6];
		default:
			return BPC_LOAD_BE(64, in);
	}
}

/* Decode the heap TID whose codes start at p. */
static inline void
bpc_decode_tid_at(const BpCodec *codec, const uint8_t *p, uint32_t *block,
				  uint16_t *offset)
{
	*block = codec->block_base +
		(uint32_t) bpc_get_big_endian(p, codec->block_width);
	*offset = (uint16_t) bpc_get_big_endian(p + codec->block_width,
											codec->offset_width);
}

/* Decode the heap TID of an encoded entry. */
static inline void
bpc_decode_tid(const BpCodec *codec, const uint8_t *in, uint32_t *block,
			   uint16_t *offset)
{
	bpc_decode_tid_at(codec, in + codec->tid_position, block, offset);
}

/*
 * The value of integer column i (width >= 1 bytes) whose code is code:
 * its image, or NULL (*isnull); the inverse of the encoding.
 */
static inline uint64_t
bpc_integer_value(const BpCodec *codec, int i, uint64_t code, bool *isnull)
{
	int			width = codec->att_width[i];

	if (codec->att_flags[i] & BPC_ATT_NULLS_FIRST)
	{
		*isnull = code == 0;
		return codec->att_base[i] + code - 1;
	}
	*isnull = code == (width >= 8 ? UINT64_MAX :
					   (UINT64_C(1) << (8 * width)) - 1);
	return codec->att_base[i] + code;
}

/*
 * Decode an entry of a codec with a single integer column: its image into
 * *image and its heap TID; returns whether the column is NULL.
 */
static inline bool
bpc_decode_integer(const BpCodec *codec, const uint8_t *in, uint64_t *image,
				   uint32_t *block, uint16_t *offset)
{
	int			width = codec->att_width[0];
	bool		isnull;

	bpc_decode_tid_at(codec, in + width, block, offset);
	if (width == 0)
	{
		*image = codec->att_base[0];
		return (codec->att_flags[0] & BPC_ATT_CONST_NULL) != 0;
	}
	*image = bpc_integer_value(codec, 0, bpc_get_big_endian(in, width),
							   &isnull);
	return isnull;
}

#endif							/* BPCODEC_H */
