/*-------------------------------------------------------------------------
 *
 * bpbitmap.c
 *	  Bitmap index scans (map_range): the TIDs of the entries of a scan's
 *	  range, leaf by leaf under each leaf's lock, without sorting; a skip
 *	  scan's as its ordered scan returns them.
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

#include "bpbitmap.h"
#include "bpformat.h"
#include "bpleaf.h"
#include "bpleafread.h"
#include "bppage.h"
#include "bpscan.h"
#include "bpscankey.h"
#include "bpsearch.h"
#include "bpslot.h"

/* State of a bitmap scan's visit of one leaf. */
typedef struct BitmapVisit
{
	const BpScanKeys *keys;
	bool		skip_dead;		/* skip entries whose dead bit is set */
	ItemPointerData *tids;
	int			ntids;
	int			capacity;		/* room in tids */
	BlockNumber last_leaf;		/* the leaf the last range ended in */
	bool		last_has_high;	/* it has a high key, copied to so->bound */
} BitmapVisit;

/* Collect the TID of an entry in the range that matches every key. */
static void
collect_tid(const void *slot, void *arg)
{
	BitmapVisit *visit = (BitmapVisit *) arg;

	if (visit->skip_dead && bp_slot_dead(slot))
		return;
	if (visit->keys->exact || bp_test_keys(visit->keys, slot) == BP_KEY_MATCH)
		visit->tids[visit->ntids++] = bp_slot_tid(slot);
}

/*
 * Does every entry of the leaf lie inside the range of exact keys?  Its
 * entries are at or above its low key and below its high key.
 */
static bool
leaf_inside_range(Page page, const BpScanKeys *keys)
{
	uint16		flags = BpPageGetOpaque(page)->flags;
	char		low[BP_MAX_SLOT_WIDTH];
	char		high[BP_MAX_SLOT_WIDTH];

	return keys->exact &&
		(flags & BP_HAS_LOW) &&
		!bp_below_range(bp_page_fence(keys->desc, page, false, low), (void *) keys) &&
		(flags & BP_HAS_HIGH) &&
		!bp_above_range(bp_page_fence(keys->desc, page, true, high), (void *) keys);
}

/*
 * Collect the TIDs of the entries in the range of a leaf: none when all
 * are marked dead and the scan skips those, every entry for a leaf inside
 * the range, else those of the range (inline keys) or those bp_leaf_map
 * selects that match every key.
 */
static void
collect_leaf(Page page, BpScanOpaque so, BitmapVisit *visit)
{
	BpLeaf		leaf;
	int			n;

	bp_leaf_open(&leaf, page, &so->desc);
	/* keys rebuilt whole serve this leaf's tests only */
	if (so->pos.key_cxt)
		bp_leaf_rebuild_keys_in(&leaf, so->pos.key_cxt);
	n = bp_leaf_count(&leaf);
	if (n > visit->capacity)
	{
		visit->capacity = Max(n, 2 * visit->capacity);
		pfree(visit->tids);
		visit->tids = palloc(sizeof(ItemPointerData) * visit->capacity);
	}
	if (visit->skip_dead && bp_leaf_all_dead(&leaf))
		visit->ntids = 0;
	else if (leaf_inside_range(page, &so->keys))
		visit->ntids = bp_leaf_tids(&leaf, visit->skip_dead, visit->tids);
	else if (so->keys.first_column_inline && so->keys.exact)
		visit->ntids = bp_leaf_range_tids(&leaf, &so->keys, visit->skip_dead,
										  visit->tids, &so->work);
	else
		bp_leaf_map(&leaf, bp_below_range, bp_above_range, (void *) &so->keys,
					visit->skip_dead, collect_tid, visit, &so->work);
}

/*
 * The first leaf of the keys' range, share-locked: the leaf the last range
 * ended in, read again, when this range starts there, else by a descent.
 */
