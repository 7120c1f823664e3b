/*-------------------------------------------------------------------------
 *
 * bpinspect.c
 *	  Inspection functions: bpindex_metap, bpindex_stats, bpindex_leaves
 *	  and bpindex_page_items.
 *
 * All of them read pages under share locks, one at a time, through the
 * same verified reads as scans.  bpindex_metap and bpindex_page_items show
 * raw index content, so they are revoked from PUBLIC and also check for a
 * superuser, like pageinspect, before they open (and lock) the index.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "bpformat.h"
#include "bpgeometry.h"
#include "bpinternal.h"
#include "bpleaf.h"
#include "bpleafread.h"
#include "bppage.h"
#include "bpslot.h"
#include "bpstate.h"

PG_FUNCTION_INFO_V1(bpindex_metap);
PG_FUNCTION_INFO_V1(bpindex_stats);
PG_FUNCTION_INFO_V1(bpindex_page_items);
PG_FUNCTION_INFO_V1(bpindex_leaves);

/* Form the result tuple of a function returning one composite row. */
static Datum
result_row(FunctionCallInfo fcinfo, Datum *values, bool *nulls)
{
	TupleDesc	tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	/* an older version's SQL function may declare fewer output columns */
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls));
}

/* Refuse a caller who is not a superuser, before anything is locked. */
static void
bp_require_superuser(const char *function)
{
	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be superuser to use %s", function)));
}

/* bpindex_metap(index): the metapage. */
Datum
bpindex_metap(PG_FUNCTION_ARGS)
{
	Relation	index;
	BpMetaPageData meta;
	Datum		values[11];
	bool		nulls[11] = {false};

	bp_require_superuser("bpindex_metap");
	index = bp_open_index(PG_GETARG_OID(0), AccessShareLock);

	bp_read_meta(index, &meta);
	values[0] = Int32GetDatum(meta.version);
	values[1] = Int64GetDatum(meta.root);
	values[2] = Int32GetDatum(meta.root_level + 1);
	values[3] = Int32GetDatum(meta.natts);
	values[4] = Int32GetDatum(meta.slot_width);
	values[5] = Int32GetDatum(meta.fillfactor);
	values[6] = Int32GetDatum(meta.leaf_layout.log_size);
	values[7] = Int32GetDatum(meta.leaf_layout.num_blocks);
	values[8] = Int32GetDatum(meta.leaf_layout.block_size);
	values[9] = Int32GetDatum(bp_leaf_layout_capacity(&meta.leaf_layout));
	values[10] = Int32GetDatum(meta.internal_capacity);
	index_close(index, AccessShareLock);
	PG_RETURN_DATUM(result_row(fcinfo, values, nulls));
}

/* Totals gathered by bpindex_stats. */
typedef struct IndexStats
{
	int64		internal_pages;
	int64		leaf_pages;
	int64		entries;
	int64		log_entries;
	int64		used_blocks;
	int64		sorted_blocks;
	int64		empty_leaves;
	int64		incomplete_splits;
	int64		deleted_pages;
	int64		recyclable_pages;
	int64		new_pages;
	int64		packed_leaves;
	double		capacity;		/* entries the leaves' blocks can hold */
	double		log_capacity;	/* entries their logs can hold */
	int64		entry_bytes;	/* bytes of the stored entries */
} IndexStats;

/* Add one page to the totals. */
static void
count_page(Page page, const BpSlotDesc *desc, IndexStats *stats)
{
	BpPageOpaque opaque = BpPageGetOpaque(page);
	BpLeaf		leaf;
	BpLeafSummary summary;

	if (opaque->flags & BP_INCOMPLETE_SPLIT)
		stats->incomplete_splits++;
	if (!(opaque->flags & BP_LEAF))
	{
		stats->internal_pages++;
		return;
	}
	bp_leaf_open(&leaf, page, desc);
	bp_leaf_summarize(&leaf, &summary);
	stats->leaf_pages++;
	stats->packed_leaves += summary.packed;
	stats->capacity += summary.capacity;
	stats->log_capacity += summary.log_capacity;
	stats->entry_bytes += (int64) summary.entries * summary.entry_width;
	stats->entries += summary.entries;
	stats->log_entries += summary.log_entries;
	if (summary.entries == 0)
		stats->empty_leaves++;
	stats->used_blocks += summary.used_blocks;
	stats->sorted_blocks += summary.sorted_blocks;
}

