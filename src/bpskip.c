/*-------------------------------------------------------------------------
 *
 * bpskip.c
 *	  Skip scans: walking the distinct values of a prefix of key columns,
 *	  one primitive scan per value (bpscankey.c prepares their keys).
 *
 * A skip scan copies each leaf's whole part of the outer range, so that
 * the next prefix is found in the copy when it starts there
 * (bp_skip_next_prefix); otherwise it descends to the first entry beyond
 * the prefix, or steps to the adjacent leaf when that is where the next
 * prefix starts (seek_prefix).  After a descent it first looks for the
 * next prefix in the leaf without copying it (the log and a block or two,
 * bp_leaf_nearest), and when that prefix's range starts in another leaf,
 * descends there directly (peek_next_prefix).  When the prefix's last
 * column is integer-like it descends first to the range of that column's
 * value after the current one, which no prefix can lie between
 * (guess_next_prefix): one descent per value where values are dense.
 * Where prefixes have few entries each, it reads the rest of the leaf
 * whole, testing every entry (filtering), and goes back to skipping at a
 * leaf that starts a prefix with many (bp_skip_resume).  A driving = ANY
 * array on a prefix column is the outer loop: each element's range is a
 * skip scan of its own (bp_skip_next_element).  The participants of a
 * parallel scan read one leaf at a time, each whole, and seek the next
 * prefix when the last one's range ends in the leaf read
 * (bp_skip_parallel_leaf), element after element of a driving array on a
 * prefix column; an array after the prefix is a filter in parallel scans.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relscan.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/predicate.h"

#include "bpasort.h"
#include "bpformat.h"
#include "bpleaf.h"
#include "bpleafread.h"
#include "bppage.h"
#include "bpparallel.h"
#include "bpscankey.h"
#include "bpscanpos.h"
#include "bpsearch.h"
#include "bpskip.h"
#include "bpslot.h"

/* A skip scan's prefix has few entries below this many: a small group. */
#define SKIP_SMALL_GROUP		16
/* After this many small groups in a row, a skip scan reads the leaf whole. */
#define SKIP_SMALL_GROUPS		4
/* A leaf read whole is left for skipping when its first prefix has more. */
#define SKIP_RESUME_GROUP		64
/* After this many guesses reach one leaf, the next one copies it whole. */
#define SKIP_GUESSES_PER_LEAF	16

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
 * The driving array's element that the primitive scan of a new prefix
 * starts from: the first in the scan direction, or the current one when
 * the array's column lies in the prefix (its elements are the outer loop).
 */
static int
prefix_start_element(BpScanOpaque so, ScanDirection dir)
{
	if (so->keys.drive_in_prefix)
		return so->keys.drive_elem;
	return ScanDirectionIsForward(dir) ? 0 : so->keys.drive_nelems - 1;
}

/*
 * Skip scan: make the prefix of slot the current one, from the driving
 * array's element prefix_start_element gives, for the position.
 */
static void
enter_prefix(BpScanOpaque so, BpScanPos *pos, const char *slot,
			 ScanDirection dir)
{
	int			elem = prefix_start_element(so, dir);

	bp_set_prefix(&so->keys, slot);
	bp_slot_copy_keys(&so->desc, slot, pos->prefix, pos->prefix_keys, false);
	pos->has_prefix = true;
	pos->filtering = false;
	if (so->keys.drive_key >= 0)
		bp_set_array_element(&so->keys, elem);
	pos->array_elem = elem;
}

/*
 * Skip scan: point the scan keys back at the position's prefix and
 * driving array element, after a look ahead that moved them.
 */
static void
restore_position_keys(BpScanOpaque so)
{
	if (so->pos.has_prefix)
		bp_set_prefix(&so->keys, so->pos.prefix);
	else
		bp_clear_prefix(&so->keys);
	if (so->keys.drive_key >= 0)
		bp_set_array_element(&so->keys, so->pos.array_elem);
}

