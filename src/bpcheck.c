/*-------------------------------------------------------------------------
 *
 * bpcheck.c
 *	  bpindex_check(): verify the structure of a bpindex index and,
 *	  optionally, that every visible heap tuple has its entry.
 *
 * The tree is checked level by level from the root, each level left to
 * right through the right-links: page kinds and levels, the fence chain
 * (each page's low key is its left neighbour's high key), the BPA
 * invariants of every leaf (bpa_check) and that its entries lie within its
 * fences, the order of the pivots of internal pages, and that each child
 * covers exactly the range its parent gives it.  Pages are read under
 * share locks one at a time, so the check can run beside inserts: a
 * child whose high key is below its parent's bound must be the left half
 * of a split whose downlink is not in the parent yet.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "common/hashfn.h"
#include "fmgr.h"
#include "lib/bloomfilter.h"
#include "miscadmin.h"
#include "nodes/bitmapset.h"
#include "storage/freespace.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "bpformat.h"
#include "bpinternal.h"
#include "bpleaf.h"
#include "bpleafread.h"
#include "bppage.h"
#include "bpsearch.h"
#include "bpslot.h"
#include "bpstate.h"

PG_FUNCTION_INFO_V1(bpindex_check);

/* State of one check. */
typedef struct CheckState
{
	Relation	index;
	Relation	heap;
	/*
	 * Copied from the index's BpIndexState, which lives in rd_amcache: a
	 * relcache invalidation of the index (a concurrent VACUUM or ANALYZE
	 * updating its statistics) frees that, and the check may process one,
	 * e.g. when the heap scan opens pg_tablespace (18 does, for its read
	 * stream).  The support functions of slot live in rd_indexcxt, which
	 * stays while the index is open.
	 */
	BpSlotDesc	desc;
	BpLeafWork	work;
	MemoryContext leaf_cxt;		/* keys a leaf's entries are rebuilt into,
								 * reset for each leaf */
	uint16		width;
	char	   *items;			/* a leaf's entries, sorted (BLCKSZ / 2
								 * slots) */
	bloom_filter *entries;		/* every index entry, for heapallindexed */
	int64		nentries;
	BlockNumber nblocks;		/* relation size, refreshed as it grows */
	Snapshot	snapshot;		/* for heapallindexed, taken before the walk */
	Bitmapset  *in_tree;		/* pages the walk found in the tree */
	FullTransactionId start;	/* next full xid when the check began */
	char	   *low;			/* a page's fences as logical slots */
	char	   *high;
	char	   *fingerprint;	/* an entry's bytes for the bloom filter */
} CheckState;

/* A copy of an internal page's children, pivots and fences. */
typedef struct InternalCopy
{
	int			nitems;
	BlockNumber *children;
	char	   *pivots;
	uint16		flags;
	char	   *highkey;
	char	   *keys;			/* a copy of the page, where keys point */
} InternalCopy;

/* Report the first violation found. */
static void
report_violation(CheckState *state, BlockNumber blkno, const char *fmt, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" is corrupted at block %u",
					RelationGetRelationName(state->index), blkno),
			 errdetail_internal(fmt, what)));
}

/* Compare two slots of the index. */
static int
compare_entries(CheckState *state, const char *a, const char *b)
{
	return bp_compare_slots(a, b, &state->desc);
}

/* The low key of a locked page as a logical slot (in state->low). */
static const char *
low_fence(CheckState *state, Page page)
{
	return bp_page_fence(&state->desc, page, false, state->low);
}

/* The high key of a locked page as a logical slot (in state->high). */
static const char *
high_fence(CheckState *state, Page page)
{
	return bp_page_fence(&state->desc, page, true, state->high);
}

/*
 * Append to out the fingerprint of a key: the length and a hash of its
 * data, whether the key is stored compressed or not.  Returns its bytes.
 */
