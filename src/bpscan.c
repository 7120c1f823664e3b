/*-------------------------------------------------------------------------
 *
 * bpscan.c
 *	  Ordered scans (iterate_range), with skip scans; bitmap scans are in
 *	  bpbitmap.c.
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
 * A skip scan (bpscankey.c) walks the distinct values of a prefix of key
 * columns, one primitive scan per value.  It copies each leaf's whole
 * part of the outer range, so that the next prefix is found in the copy
 * when it starts there (next_prefix); otherwise it descends to the first
 * entry beyond the prefix, or steps to the adjacent leaf when that is
 * where the next prefix starts (seek_prefix).  After a descent it first
 * looks for the next prefix in the leaf without copying it (the log and a
 * block or two, bp_leaf_nearest), and when that prefix's range starts in
 * another leaf, descends there directly (peek_next_prefix).  Where prefixes have few
 * entries each, it reads the rest of the leaf whole, testing every entry
 * (filtering), and goes back to skipping at a leaf that starts a prefix
 * with many.  Parallel scans do not skip.
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

#include "access/nbtree.h"
#include "access/relscan.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
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
#include "bpparallel.h"
#include "bpscan.h"
#include "bpscankey.h"
#include "bpsearch.h"
#include "bpslot.h"
#include "bpstate.h"

/* Allocate the buffers of a scan position. */
static void
alloc_pos(BpScanPos *pos, const BpSlotDesc *desc)
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
	pos->prefix_keys = palloc(BP_KEYS_BUFSIZE);
	pos->has_prefix = false;
	pos->whole = false;
	pos->filtering = false;
	pos->buf = InvalidBuffer;
	pos->valid = false;
}

/* Free the buffers of a scan position (released). */
static void
free_pos(BpScanPos *pos)
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
static void
copy_pos(BpScanPos *dst, const BpScanPos *src, const BpSlotDesc *desc)
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
	alloc_pos(&so->pos, &so->desc);
	alloc_pos(&so->mark, &so->desc);
	alloc_pos(&so->probe, &so->desc);
	bp_leaf_work_init(&so->work, &so->desc);
	so->bound = palloc(so->desc.width);
	so->bound_keys = palloc(BP_KEYS_BUFSIZE);
	so->itup = palloc0(so->desc.has_keys ? BLCKSZ : so->desc.itup_size);
	so->killed = NULL;
	so->killed_capacity = 0;
	so->nkilled = 0;
	so->tuple_cxt = AllocSetContextCreate(CurrentMemoryContext,
										  "bpindex scan tuples",
										  ALLOCSET_SMALL_SIZES);
	so->keys_cxt = AllocSetContextCreate(CurrentMemoryContext,
										 "bpindex scan keys",
										 ALLOCSET_SMALL_SIZES);
	scan->xs_itupdesc = RelationGetDescr(index);
	scan->opaque = so;
	return scan;
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
static void
kill_entries(IndexScanDesc scan)
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

/* (Re)start a scan with new keys. */
void
bp_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
		  ScanKey orderbys, int norderbys)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	MemoryContext old;

	kill_entries(scan);
	if (scankey && scan->numberOfKeys > 0)
		memmove(scan->keyData, scankey, scan->numberOfKeys * sizeof(ScanKeyData));
	MemoryContextReset(so->keys_cxt);
	old = MemoryContextSwitchTo(so->keys_cxt);
	/* parallel scans read the whole range: their leaves go in turns */
	bp_prepare_keys(scan->indexRelation, scan->keyData, scan->numberOfKeys,
					scan->parallel_scan == NULL, &so->keys);
	MemoryContextSwitchTo(old);
	so->point = so->keys.nkeys > 0 && so->keys.keys[0].attno == 0 &&
		so->keys.nskip == 0 &&
		(so->keys.keys[0].strategy == BTEqualStrategyNumber ||
		 (so->keys.keys[0].flags & SK_SEARCHNULL));
	bp_scan_release_pos(&so->pos);
	bp_scan_release_pos(&so->mark);
	bp_scan_release_pos(&so->probe);
}

