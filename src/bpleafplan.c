/*-------------------------------------------------------------------------
 *
 * bpleafplan.c
 *	  Planning and filling leaves: the codec and layout that hold a set of
 *	  entries between two fences, and writing them into a page.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/itup.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "bpa.h"
#include "bpcodec.h"
#include "bpformat.h"
#include "bpgeometry.h"
#include "bpleaf.h"
#include "bpleafcodec.h"
#include "bpleafplan.h"
#include "bppage.h"
#include "bpslot.h"

/* Bytes of keys a keyed leaf plans for each entry before it has any. */
#define DEFAULT_ENTRY_KEY_BYTES	16

/*
 * Leaves strip the prefix their keys share only when it has at least this
 * many bytes: every read of a stripped entry rebuilds its key whole, which
 * costs a range scan more than the fewer pages of a shorter prefix save.
 */
#define MIN_KEY_STRIP		8

static void fill_leaf(Page page, const BpSlotDesc *desc, const BpLeafPlan *plan,
					  const char *items, int n, const char *lowkey,
					  const char *highkey, bool packed_blocks);

/*
 * The bound that the fences put on integer key column att of every entry
 * a leaf may hold: both fences exist, agree on every earlier column, and
 * hold a value in this one.  They never bound an INCLUDE column.
 */
static BpcBound
fence_bound(const BpSlotDesc *desc, const char *lowkey, const char *highkey,
			int att)
{
	BpcBound	bound = {0};

	if (lowkey == NULL || highkey == NULL || att >= desc->natts ||
		desc->columns.kind[att] != BPC_INTEGER ||
		bp_slot_isnull(desc, lowkey, att) || bp_slot_isnull(desc, highkey, att))
		return bound;
	for (int i = 0; i < att; i++)
	{
		/* fences that agree on a variable-length key are not told apart */
		if (desc->att_len[i] == -1 ||
			bp_slot_isnull(desc, lowkey, i) || bp_slot_isnull(desc, highkey, i) ||
			memcmp(lowkey + desc->att_offset[i], highkey + desc->att_offset[i],
				   desc->att_len[i]) != 0)
			return bound;
	}
	bp_value_image(desc->cmp_kind[att], lowkey + desc->att_offset[att], false, &bound.lo);
	bp_value_image(desc->cmp_kind[att], highkey + desc->att_offset[att], false, &bound.hi);
	bound.lo = bp_index_order_image(desc, att, bound.lo);
	bound.hi = bp_index_order_image(desc, att, bound.hi);
	bound.bounded = bound.lo <= bound.hi;
	bound.no_nulls = true;
	return bound;
}

/* Can codec hold every one of the n logical slots? */
static bool
codec_holds(const BpSlotDesc *desc, const BpCodec *codec, const char *items,
			int n)
{
	uint8		out[BLCKSZ / 4];

	for (int k = 0; k < n; k++)
	{
		BpcValue	values[BPC_MAX_COLUMNS];
		uint32		block;
		uint16		offset;

		if (!bp_slot_values(desc, items + (Size) k * desc->width, NULL, 0, 0, values, &block,
						 &offset) ||
			!bpc_encode(codec, values, block, offset, out))
			return false;
	}
	return true;
}

/*
 * Bytes the keys of the planned entries take in a leaf that stores them
 * without their first key_strip bytes (at most: bp_slot_new_keys_size
 * counts a 4-byte header's worst alignment, which a shorter key keeps at
 * most).
 */
static Size
planned_key_bytes(const BpLeafPlanner *planner, uint16 key_strip)
{
	Size		stripped = (Size) planner->distinct_keys * key_strip;

	return planner->key_bytes > stripped ? planner->key_bytes - stripped : 0;
}

/*
 * Does the first key of the logical slot lowkey (NULL: none) start with
 * the first n bytes of key (a varlena; NULL: any)?  A leaf whose windows
 * start after n bytes then takes its prefix from its low key, else it
 * stores the prefix as a key of its own.
 */
static bool
fence_starts_with(const BpSlotDesc *desc, const char *lowkey, const char *key,
				  Size n)
{
	if (lowkey == NULL || bp_slot_isnull(desc, lowkey, 0))
		return false;
	return key == NULL ||
		bp_keys_common_prefix(bp_key_field_value(desc, NULL, lowkey + desc->att_offset[0]),
							  key, desc->blank_padded[0]) >= n;
}

