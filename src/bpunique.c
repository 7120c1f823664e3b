/*-------------------------------------------------------------------------
 *
 * bpunique.c
 *	  Unique indexes: the check an insert makes before it adds its entry,
 *	  and the check CREATE INDEX makes of its sorted entries.
 *
 * Entries are ordered by (key, heap TID), so the entries of one key lie
 * side by side, from the leaf that holds (key, lowest TID) on to the
 * right.  An insert into a unique index locks that first leaf exclusively,
 * reads the key's entries there and, while it holds that lock, in the
 * leaves to its right (exclusively locked left to right, each released
 * once the next is locked, except the leaf the new entry belongs in), asks
 * the heap whether a row behind one is live, in progress or dead, and
 * inserts its entry before it releases the first leaf.  Every insert of
 * the same key takes the same first leaf first, so two are serialized as
 * btree serializes them: the second sees the first's entry, waits for its
 * transaction, then fails or goes on.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/tableam.h"
#include "storage/lmgr.h"
#include "storage/predicate.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "bpcompat.h"
#include "bpformat.h"
#include "bpleaf.h"
#include "bpleafread.h"
#include "bppage.h"
#include "bpstate.h"
#include "bpunique.h"

/*
 * Does a unique index check the entry of these values: not when a key
 * column is NULL, unless the index treats NULLs as equal (NULLS NOT
 * DISTINCT)?
 */
bool
bp_unique_applies(Relation index, const bool *isnull)
{
	if (index->rd_index->indnullsnotdistinct)
		return true;
	for (int i = 0; i < IndexRelationGetNumberOfKeyAttributes(index); i++)
		if (isnull[i])
			return false;
	return true;
}

/*
 * go_right that finds the first leaf that can hold a key: the pivot's
 * keys are below the bound's (whatever its heap TID).  Also the start of
 * the key's entries in a leaf.
 */
bool
bp_unique_first_leaf_step(const void *slot, void *arg)
{
	BpSlotBound *bound = (BpSlotBound *) arg;

	return bp_compare_slot_keys(bound->desc, slot, bound->key) < 0;
}

/*
 * Is the leaf, whose fences hold slot, the first leaf that can hold slot's
 * key: its low key (if any) below the key, whatever the TIDs?
 */
bool
bp_unique_leaf_is_first(const BpSlotDesc *desc, Page page, const char *slot)
{
	char		fence[BP_MAX_SLOT_WIDTH];

	return !(BpPageGetOpaque(page)->flags & BP_HAS_LOW) ||
		bp_compare_slot_keys(desc, bp_page_fence(desc, page, false, fence),
							 slot) < 0;
}

/* bp_leaf_sorted's end: entries whose keys are above the bound's. */
static bool
keys_above(const void *slot, void *arg)
{
	BpSlotBound *bound = (BpSlotBound *) arg;

	return bp_compare_slot_keys(bound->desc, slot, bound->key) > 0;
}

/*
 * What the row behind an entry of the key, at heap TID tid, says: live,
 * written by a transaction in progress, or dead.  A live row is no
 * conflict if the row being inserted is itself dead by now (CREATE INDEX
 * CONCURRENTLY inserts the entries of rows deleted since).
 */
static BpUniqueVerdict
row_verdict(BpUniqueCheck *check, ItemPointerData tid, BlockNumber blkno)
{
	SnapshotData dirty;
	ItemPointerData own = bp_slot_tid(check->slot);
	ItemPointerData found = tid;

	InitDirtySnapshot(dirty);
	if (!table_index_fetch_tuple_check(check->heap, &found, &dirty, NULL))
		return BP_UNIQUE_FREE;
	if (check->mode == UNIQUE_CHECK_PARTIAL)
		return BP_UNIQUE_TAKEN;
	check->xwait = TransactionIdIsValid(dirty.xmin) ? dirty.xmin : dirty.xmax;
	if (TransactionIdIsValid(check->xwait))
	{
		check->speculative_token = dirty.speculativeToken;
		return BP_UNIQUE_WAIT;
	}
	if (!table_index_fetch_tuple_check(check->heap, &own, SnapshotSelf, NULL))
		return BP_UNIQUE_FREE;
	/* a serializable transaction learns of the conflict it would cause */
	CheckForSerializableConflictIn(check->index, &tid, blkno);
	return BP_UNIQUE_TAKEN;
}

/*
 * Check the entries of the slot's key in one locked leaf, skipping those
 * already marked dead.
 */
