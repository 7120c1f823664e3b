/*-------------------------------------------------------------------------
 *
 * bpleafread.c
 *	  Reading a leaf: its entries in order (merged from the BPA), ranges
 *	  bounded by scan keys, copies for scans and the TIDs of runs of entries.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/itup.h"
#include "access/stratnum.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "bpa.h"
#include "bpasort.h"
#include "bpcodebound.h"
#include "bpcodec.h"
#include "bpleaf.h"
#include "bpleafcodec.h"
#include "bpleafread.h"
#include "bpscankey.h"
#include "bpslot.h"

/* Scan keys compared with windows at most (more: decoded). */
#define MAX_WINDOW_KEYS		4

/*
 * The value keys of a scan (first_column_prefix) as seen from a packed
 * leaf whose first column is a bytewise key (bp_compare_packed_bytewise):
 * where each argument lies against the prefix every key of the leaf
 * shares (the first window_start bytes of its fences), and its window.
 */
typedef struct KeyWindows
{
	bool		ready;			/* computed for this leaf */
	bool		usable;
	int8		side[MAX_WINDOW_KEYS];	/* the argument against the shared
										 * prefix: -1 below, 1 above, 0
										 * starts with it */
	uint8		window[MAX_WINDOW_KEYS][KEY_WINDOW_SIZE];
} KeyWindows;

/*
 * Where a reader's predicates and visits see an encoded entry as a
 * logical slot.
 */
/* How a reader tests the first column's code of stored entries. */
#define CODE_UNKNOWN	(-1)	/* not known yet */
#define CODE_NONE		0		/* it does not: it decodes them */
#define CODE_BYTES		1		/* the code is the value's bytes */
#define CODE_INTEGER	2		/* the code is an integer image's offset */
#define CODE_COLUMNS	3		/* CODE_INTEGER for each column keys bound */
#define CODE_BOUNDS		4		/* CODE_COLUMNS as bounds on the codes */

/* Scan keys a reader compares with the first column's codes, at most. */
#define MAX_CODE_KEYS	4

typedef struct LeafReader
{
	BpLeaf	   *leaf;
	KeyWindows	windows;		/* of pred_arg's keys, if they are scan keys */
	int8		code_kind;		/* first_code_kind, once known */
	uint64		key_images[MAX_CODE_KEYS];	/* CODE_INTEGER, CODE_COLUMNS: the
											 * keys' images */
	uint16		code_offsets[MAX_CODE_KEYS];	/* CODE_COLUMNS: where the
												 * codes of the keys' columns
												 * start in an entry */
	BpCodeBound bounds[2];		/* CODE_BOUNDS: the range's lower and upper
								 * bounds, */
	bool		bound_built[2];	/* ... once built */
	bool		dead_marks;		/* set the dead bit of marked entries */
	bool		any_marks;		/* the leaf has marks */
	BpaPredicateFn before_start;
	BpaPredicateFn after_end;
	void	   *pred_arg;
	BpaVisitFn	visit;
	void	   *visit_arg;
	char	   *slot;			/* one logical slot */
} LeafReader;

/*
 * Write into out the logical slot of a stored entry as a reader sees it:
 * decoded, with the dead bit set if it carries a mark and the reader wants
 * marks.
 */
static void
reader_slot_into(LeafReader *reader, const char *stored, char *out)
{
	BpLeaf	   *leaf = reader->leaf;

	if (bp_leaf_decodes(leaf))
		bp_decode_entry(leaf, stored, out);
	else
		memcpy(out, stored, leaf->width);
	if (reader->any_marks && bp_has_dead_mark(leaf, stored))
		((ItemPointer) out)->ip_posid |= BP_TID_DEAD_BIT;
}

/*
 * The logical slot of a stored entry of the reader's leaf: the entry
 * itself, or decoded into the reader's slot; with the dead bit set if it
 * carries a mark and the reader wants marks.
 */
static const char *
reader_slot(LeafReader *reader, const char *stored)
{
	BpLeaf	   *leaf = reader->leaf;

	if (!bp_leaf_decodes(leaf) &&
		!(reader->any_marks && bp_has_dead_mark(leaf, stored)))
		return stored;
	reader_slot_into(reader, stored, reader->slot);
	return reader->slot;
}

/*
 * Where a key's argument (a varlena of the key column's type) lies
 * against the prefix every key of the leaf shares, and its window there.
 */
static int8
argument_window(const BpLeaf *leaf, const char *argument, uint8 *window)
{
	Size		len;
	const char *data = bp_key_data(leaf->desc, 0, argument, &len);
	int			c;

	if (!bp_windows_ordered(leaf->desc))
	{
		/* windows that only tell unequal keys apart */
		bp_key_window(leaf->desc, argument, leaf->window_start, window);
		return 0;
	}
	c = bp_side_of_prefix(leaf, data, len, leaf->window_start);
	if (c != 0)
		return c;
	bp_key_window(leaf->desc, argument, leaf->window_start, window);
	return 0;
}

/* Compute reader->windows for its scan keys, once per leaf. */
static void
prepare_key_windows(LeafReader *reader)
{
	const BpScanKeys *keys = (const BpScanKeys *) reader->pred_arg;
	KeyWindows *windows = &reader->windows;

	windows->ready = true;
	windows->usable = reader->leaf->compare == bp_compare_packed_bytewise &&
		keys->first_column_prefix && keys->nkeys <= MAX_WINDOW_KEYS;
	if (!windows->usable)
		return;
	for (int i = 0; i < keys->nkeys; i++)
		windows->side[i] = argument_window(reader->leaf,
										   DatumGetPointer(keys->keys[i].argument),
										   windows->window[i]);
}

