/*-------------------------------------------------------------------------
 *
 * bputils.c
 *	  Slots, page layout, page verification and the metapage of bpindex.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amvalidate.h"
#include "access/genam.h"
#include "access/tupmacs.h"
#include "catalog/pg_type.h"
#include "catalog/index.h"
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

#include "bpindex.h"

#define BP_OPAQUE_SIZE	MAXALIGN(sizeof(BpPageOpaqueData))

/* Raise the error for a page that is not what bpindex wrote. */
static void
bp_report_corrupted(Relation index, BlockNumber blkno, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" contains corrupted page at block %u",
					RelationGetRelationName(index), blkno),
			 errdetail_internal("%s", detail),
			 errhint("Please REINDEX it.")));
}

/* The inline comparison for a column's support function, if there is one. */
BpCompareKind
bp_compare_kind(Oid proc)
{
	switch (proc)
	{
		case F_BTINT2CMP:
			return BP_CMP_INT2;
		case F_BTINT4CMP:
		case F_DATE_CMP:
			return BP_CMP_INT4;
		case F_BTINT8CMP:
		case F_TIMESTAMP_CMP:
		case F_TIMESTAMPTZ_CMP:
		case F_TIME_CMP:
			return BP_CMP_INT8;
		case F_BTOIDCMP:
			return BP_CMP_UINT32;
		case F_BTBOOLCMP:
			return BP_CMP_BOOL;
		case F_BTFLOAT4CMP:
			return BP_CMP_FLOAT4;
		case F_BTFLOAT8CMP:
			return BP_CMP_FLOAT8;
		case F_UUID_CMP:
			return BP_CMP_BYTES;
		default:
			return BP_CMP_FMGR;
	}
}

/*
 * How the leaf codec may store an INCLUDE column, which is never compared
 * but must come back bit for bit: integer-like types through their image,
 * other types of up to 16 bytes (floats among them) as raw bytes.
 */
static BpCompareKind
included_column_kind(Form_pg_attribute att)
{
	switch (getBaseType(att->atttypid))
	{
		case INT2OID:
			return BP_CMP_INT2;
		case INT4OID:
		case DATEOID:
			return BP_CMP_INT4;
		case INT8OID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case TIMEOID:
			return BP_CMP_INT8;
		case OIDOID:
			return BP_CMP_UINT32;
		case BOOLOID:
			return BP_CMP_BOOL;
		default:
			return att->attlen > 0 && att->attlen <= BPC_MAX_BYTES ?
				BP_CMP_BYTES : BP_CMP_FMGR;
	}
}

/*
 * Where the columns of an index tuple without NULLs lie, so that scans can
 * form one by copying the columns out of a slot.
 */
static void
init_itup_layout(BpSlotDesc *desc, const char *aligns)
{
	Size		offset = IndexInfoFindDataOffset(0);

	desc->itup_direct = true;
	for (int i = 0; i < desc->ncolumns; i++)
	{
		if (desc->att_len[i] <= 0)
			desc->itup_direct = false;
		offset = att_align_nominal(offset, aligns[i]);
		desc->itup_att_offset[i] = (uint16) offset;
		offset += Max(desc->att_len[i], 0);
	}
	desc->itup_size = (uint16) MAXALIGN(offset);
}

/*
 * Fill desc from the index's key columns: offsets, lengths, collations
 * and comparison functions.
 */
void
bp_init_slot_desc(Relation index, BpSlotDesc *desc)
{
	TupleDesc	tupdesc = RelationGetDescr(index);
	int16		lengths[INDEX_MAX_KEYS];
	char		aligns[INDEX_MAX_KEYS];

	desc->natts = IndexRelationGetNumberOfKeyAttributes(index);
	desc->ncolumns = IndexRelationGetNumberOfAttributes(index);
	desc->nulls_in_tid = desc->ncolumns <= BP_TID_NULL_BITS;
	desc->null_offset = sizeof(ItemPointerData);
	for (int i = 0; i < desc->ncolumns; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		desc->att_len[i] = att->attlen;
		desc->att_byval[i] = att->attbyval;
		lengths[i] = att->attlen;
		aligns[i] = att->attalign;
		desc->reverse[i] = false;
		desc->nulls_first[i] = false;
		if (i >= desc->natts)
		{
			desc->collation[i] = InvalidOid;
			desc->cmp_proc[i] = NULL;
			desc->cmp_kind[i] = included_column_kind(att);
			continue;
		}
		desc->collation[i] = index->rd_indcollation[i];
		desc->cmp_proc[i] = index_getprocinfo(index, i + 1, 1);
		desc->cmp_kind[i] = bp_compare_kind(desc->cmp_proc[i]->fn_oid);
		desc->reverse[i] = (index->rd_indoption[i] & INDOPTION_DESC) != 0;
		desc->nulls_first[i] = (index->rd_indoption[i] & INDOPTION_NULLS_FIRST) != 0;
	}
	desc->width = bp_slot_layout(desc->ncolumns, lengths, desc->att_byval,
								 aligns, desc->att_offset);
	init_itup_layout(desc, aligns);
	bp_leaf_init_columns(desc);
}