/*
 * Skip scan: make so->bound, an entry of the locked leaf in buf, the scan
 * keys' prefix, from the driving array's element prefix_start_element
 * gives; if the prefix's range starts past the leaf's fence, enter it
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
		bp_set_array_element(&so->keys, prefix_start_element(so, dir));
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

/*
 * Can prefix_successor guess the prefix after the one of slot: is the
 * prefix's last column integer-like and its value in slot not NULL?
 */
static bool
successor_guessable(BpScanOpaque so, const char *slot)
{
	int			att = so->keys.nskip - 1;
	BpCompareKind kind = so->desc.cmp_kind[att];

	return (kind == BP_CMP_INT2 || kind == BP_CMP_INT4 || kind == BP_CMP_INT8) &&
		!bp_slot_isnull(&so->desc, slot, att);
}

/* Can prefix_successor guess the prefix after the current one? */
static bool
prefix_guessable(BpScanOpaque so)
{
	return so->pos.has_prefix && successor_guessable(so, so->pos.prefix);
}

/* What a skip scan's look at the leaf of the next prefix found. */
typedef enum BpPeek
{
	PEEK_COPY,					/* copy the leaf to go on there */
	PEEK_END,					/* the outer range has no further prefix */
	PEEK_ELSEWHERE,				/* the next prefix is entered (into
								 * so->bound), its range starts beyond the
								 * leaf */
	PEEK_LOADED					/* ... it starts in the leaf, whose part of
								 * the range so->pos holds */
} BpPeek;

/*
 * Into found, the entry of the locked leaf page nearest the current prefix
 * beyond it in the scan direction (the log and a block or two read, not
 * the leaf); false if the leaf has none.
 */
static bool
leaf_next_prefix_entry(BpScanOpaque so, Page page, bool forward, char *found)
{
	BpLeaf		leaf;

	bp_leaf_open(&leaf, page, &so->desc);
	if (so->probe.key_cxt)
		bp_leaf_rebuild_keys_in(&leaf, so->probe.key_cxt);
	return bp_leaf_nearest(&leaf, forward ? bp_before_next_prefix :
						   bp_after_prev_prefix, &so->keys, forward, found,
						   &so->work);
}

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

	for (;;)
	{
		BlockNumber rightlink = BpPageGetOpaque(page)->rightlink;

		if (leaf_next_prefix_entry(so, page, forward, found))
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
	/*
	 * The range starts here.  When the prefix after found's can be guessed,
	 * enter found's and load its range only: a copy of the leaf whole would
	 * decode every entry to find the next prefix, which a guess finds (and
	 * where values are dense, the guess's copy of the leaf will be whole).
	 */
	if (successor_guessable(so, found))
	{
		enter_prefix(so, &so->pos, so->bound, dir);
		so->guess_held = false;
		if (!bp_scan_load_range_if_any(scan, &so->pos, buf, dir))
			bp_scan_load_leaf_empty(scan, &so->pos, buf, dir);
		return PEEK_LOADED;
	}
	/* copy the leaf, seeking from the old prefix */
	restore_position_keys(so);
	return PEEK_COPY;
}

/*
 * Skip scan: start the primitive scan of the prefix of item of so->pos,
 * from the driving array's element prefix_start_element gives; after too
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
	int			elem = prefix_start_element(so, dir);

	pos->group_start = item;
	if (pos->small_groups >= SKIP_SMALL_GROUPS && pos->whole)
	{
		bp_clear_prefix(&so->keys);
		pos->has_prefix = false;
		pos->filtering = true;
		bp_pos_find_range(so, pos, dir);
		pos->cur = forward ? item - 1 : item + 1;
		return;
	}
	enter_prefix(so, pos, slot, dir);
	bp_pos_find_range(so, pos, dir);
	/*
	 * Far from the leaf: descend to it rather than walk there.  The prefix
	 * spans leaves: when a guess will find the next one, copying its leaf
	 * whole would only cost a decoding of every entry.
	 */
	if (bp_range_beyond_leaf(so, dir))
	{
		bp_scan_kill_entries(scan);
		so->range_only = prefix_guessable(so);
		bp_scan_first_leaf(scan, dir, elem);
		so->range_only = false;
	}
}

