/*-------------------------------------------------------------------------
 *
 * bpparallel.h
 *	  Parallel index scans: the shared state and how participants
 *	  seize leaves.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPPARALLEL_H
#define BPPARALLEL_H

#include "access/genam.h"
#include "access/relscan.h"

#include "bpcompat.h"
#include "bpslot.h"

/* Where a parallel scan stands when a participant seizes it (bpparallel.c). */
typedef struct BpParallelNext
{
	bool		started;		/* a leaf of array_elem's range was read */
	bool		next_prefix;	/* skip scan: the range of the prefix after
								 * the entry in bound comes next */
	int			array_elem;		/* element of the driving array; -1: the
								 * first in the scan direction */
	BlockNumber leaf;			/* started: the leaf read last */
	BlockNumber rightlink;		/* ... its right-link */
} BpParallelNext;

extern Size bp_estimateparallelscan(BP_ESTIMATEPARALLELSCAN_PARAMS);
extern void bp_initparallelscan(void *target);
extern void bp_parallelrescan(IndexScanDesc scan);
extern bool bp_parallel_seize(IndexScanDesc scan, BpParallelNext *next,
							  char *bound, char *bound_keys);
extern void bp_parallel_release_after(IndexScanDesc scan, int array_elem,
									  BlockNumber leaf, BlockNumber rightlink,
									  const char *bound,
									  const BpSlotDesc *desc);
extern void bp_parallel_release_to_element(IndexScanDesc scan, int array_elem);
extern void bp_parallel_release_to_prefix(IndexScanDesc scan, int array_elem,
										  const char *entry,
										  const BpSlotDesc *desc);

#endif							/* BPPARALLEL_H */
