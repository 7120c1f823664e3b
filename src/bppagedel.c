/*-------------------------------------------------------------------------
 *
 * bppagedel.c
 *	  Deleting empty leaves: unlink them from the tree in one generic WAL
 *	  record, so that VACUUM can recycle them later.
 *
 * An empty leaf L (not the root, not the rightmost leaf, no unfinished
 * split) whose parent P holds its downlink at position i gives its key
 * range to a sibling under the same parent:
 *
 *	 A. i >= 1: the left sibling LS (child i - 1 of P, whose right-link is
 *		L) takes L's high key and right-link, and P loses entry i.
 *	 B. i == 0 and P has another child: the right sibling R (child 1 of P,
 *		L's right-link) takes L's low key, P's child 0 becomes R and entry
 *		1 goes; L's left neighbour on the leaf level (under another parent,
 *		or none for the leftmost leaf) takes R as its right-link.
 *
 * L itself becomes a deleted page (BP_DELETED) that keeps its fences and
 * right-link, so that a reader that still reaches it through a stale link
 * goes on from it, and stores the next full transaction id: once every
 * snapshot is younger than that, no reader can reach it any more and
 * VACUUM hands it to the free space map (bpvacuum.c).
 *
 *	 C. L is the only child of P: first P (at level 1) merges into a sibling
 *		under its own parent GP by the same rules, taking L along as a child
 *		(one record: A, P's left sibling takes L as its last child and P's
 *		high key and right-link, GP loses P's entry; B, P's right sibling
 *		takes L as its first child and P's low key, GP's child 0 becomes
 *		it, P's left neighbour on level 1 takes it as its right-link), and
 *		P is deleted.  Then L, no longer an only child, is deleted by A or
 *		B in a second record.  The tree is valid in between.  If P is GP's
 *		only child too, GP merges first, taking P along, and so on up: the
 *		highest page of the chain of only children moves first, one record
 *		per level.  Nothing happens if the chain reaches the root or a
 *		sibling is full.  Every page of the chain has the leaf's low key,
 *		which finds their parents even where an internal page omits it
 *		(BP_LOW_OMITTED); a right sibling that omits its own in B goes on
 *		omitting it.
 *
 * Locks are taken left to right on the leaf level (LS, L, R), then the
 * parent, as everywhere else; the state found without locks is verified
 * under them, and the deletion is simply skipped when anything changed:
 * it is only an optimisation.  L is locked with a conditional cleanup
 * lock: nobody may hold a pin on it, and nobody is waited for.  The whole
 * change is one generic WAL record of at most four pages, so the tree is
 * valid before and after it and needs no half-dead state.
 *
 * In an index with keys (bpslot.h, "key fields"), a fence or pivot that
 * moves to another page takes its keys into that page's key area, and a
 * deleted page keeps its fences' keys; when they do not fit, the record
 * is abandoned and the deletion skipped.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "miscadmin.h"
#include "storage/predicate.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "bpformat.h"
#include "bpgeometry.h"
#include "bpinternal.h"
#include "bpleaf.h"
#include "bpleafplan.h"
#include "bpleafread.h"
#include "bppage.h"
#include "bppagedel.h"
#include "bpsearch.h"
#include "bpslot.h"
#include "bpstate.h"
#include "bpxlog.h"

static bool set_fence(const BpSlotDesc *desc, Page page, bool high,
					  const char *slot);

/* Moves right on the leaf level while looking for L's left neighbour. */
#define BP_MAX_NEIGHBOUR_HOPS	64

/* Is the page an empty leaf that may be deleted? */
static bool
leaf_deletable(Page page, const BpSlotDesc *desc)
{
	uint16		flags = BpPageGetOpaque(page)->flags;
	BpLeaf		leaf;

	if (!(flags & BP_LEAF) || !(flags & BP_HAS_HIGH) ||
		(flags & (BP_DELETED | BP_INCOMPLETE_SPLIT)))
		return false;
	bp_leaf_open(&leaf, page, desc);
	return bp_leaf_count(&leaf) == 0;
}

/* Is the page a live internal page without an unfinished split? */
static bool
internal_live(Page page)
{
	uint16		flags = BpPageGetOpaque(page)->flags;

	return (flags & BP_INTERNAL) && !(flags & (BP_DELETED | BP_INCOMPLETE_SPLIT));
}

