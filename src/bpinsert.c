/*-------------------------------------------------------------------------
 *
 * bpinsert.c
 *	  Inserting into a bpindex index: BPA inserts, leaf and internal
 *	  splits, new roots, and finishing incomplete splits.
 *
 * An insert finds its leaf (the one this backend used last, if the key
 * still lies within its fences, else by a descent that moves right past
 * concurrent splits), takes the leaf's content lock in exclusive mode and
 * inserts into the BPA.  Before a change that would clear the leaf's dead
 * marks (a flush, re-encoding or split), it removes the marked entries
 * whose heap tuples are already pruned.  A full leaf splits in two generic
 * WAL records:
 * first the left page and its new right sibling (the left marked
 * BP_INCOMPLETE_SPLIT), then the downlink in the parent together with
 * clearing that flag.  After the first record the tree is already valid:
 * the right page is reached through the right-link.  Whoever next holds a
 * page with the flag in exclusive mode finishes the split.  See
 * src/README.md for the locking protocol.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "bpdead.h"
#include "bpformat.h"
#include "bpgeometry.h"
#include "bpinsert.h"
#include "bpinternal.h"
#include "bpleaf.h"
#include "bpleafplan.h"
#include "bpleafread.h"
#include "bppage.h"
#include "bpsearch.h"
#include "bpslot.h"
#include "bpstate.h"
#include "bpunique.h"
#include "bpxlog.h"

/* Bottom-up deletions at most before a leaf splits under an update. */
#define BOTTOM_UP_PASSES 3

/* Internal pages split at this fill when the new pivot goes rightmost. */
#define BP_INTERNAL_RIGHTMOST_FILL 70

static void insert_downlink(Relation index, Buffer childbuf, uint16 child_level,
							const char *pivot, BlockNumber right);

/*
 * A page for a split or a new root, exclusively locked (bp_new_buffer); a
 * deleted page it reuses is announced to standbys first, whose snapshots
 * that could still reach it conflict.
 */
static Buffer
new_page(Relation index)
{
	FullTransactionId deleted_at;
	Buffer		buf = bp_new_buffer(index, bp_get_state(index)->desc.width, &deleted_at);

	if (FullTransactionIdIsValid(deleted_at))
		bp_xlog_reuse(index, BufferGetBlockNumber(buf), deleted_at);
	return buf;
}

/*
 * The leaf of this backend's previous insert, locked exclusively, if the
 * slot still belongs there (with first_of_key, if it is also the first
 * leaf that can hold the slot's key); else InvalidBuffer.
 */
static Buffer
cached_leaf(Relation index, BpIndexState *state, const char *slot,
			bool first_of_key)
{
	Buffer		buf;
	Page		page;
	uint16		flags;

	if (state->cached_leaf == InvalidBlockNumber)
		return InvalidBuffer;
	buf = bp_read_buffer(index, state->cached_leaf, BUFFER_LOCK_EXCLUSIVE);
	page = BufferGetPage(buf);
	flags = BpPageGetOpaque(page)->flags;
	if ((flags & BP_LEAF) && !(flags & (BP_INCOMPLETE_SPLIT | BP_DELETED)) &&
		bp_slot_within_fences(page, &state->desc, slot) &&
		(!first_of_key || bp_unique_leaf_is_first(&state->desc, page, slot)))
		return buf;
	UnlockReleaseBuffer(buf);
	return InvalidBuffer;
}

/* The entries a leaf holds before its inserts split it, by the fillfactor. */
static int
leaf_fill_target(BpIndexState *state, BpLeaf *leaf)
{
	return bp_leaf_fill_target(leaf, state->meta.fillfactor);
}

/*
 * Where a leaf of n entries (slot included) whose log is full splits to
 * set free a stream of ascending inserts at one place, or -1 for no such
 * split.  The latest inserts (the log and slot) must lie in one gap
 * between the stored entries, slot the highest of them (a descending
 * stream would leave a page of a log's worth of entries behind at each
 * split).  A stream with entries above it splits right after slot, if
 * the left page keeps at least a quarter of a leaf: then each half has
 * its own top to append to.  A stream at the top of the leaf splits as
 * nbtree's rightmost page does, the left page keeping its fill target,
 * once the leaf holds more.  Otherwise the leaf redistributes or splits
 * in half.  stored is slot as the leaf stores it, NULL if it cannot.
 */
static int
stream_split_point(BpIndexState *state, BpLeaf *leaf, Page page,
				   const char *stored, int n)
{
	int			target = leaf_fill_target(state, leaf);
	int			rank;

	if (stored == NULL)
		return -1;
	rank = bp_leaf_stream_rank(leaf, stored);
	if (rank < 0)
		return -1;
	if (rank >= n)
		return n > target ? target : -1;
	if (!(BpPageGetOpaque(page)->flags & BP_HAS_HIGH))
		return rank;
	return rank >= bp_leaf_capacity(leaf) / 4 ? rank : -1;
}

/*
 * Append to the BPA of an exclusively locked leaf, WAL-logged: an
 * ascending insert goes straight into the last block, any other into the
 * log; both change a few byte ranges, logged as such.  BP_LEAF_FLUSH if
 * there is no room for an append, BP_LEAF_RECODE if the leaf's codec or
 * key area cannot take the entry.
 */
static BpLeafInsertResult
append_to_leaf(Relation index, BpIndexState *state, Buffer buf,
			   const char *slot)
{
	Page		page = BufferGetPage(buf);
	BpLeaf		leaf;
	const char *stored;
	int			ascending_block;
	BpLeafChange change;

	bp_leaf_open(&leaf, page, &state->desc);
	stored = bp_leaf_encode(&leaf, slot, state->work.stored);
	if (stored == NULL || !bp_leaf_has_key_room(&leaf, slot))
		return BP_LEAF_RECODE;
	if (bp_leaf_plan_append(&leaf, stored, &ascending_block) == BP_LEAF_FLUSH)
		return BP_LEAF_FLUSH;

	/* no comparison runs inside the critical section (they may allocate) */
	START_CRIT_SECTION();
	bp_leaf_append(&leaf, stored, ascending_block, state->work.stored, &change);
	MarkBufferDirty(buf);
	if (RelationNeedsWAL(index))
		bp_log_ranges(buf, page, change.n, change.offset, change.length);
	END_CRIT_SECTION();
	return BP_LEAF_INSERTED;
}

