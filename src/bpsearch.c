/*-------------------------------------------------------------------------
 *
 * bpsearch.c
 *	  The descent of the tree: from the root (cached per backend) to the
 *	  leaf or the page of a given level that holds a key, moving right past
 *	  concurrent splits, and the steering predicates that choose children.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/sortsupport.h"

#include "bpformat.h"
#include "bpinternal.h"
#include "bppage.h"
#include "bpsearch.h"
#include "bpslot.h"
#include "bpstate.h"

/* The last child whose pivot satisfies go_right, or child 0. */
int
bp_choose_child(Page page, const BpSlotDesc *desc, BpGoRightFn go_right,
				void *arg)
{
	uint16		width = desc->width;
	int			lo = 1;
	int			hi = bp_internal_header(page, width)->nitems - 1;
	const char *pivots = bp_internal_pivot(page, width, 0);
	char		pivot[BP_MAX_SLOT_WIDTH];

	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;
		const char *stored = pivots + (Size) mid * width;

		if (go_right(desc->has_keys ? bp_page_slot(desc, page, stored, pivot) :
					 stored, arg))
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return hi < 1 ? 0 : hi;
}

/* go_right that finds the page holding a slot: pivot <= the bound's key. */
bool
bp_pivot_at_or_before(const void *slot, void *arg)
{
	BpSlotBound *bound = (BpSlotBound *) arg;

	return bp_compare_slots(slot, bound->key, (void *) bound->desc) <= 0;
}

/*
 * go_right that finds the page holding the slots just below a bound:
 * pivot < the bound's key (a backward step, a leaf's left neighbour).
 */
bool
bp_before_bound(const void *slot, void *arg)
{
	BpSlotBound *bound = (BpSlotBound *) arg;

	return bp_compare_slots(slot, bound->key, (void *) bound->desc) < 0;
}

static Buffer descend(Relation index, BpGoRightFn go_right, void *arg,
					  int lockmode, uint16 target_level, BpParentCopy *copy);

/* Restarts of one descent before its stale links count as corruption. */
#define BP_MAX_DESCENT_RESTARTS	100

/* A go_right that never moves right: descends to the leftmost page. */
bool
bp_never_right(const void *slot, void *arg)
{
	return false;
}

/*
 * Is the page not what a cached root must be: the leftmost live page of
 * the cached root's level?  A former root is the leftmost page of its
 * level until VACUUM deletes it; then it may be recycled as any page.
 */
static bool
stale_cached_root(BpPageOpaque opaque, uint16 cached_level)
{
	return (opaque->flags & (BP_DELETED | BP_META | BP_HAS_LOW)) != 0 ||
		opaque->level != cached_level;
}

/*
 * Read blkno and move right (Lehman-Yao) while go_right holds for the
 * page's high key.  Returns the buffer locked in lockmode, or
 * InvalidBuffer, with the reason in *stale, if the link that led to the
 * page was stale and the caller must start again from the root: the page
 * is deleted, or at another level, or its low key lies beyond the target
 * (it was deleted and reused since the link was read: a standby replays
 * a deletion and a reuse under readers that the primary's horizon does
 * not know of), or blkno is a cached root that is no longer a root nor a
 * former one.
 */
static Buffer
read_moving_right(Relation index, BlockNumber blkno, BpGoRightFn go_right,
				  void *arg, int lockmode, uint16 expected_level,
				  bool cached_root, const char **stale)
{
	const BpSlotDesc *desc = &bp_get_state(index)->desc;
	char		fence[BP_MAX_SLOT_WIDTH];

	for (;;)
	{
		Buffer		buf = bp_read_buffer(index, blkno, lockmode);
		Page		page = BufferGetPage(buf);
		BpPageOpaque opaque = BpPageGetOpaque(page);

		*stale = NULL;
		if (opaque->flags & BP_DELETED)
			*stale = "The page is deleted.";
		else if (cached_root && stale_cached_root(opaque, expected_level))
			*stale = "The cached root is no longer the leftmost page of its level.";
		else if ((opaque->flags & BP_META) || opaque->level != expected_level)
			*stale = "The page is not at the level its link leads to.";
		else if (bp_page_stores_low(page) &&
				 !go_right(bp_page_fence(desc, page, false, fence), arg))
			*stale = "The page's low key lies beyond the key its link leads to.";
		if (*stale)
		{
			UnlockReleaseBuffer(buf);
			return InvalidBuffer;
		}
		cached_root = false;
		if (!(opaque->flags & BP_HAS_HIGH) ||
			!go_right(bp_page_fence(desc, page, true, fence), arg))
			return buf;
		blkno = opaque->rightlink;
		UnlockReleaseBuffer(buf);
	}
}

