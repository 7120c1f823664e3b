/*-------------------------------------------------------------------------
 *
 * bpgeometry.c
 *	  The size model of bpindex: how a slot description and the
 *	  reloptions become a leaf layout, leaf fills, internal capacities, and
 *	  the pages and levels of an index of a given number of entries.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amvalidate.h"
#include "access/genam.h"
#include "access/tupmacs.h"
#include "catalog/pg_type.h"
#include "catalog/index.h"
#include "mb/pg_wchar.h"
#include "storage/indexfsm.h"
#include "storage/lmgr.h"
#include <math.h>
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/sortsupport.h"

#include "bpa.h"
#include "bpcodec.h"
#include "bpformat.h"
#include "bpgeometry.h"
#include "bppage.h"
#include "bpslot.h"

/* Byte offset, after the fences, of the pivots of an internal page. */
Size
bp_internal_pivots_offset(int capacity)
{
	return MAXALIGN(sizeof(BpInternalHeader) + sizeof(BlockNumber) * capacity);
}

/* Children (and pivots) that room bytes after an internal page's fences hold. */
static int
capacity_in_room(Size room, uint16 width)
{
	int			capacity = (int) (room / (width + sizeof(BlockNumber)));

	while (capacity > 0 &&
		   bp_internal_pivots_offset(capacity) + (Size) capacity * width > room)
		capacity--;
	return capacity;
}

/*
 * Children (and pivots) an internal page has room for.  In an index with
 * keys the pivots share that room with the key area, which grows down
 * towards the last pivot in use (bp_internal_key_floor).
 */
int
bp_internal_capacity(uint16 width)
{
	return capacity_in_room(bp_page_content_size() - bp_fences_size(width),
							width);
}

/*
 * Children an internal page of an index with keys has room for when its
 * pivots take about key_bytes of keys each: as many as fit with half that
 * many (so that shorter pivots still fill a page), four at least.  The
 * children's array takes no more room than such pages use.
 */
int
bp_internal_keyed_capacity(uint16 width, double key_bytes)
{
	Size		room = bp_page_content_size() - bp_fences_size(width);
	double		half = Min(key_bytes / 2, (double) BP_MAX_KEY_SIZE);

	return Max(4, capacity_in_room(room, (uint16) (width + half)));
}

/*
 * Is capacity the one of the internal pages of an index whose slots are
 * width bytes wide?  An index with keys chooses its own at CREATE INDEX
 * (bp_internal_keyed_capacity, which never exceeds bp_internal_capacity).
 */
static bool
internal_capacity_valid(int capacity, uint16 width, bool keyed)
{
	int			full = bp_internal_capacity(width);

	return keyed ? capacity >= 4 && capacity <= full : capacity == full;
}

/*
 * The leaf layout for entries of this width in a region of region_room
 * bytes under these options (0 for log_size or block_size: automatic).
 * False if it does not fit.
 */
bool
bp_choose_leaf_layout(const BpOptions *opts, uint16 width, Size region_room,
					  BpaLayout *layout)
{
	Size		region = region_room;
	bool		fits;

	if (opts->block_size > 0)
		fits = bpa_layout_fit_blocks(layout, region, width, opts->log_size,
									 opts->block_size);
	else
		fits = bpa_layout_fit(layout, region, width, opts->log_size, 0);
	/* a full leaf holds up to capacity + log_size - 1 entries: its halves must fit */
	return fits && bpa_block_capacity(layout) >= 4 &&
		layout->log_size <= bpa_block_capacity(layout);
}

/* Room for pivots and their keys on an internal page of this capacity. */
static Size
internal_pivot_room(uint16 width, int capacity)
{
	return bp_page_content_size() - bp_fences_size(width) -
		bp_internal_pivots_offset(capacity);
}

/*
 * The largest capacity, at most capacity and at least least, of an internal
 * page whose room for pivots and keys holds three pivots' slots with keys
 * of key_bytes each: what a page of such keys keeps room for two children
 * with (a page of fewer would split at every new child, one child a side).
 */
int
bp_internal_capacity_for_keys(uint16 width, Size key_bytes, int capacity,
							  int least)
{
	while (capacity > least &&
		   internal_pivot_room(width, capacity) < 3 * (width + key_bytes))
		capacity--;
	return capacity;
}