/* End a scan. */
void
bp_endscan(IndexScanDesc scan)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	kill_entries(scan);
	bp_scan_release_pos(&so->pos);
	bp_scan_release_pos(&so->mark);
	bp_scan_release_pos(&so->probe);
	MemoryContextDelete(so->tuple_cxt);
	MemoryContextDelete(so->keys_cxt);
	free_pos(&so->pos);
	free_pos(&so->mark);
	free_pos(&so->probe);
	pfree(so->bound_keys);
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
 * Copy the entries of the locked leaf into pos->items in ascending order.
 * A point scan copies the range only (the log and one or two blocks) and
 * sorts that; other scans merge the range's part of the log with that of
 * the blocks that can hold entries of it (searching sorted blocks).  A
 * skip scan copies the leaf's part of its outer range whole, where the
 * next prefix may be sought, and else, in a leaf whose entries lie within
 * the current prefix in the scan direction, the range.
 */
static int
copy_leaf_sorted(BpScanOpaque so, BpScanPos *pos, BpLeaf *leaf,
				 bool dead_marks, ScanDirection dir)
{
	int			n;

	ensure_items(pos, bp_leaf_count(leaf), so->desc.width);
	pos->whole = so->keys.nskip > 0 &&
		(pos == &so->probe || pos->filtering ||
		 !leaf_within_prefix(so, pos, dir));
	if (pos->whole)
		return bp_leaf_sorted(leaf, bp_below_outer_range, bp_above_outer_range,
							  &so->keys, dead_marks, pos->items, &so->work);
	if (!so->point)
		return bp_leaf_sorted(leaf, bp_below_range, bp_above_range,
							  &so->keys, dead_marks, pos->items, &so->work);
	n = bp_leaf_copy_range(leaf, &so->keys, dead_marks, pos->items, &so->work);
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
static void
find_range(BpScanOpaque so, BpScanPos *pos, ScanDirection dir)
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
	find_range(so, pos, dir);
	pos->valid = true;
}

/*
 * Copy the locked leaf in buf into a scan position, in sorted order, then
 * unlock it (keeping the pin if the scan must), and find the items
 * [lo, hi) that are not outside the range, nor below from or at or above
 * to (either may be NULL).
 */
static void
load_leaf(IndexScanDesc scan, BpScanPos *pos, Buffer buf, ScanDirection dir,
		  const char *from, const char *to)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpLeaf		leaf;

	begin_load(scan, pos, buf, &leaf);
	pos->nitems = copy_leaf_sorted(so, pos, &leaf, scan->ignore_killed_tuples,
								   dir);
	end_load(scan, pos, buf, dir, from, to);
}

/*
 * Load the locked leaf in buf into a scan position without copying it:
 * the caller found that it holds no entry of the range.
 */
static void
load_leaf_empty(IndexScanDesc scan, BpScanPos *pos, Buffer buf,
				ScanDirection dir)
{
	BpLeaf		leaf;

	begin_load(scan, pos, buf, &leaf);
	pos->nitems = 0;
	pos->whole = false;
	end_load(scan, pos, buf, dir, NULL, NULL);
}

/*
 * Find the first leaf of the range in the scan direction; with a driving
 * array, the range of its element elem.
 */
static void
first_leaf(IndexScanDesc scan, ScanDirection dir, int elem)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Buffer		buf;

	if (so->keys.drive_key >= 0)
		bp_set_array_element(&so->keys, elem);

	buf = bp_descend(scan->indexRelation,
					 ScanDirectionIsForward(dir) ? bp_below_range : bp_not_above_range,
					 &so->keys, BUFFER_LOCK_SHARE);
	so->pos.filtering = false;
	load_leaf(scan, &so->pos, buf, dir, NULL, NULL);
	so->pos.array_elem = elem;
	bp_count_index_search(scan);
}

/*
 * The driving array's element after elem in the scan direction, or -1 if
 * there is none (or no driving array).
 */