/* seek_prefix entered the next prefix, whose range starts in another leaf */
#define SEEK_ENTERED	(-2)
/* ... entered it and loaded the leaf of its range into so->pos */
#define SEEK_LOADED		(-3)
/* guess_next_prefix could not tell */
#define SEEK_UNKNOWN	(-4)

/*
 * Skip scan whose last prefix column is compared as an integer (int2,
 * int4, int8 and the types stored as them): make so->bound the current
 * prefix with that column's value after it in the scan direction, the
 * nearest prefix that can follow (the earlier columns kept: one pinned by
 * the outer range keeps its value anyway).  False if there is none (a NULL
 * value, the end of the type, past the outer range).
 */
static bool
prefix_successor(BpScanOpaque so, ScanDirection dir)
{
	const BpSlotDesc *desc = &so->desc;
	int			att = so->keys.nskip - 1;
	char	   *field = so->bound + desc->att_offset[att];
	int			step = ScanDirectionIsForward(dir) != desc->reverse[att] ? 1 : -1;
	int16		v2;
	int32		v4;
	int64		v8;

	if (att < 0 || !so->pos.has_prefix ||
		bp_slot_isnull(desc, so->pos.prefix, att))
		return false;
	bp_slot_copy_keys(desc, so->pos.prefix, so->bound, so->bound_keys, false);
	switch (desc->cmp_kind[att])
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
 * Skip scan: does the locked leaf in buf, reached by a guess, lie within
 * the guessed prefix in the scan direction (its fence there before the
 * prefix after it), so that a copy of it whole would find no next prefix?
 */
static bool
leaf_within_guess(BpScanOpaque so, Buffer buf, ScanDirection dir)
{
	bool		forward = ScanDirectionIsForward(dir);
	Page		page = BufferGetPage(buf);
	char		fence[BP_MAX_SLOT_WIDTH];

	if (!(BpPageGetOpaque(page)->flags & (forward ? BP_HAS_HIGH : BP_HAS_LOW)))
		return false;
	bp_page_fence(&so->desc, page, forward, fence);
	return forward ? bp_before_next_prefix(fence, &so->keys) :
		bp_after_prev_prefix(fence, &so->keys);
}

/*
 * Skip scan, after guesses that held: load the guessed prefix's range from
 * the locked leaf in buf straight into so->pos, if it holds an entry
 * there, and return true; else return false with the leaf still locked
 * and so->pos as it was (the caller looks for the entry nearest the range).
 */
static bool
load_guessed_range(IndexScanDesc scan, Buffer buf, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos	swap;

	enter_prefix(so, &so->probe, so->bound, dir);
	if (!bp_scan_load_range_if_any(scan, &so->probe, buf, dir))
	{
		so->guess_held = false;
		return false;
	}
	so->leaf_guesses = BufferGetBlockNumber(buf) == so->guess_leaf ?
		so->leaf_guesses + 1 : 1;
	so->guess_leaf = BufferGetBlockNumber(buf);
	swap = so->pos;
	so->pos = so->probe;
	so->probe = swap;
	bp_scan_release_pos(&so->probe);
	return true;
}

/*
 * Skip scan whose last prefix column is integer-like: descend straight to
 * the range of the prefix after the current one (prefix_successor), a
 * guess; in the
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
		bp_set_array_element(&so->keys, prefix_start_element(so, dir));
	buf = bp_scan_descend(scan, forward ? bp_below_range : bp_not_above_range);
	if (so->guess_held && leaf_within_guess(so, buf, dir) &&
		load_guessed_range(scan, buf, dir))
		return SEEK_LOADED;
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
		restore_position_keys(so);
		return result;
	}
	if (!bp_same_prefix(&so->keys, found, so->keys.prefix))
	{
		/* no entry of the guess reaches its range: found's value is next */
		bp_slot_copy_keys(&so->desc, found, so->bound, so->bound_keys, false);
		if (enter_if_range_elsewhere(scan, buf, dir))
			return SEEK_ENTERED;
	}
	/*
	 * When the entry nearest the range's start lies past it, the range is
	 * empty: no need to copy the leaf, unless guesses keep reaching it.
	 * Then values are dense there, and a copy of the leaf's whole part of
	 * the outer range finds the next ones without descents (and reads the
	 * leaf whole after a few small ones).
	 */
	if (BufferGetBlockNumber(buf) == so->guess_leaf)
		so->leaf_guesses++;
	else
		so->leaf_guesses = 1;
	so->guess_leaf = BufferGetBlockNumber(buf);
	enter_prefix(so, &so->pos, so->bound, dir);
	so->guess_held = bp_same_prefix(&so->keys, found, so->keys.prefix) &&
		!(forward ? bp_above_range(found, &so->keys) :
		  bp_below_range(found, &so->keys));
	if (so->leaf_guesses <= SKIP_GUESSES_PER_LEAF && !so->guess_held)
		bp_scan_load_leaf_empty(scan, &so->pos, buf, dir);
	else
		bp_scan_load_leaf(scan, &so->pos, buf, dir, NULL, NULL);
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
			buf = bp_scan_descend(scan, forward ? bp_before_next_prefix :
								  bp_not_after_prev_prefix);
			switch (peek_next_prefix(scan, &buf, dir))
			{
				case PEEK_END:
					bp_scan_release_pos(probe);
					return -1;
				case PEEK_ELSEWHERE:
					bp_scan_release_pos(probe);
					return SEEK_ENTERED;
				case PEEK_LOADED:
					bp_scan_release_pos(probe);
					return SEEK_LOADED;
				case PEEK_COPY:
					bp_scan_load_leaf(scan, probe, buf, dir, NULL, NULL);
					break;
			}
		}
		else
		{
			bp_slot_copy_keys(&so->desc, forward ? at->highkey : at->lowkey,
							  so->bound, so->bound_keys, false);
			bp_scan_load_adjacent_leaf(scan, probe, dir, at->blkno, at->rightlink);
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
bool
bp_skip_next_prefix(IndexScanDesc scan, ScanDirection dir)
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

		bp_scan_kill_entries(scan);
		item = seek_prefix(scan, dir);
		if (item == SEEK_ENTERED)
			bp_scan_first_leaf(scan, dir, pos->array_elem);
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
 * Skip scan whose driving array's column lies in the prefix: start the
 * first prefix of the range of the array's element after the current one
 * in the scan direction that has one.  False when none has: the position
 * and its keys stay as they were, so that a reversal goes on from there.
 */
static bool
next_element_prefix(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	int			current = pos->array_elem;
	bool		had_prefix = pos->has_prefix;
	bool		filtering = pos->filtering;
	bool		whole = pos->whole;

	for (int elem = bp_following_element(&so->keys, current, dir);
		 elem >= 0; elem = bp_following_element(&so->keys, elem, dir))
	{
		bp_set_array_element(&so->keys, elem);
		pos->array_elem = elem;
		bp_clear_prefix(&so->keys);
		pos->has_prefix = false;
		pos->filtering = false;
		/*
		 * A leaf copied whole holds its part of the outer range of the
		 * element before, which an element in the prefix bounds: not the
		 * entries of this one.  Seek its first prefix in the index.
		 */
		pos->whole = false;
		if (bp_skip_next_prefix(scan, dir))
			return true;
	}
	pos->array_elem = current;
	pos->has_prefix = had_prefix;
	pos->filtering = filtering;
	pos->whole = whole;
	restore_position_keys(so);
	return false;
}

/*
 * Skip scan: start its first prefix in the scan direction, from the
 * driving array's first element when the array's column lies in the
 * prefix.  False when there is none.
 */
bool
bp_skip_first_prefix(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	if (so->keys.drive_in_prefix)
	{
		int			first = ScanDirectionIsForward(dir) ? 0 :
			so->keys.drive_nelems - 1;

		bp_set_array_element(&so->keys, first);
		so->pos.array_elem = first;
	}
	bp_clear_prefix(&so->keys);
	so->pos.has_prefix = false;
	so->pos.filtering = false;
	return bp_skip_next_prefix(scan, dir) ||
		(so->keys.drive_in_prefix && next_element_prefix(scan, dir));
}

/*
 * Skip scan whose driving array's column lies in the prefix, at the end of
 * a prefix's range (or of a run of leaves read whole, which ends with the
 * element's range): the next prefix of the element's range, else the
 * first of the next element's that has one.
 */
bool
bp_skip_next_element(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	Assert(so->keys.drive_in_prefix);
	if (!so->pos.filtering && bp_skip_next_prefix(scan, dir))
		return true;
	return next_element_prefix(scan, dir);
}

/*
 * Parallel skip scan: the entry nearest the current prefix beyond it in
 * the scan direction (the first of the outer range without a prefix) into
 * so->bound, its keys copied; false if the outer range has none.  Forward
 * the leaves to the right follow the one a descent reaches; backward a
 * descent to the entries below its low key does.
 */
static bool
parallel_find_next_prefix(IndexScanDesc scan, ScanDirection dir)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	bool		forward = ScanDirectionIsForward(dir);
	char		found[BP_MAX_SLOT_WIDTH];
	BpSlotBound bound = {&so->desc, so->bound};
	Buffer		buf;

	buf = bp_scan_descend(scan, forward ? bp_before_next_prefix :
						  bp_not_after_prev_prefix);
	for (;;)
	{
		Page		page = BufferGetPage(buf);
		BlockNumber rightlink = BpPageGetOpaque(page)->rightlink;

		if (leaf_next_prefix_entry(so, page, forward, found))
			break;
		PredicateLockPage(index, BufferGetBlockNumber(buf), scan->xs_snapshot);
		if (!(BpPageGetOpaque(page)->flags & (forward ? BP_HAS_HIGH : BP_HAS_LOW)))
		{
			UnlockReleaseBuffer(buf);
			return false;
		}
		bp_slot_copy_keys(&so->desc, bp_page_fence(&so->desc, page, forward, found),
						  so->bound, so->bound_keys, false);
		UnlockReleaseBuffer(buf);
		buf = forward ? bp_read_next_leaf(index, &so->desc, rightlink, so->bound) :
			bp_descend(index, bp_before_bound, &bound, BUFFER_LOCK_SHARE);
	}
	if (forward ? bp_above_outer_range(found, &so->keys) :
		bp_below_outer_range(found, &so->keys))
	{
		UnlockReleaseBuffer(buf);
		return false;
	}
	bp_slot_copy_keys(&so->desc, found, so->bound, so->bound_keys, false);
	UnlockReleaseBuffer(buf);
	return true;
}

