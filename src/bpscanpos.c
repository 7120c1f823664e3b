/*-------------------------------------------------------------------------
 *
 * bpscanpos.c
 *	  Scan positions: a leaf's entries copied for an ordered scan, loaded
 *	  by a descent or a step to the adjacent leaf, and the dead marks a
 *	  scan leaves on the leaf it moves away from.
 *
 * VACUUM deletes empty leaves (bppagedel.c), and a deleted page may be
 * reused once no snapshot is older than its deletion, so a saved link may
 * lead to a deleted page, or in principle to a reused one.  Steps check
 * the fences: a forward step accepts the leaf that holds the previous
 * leaf's high key, goes on through the right-link of a deleted page whose
 * low key is that key, and otherwise descends again to the leaf that
 * holds it; entries below it (in a leaf that took over a deleted leaf's
 * range, inserted after the step's snapshot) are skipped.  A backward
 * step descends by key anyway, and skips entries at or above the low key
 * it left.
 *
 * An index-only scan, a scan with a non-MVCC snapshot and a scan of an
 * index that writes no WAL keep the pin of the leaf whose entries they are
 * returning until they move on: VACUUM takes a cleanup lock on every leaf,
 * so it cannot finish removing entries (and then let the heap reuse their
 * TIDs or mark their pages all-visible) while such a scan still has some
 * to return.  Other scans drop the pin and remember the leaf's LSN.
 *
 * Like nbtree's LP_DEAD hints, entries whose heap tuples the executor
 * found dead to everyone (kill_prior_tuple) are remembered, and when the
 * scan leaves the leaf it marks them dead (bpleaf.c: hint bits outside
 * what WAL carries, never logged), but only if it kept the pin, or the
 * leaf's LSN shows that nothing changed it since it was copied: otherwise
 * VACUUM may have removed those entries and new rows reused their TIDs.
 * Scans then skip dead entries, except in transactions that started
 * during recovery.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relscan.h"
#include "pgstat.h"
#include "storage/predicate.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "bpasort.h"
#include "bpcompat.h"
#include "bpformat.h"
#include "bpleaf.h"
#include "bpleafread.h"
#include "bppage.h"
#include "bpscankey.h"
#include "bpscanpos.h"
#include "bpsearch.h"
#include "bpslot.h"
#include "bpstate.h"

/* Allocate the buffers of a scan position. */
void
bp_pos_alloc(BpScanPos *pos, const BpSlotDesc *desc)
{
	pos->capacity = 0;
	pos->items = NULL;
	pos->lowkey = palloc(desc->width);
	pos->highkey = palloc(desc->width);
	pos->keys = desc->has_keys ? palloc(BLCKSZ) : NULL;
	pos->key_cxt = desc->has_keys ?
		AllocSetContextCreate(CurrentMemoryContext, "bpindex scan position keys",
							  ALLOCSET_DEFAULT_SIZES) : NULL;
	pos->prefix = palloc(desc->width);
	pos->prefix_keys = bp_keys_buffer(desc);
	pos->has_prefix = false;
	pos->whole = false;
	pos->filtering = false;
	pos->buf = InvalidBuffer;
	pos->valid = false;
}

/* Allocate the buffers of a scan position in cxt. */
void
bp_pos_alloc_in(BpScanPos *pos, const BpSlotDesc *desc, MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);

	bp_pos_alloc(pos, desc);
	MemoryContextSwitchTo(old);
}

/* Have the buffers of a scan position been allocated? */
bool
bp_pos_allocated(const BpScanPos *pos)
{
	return pos->lowkey != NULL;
}

/* Free the buffers of a scan position (released). */
void
bp_pos_free(BpScanPos *pos)
{
	if (pos->items)
		pfree(pos->items);
	if (pos->keys)
	{
		pfree(pos->keys);
		MemoryContextDelete(pos->key_cxt);
	}
	pfree(pos->lowkey);
	pfree(pos->highkey);
	pfree(pos->prefix);
	if (pos->prefix_keys)
		pfree(pos->prefix_keys);
}