static Buffer
first_leaf_of_range(IndexScanDesc scan, BitmapVisit *visit)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Buffer		buf = InvalidBuffer;

	if (visit->last_leaf != InvalidBlockNumber &&
		(!visit->last_has_high || !bp_below_range(so->bound, &so->keys)))
		buf = bp_read_leaf_again(scan->indexRelation, visit->last_leaf,
								 bp_below_range, &so->keys, BUFFER_LOCK_SHARE);
	if (!BufferIsValid(buf))
	{
		buf = bp_scan_descend(scan, bp_below_range);
	}
	return buf;
}

/* Add the TIDs of the entries of the keys' range to tbm; returns their count. */
static int64
collect_range(IndexScanDesc scan, TIDBitmap *tbm, BitmapVisit *visit)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	int64		total = 0;
	Buffer		buf = first_leaf_of_range(scan, visit);
	char		high[BP_MAX_SLOT_WIDTH];

	for (;;)
	{
		Page		page = BufferGetPage(buf);
		BpPageOpaque opaque = BpPageGetOpaque(page);
		bool		last;
		BlockNumber next = opaque->rightlink;

		CHECK_FOR_INTERRUPTS();
		visit->ntids = 0;
		collect_leaf(page, so, visit);
		PredicateLockPage(index, BufferGetBlockNumber(buf), scan->xs_snapshot);
		last = !(opaque->flags & BP_HAS_HIGH);
		visit->last_leaf = BufferGetBlockNumber(buf);
		visit->last_has_high = !last;
		if (!last)
		{
			const char *fence = bp_page_fence(&so->desc, page, true, high);

			last = bp_above_range(fence, &so->keys);
			bp_slot_copy_keys(&so->desc, fence, so->bound, so->bound_keys, false);
		}
		UnlockReleaseBuffer(buf);

		if (visit->ntids > 0)
			tbm_add_tuples(tbm, visit->tids, visit->ntids, false);
		total += visit->ntids;
		if (last)
			return total;
		/* entries below the bound that a later leaf holds come twice: harmless */
		buf = bp_read_next_leaf(index, &so->desc, next, so->bound);
	}
}

/*
 * A skip scan's bitmap: the TIDs of its entries as an ordered scan forward
 * returns them, whose leaf copies let it find each prefix.
 */
static int64
collect_skipping(IndexScanDesc scan, TIDBitmap *tbm, BitmapVisit *visit)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	int64		total = 0;
	const char *slot;

	bp_scan_release_pos(&so->pos);
	visit->ntids = 0;
	while ((slot = bp_scan_next_entry(scan, ForwardScanDirection)) != NULL)
	{
		visit->tids[visit->ntids++] = bp_slot_tid(slot);
		if (visit->ntids == visit->capacity)
		{
			tbm_add_tuples(tbm, visit->tids, visit->ntids, false);
			total += visit->ntids;
			visit->ntids = 0;
		}
	}
	tbm_add_tuples(tbm, visit->tids, visit->ntids, false);
	return total + visit->ntids;
}

/*
 * amgetbitmap: map_range over the leaves of the range, unsorted; with a
 * driving array, over the range of each of its elements (from the leaf
 * the last one ended in when the next starts there); a skip scan as an
 * ordered scan.
 */
int64
bp_getbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BitmapVisit visit;
	int64		total = 0;
	int			nranges = so->keys.drive_key >= 0 ? so->keys.drive_nelems : 1;

	if (so->keys.unsatisfiable)
		return 0;
	visit.keys = &so->keys;
	visit.skip_dead = scan->ignore_killed_tuples;
	visit.capacity = 1024;
	visit.tids = palloc(sizeof(ItemPointerData) * visit.capacity);
	visit.last_leaf = InvalidBlockNumber;
	visit.last_has_high = false;
	if (so->keys.nskip > 0)
		nranges = 0;
	total = so->keys.nskip > 0 ? collect_skipping(scan, tbm, &visit) : 0;
	for (int elem = 0; elem < nranges; elem++)
	{
		if (so->keys.drive_key >= 0)
			bp_set_array_element(&so->keys, elem);
		total += collect_range(scan, tbm, &visit);
	}
	pfree(visit.tids);
	return total;
}
