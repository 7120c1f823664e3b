/*-------------------------------------------------------------------------
 *
 * bpa.c
 *	  Buffered partitioned array: insert, find, remove, sorted iteration
 *	  (whole or in part), nearest entry, range map, split and rebuild over
 *	  a byte region.
 *
 * See bpa.h for the structure and its invariants.  Region layout:
 *
 *	 BpaHeader | uint16 block_count[B] | sorted bits | pad to 8 |
 *	 log[L] | header[B] | blocks[B][S]
 *
 * This file depends on the C standard library only.
 *
 *-------------------------------------------------------------------------
 */
#include "bpa.h"
#include "bpasort.h"

#include <string.h>

#define BPA_ALIGN(x)	(((x) + 7) & ~((size_t) 7))

#define Min(a, b)	((a) < (b) ? (a) : (b))

/* Scratch areas, in slots, for a layout: blocks copy, log copy, output. */
#define AREA_BLOCKS(l)	((size_t) 0)
#define AREA_LOG(l)		((size_t) (l)->num_blocks * (l)->block_size)
#define AREA_OUT(l)		(AREA_LOG(l) + (l)->log_size + 1)

/* Byte offset of the block count array. */
static inline size_t
counts_offset(void)
{
	return sizeof(BpaHeader);
}

/* Byte offset of the sorted bit vector. */
static inline size_t
sorted_offset(const BpaLayout *l)
{
	return counts_offset() + sizeof(uint16_t) * l->num_blocks;
}

/* Byte offset of the first log slot. */
static inline size_t
log_offset(const BpaLayout *l)
{
	return BPA_ALIGN(sorted_offset(l) + (l->num_blocks + 7) / 8);
}

/* Byte offset of the first header slot. */
static inline size_t
header_offset(const BpaLayout *l)
{
	return log_offset(l) + (size_t) l->log_size * l->slot_width;
}

/* Byte offset of the first block slot. */
static inline size_t
blocks_offset(const BpaLayout *l)
{
	return header_offset(l) + (size_t) l->num_blocks * l->slot_width;
}

/* The fixed header of a region. */
static inline BpaHeader *
region_header(const char *region)
{
	return (BpaHeader *) region;
}

/* The per-block entry counts. */
static inline uint16_t *
block_counts(const char *region)
{
	return (uint16_t *) (region + counts_offset());
}

/* The per-block sorted bits. */
static inline uint8_t *
sorted_bits(const char *region)
{
	return (uint8_t *) (region + sorted_offset(&region_header(region)->layout));
}

/* Slot i of the log. */
static inline char *
log_slot(const char *region, int i)
{
	const BpaLayout *l = &region_header(region)->layout;

	return (char *) region + log_offset(l) + (size_t) i * l->slot_width;
}

/* Header slot i: the lower bound of block i. */
static inline char *
header_slot(const char *region, int i)
{
	const BpaLayout *l = &region_header(region)->layout;

	return (char *) region + header_offset(l) + (size_t) i * l->slot_width;
}

/* Slot j of block b. */
static inline char *
block_slot(const char *region, int b, int j)
{
	const BpaLayout *l = &region_header(region)->layout;

	return (char *) region + blocks_offset(l) +
		((size_t) b * l->block_size + j) * l->slot_width;
}

/* Is block b known to be in ascending order? */
static inline bool
block_is_sorted(const char *region, int b)
{
	return (sorted_bits(region)[b / 8] >> (b % 8)) & 1;
}

/* Record whether block b is in ascending order. */
static inline void
set_block_sorted(char *region, int b, bool sorted)
{
	uint8_t    *bits = sorted_bits(region);

	if (sorted)
		bits[b / 8] |= (uint8_t) (1 << (b % 8));
	else
		bits[b / 8] &= (uint8_t) ~(1 << (b % 8));
}

/* Bytes a region with this layout occupies. */
size_t
bpa_region_size(const BpaLayout *layout)
{
	return blocks_offset(layout) +
		(size_t) layout->num_blocks * layout->block_size * layout->slot_width;
}

