/*-------------------------------------------------------------------------
 *
 * bparegion.h
 *	  The byte layout of a BPA region, for the BPA's own files (bpa.c,
 *	  bparange.c); everything else reads a region through bpa.h.
 *
 *	 BpaHeader | uint16 block_count[B] | sorted bits | pad to 8 |
 *	 log[L] | header[B] | blocks[B][S]
 *
 * This file depends on the C standard library only.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPAREGION_H
#define BPAREGION_H

#include <stddef.h>
#include <stdint.h>

#include "bpa.h"
#include "bpasort.h"

#define BPA_ALIGN(x)	(((x) + 7) & ~((size_t) 7))

#define Min(a, b)	((a) < (b) ? (a) : (b))

/* Scratch areas, in slots, for a layout: blocks copy, log copy, output. */
#define AREA_BLOCKS(l)	((size_t) 0)
#define AREA_LOG(l)		((size_t) (l)->num_blocks * (l)->block_size)
#define AREA_OUT(l)		(AREA_LOG(l) + (l)->log_size + 1)

/* Byte offset of the block count array. */
static inline size_t
counts_offset(void)
{
	return sizeof(BpaHeader);
}

/* Byte offset of the sorted bit vector. */
static inline size_t
sorted_offset(const BpaLayout *l)
{
	return counts_offset() + sizeof(uint16_t) * l->num_blocks;
}

/* Byte offset of the first log slot. */
static inline size_t
log_offset(const BpaLayout *l)
{
	return BPA_ALIGN(sorted_offset(l) + (l->num_blocks + 7) / 8);
}

/* Byte offset of the first header slot. */
static inline size_t
header_offset(const BpaLayout *l)
{
	return log_offset(l) + (size_t) l->log_size * l->slot_width;
}

/* Byte offset of the first block slot. */
static inline size_t
blocks_offset(const BpaLayout *l)
{
	return header_offset(l) + (size_t) l->num_blocks * l->slot_width;
}

/* The fixed header of a region. */
static inline BpaHeader *
region_header(const char *region)
{
	return (BpaHeader *) region;
}

/* The per-block entry counts. */
static inline uint16_t *
block_counts(const char *region)
{
	return (uint16_t *) (region + counts_offset());
}

/* The per-block sorted bits. */
static inline uint8_t *
sorted_bits(const char *region)
{
	return (uint8_t *) (region + sorted_offset(&region_header(region)->layout));
}

/* Slot i of the log. */
static inline char *
log_slot(const char *region, int i)
{
	const BpaLayout *l = &region_header(region)->layout;

	return (char *) region + log_offset(l) + (size_t) i * l->slot_width;
}

/* Header slot i: the lower bound of block i. */
static inline char *
header_slot(const char *region, int i)
{
	const BpaLayout *l = &region_header(region)->layout;

	return (char *) region + header_offset(l) + (size_t) i * l->slot_width;
}

/* Slot j of block b. */
static inline char *
block_slot(const char *region, int b, int j)
{
	const BpaLayout *l = &region_header(region)->layout;

	return (char *) region + blocks_offset(l) +
		((size_t) b * l->block_size + j) * l->slot_width;
}

/* Is block b known to be in ascending order? */
static inline bool
block_is_sorted(const char *region, int b)
{
	return (sorted_bits(region)[b / 8] >> (b % 8)) & 1;
}

/* Record whether block b is in ascending order. */
static inline void
set_block_sorted(char *region, int b, bool sorted)
{
	uint8_t    *bits = sorted_bits(region);

	if (sorted)
		bits[b / 8] |= (uint8_t) (1 << (b % 8));
	else
		bits[b / 8] &= (uint8_t) ~(1 << (b % 8));
}

extern int	bpa_collect_sorted(const char *region, BpaCompareFn compare,
							   void *arg, BpaPredicateFn before_start,
							   BpaPredicateFn after_end, void *pred_arg,
							   BpaPart *part, char *out, char *scratch);

#endif							/* BPAREGION_H */