/*
 * Children a built internal page gets when its pivots are width bytes wide
 * and take avg_key_bytes of keys each (0 for an index without keys): the
 * build's fill of the room they share (bp_internal_build_count).
 */
double
bp_internal_fill_estimate(uint16 width, double avg_key_bytes)
{
	int			capacity = avg_key_bytes > 0 ?
		bp_internal_keyed_capacity(width, avg_key_bytes) :
		bp_internal_capacity(width);
	double		room = (double) internal_pivot_room(width, capacity) -
		2 * avg_key_bytes;
	double		fill = Min(capacity, room / (width + avg_key_bytes));

	return Max(2.0, floor(fill * BP_INTERNAL_FILLFACTOR / 100.0));
}

/*
 * How many of the n sorted pivots (logical slots; the first is the page's
 * low key, all zeros on the leftmost page) a built internal page of this
 * capacity takes, two at least: BP_INTERNAL_FILLFACTOR percent of its
 * children, or of the room that pivots and their keys share.  The rest of
 * the room is left for the keys of its fences and of later inserts.
 */
int
bp_internal_build_count(const BpSlotDesc *desc, int capacity,
						const char *pivots, int n)
{
	int			count = Min(n, Max(2, capacity * BP_INTERNAL_FILLFACTOR / 100));
	Size		room = internal_pivot_room(desc->width, capacity) *
		BP_INTERNAL_FILLFACTOR / 100;
	Size		used = 0;

	for (int i = 1; desc->has_keys && i < count; i++)
	{
		used += desc->width + bp_slot_keys_size(desc, pivots + (Size) i * desc->width);
		if (used > room && i >= 2)
			return i;
	}
	return count;
}

/*
 * Pages (the metapage included) and levels of an index over ntuples
 * entries whose leaves hold per_leaf entries and internal pages
 * per_internal children: the build's arithmetic.
 */
BlockNumber
bp_estimate_pages(double ntuples, double per_leaf, double per_internal,
				  int *levels)
{
	double		level_pages = Max(1.0, ceil(ntuples / Max(per_leaf, 1)));
	double		pages = 1 + level_pages;	/* the metapage and the leaves */

	*levels = 1;
	while (level_pages > 1)
	{
		level_pages = ceil(level_pages / Max(per_internal, 2));
		pages += level_pages;
		(*levels)++;
	}
	return (BlockNumber) Min(pages, (double) MaxBlockNumber);
}

/* Bytes of a leaf page before its BPA region, for ncolumns columns. */
Size
bp_leaf_prefix_bytes(int ncolumns, uint16 slot_width)
{
	return bp_fences_size(slot_width) + sizeof(BpLeafHeader) +
		bpc_stored_size(ncolumns);
}

/* Bytes of the dead marks of a leaf whose entries take width bytes. */
Size
bp_leaf_marks_bytes(Size prefix, uint16 width)
{
	return ((bp_page_content_size() - prefix) / width + 7) / 8;
}

/*
 * Bytes a leaf of an index of ncolumns columns and slot_width-byte logical
 * slots has for its BPA region when its entries take entry_width bytes.
 */
Size
bp_leaf_room(int ncolumns, uint16 slot_width, uint16 entry_width)
{
	Size		prefix = bp_leaf_prefix_bytes(ncolumns, slot_width);

	return bp_page_content_size() - prefix - bp_leaf_marks_bytes(prefix, entry_width);
}

/* Bytes a leaf whose entries take width bytes has for its BPA region. */
Size
bp_leaf_region_room(const BpSlotDesc *desc, uint16 width)
{
	return bp_leaf_room(desc->ncolumns, desc->width, width);
}

/*
 * The layout of a plain leaf (logical slots of width bytes, ncolumns columns)
 * under these options; false if it does not fit.
 */
bool
bp_choose_plain_layout(const BpOptions *opts, int ncolumns, uint16 width,
					   BpaLayout *layout)
{
	return bp_choose_leaf_layout(opts, width, bp_leaf_room(ncolumns, width, width),
								 layout);
}

/* The smallest BPA region a leaf of entries of width bytes takes under opts. */
static Size
smallest_leaf_region(const BpOptions *opts, uint16 width, Size room)
{
	BpaLayout	layout;

	for (Size region = width; region <= room; region += width)
		if (bp_choose_leaf_layout(opts, width, region, &layout))
			return bpa_region_size(&layout);
	return room;
}