static int
following_element(const BpScanKeys *keys, int elem, ScanDirection dir)
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
static bool
range_beyond_leaf(BpScanOpaque so, ScanDirection dir)
{
	const BpScanPos *pos = &so->pos;

	if (ScanDirectionIsForward(dir))
		return pos->lo == pos->nitems && (pos->flags & BP_HAS_HIGH) &&
			bp_below_range(pos->highkey, &so->keys);
	return pos->hi == 0 && (pos->flags & BP_HAS_LOW) &&
		bp_above_range(pos->lowkey, &so->keys);
}

/*
 * Start the primitive scan of the driving array's next element in the
 * scan direction, if there is one: in a skip scan's whole copy of the
 * leaf when the element's range starts there.
 */
static bool
next_array_element(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	int			elem = following_element(&so->keys, so->pos.array_elem, dir);

	if (elem < 0)
		return false;
	if (so->pos.whole)
	{
		/* a skip scan's copy holds the element's range if it starts here */
		bp_set_array_element(&so->keys, elem);
		so->pos.array_elem = elem;
		find_range(so, &so->pos, dir);
		if (!range_beyond_leaf(so, dir))
			return true;
	}
	kill_entries(scan);
	first_leaf(scan, dir, elem);
	return true;
}

/*
 * Can a leaf after the position's, in the scan direction, hold entries of
 * the range (the outer range while filtering)?  Not if the range ends
 * inside it, or at its fence.
 */
static bool
has_next_leaf(BpScanOpaque so, ScanDirection dir)
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
 * Load the leaf that follows leaf (whose right-link was rightlink) in the
 * scan direction: the leaf holding so->bound forward, its high key; the
 * leaf holding the entries just below so->bound backward, its low key.
 */
static void
load_adjacent_leaf(IndexScanDesc scan, BpScanPos *pos, ScanDirection dir,
				   BlockNumber leaf, BlockNumber rightlink)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	BpSlotBound bound = {so->keys.desc, so->bound};
	Buffer		buf;

	if (ScanDirectionIsForward(dir))
	{
		buf = bp_read_next_leaf(index, &so->desc, rightlink, so->bound);
		load_leaf(scan, pos, buf, dir, so->bound, NULL);
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
	load_leaf(scan, pos, buf, dir, NULL, so->bound);
}

/* A skip scan's prefix has few entries below this many: a small group. */
#define SKIP_SMALL_GROUP		16
/* After this many small groups in a row, a skip scan reads the leaf whole. */
#define SKIP_SMALL_GROUPS		4
/* A leaf read whole is left for skipping when its first prefix has more. */
#define SKIP_RESUME_GROUP		64

/*
 * Skip scan: the first item of pos (within [floor, ceil)) in the scan
 * direction whose prefix lies beyond the current prefix (all of them
 * without one), and not before the outer range; -1 if there is none, or
 * the copy holds the range only.
 */
static int
prefix_boundary(BpScanOpaque so, const BpScanPos *pos, ScanDirection dir)
{
	uint16		width = so->desc.width;
	int			item;

	if (!pos->whole)
		return -1;
	if (ScanDirectionIsForward(dir))
	{
		item = Max(pos->floor, bpa_first_true(pos->items, pos->nitems, width,
											  bp_before_next_prefix,
											  &so->keys, true));
		return item < pos->ceil ? item : -1;
	}
	item = Min(pos->ceil, bpa_first_true(pos->items, pos->nitems, width,
										 bp_after_prev_prefix, &so->keys,
										 false)) - 1;
	return item >= pos->floor ? item : -1;
}

/* Does item of pos lie beyond the outer range in the scan direction? */
static bool
past_outer_range(BpScanOpaque so, const BpScanPos *pos, int item,
				 ScanDirection dir)
{
	const char *slot = pos->items + (Size) item * so->desc.width;

	return ScanDirectionIsForward(dir) ? bp_above_outer_range(slot, &so->keys) :
		bp_below_outer_range(slot, &so->keys);
}