/* Is this layout usable? */
bool
bpa_layout_valid(const BpaLayout *layout)
{
	return layout->slot_width >= 2 &&
		layout->log_size >= 2 && layout->num_blocks >= 1 &&
		layout->block_size >= 2;
}

/*
 * Choose a layout filling region_size bytes.  A zero log_size or num_blocks
 * asks for the default: a log of 1/32 of the slots and blocks of about
 * twice as many slots as there are blocks (few header slots and few
 * always-free block slots, so most of the leaf holds entries).
 * block_size is the largest that fits.
 */
bool
bpa_layout_fit(BpaLayout *layout, size_t region_size, uint16_t slot_width,
			   uint16_t log_size, uint16_t num_blocks)
{
	size_t		total_slots;
	size_t		rest;
	size_t		block_size;
	BpaLayout	probe;

	if (slot_width < 2 || region_size <= sizeof(BpaHeader) + 8)
		return false;
	total_slots = (region_size - sizeof(BpaHeader) - 8) / slot_width;
	if (log_size == 0)
		log_size = (uint16_t) (total_slots / 32 < 4 ? 4 : total_slots / 32);
	if (total_slots <= log_size)
		return false;
	if (num_blocks == 0)
	{
		/* blocks of about twice as many slots as there are blocks */
		rest = total_slots - log_size;
		num_blocks = 1;
		while ((size_t) 2 * (num_blocks + 1) * (num_blocks + 1) <= rest)
			num_blocks++;
	}
	probe.slot_width = slot_width;
	probe.log_size = log_size;
	probe.num_blocks = num_blocks;
	probe.block_size = 0;
	if (bpa_region_size(&probe) > region_size)
		return false;
	block_size = (region_size - bpa_region_size(&probe)) /
		((size_t) num_blocks * slot_width);
	if (block_size > UINT16_MAX)
		block_size = UINT16_MAX;
	probe.block_size = (uint16_t) block_size;
	if (!bpa_layout_valid(&probe) ||
		(size_t) bpa_block_capacity(&probe) + log_size > UINT16_MAX)
		return false;
	*layout = probe;
	return true;
}

/*
 * Choose a layout with the given block size (and log size, 0 for the
 * default) and as many blocks as fit in region_size bytes.
 */
bool
bpa_layout_fit_blocks(BpaLayout *layout, size_t region_size,
					  uint16_t slot_width, uint16_t log_size,
					  uint16_t block_size)
{
	BpaLayout	probe;

	if (slot_width < 2 || region_size <= sizeof(BpaHeader) + 8)
		return false;
	if (log_size == 0)
	{
		size_t		total_slots = (region_size - sizeof(BpaHeader) - 8) / slot_width;

		log_size = (uint16_t) (total_slots / 16 < 4 ? 4 : total_slots / 16);
	}
	probe.slot_width = slot_width;
	probe.log_size = log_size;
	probe.block_size = block_size;
	probe.num_blocks = 1;
	if (bpa_region_size(&probe) > region_size)
		return false;
	while (probe.num_blocks < UINT16_MAX)
	{
		probe.num_blocks++;
		if (bpa_region_size(&probe) > region_size)
		{
			probe.num_blocks--;
			break;
		}
	}
	if (!bpa_layout_valid(&probe) ||
		(size_t) bpa_block_capacity(&probe) + log_size > UINT16_MAX)
		return false;
	*layout = probe;
	return true;
}

/* Bytes of scratch space the operations need. */
size_t
bpa_scratch_size(const BpaLayout *layout)
{
	return (AREA_OUT(layout) + AREA_LOG(layout) + layout->log_size + 1) *
		layout->slot_width;
}

/* The most entries bpa_build accepts: every block keeps one free slot. */
int
bpa_block_capacity(const BpaLayout *layout)
{
	return layout->num_blocks * (layout->block_size - 1);
}

/* Entries a freshly built BPA receives at this fillfactor. */
int
bpa_fill_target(const BpaLayout *layout, int fillfactor)
{
	int			target = bpa_block_capacity(layout) * fillfactor / 100;

	return target < 1 ? 1 : target;
}

