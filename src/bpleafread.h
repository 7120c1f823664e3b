/*-------------------------------------------------------------------------
 *
 * bpleafread.h
 *	  Reading a leaf: its entries in order, ranges bounded by scan keys,
 *	  copies for scans, dead entries for VACUUM, walks for inspection.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPLEAFREAD_H
#define BPLEAFREAD_H

#include "storage/itemptr.h"

#include "bpa.h"
#include "bpleaf.h"
#include "bpleafcodec.h"
#include "bpscankey.h"

/* Visit of one slot of a leaf by bp_leaf_walk. */
typedef void (*BpLeafWalkFn) (const char *section, int block,
							  const char *slot, void *arg);

/* The part of a range bp_leaf_sorted_part copies (bpa.h's BpaPart). */
typedef struct BpLeafPart
{
	int			max_blocks;		/* blocks of the range to copy at most */
	bool		forward;		/* from the range's start, else its end */
	bool		was_cut;		/* set: the copy stops at cut */
	char	   *cut;			/* receives the logical slot where it stops */
} BpLeafPart;

extern int	bp_leaf_sorted(BpLeaf *leaf, BpaPredicateFn before_start,
						   BpaPredicateFn after_end, void *arg,
						   bool dead_marks, char *out, BpLeafWork *work);
extern int	bp_leaf_sorted_part(BpLeaf *leaf, BpaPredicateFn before_start,
								BpaPredicateFn after_end, void *arg,
								bool dead_marks, BpLeafPart *part, char *out,
								BpLeafWork *work);
extern bool bp_leaf_nearest(BpLeaf *leaf, BpaPredicateFn excluded, void *arg,
							bool forward, char *out, BpLeafWork *work);
extern void bp_leaf_map(BpLeaf *leaf, BpaPredicateFn before_start,
						BpaPredicateFn after_end, void *arg, bool dead_marks,
						BpaVisitFn visit, void *visit_arg, BpLeafWork *work);
extern int	bp_leaf_copy_range(BpLeaf *leaf, const BpScanKeys *keys,
							   bool dead_marks, char *out, BpLeafWork *work);
extern int	bp_leaf_range_tids(BpLeaf *leaf, const BpScanKeys *keys,
							   bool skip_dead, ItemPointerData *out,
							   BpLeafWork *work);
extern int	bp_leaf_tids(BpLeaf *leaf, bool skip_dead, ItemPointerData *out);
extern int	bp_leaf_collect_dead(BpLeaf *leaf, bool marked_only,
								 bool (*callback) (ItemPointer, void *),
								 void *state, char *out);
extern void bp_leaf_walk(BpLeaf *leaf, BpLeafWalkFn walk, void *arg,
						 BpLeafWork *work);

#endif							/* BPLEAFREAD_H */