/*
 * The side of the range of the scan keys that a stored entry of a packed
 * bytewise leaf lies on by its window alone (BP_KEY_MATCH: it does not
 * tell), as bp_prefix_side tells for plain entries.
 */
static BpKeyResult
window_side(LeafReader *reader, const char *stored)
{
	const BpScanKeys *keys = (const BpScanKeys *) reader->pred_arg;
	const uint8 *code;

	if (!reader->windows.ready)
		prepare_key_windows(reader);
	if (!reader->windows.usable ||
		(code = bp_first_key_code(reader->leaf, stored)) == NULL)
		return BP_KEY_MATCH;
	for (int i = 0; i < keys->nkeys; i++)
	{
		int			c = -reader->windows.side[i];
		BpKeyResult side;

		if (c == 0)
			c = memcmp(code, reader->windows.window[i], KEY_WINDOW_SIZE);
		side = c == 0 ? BP_KEY_MATCH : bp_key_side(&keys->keys[i], (c > 0) - (c < 0));
		if (side != BP_KEY_MATCH)
			return side;
	}
	return BP_KEY_MATCH;
}

/*
 * For a keyed leaf read with the range predicates of scan keys on a
 * bytewise first column: the side of the range the stored entry's prefix
 * (or a packed entry's window) alone puts it on (BP_KEY_MATCH: it does
 * not tell), without decoding.
 */
static inline BpKeyResult
reader_prefix_side(LeafReader *reader, const void *stored)
{
	if (!reader->leaf->keyed || reader->before_start != bp_below_range ||
		!((const BpScanKeys *) reader->pred_arg)->first_column_prefix)
		return BP_KEY_MATCH;
	if (reader->leaf->packed)
		return window_side(reader, stored);
	return bp_prefix_side((const BpScanKeys *) reader->pred_arg, stored);
}

/* Is column att of the leaf's entries an ascending integer-like code? */
static bool
integer_code_column(const BpLeaf *leaf, int att)
{
	BpCompareKind kind = leaf->desc->cmp_kind[att];

	return leaf->codec.att_kind[att] == BPC_INTEGER && !leaf->desc->reverse[att] &&
		bp_integer_kind(kind);
}

/*
 * The CODE_COLUMNS case of first_code_kind: keys that are all IS [NOT]
 * NULL keys or value keys of their column's type, on ascending
 * integer-like columns (a skip scan's skip keys only while a prefix gives
 * them values: the reader lives within one prefix); their images into
 * key_images and the codes' offsets into code_offsets.
 */
static int8
leading_columns_kind(LeafReader *reader, const BpScanKeys *keys)
{
	const BpLeaf *leaf = reader->leaf;
	const BpSlotDesc *desc = leaf->desc;

	if (keys->nskip > 0 && !keys->prefix_set)
		return CODE_NONE;
	for (int i = 0; i < keys->nkeys; i++)
	{
		const BpScanKey *key = &keys->keys[i];
		int			att = key->attno;
		uint16		offset = 0;

		if (!integer_code_column(leaf, att) ||
			(key->flags == 0 &&
			 (key->kind != desc->cmp_kind[att] ||
			  !bp_datum_image(key->kind, desc->att_len[att], key->argument,
							  &reader->key_images[i]))))
			return CODE_NONE;
		for (int j = 0; j < att; j++)
			offset += leaf->codec.att_width[j];
		reader->code_offsets[i] = offset;
	}
	if (bp_code_bounds_usable(&leaf->codec, keys, reader->key_images))
		return CODE_BOUNDS;
	return CODE_COLUMNS;
}

/*
 * Can a reader's range predicates (bp_below_range and bp_above_range of
 * scan keys) test the stored entries of a packed leaf by their codes,
 * without decoding?  Keys that compare the first column inline: if it is
 * stored as its own bytes, whole (uuid: CODE_BYTES), or as an integer code
 * of an ascending integer-like column whose keys' values have images
 * (CODE_INTEGER, with the images in key_images).  Other keys: if they all
 * bound such integer columns (CODE_COLUMNS).
 */
static int8
first_code_kind(LeafReader *reader)
{
	const BpLeaf *leaf = reader->leaf;
	const BpSlotDesc *desc = leaf->desc;
	const BpScanKeys *keys = (const BpScanKeys *) reader->pred_arg;
	BpCompareKind kind = desc->cmp_kind[0];

	if (!leaf->packed ||
		(reader->before_start != NULL && reader->before_start != bp_below_range) ||
		(reader->after_end != NULL && reader->after_end != bp_above_range) ||
		reader->before_start == reader->after_end ||
		keys->nkeys > MAX_CODE_KEYS)
		return CODE_NONE;
	if (!keys->first_column_inline)
		return leading_columns_kind(reader, keys);
	if (kind == BP_CMP_BYTES && leaf->codec.att_kind[0] == BPC_BYTES)
	{
		int			width = leaf->codec.att_width[0] -
			((leaf->codec.att_flags[0] & BPC_ATT_NULL_BYTE) ? 1 : 0);

		return width == desc->att_len[0] ? CODE_BYTES : CODE_NONE;
	}
	if (!integer_code_column(leaf, 0) || leaf->codec.att_width[0] == 0)
		return CODE_NONE;
	for (int i = 0; i < keys->nkeys; i++)
		if (keys->keys[i].kind != kind ||
			!bp_datum_image(kind, desc->att_len[0], keys->keys[i].argument,
							&reader->key_images[i]))
			return CODE_NONE;
	return CODE_INTEGER;
}