static Size
key_fingerprint(const char *key, char *out)
{
	const char *whole = bp_key_uncompressed(key);
	uint32		len = VARSIZE_ANY_EXHDR(whole);
	uint64		hash = hash_bytes_extended((const unsigned char *) VARDATA_ANY(whole),
										   (int) len, 0);

	memcpy(out, &len, sizeof(len));
	memcpy(out + sizeof(len), &hash, sizeof(hash));
	if (whole != key)
		pfree(unconstify(char *, whole));
	return sizeof(len) + sizeof(hash);
}

/*
 * The bytes of an entry that the bloom filter of heapallindexed holds:
 * the slot itself, or with keys, the slot without their references
 * followed by the keys' fingerprints.  Returns their length.
 */
static Size
entry_fingerprint(CheckState *state, const char *slot)
{
	const BpSlotDesc *desc = &state->desc;
	char	   *out = state->fingerprint;
	Size		len = desc->width;

	memcpy(out, slot, desc->width);
	((ItemPointer) out)->ip_posid &= ~BP_TID_DEAD_BIT;
	for (int i = 0; desc->has_keys && i < desc->ncolumns; i++)
	{
		const char *key;

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, slot, i))
			continue;
		key = bp_key_field_value(desc, NULL, slot + desc->att_offset[i]);
		bp_set_key_ref(out + desc->att_offset[i], 0);
		len += key_fingerprint(key, out + len);
	}
	return len;
}

/* Check a leaf's BPA and that its entries lie within its fences. */
static void
check_leaf(CheckState *state, BlockNumber blkno, Page page)
{
	uint16		flags = BpPageGetOpaque(page)->flags;
	BpLeaf		leaf;
	const char *problem;
	int			n;

	bp_leaf_open(&leaf, page, &state->desc);
	bp_leaf_rebuild_keys_in(&leaf, state->leaf_cxt);
	problem = bp_leaf_check(&leaf, &state->work);
	if (problem)
		report_violation(state, blkno, "The leaf's buffered partitioned array is invalid: %s.",
						 problem);
	n = bp_leaf_sorted(&leaf, NULL, NULL, NULL, false, state->items, &state->work);
	if (n > 0 && (flags & BP_HAS_LOW) &&
		compare_entries(state, state->items, low_fence(state, page)) < 0)
		report_violation(state, blkno, "%s", "A leaf entry lies below the leaf's low key.");
	if (n > 0 && (flags & BP_HAS_HIGH) &&
		compare_entries(state, state->items + (Size) (n - 1) * state->width,
						high_fence(state, page)) >= 0)
		report_violation(state, blkno, "%s", "A leaf entry lies at or above the leaf's high key.");
	if (state->entries)
		for (int i = 0; i < n; i++)
		{
			Size		len = entry_fingerprint(state, state->items +
											(Size) i * state->width);

			bloom_add_element(state->entries,
							  (unsigned char *) state->fingerprint, len);
		}
	state->nentries += n;
}

/* Copy an internal page and check the order of its pivots. */
static void
copy_internal(CheckState *state, BlockNumber blkno, Page page, InternalCopy *copy)
{
	uint16		width = state->width;
	BpPageOpaque opaque = BpPageGetOpaque(page);

	copy->nitems = bp_internal_header(page, width)->nitems;
	copy->flags = opaque->flags;
	copy->children = palloc(sizeof(BlockNumber) * copy->nitems);
	copy->pivots = palloc((Size) copy->nitems * width);
	copy->highkey = palloc(width);
	copy->keys = palloc(BLCKSZ);
	memcpy(copy->keys, page, BLCKSZ);
	memcpy(copy->children, bp_internal_children(page, width),
		   sizeof(BlockNumber) * copy->nitems);
	bp_internal_pivots(&state->desc, page, copy->keys, copy->pivots);
	bp_page_fence_into(&state->desc, page, copy->keys, true, copy->highkey);

	if (bp_page_stores_low(page) &&
		compare_entries(state, copy->pivots, low_fence(state, page)) != 0)
		report_violation(state, blkno, "%s", "The first pivot differs from the page's low key.");
	for (int i = 1; i < copy->nitems; i++)
	{
		const char *pivot = copy->pivots + (Size) i * width;

		if (i > 1 && compare_entries(state, pivot - width, pivot) >= 0)
			report_violation(state, blkno, "%s", "The pivots are not strictly ascending.");
		if (bp_page_stores_low(page) && compare_entries(state, pivot, low_fence(state, page)) <= 0)
			report_violation(state, blkno, "%s", "A pivot lies at or below the page's low key.");
		if ((opaque->flags & BP_HAS_HIGH) && compare_entries(state, pivot, copy->highkey) >= 0)
			report_violation(state, blkno, "%s", "A pivot lies at or above the page's high key.");
	}
}

