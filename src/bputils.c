/*-------------------------------------------------------------------------
 *
 * bputils.c
 *	  Slots, page layout, page verification and the metapage of bpindex.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupmacs.h"
#include "catalog/index.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "bpindex.h"

#define BP_OPAQUE_SIZE	MAXALIGN(sizeof(BpPageOpaqueData))

/* Raise the error for a page that is not what bpindex wrote. */
static void
report_corrupted(Relation index, BlockNumber blkno, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" contains corrupted page at block %u",
					RelationGetRelationName(index), blkno),
			 errdetail_internal("%s", detail),
			 errhint("Please REINDEX it.")));
}

/* Byte offset, inside a slot, of the first column and its null bits. */
static uint16
slot_header_size(int natts)
{
	return sizeof(ItemPointerData) + (natts + 7) / 8;
}

/*
 * Fill desc from the index's key columns: offsets, lengths, collations
 * and comparison functions.
 */
void
bp_init_slot_desc(Relation index, BpSlotDesc *desc)
{
	TupleDesc	tupdesc = RelationGetDescr(index);
	uint16		offset;
	uint16		align = ALIGNOF_SHORT;

	desc->natts = IndexRelationGetNumberOfKeyAttributes(index);
	desc->null_offset = sizeof(ItemPointerData);
	offset = slot_header_size(desc->natts);
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		uint16		att_align = (uint16) att_align_nominal(1, att->attalign);

		offset = (uint16) att_align_nominal(offset, att->attalign);
		desc->att_offset[i] = offset;
		desc->att_len[i] = att->attlen;
		desc->att_byval[i] = att->attbyval;
		desc->collation[i] = index->rd_indcollation[i];
		desc->cmp_proc[i] = index_getprocinfo(index, i + 1, 1);
		offset += att->attlen;
		align = Max(align, att_align);
	}
	desc->align = align;
	desc->width = (uint16) TYPEALIGN(align, offset);
}

/* Compare two slots: key columns (NULLs last), then heap TID. */
int
bp_compare_slots(const void *a, const void *b, void *arg)
{
	const BpSlotDesc *desc = (const BpSlotDesc *) arg;

	for (int i = 0; i < desc->natts; i++)
	{
		bool		a_null = bp_slot_isnull(desc, a, i);
		bool		b_null = bp_slot_isnull(desc, b, i);
		int32		c;

		if (a_null || b_null)
		{
			if (a_null && b_null)
				continue;
			return a_null ? 1 : -1;
		}
		c = DatumGetInt32(FunctionCall2Coll(desc->cmp_proc[i],
											desc->collation[i],
											bp_slot_datum(desc, a, i),
											bp_slot_datum(desc, b, i)));
		if (c != 0)
			return c > 0 ? 1 : -1;
	}
	return ItemPointerCompare((ItemPointer) a, (ItemPointer) b);
}

/* Write an index entry into slot. */
void
bp_form_slot(const BpSlotDesc *desc, char *slot, Datum *values, bool *isnull,
			 ItemPointer tid)
{
	uint8	   *nulls = (uint8 *) slot + desc->null_offset;

	memset(slot, 0, desc->width);
	ItemPointerCopy(tid, (ItemPointer) slot);
	for (int i = 0; i < desc->natts; i++)
	{
		char	   *dst = slot + desc->att_offset[i];

		if (isnull[i])
		{
			nulls[i / 8] |= (uint8) (1 << (i % 8));
			continue;
		}
		if (desc->att_byval[i])
			store_att_byval(dst, values[i], desc->att_len[i]);
		else
			memcpy(dst, DatumGetPointer(values[i]), desc->att_len[i]);
	}
}

/* Is column att of slot NULL? */
bool
bp_slot_isnull(const BpSlotDesc *desc, const char *slot, int att)
{
	return (((const uint8 *) slot)[desc->null_offset + att / 8] >> (att % 8)) & 1;
}

/* Column att of slot; by-reference values point into the slot. */
Datum
bp_slot_datum(const BpSlotDesc *desc, const char *slot, int att)
{
	return fetch_att(slot + desc->att_offset[att], desc->att_byval[att],
					 desc->att_len[att]);
}

/* The heap TID of a slot. */
ItemPointer
bp_slot_tid(const char *slot)
{
	return (ItemPointer) slot;
}