/*
 * For first_code_kind: is the stored entry outside the keys' range (below
 * it, or above it), as bp_below_range or bp_above_range would say of its
 * decoded slot?  -1 for a NULL, which the slot must tell.
 */
static int
first_code_outside(LeafReader *reader, const uint8 *stored, bool below)
{
	const BpScanKeys *keys = (const BpScanKeys *) reader->pred_arg;
	const BpCodec *codec = &reader->leaf->codec;
	uint64		value = 0;

	if (reader->code_kind == CODE_INTEGER)
	{
		bool		isnull;

		value = bpc_integer_value(codec, 0,
								  bpc_get_big_endian(stored, codec->att_width[0]),
								  &isnull);
		if (isnull)
			return -1;
	}
	else if (codec->att_flags[0] & BPC_ATT_NULL_BYTE)
	{
		if (*stored != 0)
			return -1;
		stored++;
	}
	for (int i = 0; i < keys->nkeys; i++)
	{
		const BpScanKey *key = &keys->keys[i];
		int			c;

		if (reader->code_kind == CODE_INTEGER)
			c = (value > reader->key_images[i]) - (value < reader->key_images[i]);
		else
		{
			c = memcmp(stored, DatumGetPointer(key->argument),
					   reader->leaf->desc->att_len[0]);
			c = (c > 0) - (c < 0);
		}
		if (below ? c < key->below_limit : c > key->above_limit)
			return 1;
	}
	return 0;
}

/*
 * The image of column att's value in a stored entry whose code for it
 * starts at offset, or false for a NULL.
 */
static inline bool
code_column_value(const BpCodec *codec, int att, const uint8 *stored,
				  uint16 offset, uint64 *value)
{
	bool		isnull;
	int			width = codec->att_width[att];

	if (width == 0)
	{
		*value = codec->att_base[att];
		return (codec->att_flags[att] & BPC_ATT_CONST_NULL) == 0;
	}
	*value = bpc_integer_value(codec, att,
							   bpc_get_big_endian(stored + offset, width),
							   &isnull);
	return !isnull;
}

/*
 * For CODE_COLUMNS: is the stored entry outside the keys' range, as
 * bp_below_range or bp_above_range (outside_range) would say of its
 * decoded slot: the columns in order, each looked at only while the
 * earlier ones are pinned by equality keys (= or IS NULL) it satisfies?
 */
static int
leading_columns_outside(LeafReader *reader, const uint8 *stored, bool below)
{
	const BpScanKeys *keys = (const BpScanKeys *) reader->pred_arg;
	const BpCodec *codec = &reader->leaf->codec;
	BpKeyResult side = below ? BP_KEY_BELOW : BP_KEY_ABOVE;
	int			i = 0;

	for (int att = 0; i < keys->nkeys && keys->keys[i].attno == att; att++)
	{
		bool		pinned = false;
		bool		all_equal = true;
		uint64		value;
		bool		isnull = !code_column_value(codec, att, stored,
												reader->code_offsets[i], &value);

		for (; i < keys->nkeys && keys->keys[i].attno == att; i++)
		{
			const BpScanKey *key = &keys->keys[i];
			BpKeyResult result;

			if (!bp_key_null_side(key, reader->leaf->desc->nulls_first[att],
								  isnull, &result))
				result = bp_key_side(key, (value > reader->key_images[i]) -
									 (value < reader->key_images[i]));
			if (result == side)
				return 1;
			if (key->strategy == BTEqualStrategyNumber ||
				(key->flags & SK_SEARCHNULL))
			{
				pinned = true;
				all_equal &= result == BP_KEY_MATCH;
			}
		}
		if (!pinned || !all_equal)
			return 0;
	}
	return 0;
}

/*
 * A reader's predicate on a stored entry: outside (BP_KEY_BELOW or
 * BP_KEY_ABOVE) where the prefixes, windows or first column's bytes
 * decide, else the caller's predicate on the decoded slot.
 */
static bool
reader_predicate(LeafReader *reader, const void *stored, BpKeyResult outside,
				 BpaPredicateFn predicate)
{
	BpKeyResult side;

	/* stored_predicate chose it, knowing the keys are no code bounds */
	Assert(reader->code_kind != CODE_UNKNOWN && reader->code_kind != CODE_BOUNDS);
	if (reader->code_kind != CODE_NONE)
	{
		int			result = reader->code_kind == CODE_COLUMNS ?
			leading_columns_outside(reader, stored, outside == BP_KEY_BELOW) :
			first_code_outside(reader, stored, outside == BP_KEY_BELOW);

		if (result >= 0)
			return result;
	}
	side = reader_prefix_side(reader, stored);
	if (side != BP_KEY_MATCH)
		return side == outside;
	bp_decode_entry(reader->leaf, stored, reader->slot);
	return predicate(reader->slot, reader->pred_arg);
}

/* Predicate on stored entries: before_start of the decoded slot. */
static bool
reader_before_start(const void *stored, void *arg)
{
	LeafReader *reader = (LeafReader *) arg;

	return reader_predicate(reader, stored, BP_KEY_BELOW, reader->before_start);
}

/* Predicate on stored entries: after_end of the decoded slot. */
static bool
reader_after_end(const void *stored, void *arg)
{
	LeafReader *reader = (LeafReader *) arg;

	return reader_predicate(reader, stored, BP_KEY_ABOVE, reader->after_end);
}