/*
 * Narrow the prefix that the planned entries' first keys share to the
 * logical slot's key (a NULL key shares any).
 */
static void
add_shared_prefix(BpLeafPlanner *planner, const char *slot)
{
	const BpSlotDesc *desc = planner->desc;
	const char *key;

	if (bp_slot_isnull(desc, slot, 0))
		return;
	key = bp_key_field_value(desc, NULL, slot + desc->att_offset[0]);
	if (planner->first_key == NULL)
	{
		planner->first_key = key;
		planner->shared_prefix = bp_keys_common_prefix(key, key, desc->blank_padded[0]);
	}
	else
		planner->shared_prefix = Min(planner->shared_prefix,
									 bp_keys_common_prefix(planner->first_key, key,
														  desc->blank_padded[0]));
}

/* Start planning a leaf with no entries yet. */
void
bp_leaf_planner_start(BpLeafPlanner *planner, const BpSlotDesc *desc,
					  const BpOptions *opts)
{
	planner->desc = desc;
	planner->opts = opts;
	planner->packable = desc->packable && opts->packed_leaves;
	planner->layout_width = 0;
	planner->have_plan = false;
	planner->nentries = 0;
	planner->key_bytes = 0;
	planner->distinct_keys = 0;
	planner->first = NULL;
	planner->last = NULL;
	planner->first_key = NULL;
	planner->shared_prefix = 0;
	bpc_range_init(&planner->range, desc->ncolumns);
}

/*
 * Add the next logical slot to a planned leaf.  The current plan stays if
 * it holds the slot: a plain one always does, a packed one if its codec
 * encodes the slot.
 */
void
bp_leaf_planner_add(BpLeafPlanner *planner, const char *slot)
{
	BpcValue	values[BPC_MAX_COLUMNS];
	uint32		block;
	uint16		offset;
	uint8		encoded[BP_MAX_SLOT_WIDTH];

	planner->nentries++;
	if (planner->desc->has_keys)
	{
		/* slot stays where it is until the planner starts again */
		Size		new_keys = bp_slot_new_keys_size(planner->desc, slot,
													 planner->last);

		planner->key_bytes += new_keys;
		planner->distinct_keys += new_keys > 0;
		if (planner->first == NULL)
			planner->first = slot;
		planner->last = slot;
		if (bp_bytewise_single_key(planner->desc))
			add_shared_prefix(planner, slot);
		/* a plan that strips more than the keys now share no longer holds */
		planner->have_plan = planner->have_plan &&
			planner->nentries <= planner->plan.capacity &&
			planner->plan.key_strip <= planner->shared_prefix &&
			planned_key_bytes(planner, planner->plan.key_strip) <=
			planner->plan.key_room;
	}
	if (planner->packable)
	{
		planner->packable = bp_slot_values(planner->desc, slot, NULL, 0, 0, values, &block,
										&offset);
		if (planner->packable)
			bpc_range_add(&planner->range, values, block, offset);
	}
	if (planner->have_plan && planner->plan.packed)
		planner->have_plan = planner->packable &&
			bpc_encode(&planner->plan.codec, values, block, offset, encoded);
}

/*
 * A plan that holds every entry added: the plan last made if it still
 * does, else a new one for these fences (bp_leaf_planner_plan).
 */
const BpLeafPlan *
bp_leaf_planner_current(BpLeafPlanner *planner, const char *lowkey,
						const char *highkey)
{
	if (!planner->have_plan)
	{
		bp_leaf_planner_plan(planner, lowkey, highkey, NULL, NULL, 0,
							 &planner->plan);
		planner->have_plan = true;
	}
	return &planner->plan;
}

/*
 * Make plan, which holds every entry added, the planner's current plan
 * (bp_leaf_planner_current).
 */
void
bp_leaf_planner_adopt(BpLeafPlanner *planner, const BpLeafPlan *plan)
{
	planner->plan = *plan;
	planner->have_plan = true;
}

