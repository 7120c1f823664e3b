/*-------------------------------------------------------------------------
 *
 * bpleaf.c
 *	  The one owner of a leaf's bytes: its layout, its codec, its dead marks,
 *	  and every read and write of its entries.
 *
 * A leaf page holds, after the page header:
 *
 *	 low key | high key		two logical slots (the fences)
 *	 BpLeafHeader			the leaf's encoding
 *	 codec					bpc_stored_size(ncolumns) bytes (bpcodec.h)
 *	 BPA region				entries of the leaf's own width
 *	 dead marks				in the page's hole, up to the special space
 *
 * An encoding is packed (entries encoded by the codec, ordered by memcmp)
 * or plain (entries are logical slots, ordered by the operator classes).
 * Every leaf chooses its own when it is filled (build, split, re-encode):
 * packed whenever the index's columns have order-preserving images and
 * the codec is narrower than a logical slot, plain otherwise (and for the
 * rare float keys that have no image: -0 and NaNs other than the one
 * PostgreSQL makes, whose bits an index must give back unchanged).
 *
 * The rest of the access method reads and writes entries as logical slots
 * through the functions below and never sees an encoded entry, except
 * the insert path, which hands the BPA an entry encoded by
 * bp_leaf_encode() (and learns from it when the leaf must re-encode).
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
#include "bppage.h"
#include "bpslot.h"

/* Bytes of a leaf page before its BPA region. */
static Size
leaf_prefix_size(const BpSlotDesc *desc)
{
	return bp_leaf_prefix_bytes(desc->ncolumns, desc->width);
}

/* Bytes of the dead marks of a leaf whose entries take width bytes. */
Size
bp_leaf_dead_marks_size(const BpSlotDesc *desc, uint16 width)
{
	return bp_leaf_marks_bytes(leaf_prefix_size(desc), width);
}

/* The leaf header of a leaf page. */
BpLeafHeader *
bp_leaf_header(Page page, const BpSlotDesc *desc)
{
	return (BpLeafHeader *) (PageGetContents(page) + bp_fences_size(desc->width));
}

/* The stored codec of a leaf page. */
uint8 *
bp_leaf_codec_bytes(Page page, const BpSlotDesc *desc)
{
	return (uint8 *) bp_leaf_header(page, desc) + sizeof(BpLeafHeader);
}

/* The BPA region of a leaf page. */
char *
bp_leaf_region(Page page, const BpSlotDesc *desc)
{
	return PageGetContents(page) + leaf_prefix_size(desc);
}

/*
 * Open the leaf in page for reading and writing its entries.  A keyed
 * leaf compares through the BpLeaf, which must stay where it is.  Keys
 * that a leaf stores stripped are rebuilt whole, as its entries are read,
 * in the current memory context, or in the one the caller gives
 * (bp_leaf_rebuild_keys_in).
 */
void
bp_leaf_open(BpLeaf *leaf, Page page, const BpSlotDesc *desc)
{
	leaf->page = page;
	leaf->desc = desc;
	leaf->region = bp_leaf_region(page, desc);
	leaf->keyed = desc->has_keys;
	leaf->keys = page;
	leaf->probe = NULL;
	leaf->packed = bp_leaf_header(page, desc)->encoding == BP_LEAF_PACKED;
	leaf->window_start = bp_leaf_header(page, desc)->window_start;
	leaf->prefix_offset = bp_leaf_header(page, desc)->prefix_offset;
	leaf->key_strip = (bp_leaf_header(page, desc)->flags & LEAF_KEYS_STRIPPED) ?
		leaf->window_start : 0;
	leaf->key_cxt = CurrentMemoryContext;
	leaf->rebuilt_next = leaf->rebuilt_end = NULL;
	leaf->prefix = NULL;
	if (leaf->packed)
	{
		const char *problem = bpc_load(bp_leaf_codec_bytes(page, desc),
									   desc->ncolumns, &desc->columns,
									   &leaf->codec);

		if (problem)
			elog(ERROR, "bpindex: %s", problem);
		leaf->width = leaf->codec.width;
		leaf->compare = bpa_compare_bytes;
		leaf->compare_arg = &leaf->codec.width;
		if (leaf->keyed)
		{
			leaf->compare = bp_bytewise_single_key(desc) ?
				bp_compare_packed_bytewise : bp_compare_packed_keyed;
			leaf->compare_arg = leaf;
		}
	}
	else if (leaf->keyed)
	{
		leaf->width = desc->width;
		leaf->compare = bp_compare_keyed;
		leaf->compare_arg = leaf;
	}
	else
	{
		leaf->width = desc->width;
		leaf->compare = bp_compare_slots;
		leaf->compare_arg = (void *) desc;
	}
}