/* reader_before_start where code bounds tell: one comparison. */
static bool
reader_code_below(const void *stored, void *arg)
{
	LeafReader *reader = (LeafReader *) arg;
	bool		below = bp_code_below((const uint8 *) stored, &reader->bounds[0]);

	Assert(below == (leading_columns_outside(reader, stored, true) == 1));
	return below;
}

/* reader_after_end where code bounds tell: one comparison. */
static bool
reader_code_above(const void *stored, void *arg)
{
	LeafReader *reader = (LeafReader *) arg;
	bool		above = bp_code_above((const uint8 *) stored, &reader->bounds[1]);

	Assert(above == (leading_columns_outside(reader, stored, false) == 1));
	return above;
}

/*
 * The predicate on the stored entries of a decoding reader, whose
 * predicates on logical slots are set: before_start's (below) or
 * after_end's, straight on the codes where the keys are code bounds.
 */
static BpaPredicateFn
stored_predicate(LeafReader *reader, bool below)
{
	int			side = below ? 0 : 1;

	if (reader->code_kind == CODE_UNKNOWN)
		reader->code_kind = first_code_kind(reader);
	if (reader->code_kind != CODE_BOUNDS)
		return below ? reader_before_start : reader_after_end;
	if (!reader->bound_built[side])
	{
		bp_code_bound(&reader->leaf->codec,
					  (const BpScanKeys *) reader->pred_arg,
					  reader->key_images, below, &reader->bounds[side]);
		reader->bound_built[side] = true;
	}
	return below ? reader_code_below : reader_code_above;
}

/* Visit of a stored entry: the caller's visit of its logical slot. */
static void
reader_visit(const void *stored, void *arg)
{
	LeafReader *reader = (LeafReader *) arg;

	reader->visit(reader_slot(reader, stored), reader->visit_arg);
}

/* Prepare a reader of leaf. */
static void
init_reader(LeafReader *reader, BpLeaf *leaf, bool dead_marks, char *slot)
{
	memset(reader, 0, sizeof(LeafReader));
	reader->code_kind = CODE_UNKNOWN;
	reader->leaf = leaf;
	reader->dead_marks = dead_marks;
	reader->any_marks = dead_marks && bp_leaf_has_dead_marks(leaf->page);
	reader->slot = slot;
}

/* The leaf's scratch space for BPA operations, checked for size. */
static char *
leaf_scratch(const BpLeaf *leaf, BpLeafWork *work)
{
	if (bpa_scratch_size(bpa_layout(leaf->region)) > BP_LEAF_SCRATCH_SIZE)
		elog(ERROR, "bpindex: leaf layout needs more scratch space than allocated");
	return bp_leaf_work_scratch(work);
}

/* Position of stored in sorted (n stored entries, ascending), or -1. */
static int
find_in_sorted_copy(const BpLeaf *leaf, const char *sorted, int n,
					const char *stored)
{
	return bpa_search_sorted(sorted, n, leaf->width, stored, leaf->compare,
							 leaf->compare_arg);
}

/*
 * Set the dead bit of the slots of out that carry marks: out holds, as
 * logical slots, the n stored entries of sorted, a sorted copy of some of
 * the leaf's entries.  One search per marked entry, so a leaf with a few
 * marks costs a few searches, not one per entry copied.
 */
static void
copy_dead_marks(const BpLeaf *leaf, const char *sorted, int n, char *out)
{
	const uint8 *marks = bp_leaf_dead_marks(leaf->page);
	Size		nbytes = ((PageHeader) leaf->page)->pd_upper -
		((PageHeader) leaf->page)->pd_lower;
	const char *first_slot = bpa_log_entry(leaf->region, 0);
	Size		out_width = leaf->desc->width;

	for (Size byte = 0; byte < nbytes; byte++)
	{
		for (int bit = 0; marks[byte] != 0 && bit < 8; bit++)
		{
			Size		pos = byte * 8 + bit;
			int			found;

			if (!((marks[byte] >> bit) & 1) ||
				!bpa_position_holds_entry(leaf->region, pos))
				continue;
			found = find_in_sorted_copy(leaf, sorted, n,
										first_slot + pos * leaf->width);
			if (found >= 0)
				((ItemPointer) (out + found * out_width))->ip_posid |=
					BP_TID_DEAD_BIT;
		}
	}
}

/*
 * Copy the leaf's entries into out as logical slots in ascending order,
 * from the first for which before_start (on logical slots) is false, or
 * all with before_start NULL, to the last for which after_end is false,
 * or the last with after_end NULL; returns their count.  dead_marks: set
 * the dead bit of marked entries.
 */
int
bp_leaf_sorted(BpLeaf *leaf, BpaPredicateFn before_start,
			   BpaPredicateFn after_end, void *arg,
			   bool dead_marks, char *out, BpLeafWork *work)
{
	return bp_leaf_sorted_part(leaf, before_start, after_end, arg, dead_marks,
							   NULL, out, work);
}

/*
 * bp_leaf_sorted of a part of the range (part NULL: all of it): where the
 * range spans more than part->max_blocks blocks, only its entries below
 * part->cut (forward), or at or above it, which is then the logical slot
 * of the header slot where bpa_sorted_part cut the copy.
 */