/* The layout stored in a region. */
const BpaLayout *
bpa_layout(const char *region)
{
	return &region_header(region)->layout;
}

/* Number of entries stored. */
int
bpa_count(const char *region)
{
	return region_header(region)->nentries;
}

/* Number of entries in the log. */
int
bpa_log_count(const char *region)
{
	return region_header(region)->log_count;
}

/* Make region an empty BPA with this layout. */
void
bpa_init(char *region, const BpaLayout *layout)
{
	memset(region, 0, log_offset(layout));
	region_header(region)->layout = *layout;
	memset(sorted_bits(region), 0xFF, (layout->num_blocks + 7) / 8);
}

/*
 * Replace the content of region by n ascending distinct slots, spread as
 * evenly as possible over the blocks (the thesis' redistribute).
 */
void
bpa_build(char *region, const char *sorted, int n)
{
	BpaHeader  *h = region_header(region);
	const BpaLayout *l = &h->layout;
	uint16_t   *counts = block_counts(region);
	int			nblocks = n < l->num_blocks ? n : l->num_blocks;

	memset(counts, 0, sizeof(uint16_t) * l->num_blocks);
	memset(sorted_bits(region), 0xFF, (l->num_blocks + 7) / 8);
	for (int b = 0; b < nblocks; b++)
	{
		int			first = (int) ((long) b * n / nblocks);
		int			next = (int) ((long) (b + 1) * n / nblocks);
		const char *src = sorted + (size_t) first * l->slot_width;

		memcpy(block_slot(region, b, 0), src,
			   (size_t) (next - first) * l->slot_width);
		memcpy(header_slot(region, b), src, l->slot_width);
		counts[b] = (uint16_t) (next - first);
	}
	h->log_count = 0;
	h->used_blocks = (uint16_t) nblocks;
	h->nentries = (uint16_t) n;
}

/*
 * Replace the content of region by n ascending distinct slots packed into
 * the first blocks, each filled to its last free slot, leaving the later
 * blocks unused: room for appends above them (the right half of a split
 * made by ascending inserts).
 */
void
bpa_build_packed(char *region, const char *sorted, int n)
{
	BpaHeader  *h = region_header(region);
	const BpaLayout *l = &h->layout;
	int			per_block = l->block_size - 1;
	int			nblocks = (n + per_block - 1) / per_block;

	bpa_build(region, sorted, 0);
	for (int b = 0; b < nblocks; b++)
	{
		int			first = b * per_block;
		int			count = Min(per_block, n - first);
		const char *src = sorted + (size_t) first * l->slot_width;

		memcpy(block_slot(region, b, 0), src, (size_t) count * l->slot_width);
		memcpy(header_slot(region, b), src, l->slot_width);
		block_counts(region)[b] = (uint16_t) count;
	}
	h->used_blocks = (uint16_t) nblocks;
	h->nentries = (uint16_t) n;
}