/*
 * Skip scan: make the prefix of slot the current one, from the driving
 * array's first element in the scan direction, for the position.
 */
static void
enter_prefix(BpScanOpaque so, BpScanPos *pos, const char *slot,
			 ScanDirection dir)
{
	int			elem = ScanDirectionIsForward(dir) ? 0 :
		so->keys.drive_nelems - 1;

	bp_set_prefix(&so->keys, slot);
	bp_slot_copy_keys(&so->desc, slot, pos->prefix, pos->prefix_keys, false);
	pos->has_prefix = true;
	pos->filtering = false;
	if (so->keys.drive_key >= 0)
		bp_set_array_element(&so->keys, elem);
	pos->array_elem = elem;
}

/*
 * Skip scan: make so->bound, an entry of the locked leaf in buf, the scan
 * keys' prefix, from the driving array's first element in the scan
 * direction; if the prefix's range starts past the leaf's fence, enter it
 * and release the leaf, with a predicate lock on it (the gap before the
 * prefix lies there), and return true.
 */
static bool
enter_if_range_elsewhere(IndexScanDesc scan, Buffer buf, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	bool		forward = ScanDirectionIsForward(dir);
	Page		page = BufferGetPage(buf);
	char		fence[BP_MAX_SLOT_WIDTH];

	bp_set_prefix(&so->keys, so->bound);
	if (so->keys.drive_key >= 0)
		bp_set_array_element(&so->keys, forward ? 0 : so->keys.drive_nelems - 1);
	if (!(BpPageGetOpaque(page)->flags & (forward ? BP_HAS_HIGH : BP_HAS_LOW)) ||
		!(forward ? bp_below_range : bp_above_range)
		(bp_page_fence(&so->desc, page, forward, fence), &so->keys))
		return false;
	PredicateLockPage(scan->indexRelation, BufferGetBlockNumber(buf),
					  scan->xs_snapshot);
	UnlockReleaseBuffer(buf);
	enter_prefix(so, &so->pos, so->bound, dir);
	return true;
}

/* What a skip scan's look at the leaf of the next prefix found. */
typedef enum BpPeek
{
	PEEK_COPY,					/* copy the leaf to go on there */
	PEEK_END,					/* the outer range has no further prefix */
	PEEK_ELSEWHERE				/* the next prefix is entered (into
								 * so->bound), its range starts beyond the
								 * leaf */
} BpPeek;

/*
 * Skip scan: look at the locked leaf in *bufp, reached by a descent to the
 * first entry beyond the current prefix, without copying it: the entry
 * nearest that prefix beyond it is the next prefix (forward, in a leaf to
 * the right if there is none here), and when the next prefix's range
 * starts beyond the leaf, enter it and release the leaf (a descent to the
 * range follows).  Decodes the log and a block or two of each leaf.
 */
