/*-------------------------------------------------------------------------
 *
 * bparange.c
 *	  Reading ranges of a BPA region: sorted iteration (whole, or its first
 *	  blocks), the entry nearest a bound, the candidate blocks of a range,
 *	  and the unordered map over it.  Nothing here modifies the region.
 *
 * This file depends on the C standard library only.
 *
 *-------------------------------------------------------------------------
 */
#include "bpa.h"
#include "bparegion.h"
#include "bpasort.h"

#include <string.h>

/* The first block that can hold an entry for which before_start is false. */
static int
first_candidate_block(const char *region, BpaPredicateFn before_start,
					  void *pred_arg)
{
	int			lo = 1;
	int			hi = region_header(region)->used_blocks - 1;

	if (before_start == NULL)
		return 0;
	/* the last b in [1, used) with before_start(header[b]) true, else 0 */
	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;

		if (before_start(header_slot(region, mid), pred_arg))
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return hi < 1 ? 0 : hi;
}

/*
 * Copy the count slots at slots for which neither predicate holds (either
 * may be NULL) into out; returns how many.
 */
static int
copy_inside(const char *slots, int count, uint16_t w, BpaPredicateFn before_start,
			BpaPredicateFn after_end, void *pred_arg, char *out)
{
	int			n = 0;

	if (before_start == NULL && after_end == NULL)
	{
		memcpy(out, slots, (size_t) count * w);
		return count;
	}
	for (int j = 0; j < count; j++)
	{
		const char *slot = slots + (size_t) j * w;

		if ((before_start && before_start(slot, pred_arg)) ||
			(after_end && after_end(slot, pred_arg)))
			continue;
		memcpy(out + (size_t) n++ * w, slot, w);
	}
	return n;
}

/*
 * Copy the entries of blocks [first, end) into out, ascending, but those
 * of the first block that are before_start (no later block holds any:
 * its lower bound is not before_start) and those of the last block that
 * are after_end (no earlier block holds any: the next block's lower bound
 * is not after_end); returns their count.  Sorted blocks are searched,
 * not scanned, for both; unsorted ones are filtered, then sorted.
 */
static int
copy_sorted_blocks(const char *region, BpaCompareFn compare, void *arg,
				   BpaPredicateFn before_start, BpaPredicateFn after_end,
				   void *pred_arg, int first, int end, char *out)
{
	uint16_t	w = region_header(region)->layout.slot_width;
	int			n = 0;

	for (int b = first; b < end; b++)
	{
		int			count = block_counts(region)[b];
		char	   *dst = out + (size_t) n * w;
		const char *src = block_slot(region, b, 0);
		int			skip = 0;

		if (!block_is_sorted(region, b))
		{
			/* the range's entries only, sorted */
			count = copy_inside(src, count, w, b == first ? before_start : NULL,
								b == end - 1 ? after_end : NULL, pred_arg, dst);
			bpa_sort_slots(dst, count, w, compare, arg);
			n += count;
			continue;
		}
		if (b == first && before_start != NULL)
			skip = bpa_first_true(src, count, w, before_start, pred_arg, true);
		if (b == end - 1 && after_end != NULL)
			count = skip + bpa_first_true(src + (size_t) skip * w, count - skip,
										  w, after_end, pred_arg, false);
		memmove(dst, src + (size_t) skip * w, (size_t) (count - skip) * w);
		n += count - skip;
	}
	return n;
}

/*
 * Narrow the candidate blocks [*first, *end) of a range to the part's
 * max_blocks from its start (forward) or its end, and set its cut to the
 * header slot where the part ends (forward) or starts; NULL when all of
 * them fit.
 */
static void
cut_part(const char *region, BpaPart *part, int *first, int *end)
{
	part->cut = NULL;
	if (part->max_blocks <= 0 || *end - *first <= part->max_blocks)
		return;
	if (part->forward)
	{
		*end = *first + part->max_blocks;
		part->cut = header_slot(region, *end);
	}
	else
	{
		*first = *end - part->max_blocks;
		part->cut = header_slot(region, *first);
	}
}

/*
 * Keep of the n slots at slots those on the part's side of its cut: below
 * it (forward), or at or above it; returns how many.
 */
static int
drop_beyond_cut(char *slots, int n, uint16_t w, BpaCompareFn compare,
				void *arg, const BpaPart *part)
{
	int			kept = 0;

	for (int j = 0; j < n; j++)
	{
		char	   *slot = slots + (size_t) j * w;

		if ((compare(slot, part->cut, arg) < 0) != part->forward)
			continue;
		if (kept != j)
			memcpy(slots + (size_t) kept * w, slot, w);
		kept++;
	}
	return kept;
}

