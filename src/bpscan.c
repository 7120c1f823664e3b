/*-------------------------------------------------------------------------
 *
 * bpscan.c
 *	  Ordered scans (iterate_range): amgettuple, the scan's state, mark and
 *	  restore; leaves are copied into positions by bpscanpos.c, skip scans
 *	  walk prefixes in bpskip.c, bitmap scans are in bpbitmap.c.
 *
 * An ordered scan copies one leaf at a time, under a shared content lock,
 * into backend memory in sorted order (bpa_sorted merges the log with the
 * blocks, sorting only the blocks whose sorted bit is clear), releases the
 * lock and returns entries from the copy.  Forward it follows right-links;
 * backward it descends again to the leaf just before the current leaf's
 * low key.  A bitmap scan maps over each leaf under its lock without any
 * sorting.  The participants of a parallel scan take its leaves one at a
 * time (bpparallel.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "access/relscan.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "bpleaf.h"
#include "bpparallel.h"
#include "bpscan.h"
#include "bpscankey.h"
#include "bpscanpos.h"
#include "bpskip.h"
#include "bpslot.h"
#include "bpstate.h"

/* Start a scan. */
IndexScanDesc
bp_beginscan(Relation index, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(index, nkeys, norderbys);
	BpIndexState *state = bp_get_state(index);
	BpScanOpaque so = palloc0(sizeof(BpScanOpaqueData));

	so->desc = state->desc;
	so->keys.desc = &so->desc;
	/* each key may become two, and a skip scan adds one per column */
	so->keys.keys = palloc(sizeof(BpScanKey) * (2 * nkeys + INDEX_MAX_KEYS));
	so->keys.filters = palloc(sizeof(BpScanFilter) * Max(nkeys, 1));
	/* the mark and the probe are allocated when a merge or skip needs them */
	so->scan_cxt = CurrentMemoryContext;
	bp_parent_copy_init(&so->parent_copy);
	bp_pos_alloc(&so->pos, &so->desc);
	bp_leaf_work_init(&so->work, &so->desc);
	so->bound = palloc(so->desc.width);
	so->bound_keys = bp_keys_buffer(&so->desc);
	so->itup = palloc0(so->desc.has_keys ? BLCKSZ : so->desc.itup_size);
	so->killed = NULL;
	so->killed_capacity = 0;
	so->nkilled = 0;
	so->tuple_cxt = NULL;		/* created by the first tuple formed */
	so->formed = NULL;
	so->formed_slot = NULL;
	so->keys_cxt = AllocSetContextCreate(CurrentMemoryContext,
										 "bpindex scan keys",
										 ALLOCSET_SMALL_SIZES);
	scan->xs_itupdesc = RelationGetDescr(index);
	scan->opaque = so;
	return scan;
}

/*
 * Does every key column of keys have an = key (one value: a driving
 * array's current element counts) or an IS NULL key?
 */
static bool
every_column_pinned(const BpScanKeys *keys)
{
	for (int att = 0; att < keys->desc->natts; att++)
	{
		bool		pinned = false;

		for (int i = 0; i < keys->nkeys && !pinned; i++)
		{
			const BpScanKey *key = &keys->keys[i];

			pinned = key->attno == att &&
				((key->flags == 0 && key->strategy == BTEqualStrategyNumber) ||
				 (key->flags & SK_SEARCHNULL));
		}
		if (!pinned)
			return false;
	}
	return true;
}

/*
 * Do all entries that keys can return have the same index tuple, their
 * heap TIDs apart: one key column, no INCLUDE column, and one value whose
 * equal values are the same bytes (= on text or bytea, not an array's
 * elements in turn), or IS NULL?
 */
static bool
entries_share_tuple(const BpScanKeys *keys)
{
	const BpScanKey *key = &keys->keys[0];

	if (keys->desc->ncolumns != 1 || keys->nkeys != 1 || keys->nfilters != 0 ||
		keys->drive_key >= 0 || keys->nskip != 0)
		return false;
	return keys->point_bytes || (key->flags & SK_SEARCHNULL) != 0;
}