/* Read the root's location from the metapage into the backend's cache. */
static void
refresh_root(Relation index, BpIndexState *state)
{
	BpMetaPageData meta;

	bp_read_meta(index, &meta);
	state->cached_root = meta.root;
	state->cached_root_level = meta.root_level;
}

/*
 * amgettreeheight: the levels above the leaves, which the planner charges
 * a descent for (18 asks every index AM; 15 asks btree only, and
 * bp_costestimate fills it in).  The root's level comes from the backend's
 * cache, read from the metapage if this backend has none yet; a root
 * split since is seen at the next descent, as btree's cached metapage is.
 */
int
bp_gettreeheight(Relation index)
{
	BpIndexState *state = bp_get_state(index);

	if (state->cached_root == InvalidBlockNumber)
		refresh_root(index, state);
	return state->cached_root_level;
}

/*
 * Descend from the root to the page at target_level where go_right turns
 * false: at each level take the last child whose pivot satisfies go_right.
 * go_right must be monotone (true for a prefix of the order).  Returns
 * that page locked in lockmode; the pages above are share-locked one at a
 * time and released before the next is locked.  The root's location is
 * cached per backend and reread from the metapage once the cached root
 * turns out to have split (Lehman-Yao makes any former root a correct
 * starting point, since it is the leftmost page of its level).  A descent
 * that reaches a deleted page (VACUUM unlinked it after the parent was
 * read), or any page its link no longer leads to (read_moving_right),
 * starts again from the root, rereading the metapage; one that keeps
 * finding such pages reports the index as corrupted.
 */
Buffer
bp_descend_to_level(Relation index, BpGoRightFn go_right, void *arg,
					int lockmode, uint16 target_level)
{
	return descend(index, go_right, arg, lockmode, target_level, NULL);
}

/* Copies replaced unused after which a scan that is not eager stops copying. */
#define BP_MAX_UNUSED_COPIES	3

/*
 * Note that a descent to a leaf went through the level-1 page in buf: copy
 * it when the previous full descent went through it too, or at once for an
 * eager copy (or when the copy is older than the page), so that the next
 * descents can start from the copy.  A scan that is not eager (lookups
 * one after another, as a nested loop's) stops copying once its copies
 * keep going unused.
 */
static void
note_parent(BpParentCopy *copy, Buffer buf)
{
	BlockNumber blkno = BufferGetBlockNumber(buf);
	Page		page = BufferGetPage(buf);

	if ((copy->eager || (blkno == copy->last_parent &&
						 copy->unused_copies < BP_MAX_UNUSED_COPIES)) &&
		(copy->copied != blkno || PageGetLSN(copy->page) != PageGetLSN(page)))
	{
		if (copy->page == NULL)
			copy->page = MemoryContextAlloc(copy->cxt, BLCKSZ);
		else if (copy->copied != InvalidBlockNumber && !copy->used)
			copy->unused_copies++;
		memcpy(copy->page, page, BLCKSZ);
		copy->copied = blkno;
		copy->used = false;
	}
	copy->last_parent = blkno;
}

/*
 * bp_descend_to_level, noting in copy (if not NULL) the level-1 page that
 * a descent to a leaf goes through.
 */