/* The layout of a leaf whose entries take width bytes, cached by width. */
static void
planner_layout(BpLeafPlanner *planner, uint16 width, BpaLayout *layout)
{
	if (planner->layout_width != width)
	{
		if (!bp_choose_leaf_layout(planner->opts, width,
								   bp_leaf_region_room(planner->desc, width),
								   &planner->layout))
			elog(ERROR, "bpindex: no leaf layout for entries of %u bytes", width);
		planner->layout_width = width;
	}
	*layout = planner->layout;
}

/*
 * Bytes of the planned entries' keys that the leaf does not store again:
 * the keys of its first entry that equal its low key's (a split's right
 * half, whose low key is its first entry when the separator is whole).
 * Stripped keys share none (store_keyed_entries).
 */
static Size
keys_shared_with_low_fence(const BpLeafPlanner *planner, const char *lowkey,
						   uint16 key_strip)
{
	const BpSlotDesc *desc = planner->desc;

	if (lowkey == NULL || planner->first == NULL || key_strip > 0)
		return 0;
	return bp_slot_keys_size(desc, planner->first) -
		bp_slot_new_keys_size(desc, planner->first, lowkey);
}

/*
 * Plan a keyed leaf (plain, its keys in the page's key area) for the
 * planned entries between these fences: the capacity and fill target
 * count both slots and key bytes.  Returns the capacity, below the count
 * of entries if their keys do not fit.
 */
static int
plan_keyed(BpLeafPlanner *planner, const char *lowkey, const char *highkey,
		   BpLeafPlan *plan)
{
	const BpSlotDesc *desc = planner->desc;
	Size		fence_keys = (lowkey ? bp_slot_keys_size(desc, lowkey) : 0) +
		(highkey ? bp_slot_keys_size(desc, highkey) : 0);
	Size		window_start = plan->packed && bp_bytewise_single_key(desc) ?
		planner->shared_prefix : 0;
	uint16		key_strip = window_start >= MIN_KEY_STRIP ? (uint16) window_start : 0;
	Size		key_bytes = planned_key_bytes(planner, key_strip) -
		keys_shared_with_low_fence(planner, lowkey, key_strip);
	double		avg = planner->nentries > 0 ?
		(double) key_bytes / planner->nentries : DEFAULT_ENTRY_KEY_BYTES;
	double		fresh = planner->distinct_keys > 0 ?
		(double) key_bytes / planner->distinct_keys : avg;
	uint16		width = plan->packed ? plan->codec.width : desc->width;

	plan->key_strip = key_strip;
	if (window_start > 0 &&
		!fence_starts_with(desc, lowkey, planner->first_key, window_start))
		fence_keys += window_start + VARHDRSZ + ALIGNOF_INT - 1;	/* own prefix key */

	bp_plan_keyed_layout(bp_leaf_region_room(desc, width), width,
					  planner->opts, fence_keys, avg, fresh, plan);
	if (planner->nentries > plan->capacity || key_bytes > plan->key_room)
		bp_plan_keyed_to_hold(bp_leaf_region_room(desc, width), width,
						   planner->opts, fence_keys, planner->nentries,
						   key_bytes, plan);
	plan->fill_target = bp_keyed_fill_target(plan, planner->opts->fillfactor, avg);
	if (key_bytes > plan->key_room)
		plan->capacity = Min(Min(plan->capacity,
								 (int) (avg > 0 ? plan->key_room / avg : plan->capacity)),
							 planner->nentries - 1);
	return plan->capacity;
}

/*
 * Plan a keyed leaf as plan_keyed does; a packed plan that cannot hold the
 * entries (its own prefix key, beside long fences, takes their room)
 * gives way to a plain one, and a plain one under a log_size or block_size
 * whose smallest region leaves too little room for long keys to one of the
 * automatic layout, which the index's key limit counts on
 * (bp_max_key_bytes).
 */
static int
plan_keyed_or_plain(BpLeafPlanner *planner, const char *lowkey,
					const char *highkey, BpLeafPlan *plan)
{
	int			capacity = plan_keyed(planner, lowkey, highkey, plan);

	if (plan->packed && capacity < planner->nentries)
	{
		plan->packed = false;
		capacity = plan_keyed(planner, lowkey, highkey, plan);
	}
	if (capacity < planner->nentries &&
		(planner->opts->log_size > 0 || planner->opts->block_size > 0))
	{
		const BpOptions *given = planner->opts;
		BpOptions	automatic = *given;

		automatic.log_size = 0;
		automatic.block_size = 0;
		planner->opts = &automatic;
		capacity = plan_keyed(planner, lowkey, highkey, plan);
		planner->opts = given;
	}
	return capacity;
}