/*
 * Is child i's range what the parent copy says?  Its low key must be
 * pivot i (none for the leftmost child of a leftmost parent; not compared
 * where the child or, for child 0, the parent omits it), its high key the
 * next pivot or the parent's high key, or lower if the child has split
 * and the downlink is still missing.
 */
static bool
child_matches(CheckState *state, const InternalCopy *parent, int i, Page child)
{
	uint16		flags = BpPageGetOpaque(child)->flags;
	const char *bound = i + 1 < parent->nitems ?
		parent->pivots + (Size) (i + 1) * state->width :
		((parent->flags & BP_HAS_HIGH) ? parent->highkey : NULL);
	int			c;

	if (i == 0 && !(parent->flags & BP_HAS_LOW))
	{
		if (flags & BP_HAS_LOW)
			return false;
	}
	else if (!(flags & BP_HAS_LOW))
		return false;
	else if (bp_page_stores_low(child) &&
			 !(i == 0 && (parent->flags & BP_LOW_OMITTED)) &&
			 compare_entries(state, low_fence(state, child),
							 parent->pivots + (Size) i * state->width) != 0)
		return false;

	if (!(flags & BP_HAS_HIGH))
		return bound == NULL;
	if (bound == NULL)
		return (flags & BP_INCOMPLETE_SPLIT) != 0;
	c = compare_entries(state, high_fence(state, child), bound);
	return c == 0 || (c < 0 && (flags & BP_INCOMPLETE_SPLIT));
}

/* Read a page with a share lock and check its kind and level. */
static Buffer
read_checked(CheckState *state, BlockNumber blkno, uint16 level)
{
	Buffer		buf;
	BpPageOpaque opaque;

	if (blkno >= state->nblocks)	/* a concurrent split may have extended it */
		state->nblocks = RelationGetNumberOfBlocks(state->index);
	if (blkno == BP_METAPAGE_BLKNO || blkno >= state->nblocks)
		report_violation(state, blkno, "%s", "A link points outside the index or to the metapage.");
	buf = bp_read_buffer(state->index, blkno, BUFFER_LOCK_SHARE);
	opaque = BpPageGetOpaque(BufferGetPage(buf));
	if (opaque->level != level ||
		((opaque->flags & BP_LEAF) != 0) != (level == 0))
		report_violation(state, blkno, "%s", "The page's kind or level is not that of its place in the tree.");
	return buf;
}

/*
 * Look for child in fresh copies of the internal pages at level from
 * blkno rightwards, passing deleted pages.  1 if found and its fences
 * match the copy, 0 if found and they do not, -1 if not found.
 * *passed_deleted tells whether a deleted page was passed.
 */
static int
find_child_rightwards(CheckState *state, BlockNumber blkno, uint16 level,
					  BlockNumber child, bool *passed_deleted)
{
	for (BlockNumber hops = 0; hops <= state->nblocks; hops++)
	{
		Buffer		buf = read_checked(state, blkno, level);
		Page		page = BufferGetPage(buf);
		BlockNumber next = BpPageGetOpaque(page)->rightlink;
		bool		last = !(BpPageGetOpaque(page)->flags & BP_HAS_HIGH);
		InternalCopy fresh;

		if (bp_page_deleted(page))
		{
			/* VACUUM merged it into a sibling: its content is gone */
			UnlockReleaseBuffer(buf);
			*passed_deleted = true;
			blkno = next;
			continue;
		}
		copy_internal(state, blkno, page, &fresh);
		UnlockReleaseBuffer(buf);
		for (int j = 0; j < fresh.nitems; j++)
			if (fresh.children[j] == child)
			{
				Buffer		cbuf = read_checked(state, child, level - 1);
				bool		ok = !bp_page_deleted(BufferGetPage(cbuf)) &&
					child_matches(state, &fresh, j, BufferGetPage(cbuf));

				UnlockReleaseBuffer(cbuf);
				return ok ? 1 : 0;
			}
		if (last)
			break;
		blkno = next;
	}
	return -1;
}