/*
 * Insert into the BPA of an exclusively locked leaf whose log is full: a
 * flush or redistribute, made on a copy of the page and logged as the
 * ranges that differ; BP_LEAF_FULL if the leaf must split instead.
 * unchanged: an update inserts slot with its row's key unchanged.
 */
static BpLeafInsertResult
flush_into_leaf(Relation index, BpIndexState *state, Buffer buf,
				const char *slot, bool unchanged)
{
	BpLeaf		leaf;
	BpLeaf		copy_leaf;
	const char *stored;
	PGAlignedBlock copy;
	BpLeafInsertResult result;
	int			n;
	char		copy_stored[BP_MAX_SLOT_WIDTH];

	bp_leaf_open(&leaf, BufferGetPage(buf), &state->desc);
	stored = bp_leaf_encode(&leaf, slot, state->work.stored);
	memcpy(copy.data, BufferGetPage(buf), BLCKSZ);
	bp_leaf_open(&copy_leaf, copy.data, &state->desc);
	/* the copy takes a keyed slot's keys (append_to_leaf saw room) */
	result = bp_leaf_flush_insert(&copy_leaf, stored, copy_stored,
								  bp_leaf_work_scratch(&state->work));
	if (result == BP_LEAF_CROWDED)
	{
		/*
		 * A leaf past three quarters of its fill target splits if that
		 * sets a stream of inserts free.  A leaf below that (one a split
		 * has just halved) redistributes: a split there would leave two
		 * small pages that fill no further when other streams end inside
		 * the leaf (each value of a column with few values takes new rows
		 * at the end of its run).  The fraction keeps both cases: 1,000
		 * values under random inserts and two interleaved ascending loads
		 * (sql/09_inserts.sql).  The rightmost leaf splits at once: a
		 * stream there lies below another stream at the top of the index
		 * (sessions loading consecutive batches of ascending keys), and
		 * redistributing the leaf at every flush until it is three
		 * quarters full cost more than the split, under the lock both
		 * sessions wait for.  An update that leaves its row's key
		 * unchanged starts no stream: its entry replaces an old version
		 * that bottom-up deletion or VACUUM removes, and a split would
		 * leave two pages that never fill.
		 */
		Page		page = BufferGetPage(buf);

		n = bp_leaf_count(&leaf) + 1;
		if (!unchanged &&
			(4 * n > 3 * leaf_fill_target(state, &leaf) ||
			 !(BpPageGetOpaque(page)->flags & BP_HAS_HIGH)) &&
			stream_split_point(state, &leaf, page, stored, n) >= 0)
			return BP_LEAF_FULL;
		bp_leaf_redistribute(&copy_leaf, copy_stored,
							 bp_leaf_work_scratch(&state->work));
		result = BP_LEAF_INSERTED;
	}
	if (result == BP_LEAF_FULL)
		return BP_LEAF_FULL;
	if (result == BP_LEAF_INSERTED)
		bp_install_page(index, buf, copy.data, BP_XLOG_REWRITE);
	return BP_LEAF_INSERTED;
}

/* A split point moved so that neither half exceeds what a page holds. */
static int
fit_split(int nleft, int n, int capacity)
{
	return Min(Max(nleft, n - capacity), capacity);
}

/*
 * Where a full page of n entries (the new one at pos) splits when no
 * stream sets the point: in half, or, when the new entry goes last on the
 * rightmost page (ascending inserts), so that the left page keeps target
 * entries, as nbtree does.
 */
static int
split_point(int n, int pos, uint16 flags, int target, int capacity)
{
	int			nleft = n / 2;

	if (!(flags & BP_HAS_HIGH) && pos == n - 1)
		nleft = Max(1, Min(n - 1, target));
	return fit_split(nleft, n, capacity);
}

/*
 * Where a full leaf of n sorted entries splits when the new one, at pos,
 * ends the run of its key (its left neighbour has the same key, its right
 * neighbour a greater one): right after it, as nbtree splits after a new
 * item that extends a run, if the left page keeps a quarter of a leaf.
 * A column with few values takes each value's new rows at the end of its
 * run, so the left page fills up again from its top; a split in half
 * would leave a page that no insert comes to.  -1 if the rule does not
 * apply.
 */
static int
run_end_split_point(const BpSlotDesc *desc, const char *items, int n, int pos,
					int capacity)
{
	const char *slot = items + (Size) pos * desc->width;

	if (pos == 0 || pos + 1 >= n || pos + 1 < capacity / 4)
		return -1;
	if (bp_compare_slot_keys(desc, slot - desc->width, slot) != 0 ||
		bp_compare_slot_keys(desc, slot, slot + desc->width) == 0)
		return -1;
	return pos + 1;
}