/*
 * Plan how a leaf stores the planned entries between these fences (either
 * may be NULL): packed with the narrowest codec that holds them, or the
 * fallback leaf's codec if that is narrower and holds them too, or plain.
 * Returns the plan's capacity (bpa_block_capacity; for keyed leaves, the
 * entries whose keys fit too, plan_keyed).  fallback is checked against
 * items, the n entries added.
 */
int
bp_leaf_planner_plan(BpLeafPlanner *planner, const char *lowkey,
					 const char *highkey, const BpLeaf *fallback,
					 const char *items, int n, BpLeafPlan *plan)
{
	const BpSlotDesc *desc = planner->desc;
	BpcBound	bounds[BPC_MAX_COLUMNS];
	bool		have = planner->packable;

	for (int i = 0; i < desc->ncolumns && have; i++)
		bounds[i] = fence_bound(desc, lowkey, highkey, i);
	have = have && bpc_choose(&desc->columns, &planner->range, bounds,
							  &plan->codec);
	if (fallback && fallback->packed &&
		(!have || fallback->codec.width < plan->codec.width) &&
		codec_holds(desc, &fallback->codec, items, n))
	{
		plan->codec = fallback->codec;
		have = true;
	}
	plan->packed = have && plan->codec.width < desc->width;
	if (desc->has_keys)
		return plan_keyed_or_plain(planner, lowkey, highkey, plan);
	planner_layout(planner, plan->packed ? plan->codec.width : desc->width,
				   &plan->layout);
	plan->key_room = 0;
	plan->key_strip = 0;
	plan->capacity = bpa_block_capacity(&plan->layout);
	plan->fill_target = bpa_fill_target(&plan->layout, planner->opts->fillfactor);
	return plan->capacity;
}

/*
 * Plan how a leaf stores n sorted logical slots between these fences, as
 * bp_leaf_planner_plan does.
 */
int
bp_leaf_plan(const BpSlotDesc *desc, const BpOptions *opts, const char *items,
			 int n, const char *lowkey, const char *highkey,
			 const BpLeaf *fallback, BpLeafPlan *plan)
{
	BpLeafPlanner planner;

	bp_leaf_planner_start(&planner, desc, opts);
	for (int k = 0; k < n; k++)
		bp_leaf_planner_add(&planner, items + (Size) k * desc->width);
	return bp_leaf_planner_plan(&planner, lowkey, highkey, fallback, items, n,
								plan);
}

/*
 * Where the windows of an ordered first column start: after the prefix
 * that the keys of its fences (logical slots, either may be NULL) share;
 * every key between the fences starts with that prefix.  0 without both.
 */
static uint16
window_start_ordered(const BpSlotDesc *desc, const char *lowkey,
					 const char *highkey)
{
	if (lowkey == NULL || highkey == NULL || bp_slot_isnull(desc, lowkey, 0) ||
		bp_slot_isnull(desc, highkey, 0))
		return 0;
	return (uint16) bp_keys_common_prefix(bp_key_field_value(desc, NULL, lowkey + desc->att_offset[0]),
										  bp_key_field_value(desc, NULL, highkey + desc->att_offset[0]),
										  desc->blank_padded[0]);
}

/*
 * Where the windows of a packed leaf's first column start: after the
 * prefix that the keys of its n entries (logical slots) share, so that
 * the windows tell most of them apart (any start would do for equality);
 * with other key columns after an ordered one, window_start_ordered.  0
 * if the first column is not a key.  The prefix of one ordered key column
 * stops before any blank of a bpchar, which its order ignores at the end.
 */