/* Is the page a live leaf without an unfinished split? */
static bool
leaf_live(Page page)
{
	uint16		flags = BpPageGetOpaque(page)->flags;

	return (flags & BP_LEAF) && !(flags & (BP_DELETED | BP_INCOMPLETE_SPLIT));
}

/*
 * The parent, at the given level, of page blkno, whose low key is lowkey
 * (NULL for the leftmost page of its level), locked in lockmode, with the
 * downlink's position in *pos; or InvalidBuffer if the downlink is not
 * where the key leads.
 */
static Buffer
find_parent_at(Relation index, BlockNumber blkno, const char *lowkey,
			   int lockmode, int *pos, uint16 level)
{
	BpIndexState *state = bp_get_state(index);
	uint16		width = state->desc.width;
	BpSlotBound bound = {&state->desc, lowkey};
	Buffer		pbuf;
	Page		page;
	BlockNumber *children;
	int			n;

	pbuf = bp_descend_to_level(index, lowkey ? bp_pivot_at_or_before : bp_never_right,
							   &bound, lockmode, level);
	page = BufferGetPage(pbuf);
	children = bp_internal_children(page, width);
	n = bp_internal_header(page, width)->nitems;
	for (int i = 0; i < n; i++)
		if (children[i] == blkno)
		{
			*pos = i;
			return pbuf;
		}
	UnlockReleaseBuffer(pbuf);
	return InvalidBuffer;
}

/* The parent of leaf blkno: find_parent_at on level 1. */
static Buffer
find_parent(Relation index, BlockNumber blkno, const char *lowkey,
			int lockmode, int *pos)
{
	return find_parent_at(index, blkno, lowkey, lockmode, pos, 1);
}

/* Remove entry pos (child and pivot) of an internal page. */
static void
remove_internal_entry(Page page, uint16 width, int pos)
{
	BpInternalHeader *header = bp_internal_header(page, width);
	BlockNumber *children = bp_internal_children(page, width);

	memmove(children + pos, children + pos + 1,
			sizeof(BlockNumber) * (header->nitems - pos - 1));
	memmove(bp_internal_pivot(page, width, pos),
			bp_internal_pivot(page, width, pos + 1),
			(Size) (header->nitems - pos - 1) * width);
	header->nitems--;
	memset(bp_internal_pivot(page, width, header->nitems), 0, width);
	children[header->nitems] = InvalidBlockNumber;
}

/* Lock leaf blkno for cleanup without waiting; InvalidBuffer if busy. */
static Buffer
try_cleanup_lock(Relation index, BlockNumber blkno)
{
	Buffer		buf = ReadBuffer(index, blkno);

	if (!ConditionalLockBufferForCleanup(buf))
	{
		ReleaseBuffer(buf);
		return InvalidBuffer;
	}
	bp_check_page(index, buf, BufferGetPage(buf));
	return buf;
}

/*
 * The left neighbour of leaf blkno on the leaf level, whose right-link is
 * blkno, exclusively locked: descend to the last leaf whose entries lie
 * below lowkey and move right.  InvalidBuffer if not found.
 */
static Buffer
lock_left_neighbour(Relation index, BlockNumber blkno, const char *lowkey,
					uint16 level)
{
	BpIndexState *state = bp_get_state(index);
	BpSlotBound bound = {&state->desc, lowkey};
	Buffer		buf = bp_descend_to_level(index, bp_before_bound, &bound,
										  BUFFER_LOCK_EXCLUSIVE, level);

	for (int hops = 0; hops < BP_MAX_NEIGHBOUR_HOPS; hops++)
	{
		Page		page = BufferGetPage(buf);
		BpPageOpaque opaque = BpPageGetOpaque(page);
		BlockNumber next = opaque->rightlink;

		if (BufferGetBlockNumber(buf) == blkno ||
			!(level == 0 ? leaf_live(page) : internal_live(page)) ||
			!(opaque->flags & BP_HAS_HIGH))
			break;
		if (next == blkno)
			return buf;
		UnlockReleaseBuffer(buf);
		buf = bp_read_buffer(index, next, BUFFER_LOCK_EXCLUSIVE);
	}
	UnlockReleaseBuffer(buf);
	return InvalidBuffer;
}