/*
 * Bytes of keys (as bp_form_slot counts them) that an entry of the index
 * may take: as many as leave every page able to split, with two keys of
 * that length on a page beside short ones.  A leaf must hold its low key
 * and a high key with that many and no entry (a leaf with a low key, an
 * entry and a high key that long splits before its entry, with an empty
 * left half: split_before_first in bpinsert.c), or one entry whose keys
 * its low key shares and a high key, beside the smallest BPA region of the
 * automatic plain layout (a keyed plan that log_size or block_size leave
 * too little room falls back to it, plan_keyed_or_plain, so that ALTER
 * INDEX SET never lowers the limit); an internal page a high key and one
 * pivot with that many, beside three pivots' slots and room for three
 * children, its low key omitted (BP_LOW_OMITTED) where it does not fit
 * too.  Each key may take its alignment more in a key area
 * (bp_slot_keys_size).  Capped at BP_MAX_KEY_SIZE, a third of a page, the
 * size of the buffers that hold an entry's keys (btree's own limit is
 * lower).
 */
Size
bp_max_key_bytes(const BpSlotDesc *desc, const BpOptions *opts)
{
	BpOptions	automatic = *opts;
	Size		leaf_room = bp_leaf_region_room(desc, desc->width);
	Size		leaf_keys;
	Size		internal_keys;
	Size		align = 0;
	Size		limit;

	/* plans fall back to the automatic layout for long keys */
	automatic.log_size = 0;
	automatic.block_size = 0;
	leaf_keys = leaf_room -
		Min(leaf_room, smallest_leaf_region(&automatic, desc->width, leaf_room));
	internal_keys = bp_page_content_size() -
		bp_fences_size(desc->width) -
		bp_internal_pivots_offset(BP_LONG_KEYS_INTERNAL_CAPACITY) -
		3 * (Size) desc->width;
	for (int i = 0; i < desc->ncolumns; i++)
		if (desc->att_len[i] == -1)
			align += desc->key_align[i] - 1;
	limit = Min(leaf_keys, internal_keys) / 2;
	limit = limit > align ? limit - align : 0;
	return Min(limit, BP_MAX_KEY_SIZE);
}

/*
 * Set the layout of a keyed plan for slots of width bytes in a region of
 * at most room bytes: the largest region that leaves room, after
 * fence_keys bytes for the fences' keys, for the keys of as many entries
 * as it holds: avg bytes each up to its fill target (equal neighbours
 * share their keys), fresh bytes each above it (an insert stores its keys
 * anew).
 */
void
bp_plan_keyed_layout(Size room, uint16 width, const BpOptions *opts,
				  Size fence_keys, double avg, double fresh, BpLeafPlan *plan)
{
	Size		avail = room > fence_keys ? room - fence_keys : 0;
	Size		lo = 0;
	Size		hi = avail;

	/* region + capacity * avg grows with the region: bisect for avail */
	while (lo < hi)
	{
		Size		mid = lo + (hi - lo + 1) / 2;
		BpaLayout	layout;
		double		need = (double) mid;

		if (bp_choose_leaf_layout(opts, width, mid, &layout))
		{
			int			target = bpa_fill_target(&layout, opts->fillfactor);

			need += target * avg + (bpa_block_capacity(&layout) - target) * fresh;
		}
		if (need <= (double) avail)
			lo = mid;
		else
			hi = mid - 1;
	}
	/* keys too long for any region: the smallest, which the keys limit */
	while (!bp_choose_leaf_layout(opts, width, lo, &plan->layout))
	{
		if (lo >= room)
			elog(ERROR, "bpindex: no leaf layout for entries of %u bytes", width);
		lo = Min(room, lo + width);
	}
	plan->key_room = avail > bpa_region_size(&plan->layout) ?
		avail - bpa_region_size(&plan->layout) : 0;
	plan->capacity = bpa_block_capacity(&plan->layout);
}