/*
 * Copy every entry for which before_start is false into out, ascending;
 * with after_end, the blocks past the range are left out (see
 * bpa_sorted).  With an empty log the blocks go straight into out;
 * otherwise they and the log are sorted in the blocks and log areas of
 * scratch, which out must not overlap, and merged.
 */
int
bpa_collect_sorted(const char *region, BpaCompareFn compare, void *arg,
				   BpaPredicateFn before_start, BpaPredicateFn after_end,
				   void *pred_arg, BpaPart *part, char *out, char *scratch)
{
	const BpaHeader *h = region_header(region);
	const BpaLayout *l = &h->layout;
	uint16_t	w = l->slot_width;
	char	   *blocks;
	char	   *logs;
	int			nblocks;
	int			nlog = h->log_count;
	int			bi = 0;
	int			li = 0;
	int			n = 0;
	int			first;
	int			end;

	bpa_candidate_blocks(region, before_start, after_end, pred_arg,
						 &first, &end);
	if (part != NULL)
		cut_part(region, part, &first, &end);
	if (nlog == 0)
		return copy_sorted_blocks(region, compare, arg, before_start,
								  after_end, pred_arg, first, end, out);
	blocks = scratch + AREA_BLOCKS(l) * w;
	logs = scratch + AREA_LOG(l) * w;
	nblocks = copy_sorted_blocks(region, compare, arg, before_start,
								 after_end, pred_arg, first, end, blocks);
	nlog = copy_inside(log_slot(region, 0), nlog, w, before_start, after_end,
					   pred_arg, logs);
	if (part != NULL && part->cut != NULL)
		nlog = drop_beyond_cut(logs, nlog, w, compare, arg, part);
	bpa_sort_slots(logs, nlog, w, compare, arg);

	/* two-finger merge of blocks and log */
	while (bi < nblocks || li < nlog)
	{
		const char *src;

		if (li >= nlog ||
			(bi < nblocks &&
			 compare(blocks + (size_t) bi * w, logs + (size_t) li * w, arg) < 0))
			src = blocks + (size_t) bi++ * w;
		else
			src = logs + (size_t) li++ * w;
		memcpy(out + (size_t) n++ * w, src, w);
	}
	return n;
}

/*
 * Sorted iteration over a range: every entry that is neither before_start
 * nor after_end, ascending.  Either predicate may be NULL: no bound on
 * that side.  scratch is used only to merge the log (NULL will do while
 * the log is empty).
 */
int
bpa_sorted(const char *region, BpaCompareFn compare, void *arg,
		   BpaPredicateFn before_start, BpaPredicateFn after_end,
		   void *pred_arg, char *out, char *scratch)
{
	return bpa_collect_sorted(region, compare, arg, before_start, after_end,
							  pred_arg, NULL, out, scratch);
}

/*
 * bpa_sorted of a part of the range: where its candidate blocks number
 * more than part->max_blocks, only the entries of the range below the
 * header slot of the block max_blocks after its first (forward), or at or
 * above that of the max_blocks-th block from its end; part->cut is then
 * that slot, else NULL (the whole range was copied).
 */
int
bpa_sorted_part(const char *region, BpaCompareFn compare, void *arg,
				BpaPredicateFn before_start, BpaPredicateFn after_end,
				void *pred_arg, BpaPart *part, char *out, char *scratch)
{
	return bpa_collect_sorted(region, compare, arg, before_start, after_end,
							  pred_arg, part, out, scratch);
}

/* bpa_nearest's search of block b: its nearest entry not excluded. */
static const char *
nearest_in_block(const char *region, int b, BpaCompareFn compare, void *arg,
				 BpaPredicateFn excluded, void *pred_arg, bool forward)
{
	int			count = block_counts(region)[b];
	const char *nearest = NULL;

	if (block_is_sorted(region, b))
	{
		int			j = bpa_first_true(block_slot(region, b, 0), count,
									   region_header(region)->layout.slot_width,
									   excluded, pred_arg, forward);

		j = forward ? j : j - 1;
		return j >= 0 && j < count ? block_slot(region, b, j) : NULL;
	}
	for (int j = 0; j < count; j++)
	{
		const char *slot = block_slot(region, b, j);

		if (!excluded(slot, pred_arg) &&
			(nearest == NULL ||
			 (forward ? 1 : -1) * compare(slot, nearest, arg) < 0))
			nearest = slot;
	}
	return nearest;
}