/*
 * Set a fence of the live leaf page (a working copy of the deletion's
 * record) to the logical slot fence (a low key may be NULL: none).  If its keys do not fit the leaf's
 * key area (which keeps the keys of entries VACUUM removed), or the
 * windows of a packed leaf's keys no longer hold under the wider fences
 * (bp_leaf_windows_hold), the leaf is filled again with its own entries
 * and the new fences, as a split fills its halves, which compacts its key
 * area and chooses its windows anew.  False if even then they do not fit.
 */
static bool
set_leaf_fence(Relation index, Page page, bool high, const char *fence)
{
	BpIndexState *state = bp_get_state(index);
	const BpSlotDesc *desc = &state->desc;
	const char *lowkey = fence;
	const char *highkey = fence;
	BpLeaf		leaf;
	BpLeafWork	work;
	BpLeafPlan	plan;
	PGAlignedBlock fresh;
	char	   *items;
	int			n;
	bool		fits;

	if (fence == NULL)
	{
		/* the leaf becomes the first of the level */
		Assert(!high);
		BpPageGetOpaque(page)->flags &= ~BP_HAS_LOW;
		memset(bp_page_lowkey(page), 0, desc->width);
		if (bp_leaf_windows_hold(page, desc))
			return true;
	}
	else if (set_fence(desc, page, high, fence) &&
			 bp_leaf_windows_hold(page, desc))
		return true;
	if (high)
		lowkey = bp_copy_page_fence(desc, page, false);
	else
		highkey = bp_copy_page_fence(desc, page, true);
	/* a leaf that strips its keys keeps its prefix where prefix_offset says */
	bp_leaf_work_init(&work, desc);
	bp_leaf_open(&leaf, page, desc);
	items = palloc((Size) Max(bp_leaf_count(&leaf), 1) * desc->width);
	n = bp_leaf_sorted(&leaf, NULL, NULL, NULL, false, items, &work);
	fits = n <= bp_leaf_plan(desc, &state->options, items, n, lowkey, highkey,
							 NULL, &plan);
	if (fits)
	{
		bp_leaf_fill(fresh.data, desc, &plan, items, n, lowkey, highkey, false);
		BpPageGetOpaque(fresh.data)->rightlink = BpPageGetOpaque(page)->rightlink;
		memcpy(page, fresh.data, BLCKSZ);
	}
	bp_leaf_work_free(&work);
	return fits;
}

/* Release the buffers that are valid. */
static void
release_all(Buffer *bufs, int n)
{
	for (int i = 0; i < n; i++)
		if (BufferIsValid(bufs[i]))
			UnlockReleaseBuffer(bufs[i]);
}

/*
 * The last steps of a deletion, inside its critical section: turn the
 * empty leaf into a deleted page, finish the WAL record and release the
 * n buffers; true (deleted).
 */
static bool
finish_deletion(BpXLog *xlog, Page lpage, const BpSlotDesc *desc,
				Buffer *bufs, int n)
{
	bp_init_deleted_page(lpage, desc, NULL, ReadNextFullTransactionId());
	bp_xlog_finish(xlog);
	release_all(bufs, n);
	return true;
}

/* Give a deletion up before it changed anything: release the n buffers. */
static bool
abandon_deletion(Buffer *bufs, int n)
{
	release_all(bufs, n);
	return false;
}
/*
 * Case A: merge the empty leaf into its left sibling under the same
 * parent.  The parent's entry for it is at pos >= 1.
 */