/*
 * Parallel skip scan: load into so->pos, read whole and filtering, the
 * leaf where the range of the prefix after done's starts (the first
 * prefix's without done), none of the entries before the prefix (forward)
 * or at or after done (backward): the participants before read them.
 * False, loading nothing, if there is no further prefix.
 */
static bool
parallel_load_next_prefix(IndexScanDesc scan, ScanDirection dir,
						  const char *done)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	bool		forward = ScanDirectionIsForward(dir);
	char		last[BP_MAX_SLOT_WIDTH];
	Buffer		buf;

	if (done != NULL)
	{
		if (so->done_keys == NULL)
			so->done_keys = MemoryContextAlloc(so->scan_cxt, BP_KEYS_BUFSIZE);
		bp_slot_copy_keys(&so->desc, done, last, so->done_keys, false);
		bp_set_prefix(&so->keys, last);
	}
	else
		bp_clear_prefix(&so->keys);
	if (!parallel_find_next_prefix(scan, dir))
		return false;
	bp_set_prefix(&so->keys, so->bound);
	buf = bp_scan_descend(scan, forward ? bp_below_range : bp_not_above_range);
	so->pos.filtering = true;
	bp_scan_load_leaf(scan, &so->pos, buf, dir, forward ? so->bound : NULL,
					  forward || done == NULL ? NULL : last);
	return true;
}