/* Make room for n slots in a scan position's items. */
static void
ensure_items(BpScanPos *pos, int n, uint16 width)
{
	if (n <= pos->capacity)
		return;
	pos->capacity = Max(n, 2 * pos->capacity);
	if (pos->items)
		pfree(pos->items);
	pos->items = palloc((Size) pos->capacity * width);
}

/* Drop the pin a scan position keeps, if any, and invalidate it. */
void
bp_scan_release_pos(BpScanPos *pos)
{
	if (BufferIsValid(pos->buf))
		ReleaseBuffer(pos->buf);
	pos->buf = InvalidBuffer;
	pos->valid = false;
}

/* Copy a scan position, items, keys and pin included. */
void
bp_pos_copy(BpScanPos *dst, const BpScanPos *src, const BpSlotDesc *desc)
{
	uint16		width = desc->width;
	char	   *items = dst->items;
	char	   *lowkey = dst->lowkey;
	char	   *highkey = dst->highkey;
	char	   *keys = dst->keys;
	MemoryContext key_cxt = dst->key_cxt;
	int			capacity = dst->capacity;
	char	   *prefix = dst->prefix;
	char	   *prefix_keys = dst->prefix_keys;

	bp_scan_release_pos(dst);
	*dst = *src;
	dst->items = items;
	dst->capacity = capacity;
	dst->lowkey = lowkey;
	dst->highkey = highkey;
	dst->keys = keys;
	dst->key_cxt = key_cxt;
	dst->prefix = prefix;
	dst->prefix_keys = prefix_keys;
	if (src->has_prefix)
		bp_slot_copy_keys(desc, src->prefix, dst->prefix, dst->prefix_keys, false);
	if (BufferIsValid(dst->buf))
		IncrBufferRefCount(dst->buf);
	if (!src->valid)
		return;
	ensure_items(dst, src->nitems, width);
	memcpy(dst->items, src->items, (Size) src->nitems * width);
	memcpy(dst->lowkey, src->lowkey, width);
	memcpy(dst->highkey, src->highkey, width);
	if (keys)
	{
		/* the slots' keys move to dst's copy of the leaf and context */
		memcpy(keys, src->keys, BLCKSZ);
		MemoryContextReset(key_cxt);
		bp_slots_rebase(desc, dst->items, dst->nitems, src->keys, keys, key_cxt);
		/* a fence the leaf lacks is all zeros, with no key to move */
		if (dst->flags & BP_HAS_LOW)
			bp_slots_rebase(desc, dst->lowkey, 1, src->keys, keys, NULL);
		if (dst->flags & BP_HAS_HIGH)
			bp_slots_rebase(desc, dst->highkey, 1, src->keys, keys, NULL);
	}
}

/*
 * Lock the leaf of the current position in share mode for marking its
 * entries dead, if that is still safe: with the pin kept since the copy,
 * or when the leaf's LSN shows it unchanged.  Returns InvalidBuffer when
 * nothing may be marked.
 */
static Buffer
lock_leaf_for_marks(IndexScanDesc scan)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Buffer		buf = so->pos.buf;

	if (BufferIsValid(buf))
		LockBuffer(buf, BUFFER_LOCK_SHARE);
	else
	{
		buf = ReadBuffer(scan->indexRelation, so->pos.blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		if (BufferGetLSNAtomic(buf) != so->pos.lsn)
		{
			UnlockReleaseBuffer(buf);
			return InvalidBuffer;
		}
	}
	bp_check_page(scan->indexRelation, buf, BufferGetPage(buf));
	return buf;
}

/*
 * Mark the remembered entries of the current leaf dead, as hints: under a
 * share lock, with MarkBufferDirtyHint and no WAL.
 */