/* What walk_levels calls for each live page, with its block number. */
typedef void (*PageVisitFn) (Page page, BlockNumber blkno, void *arg);

/*
 * Walk the levels from top_level down to the leaves, each left to right
 * along its right-links, calling visit for each live page under a share
 * lock.  Above top_level only the leftmost live page of each level is
 * read, for the way down.
 */
static void
walk_levels(Relation index, BpMetaPageData *meta, int top_level,
			PageVisitFn visit, void *arg)
{
	uint16		width = bp_get_state(index)->desc.width;
	BlockNumber leftmost = meta->root;

	for (int level = meta->root_level; level >= 0; level--)
	{
		BlockNumber blkno = leftmost;

		for (;;)
		{
			Buffer		buf = bp_read_buffer(index, blkno, BUFFER_LOCK_SHARE);
			Page		page = BufferGetPage(buf);
			BpPageOpaque opaque = BpPageGetOpaque(page);
			bool		last = !(opaque->flags & BP_HAS_HIGH);

			CHECK_FOR_INTERRUPTS();
			/* a page VACUUM has just unlinked: go on from its right-link */
			if (opaque->flags & BP_DELETED)
			{
				if (blkno == leftmost)
					leftmost = opaque->rightlink;
				blkno = opaque->rightlink;
				UnlockReleaseBuffer(buf);
				continue;
			}
			if (blkno == leftmost && level > 0)
				leftmost = bp_internal_children(page, width)[0];
			if (level <= top_level)
				visit(page, blkno, arg);
			blkno = opaque->rightlink;
			UnlockReleaseBuffer(buf);
			if (last || level > top_level)
				break;
		}
	}
}

/* Where count_visited_page adds a page. */
typedef struct StatsVisit
{
	const BpSlotDesc *desc;
	IndexStats *stats;
} StatsVisit;

/* Add a page walk_levels visits to the totals. */
static void
count_visited_page(Page page, BlockNumber blkno, void *arg)
{
	StatsVisit *visit = (StatsVisit *) arg;

	count_page(page, visit->desc, visit->stats);
}

/* Walk every level left to right, counting pages and entries. */
static void
gather_stats(Relation index, BpMetaPageData *meta, IndexStats *stats)
{
	StatsVisit	visit = {&bp_get_state(index)->desc, stats};

	walk_levels(index, meta, meta->root_level, count_visited_page, &visit);
}

/* Count the deleted pages of the index, and those that may be reused. */
static void
count_deleted(Relation index, IndexStats *stats)
{
	uint16		width = bp_get_state(index)->desc.width;
	BlockNumber nblocks = RelationGetNumberOfBlocks(index);

	for (BlockNumber blkno = BP_METAPAGE_BLKNO + 1; blkno < nblocks; blkno++)
	{
		Buffer		buf = ReadBuffer(index, blkno);
		Page		page = BufferGetPage(buf);

		CHECK_FOR_INTERRUPTS();
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		if (PageIsNew(page))
			stats->new_pages++;
		else
		{
			bp_check_page(index, buf, page);
			if (bp_page_deleted(page))
			{
				stats->deleted_pages++;
				if (bp_page_recyclable(page, width))
					stats->recyclable_pages++;
			}
		}
		UnlockReleaseBuffer(buf);
	}
}