/*
 * Rebuild the keys that the leaf stores stripped, as its entries are read
 * from now on, in cxt, emptied first: the keys of the leaf the caller read
 * before go.
 */
void
bp_leaf_rebuild_keys_in(BpLeaf *leaf, MemoryContext cxt)
{
	MemoryContextReset(cxt);
	leaf->key_cxt = cxt;
	leaf->rebuilt_next = leaf->rebuilt_end = NULL;
}

/* Where the key area of a leaf page may grow down to: its region's end. */
Size
bp_region_end(const char *page, const char *region)
{
	return (region - page) + bpa_region_size(bpa_layout(region));
}

/* Where the key area of the leaf page may grow down to. */
Size
bp_leaf_key_floor(Page page, const BpSlotDesc *desc)
{
	return bp_region_end(page, bp_leaf_region(page, desc));
}

/*
 * Make the logical slots read from a keyed leaf from now on point their
 * keys into copy (BLCKSZ bytes), where the leaf's key area is copied now
 * at its offsets, so that they outlive the lock or a change of the page.
 */
void
bp_leaf_copy_keys(BpLeaf *leaf, char *copy)
{
	Size		low = BpPageGetOpaque(leaf->page)->key_low;

	if (!leaf->keyed)
		return;
	/* the key area only: the slots' keys are checked against the page */
	memcpy(copy + low, leaf->page + low, ((PageHeader) leaf->page)->pd_lower - low);
	leaf->keys = copy;
}

/*
 * Does the logical slot's first key start with the prefix every key of a
 * packed leaf with ordered windows has (shared_prefix)?  A NULL key, and
 * any key of other leaves, does.  Page deletion may widen a leaf's fences
 * beyond that prefix; a key between them without it re-encodes the leaf.
 */
static bool
has_leaf_prefix(const BpLeaf *leaf, const char *slot)
{
	const char *key;
	const char *data;
	Size		len;

	if (!leaf->packed || leaf->window_start == 0 || !bp_windows_ordered(leaf->desc) ||
		bp_slot_isnull(leaf->desc, slot, 0))
		return true;
	key = bp_key_field_value(leaf->desc, NULL, slot + leaf->desc->att_offset[0]);
	if (bp_key_compressed(key))
		return false;			/* a packed leaf cannot hold it */
	data = bp_key_data(leaf->desc, 0, key, &len);
	return bp_side_of_prefix(leaf, data, len, leaf->window_start) == 0;
}

/*
 * Do the keys of the logical slot fit the key area of the leaf, as the
 * leaf stores them (perhaps stripped of its prefix), and does the first
 * start with the prefix the leaf's windows start after (has_leaf_prefix)?
 */
bool
bp_leaf_has_key_room(const BpLeaf *leaf, const char *slot)
{
	Size		size;

	if (!leaf->keyed)
		return true;
	if (!has_leaf_prefix(leaf, slot))
		return false;
	size = bp_slot_keys_size(leaf->desc, slot);
	if (leaf->key_strip > 0 && !bp_slot_isnull(leaf->desc, slot, 0))
		size -= leaf->key_strip;
	return size <= bp_page_key_room(leaf->page, bp_region_end(leaf->page, leaf->region));
}

/*
 * Store the logical slot at dst of a keyed leaf page whose entries' first
 * keys lack their first key_strip bytes, adding its keys to the key area
 * (not below floor) as bp_slot_to_page does, sharing same's key if equal
 * (a slot stored in the page, or NULL).  False if they do not fit.  No
 * allocation: it may run in a critical section.
 */