/*
 * Of the entries that excluded does not hold for, the least (forward) or
 * the greatest (backward); excluded must hold for the entries before some
 * point (forward) or after it (backward).  NULL if there is none.  Reads
 * the log, then blocks from the header's choice until one holds such an
 * entry: blocks further on hold only entries beyond it.
 */
const void *
bpa_nearest(const char *region, BpaCompareFn compare, void *arg,
			BpaPredicateFn excluded, void *pred_arg, bool forward)
{
	const BpaHeader *h = region_header(region);
	int			sign = forward ? 1 : -1;
	const char *best = NULL;
	int			first = 0;
	int			end = h->used_blocks;

	for (int i = 0; i < h->log_count; i++)
	{
		const char *slot = log_slot(region, i);

		if (!excluded(slot, pred_arg) &&
			(best == NULL || sign * compare(slot, best, arg) < 0))
			best = slot;
	}
	if (forward)
		first = first_candidate_block(region, excluded, pred_arg);
	else
		bpa_candidate_blocks(region, NULL, excluded, pred_arg, &first, &end);
	for (int b = forward ? first : end - 1; b >= first && b < end; b += sign)
	{
		const char *in_block = nearest_in_block(region, b, compare, arg,
												excluded, pred_arg, forward);

		if (in_block == NULL)
			continue;
		if (best == NULL || sign * compare(in_block, best, arg) < 0)
			best = in_block;
		break;
	}
	return best;
}

/*
 * Visit the entries of one block that lie in the range; a sorted block's
 * are found by binary searches, not by testing each entry.
 */
static int
map_block(const char *region, int b, bool check_start, bool check_end,
		  BpaPredicateFn before_start, BpaPredicateFn after_end,
		  void *pred_arg, BpaVisitFn visit, void *visit_arg)
{
	int			count = block_counts(region)[b];
	uint16_t	w = region_header(region)->layout.slot_width;
	int			first = 0;
	int			visited = 0;

	if (block_is_sorted(region, b))
	{
		const char *slots = block_slot(region, b, 0);

		if (check_start)
			first = bpa_first_true(slots, count, w, before_start, pred_arg, true);
		if (check_end)
			count = first + bpa_first_true(slots + (size_t) first * w,
										   count - first, w, after_end,
										   pred_arg, false);
		check_start = check_end = false;
	}
	for (int j = first; j < count; j++)
	{
		const char *slot = block_slot(region, b, j);

		if (check_start && before_start(slot, pred_arg))
			continue;
		if (check_end && after_end(slot, pred_arg))
			continue;
		visit(slot, visit_arg);
		visited++;
	}
	return visited;
}

/*
 * The blocks [*first, *end) that can hold an entry that is neither
 * before_start nor after_end (either may be NULL: no bound on that side).
 */
void
bpa_candidate_blocks(const char *region, BpaPredicateFn before_start,
					 BpaPredicateFn after_end, void *pred_arg,
					 int *first, int *end)
{
	const BpaHeader *h = region_header(region);
	int			b = first_candidate_block(region, before_start, pred_arg);

	*first = b;
	/* a block that starts past the range: so do all later blocks */
	while (b < h->used_blocks &&
		   !(b > 0 && after_end && after_end(header_slot(region, b), pred_arg)))
		b++;
	*end = b;
}

/*
 * Unordered map over the entries that are neither before_start nor
 * after_end: the log always, then only the blocks the header selects.
 * Entries of blocks wholly inside the range are visited without tests.
 */
int
bpa_map(const char *region, BpaPredicateFn before_start,
		BpaPredicateFn after_end, void *pred_arg,
		BpaVisitFn visit, void *visit_arg)
{
	const BpaHeader *h = region_header(region);
	int			visited = 0;
	int			first;
	int			end;

	for (int i = 0; i < h->log_count; i++)
	{
		const char *slot = log_slot(region, i);

		if (before_start && before_start(slot, pred_arg))
			continue;
		if (after_end && after_end(slot, pred_arg))
			continue;
		visit(slot, visit_arg);
		visited++;
	}

	bpa_candidate_blocks(region, before_start, after_end, pred_arg,
						 &first, &end);
	for (int b = first; b < end; b++)
	{
		bool		check_start;
		bool		check_end;

		check_start = before_start != NULL &&
			(b == 0 || before_start(header_slot(region, b), pred_arg));
		check_end = after_end != NULL &&
			(b + 1 >= h->used_blocks ||
			 after_end(header_slot(region, b + 1), pred_arg));
		visited += map_block(region, b, check_start, check_end,
							 before_start, after_end, pred_arg,
							 visit, visit_arg);
	}
	return visited;
}