static BpPeek
peek_next_prefix(IndexScanDesc scan, Buffer *bufp, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	bool		forward = ScanDirectionIsForward(dir);
	Buffer		buf = *bufp;
	Page		page = BufferGetPage(buf);
	char		found[BP_MAX_SLOT_WIDTH];
	char		fence[BP_MAX_SLOT_WIDTH];
	BpLeaf		leaf;

	for (;;)
	{
		BlockNumber rightlink = BpPageGetOpaque(page)->rightlink;

		bp_leaf_open(&leaf, page, &so->desc);
		if (so->probe.key_cxt)
			bp_leaf_rebuild_keys_in(&leaf, so->probe.key_cxt);
		if (bp_leaf_nearest(&leaf, forward ? bp_before_next_prefix :
							bp_after_prev_prefix, &so->keys, forward, found,
							&so->work))
			break;
		/* none here, nor anywhere past the end of the index */
		if (!(BpPageGetOpaque(page)->flags & (forward ? BP_HAS_HIGH : BP_HAS_LOW)))
		{
			UnlockReleaseBuffer(buf);
			return PEEK_END;
		}
		/* forward, the next prefix starts in a leaf to the right */
		if (!forward)
			return PEEK_COPY;
		bp_slot_copy_keys(&so->desc, bp_page_fence(&so->desc, page, true, fence),
						  so->bound, so->bound_keys, false);
		PredicateLockPage(scan->indexRelation, BufferGetBlockNumber(buf),
						  scan->xs_snapshot);
		UnlockReleaseBuffer(buf);
		buf = *bufp = bp_read_next_leaf(scan->indexRelation, &so->desc,
										rightlink, so->bound);
		page = BufferGetPage(buf);
	}
	if (forward ? bp_above_outer_range(found, &so->keys) :
		bp_below_outer_range(found, &so->keys))
	{
		UnlockReleaseBuffer(buf);
		return PEEK_END;
	}
	bp_slot_copy_keys(&so->desc, found, so->bound, so->bound_keys, false);
	if (enter_if_range_elsewhere(scan, buf, dir))
		return PEEK_ELSEWHERE;
	/* the range starts here: copy the leaf, seeking from the old prefix */
	if (so->pos.has_prefix)
		bp_set_prefix(&so->keys, so->pos.prefix);
	else
		bp_clear_prefix(&so->keys);
	return PEEK_COPY;
}

/*
 * Skip scan: start the primitive scan of the prefix of item of so->pos,
 * from the driving array's first element in the scan direction; after too
 * many small groups in the leaf, read the rest of it whole instead (the
 * entries before item, in the scan direction, were returned).
 */
static void
start_prefix(IndexScanDesc scan, int item, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	bool		forward = ScanDirectionIsForward(dir);
	const char *slot = pos->items + (Size) item * so->desc.width;
	int			elem = forward ? 0 : so->keys.drive_nelems - 1;

	pos->group_start = item;
	if (pos->small_groups >= SKIP_SMALL_GROUPS && pos->whole)
	{
		bp_clear_prefix(&so->keys);
		pos->has_prefix = false;
		pos->filtering = true;
		find_range(so, pos, dir);
		pos->cur = forward ? item - 1 : item + 1;
		return;
	}
	enter_prefix(so, pos, slot, dir);
	find_range(so, pos, dir);
	/* far from the leaf: descend to it rather than walk there */
	if (range_beyond_leaf(so, dir))
	{
		kill_entries(scan);
		first_leaf(scan, dir, elem);
	}
}

/* seek_prefix entered the next prefix, whose range starts in another leaf */
#define SEEK_ENTERED	(-2)
/* ... entered it and loaded the leaf of its range into so->pos */
#define SEEK_LOADED		(-3)
/* guess_next_prefix could not tell */
#define SEEK_UNKNOWN	(-4)

/*
 * Skip scan over one column compared as an integer (int2, int4, int8 and
 * the types stored as them): make so->bound the current prefix with the
 * value after it in the scan direction.  False if there is none (a NULL
 * prefix, the end of the type, past the outer range).
 */
static bool
prefix_successor(BpScanOpaque so, ScanDirection dir)
{
	const BpSlotDesc *desc = &so->desc;
	char	   *field = so->bound + desc->att_offset[0];
	int			step = ScanDirectionIsForward(dir) != desc->reverse[0] ? 1 : -1;
	int16		v2;
	int32		v4;
	int64		v8;

	if (so->keys.nskip != 1 || !so->pos.has_prefix ||
		bp_slot_isnull(desc, so->pos.prefix, 0))
		return false;
	bp_slot_copy_keys(desc, so->pos.prefix, so->bound, so->bound_keys, false);
	switch (desc->cmp_kind[0])
	{
		case BP_CMP_INT2:
			memcpy(&v2, field, sizeof(v2));
			if (v2 == (step > 0 ? PG_INT16_MAX : PG_INT16_MIN))
				return false;
			v2 += step;
			memcpy(field, &v2, sizeof(v2));
			break;
		case BP_CMP_INT4:
			memcpy(&v4, field, sizeof(v4));
			if (v4 == (step > 0 ? PG_INT32_MAX : PG_INT32_MIN))
				return false;
			v4 += step;
			memcpy(field, &v4, sizeof(v4));
			break;
		case BP_CMP_INT8:
			memcpy(&v8, field, sizeof(v8));
			if (v8 == (step > 0 ? PG_INT64_MAX : PG_INT64_MIN))
				return false;
			v8 += step;
			memcpy(field, &v8, sizeof(v8));
			break;
		default:
			return false;
	}
	return !(ScanDirectionIsForward(dir) ?
			 bp_above_outer_range(so->bound, &so->keys) :
			 bp_below_outer_range(so->bound, &so->keys));
}