bool
bp_store_entry_slot(const BpSlotDesc *desc, Page page, Size floor,
				 uint16 key_strip, const char *slot, const char *same,
				 char *dst)
{
	char		stored[BP_MAX_SLOT_WIDTH];
	char		part[BP_KEYS_BUFSIZE];
	char	   *field = stored + desc->att_offset[0];
	const char *key;
	Size		len;
	Size		offset;

	if (key_strip == 0)
		return bp_slot_to_page(desc, page, floor, slot, same, dst);
	Assert(desc->natts == 1);
	memcpy(stored, slot, desc->width);
	if (!bp_slot_isnull(desc, stored, 0))
	{
		key = bp_key_field_value(desc, NULL, field);
		len = VARSIZE_ANY_EXHDR(key);
		Assert(!bp_key_compressed(key));	/* never in a packed leaf */
		if (len < key_strip)
			elog(ERROR, "bpindex: an entry's key is shorter than its leaf's shared prefix");
		SET_VARSIZE(part, VARHDRSZ + len - key_strip);
		memcpy(VARDATA(part), VARDATA_ANY(key) + key_strip, len - key_strip);
		offset = bp_page_store_key(desc, 0, page, floor, part,
								   same != NULL && !bp_slot_isnull(desc, same, 0) ?
								   same + desc->att_offset[0] : NULL);
		if (offset == 0)
			return false;
		bp_set_key_ref(field, offset);
	}
	memcpy(dst, stored, desc->width);
	return true;
}

/*
 * Add the keys of the logical slot to the key area of a keyed leaf, which
 * has room for them (bp_leaf_has_key_room) and whose codec holds the slot
 * (bp_leaf_encode), and return the slot as the leaf stores it, in out
 * (room for a logical slot; it may be slot), with the byte range of the
 * page the keys took.  No allocation, no comparison: it may run in a
 * critical section.  Other leaves: the slot itself and an empty range.
 */
static const char *
store_entry_keys(BpLeaf *leaf, const char *slot, char *out,
				   Size *keys_offset, Size *keys_length)
{
	Size		old_low = BpPageGetOpaque(leaf->page)->key_low;
	char		stored[BP_MAX_SLOT_WIDTH];

	*keys_offset = 0;
	*keys_length = 0;
	if (!leaf->keyed)
		return slot;
	if (!bp_store_entry_slot(leaf->desc, leaf->page,
						  bp_region_end(leaf->page, leaf->region), leaf->key_strip,
						  slot, NULL, stored))
		elog(ERROR, "bpindex: the keys of an entry do not fit the leaf's key area");
	if (!leaf->packed)
		memcpy(out, stored, leaf->desc->width);
	else if (!bp_encode_entry(leaf, stored, out))
		elog(ERROR, "bpindex: a leaf's codec does not hold an entry it took");
	*keys_offset = BpPageGetOpaque(leaf->page)->key_low;
	*keys_length = old_low - *keys_offset;
	return out;
}

/*
 * Problems of the encoding and region shape of a leaf page, or NULL:
 * what bp_check_page verifies before anyone reads a leaf.
 */
const char *
bp_leaf_check_shape(Page page, const BpSlotDesc *desc)
{
	uint8		encoding = bp_leaf_header(page, desc)->encoding;
	uint16		width = desc->width;
	const char *problem;
	const BpaLayout *layout;
	PageHeader	header = (PageHeader) page;

	if (encoding == BP_LEAF_PACKED)
	{
		BpCodec		codec;

		if (!desc->packable)
			return "a leaf of an index without packed leaves is packed";
		problem = bpc_load(bp_leaf_codec_bytes(page, desc), desc->ncolumns,
						   &desc->columns, &codec);
		if (problem)
			return problem;
		width = codec.width;
	}
	else if (encoding != BP_LEAF_PLAIN)
		return "the leaf's encoding is invalid";
	if (bp_leaf_header(page, desc)->window_start != 0 &&
		(encoding != BP_LEAF_PACKED || desc->att_len[0] != -1 ||
		 bp_leaf_header(page, desc)->window_start > BP_MAX_KEY_SIZE ||
		 (bp_windows_ordered(desc) && bp_leaf_header(page, desc)->prefix_offset == 0 &&
		  (BpPageGetOpaque(page)->flags & (BP_HAS_LOW | BP_HAS_HIGH)) !=
		  (BP_HAS_LOW | BP_HAS_HIGH))))
		return "the key window of the leaf is invalid";
	if (bp_leaf_header(page, desc)->prefix_offset != 0 &&
		(bp_leaf_header(page, desc)->window_start == 0 || !bp_windows_ordered(desc) ||
		 bp_leaf_header(page, desc)->prefix_offset < BpPageGetOpaque(page)->key_low ||
		 bp_leaf_header(page, desc)->prefix_offset >= header->pd_lower))
		return "the prefix key of the leaf is misplaced";
	if ((bp_leaf_header(page, desc)->flags & ~LEAF_KEYS_STRIPPED) != 0 ||
		((bp_leaf_header(page, desc)->flags & LEAF_KEYS_STRIPPED) &&
		 (encoding != BP_LEAF_PACKED || !bp_bytewise_single_key(desc) ||
		  bp_leaf_header(page, desc)->window_start == 0)))
		return "the leaf's flags are invalid";
	problem = bpa_check_shape(bp_leaf_region(page, desc),
							  bp_leaf_region_room(desc, Max(width, 2)));
	if (problem)
		return problem;
	layout = bpa_layout(bp_leaf_region(page, desc));
	if (layout->slot_width != width)
		return "the leaf's region and codec disagree on the entry width";
	if (desc->has_keys ?
		BpPageGetOpaque(page)->key_low < bp_region_end(page, bp_leaf_region(page, desc)) ||
		BpPageGetOpaque(page)->key_low > header->pd_lower :
		BpPageGetOpaque(page)->key_low != 0)
		return "the key area of the leaf is misplaced";
	if (header->pd_upper != header->pd_special ||
		header->pd_upper - header->pd_lower != bp_leaf_dead_marks_size(desc, width))
		return "the dead-mark area of the leaf is misplaced";
	return NULL;
}