/* Insert slot into a sorted array of n slots; returns its position. */
static int
insert_sorted(char *items, int n, const char *slot, const BpSlotDesc *desc)
{
	int			lo = 0;
	int			hi = n;

	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;

		if (bp_compare_slots(items + (Size) mid * desc->width, slot,
							 (void *) desc) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(items + (Size) (lo + 1) * desc->width, items + (Size) lo * desc->width,
			(Size) (n - lo) * desc->width);
	memcpy(items + (Size) lo * desc->width, slot, desc->width);
	return lo;
}

/*
 * A leaf's entries in sorted order, as logical slots, with room for one
 * more.  Their keys point where leaf->keys says.
 */
static char *
leaf_items(BpIndexState *state, BpLeaf *leaf, int *n)
{
	char	   *items = palloc((Size) (bp_leaf_count(leaf) + 1) * state->desc.width);

	*n = bp_leaf_sorted(leaf, NULL, NULL, NULL, false, items, &state->work);
	return items;
}

/* Free the copies of a leaf's entries and fences that a split made. */
static void
free_split_copies(char *items, char *lowkey, char *highkey)
{
	pfree(items);
	if (lowkey)
		pfree(lowkey);
	if (highkey)
		pfree(highkey);
}

/*
 * The codec of the exclusively locked leaf in buf cannot hold slot, or
 * its key area has no room for slot's keys: rebuild the leaf with slot
 * and a codec (or key area) chosen for all its entries, WAL-logged.
 * False, changing nothing, if they do not fit one page, or for keys, if
 * they fill it beyond its fill target (the leaf splits instead).
 */
static bool
recode_leaf(Relation index, BpIndexState *state, Buffer buf, const char *slot)
{
	const BpSlotDesc *desc = &state->desc;
	Page		page = BufferGetPage(buf);
	BpLeaf		leaf;
	BpLeafPlan	plan;
	PGAlignedBlock copy;
	char	   *lowkey = bp_copy_page_fence(desc, page, false);
	char	   *highkey = bp_copy_page_fence(desc, page, true);
	char	   *items;
	int			n;
	int			pos;
	bool		fits;

	bp_leaf_open(&leaf, page, desc);
	items = leaf_items(state, &leaf, &n);
	pos = insert_sorted(items, n++, slot, desc);
	fits = n <= bp_leaf_plan(desc, &state->options, items, n, lowkey, highkey,
							 NULL, &plan);
	/* a keyed leaf whose key area is full of live keys splits instead */
	if (desc->has_keys && n > plan.fill_target)
		fits = false;
	if (fits)
	{
		/*
		 * An entry above all others (an ascending stream outgrowing the
		 * codec) leaves the blocks packed, so that the stream goes on
		 * appending into new blocks; spread evenly, every block would be
		 * in use and the stream's next inserts would go through the log.
		 */
		memcpy(copy.data, page, BLCKSZ);
		bp_leaf_fill(copy.data, desc, &plan, items, n, lowkey, highkey,
					 pos == n - 1);
		BpPageGetOpaque(copy.data)->rightlink = BpPageGetOpaque(page)->rightlink;
		bp_install_page(index, buf, copy.data, BP_XLOG_REWRITE);
	}
	free_split_copies(items, lowkey, highkey);
	return fits;
}

/* How a leaf's sorted entries are divided between it and its new sibling. */
typedef struct LeafSplit
{
	int			nleft;			/* entries that stay on the left */
	char	   *pivot;			/* logical slot: the right page's low key */
	BpLeafPlan	left;
	BpLeafPlan	right;
} LeafSplit;

/*
 * Plan the halves of the n sorted logical slots in items split after
 * nleft, between the leaf's fences, with the pivot between them cut short
 * where their keys allow (bp_separator), or whole: the right half's first
 * entry, whose keys its low key then shares (only a whole pivot leaves
 * the left half empty, nleft 0).  0 if both plans hold their entries,
 * else -1 if the left half does not fit, +1 if only the right half does
 * not.
 */
static int
plan_halves(BpIndexState *state, BpLeaf *leaf, const char *items, int n,
			int nleft, const char *lowkey, const char *highkey, bool whole,
			LeafSplit *split)
{
	const BpSlotDesc *desc = &state->desc;
	const char *right = items + (Size) nleft * desc->width;

	Assert(nleft >= (whole ? 0 : 1) && nleft < n);
	split->nleft = nleft;
	if (whole)
		memcpy(split->pivot, right, desc->width);
	else
		bp_separator(desc, right - desc->width, right, split->pivot);
	if (nleft > bp_leaf_plan(desc, &state->options, items, nleft, lowkey,
							 split->pivot, leaf, &split->left))
		return -1;
	if (n - nleft > bp_leaf_plan(desc, &state->options, right, n - nleft,
								 split->pivot, highkey, leaf, &split->right))
		return 1;
	return 0;
}

/*
 * Split the n sorted logical slots in items before the first, whole, as
 * the pivot: the left half keeps the leaf's low key and no entry, the right
 * half takes them all, its low key sharing the first one's keys.  Where
 * keys are as long as bp_max_key_bytes allows, a page holds two of them
 * beside short ones, not three: a leaf with a low key, an entry and a high
 * key of that length splits only so (the low key and the new entry's
 * pivot on the left, the entry and its high key on the right).  False if
 * the first entry is the low key itself, or the halves do not fit.
 */
static bool
split_before_first(BpIndexState *state, BpLeaf *leaf, const char *items,
				   int n, const char *lowkey, const char *highkey,
				   LeafSplit *split)
{
	if (n < 1 ||
		(lowkey && bp_compare_slots(lowkey, items, (void *) &state->desc) >= 0))
		return false;
	return plan_halves(state, leaf, items, n, 0, lowkey, highkey, true,
					   split) == 0;
}

/*
 * Choose where the n sorted logical slots in items split: at preferred if
 * both halves fit their pages there, else at a point where they do.
 * Halves of a leaf of long keys beside short ones fit only where their
 * bytes, not their counts, balance: a half that does not fit moves the
 * point away from it, by bisection (a page that holds some entries holds
 * fewer as well), then, should the plans not follow that rule, by trying
 * every point, and every point again with whole pivots; last, before the
 * first entry, with an empty left half (split_before_first).  False if
 * no point fits, with split undefined.
 */
static bool
choose_split(BpIndexState *state, BpLeaf *leaf, const char *items, int n,
			 int preferred, const char *lowkey, const char *highkey,
			 LeafSplit *split)
{
	int			side;
	int			lo;
	int			hi;

	if (n < 2)
		return split_before_first(state, leaf, items, n, lowkey, highkey,
								  split);
	preferred = Min(Max(preferred, 1), n - 1);
	side = plan_halves(state, leaf, items, n, preferred, lowkey, highkey,
					   false, split);
	if (side == 0)
		return true;
	/* bisect between preferred and the end the failing half shrinks to */
	lo = side < 0 ? 1 : preferred + 1;
	hi = side < 0 ? preferred - 1 : n - 1;
	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			at = plan_halves(state, leaf, items, n, mid, lowkey,
									 highkey, false, split);

		if (at == 0)
			return true;
		/* move away from the half that failed */
		if (at < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	/* a cut pivot takes its own keys: a whole one shares them */
	for (int whole = 0; whole <= 1; whole++)
		for (int nleft = 1; nleft < n; nleft++)
			if (plan_halves(state, leaf, items, n, nleft, lowkey, highkey,
							whole, split) == 0)
				return true;
	return split_before_first(state, leaf, items, n, lowkey, highkey, split);
}

/*
 * Split the full, exclusively locked leaf in buf, adding slot: the upper
 * part moves to a new right sibling, then the downlink goes to the parent.
 * Each half chooses its own codec and key area.  If no halves with slot
 * fit their pages (slot widens the codec a lot, or its keys are long),
 * the leaf's own entries split without it and false tells the caller to
 * insert it again.  Nothing changes, and an ERROR names the index, if
 * not even they fit two pages.  Releases buf.
 */
static bool
split_leaf(Relation index, BpIndexState *state, Buffer buf, const char *slot)
{
	const BpSlotDesc *desc = &state->desc;
	uint16		width = desc->width;
	Page		page = BufferGetPage(buf);
	BpPageOpaque opaque = BpPageGetOpaque(page);
	char	   *lowkey = bp_copy_page_fence(desc, page, false);
	char	   *highkey = bp_copy_page_fence(desc, page, true);
	BpLeaf		leaf;
	LeafSplit	split;
	char	   *items;
	int			n;
	int			pos;
	int			nleft;
	int			capacity;
	bool		packed_blocks;
	bool		inserted = true;
	Buffer		rbuf;
	BlockNumber right;
	BpXLog	   *xlog;
	Page		lpage;
	Page		rpage;

	bp_leaf_open(&leaf, page, desc);
	capacity = bp_leaf_capacity(&leaf);
	/* the pivot's key must outlive the page's rewrite */
	bp_leaf_copy_keys(&leaf, state->work.keys);
	items = leaf_items(state, &leaf, &n);
	pos = insert_sorted(items, n++, slot, desc);
	nleft = stream_split_point(state, &leaf, page,
							   bp_leaf_encode(&leaf, slot, state->work.stored), n);
	packed_blocks = nleft >= 0;
	if (nleft < 0)
		nleft = run_end_split_point(desc, items, n, pos, capacity);
	if (nleft < 0)
	{
		nleft = split_point(n, pos, opaque->flags,
							leaf_fill_target(state, &leaf),
							capacity);
		packed_blocks = !(opaque->flags & BP_HAS_HIGH) && pos == n - 1;
	}
	else
		nleft = fit_split(nleft, n, capacity);
	split.pivot = palloc(width);
	if (!choose_split(state, &leaf, items, n, nleft, lowkey, highkey, &split))
	{
		/* the leaf's own entries, in halves that their pages hold */
		memmove(items + (Size) pos * width, items + (Size) (pos + 1) * width,
				(Size) (--n - pos) * width);
		packed_blocks = false;
		inserted = false;
		if (!choose_split(state, &leaf, items, n, n / 2, lowkey, highkey, &split))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not split block %u of index \"%s\": its %d entries fit no two pages",
							BufferGetBlockNumber(buf), RelationGetRelationName(index), n)));
	}
	nleft = split.nleft;

	rbuf = new_page(index);
	right = BufferGetBlockNumber(rbuf);
	/* predicate locks on the leaf cover both halves */
	PredicateLockPageSplit(index, BufferGetBlockNumber(buf), right);
	xlog = bp_xlog_start(index, BP_XLOG_SPLIT);
	lpage = bp_xlog_register(xlog, buf, 0);
	rpage = bp_xlog_register(xlog, rbuf, BP_XLOG_FULL_IMAGE | BP_XLOG_CLEANUP);

	/*
	 * The right page takes over the left page's high key and right-link.
	 * After a split that ascending inserts chose, both halves are packed
	 * into their first blocks: the next ascending inserts at the top of
	 * either open new blocks instead of redistributing the leaf at every
	 * flush.
	 */
	bp_leaf_fill(rpage, desc, &split.right, items + (Size) nleft * width,
				 n - nleft, split.pivot, highkey, packed_blocks);
	BpPageGetOpaque(rpage)->rightlink = opaque->rightlink;
	bp_leaf_fill(lpage, desc, &split.left, items, nleft, lowkey, split.pivot,
				 packed_blocks);
	BpPageGetOpaque(lpage)->flags |= BP_INCOMPLETE_SPLIT;
	BpPageGetOpaque(lpage)->rightlink = right;
	bp_xlog_finish(xlog);
	UnlockReleaseBuffer(rbuf);

	if (inserted)
		state->cached_leaf = pos < nleft ? BufferGetBlockNumber(buf) : right;
	insert_downlink(index, buf, 0, split.pivot, right);
	UnlockReleaseBuffer(buf);
	pfree(split.pivot);
	free_split_copies(items, lowkey, highkey);
	return inserted;
}