static bool
delete_into_left(Relation index, BlockNumber blkno, BlockNumber left,
				 const char *lowkey)
{
	const BpSlotDesc *desc = &bp_get_state(index)->desc;
	uint16		width = desc->width;
	char		fence[BP_MAX_SLOT_WIDTH];
	Buffer		bufs[3] = {InvalidBuffer, InvalidBuffer, InvalidBuffer};
	Page		lspage;
	Page		lpage;
	Page		ppage;
	int			pos;
	BpXLog	   *xlog;

	if (lowkey == NULL)
		return false;
	bufs[0] = bp_read_buffer(index, left, BUFFER_LOCK_EXCLUSIVE);
	lspage = BufferGetPage(bufs[0]);
	if (!leaf_live(lspage) || !(BpPageGetOpaque(lspage)->flags & BP_HAS_HIGH) ||
		BpPageGetOpaque(lspage)->rightlink != blkno)
		goto give_up;
	bufs[1] = try_cleanup_lock(index, blkno);
	if (!BufferIsValid(bufs[1]))
		goto give_up;
	lpage = BufferGetPage(bufs[1]);
	if (!leaf_deletable(lpage, desc) ||
		!(BpPageGetOpaque(lpage)->flags & BP_HAS_LOW) ||
		bp_compare_slots(bp_page_fence(desc, lpage, false, fence), lowkey,
						 (void *) desc) != 0)
		goto give_up;
	bufs[2] = find_parent(index, blkno, lowkey, BUFFER_LOCK_EXCLUSIVE, &pos);
	if (!BufferIsValid(bufs[2]))
		goto give_up;
	ppage = BufferGetPage(bufs[2]);
	if (pos < 1 || bp_internal_children(ppage, width)[pos - 1] != left)
		goto give_up;

	/* serializable transactions that read L's range now hold it on LS */
	PredicateLockPageCombine(index, blkno, left);
	xlog = bp_xlog_start(index, BP_XLOG_DELETE);
	lspage = bp_xlog_register(xlog, bufs[0], 0);
	lpage = bp_xlog_register(xlog, bufs[1], BP_XLOG_CLEANUP);
	ppage = bp_xlog_register(xlog, bufs[2], 0);
	if (!set_leaf_fence(index, lspage, true,
						bp_page_fence(desc, lpage, true, fence)))
	{
		/* no room for the high key's keys in LS */
		bp_xlog_abort(xlog);
		goto give_up;
	}
	BpPageGetOpaque(lspage)->rightlink = BpPageGetOpaque(lpage)->rightlink;
	remove_internal_entry(ppage, width, pos);
	return finish_deletion(xlog, lpage, desc, bufs, 3);

give_up:
	return abandon_deletion(bufs, 3);
}

/*
 * Start the WAL record of a deletion that merges a page into its right
 * sibling.  bufs holds, locked, the left neighbour (or InvalidBuffer),
 * the page deleted (replayed under a cleanup lock), its right sibling
 * right and their parent; the neighbour's right-link becomes right here,
 * the others' images to change are returned.
 */
static BpXLog *
start_merge_right(Relation index, Buffer *bufs, BlockNumber right,
				  Page *deleted, Page *sibling, Page *parent)
{
	BpXLog	   *xlog = bp_xlog_start(index, BP_XLOG_DELETE);

	if (BufferIsValid(bufs[0]))
		BpPageGetOpaque(bp_xlog_register(xlog, bufs[0], 0))->rightlink = right;
	*deleted = bp_xlog_register(xlog, bufs[1], BP_XLOG_CLEANUP);
	*sibling = bp_xlog_register(xlog, bufs[2], 0);
	*parent = bp_xlog_register(xlog, bufs[3], 0);
	return xlog;
}

/*
 * Case B: merge the empty leaf, child 0 of a parent with other children,
 * into its right sibling under that parent.
 */