void
bp_scan_kill_entries(IndexScanDesc scan)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	const BpSlotDesc *desc = &so->desc;
	Buffer		buf;
	Page		page;
	BpLeaf		leaf;
	int			marked = 0;

	if (so->nkilled == 0 || !so->pos.valid)
	{
		so->nkilled = 0;
		return;
	}
	buf = lock_leaf_for_marks(scan);
	so->nkilled = BufferIsValid(buf) ? so->nkilled : 0;
	if (so->nkilled == 0)
		return;
	page = BufferGetPage(buf);
	if ((BpPageGetOpaque(page)->flags & BP_LEAF) &&
		!(BpPageGetOpaque(page)->flags & BP_DELETED))
		bp_leaf_open(&leaf, page, desc);
	else
		so->nkilled = 0;
	for (int i = 0; i < so->nkilled; i++)
	{
		const char *slot = so->pos.items + (Size) so->killed[i] * desc->width;
		const char *stored = bp_leaf_find(&leaf, slot, so->work.stored);

		/* entries that moved right in a split since the copy are skipped */
		if (stored == NULL)
			continue;
		bp_leaf_set_dead_mark(&leaf, stored);
		marked++;
	}
	if (marked > 0)
		MarkBufferDirtyHint(buf, true);
	LockBuffer(buf, BUFFER_LOCK_UNLOCK);
	if (buf != so->pos.buf)
		ReleaseBuffer(buf);
	so->nkilled = 0;
}

/*
 * Blocks of its range that the first copy of a plain scan's first leaf
 * takes at most: enough for a LIMIT, or the planner's look at an end of
 * the index, without sorting and decoding the whole leaf.
 */
#define FIRST_PART_BLOCKS	2

/*
 * Skip scan: do the fences of the leaf of pos show that no entry of it
 * lies beyond the current prefix in the scan direction?
 */
static bool
leaf_within_prefix(BpScanOpaque so, const BpScanPos *pos, ScanDirection dir)
{
	if (!so->keys.prefix_set)
		return false;
	if (ScanDirectionIsForward(dir))
		return (pos->flags & BP_HAS_HIGH) &&
			bp_before_next_prefix(pos->highkey, &so->keys);
	return (pos->flags & BP_HAS_LOW) &&
		bp_after_prev_prefix(pos->lowkey, &so->keys);
}

/*
 * Copy into pos->items, in ascending order, the first FIRST_PART_BLOCKS
 * blocks' worth of the range in the scan direction: where the range goes
 * on beyond them in the leaf, the position's fence in the scan direction
 * becomes the cut (bp_scan_load_rest reads the rest).
 */
static int
copy_first_part(BpScanOpaque so, BpScanPos *pos, BpLeaf *leaf,
				bool dead_marks, ScanDirection dir)
{
	bool		forward = ScanDirectionIsForward(dir);
	BpLeafPart	part = {FIRST_PART_BLOCKS, forward, false,
	forward ? pos->highkey : pos->lowkey};
	int			n = bp_leaf_sorted_part(leaf, bp_below_range, bp_above_range,
										&so->keys, dead_marks, &part,
										pos->items, &so->work);

	if (part.was_cut)
	{
		pos->partial = true;
		pos->flags |= forward ? BP_HAS_HIGH : BP_HAS_LOW;
	}
	return n;
}

/*
 * Copy the entries of the locked leaf into pos->items in ascending order.
 * A point scan copies the range only (the log and one or two blocks) and
 * sorts that; other scans merge the range's part of the log with that of
 * the blocks that can hold entries of it (searching sorted blocks).  A
 * skip scan copies the leaf's part of its outer range whole, where the
 * next prefix may be sought, and else, in a leaf whose entries lie within
 * the current prefix in the scan direction or when asked to
 * (BpScanOpaqueData.range_only), the range.
 */
