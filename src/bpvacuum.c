/*-------------------------------------------------------------------------
 *
 * bpvacuum.c
 *	  VACUUM support: remove the entries of dead heap tuples, report stats.
 *
 * ambulkdelete walks the leaf level left to right, one leaf at a time
 * under a cleanup lock, and removes the entries whose heap TID the
 * callback reports dead from the log and the blocks of the BPA, WAL-logged
 * as the byte ranges that changed (bpxlog.c).  The cleanup lock is taken
 * on every leaf, changed or not: a scan that keeps the pin of a leaf whose
 * entries it is still returning (bpscan.c) thereby holds VACUUM up until
 * it moves on, so the heap cannot reuse those entries' TIDs or mark their
 * pages all-visible in the meantime, even for entries a split has moved
 * to a leaf further right.
 *
 * A leaf the walk leaves empty (other than the rightmost) is deleted
 * right after its cleanup lock is released (bppagedel.c), and the walk
 * goes on from its remembered right-link.  amvacuumcleanup reads every
 * page of the index and records the deleted pages that no transaction can
 * reach any more in the free space map, from which splits take them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/indexfsm.h"
#include "utils/rel.h"

#include "bpcompat.h"
#include "bpdead.h"
#include "bpformat.h"
#include "bpleaf.h"
#include "bppage.h"
#include "bppagedel.h"
#include "bpsearch.h"
#include "bpslot.h"
#include "bpstate.h"
#include "bpvacuum.h"
#include "bpxlog.h"

/* Unchanged leaves a BP_XLOG_PINS record names, at most. */
#define PINS_PER_RECORD 1024

/* go_right that never moves right: descends to the leftmost leaf. */
static bool
leftmost(const void *slot, void *arg)
{
	return false;
}

/* Callback of a VACUUM for bp_leaf_collect_dead. */
typedef struct DeadCallback
{
	IndexBulkDeleteCallback callback;
	void	   *callback_state;
} DeadCallback;

/* Is the heap tuple of tid dead? */
static bool
tid_is_dead(ItemPointer tid, void *arg)
{
	DeadCallback *dead = (DeadCallback *) arg;

	return dead->callback(tid, dead->callback_state);
}

/*
 * Remove the dead entries of one leaf, locked for cleanup; returns its
 * entries left.
 */
static int
remove_dead(Relation index, Buffer buf, DeadCallback *dead,
			IndexBulkDeleteResult *stats)
{
	BpLeaf		leaf;

	stats->tuples_removed += bp_remove_dead_entries(index, buf, false,
													tid_is_dead, dead,
													BP_XLOG_VACUUM);
	bp_leaf_open(&leaf, BufferGetPage(buf), &bp_get_state(index)->desc);
	stats->num_index_tuples += bp_leaf_count(&leaf);
	return bp_leaf_count(&leaf);
}