int
bp_leaf_sorted_part(BpLeaf *leaf, BpaPredicateFn before_start,
					BpaPredicateFn after_end, void *arg, bool dead_marks,
					BpLeafPart *part, char *out, BpLeafWork *work)
{
	LeafReader	reader;
	/* bpa_sorted needs scratch space only to merge a log */
	char	   *scratch = bpa_log_count(leaf->region) > 0 ?
		leaf_scratch(leaf, work) : NULL;
	bool		decodes = bp_leaf_decodes(leaf);
	char	   *stored = decodes ? work->stored : out;
	BpaPart		region_part = {0, true, NULL};
	int			n;

	init_reader(&reader, leaf, dead_marks, work->slot);
	reader.before_start = before_start;
	reader.after_end = after_end;
	reader.pred_arg = arg;
	if (part != NULL)
	{
		region_part.max_blocks = part->max_blocks;
		region_part.forward = part->forward;
	}
	n = bpa_sorted_part(leaf->region, leaf->compare, leaf->compare_arg,
						before_start == NULL ? NULL :
						decodes ? stored_predicate(&reader, true) : before_start,
						after_end == NULL ? NULL :
						decodes ? stored_predicate(&reader, false) : after_end,
						decodes ? (void *) &reader : arg, &region_part,
						stored, scratch);
	if (decodes)
		bp_decode_entries(leaf, stored, n, out);
	if (reader.any_marks)
		copy_dead_marks(leaf, stored, n, out);
	if (part != NULL && (part->was_cut = region_part.cut != NULL))
	{
		if (decodes)
			bp_decode_entry(leaf, region_part.cut, part->cut);
		else
			memcpy(part->cut, region_part.cut, leaf->width);
	}
	return n;
}

/*
 * Copy into out, as a logical slot, the leaf's least entry (forward) or
 * its greatest (backward) among those that excluded (on logical slots)
 * does not hold for; excluded must hold for the entries before some point
 * (forward) or after it (backward).  False if there is none.  Decodes
 * the log and a block or two, not the leaf.
 */
bool
bp_leaf_nearest(BpLeaf *leaf, BpaPredicateFn excluded, void *arg,
				bool forward, char *out, BpLeafWork *work)
{
	LeafReader	reader;
	bool		decodes = bp_leaf_decodes(leaf);
	const char *stored;

	init_reader(&reader, leaf, false, work->slot);
	/* the one predicate a search in the direction asks */
	if (forward)
		reader.before_start = excluded;
	else
		reader.after_end = excluded;
	reader.pred_arg = arg;
	stored = bpa_nearest(leaf->region, leaf->compare, leaf->compare_arg,
						 !decodes ? excluded : stored_predicate(&reader, forward),
						 decodes ? (void *) &reader : arg, forward);
	if (stored == NULL)
		return false;
	if (decodes)
		bp_decode_entry(leaf, stored, out);
	else
		memcpy(out, stored, leaf->width);
	return true;
}

/*
 * Visit the leaf's entries, as logical slots, that may lie in the range
 * the predicates (on logical slots, either may be NULL) bound: the log
 * and the blocks the header selects, in no particular order.
 */
void
bp_leaf_map(BpLeaf *leaf, BpaPredicateFn before_start, BpaPredicateFn after_end,
			void *arg, bool dead_marks, BpaVisitFn visit, void *visit_arg,
			BpLeafWork *work)
{
	LeafReader	reader;

	init_reader(&reader, leaf, dead_marks, work->slot);
	reader.before_start = before_start;
	reader.after_end = after_end;
	reader.pred_arg = arg;
	reader.visit = visit;
	reader.visit_arg = visit_arg;
	if (!bp_leaf_decodes(leaf))
	{
		if (!reader.any_marks)
		{
			bpa_map(leaf->region, before_start, after_end, arg, visit, visit_arg);
			return;
		}
		/* predicates see the stored slots, visits the marked copies */
		bpa_map(leaf->region, before_start, after_end, arg, reader_visit, &reader);
		return;
	}
	bpa_map(leaf->region, before_start ? stored_predicate(&reader, true) : NULL,
			after_end ? stored_predicate(&reader, false) : NULL, &reader,
			reader_visit, &reader);
}

/* The codes of the first column that the range of keys admits. */
typedef struct CodeRange
{
	uint64		lo;
	uint64		hi;				/* lo > hi: none */
} CodeRange;

/* The image of a scan key's argument of the column's own type. */
static uint64
argument_image(const BpSlotDesc *desc, Datum argument)
{
	char		value[8];
	uint64		image;

	switch (desc->att_len[0])
	{
		case 1:
			value[0] = DatumGetChar(argument);
			break;
		case 2:
			{
				int16		v = DatumGetInt16(argument);

				memcpy(value, &v, 2);
				break;
			}
		case 4:
			{
				int32		v = DatumGetInt32(argument);

				memcpy(value, &v, 4);
				break;
			}
		default:
			{
				int64		v = DatumGetInt64(argument);

				memcpy(value, &v, 8);
				break;
			}
	}
	bp_value_image(desc->cmp_kind[0], value, false, &image);
	return image;
}

/*
 * Narrow range to the codes of images v with below_limit <= sign(v - a)
 * <= above_limit, a the key's image (see BpScanKey).
 */
static void
narrow_codes(CodeRange *range, uint64 base, uint64 a, int below_limit,
			 int above_limit)
{
	if (below_limit > 0 && a == PG_UINT64_MAX)
		range->lo = PG_UINT64_MAX;	/* nothing lies above */
	else if (below_limit >= 0)
	{
		uint64		lo = below_limit > 0 ? a + 1 : a;

		range->lo = Max(range->lo, lo > base ? lo - base : 0);
	}
	if (above_limit < 0 && a == 0)
		range->hi = 0, range->lo = Max(range->lo, 1);	/* nothing lies below */
	else if (above_limit <= 0)
	{
		uint64		hi = above_limit < 0 ? a - 1 : a;

		if (hi < base)
			range->lo = Max(range->lo, 1), range->hi = 0;
		else
			range->hi = Min(range->hi, hi - base);
	}
}