/*
 * Parallel skip scan: load into so->pos the leaf where the range of the
 * next prefix starts, as parallel_load_next_prefix does, from the range
 * of the driving array's element elem when the array's column lies in the
 * prefix, else from the first following element's range that has a
 * prefix; the keys are left at the element loaded.  False, loading
 * nothing, if no element has a further prefix.
 */
static bool
parallel_load_element_prefix(IndexScanDesc scan, ScanDirection dir, int elem,
							 const char *done)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;

	for (;;)
	{
		if (so->keys.drive_in_prefix)
			bp_set_array_element(&so->keys, elem);
		so->pos.array_elem = elem;
		if (parallel_load_next_prefix(scan, dir, done))
			return true;
		if (!so->keys.drive_in_prefix ||
			(elem = bp_following_element(&so->keys, elem, dir)) < 0)
			return false;
		done = NULL;
	}
}

/*
 * A participant of a parallel skip scan, having seized the scan as next
 * says (bpparallel.c): load the next leaf to read into so->pos, whole and
 * filtering (every entry of its part of the outer range tested against the
 * scan's keys), and release the scan where it stands after that leaf: the
 * next leaf follows while the range of its last entry's prefix goes on
 * past it, else the range of the next prefix, else (a driving array's
 * column in the prefix) the next element's range.  Participants skip
 * between prefixes as a serial scan does, one leaf at a time.  False, the
 * scan released as done, when no leaf is left.
 */