static int
copy_leaf_sorted(BpScanOpaque so, BpScanPos *pos, BpLeaf *leaf,
				 bool dead_marks, ScanDirection dir)
{
	int			n;

	ensure_items(pos, bp_leaf_count(leaf), so->desc.width);
	pos->whole = so->keys.nskip > 0 && !so->range_only &&
		(pos == &so->probe || pos->filtering ||
		 !leaf_within_prefix(so, pos, dir));
	so->range_only = false;
	if (pos->whole)
		return bp_leaf_sorted(leaf, bp_below_outer_range, bp_above_outer_range,
							  &so->keys, dead_marks, pos->items, &so->work);
	/* a leaf with dead marks (a queue's head) may have none live early */
	if (so->first_part && !leaf->keyed &&
		!(dead_marks && bp_leaf_has_dead_marks(leaf->page)))
		return copy_first_part(so, pos, leaf, dead_marks, dir);
	/* many entries may share the first column: sort them encoded */
	if (!so->point || (!so->point_equal && !leaf->keyed))
		return bp_leaf_sorted(leaf, bp_below_range, bp_above_range,
							  &so->keys, dead_marks, pos->items, &so->work);
	n = bp_leaf_copy_range(leaf, &so->keys, dead_marks, pos->items, &so->work);
	if (so->point_equal)
		bp_sort_slots_by_tid(so->keys.desc, pos->items, n);
	else
		bp_sort_slots(so->keys.desc, pos->items, n);
	return n;
}

/*
 * Must the scan keep the pin of the leaf whose entries it is returning?
 * Index-only scans (which may trust the visibility map instead of the
 * heap), non-MVCC snapshots (which may see a reused TID's new tuple) and
 * indexes without WAL (whose LSNs never change) keep it.
 */
static bool
scan_keeps_pin(IndexScanDesc scan)
{
	return scan->xs_want_itup || !IsMVCCSnapshot(scan->xs_snapshot) ||
		!RelationNeedsWAL(scan->indexRelation);
}

/* First of the position's sorted items at or above key. */
static int
first_at_or_above(const BpScanPos *pos, const BpSlotDesc *desc, const char *key)
{
	BpSlotBound bound = {desc, key};

	return bpa_first_true(pos->items, pos->nitems, desc->width,
						  bp_before_bound, &bound, true);
}

/*
 * Find the position's items [lo, hi) that are not outside the range (the
 * outer range while filtering) within [floor, ceil), and start before them
 * in the scan direction.
 */
void
bp_pos_find_range(BpScanOpaque so, BpScanPos *pos, ScanDirection dir)
{
	uint16		width = so->desc.width;
	BpaPredicateFn below = pos->filtering ? bp_below_outer_range : bp_below_range;
	BpaPredicateFn above = pos->filtering ? bp_above_outer_range : bp_above_range;

	pos->lo = bpa_first_true(pos->items, pos->nitems, width, below,
							 &so->keys, true);
	pos->hi = pos->lo + bpa_first_true(pos->items + (Size) pos->lo * width,
									   pos->nitems - pos->lo, width, above,
									   &so->keys, false);
	pos->lo = Min(pos->hi, Max(pos->lo, pos->floor));
	pos->hi = Max(pos->lo, Min(pos->hi, pos->ceil));
	pos->cur = ScanDirectionIsForward(dir) ? pos->lo - 1 : pos->hi;
}

/*
 * Start loading the locked leaf in buf into a scan position: its block,
 * LSN, flags, link and fences, opened as leaf.
 */
static void
begin_load(IndexScanDesc scan, BpScanPos *pos, Buffer buf, BpLeaf *leaf)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Page		page = BufferGetPage(buf);
	BpPageOpaque opaque = BpPageGetOpaque(page);

	bp_scan_release_pos(pos);
	pos->partial = false;
	pos->blkno = BufferGetBlockNumber(buf);
	pos->lsn = BufferGetLSNAtomic(buf);
	pos->flags = opaque->flags;
	pos->rightlink = opaque->rightlink;
	bp_leaf_open(leaf, page, &so->desc);
	if (pos->key_cxt)
		bp_leaf_rebuild_keys_in(leaf, pos->key_cxt);
	/* keys: the whole key area, or a point scan's few after the copy */
	if (!so->point)
		bp_leaf_copy_keys(leaf, pos->keys);
	bp_page_fence_into(&so->desc, page, bp_leaf_keys_page(leaf), false, pos->lowkey);
	bp_page_fence_into(&so->desc, page, bp_leaf_keys_page(leaf), true, pos->highkey);
}