/*
 * The range of first-column codes of a packed leaf inside the range of
 * keys with first_column_inline (value keys on the first, integer-like
 * column, with arguments of its type).
 */
static CodeRange
first_column_codes(const BpLeaf *leaf, const BpScanKeys *keys)
{
	CodeRange	range = {0, bpc_max_code(leaf->codec.att_width[0])};

	/* keys are first_column_inline only on an ASC NULLS LAST column */
	Assert(!leaf->desc->reverse[0] && !leaf->desc->nulls_first[0]);
	if (leaf->codec.att_flags[0] & BPC_ATT_CONST_NULL)
		return (CodeRange) {1, 0};
	for (int i = 0; i < keys->nkeys; i++)
		narrow_codes(&range, leaf->codec.att_base[0],
					 argument_image(leaf->desc, keys->keys[i].argument),
					 keys->keys[i].below_limit, keys->keys[i].above_limit);
	return range;
}

/* Where append_slot copies logical slots. */
typedef struct SlotCopy
{
	char	   *out;
	uint16		width;
	int			n;
} SlotCopy;

/* Visit: append a logical slot to a SlotCopy. */
static void
append_slot(const void *slot, void *arg)
{
	SlotCopy   *copy = (SlotCopy *) arg;

	memcpy(copy->out + (Size) copy->n++ * copy->width, slot, copy->width);
}

/*
 * Where copy_run_inside collects the entries of a range: their logical
 * slots into out, or (out NULL) the heap TIDs of the unmarked ones into
 * tids.
 */
typedef struct RangeCopy
{
	const BpLeaf *leaf;
	const BpScanKeys *keys;
	CodeRange	codes;			/* packed leaf, integer first column */
	bool		by_code;
	bool		by_bytes;		/* keyed leaf, keys point_bytes */
	uint8		window[KEY_WINDOW_SIZE];	/* by_bytes, packed: the key's */
	int32		equal_key;		/* by_bytes, packed: the offset of a key
								 * found equal to the keys', or -1 */
	int			decoded_equal;	/* the item of out decoded from an entry
								 * with that key, or -1 */
	LeafReader *reader;
	char	   *out;
	ItemPointerData *tids;
	int			n;
} RangeCopy;

/*
 * Is the compressed key of a plain leaf (never stripped) the same bytes as
 * value, once decompressed?
 */
static bool
compressed_key_equals(const char *key, const char *value)
{
	const char *whole = bp_key_uncompressed(key);
	bool		equal = bp_keys_equal(whole, value);

	pfree(unconstify(char *, whole));
	return equal;
}

/*
 * Is key (a varlena, stored without the first skip bytes of its key) the
 * same bytes as the key of keys (point_bytes), which starts with those?
 */
static inline bool
key_equals_argument(const BpScanKeys *keys, const char *key, uint16 skip)
{
	const char *value = DatumGetPointer(keys->keys[0].argument);

	if (unlikely(bp_key_compressed(key)))
		return compressed_key_equals(key, value);
	return VARSIZE_ANY_EXHDR(key) + skip == VARSIZE_ANY_EXHDR(value) &&
		memcmp(VARDATA_ANY(key), VARDATA_ANY(value) + skip, VARSIZE_ANY_EXHDR(key)) == 0;
}

/*
 * Does the first column of the stored entry of a keyed leaf hold the key
 * of copy's keys (point_bytes)?  A plain entry tells by its prefix first,
 * a packed one by its window (the argument's is copy->window), without
 * decoding; a packed one whose code names the key last found equal
 * (copy->equal_key: a run of equal keys shares one), by that alone.
 */
static bool
stored_key_equals(RangeCopy *copy, const char *stored)
{
	const BpLeaf *leaf = copy->leaf;
	const char *field = stored + leaf->desc->att_offset[0];

	if (leaf->packed)
	{
		const uint8 *code = bp_first_key_code(leaf, stored);
		int32		offset;

		if (code == NULL)
			return false;
		offset = bp_code_key_offset(code, leaf->desc->columns.length[0]);
		if (offset == copy->equal_key)
			return true;
		/* the argument starts with the prefix a stripped key lacks */
		if (memcmp(code, copy->window, KEY_WINDOW_SIZE) != 0 ||
			!key_equals_argument(copy->keys, bp_first_code_key(leaf, code),
								 leaf->key_strip))
			return false;
		copy->equal_key = offset;
		copy->decoded_equal = -1;
		return true;
	}
	if (bp_slot_isnull(leaf->desc, stored, 0) ||
		bp_compare_prefixes(field, copy->keys->keys[0].prefix) != 0)
		return false;
	return key_equals_argument(copy->keys,
							   bp_page_key(leaf->desc, leaf->page, bp_key_ref(field)), 0);
}

/*
 * Is the stored entry inside the range of copy's keys?  The slot decoded
 * for the test, if one was, is left in *slot.
 */
static bool
stored_inside(RangeCopy *copy, const char *stored, const char **slot)
{
	const BpLeaf *leaf = copy->leaf;

	*slot = NULL;
	if (copy->by_code)
	{
		uint64		code = bpc_first_code(&leaf->codec, (const uint8 *) stored);

		return code >= copy->codes.lo && code <= copy->codes.hi;
	}
	if (copy->by_bytes)
		return stored_key_equals(copy, stored);
	*slot = reader_slot(copy->reader, stored);
	return bp_inside_first_column(copy->keys, *slot);
}

/*
 * Append to copy->out the logical slot of a stored entry that its code or
 * key bytes found inside the range (without decoding it); where
 * stored_key_equals found it, on a packed leaf of one column, from the
 * slot of the last entry decoded with the same key.
 */