/*
 * The child in childbuf was the root and has split: make a new root above
 * it and its new right sibling.
 */
static void
new_root(Relation index, Buffer childbuf, uint16 child_level,
		 const char *pivot, BlockNumber right)
{
	BpIndexState *state = bp_get_state(index);
	uint16		width = state->desc.width;
	Buffer		rootbuf = new_page(index);
	Buffer		metabuf = ReadBuffer(index, BP_METAPAGE_BLKNO);
	BpXLog	   *xlog;
	Page		root;
	Page		child;
	BpMetaPage	meta;
	BlockNumber children[2] = {BufferGetBlockNumber(childbuf), right};
	char	   *pivots = palloc0(2 * (Size) width);
	BpInternalFences no_fences = {NULL, false, NULL};

	memcpy(pivots + width, pivot, width);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	xlog = bp_xlog_start(index, BP_XLOG_NEWROOT);
	root = bp_xlog_register(xlog, rootbuf, BP_XLOG_FULL_IMAGE | BP_XLOG_CLEANUP);
	meta = BpPageGetMeta(bp_xlog_register(xlog, metabuf, 0));

	if (!bp_internal_fill_fitting(&state->desc, root, child_level + 1,
								  state->meta.internal_capacity, &no_fences,
								  children, pivots, 2, false))
		elog(ERROR, "bpindex: the keys of a new root do not fit it");
	pfree(pivots);

	meta->root = BufferGetBlockNumber(rootbuf);
	meta->root_level = child_level + 1;
	child = bp_xlog_register(xlog, childbuf, 0);
	BpPageGetOpaque(child)->flags &= ~BP_INCOMPLETE_SPLIT;
	bp_xlog_finish(xlog);
	UnlockReleaseBuffer(metabuf);
	UnlockReleaseBuffer(rootbuf);
}

