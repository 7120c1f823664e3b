/*-------------------------------------------------------------------------
 *
 * bppagedel.h
 *	  Page deletion: unlinking empty leaves from the tree.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPPAGEDEL_H
#define BPPAGEDEL_H

#include "storage/block.h"
#include "utils/relcache.h"

extern bool bp_delete_empty_leaf(Relation index, BlockNumber blkno);

#endif							/* BPPAGEDEL_H */
