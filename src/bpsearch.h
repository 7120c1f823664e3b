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