bool
bp_skip_parallel_leaf(IndexScanDesc scan, ScanDirection dir,
					  const BpParallelNext *next)
{
	BpScanOpaque so = (BpScanOpaque) scan->opaque;
	BpScanPos  *pos = &so->pos;
	bool		forward = ScanDirectionIsForward(dir);
	int			elem = next->array_elem;
	const char *last;

	if (elem < 0)
		elem = forward || !so->keys.drive_in_prefix ? 0 :
			so->keys.drive_nelems - 1;
	pos->filtering = true;
	pos->has_prefix = false;
	if (next->started)
	{
		if (so->keys.drive_in_prefix)
			bp_set_array_element(&so->keys, elem);
		bp_scan_load_adjacent_leaf(scan, pos, dir, next->leaf, next->rightlink);
		pos->array_elem = elem;
	}
	else if (!parallel_load_element_prefix(scan, dir, elem,
										   next->next_prefix ? so->bound : NULL))
	{
		bp_parallel_release_to_element(scan, -1);
		return false;
	}
	elem = pos->array_elem;
	if (!bp_has_next_leaf(so, dir))
	{
		bp_parallel_release_to_element(scan, so->keys.drive_in_prefix ?
									   bp_following_element(&so->keys, elem, dir) :
									   -1);
		return true;
	}
	last = pos->lo < pos->hi ?
		pos->items + (Size) (forward ? pos->hi - 1 : pos->lo) * so->desc.width : NULL;
	if (last != NULL)
		bp_set_prefix(&so->keys, last);
	if (last != NULL &&
		(forward ? bp_above_range(pos->highkey, &so->keys) :
		 bp_below_range(pos->lowkey, &so->keys)))
		bp_parallel_release_to_prefix(scan, elem, last, &so->desc);
	else
		bp_parallel_release_after(scan, elem, pos->blkno, pos->rightlink,
								  forward ? pos->highkey : pos->lowkey,
								  &so->desc);
	return true;
}

/*
 * Skip scan reading leaves whole: go back to skipping at the leaf just
 * loaded if a prefix with many entries starts there (none of its entries
 * lie in the leaves read before, beyond so->bound, the fence left).
 */
void
bp_skip_resume(IndexScanDesc scan, ScanDirection dir)
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