/*
 * Finish loading the leaf in buf into a scan position whose items are
 * copied: unlock it (keeping the pin if the scan must), and find the items
 * [lo, hi) that are not outside the range, nor below from or at or above
 * to (either may be NULL).
 */
static void
end_load(IndexScanDesc scan, BpScanPos *pos, Buffer buf, ScanDirection dir,
		 const char *from, const char *to)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Page		page = BufferGetPage(buf);

	if (so->point && pos->keys)
	{
		bp_slots_detach_keys(&so->desc, pos->items, pos->nitems, page, pos->keys);
		if (pos->flags & BP_HAS_LOW)
			bp_slots_detach_keys(&so->desc, pos->lowkey, 1, page, pos->keys);
		if (pos->flags & BP_HAS_HIGH)
			bp_slots_detach_keys(&so->desc, pos->highkey, 1, page, pos->keys);
	}
	PredicateLockPage(scan->indexRelation, pos->blkno, scan->xs_snapshot);
	if (scan_keeps_pin(scan))
	{
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		pos->buf = buf;
	}
	else
		UnlockReleaseBuffer(buf);

	pos->floor = from ? first_at_or_above(pos, &so->desc, from) : 0;
	pos->ceil = to ? Max(pos->floor, first_at_or_above(pos, &so->desc, to)) :
		pos->nitems;
	pos->group_start = -1;
	pos->small_groups = 0;
	bp_pos_find_range(so, pos, dir);
	pos->valid = true;
}

/*
 * Copy the locked leaf in buf into a scan position, in sorted order, then
 * unlock it (keeping the pin if the scan must), and find the items
 * [lo, hi) that are not outside the range, nor below from or at or above
 * to (either may be NULL).
 */
void
bp_scan_load_leaf(IndexScanDesc scan, BpScanPos *pos, Buffer buf, ScanDirection dir,
		  const char *from, const char *to)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpLeaf		leaf;

	begin_load(scan, pos, buf, &leaf);
	if (scan->ignore_killed_tuples && bp_leaf_all_dead(&leaf))
	{
		/* a leaf of dead entries only (a queue's head): nothing to copy */
		pos->nitems = 0;
		pos->whole = false;
	}
	else
		pos->nitems = copy_leaf_sorted(so, pos, &leaf,
									   scan->ignore_killed_tuples, dir);
	end_load(scan, pos, buf, dir, from, to);
}

/*
 * Skip scan: copy into pos the range's part of the locked leaf in buf (the
 * range only, never the leaf whole) and, if that holds an entry, finish
 * loading it as bp_scan_load_leaf does; else return false with the leaf
 * still locked and pos invalid.
 */
bool
bp_scan_load_range_if_any(IndexScanDesc scan, BpScanPos *pos, Buffer buf,
						  ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpLeaf		leaf;

	begin_load(scan, pos, buf, &leaf);
	so->range_only = true;
	pos->nitems = copy_leaf_sorted(so, pos, &leaf, scan->ignore_killed_tuples,
								   dir);
	if (pos->nitems == 0)
		return false;
	end_load(scan, pos, buf, dir, NULL, NULL);
	return true;
}

/*
 * Load the locked leaf in buf into a scan position without copying it:
 * the caller found that it holds no entry of the range.
 */
void
bp_scan_load_leaf_empty(IndexScanDesc scan, BpScanPos *pos, Buffer buf,
				ScanDirection dir)
{
	BpLeaf		leaf;

	begin_load(scan, pos, buf, &leaf);
	pos->nitems = 0;
	pos->whole = false;
	end_load(scan, pos, buf, dir, NULL, NULL);
}