/* The block an entry belongs to: the last whose lower bound is <= slot. */
static int
destination_block(const char *region, const void *slot,
				  BpaCompareFn compare, void *arg)
{
	int			lo = 1;
	int			hi = region_header(region)->used_blocks - 1;

	/* find the last b in [1, used) with header[b] <= slot, else 0 */
	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;

		if (compare(header_slot(region, mid), slot, arg) <= 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return hi < 1 ? 0 : hi;
}

/* Position of slot within block b, or -1. */
static int
find_in_block(const char *region, int b, const void *slot,
			  BpaCompareFn compare, void *arg)
{
	int			count = block_counts(region)[b];

	if (block_is_sorted(region, b))
		return bpa_search_sorted(block_slot(region, b, 0), count,
								 region_header(region)->layout.slot_width,
								 slot, compare, arg);
	for (int j = 0; j < count; j++)
		if (compare(block_slot(region, b, j), slot, arg) == 0)
			return j;
	return -1;
}

/* Position of slot within the log, or -1. */
static int
find_in_log(const char *region, const void *slot, BpaCompareFn compare, void *arg)
{
	for (int i = 0; i < region_header(region)->log_count; i++)
		if (compare(log_slot(region, i), slot, arg) == 0)
			return i;
	return -1;
}

/* The stored slot equal to slot, or NULL. */
const void *
bpa_find(const char *region, const void *slot, BpaCompareFn compare, void *arg)
{
	int			pos = find_in_log(region, slot, compare, arg);
	int			b;

	if (pos >= 0)
		return log_slot(region, pos);
	if (region_header(region)->used_blocks == 0)
		return NULL;
	b = destination_block(region, slot, compare, arg);
	pos = find_in_block(region, b, slot, compare, arg);
	return pos >= 0 ? block_slot(region, b, pos) : NULL;
}

/* Does a block of the region hold an entry equal to slot? */
bool
bpa_blocks_hold(const char *region, const void *slot, BpaCompareFn compare,
				void *arg)
{
	return region_header(region)->used_blocks > 0 &&
		find_in_block(region, destination_block(region, slot, compare, arg),
					  slot, compare, arg) >= 0;
}

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
static int
collect_sorted(const char *region, BpaCompareFn compare, void *arg,
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
	return collect_sorted(region, compare, arg, before_start, after_end,
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
	return collect_sorted(region, compare, arg, before_start, after_end,
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

/*
 * Rebuild the region from its own entries plus an optional extra one
 * (case 2b of the thesis): sort, merge, redistribute.  The extra one is
 * the slot bpa_try_insert returned BPA_CROWDED for.
 */
void
bpa_redistribute(char *region, const void *extra, BpaCompareFn compare, void *arg,
				 char *scratch)
{
	const BpaLayout *l = &region_header(region)->layout;
	uint16_t	w = l->slot_width;
	char	   *out = scratch + AREA_OUT(l) * w;
	int			n;

	n = collect_sorted(region, compare, arg, NULL, NULL, NULL, NULL, out, scratch);
	if (extra != NULL)
	{
		int			pos = n;

		/* insert extra at its place in the sorted output */
		while (pos > 0 && compare(out + (size_t) (pos - 1) * w, extra, arg) > 0)
			pos--;
		memmove(out + (size_t) (pos + 1) * w, out + (size_t) pos * w,
				(size_t) (n - pos) * w);
		memcpy(out + (size_t) pos * w, extra, w);
		n++;
	}
	bpa_build(region, out, n);
}

/*
 * Where the log entries destined for the last block go when it would
 * overflow: those above everything in the block fill it up and then open
 * new blocks after it (appends, as ascending inserts make them), the
 * rest must fit in it.  Fills plan->new_blocks; false if it cannot work.
 */
typedef struct TailPlan
{
	char	   *entries;		/* the last block's incoming entries, sorted */
	int			n;
	int			into_last;		/* how many of them go into the last block */
	int			new_blocks;
} TailPlan;

/* Plan the overflow of the last block into new blocks; false if impossible. */
static bool
plan_tail(char *region, const uint16_t *dest, BpaCompareFn compare, void *arg,
		  char *scratch, TailPlan *plan)
{
	const BpaHeader *h = region_header(region);
	const BpaLayout *l = &h->layout;
	int			last = h->used_blocks - 1;
	int			count = block_counts(region)[last];
	uint16_t	w = l->slot_width;
	const char *max = NULL;
	int			below = 0;
	int			room;

	plan->entries = scratch + AREA_OUT(l) * w;
	plan->n = 0;
	for (int i = 0; i < h->log_count; i++)
		if (dest[i] == last)
			memcpy(plan->entries + (size_t) plan->n++ * w, log_slot(region, i), w);
	bpa_sort_slots(plan->entries, plan->n, w, compare, arg);
	for (int j = 0; j < count; j++)
		if (max == NULL || compare(block_slot(region, last, j), max, arg) > 0)
			max = block_slot(region, last, j);
	while (max != NULL && below < plan->n &&
		   compare(plan->entries + (size_t) below * w, max, arg) < 0)
		below++;
	room = (l->block_size - 1) - count;
	if (below > room || room >= plan->n)
		return false;
	/* the first new block's bound must lie above the last block's */
	if (compare(plan->entries + (size_t) room * w, header_slot(region, last), arg) <= 0)
		return false;
	plan->into_last = room;
	plan->new_blocks = (plan->n - room + l->block_size - 2) / (l->block_size - 1);
	return h->used_blocks + plan->new_blocks <= l->num_blocks;
}

/* Append n slots to block b, keeping its sorted bit truthful. */
static void
append_to_block(char *region, int b, const char *slots, int n,
				BpaCompareFn compare, void *arg)
{
	uint16_t   *counts = block_counts(region);
	uint16_t	w = region_header(region)->layout.slot_width;

	for (int i = 0; i < n; i++)
	{
		memcpy(block_slot(region, b, counts[b]), slots + (size_t) i * w, w);
		if (counts[b] > 0 &&
			compare(block_slot(region, b, counts[b] - 1),
				block_slot(region, b, counts[b]), arg) > 0)
			set_block_sorted(region, b, false);
		counts[b]++;
	}
}

/* Carry out a tail plan: fill the last block, then open new ones. */
static void
apply_tail(char *region, const TailPlan *plan, BpaCompareFn compare, void *arg)
{
	BpaHeader  *h = region_header(region);
	uint16_t	w = h->layout.slot_width;
	int			per_block = h->layout.block_size - 1;
	int			done = Min(plan->into_last, plan->n);

	append_to_block(region, h->used_blocks - 1, plan->entries, done, compare, arg);
	while (done < plan->n)
	{
		int			b = h->used_blocks++;
		int			n = Min(per_block, plan->n - done);

		memcpy(header_slot(region, b), plan->entries + (size_t) done * w, w);
		set_block_sorted(region, b, true);
		append_to_block(region, b, plan->entries + (size_t) done * w, n, compare, arg);
		done += n;
	}
}

/*
 * Flush the log into the blocks when no block would become full
 * (case 2a), letting the last block overflow into unused blocks when the
 * overflow lies above everything in it.  Returns false, changing nothing,
 * if some block would become full anyway.
 */
static bool
flush_log(char *region, BpaCompareFn compare, void *arg, char *scratch)
{
	BpaHeader  *h = region_header(region);
	const BpaLayout *l = &h->layout;
	uint16_t   *counts = block_counts(region);
	uint16_t   *dest = (uint16_t *) scratch;
	uint16_t   *incoming = dest + l->log_size;
	int			last = h->used_blocks - 1;
	TailPlan	plan = {0};
	bool		tail;

	memset(incoming, 0, sizeof(uint16_t) * l->num_blocks);
	for (int i = 0; i < h->log_count; i++)
	{
		dest[i] = (uint16_t) destination_block(region, log_slot(region, i),
											   compare, arg);
		incoming[dest[i]]++;
	}
	for (int b = 0; b < last; b++)
		if (counts[b] + incoming[b] >= l->block_size)
			return false;
	tail = counts[last] + incoming[last] >= l->block_size;
	if (tail && !plan_tail(region, dest, compare, arg, scratch, &plan))
		return false;

	for (int i = 0; i < h->log_count; i++)
		if (!tail || dest[i] != last)
			append_to_block(region, dest[i], log_slot(region, i), 1, compare, arg);
	if (tail)
		apply_tail(region, &plan, compare, arg);
	h->log_count = 0;
	return true;
}

/* Record that length bytes at "at" in the region changed. */
static void
add_touched(BpaTouched *touched, const char *region, const void *at,
			size_t length)
{
	touched->offset[touched->n] = (const char *) at - region;
	touched->length[touched->n] = length;
	touched->n++;
}

/*
 * Case 1 of an insert without the duplicate check: append slot to the log
 * if the log keeps a free slot afterwards.  Returns false, changing
 * nothing, if it would not.  touched (if not NULL) receives the byte
 * ranges that changed, in ascending order: the BpaHeader's counters from
 * log_count to nentries, then the new log slot.
 */
bool
bpa_append_to_log(char *region, const void *slot, BpaTouched *touched)
{
	BpaHeader  *h = region_header(region);
	char	   *at = log_slot(region, h->log_count);

	if (h->log_count + 1 >= h->layout.log_size)
		return false;
	memcpy(at, slot, h->layout.slot_width);
	h->log_count++;
	h->nentries++;
	if (touched != NULL)
	{
		touched->n = 0;
		add_touched(touched, region, &h->log_count,
					offsetof(BpaHeader, nentries) + sizeof(uint16_t) -
					offsetof(BpaHeader, log_count));
		add_touched(touched, region, at, h->layout.slot_width);
	}
	return true;
}

/*
 * Where an ascending insert can go straight, without the log: for a slot
 * that sorts after every entry of the last used block, which must be
 * sorted and not empty, that block while it has room, else the next
 * unused block (whose header slot, the slot, must stay above the last
 * one's: header slot 0 is no bound and may lie above it).  Returns the
 * block, or -1 when slot does not qualify or no block has room.  So that
 * such inserts never flush the log; bpa_store_ascending stores the slot.
 */
int
bpa_ascending_block(const char *region, const void *slot, BpaCompareFn compare,
					void *arg)
{
	const BpaHeader *h = region_header(region);
	const uint16_t *counts = block_counts(region);
	int			b = h->used_blocks - 1;

	if (b < 0 || counts[b] == 0 || !block_is_sorted(region, b) ||
		compare(slot, block_slot(region, b, counts[b] - 1), arg) <= 0)
		return -1;
	if (counts[b] + 1 < h->layout.block_size)
		return b;
	if (h->used_blocks >= h->layout.num_blocks ||
		compare(slot, header_slot(region, b), arg) <= 0)
		return -1;
	return b + 1;
}

/*
 * Store slot into block b, which bpa_ascending_block chose for it (the
 * region unchanged since), without the duplicate check and without
 * comparisons.  touched receives the byte ranges that changed, in
 * ascending order: the entry count (and for a new block the used block
 * count) in the BpaHeader, the block's count, and, for a new block, its
 * sorted bit and header slot; then the new block slot.
 */
void
bpa_store_ascending(char *region, int b, const void *slot, BpaTouched *touched)
{
	BpaHeader  *h = region_header(region);
	uint16_t	w = h->layout.slot_width;
	uint16_t   *counts = block_counts(region);
	bool		opens = b == h->used_blocks;

	if (opens)
	{
		h->used_blocks++;
		set_block_sorted(region, b, true);
		memcpy(header_slot(region, b), slot, w);
	}
	memcpy(block_slot(region, b, counts[b]), slot, w);
	counts[b]++;
	h->nentries++;

	touched->n = 0;
	if (opens)
		add_touched(touched, region, &h->used_blocks,
					offsetof(BpaHeader, nentries) + sizeof(uint16_t) -
					offsetof(BpaHeader, used_blocks));
	else
		add_touched(touched, region, &h->nentries, sizeof(uint16_t));
	add_touched(touched, region, &counts[b], sizeof(uint16_t));
	if (opens)
	{
		add_touched(touched, region, &sorted_bits(region)[b / 8], 1);
		add_touched(touched, region, header_slot(region, b), w);
	}
	add_touched(touched, region, block_slot(region, b, counts[b] - 1), w);
}

/*
 * Insert slot, short of redistributing.  Appends to the log; when that
 * fills the log, flushes it (case 2a).  Returns BPA_CROWDED, changing
 * nothing, when only a redistribution would make room (case 2b, see
 * bpa_redistribute), and BPA_FULL when not even that would.
 */
BpaInsertResult
bpa_try_insert(char *region, const void *slot, BpaCompareFn compare, void *arg,
			   char *scratch)
{
	BpaHeader  *h = region_header(region);
	const BpaLayout *l = &h->layout;

	if (bpa_find(region, slot, compare, arg) != NULL)
		return BPA_DUPLICATE;

	/* case 1: the log keeps a free slot after the append */
	if (bpa_append_to_log(region, slot, NULL))
		return BPA_INSERTED;

	/*
	 * case 2: the append fills the log.  Afterwards every entry is in a
	 * block that keeps a free slot, so more than the block capacity cannot
	 * fit: refuse before writing anything.
	 */
	if (h->nentries + 1 > bpa_block_capacity(l))
		return BPA_FULL;
	if (h->used_blocks == 0)
		return BPA_CROWDED;
	memcpy(log_slot(region, h->log_count++), slot, l->slot_width);
	if (flush_log(region, compare, arg, scratch))
	{
		h->nentries++;
		return BPA_INSERTED;
	}
	h->log_count--;
	return BPA_CROWDED;
}

/*
 * Insert slot: bpa_try_insert, redistributing when the log's flush does
 * not find room.
 */
BpaInsertResult
bpa_insert(char *region, const void *slot, BpaCompareFn compare, void *arg,
		   char *scratch)
{
	BpaInsertResult result = bpa_try_insert(region, slot, compare, arg, scratch);

	if (result != BPA_CROWDED)
		return result;
	bpa_redistribute(region, slot, compare, arg, scratch);
	return BPA_INSERTED;
}

/*
 * Do the log's entries and slot, the latest inserts, lie in one gap
 * between the entries of the blocks, slot above all of them (a stream of
 * ascending inserts at one place, such as the lower of two interleaved
 * ascending streams)?  If so, returns how many entries, slot included,
 * sort at or before slot: where a split separates the stream from the
 * entries above it.  Returns -1 if they do not.
 */
int
bpa_stream_rank(const char *region, const void *slot, BpaCompareFn compare,
				void *arg)
{
	const BpaHeader *h = region_header(region);
	const uint16_t *counts = block_counts(region);
	const void *lo = slot;
	const void *hi = slot;
	int			first;
	int			last;
	int			rank;

	for (int i = 0; i < h->log_count; i++)
	{
		if (compare(log_slot(region, i), hi, arg) > 0)
			return -1;
		if (compare(log_slot(region, i), lo, arg) < 0)
			lo = log_slot(region, i);
	}
	if (h->used_blocks == 0)
		return h->log_count + 1;
	first = destination_block(region, lo, compare, arg);
	last = destination_block(region, hi, compare, arg);
	rank = h->log_count + 1;
	for (int b = 0; b < last; b++)
		rank += counts[b];
	for (int b = first; b <= last; b++)
		for (int j = 0; j < counts[b]; j++)
		{
			const char *e = block_slot(region, b, j);

			if (compare(e, lo, arg) > 0 && compare(e, hi, arg) < 0)
				return -1;
			if (b == last && compare(e, hi, arg) < 0)
				rank++;
		}
	return rank;
}

/* Remove the stored slot equal to slot; false if there is none. */
bool
bpa_remove(char *region, const void *slot, BpaCompareFn compare, void *arg)
{
	BpaHeader  *h = region_header(region);
	uint16_t	w = h->layout.slot_width;
	uint16_t   *counts = block_counts(region);
	int			pos = find_in_log(region, slot, compare, arg);
	int			b;

	if (pos >= 0)
	{
		h->log_count--;
		if (pos != h->log_count)
			memcpy(log_slot(region, pos), log_slot(region, h->log_count), w);
		h->nentries--;
		return true;
	}
	if (h->used_blocks == 0)
		return false;
	b = destination_block(region, slot, compare, arg);
	pos = find_in_block(region, b, slot, compare, arg);
	if (pos < 0)
		return false;
	/* close the gap by shifting, which keeps a sorted block sorted */
	memmove(block_slot(region, b, pos), block_slot(region, b, pos + 1),
			(size_t) (counts[b] - pos - 1) * w);
	counts[b]--;
	h->nentries--;
	return true;
}

/*
 * Split: left keeps its nleft smallest entries, right (initialized with
 * the same layout) receives the rest.  Returns the number in right.
 */
int
bpa_split(char *left, char *right, int nleft, BpaCompareFn compare, void *arg,
		  char *scratch)
{
	const BpaLayout *l = &region_header(left)->layout;
	uint16_t	w = l->slot_width;
	char	   *out = scratch + AREA_OUT(l) * w;
	int			n;

	n = collect_sorted(left, compare, arg, NULL, NULL, NULL, NULL, out, scratch);
	if (nleft > n)
		nleft = n;
	bpa_init(right, l);
	bpa_build(right, out + (size_t) nleft * w, n - nleft);
	bpa_build(left, out, nleft);
	return n - nleft;
}

/* Header slots in use (blocks that have a lower bound). */
int
bpa_used_blocks(const char *region)
{
	return region_header(region)->used_blocks;
}

/* Entries in block b. */
int
bpa_block_count(const char *region, int b)
{
	return block_counts(region)[b];
}

/*
 * Entries in the blocks, or -1 when a block's count leaves it no free
 * slot or an unused block holds entries (bpacheck.c tells which).  For a
 * region whose layout is valid.
 */
int
bpa_blocks_total(const char *region)
{
	const BpaHeader *header = region_header(region);
	const uint16_t *counts = block_counts(region);
	uint16_t	block_size = header->layout.block_size;
	int			used = header->used_blocks;
	int			total = 0;
	uint16_t	full = 0;
	uint16_t	unused = 0;

	/* branch-free loops: every leaf read checks its counts */
	for (int b = 0; b < used; b++)
	{
		full |= counts[b] >= block_size;
		total += counts[b];
	}
	for (int b = used; b < header->layout.num_blocks; b++)
		unused |= counts[b];
	return full || unused ? -1 : total;
}

/* Is block b's sorted bit set? */
bool
bpa_block_sorted(const char *region, int b)
{
	return block_is_sorted(region, b);
}

/* Log entry i. */
const char *
bpa_log_entry(const char *region, int i)
{
	return log_slot(region, i);
}

/* Header slot b: the lower bound of block b. */
const char *
bpa_header_entry(const char *region, int b)
{
	return header_slot(region, b);
}

/* Entry j of block b. */
const char *
bpa_block_entry(const char *region, int b, int j)
{
	return block_slot(region, b, j);
}

/* Set bits of bits[] in [from, from + n): bytes at a time inside. */
static int
count_bits(const uint8_t *bits, size_t from, size_t n)
{
	int			count = 0;

	for (; n > 0 && from % 8 != 0; from++, n--)
		count += (bits[from / 8] >> (from % 8)) & 1;
	for (; n >= 8; from += 8, n -= 8)
		for (uint8_t byte = bits[from / 8]; byte != 0; byte &= byte - 1)
			count++;
	for (; n > 0; from++, n--)
		count += (bits[from / 8] >> (from % 8)) & 1;
	return count;
}

/*
 * Of the positions that hold entries, how many have their bit set in
 * marks (one bit per position, as bpa_position_holds_entry counts them)?
 */
int
bpa_count_marked(const char *region, const uint8_t *marks)
{
	const BpaHeader *h = region_header(region);
	const BpaLayout *l = &h->layout;
	size_t		first_block_slot = (size_t) l->log_size + l->num_blocks;
	int			count = count_bits(marks, 0, h->log_count);

	for (int b = 0; b < h->used_blocks; b++)
		count += count_bits(marks, first_block_slot + (size_t) b * l->block_size,
							block_counts(region)[b]);
	return count;
}

/*
 * Does the slot at position pos hold an entry?  Positions count the log,
 * the header and the blocks as one array of slots from the first log slot.
 */
bool
bpa_position_holds_entry(const char *region, size_t pos)
{
	const BpaHeader *h = region_header(region);
	const BpaLayout *l = &h->layout;
	size_t		first_block_slot = (size_t) l->log_size + l->num_blocks;

	if (pos < l->log_size)
		return pos < h->log_count;
	if (pos < first_block_slot)
		return false;
	pos -= first_block_slot;
	if (pos >= (size_t) h->used_blocks * l->block_size)
		return false;
	return pos % l->block_size < block_counts(region)[pos / l->block_size];
}
