/*-------------------------------------------------------------------------
 *
 * bpacheck.c
 *	  Verification of a buffered partitioned array: its shape (layout and
 *	  counters) and every invariant bpa.h states, read through the BPA's
 *	  accessors.
 *
 * This file depends on the C standard library only.
 *
 *-------------------------------------------------------------------------
 */
#include "bpa.h"
#include "bpasort.h"

/* Check the layout and the counters of a region. */
static const char *
check_counters(const char *region, size_t region_size)
{
	const BpaHeader *h = (const BpaHeader *) region;
	const BpaLayout *l = &h->layout;
	int			total = h->log_count;
	int			blocks_total;

	if (region_size < sizeof(BpaHeader) || !bpa_layout_valid(l))
		return "invalid BPA layout";
	if (bpa_region_size(l) > region_size)
		return "BPA layout larger than its region";
	if (h->log_count >= l->log_size)
		return "log has no free slot";
	if (h->used_blocks > l->num_blocks)
		return "more header slots in use than blocks";
	blocks_total = bpa_blocks_total(region);
	if (blocks_total >= 0 && blocks_total + h->log_count == h->nentries)
		return NULL;			/* sound: the loop below tells what is not */
	for (int b = 0; b < l->num_blocks; b++)
	{
		int			count = bpa_block_count(region, b);

		if (count >= l->block_size)
			return "block has no free slot";
		if (b >= h->used_blocks && count != 0)
			return "unused block is not empty";
		total += count;
	}
	if (total != h->nentries)
		return "entry count does not match log and block counts";
	return NULL;
}

/* Check header order, block ranges, sorted bits and distinct entries. */
static const char *
check_blocks(const char *region, BpaCompareFn compare, void *arg)
{
	int			used = bpa_used_blocks(region);

	for (int b = 0; b < used; b++)
	{
		const char *low = b > 0 ? bpa_header_entry(region, b) : NULL;
		const char *high = b + 1 < used ? bpa_header_entry(region, b + 1) : NULL;

		if (high != NULL && compare(bpa_header_entry(region, b), high, arg) >= 0)
			return "header is not strictly ascending";
		for (int j = 0; j < bpa_block_count(region, b); j++)
		{
			const char *slot = bpa_block_entry(region, b, j);

			if (low != NULL && compare(slot, low, arg) < 0)
				return "block entry below its header bound";
			if (high != NULL && compare(slot, high, arg) >= 0)
				return "block entry at or above the next header bound";
			if (j > 0 && bpa_block_sorted(region, b) &&
				compare(bpa_block_entry(region, b, j - 1), slot, arg) >= 0)
				return "block marked sorted is not in ascending order";
			for (int k = 0; k < j; k++)
				if (compare(bpa_block_entry(region, b, k), slot, arg) == 0)
					return "duplicate entry within a block";
		}
	}
	return NULL;
}

/* Check that log entries are distinct and not also in the blocks. */
static const char *
check_log(const char *region, BpaCompareFn compare, void *arg)
{
	int			log_count = bpa_log_count(region);

	for (int i = 0; i < log_count; i++)
	{
		const char *slot = bpa_log_entry(region, i);

		for (int k = 0; k < i; k++)
			if (compare(bpa_log_entry(region, k), slot, arg) == 0)
				return "duplicate entry within the log";
		if (bpa_blocks_hold(region, slot, compare, arg))
			return "log entry also stored in a block";
	}
	return NULL;
}

/*
 * Cheap check of the layout and counters only, enough to make every
 * access to the region stay inside it.  NULL if they are sound.
 */
const char *
bpa_check_shape(const char *region, size_t region_size)
{
	return check_counters(region, region_size);
}

/* Verify every invariant; NULL if the region is sound. */
const char *
bpa_check(const char *region, size_t region_size, BpaCompareFn compare, void *arg)
{
	const char *problem = check_counters(region, region_size);

	if (problem == NULL)
		problem = check_blocks(region, compare, arg);
	if (problem == NULL)
		problem = check_log(region, compare, arg);
	return problem;
}
