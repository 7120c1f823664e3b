/*-------------------------------------------------------------------------
 *
 * bpdead.c
 *	  Removing the entries of dead heap tuples from a leaf, WAL-logged: for
 *	  VACUUM (every entry the callback names) and for inserts that make room
 *	  in a full leaf (the entries scans marked dead, and bottom-up deletion
 *	  of the old versions that updates left behind).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/indexfsm.h"
#include "utils/rel.h"

#include "bpdead.h"
#include "bpleaf.h"
#include "bpleafread.h"
#include "bpstate.h"
#include "bpxlog.h"

/*
 * Remove from the exclusively locked leaf in buf the entries (with
 * marked_only, the entries carrying a dead mark) whose heap TID the
 * callback reports dead, WAL-logged as a record of kind (BP_XLOG_VACUUM or
 * BP_XLOG_DEAD); returns how many it removed.
 */
int
bp_remove_dead_entries(Relation index, Buffer buf, bool marked_only,
					   bool (*callback) (ItemPointer, void *), void *arg,
					   uint8 kind)
{
	BpIndexState *state = bp_get_state(index);
	BpLeaf		leaf;
	PGAlignedBlock copy;
	int			n;

	bp_leaf_open(&leaf, BufferGetPage(buf), &state->desc);
	n = bp_leaf_collect_dead(&leaf, marked_only, callback, arg,
							 state->work.stored);
	if (n == 0)
		return 0;
	memcpy(copy.data, BufferGetPage(buf), BLCKSZ);
	bp_leaf_open(&leaf, copy.data, &state->desc);
	if (!bp_leaf_remove_stored(&leaf, state->work.stored, n))
		elog(ERROR, "entry vanished from bpindex index \"%s\" while removing dead entries",
			 RelationGetRelationName(index));
	bp_install_page(index, buf, copy.data, kind);
	return n;
}

/* A sorted array of heap TIDs. */
typedef struct TidSet
{
	ItemPointerData *tids;
	int			ntids;
} TidSet;

/* Is tid in the TidSet arg? */
static bool
tid_in_set(ItemPointer tid, void *arg)
{
	TidSet	   *set = (TidSet *) arg;

	return bsearch(tid, set->tids, set->ntids, sizeof(ItemPointerData),
				   (int (*) (const void *, const void *)) ItemPointerCompare) != NULL;
}

/*
 * Copy the leaf's n entries in key order into sorted, and collect as
 * promising the heap TIDs of those whose key another entry or slot
 * shares: versions that updates left behind, whose newer versions carry
 * the same key (nbtree's duplicates).  Returns them sorted by TID.
 */
static TidSet
duplicate_key_tids(BpLeaf *leaf, BpIndexState *state, const char *slot,
				   char *sorted, int n)
{
	const BpSlotDesc *desc = &state->desc;
	TidSet		set;

	n = bp_leaf_sorted(leaf, NULL, NULL, NULL, false, sorted, &state->work);
	set.tids = palloc(sizeof(ItemPointerData) * Max(n, 1));
	set.ntids = 0;
	for (int i = 0; i < n; i++)
	{
		const char *entry = sorted + (Size) i * desc->width;

		if ((i > 0 && bp_compare_slot_keys(desc, entry, entry - desc->width) == 0) ||
			(i + 1 < n && bp_compare_slot_keys(desc, entry, entry + desc->width) == 0) ||
			bp_compare_slot_keys(desc, entry, slot) == 0)
			set.tids[set.ntids++] = bp_slot_tid(entry);
	}
	qsort(set.tids, set.ntids, sizeof(ItemPointerData),
		  (int (*) (const void *, const void *)) ItemPointerCompare);
	return set;
}

/*
 * Ask the table AM which of the n entries with heap TIDs tids are dead to
 * every snapshot, in a bottom-up pass that favours the promising ones:
 * returns them as a sorted TidSet, and their newest deleting XID in
 * *horizon.
 */
static TidSet
deletable_tids(Relation index, Relation heap, BlockNumber blkno,
			   ItemPointerData *tids, int n, const TidSet *promising,
			   int entry_bytes, TransactionId *horizon)
{
	TM_IndexDeleteOp delstate;
	TidSet		deletable;

	delstate.irel = index;
	delstate.iblknum = blkno;
	delstate.bottomup = true;
	delstate.bottomupfreespace = Max(BLCKSZ / 16, entry_bytes);
	delstate.ndeltids = n;
	delstate.deltids = palloc(sizeof(TM_IndexDelete) * n);
	delstate.status = palloc(sizeof(TM_IndexStatus) * n);
	for (int i = 0; i < n; i++)
	{
		delstate.deltids[i].tid = tids[i];
		delstate.deltids[i].id = i;
		delstate.status[i].idxoffnum = (OffsetNumber) Min(i + 1, MaxOffsetNumber);
		delstate.status[i].knowndeletable = false;
		delstate.status[i].promising = tid_in_set(&tids[i], (void *) promising);
		delstate.status[i].freespace = entry_bytes;
	}
	*horizon = table_index_delete_tuples(heap, &delstate);
	deletable.tids = palloc(sizeof(ItemPointerData) * Max(delstate.ndeltids, 1));
	deletable.ntids = 0;
	for (int i = 0; i < delstate.ndeltids; i++)
		if (delstate.status[delstate.deltids[i].id].knowndeletable)
			deletable.tids[deletable.ntids++] = delstate.deltids[i].tid;
	qsort(deletable.tids, deletable.ntids, sizeof(ItemPointerData),
		  (int (*) (const void *, const void *)) ItemPointerCompare);
	pfree(delstate.deltids);
	pfree(delstate.status);
	return deletable;
}

/*
 * Bottom-up deletion, before the exclusively locked leaf in buf splits
 * under the insert of slot, whose key an update left unchanged (aminsert's
 * indexUnchanged): the table AM checks the heap blocks of the leaf's
 * entries with duplicate keys first (rows' older versions) and names the
 * entries whose tuples every snapshot sees as dead; those are removed,
 * after a record that lets standbys resolve the conflict with snapshots
 * that could still see them.  True if any was removed.
 */
bool
bp_remove_old_versions(Relation index, Relation heap, Buffer buf,
					   const char *slot)
{
	BpIndexState *state = bp_get_state(index);
	BpLeaf		leaf;
	int			n;
	ItemPointerData *tids;
	char	   *sorted;
	TidSet		promising;
	TidSet		deletable;
	TransactionId horizon;
	int			removed = 0;

	bp_leaf_open(&leaf, BufferGetPage(buf), &state->desc);
	n = bp_leaf_count(&leaf);
	if (n == 0)
		return false;
	sorted = palloc((Size) n * state->desc.width);
	promising = duplicate_key_tids(&leaf, state, slot, sorted, n);
	pfree(sorted);
	if (promising.ntids == 0)
	{
		pfree(promising.tids);
		return false;
	}
	tids = palloc(sizeof(ItemPointerData) * n);
	n = bp_leaf_tids(&leaf, false, tids);
	deletable = deletable_tids(index, heap, BufferGetBlockNumber(buf), tids, n,
							   &promising, leaf.width, &horizon);
	if (deletable.ntids > 0)
	{
		bp_xlog_horizon(index, BufferGetBlockNumber(buf), horizon);
		removed = bp_remove_dead_entries(index, buf, false, tid_in_set,
										 &deletable, BP_XLOG_DEAD);
	}
	pfree(tids);
	pfree(promising.tids);
	pfree(deletable.tids);
	return removed > 0;
}