static uint16
key_window_start(const BpSlotDesc *desc, const char *lowkey, const char *highkey,
				 const char *items, int n)
{
	const char *first = NULL;
	Size		shared = BP_MAX_KEY_SIZE;
	bool		blank_padded = bp_bytewise_single_key(desc) && desc->blank_padded[0];

	if (desc->att_len[0] != -1)
		return 0;
	if (bp_windows_ordered(desc) && !bp_bytewise_single_key(desc))
		return window_start_ordered(desc, lowkey, highkey);
	for (int k = 0; k < n; k++)
	{
		const char *slot = items + (Size) k * desc->width;
		const char *key;

		if (bp_slot_isnull(desc, slot, 0))
			continue;
		key = bp_key_field_value(desc, NULL, slot + desc->att_offset[0]);
		if (first == NULL)
			first = key;
		shared = Min(shared, bp_keys_common_prefix(first, key, blank_padded));
	}
	return first == NULL ? 0 : (uint16) shared;
}

/*
 * Do the windows of the leaf page hold under its fences, one of which
 * page deletion has just changed?  They do while the fences still share
 * the prefix the windows start after (the unchanged fence starts with it).
 */
bool
bp_leaf_windows_hold(Page page, const BpSlotDesc *desc)
{
	const BpLeafHeader *header = bp_leaf_header(page, desc);
	uint16		flags = BpPageGetOpaque(page)->flags;
	char		low[BP_MAX_SLOT_WIDTH];
	char		high[BP_MAX_SLOT_WIDTH];

	if (header->encoding != BP_LEAF_PACKED || header->window_start == 0 ||
		!bp_windows_ordered(desc) || header->prefix_offset != 0)
		return true;
	if (!(flags & BP_HAS_LOW) || !(flags & BP_HAS_HIGH))
		return false;
	return window_start_ordered(desc, bp_page_fence(desc, page, false, low),
								bp_page_fence(desc, page, true, high)) >=
		header->window_start;
}

/*
 * Store the fences and the n sorted logical slots of a keyed leaf being
 * filled (its region initialized) with their keys in its key area, the
 * entries' first keys without their first key_strip bytes; returns the
 * slots as stored, to build the region from.  Equal neighbours share
 * their keys.
 */
static char *
store_keyed_entries(Page page, const BpSlotDesc *desc, char *region,
					const char *items, int n, const char *lowkey,
					const char *highkey, uint16 key_strip)
{
	Size		floor = bp_region_end(page, region);
	char	   *stored = palloc((Size) Max(n, 1) * desc->width);
	const char *same = NULL;
	bool		fits = true;

	bp_page_start_keys(page);
	if (highkey)
		fits = bp_slot_to_page(desc, page, floor, highkey, NULL,
							   bp_page_highkey(page, desc->width));
	if (lowkey && fits)
	{
		fits = bp_slot_to_page(desc, page, floor, lowkey, NULL,
							   bp_page_lowkey(page));
		/* a fence's key is whole: stripped entries share none with it */
		same = key_strip == 0 ? bp_page_lowkey(page) : NULL;
	}
	for (int k = 0; k < n && fits; k++)
	{
		char	   *dst = stored + (Size) k * desc->width;

		fits = bp_store_entry_slot(desc, page, floor, key_strip,
								items + (Size) k * desc->width, same, dst);
		same = dst;
	}
	if (!fits)
		elog(ERROR, "bpindex: the keys of a leaf do not fit its plan");
	return stored;
}

/*
 * Where the prefix of window_start bytes that the first keys of a keyed
 * leaf being filled share lies in its key area: in its low key if that
 * starts with it (it then stays, should page deletion move the low key),
 * else in a key of its own, made from the first of the n logical slots
 * whose key is not NULL.
 */
static uint16
store_leaf_prefix(Page page, const BpSlotDesc *desc, const char *region,
				  const char *lowkey, const char *items, int n,
				  uint16 window_start)
{
	const char *first = NULL;
	char		prefix[BP_KEYS_BUFSIZE];
	Size		offset;

	for (int k = 0; k < n && first == NULL; k++)
		if (!bp_slot_isnull(desc, items + (Size) k * desc->width, 0))
			first = bp_key_field_value(desc, NULL,
									   items + (Size) k * desc->width + desc->att_offset[0]);
	if (fence_starts_with(desc, lowkey, first, window_start))
		return bp_key_ref(bp_page_lowkey(page) + desc->att_offset[0]);
	Assert(first != NULL);
	SET_VARSIZE(prefix, VARHDRSZ + window_start);
	memcpy(VARDATA(prefix), VARDATA_ANY(first), window_start);
	offset = bp_page_add_key(desc, 0, page, bp_region_end(page, region), prefix);
	if (offset == 0)
		elog(ERROR, "bpindex: the keys of a leaf do not fit its plan");
	return (uint16) offset;
}