/* Entries of the leaf. */
int
bp_leaf_count(const BpLeaf *leaf)
{
	return bpa_count(leaf->region);
}

/* The layout of the leaf's BPA. */
static const BpaLayout *
leaf_layout(const BpLeaf *leaf)
{
	return bpa_layout(leaf->region);
}

/*
 * The form of slot the leaf compares with its entries: the slot itself
 * for a plain leaf, its encoding in out (room for a logical slot) for a
 * packed one, or NULL if the leaf's codec cannot hold it (the leaf must
 * re-encode).  A keyed leaf compares the slot itself (its probe), whose
 * keys have no place in the leaf yet: store_entry_keys gives the form
 * it stores.
 */
const char *
bp_leaf_encode(BpLeaf *leaf, const char *slot, char *out)
{
	if (leaf->keyed)
		leaf->probe = slot;		/* compared as a logical slot */
	if (!leaf->packed)
		return slot;
	if (!bp_encode_entry(leaf, slot, out))
		return NULL;
	return leaf->keyed ? slot : out;
}

/*
 * The dead marks of a leaf: bit i is set when the i-th slot of its BPA
 * region (counting the log, the header and the blocks as one array) holds
 * an entry whose heap tuple a scan found dead to everyone.  They lie in
 * the page's hole, between pd_lower and pd_upper, which WAL records never
 * carry: generic WAL zeroes the hole on every page it changes and replays,
 * full-page images leave it out, and wal_consistency_checking masks it.
 * So the marks are hints, set without WAL, lost with any change that moves
 * entries (bp_install_page and splits clear them).
 */
uint8 *
bp_leaf_dead_marks(Page page)
{
	return (uint8 *) page + ((PageHeader) page)->pd_lower;
}

/* Position of a stored entry of the leaf in its dead marks. */
static Size
dead_mark_position(const BpLeaf *leaf, const char *stored)
{
	return (stored - bpa_log_entry(leaf->region, 0)) / leaf->width;
}

/* Does the stored entry carry a dead mark? */
bool
bp_has_dead_mark(const BpLeaf *leaf, const char *stored)
{
	Size		i = dead_mark_position(leaf, stored);

	return (bp_leaf_dead_marks(leaf->page)[i / 8] >> (i % 8)) & 1;
}

/* A page's worth of zero bytes, to compare mark areas with. */
static const uint8 zero_marks[BLCKSZ];

/* Does any entry of the leaf carry a dead mark? */
bool
bp_leaf_has_dead_marks(Page page)
{
	const uint8 *marks = bp_leaf_dead_marks(page);
	Size		n = ((PageHeader) page)->pd_upper - ((PageHeader) page)->pd_lower;

	return memcmp(marks, zero_marks, Min(n, BLCKSZ)) != 0;
}

/*
 * Does every entry of the leaf carry a dead mark (and it has some)?  Only
 * the marks at positions that hold entries count.
 */