static bool
delete_into_right(Relation index, BlockNumber blkno, BlockNumber right,
				  const char *lowkey)
{
	const BpSlotDesc *desc = &bp_get_state(index)->desc;
	uint16		width = desc->width;
	char		fence[BP_MAX_SLOT_WIDTH];
	char		rfence[BP_MAX_SLOT_WIDTH];
	Buffer		bufs[4] = {InvalidBuffer, InvalidBuffer, InvalidBuffer, InvalidBuffer};
	Page		lpage;
	Page		rpage;
	Page		ppage;
	BpInternalHeader *header;
	int			pos;
	BpXLog	   *xlog;

	if (lowkey)
	{
		bufs[0] = lock_left_neighbour(index, blkno, lowkey, 0);
		if (!BufferIsValid(bufs[0]))
			return false;
	}
	bufs[1] = try_cleanup_lock(index, blkno);
	if (!BufferIsValid(bufs[1]))
		goto give_up;
	lpage = BufferGetPage(bufs[1]);
	if (!leaf_deletable(lpage, desc) ||
		BpPageGetOpaque(lpage)->rightlink != right ||
		((BpPageGetOpaque(lpage)->flags & BP_HAS_LOW) != 0) != (lowkey != NULL) ||
		(lowkey && bp_compare_slots(bp_page_fence(desc, lpage, false, fence), lowkey,
									(void *) desc) != 0))
		goto give_up;
	bufs[2] = bp_read_buffer(index, right, BUFFER_LOCK_EXCLUSIVE);
	rpage = BufferGetPage(bufs[2]);
	if (!(BpPageGetOpaque(rpage)->flags & BP_LEAF) ||
		(BpPageGetOpaque(rpage)->flags & BP_DELETED) ||
		!(BpPageGetOpaque(rpage)->flags & BP_HAS_LOW) ||
		bp_compare_slots(bp_page_fence(desc, rpage, false, rfence),
						 bp_page_fence(desc, lpage, true, fence), (void *) desc) != 0)
		goto give_up;
	bufs[3] = find_parent(index, blkno, lowkey, BUFFER_LOCK_EXCLUSIVE, &pos);
	if (!BufferIsValid(bufs[3]))
		goto give_up;
	ppage = BufferGetPage(bufs[3]);
	header = bp_internal_header(ppage, width);
	if (pos != 0 || header->nitems < 2 ||
		bp_internal_children(ppage, width)[1] != right)
		goto give_up;

	/* serializable transactions that read L's range now hold it on R */
	PredicateLockPageCombine(index, blkno, right);
	xlog = start_merge_right(index, bufs, right, &lpage, &rpage, &ppage);
	if (!set_leaf_fence(index, rpage, false, lowkey))
	{
		/* no room for the low key's keys in R */
		bp_xlog_abort(xlog);
		goto give_up;
	}
	remove_internal_entry(ppage, width, 0);
	/* pivot 0 is the parent's low key, not the removed child's */
	if (BpPageGetOpaque(ppage)->flags & BP_HAS_LOW)
		memcpy(bp_internal_pivot(ppage, width, 0), bp_page_lowkey(ppage), width);
	else
		memset(bp_internal_pivot(ppage, width, 0), 0, width);
	return finish_deletion(xlog, lpage, desc, bufs, 4);

give_up:
	return abandon_deletion(bufs, 4);
}

/*
 * Is the locked page still the internal page at this level whose only
 * child is child, with the given low key (NULL: none; not compared where
 * the page omits it, the only child's being its own) and a high key?
 */
static bool
parent_of_only_child(Page page, uint16 width, uint16 level, BlockNumber child,
					 const char *plowkey, const BpSlotDesc *desc)
{
	BpPageOpaque opaque = BpPageGetOpaque(page);
	char		fence[BP_MAX_SLOT_WIDTH];

	return internal_live(page) && opaque->level == level &&
		(opaque->flags & BP_HAS_HIGH) &&
		bp_internal_header(page, width)->nitems == 1 &&
		bp_internal_children(page, width)[0] == child &&
		((opaque->flags & BP_HAS_LOW) != 0) == (plowkey != NULL) &&
		(!bp_page_stores_low(page) ||
		 bp_compare_slots(bp_page_fence(desc, page, false, fence), plowkey,
						  (void *) desc) == 0);
}

/*
 * Is the locked child still one that may move to another parent: the
 * empty leaf to be deleted, or a live internal page one level down?
 */
static bool
child_movable(Page page, const BpSlotDesc *desc, uint16 level)
{
	return level == 0 ? leaf_deletable(page, desc) :
		internal_live(page) && BpPageGetOpaque(page)->level == level;
}

/*
 * Append child, whose low bound is the logical slot pivot, to the internal
 * page as its last child; false if the pivot's keys do not fit.
 */
static bool
append_child(const BpSlotDesc *desc, Page page, BlockNumber child,
			 const char *pivot)
{
	int			n = bp_internal_header(page, desc->width)->nitems;

	bp_internal_open_gap(page, desc->width, n);
	bp_internal_children(page, desc->width)[n] = child;
	return bp_store_page_slot(desc, page, bp_internal_key_floor(page, desc->width),
							  pivot, NULL, bp_internal_pivot(page, desc->width, n));
}

/*
 * The pivot whose keys the right sibling spage of the internal page ppage
 * stores when it takes ppage's only child as its first: ppage's low key
 * plowkey, which becomes its pivot 0 and low key; or, where spage omits its
 * low key (BP_LOW_OMITTED, and goes on omitting it), its old low key,
 * ppage's high key (into buf), which becomes its pivot 1 (pivot 0, the
 * old one, is all zeros there).
 */