/*
 * Add (pivot, right) to the exclusively locked parent in pbuf, which has
 * room, and clear the child's incomplete-split flag in the same record.
 */
static void
insert_into_internal(Relation index, Buffer pbuf, Buffer childbuf,
					 const char *pivot, BlockNumber right)
{
	BpIndexState *state = bp_get_state(index);
	uint16		width = state->desc.width;
	BpSlotBound target = {&state->desc, pivot};
	BpXLog	   *xlog = bp_xlog_start(index, BP_XLOG_DOWNLINK);
	Page		page = bp_xlog_register(xlog, pbuf, 0);
	Page		child = bp_xlog_register(xlog, childbuf, 0);
	int			pos = bp_choose_child(page, &state->desc, bp_pivot_at_or_before,
									  &target) + 1;

	/* the caller saw room for the pivot and its keys (bp_internal_has_room) */
	bp_internal_open_gap(page, width, pos);
	bp_internal_children(page, width)[pos] = right;
	if (!bp_store_page_slot(&state->desc, page, bp_internal_key_floor(page, width),
							pivot, NULL, bp_internal_pivot(page, width, pos)))
		elog(ERROR, "bpindex: the keys of a pivot do not fit its page");
	BpPageGetOpaque(child)->flags &= ~BP_INCOMPLETE_SPLIT;
	bp_xlog_finish(xlog);
}

/*
 * Where an internal page of n pivots (logical slots) with keys prefers to
 * split: at nleft, moved so that neither half takes more than half the
 * key bytes and a largest key more, but each keeps at least two children.
 */
static int
keys_split_point(const BpSlotDesc *desc, const char *pivots, int n, int nleft)
{
	Size		total = 0;
	Size		left = 0;
	int			i;

	for (i = 1; i < n; i++)
		total += bp_slot_keys_size(desc, pivots + (Size) i * desc->width);
	for (i = 1; i < nleft; i++)
		left += bp_slot_keys_size(desc, pivots + (Size) i * desc->width);
	while (nleft > 2 && left > total / 2 + desc->max_key_bytes)
		left -= bp_slot_keys_size(desc, pivots + (Size) --nleft * desc->width);
	while (nleft < n - 2 && total - left > total / 2 + desc->max_key_bytes)
		left += bp_slot_keys_size(desc, pivots + (Size) nleft++ * desc->width);
	return nleft;
}

/*
 * Fill lpage and rpage with the halves of an internal page's n children
 * and pivots split after nleft, between the page's fences, omitting a
 * half's low key where its keys do not fit with it if may_omit_low; false
 * if the keys of either do not fit.
 */
static bool
fill_internal_halves(const BpSlotDesc *desc, Page lpage, Page rpage,
					 uint16 level, int capacity, const BpInternalFences *fences,
					 const BlockNumber *children, const char *pivots, int n,
					 int nleft, bool may_omit_low)
{
	const char *separator = pivots + (Size) nleft * desc->width;
	BpInternalFences right = {separator, false, fences->high};
	BpInternalFences left = {fences->low, fences->low_omitted, separator};

	return bp_internal_fill_fitting(desc, rpage, level, capacity, &right,
									children + nleft, separator, n - nleft,
									may_omit_low) &&
		bp_internal_fill_fitting(desc, lpage, level, capacity, &left,
								 children, pivots, nleft, may_omit_low);
}

/*
 * Where an internal page of n pivots with keys splits: at preferred if
 * both halves' keys fit their pages there with two children or more
 * each, else at the nearest point where they do, else where they do once
 * a half omits its low key (*omit_low set), else with one child on a side
 * (a page of long keys holds two of them) at the point nearest the new
 * child (position new_child), low keys kept or else omitted there: the
 * half that keeps the child it split from has room for its next split, so
 * that inserts at one edge of the index do not split every page above
 * them and add a level each time.  Tried on scratch pages; -1 if no point
 * fits.
 */
static int
fitting_internal_split(const BpSlotDesc *desc, uint16 level, int capacity,
					   const BpInternalFences *fences,
					   const BlockNumber *children, const char *pivots, int n,
					   int preferred, int new_child, bool *omit_low)
{
	PGAlignedBlock left;
	PGAlignedBlock right;

	/* two children a side, low keys kept, then omitted */
	for (int pass = 0; pass < 2; pass++)
	{
		*omit_low = pass == 1;
		for (int step = 0; step < 2 * n; step++)
		{
			int			at = preferred + (step % 2 ? (step + 1) / 2 : -(step / 2));

			if (at >= 2 && at <= n - 2 &&
				fill_internal_halves(desc, left.data, right.data, level,
									 capacity, fences, children, pivots, n,
									 at, *omit_low))
				return at;
		}
	}
	/* one: the point nearest the new child, its low keys kept or omitted */
	for (int step = 0; step < 2 * n; step++)
	{
		int			at = new_child + (step % 2 ? (step + 1) / 2 : -(step / 2));

		for (int omit = 0; omit <= 1 && at >= 1 && at < n; omit++)
		{
			*omit_low = omit == 1;
			if (fill_internal_halves(desc, left.data, right.data, level,
									 capacity, fences, children, pivots, n,
									 at, *omit_low))
				return at;
		}
	}
	return -1;
}

/*
 * Fill the full parent in pbuf, which stores its low key, with its n
 * children and pivots (the new one among them) and its low key omitted
 * (BP_LOW_OMITTED), clearing the child's flag in the same record, if they
 * fit it so: a page of two children and long keys (split_internal tries
 * this for three at most) then takes its third rather than splitting into
 * a page of one.  False, and nothing changed, if they do not fit.
 */