bool
bp_leaf_all_dead(const BpLeaf *leaf)
{
	int			count = bp_leaf_count(leaf);

	return count > 0 && bp_leaf_has_dead_marks(leaf->page) &&
		bpa_count_marked(leaf->region, bp_leaf_dead_marks(leaf->page)) == count;
}

/* Mark the entry stored at stored dead (a hint). */
void
bp_leaf_set_dead_mark(BpLeaf *leaf, const char *stored)
{
	Size		i = dead_mark_position(leaf, stored);

	bp_leaf_dead_marks(leaf->page)[i / 8] |= (uint8) (1 << (i % 8));
}

/* Allocate the buffers of leaf reads for slots described by desc. */
void
bp_leaf_work_init(BpLeafWork *work, const BpSlotDesc *desc)
{
	work->cxt = CurrentMemoryContext;
	work->scratch = NULL;
	work->stored = palloc(BLCKSZ);
	work->slot = palloc(desc->width);
	work->keys = desc->has_keys ? palloc(BLCKSZ) : NULL;
}

/* The scratch space of leaf reads, allocated at the first use. */
char *
bp_leaf_work_scratch(BpLeafWork *work)
{
	if (work->scratch == NULL)
		work->scratch = MemoryContextAlloc(work->cxt, BP_LEAF_SCRATCH_SIZE);
	return work->scratch;
}

/* Free the buffers of leaf reads. */
void
bp_leaf_work_free(BpLeafWork *work)
{
	if (work->scratch)
		pfree(work->scratch);
	pfree(work->stored);
	pfree(work->slot);
	if (work->keys)
		pfree(work->keys);
}

/*
 * Where the leaf stores the entry equal to the logical slot, or NULL if it
 * holds none.  buf: room for a logical slot.
 */
const char *
bp_leaf_find(BpLeaf *leaf, const char *slot, char *buf)
{
	const char *stored = bp_leaf_encode(leaf, slot, buf);

	if (stored == NULL)
		return NULL;
	return bpa_find(leaf->region, stored, leaf->compare, leaf->compare_arg);
}

/* Remove n entries, in their stored form, from the leaf; false if one is missing. */
bool
bp_leaf_remove_stored(BpLeaf *leaf, const char *stored, int n)
{
	for (int i = 0; i < n; i++)
		if (!bpa_remove(leaf->region, stored + (Size) i * leaf->width,
						leaf->compare, leaf->compare_arg))
			return false;
	return true;
}

/*
 * Make the keys of a logical slot decoded from the stored entry of the
 * leaf (pointing into leaf->keys, or rebuilt whole) refer to them by
 * offset, as a slot stored in the leaf.
 */
static void
refer_to_key_offsets(const BpLeaf *leaf, const char *stored, char *slot)
{
	const BpSlotDesc *desc = leaf->desc;

	for (int i = 0; i < desc->ncolumns; i++)
	{
		char	   *field = slot + desc->att_offset[i];

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, slot, i))
			continue;
		if (i == 0 && leaf->key_strip > 0)
			bp_set_key_ref(field, bp_code_key_offset(bp_first_key_code(leaf, stored),
												  desc->columns.length[0]));
		else
			bp_set_key_ref(field, (uint64) ((const char *) (uintptr_t) bp_key_ref(field) -
											leaf->keys));
	}
}

/*
 * Does the first column's key of a logical slot decoded from a packed
 * leaf start with the prefix that the keys of the leaf share (NULL does)?
 */
static bool
key_has_shared_prefix(const BpLeaf *leaf, const char *slot)
{
	const BpSlotDesc *desc = leaf->desc;
	const char *key;

	if (bp_slot_isnull(desc, slot, 0))
		return true;
	key = bp_key_field_value(desc, NULL, slot + desc->att_offset[0]);
	return bp_side_of_prefix(leaf, VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key),
						  leaf->window_start) == 0;
}

/*
 * Problems of a leaf's entries, or NULL: the BPA's invariants, a packed
 * entry that does not decode to what it encodes, a mark on a slot that
 * holds no entry (an append there would inherit it).  The fences are the
 * caller's to check, on the sorted entries.
 */