/* (Re)start a scan with new keys. */
void
bp_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
		  ScanKey orderbys, int norderbys)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	MemoryContext old;

	bp_scan_kill_entries(scan);
	if (scankey && scan->numberOfKeys > 0)
		memmove(scan->keyData, scankey, scan->numberOfKeys * sizeof(ScanKeyData));
	MemoryContextReset(so->keys_cxt);
	old = MemoryContextSwitchTo(so->keys_cxt);
	bp_prepare_keys(scan->indexRelation, scan->keyData, scan->numberOfKeys,
					scan->parallel_scan != NULL, &so->keys);
	MemoryContextSwitchTo(old);
	/* skip scans and driving arrays descend again and again */
	so->parent_copy.eager = so->keys.nskip > 0 || so->keys.drive_key >= 0;
	so->guess_leaf = InvalidBlockNumber;
	so->leaf_guesses = 0;
	so->guess_held = false;
	so->range_only = false;
	so->first_part = false;
	so->point = so->keys.nkeys > 0 && so->keys.keys[0].attno == 0 &&
		so->keys.nskip == 0 &&
		(so->keys.keys[0].strategy == BTEqualStrategyNumber ||
		 (so->keys.keys[0].flags & SK_SEARCHNULL));
	so->point_equal = so->point && every_column_pinned(&so->keys);
	so->same_tuple = entries_share_tuple(&so->keys);
	so->shared_tuple = NULL;
	bp_scan_release_pos(&so->pos);
	bp_scan_release_pos(&so->mark);
	bp_scan_release_pos(&so->probe);
	if (so->keys.nskip > 0 && !bp_pos_allocated(&so->probe))
		bp_pos_alloc_in(&so->probe, &so->desc, so->scan_cxt);
}

/* End a scan. */
void
bp_endscan(IndexScanDesc scan)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	bp_scan_kill_entries(scan);
	bp_scan_release_pos(&so->pos);
	bp_scan_release_pos(&so->mark);
	bp_scan_release_pos(&so->probe);
	if (so->tuple_cxt)
		MemoryContextDelete(so->tuple_cxt);
	MemoryContextDelete(so->keys_cxt);
	bp_pos_free(&so->pos);
	if (bp_pos_allocated(&so->mark))
		bp_pos_free(&so->mark);
	if (bp_pos_allocated(&so->probe))
		bp_pos_free(&so->probe);
	if (so->bound_keys)
		pfree(so->bound_keys);
	if (so->done_keys)
		pfree(so->done_keys);
	bp_parent_copy_free(&so->parent_copy);
	bp_leaf_work_free(&so->work);
	pfree(so->bound);
	pfree(so->itup);
	if (so->killed)
		pfree(so->killed);
	pfree(so->keys.keys);
	pfree(so->keys.filters);
	pfree(so);
	scan->opaque = NULL;
}

/*
 * Start the primitive scan of the driving array's next element in the
 * scan direction, if there is one: in a skip scan's whole copy of the
 * leaf, or in the position's leaf read again, when the element's range
 * starts there.
 */
static bool
next_array_element(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	int			elem = bp_following_element(&so->keys, so->pos.array_elem, dir);

	if (elem < 0)
		return false;
	if (so->pos.whole)
	{
		/* a skip scan's copy holds the element's range if it starts here */
		bp_set_array_element(&so->keys, elem);
		so->pos.array_elem = elem;
		bp_pos_find_range(so, &so->pos, dir);
		if (!bp_range_beyond_leaf(so, dir))
			return true;
	}
	bp_scan_kill_entries(scan);
	bp_scan_element_leaf(scan, dir, elem);
	return true;
}

/*
 * Start the scan in the scan direction: the first leaf of its range, or
 * of its first prefix's.  False when a skip scan finds no prefix.
 */
static bool
start_scan(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	if (so->keys.nskip == 0)
	{
		bp_scan_first_leaf(scan, dir, ScanDirectionIsForward(dir) ? 0 :
				   so->keys.drive_nelems - 1);
		return true;
	}
	return bp_skip_first_prefix(scan, dir);
}

/*
 * Move the position to the next leaf in the scan direction.  Returns
 * false when no further leaf can hold entries of the range.
 */
static bool
step_leaf(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;

	if (!bp_has_next_leaf(so, dir))
		return false;
	bp_scan_kill_entries(scan);
	bp_slot_copy_keys(&so->desc, ScanDirectionIsForward(dir) ? pos->highkey :
					  pos->lowkey, so->bound, so->bound_keys, false);
	if (pos->partial)
		bp_scan_load_rest(scan, dir);
	else
		bp_scan_load_adjacent_leaf(scan, pos, dir, pos->blkno, pos->rightlink);
	if (pos->filtering)
		bp_skip_resume(scan, dir);
	return true;
}

/*
 * A participant of a parallel scan: load the next leaf of the scan that
 * no other participant has taken (a skip scan's, bp_skip_parallel_leaf),
 * and tell the others where the scan stands after it.  False when no leaf
 * is left.
 */