static const char *
sibling_pivot(const BpSlotDesc *desc, Page spage, Page ppage,
			  const char *plowkey, char *buf)
{
	if (BpPageGetOpaque(spage)->flags & BP_LOW_OMITTED)
		return bp_page_fence(desc, ppage, true, buf);
	return plowkey;
}

/*
 * Case C: the internal page parent at the given level, whose low key is
 * plowkey (NULL for the leftmost), has child as its only child.  Merge it
 * into a sibling under its own parent, taking the child along, and delete
 * it.  Locks: the child, then the pages of parent's level left to right,
 * then the grandparent.  Returns whether the parent was merged.
 */
static bool
merge_only_parent(Relation index, BlockNumber child, BlockNumber parent,
				  const char *plowkey, uint16 level)
{
	BpIndexState *state = bp_get_state(index);
	const BpSlotDesc *desc = &state->desc;
	char		fence[BP_MAX_SLOT_WIDTH];
	char		sfence[BP_MAX_SLOT_WIDTH];
	Buffer		cbuf;
	Buffer		bufs[4] = {InvalidBuffer, InvalidBuffer, InvalidBuffer, InvalidBuffer};
	Buffer		gbuf;
	Page		gpage;
	Page		ppage;
	Page		spage;
	BpMetaPageData meta;
	int			pos;
	int			ngp;
	BlockNumber sibling;
	BpXLog	   *xlog;
	bool		merged = false;

	bp_read_meta(index, &meta);
	if (meta.root_level < level + 1)
		return false;

	/* where the parent sits in the grandparent, without locks held */
	gbuf = find_parent_at(index, parent, plowkey, BUFFER_LOCK_SHARE, &pos, level + 1);
	if (!BufferIsValid(gbuf))
		return false;
	gpage = BufferGetPage(gbuf);
	ngp = bp_internal_header(gpage, desc->width)->nitems;
	sibling = pos >= 1 ? bp_internal_children(gpage, desc->width)[pos - 1] :
		(ngp >= 2 ? bp_internal_children(gpage, desc->width)[1] : InvalidBlockNumber);
	UnlockReleaseBuffer(gbuf);
	if (sibling == InvalidBlockNumber)
		return false;			/* the parent is an only child too */

	/* the child first, so that it cannot split meanwhile */
	cbuf = bp_read_buffer(index, child, BUFFER_LOCK_EXCLUSIVE);
	if (!child_movable(BufferGetPage(cbuf), desc, level - 1))
	{
		UnlockReleaseBuffer(cbuf);
		return false;
	}

	if (pos >= 1)
	{
		/* A: [0] left sibling, [1] parent, [2] grandparent */
		if (plowkey == NULL)
			goto done;
		bufs[0] = bp_read_buffer(index, sibling, BUFFER_LOCK_EXCLUSIVE);
		spage = BufferGetPage(bufs[0]);
		if (!internal_live(spage) || BpPageGetOpaque(spage)->level != level ||
			!(BpPageGetOpaque(spage)->flags & BP_HAS_HIGH) ||
			BpPageGetOpaque(spage)->rightlink != parent ||
			!bp_internal_has_room(desc, spage, plowkey))
			goto done;
		bufs[1] = bp_read_buffer(index, parent, BUFFER_LOCK_EXCLUSIVE);
		ppage = BufferGetPage(bufs[1]);
		if (!parent_of_only_child(ppage, desc->width, level, child, plowkey, desc))
			goto done;
		bufs[2] = find_parent_at(index, parent, plowkey, BUFFER_LOCK_EXCLUSIVE, &pos, level + 1);
		if (!BufferIsValid(bufs[2]))
			goto done;
		gpage = BufferGetPage(bufs[2]);
		if (pos < 1 || bp_internal_children(gpage, desc->width)[pos - 1] != sibling)
			goto done;

		xlog = bp_xlog_start(index, BP_XLOG_DELETE);
		spage = bp_xlog_register(xlog, bufs[0], 0);
		ppage = bp_xlog_register(xlog, bufs[1], BP_XLOG_CLEANUP);
		gpage = bp_xlog_register(xlog, bufs[2], 0);
		if (!append_child(desc, spage, child, plowkey) ||
			!set_fence(desc, spage, true,
							   bp_page_fence(desc, ppage, true, fence)))
		{
			/* no room for the keys in the sibling */
			bp_xlog_abort(xlog);
			goto done;
		}
		BpPageGetOpaque(spage)->rightlink = BpPageGetOpaque(ppage)->rightlink;
		remove_internal_entry(gpage, desc->width, pos);
		bp_init_deleted_page(ppage, desc, plowkey, ReadNextFullTransactionId());
		bp_xlog_finish(xlog);
		merged = true;
	}
	else
	{
		/* B: [0] left neighbour on the level, [1] parent, [2] right sibling, [3] grandparent */
		if (plowkey)
		{
			bufs[0] = lock_left_neighbour(index, parent, plowkey, level);
			if (!BufferIsValid(bufs[0]))
				goto done;
		}
		bufs[1] = bp_read_buffer(index, parent, BUFFER_LOCK_EXCLUSIVE);
		ppage = BufferGetPage(bufs[1]);
		if (!parent_of_only_child(ppage, desc->width, level, child, plowkey, desc) ||
			BpPageGetOpaque(ppage)->rightlink != sibling)
			goto done;
		bufs[2] = bp_read_buffer(index, sibling, BUFFER_LOCK_EXCLUSIVE);
		spage = BufferGetPage(bufs[2]);
		if (!internal_live(spage) || BpPageGetOpaque(spage)->level != level ||
			!(BpPageGetOpaque(spage)->flags & BP_HAS_LOW) ||
			(bp_page_stores_low(spage) &&
			 bp_compare_slots(bp_page_fence(desc, spage, false, sfence),
							  bp_page_fence(desc, ppage, true, fence),
							  (void *) desc) != 0) ||
			!bp_internal_has_room(desc, spage, sibling_pivot(desc, spage, ppage, plowkey,
															 fence)))
			goto done;
		bufs[3] = find_parent_at(index, parent, plowkey, BUFFER_LOCK_EXCLUSIVE, &pos, level + 1);
		if (!BufferIsValid(bufs[3]))
			goto done;
		gpage = BufferGetPage(bufs[3]);
		if (pos != 0 || bp_internal_header(gpage, desc->width)->nitems < 2 ||
			bp_internal_children(gpage, desc->width)[1] != sibling)
			goto done;

		xlog = start_merge_right(index, bufs, sibling, &ppage, &spage, &gpage);
		/* the child goes first; the old pivot 0 (the old low key) moves to 1 */
		bp_internal_open_gap(spage, desc->width, 0);
		bp_internal_children(spage, desc->width)[0] = child;
		if (((BpPageGetOpaque(spage)->flags & BP_LOW_OMITTED) &&
			 !bp_store_page_slot(desc, spage,
								 bp_internal_key_floor(spage, desc->width),
								 sibling_pivot(desc, spage, ppage, plowkey, fence),
								 NULL, bp_internal_pivot(spage, desc->width, 1))) ||
			(plowkey && bp_page_stores_low(spage) &&
			 !set_fence(desc, spage, false, plowkey)))
		{
			/* no room for the keys in the sibling */
			bp_xlog_abort(xlog);
			goto done;
		}
		if (plowkey == NULL)
		{
			memset(bp_internal_pivot(spage, desc->width, 0), 0, desc->width);
			memset(bp_page_lowkey(spage), 0, desc->width);
			BpPageGetOpaque(spage)->flags &= ~(BP_HAS_LOW | BP_LOW_OMITTED);
		}
		else if (bp_page_stores_low(spage))
			memcpy(bp_internal_pivot(spage, desc->width, 0), bp_page_lowkey(spage), desc->width);
		remove_internal_entry(gpage, desc->width, 0);
		if (BpPageGetOpaque(gpage)->flags & BP_HAS_LOW)
			memcpy(bp_internal_pivot(gpage, desc->width, 0), bp_page_lowkey(gpage), desc->width);
		else
			memset(bp_internal_pivot(gpage, desc->width, 0), 0, desc->width);
		bp_init_deleted_page(ppage, desc, plowkey, ReadNextFullTransactionId());
		bp_xlog_finish(xlog);
		merged = true;
	}

done:
	release_all(bufs, 4);
	UnlockReleaseBuffer(cbuf);
	return merged;
}