/*
 * Check child against a fresh copy of its parent, looking for it from
 * parent_blkno rightwards: since the first copy, a split may have added a
 * pivot next to the child or moved the child to a new right sibling of
 * its parent, and VACUUM may have deleted the child or one of its
 * neighbours (changing the child's fences).  If VACUUM deleted the parent
 * itself, merging it into its left sibling with the child, the search
 * starts again from the leftmost page of the level.  A deleted child must
 * be gone from the parent.
 */
static bool
child_matches_fresh_parent(CheckState *state, BlockNumber parent_blkno,
						   uint16 level, BlockNumber child)
{
	bool		deleted;
	bool		passed_deleted = false;
	Buffer		childbuf = read_checked(state, child, level - 1);
	int			found;

	deleted = bp_page_deleted(BufferGetPage(childbuf));
	UnlockReleaseBuffer(childbuf);

	found = find_child_rightwards(state, parent_blkno, level, child,
								  &passed_deleted);
	if (found < 0 && passed_deleted)
	{
		Buffer		leftmost = bp_descend_to_level(state->index, bp_never_right,
												   NULL, BUFFER_LOCK_SHARE,
												   level);
		BlockNumber blkno = BufferGetBlockNumber(leftmost);

		UnlockReleaseBuffer(leftmost);
		found = find_child_rightwards(state, blkno, level, child,
									  &passed_deleted);
	}
	return found < 0 ? deleted : found == 1;
}

/* Check the children of one internal page against it. */
static void
check_children(CheckState *state, BlockNumber blkno, InternalCopy *copy,
			   uint16 level)
{
	for (int i = 0; i < copy->nitems; i++)
	{
		Buffer		buf = read_checked(state, copy->children[i], level - 1);
		bool		ok = !bp_page_deleted(BufferGetPage(buf)) &&
			child_matches(state, copy, i, BufferGetPage(buf));

		UnlockReleaseBuffer(buf);
		/* concurrent splits can race a re-read too: try a few times */
		for (int attempt = 0; !ok && attempt < 5; attempt++)
			ok = child_matches_fresh_parent(state, blkno, level, copy->children[i]);
		if (!ok)
			report_violation(state, copy->children[i], "%s",
				   "The page's fence keys do not match the range its parent gives it.");
	}
}

/*
 * Check one level, left to right from leftmost; returns the leftmost
 * page of the level below.
 */
