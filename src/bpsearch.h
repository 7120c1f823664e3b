/*-------------------------------------------------------------------------
 *
 * bpsearch.h
 *	  The descent of the tree, and the predicates that steer it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPSEARCH_H
#define BPSEARCH_H

#include "storage/bufmgr.h"
#include "utils/relcache.h"

#include "bpslot.h"

/* Monotone predicate over slots used to steer a descent. */
typedef bool (*BpGoRightFn) (const void *slot, void *arg);

extern bool bp_pivot_at_or_before(const void *slot, void *arg);
extern bool bp_before_bound(const void *slot, void *arg);
extern bool bp_never_right(const void *slot, void *arg);
extern Buffer bp_descend(Relation index, BpGoRightFn go_right, void *arg,
						 int lockmode);

/*
 * A scan's copy of the level-1 page that its descents keep going through
 * (a skip scan's, an = ANY scan's, a nested loop's rescans): a descent
 * whose key lies within the copy's fences takes its child link straight to
 * the leaf, which is then checked as a stale link from a parent would be.
 */
typedef struct BpParentCopy
{
	BlockNumber last_parent;	/* the level-1 page of the last full descent */
	BlockNumber copied;			/* the page that page copies, or invalid */
	char	   *page;			/* BLCKSZ bytes, allocated at the first copy */
	MemoryContext cxt;			/* where page is allocated */
	bool		eager;			/* copy at the first descent through a page
								 * (a scan that will descend many times),
								 * not at the second in a row */
	bool		used;			/* a descent started from the copy */
	int			unused_copies;	/* copies replaced before any use */
} BpParentCopy;

extern void bp_parent_copy_init(BpParentCopy *copy);
extern void bp_parent_copy_free(BpParentCopy *copy);
extern Buffer bp_descend_via_copy(Relation index, BpParentCopy *copy,
								  BpGoRightFn go_right, void *arg,
								  int lockmode);
extern Buffer bp_read_leaf_again(Relation index, BlockNumber blkno,
								 BpGoRightFn go_right, void *arg, int lockmode);
extern Buffer bp_descend_to_level(Relation index, BpGoRightFn go_right,
								  void *arg, int lockmode,
								  uint16 target_level);
extern int	bp_choose_child(Page page, const BpSlotDesc *desc,
							BpGoRightFn go_right, void *arg);
extern int	bp_gettreeheight(Relation index);

extern Buffer bp_read_next_leaf(Relation index, const BpSlotDesc *desc,
								BlockNumber blkno, const char *highkey);

#endif							/* BPSEARCH_H */