static Buffer
descend(Relation index, BpGoRightFn go_right, void *arg, int lockmode,
		uint16 target_level, BpParentCopy *copy)
{
	BpIndexState *state = bp_get_state(index);
	uint16		width = state->desc.width;
	BlockNumber blkno;
	uint16		level;
	bool		from_cache;
	int			restarts = 0;

restart:
	from_cache = true;
	if (state->cached_root == InvalidBlockNumber ||
		state->cached_root_level < target_level)
	{
		refresh_root(index, state);
		from_cache = false;
	}
	blkno = state->cached_root;
	level = state->cached_root_level;
	if (level < target_level)
		elog(ERROR, "bpindex index \"%s\" has no level %u",
			 RelationGetRelationName(index), target_level);
	for (bool at_root = true;; at_root = false)
	{
		const char *stale;
		Buffer		buf = read_moving_right(index, blkno, go_right, arg,
											level == target_level ?
											lockmode : BUFFER_LOCK_SHARE,
											level, at_root && from_cache,
											&stale);
		Page		page;

		if (!BufferIsValid(buf))
		{
			/* concurrent deletions explain a few; a corrupted link, more */
			if (++restarts > BP_MAX_DESCENT_RESTARTS)
				ereport(ERROR,
						(errcode(ERRCODE_INDEX_CORRUPTED),
						 errmsg("index \"%s\" contains corrupted page at block %u",
								RelationGetRelationName(index), blkno),
						 errdetail_internal("%s", stale)));
			CHECK_FOR_INTERRUPTS();
			state->cached_root = InvalidBlockNumber;
			goto restart;
		}
		page = BufferGetPage(buf);

		/* a root that has split is still a correct start, but a slow one */
		if (at_root && (BufferGetBlockNumber(buf) != blkno ||
						(BpPageGetOpaque(page)->flags & BP_HAS_HIGH)))
			state->cached_root = InvalidBlockNumber;
		if (level == target_level)
			return buf;
		if (copy != NULL && level == 1)
			note_parent(copy, buf);
		blkno = bp_internal_children(page, width)[bp_choose_child(page, &state->desc,
															   go_right, arg)];
		UnlockReleaseBuffer(buf);
		level--;
	}
}

/* Descend to the leaf where go_right turns false, locked in lockmode. */
Buffer
bp_descend(Relation index, BpGoRightFn go_right, void *arg, int lockmode)
{
	return bp_descend_to_level(index, go_right, arg, lockmode, 0);
}

/* An empty copy of a level-1 page, allocated in the current context. */
void
bp_parent_copy_init(BpParentCopy *copy)
{
	copy->last_parent = InvalidBlockNumber;
	copy->copied = InvalidBlockNumber;
	copy->page = NULL;
	copy->cxt = CurrentMemoryContext;
	copy->eager = false;
	copy->used = false;
	copy->unused_copies = 0;
}

/* Free the copy of a level-1 page. */
void
bp_parent_copy_free(BpParentCopy *copy)
{
	if (copy->page != NULL)
		pfree(copy->page);
	bp_parent_copy_init(copy);
}

/*
 * The child link of the copied level-1 page toward the leaf where go_right
 * turns false, or InvalidBlockNumber when that leaf lies outside the
 * copy's fences.
 */
static BlockNumber
child_from_copy(const BpSlotDesc *desc, BpParentCopy *copy,
				BpGoRightFn go_right, void *arg)
{
	Page		page = (Page) copy->page;
	uint16		flags;
	char		fence[BP_MAX_SLOT_WIDTH];

	if (copy->copied == InvalidBlockNumber)
		return InvalidBlockNumber;
	flags = BpPageGetOpaque(page)->flags;
	if ((flags & BP_HAS_HIGH) && go_right(bp_page_fence(desc, page, true, fence), arg))
		return InvalidBlockNumber;
	/* a copy that omits its low key cannot tell: descend from the root */
	if ((flags & BP_LOW_OMITTED) ||
		((flags & BP_HAS_LOW) && !go_right(bp_page_fence(desc, page, false, fence), arg)))
		return InvalidBlockNumber;
	return bp_internal_children(page, desc->width)[bp_choose_child(page, desc,
																   go_right, arg)];
}