static BlockNumber
check_level(CheckState *state, BlockNumber leftmost, uint16 level)
{
	BlockNumber blkno = leftmost;
	BlockNumber below = InvalidBlockNumber;
	char	   *prev_high = palloc(state->width);
	char	   *prev_high_keys = palloc(BP_KEYS_BUFSIZE);
	bool		first = true;
	BlockNumber visited = 0;

	char	   *deleted_high = palloc(state->width);
	char	   *deleted_high_keys = palloc(BP_KEYS_BUFSIZE);
	bool		after_deleted = false;

	for (;;)
	{
		Buffer		buf = read_checked(state, blkno, level);
		Page		page = BufferGetPage(buf);
		BpPageOpaque opaque = BpPageGetOpaque(page);
		BlockNumber next = opaque->rightlink;
		bool		last = !(opaque->flags & BP_HAS_HIGH);
		InternalCopy copy;

		CHECK_FOR_INTERRUPTS();
		if (opaque->flags & BP_DELETED)
		{
			/*
			 * VACUUM deleted it after the link to it was read: it keeps
			 * its fences and right-link.  The next live page starts at or
			 * below its high key (a right sibling takes over the deleted
			 * leaf's low key).
			 */
			if (!first && (!(opaque->flags & BP_HAS_LOW) ||
						   compare_entries(state, low_fence(state, page),
										   after_deleted ? deleted_high : prev_high) != 0))
				report_violation(state, blkno, "%s", "A deleted page reached through a right-link does not continue its left neighbour's range.");
			bp_slot_copy_keys(&state->desc, high_fence(state, page), deleted_high,
							  deleted_high_keys, false);
			after_deleted = true;
			UnlockReleaseBuffer(buf);
			if (++visited > state->nblocks)
				report_violation(state, blkno, "%s", "The right-links of a level form a cycle.");
			blkno = next;
			continue;
		}
		state->in_tree = bms_add_member(state->in_tree, (int) blkno);
		if (first ? (opaque->flags & BP_HAS_LOW) != 0 && !after_deleted :
			!(opaque->flags & BP_HAS_LOW) ||
			(bp_page_stores_low(page) &&
			 (after_deleted ?
			  compare_entries(state, low_fence(state, page), prev_high) < 0 ||
			  compare_entries(state, low_fence(state, page), deleted_high) > 0 :
			  compare_entries(state, low_fence(state, page), prev_high) != 0)))
			report_violation(state, blkno, "%s", "The page's low key is not its left neighbour's high key.");
		after_deleted = false;
		if (bp_page_stores_low(page) && !last &&
			compare_entries(state, low_fence(state, page), high_fence(state, page)) >= 0)
			report_violation(state, blkno, "%s", "The page's low key is not below its high key.");
		if (!last)
			bp_slot_copy_keys(&state->desc, high_fence(state, page), prev_high,
							  prev_high_keys, false);

		if (level == 0)
		{
			check_leaf(state, blkno, page);
			UnlockReleaseBuffer(buf);
		}
		else
		{
			copy_internal(state, blkno, page, &copy);
			UnlockReleaseBuffer(buf);
			if (first)
				below = copy.children[0];
			check_children(state, blkno, &copy, level);
		}
		if (last)
			break;
		if (++visited > state->nblocks)
			report_violation(state, blkno, "%s", "The right-links of a level form a cycle.");
		blkno = next;
		first = false;
	}
	pfree(prev_high);
	pfree(prev_high_keys);
	pfree(deleted_high);
	pfree(deleted_high_keys);
	return below;
}

/*
 * Check every page outside the tree walk: a deleted page must not have
 * been found in the tree (unless VACUUM deleted it after the walk began).
 * A page the free space map offers for reuse should be deleted (or never
 * initialized), but the free space map is not WAL-logged: after a crash it
 * may offer a page that a split took meanwhile.  That is harmless, since
 * reuse checks the page under its lock and skips it, so it is only noted
 * at DEBUG1.
 */
static void
check_deleted_pages(CheckState *state)
{
	BlockNumber nblocks = RelationGetNumberOfBlocks(state->index);

	for (BlockNumber blkno = BP_METAPAGE_BLKNO + 1; blkno < nblocks; blkno++)
	{
		Buffer		buf = ReadBuffer(state->index, blkno);
		Page		page = BufferGetPage(buf);
		bool		deleted;
		bool		is_new;

		CHECK_FOR_INTERRUPTS();
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		is_new = PageIsNew(page);
		if (!is_new)
			bp_check_page(state->index, buf, page);
		deleted = !is_new && bp_page_deleted(page);
		/* pages deleted since the walk began may have been in the tree */
		if (deleted && bms_is_member((int) blkno, state->in_tree) &&
			FullTransactionIdPrecedes(bp_page_deleted_data(page, state->width)->safexid,
									  state->start))
		{
			UnlockReleaseBuffer(buf);
			report_violation(state, blkno, "%s", "A deleted page is part of the tree.");
		}
		if (!deleted && !is_new && GetRecordedFreeSpace(state->index, blkno) > 0)
			elog(DEBUG1, "the free space map of index \"%s\" offers block %u, which is in use",
				 RelationGetRelationName(state->index), blkno);
		UnlockReleaseBuffer(buf);
	}
}