static bool
parallel_next_leaf(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	BpParallelNext next;
	int			elem;

	bp_scan_kill_entries(scan);
	if (!bp_parallel_seize(scan, &next, so->bound, so->bound_keys))
		return false;
	if (next.started || next.next_prefix)
		bp_slot_resolve_offsets(&so->desc, so->bound, so->bound_keys);
	if (so->keys.nskip > 0)
		return bp_skip_parallel_leaf(scan, dir, &next);
	elem = next.array_elem;
	if (elem < 0)
		elem = ScanDirectionIsForward(dir) ? 0 : so->keys.drive_nelems - 1;
	if (!next.started)
		bp_scan_first_leaf(scan, dir, elem);
	else
	{
		if (so->keys.drive_key >= 0)
			bp_set_array_element(&so->keys, elem);
		bp_scan_load_adjacent_leaf(scan, pos, dir, next.leaf, next.rightlink);
		pos->array_elem = elem;
	}
	if (bp_has_next_leaf(so, dir))
		bp_parallel_release_after(scan, elem, pos->blkno, pos->rightlink,
								  ScanDirectionIsForward(dir) ? pos->highkey : pos->lowkey,
								  &so->desc);
	else
		bp_parallel_release_to_element(scan, bp_following_element(&so->keys, elem, dir));
	return true;
}

/*
 * Form in buf (BLCKSZ bytes) the index tuple of slot, which has keys and
 * no NULLs: the columns one after the other as heap_fill_tuple lays them
 * out (a key with a 1-byte header unaligned, others at their alignment),
 * which is how index tuples are read.
 */
static IndexTuple
form_keyed_tuple(const BpSlotDesc *desc, const char *slot, IndexTuple buf)
{
	Size		offset = IndexInfoFindDataOffset(0);

	for (int i = 0; i < desc->ncolumns; i++)
	{
		const char *field = slot + desc->att_offset[i];
		const char *value = field;
		Size		len = desc->att_len[i];

		if (len == (Size) -1)
		{
			value = bp_key_field_value(desc, NULL, field);
			len = VARSIZE_ANY(value);
		}
		if (desc->att_len[i] != -1 || !VARATT_IS_SHORT(value))
		{
			Size		aligned = att_align_nominal(offset, desc->att_align[i]);

			memset((char *) buf + offset, 0, aligned - offset);
			offset = aligned;
		}
		memcpy((char *) buf + offset, value, len);
		offset += len;
	}
	offset = MAXALIGN(offset);
	buf->t_tid = bp_slot_tid(slot);
	buf->t_info = (unsigned short) offset | INDEX_VAR_MASK;
	return buf;
}

/*
 * Do two slots of an index without keys hold the same values (their null
 * bits and column bytes; their heap TIDs and dead bits aside)?
 */
static bool
same_values(const BpSlotDesc *desc, const char *a, const char *b)
{
	uint16		flags = (uint16) ~(BP_TID_OFFSET_MASK | BP_TID_DEAD_BIT) & 0xFFFF;

	return (((const ItemPointerData *) a)->ip_posid & flags) ==
		(((const ItemPointerData *) b)->ip_posid & flags) &&
		memcmp(a + sizeof(ItemPointerData), b + sizeof(ItemPointerData),
			   desc->width - sizeof(ItemPointerData)) == 0;
}

/*
 * Form the index tuple of slot for an index-only scan.  Entries without
 * NULLs of fixed-length columns are copied into the scan's tuple buffer,
 * as are those with keys; others go through index_form_tuple, once for a
 * run of entries with the same values.
 */
static IndexTuple
form_new_tuple(IndexScanDesc scan, const char *slot)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	const BpSlotDesc *desc = so->keys.desc;
	MemoryContext old;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];
	IndexTuple	itup;
	bool		hasnull = false;

	for (int i = 0; i < desc->ncolumns; i++)
		hasnull |= bp_slot_isnull(desc, slot, i);
	if (desc->has_keys && !hasnull)
		return form_keyed_tuple(desc, slot, so->itup);
	if (desc->itup_direct && !hasnull)
	{
		itup = so->itup;
		itup->t_tid = bp_slot_tid(slot);
		itup->t_info = desc->itup_size;
		for (int i = 0; i < desc->ncolumns; i++)
			memcpy((char *) itup + desc->itup_att_offset[i],
				   slot + desc->att_offset[i], desc->att_len[i]);
		return itup;
	}
	if (so->formed != NULL && same_values(desc, slot, so->formed_slot))
	{
		/* a run of equal entries with NULLs (IS NULL): one tuple */
		so->formed->t_tid = bp_slot_tid(slot);
		return so->formed;
	}
	if (so->tuple_cxt == NULL)
		so->tuple_cxt = AllocSetContextCreate(so->scan_cxt, "bpindex scan tuples",
											  ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(so->tuple_cxt);
	MemoryContextReset(so->tuple_cxt);
	so->formed = NULL;
	bp_slot_deform(desc, slot, values, isnull);
	itup = index_form_tuple(scan->xs_itupdesc, values, isnull);
	if (!desc->has_keys)
	{
		so->formed = itup;
		so->formed_slot = palloc(desc->width);
		memcpy(so->formed_slot, slot, desc->width);
	}
	MemoryContextSwitchTo(old);
	return itup;
}