/*
 * A scan's descent to the leaf where go_right turns false on its keys,
 * share-locked, from its copy of the level-1 page when that can take it
 * there: one index search.
 */
Buffer
bp_scan_descend(IndexScanDesc scan, BpGoRightFn go_right)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpIntegerBound bound;
	void	   *arg = &so->keys;
	Buffer		buf;

	/* a range's side on integer columns: one comparison a column */
	if ((go_right == bp_below_range || go_right == bp_not_above_range) &&
		bp_integer_bound(&so->keys, go_right == bp_below_range, &bound))
	{
		go_right = go_right == bp_below_range ? bp_below_integer_bound :
			bp_not_above_integer_bound;
		arg = &bound;
	}
	buf = bp_descend_via_copy(scan->indexRelation, &so->parent_copy, go_right,
							  arg, BUFFER_LOCK_SHARE);
	bp_count_index_search(scan);
	return buf;
}

/*
 * Find the first leaf of the range in the scan direction; with a driving
 * array, the range of its element elem.
 */
void
bp_scan_first_leaf(IndexScanDesc scan, ScanDirection dir, int elem)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Buffer		buf;

	if (so->keys.drive_key >= 0)
		bp_set_array_element(&so->keys, elem);

	buf = bp_scan_descend(scan, ScanDirectionIsForward(dir) ? bp_below_range :
						  bp_not_above_range);
	so->pos.filtering = false;
	so->first_part = so->keys.nskip == 0 && so->keys.drive_key < 0 &&
		!so->point_equal && scan->parallel_scan == NULL;
	bp_scan_load_leaf(scan, &so->pos, buf, dir, NULL, NULL);
	so->first_part = false;
	so->pos.array_elem = elem;
}

/*
 * Does the range of the scan keys start inside the position's leaf, before
 * its fence in the scan direction?
 */
static bool
range_starts_in_leaf(BpScanOpaque so, ScanDirection dir)
{
	const BpScanPos *pos = &so->pos;

	if (!pos->valid)
		return false;
	if (ScanDirectionIsForward(dir))
		return !(pos->flags & BP_HAS_HIGH) ||
			!bp_below_range(pos->highkey, &so->keys);
	return !(pos->flags & BP_HAS_LOW) ||
		!bp_above_range(pos->lowkey, &so->keys);
}

/*
 * Find the first leaf of the range of the driving array's element elem,
 * which follows the position's in the scan direction: the position's leaf
 * again when the range starts there (moving right past a split since, as
 * a descent would), else by a descent.
 */
void
bp_scan_element_leaf(IndexScanDesc scan, ScanDirection dir, int elem)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Buffer		buf = InvalidBuffer;

	bp_set_array_element(&so->keys, elem);
	if (range_starts_in_leaf(so, dir))
		buf = bp_read_leaf_again(scan->indexRelation, so->pos.blkno,
								 ScanDirectionIsForward(dir) ? bp_below_range :
								 bp_not_above_range, &so->keys, BUFFER_LOCK_SHARE);
	if (!BufferIsValid(buf))
	{
		bp_scan_first_leaf(scan, dir, elem);
		return;
	}
	so->pos.filtering = false;
	bp_scan_load_leaf(scan, &so->pos, buf, dir, NULL, NULL);
	so->pos.array_elem = elem;
}

/*
 * The driving array's element after elem in the scan direction, or -1 if
 * there is none (or no driving array).
 */
int
bp_following_element(const BpScanKeys *keys, int elem, ScanDirection dir)
{
	elem += ScanDirectionIsForward(dir) ? 1 : -1;
	if (keys->drive_key < 0 || elem < 0 || elem >= keys->drive_nelems)
		return -1;
	return elem;
}

/*
 * Does the range of the current prefix (and array element) start beyond
 * the position's leaf in the scan direction, past its fence?
 */
