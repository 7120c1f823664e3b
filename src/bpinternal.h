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

extern BpInternalHeader *bp_internal_header(Page page, uint16 width);
extern BlockNumber *bp_internal_children(Page page, uint16 width);
extern char *bp_internal_pivot(Page page, uint16 width, int i);
extern void bp_internal_open_gap(Page page, uint16 width, int pos);
extern Size bp_internal_key_floor(Page page, uint16 width);
extern bool bp_internal_fill(const BpSlotDesc *desc, Page page, uint16 level,
							 int capacity, const char *lowkey,
							 const char *highkey, const BlockNumber *children,
							 const char *pivots, int n);
extern bool bp_internal_fill_fitting(const BpSlotDesc *desc, Page page,
									 uint16 level, int capacity,
									 const char *lowkey, const char *highkey,
									 const BlockNumber *children,
									 const char *pivots, int n);
extern bool bp_internal_has_room(const BpSlotDesc *desc, Page page,
								 const char *pivot);
extern void bp_internal_pivots(const BpSlotDesc *desc, Page page,
							   const char *keys, char *out);

#endif							/* BPINTERNAL_H */