/*
 * Skip scan over one integer-like column: descend straight to the range of
 * the value after the current prefix (prefix_successor), a guess; in the
 * leaf reached, the entry nearest the range's start tells whether the
 * guess holds, or else which value comes next (none can lie between).
 * Returns SEEK_LOADED, SEEK_ENTERED, -1 when nothing lies beyond the guess
 * (the leaf is the last one), or SEEK_UNKNOWN when there was nothing to
 * guess or no such entry in the leaf; with either of the last two the
 * current prefix stays.
 */
static int
guess_next_prefix(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	bool		forward = ScanDirectionIsForward(dir);
	char		found[BP_MAX_SLOT_WIDTH];
	Buffer		buf;
	BpLeaf		leaf;
	bool		any;

	if (!prefix_successor(so, dir))
		return SEEK_UNKNOWN;
	bp_set_prefix(&so->keys, so->bound);
	if (so->keys.drive_key >= 0)
		bp_set_array_element(&so->keys, forward ? 0 : so->keys.drive_nelems - 1);
	buf = bp_descend(scan->indexRelation,
					 forward ? bp_below_range : bp_not_above_range,
					 &so->keys, BUFFER_LOCK_SHARE);
	bp_count_index_search(scan);
	bp_leaf_open(&leaf, BufferGetPage(buf), &so->desc);
	if (so->probe.key_cxt)
		bp_leaf_rebuild_keys_in(&leaf, so->probe.key_cxt);
	any = bp_leaf_nearest(&leaf, forward ? bp_below_range : bp_above_range,
						  &so->keys, forward, found, &so->work);
	if (!any || (!bp_same_prefix(&so->keys, found, so->keys.prefix) &&
				 (forward ? bp_above_outer_range(found, &so->keys) :
				  bp_below_outer_range(found, &so->keys))))
	{
		/*
		 * Nothing beyond the guess here: nor anywhere when the leaf is the
		 * last one in the scan direction.  Or the entry beyond it lies past
		 * the outer range, and so does everything after that.
		 */
		bool		last = !(BpPageGetOpaque(BufferGetPage(buf))->flags &
							 (forward ? BP_HAS_HIGH : BP_HAS_LOW));
		int			result = any || last ? -1 : SEEK_UNKNOWN;

		UnlockReleaseBuffer(buf);
		bp_set_prefix(&so->keys, so->pos.prefix);
		return result;
	}
	if (!bp_same_prefix(&so->keys, found, so->keys.prefix))
	{
		/* no entry of the guess reaches its range: found's value is next */
		bp_slot_copy_keys(&so->desc, found, so->bound, so->bound_keys, false);
		if (enter_if_range_elsewhere(scan, buf, dir))
			return SEEK_ENTERED;
	}
	enter_prefix(so, &so->pos, so->bound, dir);
	if (forward ? bp_above_range(found, &so->keys) :
		bp_below_range(found, &so->keys))
		/* the entry nearest the range's start lies past it: none in it */
		load_leaf_empty(scan, &so->pos, buf, dir);
	else
		load_leaf(scan, &so->pos, buf, dir, NULL, NULL);
	return SEEK_LOADED;
}