const char *
bp_leaf_check(BpLeaf *leaf, BpLeafWork *work)
{
	const char *region = leaf->region;
	const uint8 *marks = bp_leaf_dead_marks(leaf->page);
	Size		nbytes = ((PageHeader) leaf->page)->pd_upper -
		((PageHeader) leaf->page)->pd_lower;
	uint8	   *occupied = palloc0(nbytes);
	const char *problem = bpa_check(region, bp_leaf_region_room(leaf->desc, leaf->width),
									leaf->compare, leaf->compare_arg);

	for (int b = -1; b < bpa_used_blocks(region) && problem == NULL; b++)
	{
		int			n = bp_stored_run_count(region, b);

		for (int i = 0; i < n && problem == NULL; i++)
		{
			const char *stored = bp_stored_entry_at(region, b, i);
			Size		pos = dead_mark_position(leaf, stored);

			if (!leaf->packed && bp_slot_dead(stored))
				problem = "a stored entry has the dead bit of its TID set";
			if (leaf->keyed)
			{
				bp_decode_entry(leaf, stored, work->slot);
				if (!bp_slot_key_prefixes_valid(leaf->desc, work->slot))
					problem = "a key prefix differs from its key";
			}
			if (leaf->packed)
			{
				bp_decode_entry(leaf, stored, work->slot);
				if (leaf->window_start > 0 && bp_windows_ordered(leaf->desc) &&
					!key_has_shared_prefix(leaf, work->slot))
					problem = "a key lacks the prefix its leaf's fences share";
				if (leaf->keyed)
					refer_to_key_offsets(leaf, stored, work->slot);
				if (!bp_encode_entry(leaf, work->slot, work->stored) ||
					memcmp(work->stored, stored, leaf->width) != 0)
					problem = "a packed entry does not decode to a value of its codec";
			}
			occupied[pos / 8] |= (uint8) (1 << (pos % 8));
		}
	}
	for (Size i = 0; i < nbytes && problem == NULL; i++)
		if (marks[i] & ~occupied[i])
			problem = "a dead mark lies on a slot that holds no entry";
	pfree(occupied);
	return problem;
}

/* The heap TID of a stored entry of the leaf. */
ItemPointerData
bp_stored_entry_tid(const BpLeaf *leaf, const char *stored)
{
	ItemPointerData tid;

	if (leaf->packed)
	{
		uint32		block;
		uint16		offset;

		bpc_decode_tid(&leaf->codec, (const uint8 *) stored, &block, &offset);
		ItemPointerSet(&tid, block, offset);
	}
	else
		tid = bp_slot_tid(stored);
	return tid;
}

/* The i-th stored entry of block b of the region, or of its log if b < 0. */
const char *
bp_stored_entry_at(const char *region, int b, int i)
{
	return b < 0 ? bpa_log_entry(region, i) : bpa_block_entry(region, b, i);
}

/* How many entries block b of the region holds, or its log if b < 0. */
int
bp_stored_run_count(const char *region, int b)
{
	return b < 0 ? bpa_log_count(region) : bpa_block_count(region, b);
}

/*
 * Where an entry (stored: as bp_leaf_encode gave it) would go by an
 * append: the last block, for an entry above every stored one that fits
 * there, else the log; BP_LEAF_FLUSH if neither has room (the log keeps
 * its last slot for flushes).  Runs comparisons: call it outside a
 * critical section, then bp_leaf_append.
 */
BpLeafInsertResult
bp_leaf_plan_append(BpLeaf *leaf, const char *stored, int *ascending_block)
{
	*ascending_block = bpa_ascending_block(leaf->region, stored, leaf->compare,
										   leaf->compare_arg);
	if (*ascending_block < 0 &&
		bpa_log_count(leaf->region) + 1 >= leaf_layout(leaf)->log_size)
		return BP_LEAF_FLUSH;
	return BP_LEAF_INSERTED;
}

/*
 * Append an entry as bp_leaf_plan_append planned it, with its keys (a
 * keyed leaf stores them in its key area; out has room for a stored
 * entry): no comparison, no allocation, so that it may run in a critical
 * section.  *change receives the byte ranges of the page it wrote.  The
 * append skips the BPA's duplicate check: PostgreSQL never inserts the
 * same (key, heap TID) twice into an index (nbtree does not check either).
 */