/* ambulkdelete: remove the entries of dead heap tuples, leaf by leaf. */
IndexBulkDeleteResult *
bp_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
			  IndexBulkDeleteCallback callback, void *callback_state)
{
	Relation	index = info->index;
	DeadCallback dead;
	Buffer		buf;
	BlockNumber next;
	BlockNumber *unchanged = NULL;
	int			nunchanged = 0;

	bp_xlog_require(index);
	if (bp_xlog_pins_needed(index))
		unchanged = palloc(sizeof(BlockNumber) * PINS_PER_RECORD);
	if (stats == NULL)
		stats = palloc0(sizeof(IndexBulkDeleteResult));
	stats->num_index_tuples = 0;
	dead.callback = callback;
	dead.callback_state = callback_state;

	buf = bp_descend(index, leftmost, NULL, BUFFER_LOCK_SHARE);
	next = BufferGetBlockNumber(buf);
	UnlockReleaseBuffer(buf);
	/*
	 * the leftmost leaf stays the leftmost: splits only add pages right,
	 * and only this walk deletes leaves
	 */
	buf = bp_read_buffer_for_cleanup(index, next);
	for (;;)
	{
		BpPageOpaque opaque = BpPageGetOpaque(BufferGetPage(buf));
		bool		last = !(opaque->flags & BP_HAS_HIGH);
		bool		empty;
		double		removed;
		BlockNumber blkno = BufferGetBlockNumber(buf);

		next = opaque->rightlink;
		if (opaque->flags & BP_DELETED)
		{
			/* unlinked meanwhile (not by this walk): go on from it */
			UnlockReleaseBuffer(buf);
			bp_vacuum_delay_point();
			buf = bp_read_buffer_for_cleanup(index, next);
			continue;
		}
		removed = stats->tuples_removed;
		empty = remove_dead(index, buf, &dead, stats) == 0 && !last &&
			!(opaque->flags & BP_INCOMPLETE_SPLIT);
		if (unchanged && stats->tuples_removed == removed)
		{
			/* standbys take this leaf's cleanup lock too */
			unchanged[nunchanged++] = blkno;
			if (nunchanged == PINS_PER_RECORD)
			{
				bp_xlog_pins(index, unchanged, nunchanged);
				nunchanged = 0;
			}
		}
		UnlockReleaseBuffer(buf);
		if (empty && bp_delete_empty_leaf(index, blkno))
		{
			stats->pages_deleted++;
			stats->pages_newly_deleted++;
		}
		if (last)
			break;
		/* never sleep holding a leaf's lock */
		bp_vacuum_delay_point();
		buf = bp_read_buffer_for_cleanup(index, next);
	}
	if (unchanged)
	{
		bp_xlog_pins(index, unchanged, nunchanged);
		pfree(unchanged);
	}
	stats->num_pages = RelationGetNumberOfBlocks(index);
	return stats;
}

/* Count the entries of every leaf. */
static double
count_entries(Relation index)
{
	BpSlotDesc	desc = bp_get_state(index)->desc;
	double		total = 0;
	Buffer		buf = bp_descend(index, leftmost, NULL, BUFFER_LOCK_SHARE);

	for (;;)
	{
		Page		page = BufferGetPage(buf);
		BpPageOpaque opaque = BpPageGetOpaque(page);
		BlockNumber next = opaque->rightlink;
		bool		last = !(opaque->flags & BP_HAS_HIGH);

		if (!(opaque->flags & BP_DELETED))
		{
			BpLeaf		leaf;

			bp_leaf_open(&leaf, page, &desc);
			total += bp_leaf_count(&leaf);
		}
		UnlockReleaseBuffer(buf);
		if (last)
			break;
		bp_vacuum_delay_point();
		buf = bp_read_buffer(index, next, BUFFER_LOCK_SHARE);
	}
	return total;
}

/*
 * Read every page of the index: count the deleted ones, and record those
 * that no running transaction can reach any more (and pages left
 * uninitialized by a crash) in the free space map.
 */
static void
recycle_pages(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	Relation	index = info->index;
	uint16		width = bp_get_state(index)->desc.width;
	BlockNumber nblocks = RelationGetNumberOfBlocks(index);

	stats->pages_deleted = 0;
	stats->pages_free = 0;
	for (BlockNumber blkno = BP_METAPAGE_BLKNO + 1; blkno < nblocks; blkno++)
	{
		Buffer		buf;
		Page		page;

		bp_vacuum_delay_point();
		buf = ReadBufferExtended(index, MAIN_FORKNUM, blkno, RBM_NORMAL,
								 info->strategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!PageIsNew(page))
			bp_check_page(index, buf, page);
		if (!PageIsNew(page) && bp_page_deleted(page))
			stats->pages_deleted++;
		/* recorded under the lock: nobody reuses it meanwhile */
		if (bp_page_recyclable(page, width))
		{
			RecordFreeIndexPage(index, blkno);
			stats->pages_free++;
		}
		UnlockReleaseBuffer(buf);
	}
	IndexFreeSpaceMapVacuum(index);
}

/* amvacuumcleanup: recycle deleted pages, report pages and entries. */
IndexBulkDeleteResult *
bp_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	if (stats == NULL)
	{
		stats = palloc0(sizeof(IndexBulkDeleteResult));
		stats->num_index_tuples = count_entries(info->index);
	}
	recycle_pages(info, stats);
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->estimated_count = false;
	return stats;
}