static bool
fill_omitting_low(Relation index, Buffer pbuf, Buffer childbuf,
				  const BpInternalFences *fences, const BlockNumber *children,
				  const char *pivots, int n)
{
	BpIndexState *state = bp_get_state(index);
	BpPageOpaque opaque = BpPageGetOpaque(BufferGetPage(pbuf));
	BpInternalFences omitted = {NULL, true, fences->high};
	PGAlignedBlock filled;
	BpXLog	   *xlog;
	Page		page;
	Page		child;

	if (!bp_internal_fill_fitting(&state->desc, filled.data, opaque->level,
								  state->meta.internal_capacity, &omitted,
								  children, pivots, n, false))
		return false;
	BpPageGetOpaque(filled.data)->rightlink = opaque->rightlink;
	xlog = bp_xlog_start(index, BP_XLOG_DOWNLINK);
	page = bp_xlog_register(xlog, pbuf, 0);
	memcpy(page, filled.data, BLCKSZ);
	child = bp_xlog_register(xlog, childbuf, 0);
	BpPageGetOpaque(child)->flags &= ~BP_INCOMPLETE_SPLIT;
	bp_xlog_finish(xlog);
	return true;
}

/* Free what split_internal copied of its page. */
static void
free_internal_copies(BlockNumber *children, char *pivots, char *keys,
					 char *lowkey, char *highkey)
{
	pfree(children);
	pfree(pivots);
	if (keys)
		pfree(keys);
	if (lowkey)
		pfree(lowkey);
	if (highkey)
		pfree(highkey);
}

/*
 * Split the full parent in pbuf while adding (pivot, right), clearing the
 * child's flag in the same record; then insert the parent's own downlink.
 * Releases pbuf.
 */
static void
split_internal(Relation index, Buffer pbuf, Buffer childbuf,
			   const char *pivot, BlockNumber right)
{
	BpIndexState *state = bp_get_state(index);
	const BpSlotDesc *desc = &state->desc;
	uint16		width = desc->width;
	int			capacity = state->meta.internal_capacity;
	Page		page = BufferGetPage(pbuf);
	BpPageOpaque opaque = BpPageGetOpaque(page);
	int			n = bp_internal_header(page, width)->nitems;
	BlockNumber *children = palloc(sizeof(BlockNumber) * (n + 1));
	char	   *pivots = palloc((Size) (n + 1) * width);
	char	   *keys = desc->has_keys ? palloc(BLCKSZ) : NULL;
	char	   *lowkey = bp_copy_page_fence(desc, page, false);
	char	   *highkey = bp_copy_page_fence(desc, page, true);
	BpInternalFences fences = {lowkey, (opaque->flags & BP_LOW_OMITTED) != 0,
	highkey};
	BpSlotBound target = {desc, pivot};
	int			pos = bp_choose_child(page, desc, bp_pivot_at_or_before, &target) + 1;
	int			nleft;
	bool		omit_low = false;
	Buffer		nbuf;
	BlockNumber newblk;
	BpXLog	   *xlog;
	Page		lpage;
	Page		rpage;
	Page		child;
	char	   *separator;

	/* the n + 1 items in order, their keys in a copy of the page */
	if (keys)
		memcpy(keys, page, BLCKSZ);
	bp_internal_pivots(desc, page, keys ? keys : page, pivots);
	memcpy(children, bp_internal_children(page, width), sizeof(BlockNumber) * n);
	memmove(children + pos + 1, children + pos, sizeof(BlockNumber) * (n - pos));
	memmove(pivots + (Size) (pos + 1) * width, pivots + (Size) pos * width,
			(Size) (n - pos) * width);
	children[pos] = right;
	memcpy(pivots + (Size) pos * width, pivot, width);
	n++;
	if (desc->has_keys && n <= 3 && bp_page_stores_low(page) &&
		fill_omitting_low(index, pbuf, childbuf, &fences, children, pivots, n))
	{
		UnlockReleaseBuffer(pbuf);
		free_internal_copies(children, pivots, keys, lowkey, highkey);
		return;
	}
	nleft = split_point(n, pos, opaque->flags,
						capacity * BP_INTERNAL_RIGHTMOST_FILL / 100, capacity);
	if (desc->has_keys)
		nleft = fitting_internal_split(desc, opaque->level, capacity, &fences,
									   children, pivots, n,
									   keys_split_point(desc, pivots, n, nleft),
									   pos, &omit_low);
	if (nleft < 0)
		elog(ERROR, "bpindex: the keys of an internal page's halves do not fit them");
	separator = pivots + (Size) nleft * width;

	nbuf = new_page(index);
	newblk = BufferGetBlockNumber(nbuf);
	xlog = bp_xlog_start(index, BP_XLOG_SPLIT);
	lpage = bp_xlog_register(xlog, pbuf, 0);
	rpage = bp_xlog_register(xlog, nbuf, BP_XLOG_FULL_IMAGE | BP_XLOG_CLEANUP);

	if (!fill_internal_halves(desc, lpage, rpage, opaque->level, capacity,
							  &fences, children, pivots, n, nleft, omit_low))
		elog(ERROR, "bpindex: the keys of an internal page's halves do not fit them");
	BpPageGetOpaque(rpage)->rightlink = opaque->rightlink;
	BpPageGetOpaque(lpage)->flags |= BP_INCOMPLETE_SPLIT;
	BpPageGetOpaque(lpage)->rightlink = newblk;

	child = bp_xlog_register(xlog, childbuf, 0);
	BpPageGetOpaque(child)->flags &= ~BP_INCOMPLETE_SPLIT;
	bp_xlog_finish(xlog);
	UnlockReleaseBuffer(nbuf);

	insert_downlink(index, pbuf, BpPageGetOpaque(BufferGetPage(pbuf))->level,
					separator, newblk);
	UnlockReleaseBuffer(pbuf);
	free_internal_copies(children, pivots, keys, lowkey, highkey);
}

/*
 * Finish the split of the exclusively locked page in buf, whose right
 * sibling has no downlink yet.  Releases buf.
 */