/* Compare column i of two slots, neither NULL. */
static inline int
compare_column(const BpSlotDesc *desc, int i, const char *a, const char *b)
{
	int32		c;

	if (desc->cmp_kind[i] != BP_CMP_FMGR)
		return bp_compare_inline(desc->cmp_kind[i], a + desc->att_offset[i],
								 bp_slot_datum(desc, b, i), desc->att_len[i]);
	c = DatumGetInt32(FunctionCall2Coll(desc->cmp_proc[i], desc->collation[i],
										bp_slot_datum(desc, a, i),
										bp_slot_datum(desc, b, i)));
	return (c > 0) - (c < 0);
}

/* Compare the heap TIDs of two slots, ignoring the null and dead bits. */
static inline int
compare_tids(const char *a, const char *b)
{
	ItemPointerData ta = bp_slot_tid(a);
	ItemPointerData tb = bp_slot_tid(b);
	BlockNumber ba = ItemPointerGetBlockNumberNoCheck(&ta);
	BlockNumber bb = ItemPointerGetBlockNumberNoCheck(&tb);

	if (ba != bb)
		return ba < bb ? -1 : 1;
	return (ta.ip_posid > tb.ip_posid) - (ta.ip_posid < tb.ip_posid);
}

/*
 * Compare the key columns of two slots in index order (each column in its
 * direction, NULLs last or first as it says), not their heap TIDs.
 */
int
bp_compare_slot_keys(const BpSlotDesc *desc, const char *a, const char *b)
{
	for (int i = 0; i < desc->natts; i++)
	{
		bool		a_null = bp_slot_isnull(desc, a, i);
		bool		b_null = bp_slot_isnull(desc, b, i);
		int			c;

		if (a_null || b_null)
		{
			if (a_null && b_null)
				continue;
			return a_null != desc->nulls_first[i] ? 1 : -1;
		}
		c = compare_column(desc, i, a, b);
		if (c != 0)
			return desc->reverse[i] ? -c : c;
	}
	return 0;
}

/* Compare two slots: key columns in index order, then heap TID. */
int
bp_compare_slots(const void *a, const void *b, void *arg)
{
	int			c = bp_compare_slot_keys((const BpSlotDesc *) arg, a, b);

	return c != 0 ? c : compare_tids(a, b);
}

/* Store a value passed by value at a possibly unaligned address. */
void
bp_store_byval(char *dst, Datum value, int16 len)
{
	int16		v2;
	int32		v4;
	int64		v8;

	switch (len)
	{
		case 1:
			*dst = DatumGetChar(value);
			break;
		case 2:
			v2 = DatumGetInt16(value);
			memcpy(dst, &v2, sizeof(v2));
			break;
		case 4:
			v4 = DatumGetInt32(value);
			memcpy(dst, &v4, sizeof(v4));
			break;
		default:
			Assert(len == 8);
			v8 = DatumGetInt64(value);
			memcpy(dst, &v8, sizeof(v8));
			break;
	}
}

/* Mark column att of slot NULL. */
static void
set_slot_null(const BpSlotDesc *desc, char *slot, int att)
{
	if (desc->nulls_in_tid)
		((ItemPointer) slot)->ip_posid |= (uint16) (1 << (BP_TID_NULL_SHIFT + att));
	else
		((uint8 *) slot)[desc->null_offset + att / 8] |= (uint8) (1 << (att % 8));
}

