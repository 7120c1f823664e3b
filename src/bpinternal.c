/*-------------------------------------------------------------------------
 *
 * bpinternal.c
 *	  Internal pages: fences, pivots and child pointers, filled at
 *	  build and opened for new downlinks by splits.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amvalidate.h"
#include "access/genam.h"
#include "access/tupmacs.h"
#include "catalog/pg_type.h"
#include "catalog/index.h"
#include "mb/pg_wchar.h"
#include "storage/indexfsm.h"
#include "storage/lmgr.h"
#include <math.h>
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/sortsupport.h"

#include "bpformat.h"
#include "bpgeometry.h"
#include "bpinternal.h"
#include "bppage.h"
#include "bpslot.h"

/* The header of an internal page. */
BpInternalHeader *
bp_internal_header(Page page, uint16 width)
{
	return (BpInternalHeader *) (PageGetContents(page) + bp_fences_size(width));
}

/* The child block numbers of an internal page. */
BlockNumber *
bp_internal_children(Page page, uint16 width)
{
	return (BlockNumber *) ((char *) bp_internal_header(page, width) +
							sizeof(BpInternalHeader));
}

/* Make room at position pos of an internal page's children and pivots. */
void
bp_internal_open_gap(Page page, uint16 width, int pos)
{
	BpInternalHeader *header = bp_internal_header(page, width);
	BlockNumber *children = bp_internal_children(page, width);

	memmove(children + pos + 1, children + pos,
			sizeof(BlockNumber) * (header->nitems - pos));
	memmove(bp_internal_pivot(page, width, pos + 1),
			bp_internal_pivot(page, width, pos),
			(Size) (header->nitems - pos) * width);
	header->nitems++;
}

/*
 * Where the key area of an internal page may grow down to: the end of its
 * last pivot.  A pivot added takes room from the key area.
 */
Size
bp_internal_key_floor(Page page, uint16 width)
{
	return bp_internal_pivot(page, width, bp_internal_header(page, width)->nitems) -
		(char *) page;
}

/*
 * Fill page as an internal page at level with n children and their pivots
 * (logical slots; pivot 0 is the page's low key, all zeros if it has none
 * or omits it, whatever pivots holds there), with these fences (lowkey is
 * NULL on the leftmost page and where low_omitted), a key area if the
 * index has keys, and no right-link.  False if the keys do not fit.
 */
bool
bp_internal_fill(const BpSlotDesc *desc, Page page, uint16 level,
				 int capacity, const BpInternalFences *fences,
				 const BlockNumber *children, const char *pivots, int n)
{
	uint16		width = desc->width;
	const char *lowkey = fences->low;
	const char *highkey = fences->high;
	BpInternalHeader *header;
	Size		floor;
	bool		fits = true;

	Assert(!(lowkey && fences->low_omitted));
	bp_init_page(page, BP_INTERNAL |
				 (lowkey || fences->low_omitted ? BP_HAS_LOW : 0) |
				 (fences->low_omitted ? BP_LOW_OMITTED : 0) |
				 (highkey ? BP_HAS_HIGH : 0), level);
	if (desc->has_keys)
		bp_page_start_keys(page);
	header = bp_internal_header(page, width);
	header->nitems = n;
	header->capacity = capacity;
	memcpy(bp_internal_children(page, width), children, sizeof(BlockNumber) * n);
	floor = bp_internal_key_floor(page, width);
	if (highkey)
		fits = bp_store_page_slot(desc, page, floor, highkey, NULL,
							   bp_page_highkey(page, width));
	if (lowkey && fits)
	{
		fits = bp_store_page_slot(desc, page, floor, lowkey, NULL,
							   bp_page_lowkey(page));
		memcpy(bp_internal_pivot(page, width, 0), bp_page_lowkey(page), width);
	}
	for (int i = 1; i < n && fits; i++)
		fits = bp_store_page_slot(desc, page, floor, pivots + (Size) i * width,
							   i > 1 || lowkey ?
							   bp_internal_pivot(page, width, i - 1) : NULL,
							   bp_internal_pivot(page, width, i));
	return fits;
}

/* The most key bytes one of the fences and pivots 1 to n - 1 takes. */
static Size
longest_keys(const BpSlotDesc *desc, const BpInternalFences *fences,
			 const char *pivots, int n)
{
	Size		longest = 0;

	if (fences->low)
		longest = bp_slot_keys_size(desc, fences->low);
	if (fences->high)
		longest = Max(longest, bp_slot_keys_size(desc, fences->high));
	for (int i = 1; i < n; i++)
		longest = Max(longest, bp_slot_keys_size(desc, pivots + (Size) i * desc->width));
	return longest;
}