/*
 * Set the layout of a keyed plan to the smallest region (of at most room
 * bytes) whose blocks hold nentries, if that leaves, after fence_keys
 * bytes for the fences' keys, key_bytes for the entries' keys; else leave
 * the plan as it is.  bp_plan_keyed_layout reserves room for the keys of
 * inserts to come at the size of a distinct key, which leaves too few
 * slots for entries that share long keys (duplicates); entries that fit
 * a page must get a plan that holds them.
 */
void
bp_plan_keyed_to_hold(Size room, uint16 width, const BpOptions *opts,
				   Size fence_keys, int nentries, Size key_bytes,
				   BpLeafPlan *plan)
{
	Size		avail = room > fence_keys ? room - fence_keys : 0;
	Size		lo = 0;
	Size		hi = avail;
	BpaLayout	layout;

	/* the smallest region whose blocks hold nentries */
	while (lo < hi)
	{
		Size		mid = lo + (hi - lo) / 2;

		if (bp_choose_leaf_layout(opts, width, mid, &layout) &&
			bpa_block_capacity(&layout) >= nentries)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (!bp_choose_leaf_layout(opts, width, lo, &layout) ||
		bpa_block_capacity(&layout) < nentries ||
		bpa_region_size(&layout) + key_bytes > avail)
		return;
	plan->layout = layout;
	plan->key_room = avail - bpa_region_size(&layout);
	plan->capacity = bpa_block_capacity(&layout);
}

/*
 * The fill target of a keyed plan whose entries take avg bytes of keys:
 * the layout's, or less if their keys would fill the key room first.
 */
int
bp_keyed_fill_target(const BpLeafPlan *plan, int fillfactor, double avg)
{
	double		by_keys = avg > 0 ? plan->key_room / avg : plan->capacity;

	return Max(1, Min(bpa_fill_target(&plan->layout, fillfactor),
					  (int) (by_keys * fillfactor / 100)));
}

/*
 * Entries a build puts into a leaf of an index with keys (slots of
 * slot_width bytes, ncolumns columns) whose entries take entry_width bytes
 * in the leaf and avg_key_bytes bytes of keys each (shared by equal
 * neighbours), a distinct key fresh_key_bytes: the what-if estimate's leaf
 * fill.
 */
int
bp_keyed_leaf_fill(int ncolumns, uint16 slot_width, uint16 entry_width,
				   const BpOptions *opts, double avg_key_bytes,
				   double fresh_key_bytes)
{
	BpLeafPlan	plan;

	bp_plan_keyed_layout(bp_leaf_room(ncolumns, slot_width, entry_width), entry_width,
					  opts, (Size) (2 * fresh_key_bytes), avg_key_bytes,
					  fresh_key_bytes, &plan);
	return bp_keyed_fill_target(&plan, opts->fillfactor, avg_key_bytes);
}

/* Entries the blocks of a leaf of this layout hold. */
int
bp_leaf_layout_capacity(const BpaLayout *layout)
{
	return bpa_block_capacity(layout);
}

/* Entries a leaf of this layout receives at build, at this fillfactor. */
int
bp_layout_fill_target(const BpaLayout *layout, int fillfactor)
{
	return bpa_fill_target(layout, fillfactor);
}

/* The largest log_size that fits a leaf of this width with block_size. */
static int
largest_log_size(int block_size, int ncolumns, uint16 width)
{
	BpaLayout	layout;

	for (int log_size = BP_MAX_LAYOUT_SLOTS; log_size >= 2; log_size--)
		if (bp_choose_plain_layout(&(BpOptions) {0, 0, log_size, block_size, true},
								   ncolumns, width, &layout))
			return log_size;
	return 0;
}

static bool width_fits(int ncolumns, uint16 width, BpaLayout *layout);
static uint16 widest_fitting(int ncolumns);

/*
 * The leaf layout of entries of this width under opts, for the index (or
 * hypothetical index) named index_name; an error naming it if the entries
 * are too wide for bpindex or the options do not fit a leaf.
 */
void
bp_layout_for_options(const BpOptions *opts, int ncolumns, uint16 width,
					  const char *index_name, BpaLayout *layout)
{
	int			largest;

	if (!width_fits(ncolumns, width, layout))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("entries of index \"%s\" are too wide for bpindex (%u bytes)",
						index_name, width),
				 errdetail("An internal page must hold four entries and a leaf four beside its log and block headers: entries of this index's %d columns may take at most %u bytes, their fixed-width columns counted whole and each variable-length one as 16 bytes.",
						   ncolumns, widest_fitting(ncolumns)),
				 errhint("Index fewer or narrower columns, or move the widest ones into INCLUDE of another index.")));
	if (bp_choose_plain_layout(opts, ncolumns, width, layout))
		return;
	largest = largest_log_size(opts->block_size, ncolumns, width);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("log_size %d and block_size %d do not fit a leaf of index \"%s\"",
					opts->log_size, opts->block_size, index_name),
			 errdetail("A leaf holds %zu bytes and each entry takes %u bytes; the log and blocks holding at least four entries must fit, and the log may not hold more entries than the blocks.",
					   bp_leaf_room(ncolumns, width, width), width),
			 largest > 0 ?
			 errhint("With block_size %d, log_size can be at most %d for this index.",
					 opts->block_size, largest) :
			 opts->block_size > 2 ?
			 errhint("Choose a smaller block_size, or set block_size and log_size to 0 for the layout bpindex chooses.") :
			 errhint("Set block_size and log_size to 0 for the layout bpindex chooses.")));
}