static void
finish_split(Relation index, Buffer buf)
{
	Page		page = BufferGetPage(buf);
	char	   *pivot = bp_copy_page_fence(&bp_get_state(index)->desc, page, true);

	insert_downlink(index, buf, BpPageGetOpaque(page)->level, pivot,
					BpPageGetOpaque(page)->rightlink);
	UnlockReleaseBuffer(buf);
	pfree(pivot);
}

/*
 * The child's level has no parent yet: the root split and its new root was
 * never made (a crash, or an error, between the split's two records).
 * Finish that split, so the child's downlink has a level to go to.  The
 * caller holds a page to the right of the root; whoever holds the root
 * only ever waits for the metapage and new pages, so this cannot deadlock.
 */
static void
finish_root_split(Relation index, BlockNumber root)
{
	Buffer		buf = bp_read_buffer(index, root, BUFFER_LOCK_EXCLUSIVE);

	if (BpPageGetOpaque(BufferGetPage(buf))->flags & BP_INCOMPLETE_SPLIT)
		finish_split(index, buf);
	else
		UnlockReleaseBuffer(buf);	/* someone else finished it: look again */
}

/*
 * Insert the downlink (pivot, right) for the split child in childbuf
 * (exclusively locked, kept locked) into the level above, growing the
 * tree if the child was the root.
 */
static void
insert_downlink(Relation index, Buffer childbuf, uint16 child_level,
				const char *pivot, BlockNumber right)
{
	BpIndexState *state = bp_get_state(index);
	BpSlotBound target = {&state->desc, pivot};

	for (;;)
	{
		BpMetaPageData meta;
		Buffer		pbuf;
		Page		page;

		CHECK_FOR_INTERRUPTS();
		bp_read_meta(index, &meta);
		if (meta.root == BufferGetBlockNumber(childbuf))
		{
			/* a split holds a lock a level up to the root: stay below the cap */
			if (child_level + 1 >= BP_MAX_LEVELS)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("index \"%s\" would exceed %d levels",
								RelationGetRelationName(index), BP_MAX_LEVELS),
						 errhint("REINDEX the index, which builds a tree of fewer levels.")));
			new_root(index, childbuf, child_level, pivot, right);
			return;
		}
		if (meta.root_level <= child_level)
		{
			finish_root_split(index, meta.root);
			continue;
		}
		pbuf = bp_descend_to_level(index, bp_pivot_at_or_before, &target,
								   BUFFER_LOCK_EXCLUSIVE, child_level + 1);
		page = BufferGetPage(pbuf);
		if (BpPageGetOpaque(page)->flags & BP_INCOMPLETE_SPLIT)
		{
			finish_split(index, pbuf);
			continue;
		}
		if (bp_internal_has_room(&state->desc, page, pivot))
		{
			insert_into_internal(index, pbuf, childbuf, pivot, right);
			UnlockReleaseBuffer(pbuf);
		}
		else
			split_internal(index, pbuf, childbuf, pivot, right);
		return;
	}
}

/* The heap page a check of line pointers keeps pinned between TIDs. */
typedef struct HeapLinePointers
{
	Relation	heap;
	BlockNumber nblocks;
	Buffer		buf;
} HeapLinePointers;

/*
 * Is the heap line pointer of tid LP_DEAD: its tuple pruned, dead to
 * every snapshot here and, through the pruning's own WAL record, on
 * standbys?
 */