static BpUniqueVerdict
check_leaf(BpUniqueCheck *check, Buffer buf)
{
	BpIndexState *state = bp_get_state(check->index);
	BpSlotBound bound = {&state->desc, check->slot};
	ItemPointerData own = bp_slot_tid(check->slot);
	BpUniqueVerdict verdict = BP_UNIQUE_FREE;
	BpLeaf		leaf;
	char		nearest[BP_MAX_SLOT_WIDTH];
	char	   *entries;
	int			n;

	bp_leaf_open(&leaf, BufferGetPage(buf), &state->desc);
	n = bp_leaf_count(&leaf);
	if (n == 0)
		return BP_UNIQUE_FREE;
	/* the usual case, no entry of the key, reads the log and one block */
	if (!bp_leaf_nearest(&leaf, bp_unique_first_leaf_step, &bound, true,
						 nearest, &state->work) ||
		bp_compare_slot_keys(&state->desc, nearest, check->slot) != 0)
		return BP_UNIQUE_FREE;
	entries = palloc((Size) n * state->desc.width);
	n = bp_leaf_sorted(&leaf, bp_unique_first_leaf_step, keys_above, &bound,
					   true, entries, &state->work);
	for (int i = 0; i < n && verdict == BP_UNIQUE_FREE; i++)
	{
		const char *entry = entries + (Size) i * state->desc.width;
		ItemPointerData tid = bp_slot_tid(entry);

		if (bp_slot_dead(entry))
			continue;
		if (check->mode == UNIQUE_CHECK_EXISTING && ItemPointerEquals(&tid, &own))
		{
			check->found_self = true;
			continue;
		}
		verdict = row_verdict(check, tid, BufferGetBlockNumber(buf));
	}
	pfree(entries);
	return verdict;
}

/* Does the slot belong in the leaf: below its high key, if it has one? */
static bool
slot_below_high_key(const BpSlotDesc *desc, Page page, const char *slot)
{
	char		fence[BP_MAX_SLOT_WIDTH];

	return !(BpPageGetOpaque(page)->flags & BP_HAS_HIGH) ||
		bp_compare_slots(slot, bp_page_fence(desc, page, true, fence),
						 (void *) desc) < 0;
}

/* May entries of the slot's key follow in the leaf to the right? */
static bool
key_continues_right(const BpSlotDesc *desc, Page page, const char *slot)
{
	char		fence[BP_MAX_SLOT_WIDTH];

	return (BpPageGetOpaque(page)->flags & BP_HAS_HIGH) &&
		bp_compare_slot_keys(desc, bp_page_fence(desc, page, true, fence),
							 slot) <= 0;
}

/* Release a leaf of the walk unless it is the first or the target. */
static void
release_walked(BpUniqueCheck *check, Buffer buf, Buffer first)
{
	if (buf != first && buf != check->target)
		UnlockReleaseBuffer(buf);
}

/*
 * Check the entries of the slot's key, from the exclusively locked first
 * leaf that can hold it (found with bp_unique_first_leaf_step) on to the
 * right.  On BP_UNIQUE_FREE, check->target is the leaf the slot belongs
 * in, exclusively locked (first itself, or a leaf to its right that the
 * caller releases after the insert); otherwise only first stays locked.
 */
BpUniqueVerdict
bp_unique_check(BpUniqueCheck *check, Buffer first)
{
	const BpSlotDesc *desc = &bp_get_state(check->index)->desc;
	Buffer		buf = first;

	check->target = InvalidBuffer;
	check->found_self = false;
	for (;;)
	{
		Page		page = BufferGetPage(buf);
		BpUniqueVerdict verdict = check_leaf(check, buf);
		Buffer		next;

		if (!BufferIsValid(check->target) &&
			slot_below_high_key(desc, page, check->slot))
			check->target = buf;
		if (verdict != BP_UNIQUE_FREE)
		{
			release_walked(check, buf, first);
			if (BufferIsValid(check->target) && check->target != first)
				UnlockReleaseBuffer(check->target);
			check->target = InvalidBuffer;
			return verdict;
		}
		if (!key_continues_right(desc, page, check->slot))
			break;
		/* locked left to right; a locked left page keeps next undeleted */
		next = bp_read_buffer(check->index, BpPageGetOpaque(page)->rightlink,
							  BUFFER_LOCK_EXCLUSIVE);
		if (!(BpPageGetOpaque(BufferGetPage(next))->flags & BP_LEAF) ||
			bp_page_deleted(BufferGetPage(next)))
			bp_report_corrupted(check->index, BufferGetBlockNumber(next),
								"A leaf's right-link leads to a page that is not a live leaf.");
		release_walked(check, buf, first);
		buf = next;
	}
	release_walked(check, buf, first);
	if (!BufferIsValid(check->target))
		bp_report_corrupted(check->index, BufferGetBlockNumber(first),
							"No leaf to the right of the key's first leaf takes its entry.");
	return BP_UNIQUE_FREE;
}

/* Wait for the transaction (or speculative insertion) a check found. */
void
bp_unique_wait(BpUniqueCheck *check)
{
	ItemPointerData own = bp_slot_tid(check->slot);

	if (check->speculative_token != 0)
		SpeculativeInsertionWait(check->xwait, check->speculative_token);
	else
		XactLockTableWait(check->xwait, check->index, &own, XLTW_InsertIndex);
}