/*
 * Fill page as a leaf holding n sorted logical slots as planned, with the
 * given fences, spread evenly over the blocks, or packed into the first
 * blocks.  The leaf is built in a copy: if the plan does not hold them
 * (more entries than its capacity, keys beyond its key room) an ERROR
 * leaves page as it was.
 */
void
bp_leaf_fill(Page page, const BpSlotDesc *desc, const BpLeafPlan *plan,
			 const char *items, int n, const char *lowkey, const char *highkey,
			 bool packed_blocks)
{
	PGAlignedBlock leaf;

	if (n > plan->capacity || n > bpa_block_capacity(&plan->layout))
		elog(ERROR, "bpindex: a leaf planned for %d entries cannot take %d",
			 Min(plan->capacity, bpa_block_capacity(&plan->layout)), n);
	fill_leaf(leaf.data, desc, plan, items, n, lowkey, highkey, packed_blocks);
	memcpy(page, leaf.data, BLCKSZ);
}

/* bp_leaf_fill, building the leaf in page. */
static void
fill_leaf(Page page, const BpSlotDesc *desc, const BpLeafPlan *plan,
		  const char *items, int n, const char *lowkey, const char *highkey,
		  bool packed_blocks)
{
	uint16		flags = BP_LEAF;
	uint16		width = plan->packed ? plan->codec.width : desc->width;
	char	   *region;
	char	   *stored = (char *) items;
	char	   *keyed = NULL;
	uint16		window_start = 0;
	uint16		key_strip = 0;

	if (lowkey)
		flags |= BP_HAS_LOW;
	if (highkey)
		flags |= BP_HAS_HIGH;
	bp_init_page(page, flags, 0);
	bp_leaf_header(page, desc)->encoding = plan->packed ? BP_LEAF_PACKED : BP_LEAF_PLAIN;
	if (plan->packed)
		bp_leaf_header(page, desc)->window_start = window_start =
			key_window_start(desc, lowkey, highkey, items, n);
	if (plan->key_strip > 0 && window_start > 0)
	{
		if (window_start != plan->key_strip)
			elog(ERROR, "bpindex: a leaf planned to strip %u bytes of its keys shares %u",
				 plan->key_strip, window_start);
		key_strip = window_start;
		bp_leaf_header(page, desc)->flags |= LEAF_KEYS_STRIPPED;
	}
	((PageHeader) page)->pd_lower -= bp_leaf_dead_marks_size(desc, width);
	region = bp_leaf_region(page, desc);
	bpa_init(region, &plan->layout);
	if (desc->has_keys)
	{
		stored = keyed = store_keyed_entries(page, desc, region, items, n,
											 lowkey, highkey, key_strip);
		if (window_start > 0 && bp_windows_ordered(desc))
			bp_leaf_header(page, desc)->prefix_offset =
				store_leaf_prefix(page, desc, region, lowkey, items, n, window_start);
	}
	else
	{
		if (lowkey)
			memcpy(bp_page_lowkey(page), lowkey, desc->width);
		if (highkey)
			memcpy(bp_page_highkey(page, desc->width), highkey, desc->width);
	}
	if (plan->packed)
	{
		/* logical slots, or slots with their keys' offsets in this page */
		const char *source = stored;

		bpc_store(&plan->codec, bp_leaf_codec_bytes(page, desc));
		stored = palloc((Size) Max(n, 1) * width);
		for (int k = 0; k < n; k++)
		{
			BpcValue	values[BPC_MAX_COLUMNS];
			uint32		block;
			uint16		offset;

			if (!bp_slot_values(desc, source + (Size) k * desc->width, page,
							 window_start, key_strip, values,
							 &block, &offset) ||
				!bpc_encode(&plan->codec, values, block, offset,
							(uint8 *) stored + (Size) k * width))
				elog(ERROR, "bpindex: a leaf's codec does not hold its entries");
		}
	}
	if (packed_blocks)
		bpa_build_packed(region, stored, n);
	else
		bpa_build(region, stored, n);
	if (stored != items && stored != keyed)
		pfree(stored);
	if (keyed)
		pfree(keyed);
}