/*
 * bp_descend through a scan's copy of a level-1 page: straight to the
 * leaf its child link leads to when the key lies within the copy's
 * fences, read as a stale link is (read_moving_right: a deleted or reused
 * page, or one whose low key lies beyond, makes it descend from the root
 * instead); otherwise a descent from the root, which copies its level-1
 * page when the previous one went through the same page.  Live leaves'
 * fences never overlap (splits and deletions move them in one record), so
 * the leaf reached is the one a descent from the root would reach.
 */
Buffer
bp_descend_via_copy(Relation index, BpParentCopy *copy, BpGoRightFn go_right,
					void *arg, int lockmode)
{
	BlockNumber child = child_from_copy(&bp_get_state(index)->desc, copy,
										go_right, arg);

	if (child != InvalidBlockNumber)
	{
		Buffer		buf = bp_read_leaf_again(index, child, go_right, arg,
											 lockmode);

		if (BufferIsValid(buf))
		{
			copy->used = true;
			return buf;
		}
		copy->copied = InvalidBlockNumber;
	}
	return descend(index, go_right, arg, lockmode, 0, copy);
}

/*
 * Read the leaf at blkno, which a scan read before, as a descent's last
 * step would: locked in lockmode, moving right while go_right holds for a
 * high key.  InvalidBuffer when the leaf no longer leads there (deleted,
 * reused, or its low key lies beyond); the caller descends instead.
 */
Buffer
bp_read_leaf_again(Relation index, BlockNumber blkno, BpGoRightFn go_right,
				   void *arg, int lockmode)
{
	const char *stale;

	return read_moving_right(index, blkno, go_right, arg, lockmode, 0,
							 false, &stale);
}

/*
 * Read the leaf that follows a leaf whose high key is highkey and whose
 * right-link was blkno, share-locked: the leaf that holds highkey.  A
 * deleted page whose low key is the key expected is passed through its
 * right-link, expecting its high key next; a page that is neither (it was
 * deleted and reused since the link was read) makes the scan descend
 * again to the leaf that holds highkey.
 */
Buffer
bp_read_next_leaf(Relation index, const BpSlotDesc *desc, BlockNumber blkno,
			   const char *highkey)
{
	char	   *expected = palloc(desc->width);
	char	   *expected_keys = bp_keys_buffer(desc);
	char		fence[BP_MAX_SLOT_WIDTH];
	BpSlotBound bound = {desc, expected};
	Buffer		buf;
	bool		found = false;

	bp_slot_copy_keys(desc, highkey, expected, expected_keys, false);
	for (;;)
	{
		Page		page;
		uint16		flags;

		CHECK_FOR_INTERRUPTS();
		buf = bp_read_buffer(index, blkno, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		flags = BpPageGetOpaque(page)->flags;
		if (!(flags & BP_LEAF))
			break;
		if (!(flags & BP_DELETED))
		{
			found = bp_slot_within_fences(page, desc, expected);
			break;
		}
		if (!(flags & BP_HAS_LOW) ||
			bp_compare_slots(bp_page_fence(desc, page, false, fence), expected,
							 (void *) desc) != 0)
			break;
		bp_slot_copy_keys(desc, bp_page_fence(desc, page, true, fence), expected,
						  expected_keys, false);
		blkno = BpPageGetOpaque(page)->rightlink;
		UnlockReleaseBuffer(buf);
	}
	if (!found)
	{
		UnlockReleaseBuffer(buf);
		bp_slot_copy_keys(desc, highkey, expected, expected_keys, false);
		buf = bp_descend(index, bp_pivot_at_or_before, &bound, BUFFER_LOCK_SHARE);
	}
	pfree(expected);
	if (expected_keys)
		pfree(expected_keys);
	return buf;
}