/*
 * Where deleting a leaf starts: the lowest page of the chain that climbs
 * from the leaf through only children, which has a sibling under its
 * parent (the leaf itself, at level 0, when it is not an only child), the
 * page's only child below it, and its position and sibling in its parent.
 */
typedef struct BpDeletionStart
{
	BlockNumber blkno;
	BlockNumber child;
	const char *lowkey;			/* the leaf's, which every page of the chain
								 * shares; NULL for the leftmost */
	uint16		level;
	int			pos;
	BlockNumber sibling;
} BpDeletionStart;

/*
 * Climb from the leaf, whose low key is lowkey, through the pages that are
 * their parent's only child, in a tree whose root is at root_level.  False
 * if a parent was not found or the chain reaches the root.
 */
static bool
find_deletion_start(Relation index, BlockNumber leaf, const char *lowkey,
					uint16 root_level, BpDeletionStart *start)
{
	const BpSlotDesc *desc = &bp_get_state(index)->desc;
	uint16		width = desc->width;

	start->blkno = leaf;
	start->child = InvalidBlockNumber;
	start->lowkey = lowkey;
	for (start->level = 0; start->level < root_level; start->level++)
	{
		Buffer		buf = find_parent_at(index, start->blkno, start->lowkey,
										 BUFFER_LOCK_SHARE, &start->pos,
										 start->level + 1);
		Page		page;
		int			nitems;

		if (!BufferIsValid(buf))
			return false;
		page = BufferGetPage(buf);
		nitems = bp_internal_header(page, width)->nitems;
		start->sibling = start->pos >= 1 ?
			bp_internal_children(page, width)[start->pos - 1] :
			(nitems >= 2 ? bp_internal_children(page, width)[1] : InvalidBlockNumber);
		if (start->sibling != InvalidBlockNumber)
		{
			UnlockReleaseBuffer(buf);
			return true;
		}
		/*
		 * An only child: the parent has to move first.  Its low key is its
		 * only child's, the leaf's, even where it omits it.
		 */
		start->child = start->blkno;
		start->blkno = BufferGetBlockNumber(buf);
		UnlockReleaseBuffer(buf);
	}
	return false;				/* an only child of the root */
}