/* bpindex_stats(index): pages, entries and how full the leaves are. */
Datum
bpindex_stats(PG_FUNCTION_ARGS)
{
	Relation	index = bp_open_index(PG_GETARG_OID(0), AccessShareLock);
	BpMetaPageData meta;
	IndexStats	stats = {0};
	BlockNumber nblocks;
	Datum		values[14];
	bool		nulls[14] = {false};

	bp_read_meta(index, &meta);
	gather_stats(index, &meta, &stats);
	count_deleted(index, &stats);
	nblocks = RelationGetNumberOfBlocks(index);

	values[0] = Int32GetDatum(meta.root_level + 1);
	values[1] = Int64GetDatum(stats.internal_pages);
	values[2] = Int64GetDatum(stats.leaf_pages);
	values[3] = Int64GetDatum(stats.entries);
	values[4] = Float8GetDatum(stats.entries / stats.capacity);
	values[5] = Float8GetDatum(stats.log_entries / stats.log_capacity);
	nulls[6] = stats.used_blocks == 0;
	values[6] = Float8GetDatum(stats.used_blocks ?
							   (double) stats.sorted_blocks / stats.used_blocks : 0);
	values[7] = Int64GetDatum(stats.empty_leaves);
	values[8] = Int64GetDatum(stats.incomplete_splits);
	/* pages in neither the tree nor the deleted ones: left by a crash */
	values[9] = Int64GetDatum(Max(0, (int64) nblocks - 1 - stats.internal_pages -
								  stats.leaf_pages - stats.deleted_pages));
	values[10] = Int64GetDatum(stats.deleted_pages);
	values[11] = Int64GetDatum(stats.recyclable_pages);
	values[12] = Int64GetDatum(stats.packed_leaves);
	nulls[13] = stats.entries == 0;
	values[13] = Float8GetDatum(stats.entries ?
								(double) stats.entry_bytes / stats.entries : 0);
	index_close(index, AccessShareLock);
	/* the functions of older versions, until ALTER EXTENSION UPDATE, end sooner */
	PG_RETURN_DATUM(result_row(fcinfo, values, nulls));
}

/* The key columns of a slot as text: "v" or "(v1, v2)", NULL shown as NULL. */
static char *
slot_key_text(Relation index, const BpSlotDesc *desc, const char *slot)
{
	StringInfoData out;

	initStringInfo(&out);
	if (desc->natts > 1)
		appendStringInfoChar(&out, '(');
	for (int i = 0; i < desc->natts; i++)
	{
		Oid			output;
		bool		isvarlena;

		if (i > 0)
			appendStringInfoString(&out, ", ");
		if (bp_slot_isnull(desc, slot, i))
		{
			appendStringInfoString(&out, "NULL");
			continue;
		}
		getTypeOutputInfo(TupleDescAttr(RelationGetDescr(index), i)->atttypid,
						  &output, &isvarlena);
		appendStringInfoString(&out, OidOutputFunctionCall(output,
														   bp_slot_datum(desc, slot, i)));
	}
	if (desc->natts > 1)
		appendStringInfoChar(&out, ')');
	return out.data;
}

/* Emit one row of bpindex_page_items; slot NULL for the minus-infinity pivot. */
static void
emit_item(FunctionCallInfo fcinfo, Relation index, int itemno,
		  const char *region, int block, const char *slot, int64 child)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const BpSlotDesc *desc = &bp_get_state(index)->desc;
	Datum		values[7];
	bool		nulls[7] = {false};
	bool		entry = strcmp(region, "log") == 0 || strcmp(region, "block") == 0;

	values[0] = Int32GetDatum(itemno);
	values[1] = CStringGetTextDatum(region);
	values[2] = Int32GetDatum(block);
	nulls[2] = block < 0;
	nulls[3] = nulls[4] = slot == NULL;
	if (slot)
	{
		ItemPointer tid = palloc(sizeof(ItemPointerData));

		*tid = bp_slot_tid(slot);
		values[3] = CStringGetTextDatum(slot_key_text(index, desc, slot));
		values[4] = PointerGetDatum(tid);
	}
	values[5] = Int64GetDatum(child);
	nulls[5] = child < 0;
	/* only entries carry a dead mark */
	values[6] = BoolGetDatum(slot != NULL && entry && bp_slot_dead(slot));
	nulls[6] = slot == NULL || !entry;
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/* Where emit_leaf_slot emits the slots of a leaf. */
typedef struct LeafEmit
{
	FunctionCallInfo fcinfo;
	Relation	index;
	int		   *itemno;
} LeafEmit;