/* Write an index entry into slot. */
void
bp_form_slot(const BpSlotDesc *desc, char *slot, Datum *values, bool *isnull,
			 ItemPointer tid)
{
	if (desc->nulls_in_tid &&
		ItemPointerGetOffsetNumberNoCheck(tid) > BP_TID_OFFSET_MASK)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bpindex cannot index a row at tuple offset %u",
						ItemPointerGetOffsetNumberNoCheck(tid)),
				 errdetail("Offsets above %d are not supported.",
						   BP_TID_OFFSET_MASK)));
	memset(slot, 0, desc->width);
	ItemPointerCopy(tid, (ItemPointer) slot);
	for (int i = 0; i < desc->ncolumns; i++)
	{
		char	   *dst = slot + desc->att_offset[i];

		if (isnull[i])
			set_slot_null(desc, slot, i);
		else if (desc->att_byval[i])
			bp_store_byval(dst, values[i], desc->att_len[i]);
		else
			memcpy(dst, DatumGetPointer(values[i]), desc->att_len[i]);
	}
}

/* All columns of a slot. */
void
bp_slot_deform(const BpSlotDesc *desc, const char *slot, Datum *values,
			   bool *isnull)
{
	for (int i = 0; i < desc->ncolumns; i++)
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
Size
bp_fences_size(uint16 width)
{
	return MAXALIGN(2 * (Size) width);
}

/* Byte offset, after the fences, of the pivots of an internal page. */
static Size
pivots_offset(int capacity)
{
	return MAXALIGN(sizeof(BpInternalHeader) + sizeof(BlockNumber) * capacity);
}

/* Children (and pivots) an internal page has room for. */
int
bp_internal_capacity(uint16 width)
{
	Size		room = bp_page_content_size() - bp_fences_size(width);
	int			capacity = (int) (room / (width + sizeof(BlockNumber)));

	while (capacity > 0 &&
		   pivots_offset(capacity) + (Size) capacity * width > room)
		capacity--;
	return capacity;
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

/*
 * Pages and levels of a freshly built index of ntuples entries: the
 * build's own arithmetic (bpbuild.c), used for hypothetical indexes and
 * cost estimates.
 */
BlockNumber
bp_estimate_pages(double ntuples, uint16 width, const BpaLayout *layout,
				  int fillfactor, int *levels)
{
	double		per_leaf = bpa_fill_target(layout, fillfactor);
	double		per_internal = Max(2, bp_internal_capacity(width) *
								   BP_INTERNAL_FILLFACTOR / 100);
	double		level_pages = Max(1.0, ceil(ntuples / per_leaf));
	double		pages = 1 + level_pages;	/* the metapage and the leaves */

	*levels = 1;
	while (level_pages > 1)
	{
		level_pages = ceil(level_pages / per_internal);
		pages += level_pages;
		(*levels)++;
	}
	return (BlockNumber) Min(pages, (double) MaxBlockNumber);
}

/*
 * Column offsets (into offsets, if not NULL) and width of a slot for key
 * columns of these types: packed when every column is passed by value or
 * char-aligned, else aligned.
 */
uint16
bp_slot_layout(int natts, const int16 *lengths, const bool *byvals,
			   const char *aligns, uint16 *offsets)
{
	uint16		offset = sizeof(ItemPointerData);
	uint16		align = ALIGNOF_SHORT;
	bool		packed = true;

	if (natts > BP_TID_NULL_BITS)
		offset += (natts + 7) / 8;
	for (int i = 0; i < natts; i++)
		if (!byvals[i] && aligns[i] != TYPALIGN_CHAR)
			packed = false;
	for (int i = 0; i < natts; i++)
	{
		if (!packed)
		{
			offset = (uint16) att_align_nominal(offset, aligns[i]);
			align = Max(align, (uint16) att_align_nominal(1, aligns[i]));
		}
		if (offsets)
			offsets[i] = offset;
		offset += lengths[i];
	}
	return (uint16) TYPEALIGN(align, offset);
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

/* Is page a deleted bpindex page? */
bool
bp_page_deleted(Page page)
{
	return (BpPageGetOpaque(page)->flags & BP_DELETED) != 0;
}

/* The content of a deleted page, after its fences. */
BpDeletedData *
bp_page_deleted_data(Page page, uint16 width)
{
	return (BpDeletedData *) (PageGetContents(page) + bp_fences_size(width));
}

/*
 * Turn page (a leaf or internal page unlinked from the tree) into a deleted
 * page: it keeps its kind, level, fences and right-link, so that a reader
 * that still reaches it through a stale link can go on from it, and
 * records safexid, the next full transaction id at its deletion.
 */
void
bp_init_deleted_page(Page page, uint16 width, FullTransactionId safexid)
{
	BpPageOpaqueData opaque = *BpPageGetOpaque(page);
	char	   *fences = palloc(2 * (Size) width);

	memcpy(fences, PageGetContents(page), 2 * (Size) width);
	bp_init_page(page, (opaque.flags & (BP_KIND_MASK | BP_HAS_LOW | BP_HAS_HIGH)) |
				 BP_DELETED, opaque.level);
	BpPageGetOpaque(page)->rightlink = opaque.rightlink;
	memcpy(PageGetContents(page), fences, 2 * (Size) width);
	bp_page_deleted_data(page, width)->safexid = safexid;
	pfree(fences);
}

/*
 * May the deleted page be reused?  Only once no running transaction can
 * still hold a link to it: every snapshot must be younger than its
 * deletion (nbtree's rule).
 */
bool
bp_page_recyclable(Page page, uint16 width)
{
	if (PageIsNew(page))
		return true;
	if (PageGetSpecialSize(page) != BP_OPAQUE_SIZE ||
		BpPageGetOpaque(page)->page_id != BP_PAGE_ID ||
		!bp_page_deleted(page))
		return false;
	return GlobalVisCheckRemovableFullXid(NULL,
										  bp_page_deleted_data(page, width)->safexid);
}

/*
 * A page for a split or a new root, exclusively locked: a deleted page
 * the free space map offers, if it is still deleted and recyclable and
 * nobody else has it pinned or locked, else a new page at the end of the
 * index.  Callers initialize the whole page.
 */
Buffer
bp_new_buffer(Relation index)
{
	Buffer		buf;

	for (;;)
	{
		BlockNumber blkno = GetFreeIndexPage(index);

		if (blkno == InvalidBlockNumber)
			break;
		if (blkno == BP_METAPAGE_BLKNO)
			continue;
		buf = ReadBuffer(index, blkno);
		/* never wait: the caller may hold locks of the tree */
		if (ConditionalLockBufferForCleanup(buf))
		{
			if (bp_page_recyclable(BufferGetPage(buf),
								   bp_get_state(index)->slot.width))
				return buf;
			LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		}
		ReleaseBuffer(buf);
	}

	LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBuffer(index, P_NEW);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	UnlockRelationForExtension(index, ExclusiveLock);
	return buf;
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

/* Does slot lie within the fences of page (low key <= slot < high key)? */
bool
bp_slot_within_fences(Page page, const BpSlotDesc *desc, const char *slot)
{
	uint16		flags = BpPageGetOpaque(page)->flags;

	if ((flags & BP_HAS_LOW) &&
		bp_compare_slots(bp_page_lowkey(page), slot, (void *) desc) > 0)
		return false;
	if ((flags & BP_HAS_HIGH) &&
		bp_compare_slots(slot, bp_page_highkey(page, desc->width), (void *) desc) >= 0)
		return false;
	return true;
}

/* The header of an internal page. */
BpInternalHeader *
bp_internal_header(Page page, uint16 width)
{
	return (BpInternalHeader *) (PageGetContents(page) + bp_fences_size(width));
}

/* The child block numbers of an internal page. */
BlockNumber *
bp_internal_children(Page page, uint16 width)
{
	return (BlockNumber *) ((char *) bp_internal_header(page, width) +
							sizeof(BpInternalHeader));
}

/* Make room at position pos of an internal page's children and pivots. */
void
bp_internal_open_gap(Page page, uint16 width, int pos)
{
	BpInternalHeader *header = bp_internal_header(page, width);
	BlockNumber *children = bp_internal_children(page, width);

	memmove(children + pos + 1, children + pos,
			sizeof(BlockNumber) * (header->nitems - pos));
	memmove(bp_internal_pivot(page, width, pos + 1),
			bp_internal_pivot(page, width, pos),
			(Size) (header->nitems - pos) * width);
	header->nitems++;
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
		bp_report_corrupted(index, blkno, "The page is uninitialized.");
	if (PageGetSpecialSize(page) != BP_OPAQUE_SIZE)
		bp_report_corrupted(index, blkno, "The special space has the wrong size.");
	opaque = BpPageGetOpaque(page);
	if (opaque->page_id != BP_PAGE_ID)
		bp_report_corrupted(index, blkno, "The page identifier is wrong.");
	kind = opaque->flags & BP_KIND_MASK;
	if (kind != BP_META && kind != BP_LEAF && kind != BP_INTERNAL)
		bp_report_corrupted(index, blkno, "The page kind is invalid.");
	if ((kind == BP_META) != (blkno == BP_METAPAGE_BLKNO))
		bp_report_corrupted(index, blkno, "The metapage is misplaced.");
	if (opaque->flags & BP_DELETED)
	{
		/* a deleted page keeps only its fences, right-link and xid */
		if (kind == BP_META || (kind == BP_LEAF) != (opaque->level == 0) ||
			(opaque->flags & BP_INCOMPLETE_SPLIT) ||
			!(opaque->flags & BP_HAS_HIGH))
			bp_report_corrupted(index, blkno, "The deleted page is invalid.");
	}
	else if (kind == BP_LEAF)
	{
		const char *problem = bp_leaf_check_shape(page, &bp_get_state(index)->slot);

		if (problem != NULL)
			bp_report_corrupted(index, blkno, problem);
	}
	else if (kind == BP_INTERNAL)
	{
		BpIndexState *state = bp_get_state(index);
		BpInternalHeader *header = bp_internal_header(page, state->slot.width);

		if (header->capacity != state->meta.internal_capacity ||
			header->nitems < 1 || header->nitems > header->capacity ||
			opaque->level == 0)
			bp_report_corrupted(index, blkno, "The internal page header is invalid.");
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

/*
 * Read a page of the index with a cleanup lock (exclusive, and no other
 * backend holds a pin), as VACUUM takes on every leaf, and verify it.
 */
Buffer
bp_read_buffer_for_cleanup(Relation index, BlockNumber blkno)
{
	Buffer		buf = ReadBuffer(index, blkno);

	LockBufferForCleanup(buf);
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
				 errmsg("index \"%s\" has on-disk format version %u, but this version of bpindex reads version %d",
						RelationGetRelationName(index), stored->version,
						BP_VERSION),
				 errhint("Rebuild the index with REINDEX INDEX %s.",
						 quote_identifier(RelationGetRelationName(index)))));
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
		bpa_region_size(&meta.leaf_layout) >
		bp_leaf_region_room(&state->slot, state->slot.width) ||
		meta.internal_capacity != bp_internal_capacity(state->slot.width))
	{
		pfree(state);
		bp_report_corrupted(index, BP_METAPAGE_BLKNO,
						 "The metapage does not match the index definition.");
	}
	state->meta = meta;
	state->options = bp_index_options(index);
	state->cached_leaf = InvalidBlockNumber;
	/* the metapage just read gives the root: the first descent needs no reread */
	state->cached_root = meta.root;
	state->cached_root_level = meta.root_level;
	old = MemoryContextSwitchTo(index->rd_indexcxt);
	bp_leaf_work_init(&state->work, &state->slot);
	MemoryContextSwitchTo(old);
	index->rd_amcache = state;
	return state;
}

/*
 * Reject columns bpindex cannot store (variable-length types) and key
 * columns without a comparison function, naming the column.
 */
void
bp_check_columns(Relation index)
{
	TupleDesc	tupdesc = RelationGetDescr(index);
	int			natts = IndexRelationGetNumberOfKeyAttributes(index);

	for (int i = natts; i < IndexRelationGetNumberOfAttributes(index); i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (att->attlen <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex cannot include column \"%s\" in index \"%s\": type %s is variable-length",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(att->atttypid)),
					 errdetail("bpindex stores every entry in a fixed-width slot, so INCLUDE columns must have a fixed-length type.")));
	}
	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		Oid			cmpproc = index_getprocid(index, i + 1, 1);

		if (att->attlen <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex cannot index column \"%s\" of index \"%s\": type %s is variable-length",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(att->atttypid)),
					 errdetail("bpindex stores every entry in a fixed-width slot, so key columns must have a fixed-length type.")));
		if (!OidIsValid(cmpproc) ||
			!check_amproc_signature(cmpproc, INT4OID, true, 2, 2,
									index->rd_opcintype[i],
									index->rd_opcintype[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator class of column \"%s\" of index \"%s\" has no comparison function for type %s",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(index->rd_opcintype[i])),
					 errdetail("Support function 1 of a bpindex operator class must compare two values of the class's input type and return int4.")));
	}
}

/*
 * Open a relation that must be a valid bpindex index, for the SQL-callable
 * functions; anything else is refused with an error naming it.
 */
Relation
bp_open_index(Oid indexoid, LOCKMODE lockmode)
{
	Relation	index = index_open(indexoid, lockmode);

	if (index->rd_rel->relkind == RELKIND_PARTITIONED_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a partitioned index",
						RelationGetRelationName(index)),
				 errhint("Use the index of each partition.")));
	if (index->rd_rel->relkind != RELKIND_INDEX ||
		index->rd_indam->amgettuple != bp_gettuple)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a bpindex index",
						RelationGetRelationName(index))));
	if (!index->rd_index->indisvalid)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" is not valid",
						RelationGetRelationName(index))));
	return index;
}