/* All columns of a slot. */
void
bp_slot_deform(const BpSlotDesc *desc, const char *slot, Datum *values,
			   bool *isnull)
{
	for (int i = 0; i < desc->natts; i++)
	{
		isnull[i] = bp_slot_isnull(desc, slot, i);
		values[i] = isnull[i] ? (Datum) 0 : bp_slot_datum(desc, slot, i);
	}
}

/* Bytes between the page header and the special space. */
Size
bp_page_content_size(void)
{
	return BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - BP_OPAQUE_SIZE;
}

/* Offset in the content of what follows the two fence keys. */
static Size
fences_size(uint16 width)
{
	return MAXALIGN(2 * (Size) width);
}

/* Bytes of the BPA region of a leaf. */
Size
bp_leaf_region_size(const BpSlotDesc *desc)
{
	return bp_page_content_size() - fences_size(desc->width);
}

/* Byte offset, after the fences, of the pivots of an internal page. */
static Size
pivots_offset(int capacity)
{
	return MAXALIGN(sizeof(BpInternalHeader) + sizeof(BlockNumber) * capacity);
}

/* Children (and pivots) an internal page has room for. */
int
bp_internal_capacity(const BpSlotDesc *desc)
{
	Size		room = bp_page_content_size() - fences_size(desc->width);
	int			capacity = (int) (room / (desc->width + sizeof(BlockNumber)));

	while (capacity > 0 &&
		   pivots_offset(capacity) + (Size) capacity * desc->width > room)
		capacity--;
	return capacity;
}

/* Initialize a page of the given kind; the whole content counts as used. */
void
bp_init_page(Page page, uint16 flags, uint16 level)
{
	BpPageOpaque opaque;

	PageInit(page, BLCKSZ, BP_OPAQUE_SIZE);
	((PageHeader) page)->pd_lower = ((PageHeader) page)->pd_upper;
	opaque = BpPageGetOpaque(page);
	opaque->flags = flags;
	opaque->level = level;
	opaque->rightlink = InvalidBlockNumber;
	opaque->page_id = BP_PAGE_ID;
}

/* The low fence key of a leaf or internal page. */
char *
bp_page_lowkey(Page page)
{
	return PageGetContents(page);
}

/* The high fence key of a leaf or internal page. */
char *
bp_page_highkey(Page page, uint16 width)
{
	return PageGetContents(page) + width;
}

/* The BPA region of a leaf page. */
char *
bp_leaf_region(Page page, uint16 width)
{
	return PageGetContents(page) + fences_size(width);
}

/* The header of an internal page. */
BpInternalHeader *
bp_internal_header(Page page, uint16 width)
{
	return (BpInternalHeader *) (PageGetContents(page) + fences_size(width));
}

/* The child block numbers of an internal page. */
BlockNumber *
bp_internal_children(Page page, uint16 width)
{
	return (BlockNumber *) ((char *) bp_internal_header(page, width) +
							sizeof(BpInternalHeader));
}

/* Pivot i of an internal page: the low bound of child i. */
char *
bp_internal_pivot(Page page, uint16 width, int i)
{
	BpInternalHeader *header = bp_internal_header(page, width);

	return (char *) header + pivots_offset(header->capacity) +
		(Size) i * width;
}

/* Verify the special space, kind and structure of a page. */
void
bp_check_page(Relation index, Buffer buf, Page page)
{
	BlockNumber blkno = BufferGetBlockNumber(buf);
	BpPageOpaque opaque;
	uint16		kind;

	if (PageIsNew(page))
		report_corrupted(index, blkno, "The page is uninitialized.");
	if (PageGetSpecialSize(page) != BP_OPAQUE_SIZE)
		report_corrupted(index, blkno, "The special space has the wrong size.");
	opaque = BpPageGetOpaque(page);
	if (opaque->page_id != BP_PAGE_ID)
		report_corrupted(index, blkno, "The page identifier is wrong.");
	kind = opaque->flags & BP_KIND_MASK;
	if (kind != BP_META && kind != BP_LEAF && kind != BP_INTERNAL)
		report_corrupted(index, blkno, "The page kind is invalid.");
	if ((kind == BP_META) != (blkno == BP_METAPAGE_BLKNO))
		report_corrupted(index, blkno, "The metapage is misplaced.");
	if (kind == BP_LEAF)
	{
		BpIndexState *state = bp_get_state(index);
		const char *region = bp_leaf_region(page, state->slot.width);
		const char *problem = bpa_check_shape(region, state->leaf_region_size);

		if (problem == NULL &&
			memcmp(bpa_layout(region), &state->meta.leaf_layout,
				   sizeof(BpaLayout)) != 0)
			problem = "leaf layout differs from the metapage";
		if (problem != NULL)
			report_corrupted(index, blkno, problem);
	}
	else if (kind == BP_INTERNAL)
	{
		BpIndexState *state = bp_get_state(index);
		BpInternalHeader *header = bp_internal_header(page, state->slot.width);

		if (header->capacity != state->meta.internal_capacity ||
			header->nitems < 1 || header->nitems > header->capacity ||
			opaque->level == 0)
			report_corrupted(index, blkno, "The internal page header is invalid.");
	}
}