static void
append_inside_entry(RangeCopy *copy, const char *stored)
{
	const BpLeaf *leaf = copy->leaf;
	uint16		width = leaf->desc->width;
	char	   *out = copy->out + (Size) copy->n * width;

	if (!copy->by_bytes || !leaf->packed || leaf->codec.natts != 1)
		reader_slot_into(copy->reader, stored, out);
	else
	{
		if (copy->decoded_equal >= 0)
			bp_decode_entry_sharing_key(leaf, stored,
										copy->out + (Size) copy->decoded_equal * width,
										out);
		else
		{
			bp_decode_entry(leaf, stored, out);
			copy->decoded_equal = copy->n;
		}
		if (copy->reader->any_marks && bp_has_dead_mark(leaf, stored))
			((ItemPointer) out)->ip_posid |= BP_TID_DEAD_BIT;
	}
	copy->n++;
}

/*
 * Append the stored entries of one run that lie inside the range; in a
 * sorted run that starts inside it, those up to the first outside.
 */
static void
copy_run_inside(RangeCopy *copy, const char *run, int n, bool sorted)
{
	const BpLeaf *leaf = copy->leaf;
	uint16		width = leaf->desc->width;

	for (int i = 0; i < n; i++)
	{
		const char *stored = run + (Size) i * leaf->width;
		const char *slot;

		if (!stored_inside(copy, stored, &slot))
		{
			if (sorted)
				break;
			continue;
		}
		if (copy->out != NULL && slot != NULL)
			memcpy(copy->out + (Size) copy->n++ * width, slot, width);
		else if (copy->out != NULL)
			append_inside_entry(copy, stored);
		else if (!copy->reader->any_marks || !bp_has_dead_mark(leaf, stored))
			copy->tids[copy->n++] = bp_stored_entry_tid(leaf, stored);
	}
}

/*
 * Skip the entries of the sorted run of n stored entries at *run that lie
 * below the range of the reader's predicates: a binary search.
 */
static void
skip_below_range(BpLeaf *leaf, LeafReader *reader, const char **run, int *n)
{
	bool		decodes = bp_leaf_decodes(leaf);
	int			lo = bpa_first_true(*run, *n, leaf->width,
									decodes ? stored_predicate(reader, true) :
									reader->before_start,
									decodes ? (void *) reader : reader->pred_arg,
									true);

	*run += (Size) lo * leaf->width;
	*n -= lo;
}

/*
 * Collect the leaf's entries inside the range of keys (first_column_inline,
 * or point_bytes on a keyed leaf) into copy, unordered: the log and the
 * blocks the header selects (in a sorted one, from a binary search to the
 * first entry past the range), tested inline (on a packed leaf, on the first
 * column's code; on a keyed leaf, by the key's prefix and bytes, without
 * the comparison function).  Returns the count.
 */
static int
collect_range_inside(BpLeaf *leaf, RangeCopy *copy)
{
	const BpScanKeys *keys = copy->keys;
	LeafReader *reader = copy->reader;
	int			first;
	int			end;

	reader->before_start = bp_below_range;
	reader->after_end = bp_above_range;
	reader->pred_arg = (void *) keys;
	if (leaf->packed && leaf->codec.att_kind[0] == BPC_INTEGER)
	{
		copy->by_code = true;
		copy->codes = first_column_codes(leaf, keys);
		if (copy->codes.lo > copy->codes.hi)
			return 0;
	}
	copy->by_bytes = leaf->keyed && keys->point_bytes;
	/* no key of a packed leaf equals one without the prefix they share */
	if (copy->by_bytes && leaf->packed &&
		argument_window(leaf, DatumGetPointer(keys->keys[0].argument),
						copy->window) != 0)
		return 0;
	copy_run_inside(copy, bpa_log_entry(leaf->region, 0),
					bpa_log_count(leaf->region), false);
	if (bp_leaf_decodes(leaf))
		bpa_candidate_blocks(leaf->region, stored_predicate(reader, true),
							 stored_predicate(reader, false), reader,
							 &first, &end);
	else
		bpa_candidate_blocks(leaf->region, bp_below_range, bp_above_range,
							 (void *) keys, &first, &end);
	for (int b = first; b < end; b++)
	{
		const char *run = bpa_block_entry(leaf->region, b, 0);
		int			n = bpa_block_count(leaf->region, b);

		bool		sorted = bpa_block_sorted(leaf->region, b);

		if (sorted)
			skip_below_range(leaf, reader, &run, &n);
		copy_run_inside(copy, run, n, sorted);
	}
	return copy->n;
}

/*
 * Copy the leaf's entries inside the range of keys into out as logical
 * slots, unordered: keys with first_column_inline through
 * collect_range_inside, others through bp_leaf_map.  Returns the count.
 */
int
bp_leaf_copy_range(BpLeaf *leaf, const BpScanKeys *keys, bool dead_marks,
				   char *out, BpLeafWork *work)
{
	LeafReader	reader;
	RangeCopy	copy = {leaf, keys, {0, 0}, false, false, {0}, -1, -1, &reader, out, NULL, 0};

	init_reader(&reader, leaf, dead_marks, work->slot);
	if (!keys->first_column_inline && !(leaf->keyed && keys->point_bytes))
	{
		SlotCopy	all = {out, leaf->desc->width, 0};

		bp_leaf_map(leaf, bp_below_range, bp_above_range, (void *) keys,
					dead_marks, append_slot, &all, work);
		return all.n;
	}
	return collect_range_inside(leaf, &copy);
}