/*
 * Do entries of width bytes (ncolumns columns) fit bpindex's pages: four
 * to an internal page, and a leaf of the automatic layout (into layout)?
 */
static bool
width_fits(int ncolumns, uint16 width, BpaLayout *layout)
{
	return width <= BP_MAX_SLOT_WIDTH && bp_internal_capacity(width) >= 4 &&
		bp_choose_plain_layout(&(BpOptions) {0, BP_DEFAULT_FILLFACTOR, 0, 0, true},
							   ncolumns, width, layout);
}

/* The widest entries of ncolumns columns that fit bpindex's pages. */
static uint16
widest_fitting(int ncolumns)
{
	BpaLayout	layout;
	uint16		width = BP_MAX_SLOT_WIDTH;

	while (width > 1 && !width_fits(ncolumns, width, &layout))
		width--;
	return width;
}

/*
 * Raise an error naming the index if entries with keys (variable-length
 * columns) leave no room for a key: their fixed-width columns take the
 * page (bp_max_key_bytes is 0).
 */
void
bp_check_key_room(const BpSlotDesc *desc, const char *index_name)
{
	if (desc->has_keys && desc->max_key_bytes < BP_MIN_KEY_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("entries of index \"%s\" are too wide for bpindex (%u bytes)",
						index_name, desc->width),
				 errdetail("Beside its fixed-width columns, the variable-length columns of an entry would get %zu bytes, and need %d at least.",
						   desc->max_key_bytes, BP_MIN_KEY_BYTES),
				 errhint("Index fewer or narrower columns, or move the widest ones into INCLUDE of another index.")));
}

/*
 * Can a leaf code a fixed-length column of this kind and length (an
 * order-preserving image, or bytes that a packed leaf holds)?
 */
bool
bp_column_packable(BpCompareKind kind, int16 attlen)
{
	return kind != BP_CMP_FMGR &&
		!(kind == BP_CMP_BYTES && attlen > BPC_MAX_BYTES);
}

/* Bytes of a code that spans span values of a column. */
int
bp_code_bytes(uint64 span)
{
	return bpc_code_width(span);
}

/*
 * Bytes of the heap TID's code in a packed entry whose leaf points into
 * blocks heap blocks (with head room), with rows_per_page rows per block.
 */
int
bp_tid_code_bytes(double blocks, double rows_per_page)
{
	/* the codec's head room: an eighth of the span on each side */
	return bpc_unsigned_width((uint64) Min(blocks * 1.25, (double) PG_UINT32_MAX)) +
		(rows_per_page < 255 ? 1 : 2);
}

/*
 * Does a metapage's plain leaf layout and internal capacity fit an index
 * of this slot description (a check of a page read from disk)?
 */
bool
bp_meta_geometry_valid(const BpSlotDesc *desc, const BpaLayout *leaf_layout,
					   int internal_capacity)
{
	return bpa_layout_valid(leaf_layout) &&
		leaf_layout->slot_width == desc->width &&
		bpa_region_size(leaf_layout) <= bp_leaf_region_room(desc, desc->width) &&
		internal_capacity_valid(internal_capacity, desc->width,
								   desc->has_keys);
}