/* Emit one slot of a leaf's BPA. */
static void
emit_leaf_slot(const char *section, int block, const char *slot, void *arg)
{
	LeafEmit   *emit = (LeafEmit *) arg;

	emit_item(emit->fcinfo, emit->index, (*emit->itemno)++, section, block,
			  slot, -1);
}

/*
 * Emit the slots of a leaf's BPA: log, header, blocks, the entries with
 * their dead marks.
 */
static void
emit_leaf(FunctionCallInfo fcinfo, Relation index, Page page, int *itemno)
{
	BpSlotDesc	desc = bp_get_state(index)->desc;
	LeafEmit	emit = {fcinfo, index, itemno};
	BpLeafWork	work;
	BpLeaf		leaf;

	bp_leaf_work_init(&work, &desc);
	bp_leaf_open(&leaf, page, &desc);
	bp_leaf_walk(&leaf, emit_leaf_slot, &emit, &work);
	bp_leaf_work_free(&work);
}

/* Emit the (pivot, child) pairs of an internal page. */
static void
emit_internal(FunctionCallInfo fcinfo, Relation index, Page page, int *itemno)
{
	const BpSlotDesc *desc = &bp_get_state(index)->desc;
	uint16		width = desc->width;
	bool		has_low = bp_page_stores_low(page);
	BpInternalHeader *header = bp_internal_header(page, width);
	char		pivot[BP_MAX_SLOT_WIDTH];

	for (int i = 0; i < header->nitems; i++)
		emit_item(fcinfo, index, (*itemno)++, "pivot", -1,
				  (i > 0 || has_low) ?
				  bp_page_slot(desc, page, bp_internal_pivot(page, width, i), pivot) :
				  NULL,
				  bp_internal_children(page, width)[i]);
}