/* Read, lock and verify a page of the index. */
Buffer
bp_read_buffer(Relation index, BlockNumber blkno, int lockmode)
{
	Buffer		buf = ReadBuffer(index, blkno);

	LockBuffer(buf, lockmode);
	bp_check_page(index, buf, BufferGetPage(buf));
	return buf;
}

/* Read and verify the metapage into meta. */
void
bp_read_meta(Relation index, BpMetaPageData *meta)
{
	Buffer		buf = bp_read_buffer(index, BP_METAPAGE_BLKNO, BUFFER_LOCK_SHARE);
	BpMetaPage	stored = BpPageGetMeta(BufferGetPage(buf));

	if (stored->magic != BP_META_MAGIC)
	{
		UnlockReleaseBuffer(buf);
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not a bpindex index",
						RelationGetRelationName(index)),
				 errdetail_internal("The metapage has the wrong magic number.")));
	}
	if (stored->version != BP_VERSION)
	{
		UnlockReleaseBuffer(buf);
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has version %u, expected %d",
						RelationGetRelationName(index), stored->version,
						BP_VERSION),
				 errhint("Please REINDEX it.")));
	}
	*meta = *stored;
	UnlockReleaseBuffer(buf);
}

/*
 * The per-backend state of an open index, built on first use and kept in
 * the relcache entry.
 */
BpIndexState *
bp_get_state(Relation index)
{
	BpIndexState *state;
	BpMetaPageData meta;
	MemoryContext old;

	if (index->rd_amcache != NULL)
		return (BpIndexState *) index->rd_amcache;

	old = MemoryContextSwitchTo(index->rd_indexcxt);
	state = palloc0(sizeof(BpIndexState));
	bp_init_slot_desc(index, &state->slot);
	MemoryContextSwitchTo(old);

	bp_read_meta(index, &meta);
	if (meta.natts != state->slot.natts ||
		meta.slot_width != state->slot.width ||
		!bpa_layout_valid(&meta.leaf_layout) ||
		meta.leaf_layout.slot_width != state->slot.width ||
		bpa_region_size(&meta.leaf_layout) > bp_leaf_region_size(&state->slot) ||
		meta.internal_capacity != bp_internal_capacity(&state->slot))
	{
		pfree(state);
		report_corrupted(index, BP_METAPAGE_BLKNO,
						 "The metapage does not match the index definition.");
	}
	state->meta = meta;
	state->leaf_region_size = bp_leaf_region_size(&state->slot);
	index->rd_amcache = state;
	return state;
}

/*
 * Reject key columns bpindex cannot store (variable-length types) and
 * orderings it does not offer (DESC, NULLS FIRST), naming the column.
 */
void
bp_check_columns(Relation index)
{
	TupleDesc	tupdesc = RelationGetDescr(index);
	int			natts = IndexRelationGetNumberOfKeyAttributes(index);

	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		int16		option = index->rd_indoption[i];

		if (att->attlen <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex cannot index column \"%s\" of index \"%s\": type %s is variable-length",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(att->atttypid)),
					 errdetail("bpindex stores every entry in a fixed-width slot, so key columns must have a fixed-length type.")));
		if (option & INDOPTION_DESC)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex does not support DESC on column \"%s\" of index \"%s\"",
							NameStr(att->attname),
							RelationGetRelationName(index)),
					 errhint("Create the index in ascending order; it can be scanned backward.")));
		if (option & INDOPTION_NULLS_FIRST)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex does not support NULLS FIRST on column \"%s\" of index \"%s\"",
							NameStr(att->attname),
							RelationGetRelationName(index)),
					 errhint("NULLs sort last, as in btree's default ordering.")));
	}
}