/*
 * The heap TIDs of the leaf's entries inside the range of keys, which must
 * be first_column_inline and exact, into out, unordered, skipping marked
 * entries if skip_dead; returns their count.
 */
int
bp_leaf_range_tids(BpLeaf *leaf, const BpScanKeys *keys, bool skip_dead,
				   ItemPointerData *out, BpLeafWork *work)
{
	LeafReader	reader;
	RangeCopy	copy = {leaf, keys, {0, 0}, false, false, {0}, -1, -1, &reader, NULL, out, 0};

	Assert(keys->first_column_inline && keys->exact);
	init_reader(&reader, leaf, skip_dead, work->slot);
	return collect_range_inside(leaf, &copy);
}

/*
 * The heap TIDs of the count consecutive encoded entries at run into out,
 * for TID codes of block_width and offset_width bytes (constants where
 * inlined, so that each width has a loop of its own).
 */
static pg_attribute_always_inline void
decode_run_tids(const BpCodec *codec, const char *run, int count,
				int block_width, int offset_width, ItemPointerData *out)
{
	const uint8 *p = (const uint8 *) run + codec->tid_position;

	for (int i = 0; i < count; i++, p += codec->width)
		ItemPointerSet(&out[i],
					   codec->block_base +
					   (uint32) bpc_get_big_endian(p, block_width),
					   (OffsetNumber) bpc_get_big_endian(p + block_width,
														 offset_width));
}

/* The heap TIDs of the count consecutive entries at run of a packed leaf. */
static void
packed_run_tids(const BpCodec *codec, const char *run, int count,
				ItemPointerData *out)
{
/* a case of the widths that a run's TIDs most often take, as constants */
#define RUN_TIDS_CASE(block_width, offset_width) \
	case (block_width) * 4 + (offset_width): \
		decode_run_tids(codec, run, count, block_width, offset_width, out); \
		break

	switch (codec->block_width * 4 + codec->offset_width)
	{
			RUN_TIDS_CASE(0, 1);
			RUN_TIDS_CASE(0, 2);
			RUN_TIDS_CASE(1, 1);
			RUN_TIDS_CASE(1, 2);
			RUN_TIDS_CASE(2, 1);
			RUN_TIDS_CASE(2, 2);
		default:
			decode_run_tids(codec, run, count, codec->block_width,
							codec->offset_width, out);
			break;
	}
#undef RUN_TIDS_CASE
}

/*
 * The heap TIDs of every entry of the leaf into out, in no particular
 * order, skipping marked entries if skip_dead; returns their count.
 */
int
bp_leaf_tids(BpLeaf *leaf, bool skip_dead, ItemPointerData *out)
{
	const char *region = leaf->region;
	bool		marks = skip_dead && bp_leaf_has_dead_marks(leaf->page);
	int			n = 0;

	for (int b = -1; b < bpa_used_blocks(region); b++)
	{
		int			count = bp_stored_run_count(region, b);

		if (leaf->packed && !marks)
		{
			packed_run_tids(&leaf->codec, bp_stored_entry_at(region, b, 0), count,
							out + n);
			n += count;
			continue;
		}
		for (int i = 0; i < count; i++)
		{
			const char *stored = bp_stored_entry_at(region, b, i);

			if (!marks || !bp_has_dead_mark(leaf, stored))
				out[n++] = bp_stored_entry_tid(leaf, stored);
		}
	}
	return n;
}

/*
 * Copy into out the stored form of every entry (with marked_only, every
 * entry carrying a dead mark) whose heap TID the callback reports dead;
 * returns their count.
 */
int
bp_leaf_collect_dead(BpLeaf *leaf, bool marked_only,
					 bool (*callback) (ItemPointer, void *),
					 void *state, char *out)
{
	const char *region = leaf->region;
	int			n = 0;

	if (marked_only && !bp_leaf_has_dead_marks(leaf->page))
		return 0;
	for (int b = -1; b < bpa_used_blocks(region); b++)
	{
		int			count = bp_stored_run_count(region, b);

		for (int i = 0; i < count; i++)
		{
			const char *stored = bp_stored_entry_at(region, b, i);
			ItemPointerData tid;

			if (marked_only && !bp_has_dead_mark(leaf, stored))
				continue;
			tid = bp_stored_entry_tid(leaf, stored);
			if (callback(&tid, state))
				memcpy(out + (Size) n++ * leaf->width, stored, leaf->width);
		}
	}
	return n;
}

/*
 * Visit every slot of the leaf's BPA as a logical slot: the log, the
 * header, the blocks; entries carry the dead bit of their marks.
 */
void
bp_leaf_walk(BpLeaf *leaf, BpLeafWalkFn walk, void *arg, BpLeafWork *work)
{
	LeafReader	reader;
	const char *region = leaf->region;

	init_reader(&reader, leaf, true, work->slot);
	for (int i = 0; i < bpa_log_count(region); i++)
		walk("log", -1, reader_slot(&reader, bpa_log_entry(region, i)), arg);
	reader.any_marks = false;	/* header slots are bounds, not entries */
	for (int b = 0; b < bpa_used_blocks(region); b++)
		walk("header", b, reader_slot(&reader, bpa_header_entry(region, b)), arg);
	reader.any_marks = bp_leaf_has_dead_marks(leaf->page);
	for (int b = 0; b < bpa_used_blocks(region); b++)
		for (int j = 0; j < bpa_block_count(region, b); j++)
			walk("block", b, reader_slot(&reader, bpa_block_entry(region, b, j)),
				 arg);
}