static bool
heap_item_is_dead(ItemPointer tid, void *arg)
{
	HeapLinePointers *lp = (HeapLinePointers *) arg;
	BlockNumber blkno = ItemPointerGetBlockNumber(tid);
	OffsetNumber offnum = ItemPointerGetOffsetNumber(tid);
	Page		page;
	bool		dead;

	if (blkno >= lp->nblocks)
		return false;
	if (!BufferIsValid(lp->buf) || BufferGetBlockNumber(lp->buf) != blkno)
	{
		if (BufferIsValid(lp->buf))
			ReleaseBuffer(lp->buf);
		lp->buf = ReadBuffer(lp->heap, blkno);
	}
	LockBuffer(lp->buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(lp->buf);
	dead = offnum >= FirstOffsetNumber &&
		offnum <= PageGetMaxOffsetNumber(page) &&
		ItemIdIsDead(PageGetItemId(page, offnum));
	LockBuffer(lp->buf, BUFFER_LOCK_UNLOCK);
	return dead;
}

/*
 * Before a full leaf splits, remove its entries that carry a dead mark and
 * whose heap line pointers are LP_DEAD (nbtree's simple deletion, limited
 * to tuples already pruned, so no record of a conflict horizon is needed);
 * true if it removed any.  Only for heap tables: other table AMs' TIDs
 * say nothing about line pointers.
 */
static bool
remove_pruned_entries(Relation index, Relation heap, Buffer buf)
{
	HeapLinePointers lp;
	int			removed;

	if (heap == NULL || heap->rd_tableam != GetHeapamTableAmRoutine() ||
		!bp_leaf_has_dead_marks(BufferGetPage(buf)))
		return false;
	lp.heap = heap;
	lp.nblocks = RelationGetNumberOfBlocks(heap);
	lp.buf = InvalidBuffer;
	removed = bp_remove_dead_entries(index, buf, true, heap_item_is_dead, &lp,
									 BP_XLOG_DEAD);
	if (BufferIsValid(lp.buf))
		ReleaseBuffer(lp.buf);
	return removed > 0;
}

/*
 * Insert slot into the exclusively locked leaf: append, else flush or
 * re-encode, BP_LEAF_FULL if it must split.  Flushes and re-encodings clear
 * the leaf's dead marks, so the entries they show pruned go first.
 * unchanged: an update inserts slot with its row's key unchanged.
 */
static BpLeafInsertResult
insert_into_leaf(Relation index, Relation heap, BpIndexState *state,
				 Buffer buf, const char *slot, bool unchanged)
{
	BpLeafInsertResult result = append_to_leaf(index, state, buf, slot);

	if (result != BP_LEAF_INSERTED && remove_pruned_entries(index, heap, buf))
		result = append_to_leaf(index, state, buf, slot);
	if (result == BP_LEAF_FLUSH)
		result = flush_into_leaf(index, state, buf, slot, unchanged);
	else if (result == BP_LEAF_RECODE && recode_leaf(index, state, buf, slot))
		result = BP_LEAF_INSERTED;
	return result;
}

/*
 * Insert slot into its exclusively locked leaf in buf: insert, split when
 * full; unless the update that inserts it left its key unchanged
 * (unchanged) and removing the old versions of rows from the leaf makes
 * room (bottom-up deletion).  Releases buf; false if the slot is not in
 * yet (a split finished or made without it) and its leaf must be found
 * again.
 */
static bool
insert_at_leaf(Relation index, Relation heap, BpIndexState *state,
			   Buffer buf, const char *slot, bool unchanged)
{
	BpLeafInsertResult result;

	if (BpPageGetOpaque(BufferGetPage(buf))->flags & BP_INCOMPLETE_SPLIT)
	{
		finish_split(index, buf);
		return false;
	}
	/* a serializable transaction that read this leaf conflicts */
	CheckForSerializableConflictIn(index, NULL, BufferGetBlockNumber(buf));
	result = insert_into_leaf(index, heap, state, buf, slot, unchanged);
	/* a wider code for a new TID may need more room than one pass made */
	for (int pass = 0; result != BP_LEAF_INSERTED && unchanged &&
		 heap != NULL && pass < BOTTOM_UP_PASSES; pass++)
	{
		if (!bp_remove_old_versions(index, heap, buf, slot))
			break;
		result = insert_into_leaf(index, heap, state, buf, slot, unchanged);
	}
	/* a split without slot has it inserted again */
	if (result != BP_LEAF_INSERTED)
		return split_leaf(index, state, buf, slot);
	state->cached_leaf = BufferGetBlockNumber(buf);
	UnlockReleaseBuffer(buf);
	return true;
}

/* Insert one slot: find its leaf and insert it there. */
static void
insert_slot(Relation index, Relation heap, BpIndexState *state,
			const char *slot, bool unchanged)
{
	BpSlotBound target = {&state->desc, slot};

	for (;;)
	{
		Buffer		buf = cached_leaf(index, state, slot, false);

		if (!BufferIsValid(buf))
			buf = bp_descend(index, bp_pivot_at_or_before, &target,
							 BUFFER_LOCK_EXCLUSIVE);
		if (insert_at_leaf(index, heap, state, buf, slot, unchanged))
			return;
	}
}

/*
 * Insert one slot into a unique index (bpunique.c): under the exclusive
 * lock of the first leaf that can hold its key, check the key's entries
 * and insert.  Waits for a transaction in progress that wrote the key and
 * checks again; reports a live row's key as a violation, or with
 * UNIQUE_CHECK_PARTIAL (ON CONFLICT) returns false and inserts anyway.
 * UNIQUE_CHECK_EXISTING (a deferred check) only checks.
 */
static bool
insert_unique(Relation index, Relation heap, BpIndexState *state,
			  const char *slot, IndexUniqueCheck mode, bool unchanged,
			  Datum *values, bool *isnull)
{
	BpSlotBound key = {&state->desc, slot};
	BpUniqueCheck check = {index, heap, slot, mode};

	for (;;)
	{
		Buffer		first = cached_leaf(index, state, slot, true);
		BpUniqueVerdict verdict;
		bool		inserted;

		if (!BufferIsValid(first))
			first = bp_descend(index, bp_unique_first_leaf_step, &key,
							   BUFFER_LOCK_EXCLUSIVE);

		if (BpPageGetOpaque(BufferGetPage(first))->flags & BP_INCOMPLETE_SPLIT)
		{
			finish_split(index, first);
			continue;
		}
		verdict = bp_unique_check(&check, first);
		if (verdict == BP_UNIQUE_WAIT)
		{
			UnlockReleaseBuffer(first);
			bp_unique_wait(&check);
			continue;
		}
		if (verdict == BP_UNIQUE_TAKEN && mode != UNIQUE_CHECK_PARTIAL)
		{
			UnlockReleaseBuffer(first);
			bp_unique_report_violation(index, heap, values, isnull);
		}
		if (verdict == BP_UNIQUE_TAKEN || mode == UNIQUE_CHECK_EXISTING)
		{
			if (BufferIsValid(check.target) && check.target != first)
				UnlockReleaseBuffer(check.target);
			UnlockReleaseBuffer(first);
			if (mode == UNIQUE_CHECK_EXISTING && !check.found_self)
				elog(ERROR, "failed to re-find tuple within index \"%s\"",
					 RelationGetRelationName(index));
			if (verdict == BP_UNIQUE_TAKEN)
				insert_slot(index, heap, state, slot, unchanged);
			return verdict == BP_UNIQUE_FREE;
		}
		/* the first leaf stays locked until the entry is in */
		inserted = insert_at_leaf(index, heap, state, check.target, slot,
								  unchanged);
		if (check.target != first)
			UnlockReleaseBuffer(first);
		if (inserted)
			return true;
	}
}

/* aminsert: add the entry of one heap tuple. */
bool
bp_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		  Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		  IndexInfo *indexInfo)
{
	BpIndexState *state = bp_get_state(index);
	MemoryContext cxt = NULL;
	MemoryContext old = CurrentMemoryContext;
	char	   *slot;
	bool		unique = true;

	bp_xlog_require(index);
	/* detoasted keys, and keys a split or re-encoding rebuilds whole */
	if (state->desc.has_keys)
	{
		cxt = AllocSetContextCreate(CurrentMemoryContext, "bpindex insert",
									ALLOCSET_SMALL_SIZES);
		MemoryContextSwitchTo(cxt);
	}
	slot = palloc(state->desc.width);
	bp_form_slot(&state->desc, slot, values, isnull, ht_ctid);
	if (checkUnique != UNIQUE_CHECK_NO && bp_unique_applies(index, isnull))
		unique = insert_unique(index, heapRel, state, slot, checkUnique,
							   indexUnchanged, values, isnull);
	else if (checkUnique != UNIQUE_CHECK_EXISTING)
		insert_slot(index, heapRel, state, slot, indexUnchanged);
	MemoryContextSwitchTo(old);
	if (cxt)
		MemoryContextDelete(cxt);
	else
		pfree(slot);
	return unique;
}