void
bp_leaf_append(BpLeaf *leaf, const char *stored, int ascending_block,
			   char *out, BpLeafChange *change)
{
	BpaTouched	touched;
	Size		keys_offset;
	Size		keys_length;
	Size		region_offset = leaf->region - (char *) leaf->page;

	stored = store_entry_keys(leaf, stored, out, &keys_offset, &keys_length);
	if (ascending_block >= 0)
		bpa_store_ascending(leaf->region, ascending_block, stored, &touched);
	else if (!bpa_append_to_log(leaf->region, stored, &touched))
		elog(PANIC, "bpindex: the log of a leaf is full after all");
	change->n = 0;
	for (int i = 0; i < touched.n; i++)
	{
		change->offset[change->n] = region_offset + touched.offset[i];
		change->length[change->n++] = touched.length[i];
	}
	if (keys_length > 0)
	{
		BpPageOpaque opaque = BpPageGetOpaque(leaf->page);

		change->offset[change->n] = keys_offset;
		change->length[change->n++] = keys_length;
		change->offset[change->n] = (char *) &opaque->key_low - (char *) leaf->page;
		change->length[change->n++] = sizeof(opaque->key_low);
	}
}

/*
 * Insert an entry (as bp_leaf_encode gave it, its keys not yet stored)
 * into a leaf whose log is full: a flush of the log into the blocks.
 * BP_LEAF_INSERTED, BP_LEAF_DUPLICATE (the leaf holds it already),
 * BP_LEAF_CROWDED (only bp_leaf_redistribute makes room) or BP_LEAF_FULL
 * (the leaf must split).  The entry with its keys stored is left in out.
 */
BpLeafInsertResult
bp_leaf_flush_insert(BpLeaf *leaf, const char *stored, char *out,
					 char *scratch)
{
	Size		keys_offset;
	Size		keys_length;

	stored = store_entry_keys(leaf, stored, out, &keys_offset, &keys_length);
	if (stored != out)
		memcpy(out, stored, leaf->width);
	switch (bpa_try_insert(leaf->region, out, leaf->compare,
						   leaf->compare_arg, scratch))
	{
		case BPA_INSERTED:
			return BP_LEAF_INSERTED;
		case BPA_DUPLICATE:
			return BP_LEAF_DUPLICATE;
		case BPA_CROWDED:
			return BP_LEAF_CROWDED;
		case BPA_FULL:
			break;
	}
	return BP_LEAF_FULL;
}

/*
 * Make room for the entry that bp_leaf_flush_insert left in stored by
 * spreading the leaf's entries over its blocks, and insert it.
 */
void
bp_leaf_redistribute(BpLeaf *leaf, const char *stored, char *scratch)
{
	bpa_redistribute(leaf->region, stored, leaf->compare, leaf->compare_arg,
					 scratch);
}

/*
 * The rank at which an entry (as bp_leaf_encode gave it) would end a
 * stream of ascending inserts into the leaf, or -1 (bpa_stream_rank).
 */
int
bp_leaf_stream_rank(const BpLeaf *leaf, const char *stored)
{
	return bpa_stream_rank(leaf->region, stored, leaf->compare,
						   leaf->compare_arg);
}

/* Entries the leaf's blocks hold. */
int
bp_leaf_capacity(const BpLeaf *leaf)
{
	return bpa_block_capacity(leaf_layout(leaf));
}

/* Entries the leaf holds before inserts split it, at this fillfactor. */
int
bp_leaf_fill_target(const BpLeaf *leaf, int fillfactor)
{
	return bpa_fill_target(leaf_layout(leaf), fillfactor);
}

/* The page whose key area the keys of the leaf's logical slots point to. */
const char *
bp_leaf_keys_page(const BpLeaf *leaf)
{
	return leaf->keys;
}

/* A summary of the leaf for inspection: its encoding and its BPA's fill. */
void
bp_leaf_summarize(const BpLeaf *leaf, BpLeafSummary *summary)
{
	const BpaLayout *layout = leaf_layout(leaf);

	summary->packed = leaf->packed;
	summary->codec = leaf->packed ? &leaf->codec : NULL;
	summary->entry_width = leaf->width;
	summary->key_strip = leaf->key_strip;
	summary->entries = bpa_count(leaf->region);
	summary->log_entries = bpa_log_count(leaf->region);
	summary->capacity = bpa_block_capacity(layout);
	summary->log_capacity = layout->log_size - 1;
	summary->used_blocks = bpa_used_blocks(leaf->region);
	summary->sorted_blocks = 0;
	for (int b = 0; b < summary->used_blocks; b++)
		summary->sorted_blocks += bpa_block_sorted(leaf->region, b);
}