/* bpindex_page_items(index, blkno): every slot of one page. */
Datum
bpindex_page_items(PG_FUNCTION_ARGS)
{
	int64		blkno = PG_GETARG_INT64(1);
	Relation	index;
	uint16		width;
	Buffer		buf;
	Page		page;
	uint16		flags;
	int			itemno = 1;
	char		fence[BP_MAX_SLOT_WIDTH];

	bp_require_superuser("bpindex_page_items");
	index = bp_open_index(PG_GETARG_OID(0), AccessShareLock);
	width = bp_get_state(index)->desc.width;
	if (blkno < 0 || blkno >= RelationGetNumberOfBlocks(index))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block number " INT64_FORMAT " is out of range for index \"%s\"",
						blkno, RelationGetRelationName(index))));
	if (blkno == BP_METAPAGE_BLKNO)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block 0 of index \"%s\" is the metapage",
						RelationGetRelationName(index)),
				 errhint("Use bpindex_metap() to see it.")));

	InitMaterializedSRF(fcinfo, 0);
	buf = bp_read_buffer(index, (BlockNumber) blkno, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	flags = BpPageGetOpaque(page)->flags;
	if (flags & BP_LOW_OMITTED)
		emit_item(fcinfo, index, itemno++, "low key (not stored)", -1, NULL, -1);
	else if (flags & BP_HAS_LOW)
		emit_item(fcinfo, index, itemno++, "low key", -1,
				  bp_page_fence(&bp_get_state(index)->desc, page, false, fence), -1);
	if (flags & BP_HAS_HIGH)
		emit_item(fcinfo, index, itemno++, "high key", -1,
				  bp_page_fence(&bp_get_state(index)->desc, page, true, fence),
				  BpPageGetOpaque(page)->rightlink);
	if (flags & BP_DELETED)
	{
		/* the deleted page's fences, and when it was deleted */
		FullTransactionId safexid = bp_page_deleted_data(page, width)->safexid;
		ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
		Datum		values[7] = {0};
		bool		nulls[7] = {false, false, true, false, true, true, true};

		values[0] = Int32GetDatum(itemno++);
		values[1] = CStringGetTextDatum(bp_page_recyclable(page, width) ?
										"deleted, recyclable" : "deleted");
		values[3] = CStringGetTextDatum(psprintf("xid " UINT64_FORMAT,
												 U64FromFullTransactionId(safexid)));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	else if (flags & BP_LEAF)
		emit_leaf(fcinfo, index, page, &itemno);
	else
		emit_internal(fcinfo, index, page, &itemno);
	UnlockReleaseBuffer(buf);
	index_close(index, AccessShareLock);
	return (Datum) 0;
}

/* Where emit_leaf_row emits the leaves of bpindex_leaves. */
typedef struct LeavesEmit
{
	FunctionCallInfo fcinfo;
	Relation	index;
	const BpSlotDesc *desc;
} LeavesEmit;

/* A leaf's fence as text, or NULL (no datum) if it has none. */
static void
fence_text(LeavesEmit *emit, Page page, bool high, Datum *value, bool *isnull)
{
	uint16		flags = BpPageGetOpaque(page)->flags;
	char		fence[BP_MAX_SLOT_WIDTH];

	*isnull = !(flags & (high ? BP_HAS_HIGH : BP_HAS_LOW));
	if (*isnull)
		return;
	*value = CStringGetTextDatum(slot_key_text(emit->index, emit->desc,
											   bp_page_fence(emit->desc, page, high,
															 fence)));
}

/* Emit one row of bpindex_leaves: a leaf's encoding, widths and fill. */
static void
emit_leaf_row(Page page, BlockNumber blkno, void *arg)
{
	LeavesEmit *emit = (LeavesEmit *) arg;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) emit->fcinfo->resultinfo;
	BpLeaf		leaf;
	BpLeafSummary summary;
	Datum		values[11];
	bool		nulls[11] = {false};

	bp_leaf_open(&leaf, page, emit->desc);
	bp_leaf_summarize(&leaf, &summary);
	values[0] = Int64GetDatum(blkno);
	values[1] = Int32GetDatum(summary.entries);
	values[2] = Int32GetDatum(summary.capacity);
	values[3] = CStringGetTextDatum(summary.packed ? "packed" : "plain");
	values[4] = Int32GetDatum(summary.entry_width);
	nulls[5] = nulls[6] = nulls[7] = !summary.packed;
	if (summary.packed)
	{
		const BpCodec *codec = summary.codec;
		Datum	   *widths = palloc(sizeof(Datum) * codec->natts);

		for (int i = 0; i < codec->natts; i++)
			widths[i] = Int32GetDatum(codec->att_width[i]);
		values[5] = PointerGetDatum(construct_array(widths, codec->natts,
													INT4OID, sizeof(int32),
													true, TYPALIGN_INT));
		values[6] = Int32GetDatum(codec->block_width);
		values[7] = Int32GetDatum(codec->offset_width);
	}
	fence_text(emit, page, false, &values[8], &nulls[8]);
	fence_text(emit, page, true, &values[9], &nulls[9]);
	/* not in the 1.4 definition, whose tuples end before it */
	values[10] = Int32GetDatum(summary.key_strip);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * bpindex_leaves(index): each leaf, left to right, with its entries,
 * capacity, encoding, the bytes of a stored entry and of each of its
 * codes, its fences, and the bytes of key prefix its entries' keys are
 * stored without.
 */
Datum
bpindex_leaves(PG_FUNCTION_ARGS)
{
	Relation	index;
	BpMetaPageData meta;
	LeavesEmit	emit;

	bp_require_superuser("bpindex_leaves");
	index = bp_open_index(PG_GETARG_OID(0), AccessShareLock);
	emit.fcinfo = fcinfo;
	emit.index = index;
	emit.desc = &bp_get_state(index)->desc;
	InitMaterializedSRF(fcinfo, 0);
	bp_read_meta(index, &meta);
	walk_levels(index, &meta, 0, emit_leaf_row, &emit);
	index_close(index, AccessShareLock);
	return (Datum) 0;
}