/*
 * Skip scan: load into so->probe the leaf that holds the first entry
 * beyond the current prefix in the scan direction (from the start of the
 * outer range when there is none), moving on from the leaf of so->pos, if
 * valid and copied whole, to the adjacent leaf when the next prefix starts
 * there, else descending to it (first to the guessed next value's range,
 * guess_next_prefix).  Returns the entry's item in so->probe, -1 (the
 * probe released) when the outer range has no further entry, or, the
 * probe released, SEEK_ENTERED when a descent found the next prefix
 * without copying the leaf and entered it (its range starts elsewhere),
 * SEEK_LOADED when it entered it and loaded its range's leaf into so->pos.
 */
static int
seek_prefix(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *probe = &so->probe;
	BpScanPos  *at = so->pos.valid && so->pos.whole ? &so->pos : NULL;
	bool		forward = ScanDirectionIsForward(dir);

	for (;;)
	{
		int			item;

		CHECK_FOR_INTERRUPTS();
		if (at != NULL &&
			!(forward ? (at->flags & BP_HAS_HIGH) &&
			  !bp_above_outer_range(at->highkey, &so->keys) :
			  (at->flags & BP_HAS_LOW) &&
			  !bp_below_outer_range(at->lowkey, &so->keys)))
			break;
		if (at == NULL ||
			(forward ? bp_before_next_prefix(at->highkey, &so->keys) :
			 bp_after_prev_prefix(at->lowkey, &so->keys)))
		{
			/* the leaf after at may still hold entries of the prefix */
			Buffer		buf;
			int			guessed = at == probe ? SEEK_UNKNOWN :
				guess_next_prefix(scan, dir);

			if (guessed != SEEK_UNKNOWN)
			{
				bp_scan_release_pos(probe);
				return guessed;
			}
			buf = bp_descend(scan->indexRelation,
							 forward ? bp_before_next_prefix :
							 bp_not_after_prev_prefix,
							 &so->keys, BUFFER_LOCK_SHARE);
			bp_count_index_search(scan);
			switch (peek_next_prefix(scan, &buf, dir))
			{
				case PEEK_END:
					bp_scan_release_pos(probe);
					return -1;
				case PEEK_ELSEWHERE:
					bp_scan_release_pos(probe);
					return SEEK_ENTERED;
				case PEEK_COPY:
					load_leaf(scan, probe, buf, dir, NULL, NULL);
					break;
			}
		}
		else
		{
			bp_slot_copy_keys(&so->desc, forward ? at->highkey : at->lowkey,
							  so->bound, so->bound_keys, false);
			load_adjacent_leaf(scan, probe, dir, at->blkno, at->rightlink);
		}
		at = probe;
		item = prefix_boundary(so, probe, dir);
		if (item >= 0 && past_outer_range(so, probe, item, dir))
			break;
		if (item >= 0)
			return item;
	}
	bp_scan_release_pos(probe);
	return -1;
}

/*
 * Skip scan: start the primitive scan of the next prefix in the scan
 * direction, found in the leaf copy held if it starts there, else by
 * seek_prefix.  False when there is none: the position stays where it is.
 */
static bool
next_prefix(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	int			item = pos->valid ? prefix_boundary(so, pos, dir) : -1;

	if (item >= 0)
	{
		if (past_outer_range(so, pos, item, dir))
			return false;
		if (pos->group_start >= 0 &&
			abs(item - pos->group_start) < SKIP_SMALL_GROUP)
			pos->small_groups++;
		else
			pos->small_groups = 0;
	}
	else
	{
		BpScanPos	swap;

		kill_entries(scan);
		item = seek_prefix(scan, dir);
		if (item == SEEK_ENTERED)
			first_leaf(scan, dir, pos->array_elem);
		if (item == SEEK_ENTERED || item == SEEK_LOADED)
			return true;
		if (item < 0)
			return false;
		swap = so->pos;
		so->pos = so->probe;
		so->probe = swap;
		bp_scan_release_pos(&so->probe);
	}
	start_prefix(scan, item, dir);
	return true;
}

/*
 * Skip scan reading leaves whole: go back to skipping at the leaf just
 * loaded if a prefix with many entries starts there (none of its entries
 * lie in the leaves read before, beyond so->bound, the fence left).
 */