bool
bp_range_beyond_leaf(BpScanOpaque so, ScanDirection dir)
{
	const BpScanPos *pos = &so->pos;

	if (ScanDirectionIsForward(dir))
		return pos->lo == pos->nitems && (pos->flags & BP_HAS_HIGH) &&
			bp_below_range(pos->highkey, &so->keys);
	return pos->hi == 0 && (pos->flags & BP_HAS_LOW) &&
		bp_above_range(pos->lowkey, &so->keys);
}

/*
 * Can a leaf after the position's, in the scan direction, hold entries of
 * the range (the outer range while filtering)?  Not if the range ends
 * inside it, or at its fence.
 */
bool
bp_has_next_leaf(BpScanOpaque so, ScanDirection dir)
{
	const BpScanPos *pos = &so->pos;
	BpaPredicateFn below = pos->filtering ? bp_below_outer_range : bp_below_range;
	BpaPredicateFn above = pos->filtering ? bp_above_outer_range : bp_above_range;

	if (ScanDirectionIsForward(dir))
		return pos->hi == pos->nitems && (pos->flags & BP_HAS_HIGH) &&
			!above(pos->highkey, &so->keys);
	return pos->lo == 0 && (pos->flags & BP_HAS_LOW) &&
		!below(pos->lowkey, &so->keys);
}

/*
 * Read again, whole, the leaf of which the position holds the first part
 * of the range in the scan direction, cut at so->bound (moving right past
 * a split since, or descending to the entries just below the cut), and
 * stand just before the entries beyond the cut.
 */
void
bp_scan_load_rest(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	BpSlotBound bound = {so->keys.desc, so->bound};
	Buffer		buf;
	int			cut;

	if (ScanDirectionIsForward(dir))
		buf = bp_read_next_leaf(scan->indexRelation, &so->desc, pos->blkno,
								so->bound);
	else
		buf = bp_descend(scan->indexRelation, bp_before_bound, &bound,
						 BUFFER_LOCK_SHARE);
	bp_scan_load_leaf(scan, pos, buf, dir, NULL, NULL);
	cut = first_at_or_above(pos, &so->desc, so->bound);
	pos->cur = ScanDirectionIsForward(dir) ? Max(cut, pos->lo) - 1 :
		Min(cut, pos->hi);
}

/*
 * Load the leaf that follows leaf (whose right-link was rightlink) in the
 * scan direction: the leaf holding so->bound forward, its high key; the
 * leaf holding the entries just below so->bound backward, its low key.
 */
void
bp_scan_load_adjacent_leaf(IndexScanDesc scan, BpScanPos *pos, ScanDirection dir,
				   BlockNumber leaf, BlockNumber rightlink)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	BpSlotBound bound = {so->keys.desc, so->bound};
	Buffer		buf;

	if (ScanDirectionIsForward(dir))
	{
		buf = bp_read_next_leaf(index, &so->desc, rightlink, so->bound);
		bp_scan_load_leaf(scan, pos, buf, dir, so->bound, NULL);
		return;
	}
	/* descend to the leaf holding the entries just below the low key */
	buf = bp_descend(index, bp_before_bound, &bound, BUFFER_LOCK_SHARE);
	if (BufferGetBlockNumber(buf) == leaf)
	{
		Page		page = BufferGetPage(buf);
		char		low[BP_MAX_SLOT_WIDTH];

		/*
		 * The leaf took over the range of a deleted left neighbour since it
		 * was copied: its low key went down.  Its entries below the old low
		 * key came after the copy; go on from its new low key.
		 */
		if ((BpPageGetOpaque(page)->flags & BP_HAS_LOW) &&
			bp_compare_slots(bp_page_fence(so->keys.desc, page, false, low),
							 so->bound, (void *) so->keys.desc) >= 0)
		{
			UnlockReleaseBuffer(buf);
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("index \"%s\" has a leaf at block %u whose low key leads back to itself",
							RelationGetRelationName(index), leaf)));
		}
	}
	bp_scan_load_leaf(scan, pos, buf, dir, NULL, so->bound);
}