/*
 * bp_internal_fill of an internal page whose capacity fits its keys: in
 * an index with keys, at most the capacity that leaves room for three
 * pivots as long as its longest key (two children), and when the keys do
 * not fit there, the largest capacity below it (n at least) where they
 * do.  A page of long pivots gives up room for children it could not
 * take anyway, so that such pages keep two children or more.  False if
 * the keys do not fit even with room for n children only, or n is above
 * capacity.
 */
static bool
fill_at_fitting_capacity(const BpSlotDesc *desc, Page page, uint16 level,
						 int capacity, const BpInternalFences *fences,
						 const BlockNumber *children, const char *pivots,
						 int n)
{
	int			fits;
	int			fails;

	if (n > capacity)
		return false;
	if (desc->has_keys)
		capacity = bp_internal_capacity_for_keys(desc->width,
												 longest_keys(desc, fences,
															  pivots, n),
												 capacity, Max(n, 2));
	if (bp_internal_fill(desc, page, level, capacity, fences, children,
						 pivots, n))
		return true;
	if (!desc->has_keys || n >= capacity ||
		!bp_internal_fill(desc, page, level, n, fences, children, pivots, n))
		return false;
	/* the keys fit at capacity fits, not at fails (room shrinks as it grows) */
	fits = n;
	fails = capacity;
	while (fails - fits > 1)
	{
		int			mid = fits + (fails - fits) / 2;

		if (bp_internal_fill(desc, page, level, mid, fences, children,
							 pivots, n))
			fits = mid;
		else
			fails = mid;
	}
	return bp_internal_fill(desc, page, level, fits, fences, children,
							pivots, n);
}

/*
 * Fill an internal page at a capacity that fits its keys
 * (fill_at_fitting_capacity), storing its low key if they fit with it,
 * else, if may_omit_low, omitting it (BP_LOW_OMITTED): its high key and
 * pivots 1 to n - 1 then take the room, as two keys at the limit do beside
 * two children (bp_max_key_bytes).  False if they do not fit.
 */
bool
bp_internal_fill_fitting(const BpSlotDesc *desc, Page page, uint16 level,
						 int capacity, const BpInternalFences *fences,
						 const BlockNumber *children, const char *pivots,
						 int n, bool may_omit_low)
{
	BpInternalFences omitted = {NULL, true, fences->high};

	if (fill_at_fitting_capacity(desc, page, level, capacity, fences,
								 children, pivots, n))
		return true;
	return may_omit_low && desc->has_keys && fences->low != NULL &&
		fill_at_fitting_capacity(desc, page, level, capacity, &omitted,
								 children, pivots, n);
}

/*
 * Can the internal page take one more pivot, the logical slot pivot (NULL
 * for one whose keys the page has already): a free child, and room for
 * the pivot and its keys above the key area's floor?
 */
bool
bp_internal_has_room(const BpSlotDesc *desc, Page page, const char *pivot)
{
	uint16		width = desc->width;
	BpInternalHeader *header = bp_internal_header(page, width);

	return header->nitems < header->capacity &&
		(!desc->has_keys ||
		 width + (pivot ? bp_slot_keys_size(desc, pivot) : 0) <=
		 bp_page_key_room(page, bp_internal_key_floor(page, width)));
}

/*
 * The children's pivots of an internal page as logical slots into out
 * (room for nitems slots), their keys pointing into keys (page or a copy
 * of it); pivot 0 is all zeros when the page has no low key or omits it.
 */
void
bp_internal_pivots(const BpSlotDesc *desc, Page page, const char *keys,
				   char *out)
{
	uint16		width = desc->width;
	int			n = bp_internal_header(page, width)->nitems;
	bool		has_low = bp_page_stores_low(page);

	for (int i = 0; i < n; i++)
	{
		if (i == 0 && !has_low)
			memset(out, 0, width);
		else
			bp_slot_from_page(desc, page, keys, bp_internal_pivot(page, width, i),
							  out + (Size) i * width);
	}
}

/* Pivot i of an internal page: the low bound of child i. */
char *
bp_internal_pivot(Page page, uint16 width, int i)
{
	BpInternalHeader *header = bp_internal_header(page, width);

	return (char *) header + bp_internal_pivots_offset(header->capacity) +
		(Size) i * width;
}