/*
 * Report an insert's key as taken, as btree does; no buffer lock may be
 * held (the description may read catalogs).
 */
void
bp_unique_report_violation(Relation index, Relation heap, Datum *values,
						   bool *isnull)
{
	char	   *key_desc = BuildIndexValueDescription(index, values, isnull);

	ereport(ERROR,
			(errcode(ERRCODE_UNIQUE_VIOLATION),
			 errmsg("duplicate key value violates unique constraint \"%s\"",
					RelationGetRelationName(index)),
			 key_desc ? errdetail("Key %s already exists.", key_desc) : 0,
			 errtableconstraint(heap, RelationGetRelationName(index))));
}

/*
 * A unique bpindex index (named name, or a hypothetical one) on a server
 * whose INSERT ... ON CONFLICT takes only btree arbiters is refused.
 */
void
bp_unique_refuse_if_unsupported(const char *name)
{
	if (bp_unique_indexes_supported)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 name ? errmsg("unique index \"%s\" cannot use access method \"bpindex\" on PostgreSQL %s",
						   name, PG_MAJORVERSION) :
			 errmsg("a hypothetical unique index cannot use access method \"bpindex\" on PostgreSQL %s",
					PG_MAJORVERSION),
			 errdetail("PostgreSQL %s's INSERT ... ON CONFLICT accepts only btree indexes as arbiters and fails with an internal error on a table with a unique index of another access method.",
					   PG_MAJORVERSION),
			 errhint("Enforce uniqueness with a btree index, or create the bpindex index without UNIQUE (unique bpindex indexes need PostgreSQL 18).")));
}

/* Start CREATE INDEX's check of a unique index's sorted entries. */
void
bp_unique_build_start(BpUniqueBuild *build, Relation index, Relation heap,
					  const BpSlotDesc *desc)
{
	build->index = index;
	build->heap = heap;
	build->desc = desc;
	build->nulls_distinct = !index->rd_index->indnullsnotdistinct;
	build->previous = palloc(MAXALIGN(desc->width));
	build->previous_keys = palloc(BP_KEYS_BUFSIZE);
	build->have_previous = false;
	build->maxrun = 16;
	build->run = palloc(sizeof(ItemPointerData) * build->maxrun);
	build->nrun = 0;
}

/* Does a NULL in a key column keep the entry out of the check? */
static bool
exempt_by_nulls(const BpUniqueBuild *build, const char *slot)
{
	if (!build->nulls_distinct)
		return false;
	for (int i = 0; i < build->desc->natts; i++)
		if (bp_slot_isnull(build->desc, slot, i))
			return true;
	return false;
}

/*
 * The run of entries with the previous entry's key ended: if two of its
 * rows are live (this transaction's own included), the index cannot be
 * built, as btree's build reports it.
 */
static void
check_run(BpUniqueBuild *build)
{
	int			live = 0;

	for (int i = 0; i < build->nrun && live < 2; i++)
	{
		ItemPointerData tid = build->run[i];

		if (table_index_fetch_tuple_check(build->heap, &tid, SnapshotSelf, NULL))
			live++;
	}
	if (live >= 2)
	{
		Datum		values[INDEX_MAX_KEYS];
		bool		isnull[INDEX_MAX_KEYS];
		char	   *key_desc;

		bp_slot_deform(build->desc, build->previous, values, isnull);
		key_desc = BuildIndexValueDescription(build->index, values, isnull);
		ereport(ERROR,
				(errcode(ERRCODE_UNIQUE_VIOLATION),
				 errmsg("could not create unique index \"%s\"",
						RelationGetRelationName(build->index)),
				 key_desc ? errdetail("Key %s is duplicated.", key_desc) :
				 errdetail("Duplicate keys exist."),
				 errtableconstraint(build->heap,
									RelationGetRelationName(build->index))));
	}
	build->nrun = 0;
}

/* The next entry in sorted order: extend the run of its key or end it. */
void
bp_unique_build_next(BpUniqueBuild *build, const char *slot)
{
	if (build->have_previous &&
		bp_compare_slot_keys(build->desc, slot, build->previous) == 0 &&
		!exempt_by_nulls(build, slot))
	{
		if (build->nrun == build->maxrun)
		{
			build->maxrun *= 2;
			build->run = repalloc(build->run,
								  sizeof(ItemPointerData) * build->maxrun);
		}
		build->run[build->nrun++] = bp_slot_tid(slot);
		return;
	}
	if (build->nrun >= 2)
		check_run(build);
	bp_slot_copy_keys(build->desc, slot, build->previous,
					  build->previous_keys, false);
	build->have_previous = true;
	build->run[0] = bp_slot_tid(slot);
	build->nrun = 1;
}

/* The last entry was seen: check the last run. */
void
bp_unique_build_finish(BpUniqueBuild *build)
{
	if (build->nrun >= 2)
		check_run(build);
	pfree(build->previous);
	pfree(build->previous_keys);
	pfree(build->run);
}