/*
 * The index tuple of slot for an index-only scan: the scan's shared tuple
 * with slot's heap TID where all its entries have one (same_tuple), else
 * formed (form_new_tuple).
 */
static IndexTuple
form_entry_tuple(IndexScanDesc scan, const char *slot)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	if (so->shared_tuple != NULL)
	{
		so->shared_tuple->t_tid = bp_slot_tid(slot);
		return so->shared_tuple;
	}
	if (!so->same_tuple)
		return form_new_tuple(scan, slot);
	so->shared_tuple = form_new_tuple(scan, slot);
	return so->shared_tuple;
}

/* Hand an entry to the executor: heap TID and, if wanted, the index tuple. */
static void
return_entry(IndexScanDesc scan, const char *slot)
{
	scan->xs_heaptid = bp_slot_tid(slot);
	scan->xs_recheck = false;
	if (scan->xs_want_itup)
		scan->xs_itup = form_entry_tuple(scan, slot);
}

/* Does the entry slot of the position match the scan's keys? */
static inline bool
entry_matches(BpScanOpaque so, const BpScanPos *pos, const char *slot)
{
	if (pos->filtering)
		return bp_test_outer_keys(&so->keys, slot);
	return so->keys.exact || bp_test_keys(&so->keys, slot) == BP_KEY_MATCH;
}

/*
 * The next entry of the scan in the scan direction that matches its keys,
 * or NULL at the end of the scan.
 */
const char *
bp_scan_next_entry(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	bool		forward = ScanDirectionIsForward(dir);
	int			step = forward ? 1 : -1;
	uint16		width = so->desc.width;

	if (!pos->valid)
	{
		if (scan->parallel_scan == NULL ? !start_scan(scan, dir) :
			!parallel_next_leaf(scan, dir))
			return NULL;
	}
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		while (pos->cur + step >= pos->lo && pos->cur + step < pos->hi)
		{
			const char *slot;

			pos->cur += step;
			slot = pos->items + (Size) pos->cur * width;
			if (scan->ignore_killed_tuples && bp_slot_dead(slot))
				continue;
			if (entry_matches(so, pos, slot))
				return slot;
		}
		if (scan->parallel_scan != NULL)
		{
			if (parallel_next_leaf(scan, dir))
				continue;
			pos->cur = forward ? pos->hi : pos->lo - 1;
			return NULL;
		}

		/*
		 * At the end of the range, the next element's range if any, else
		 * the next prefix's in a skip scan; else stay here, so a reversal
		 * works.  A leaf read whole ends at the end of the outer range.
		 */
		if (step_leaf(scan, dir))
			continue;
		if (so->keys.drive_in_prefix ? bp_skip_next_element(scan, dir) :
			!pos->filtering &&
			(next_array_element(scan, dir) ||
			 (so->keys.nskip > 0 && bp_skip_next_prefix(scan, dir))))
			continue;
		pos->cur = forward ? pos->hi : pos->lo - 1;
		return NULL;
	}
}

/* amgettuple: the next matching entry in the scan direction. */
bool
bp_gettuple(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	const char *slot;

	if (so->keys.unsatisfiable)
		return false;
	if (pos->valid && scan->kill_prior_tuple && pos->cur >= pos->lo &&
		pos->cur < pos->hi && so->nkilled < pos->nitems)
	{
		if (so->nkilled == so->killed_capacity)
		{
			so->killed_capacity = Max(64, 2 * so->killed_capacity);
			so->killed = so->killed ?
				repalloc(so->killed, sizeof(int) * so->killed_capacity) :
				palloc(sizeof(int) * so->killed_capacity);
		}
		so->killed[so->nkilled++] = pos->cur;
	}
	slot = bp_scan_next_entry(scan, dir);
	if (slot == NULL)
		return false;
	return_entry(scan, slot);
	return true;
}

/* Remember the current position for a merge join. */
void
bp_markpos(IndexScanDesc scan)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	bp_scan_kill_entries(scan);
	if (!bp_pos_allocated(&so->mark))
		bp_pos_alloc_in(&so->mark, &so->desc, so->scan_cxt);
	bp_pos_copy(&so->mark, &so->pos, &so->desc);
}

/* Return to the remembered position. */
void
bp_restrpos(IndexScanDesc scan)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	bp_scan_kill_entries(scan);
	bp_pos_copy(&so->pos, &so->mark, &so->desc);
	if (so->pos.valid && so->keys.nskip > 0)
	{
		if (so->pos.has_prefix)
			bp_set_prefix(&so->keys, so->pos.prefix);
		else
			bp_clear_prefix(&so->keys);
	}
	if (so->pos.valid && so->keys.drive_key >= 0)
		bp_set_array_element(&so->keys, so->pos.array_elem);
}
