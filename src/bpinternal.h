/*-------------------------------------------------------------------------
 *
 * bpinternal.h
 *	  Internal pages: fences, pivots and child pointers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPINTERNAL_H
#define BPINTERNAL_H

#include "storage/bufpage.h"

#include "bpformat.h"
#include "bpslot.h"

/*
 * The fences an internal page is filled with: low NULL on the leftmost
 * page of a level and on a page that omits its low key (low_omitted: where
 * bp_internal_fill_fitting or a split's fill_omitting_low omits it, and for
 * the left half of such a page), high NULL on the rightmost.
 */
typedef struct BpInternalFences
{
	const char *low;
	bool		low_omitted;
	const char *high;
} BpInternalFences;

extern BpInternalHeader *bp_internal_header(Page page, uint16 width);
extern BlockNumber *bp_internal_children(Page page, uint16 width);
extern char *bp_internal_pivot(Page page, uint16 width, int i);
extern void bp_internal_open_gap(Page page, uint16 width, int pos);
extern Size bp_internal_key_floor(Page page, uint16 width);
extern bool bp_internal_fill(const BpSlotDesc *desc, Page page, uint16 level,
							 int capacity, const BpInternalFences *fences,
							 const BlockNumber *children, const char *pivots,
							 int n);
extern bool bp_internal_fill_fitting(const BpSlotDesc *desc, Page page,
									 uint16 level, int capacity,
									 const BpInternalFences *fences,
									 const BlockNumber *children,
									 const char *pivots, int n,
									 bool may_omit_low);
extern bool bp_internal_has_room(const BpSlotDesc *desc, Page page,
								 const char *pivot);
extern void bp_internal_pivots(const BpSlotDesc *desc, Page page,
							   const char *keys, char *out);

#endif							/* BPINTERNAL_H */