static void
resume_skipping(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	uint16		width = so->desc.width;
	bool		forward = ScanDirectionIsForward(dir);
	int			first;
	int			sample;
	const char *slot;
	int			c;

	if (pos->lo == pos->hi)
		return;
	first = forward ? pos->lo : pos->hi - 1;
	sample = forward ? Min(first + SKIP_RESUME_GROUP, pos->hi - 1) :
		Max(first - SKIP_RESUME_GROUP, pos->lo);
	slot = pos->items + (Size) first * width;
	c = bp_compare_slot_prefix(&so->desc, so->keys.nskip, slot, so->bound);
	if ((forward ? c <= 0 : c >= 0) ||
		!bp_same_prefix(&so->keys, slot, pos->items + (Size) sample * width))
		return;
	start_prefix(scan, first, dir);
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
		first_leaf(scan, dir, ScanDirectionIsForward(dir) ? 0 :
				   so->keys.drive_nelems - 1);
		return true;
	}
	bp_clear_prefix(&so->keys);
	so->pos.has_prefix = false;
	so->pos.filtering = false;
	return next_prefix(scan, dir);
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

	if (!has_next_leaf(so, dir))
		return false;
	kill_entries(scan);
	bp_slot_copy_keys(&so->desc, ScanDirectionIsForward(dir) ? pos->highkey :
					  pos->lowkey, so->bound, so->bound_keys, false);
	load_adjacent_leaf(scan, pos, dir, pos->blkno, pos->rightlink);
	if (pos->filtering)
		resume_skipping(scan, dir);
	return true;
}

/*
 * A participant of a parallel scan: load the next leaf of the scan that
 * no other participant has taken, and tell the others where the scan
 * stands after it.  False when no leaf is left.
 */
static bool
parallel_next_leaf(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	BpParallelNext next;
	int			elem;

	kill_entries(scan);
	if (!bp_parallel_seize(scan, &next, so->bound, so->bound_keys))
		return false;
	if (next.started)
		bp_slot_resolve_offsets(&so->desc, so->bound, so->bound_keys);
	elem = next.array_elem;
	if (elem < 0)
		elem = ScanDirectionIsForward(dir) ? 0 : so->keys.drive_nelems - 1;
	if (!next.started)
		first_leaf(scan, dir, elem);
	else
	{
		if (so->keys.drive_key >= 0)
			bp_set_array_element(&so->keys, elem);
		load_adjacent_leaf(scan, pos, dir, next.leaf, next.rightlink);
		pos->array_elem = elem;
	}
	if (has_next_leaf(so, dir))
		bp_parallel_release_after(scan, elem, pos->blkno, pos->rightlink,
								  ScanDirectionIsForward(dir) ? pos->highkey : pos->lowkey,
								  &so->desc);
	else
		bp_parallel_release_to_element(scan, following_element(&so->keys, elem, dir));
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
 * Form the index tuple of slot for an index-only scan.  Entries without
 * NULLs of fixed-length columns are copied into the scan's tuple buffer,
 * as are those with keys; others go through index_form_tuple.
 */
static IndexTuple
form_entry_tuple(IndexScanDesc scan, const char *slot)
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
	old = MemoryContextSwitchTo(so->tuple_cxt);
	MemoryContextReset(so->tuple_cxt);
	bp_slot_deform(desc, slot, values, isnull);
	itup = index_form_tuple(scan->xs_itupdesc, values, isnull);
	MemoryContextSwitchTo(old);
	return itup;
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
		if (!pos->filtering &&
			(next_array_element(scan, dir) ||
			 (so->keys.nskip > 0 && next_prefix(scan, dir))))
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

	kill_entries(scan);
	copy_pos(&so->mark, &so->pos, &so->desc);
}

/* Return to the remembered position. */
void
bp_restrpos(IndexScanDesc scan)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	kill_entries(scan);
	copy_pos(&so->pos, &so->mark, &so->desc);
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