/*
 * Delete the empty leaf blkno, if it may be deleted.  The caller holds no
 * lock of the index.  When the leaf is the only child of its parent (and
 * that one perhaps of its own, and so on), the highest such page is merged
 * into its sibling first (case C), one level after the other, until the
 * leaf has a sibling.  Returns whether the leaf was deleted.
 */
bool
bp_delete_empty_leaf(Relation index, BlockNumber blkno)
{
	BpIndexState *state = bp_get_state(index);
	BpMetaPageData meta;
	char	   *lowkey = NULL;
	Buffer		buf;
	Page		page;
	BpDeletionStart start;
	bool		deleted = false;
	MemoryContext cxt;
	MemoryContext old;

	bp_read_meta(index, &meta);
	if (meta.root_level == 0 || meta.root == blkno)
		return false;
	cxt = AllocSetContextCreate(CurrentMemoryContext, "bpindex page deletion",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	buf = bp_read_buffer(index, blkno, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!leaf_deletable(page, &state->desc))
	{
		UnlockReleaseBuffer(buf);
		goto done;
	}
	lowkey = bp_copy_page_fence(&state->desc, page, false);
	UnlockReleaseBuffer(buf);

	/* each merge shortens the chain by one */
	for (int merges = 0; merges <= meta.root_level + 1; merges++)
	{
		if (!find_deletion_start(index, blkno, lowkey, meta.root_level, &start))
			break;
		if (start.level == 0)
		{
			if (start.pos >= 1)
				deleted = delete_into_left(index, blkno, start.sibling, lowkey);
			else
				deleted = delete_into_right(index, blkno, start.sibling, lowkey);
			break;
		}
		if (!merge_only_parent(index, start.child, start.blkno, start.lowkey,
							   start.level))
			break;
	}

done:
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return deleted;
}

/*
 * Set a fence of a live leaf or internal page to the logical slot, its
 * keys added to the page's key area; false if they do not fit.
 */
static bool
set_fence(const BpSlotDesc *desc, Page page, bool high, const char *slot)
{
	Size		floor = 0;

	if (desc->has_keys)
		floor = (BpPageGetOpaque(page)->flags & BP_LEAF) ?
			bp_leaf_key_floor(page, desc) :
			bp_internal_key_floor(page, desc->width);
	return bp_store_page_slot(desc, page, floor, slot, NULL,
							  high ? bp_page_highkey(page, desc->width) :
							  bp_page_lowkey(page));
}