/* Is the heap tuple's entry in the index?  Callback of the heap scan. */
static void
heap_tuple_present(Relation index, ItemPointer tid, Datum *values,
				   bool *isnull, bool tupleIsAlive, void *arg)
{
	CheckState *state = (CheckState *) arg;
	char	   *slot = state->items;

	Size		len;

	bp_form_slot(&state->desc, slot, values, isnull, tid);
	len = entry_fingerprint(state, slot);
	if (bloom_lacks_element(state->entries, (unsigned char *) state->fingerprint,
							len))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("heap tuple (%u,%u) from table \"%s\" lacks matching index entry in index \"%s\"",
						ItemPointerGetBlockNumber(tid),
						ItemPointerGetOffsetNumber(tid),
						RelationGetRelationName(state->heap),
						RelationGetRelationName(index))));
}

/*
 * Scan the heap with the snapshot taken before the index walk and look up
 * every visible tuple's entry: the entry of a tuple visible to it was
 * inserted before the walk started.
 */
static void
check_heap(CheckState *state)
{
	IndexInfo  *info = BuildIndexInfo(state->index);
	TableScanDesc scan;

	info->ii_Concurrent = true;
	scan = table_beginscan_strat(state->heap, state->snapshot, 0, NULL, true, true);
	table_index_build_scan(state->heap, state->index, info, true, false,
						   heap_tuple_present, state, scan);
	UnregisterSnapshot(state->snapshot);
}

/* Open the index and its table, refusing anything but a valid bpindex. */
static void
open_relations(CheckState *state, Oid indexoid)
{
	Oid			heapoid = IndexGetRelation(indexoid, true);

	state->heap = OidIsValid(heapoid) ? table_open(heapoid, AccessShareLock) : NULL;
	state->index = bp_open_index(indexoid, AccessShareLock);
}

/* bpindex_check(index regclass, heapallindexed boolean) */
Datum
bpindex_check(PG_FUNCTION_ARGS)
{
	CheckState	state = {0};
	BpIndexState *bp;
	BpMetaPageData meta;
	BlockNumber blkno;

	open_relations(&state, PG_GETARG_OID(0));
	bp = bp_get_state(state.index);
	state.desc = bp->desc;
	/* an entry the index holds is looked for whatever inserts now accept */
	state.desc.max_key_bytes = BP_MAX_KEY_SIZE;
	state.width = state.desc.width;
	state.nblocks = RelationGetNumberOfBlocks(state.index);
	bp_leaf_work_init(&state.work, &state.desc);
	state.leaf_cxt = AllocSetContextCreate(CurrentMemoryContext,
										   "bpindex check leaf keys",
										   ALLOCSET_DEFAULT_SIZES);
	/* a leaf holds fewer entries than half its bytes: each takes 2 or more */
	state.items = palloc((Size) (BLCKSZ / 2) * state.width);
	state.low = palloc(state.width);
	state.high = palloc(state.width);
	state.fingerprint = palloc(state.width + BP_KEYS_BUFSIZE);
	if (PG_GETARG_BOOL(1))
	{
		state.snapshot = RegisterSnapshot(GetTransactionSnapshot());
		state.entries = bloom_create((int64) state.nblocks * (BLCKSZ / 4),
									 maintenance_work_mem, 0x42504958);
	}

	state.start = ReadNextFullTransactionId();
	bp_read_meta(state.index, &meta);
	blkno = meta.root;
	for (int level = meta.root_level; level >= 0; level--)
		blkno = check_level(&state, blkno, level);
	check_deleted_pages(&state);

	if (state.entries)
	{
		check_heap(&state);
		bloom_free(state.entries);
	}
	index_close(state.index, AccessShareLock);
	if (state.heap)
		table_close(state.heap, AccessShareLock);
	PG_RETURN_VOID();
}
