/*-------------------------------------------------------------------------
 *
 * bpbuild.c
 *	  CREATE INDEX for bpindex: sort, fill leaves left to right, build the
 *	  upper levels bottom-up, write the metapage last, WAL-log it all.
 *
 * Entries are sorted by (key columns, heap TID) in bpbuildsort.c.  Each
 * leaf receives entries until it reaches the fill target (bpa_fill_target)
 * of the layout its own codec gives it (bpleafplan.c), spread evenly over its
 * blocks so that every block keeps free slots.  Blocks are allocated in
 * order: block 0 is the metapage, then the leaves, then each upper level.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "commands/progress.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/smgr.h"
#include "utils/rel.h"
#include "utils/memutils.h"
#include "utils/tuplesort.h"

#include "bpbuild.h"
#include "bpbuildparallel.h"
#include "bpbuildsort.h"
#include "bpcompat.h"
#include "bpformat.h"
#include "bpgeometry.h"
#include "bpinternal.h"
#include "bpleafplan.h"
#include "bpoptions.h"
#include "bppage.h"
#include "bpslot.h"
#include "bpstate.h"
#include "bpunique.h"
#include "bpxlog.h"

/* (pivot, child) pairs of one level, waiting to get a parent. */
typedef struct BpLevelItems
{
	char	   *pivots;
	BlockNumber *children;
	int			n;
	int			capacity;
} BpLevelItems;

/* State of one CREATE INDEX. */
typedef struct BpBuildState
{
	Relation	index;
	Relation	heap;
	BpSlotDesc	desc;
	BpaLayout	layout;			/* of a plain leaf, for the metapage */
	BpOptions	options;
	int			internal_capacity;
	int			fillfactor;

	BpBuildSort *sort;			/* the entries, sorted (bpbuildsort.c) */
	double		indtuples;

	char	   *leaf_items;		/* entries of the leaf being filled */
	int			nleaf;
	MemoryContext keys_cxt;		/* copies of their keys and the low key's */
	MemoryContext level_cxt;	/* copies of the keys of the downlinks */
	BpLeafPlanner planner;		/* plans the leaf from its entries */
	bool		have_lowkey;
	char	   *lowkey;			/* low key of the leaf being filled */
	BlockNumber next_blkno;		/* block the next page will get */
	BpLevelItems level;			/* downlinks to the pages written so far */
	PGAlignedBlock page;
} BpBuildState;

/*
 * Compute the slot description and the leaf layout of an index, or raise
 * an error if its entries or its layout options do not fit a page.
 */
static void
choose_layout(Relation index, BpSlotDesc *desc, BpaLayout *layout,
			  int *internal_capacity)
{
	BpOptions	opts = bp_index_options(index);

	bp_check_columns(index);
	bp_init_slot_desc(index, desc, true);
	desc->max_key_bytes = bp_max_key_bytes(desc, &opts);
	bp_layout_for_options(&opts, desc->ncolumns, desc->width,
						  RelationGetRelationName(index),
						  layout);
	bp_check_key_room(desc, RelationGetRelationName(index));
	*internal_capacity = bp_internal_capacity(desc->width);
}

/* Fill page as the metapage of an index with this shape. */
static void
fill_metapage(Page page, const BpSlotDesc *desc, const BpaLayout *layout,
			  int internal_capacity, int fillfactor, BlockNumber root,
			  uint16 root_level)
{
	BpMetaPage	meta;

	bp_init_page(page, BP_META, 0);
	meta = BpPageGetMeta(page);
	meta->magic = BP_META_MAGIC;
	meta->version = BP_VERSION;
	meta->root = root;
	meta->root_level = root_level;
	meta->natts = desc->natts;
	meta->slot_width = desc->width;
	meta->fillfactor = fillfactor;
	meta->internal_capacity = internal_capacity;
	meta->flags = BP_META_CODE_POINT_LIBC;
	meta->leaf_layout = *layout;
}

/*
 * Copy the keys of the logical slot (in place) into cxt, if it has any, so
 * that they outlive where the slot came from.
 */
static void
keep_keys(const BpSlotDesc *desc, char *slot, MemoryContext cxt)
{
	MemoryContext old;
	char	   *copy;

	if (!desc->has_keys)
		return;
	old = MemoryContextSwitchTo(cxt);
	copy = bp_copy_slot(desc, slot);
	MemoryContextSwitchTo(old);
	memcpy(slot, copy, desc->width);
}

/* Append a downlink to the list of a level. */
static void
level_append(BpLevelItems *level, const char *pivot, BlockNumber child,
			 uint16 width)
{
	if (level->n == level->capacity)
	{
		level->capacity = Max(64, level->capacity * 2);
		level->pivots = level->pivots ?
			repalloc_huge(level->pivots, (Size) level->capacity * width) :
			palloc_extended((Size) level->capacity * width, MCXT_ALLOC_HUGE);
		level->children = level->children ?
			repalloc_huge(level->children, sizeof(BlockNumber) * level->capacity) :
			palloc_extended(sizeof(BlockNumber) * level->capacity, MCXT_ALLOC_HUGE);
	}
	if (pivot)
		memcpy(level->pivots + (Size) level->n * width, pivot, width);
	else
		memset(level->pivots + (Size) level->n * width, 0, width);
	level->children[level->n++] = child;
}

/* Append the prepared page as the next block of the index. */
static BlockNumber
write_page(BpBuildState *state)
{
	Buffer		buf = ReadBufferExtended(state->index, MAIN_FORKNUM, P_NEW,
										 RBM_NORMAL, NULL);
	BlockNumber blkno = BufferGetBlockNumber(buf);

	if (blkno != state->next_blkno)
		elog(ERROR, "bpindex build of \"%s\" expected block %u, got %u",
			 RelationGetRelationName(state->index), state->next_blkno, blkno);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	memcpy(BufferGetPage(buf), state->page.data, BLCKSZ);
	MarkBufferDirty(buf);
	UnlockReleaseBuffer(buf);
	state->next_blkno++;
	return blkno;
}

/*
 * Copy the keys of the entries left for the next leaf and of its low key
 * into a new context and free the old one with the keys of the leaves
 * written.
 */
static void
renew_keys(BpBuildState *state)
{
	MemoryContext old = state->keys_cxt;

	state->keys_cxt = AllocSetContextCreate(CurrentMemoryContext,
											"bpindex build keys",
											ALLOCSET_DEFAULT_SIZES);
	keep_keys(&state->desc, state->lowkey, state->keys_cxt);
	for (int k = 0; k < state->nleaf; k++)
		keep_keys(&state->desc, state->leaf_items + (Size) k * state->desc.width,
				  state->keys_cxt);
	MemoryContextDelete(old);
}

/*
 * Write the first n entries of the leaf being filled, as planned, and keep
 * the rest as the start of the next leaf.  highkey is the first entry of
 * the next leaf, or NULL for the rightmost leaf; the fence and pivot
 * between the two leaves are cut short where their keys allow
 * (bp_separator).
 */
static void
flush_leaf(BpBuildState *state, int n, const char *highkey,
		   const BpLeafPlan *plan)
{
	uint16		width = state->desc.width;
	Page		page = state->page.data;
	BlockNumber blkno;

	if (state->desc.has_keys && highkey && n > 0)
	{
		/* the separator's keys live as long as those of the entries */
		MemoryContext old = MemoryContextSwitchTo(state->keys_cxt);
		char	   *separator = palloc(width);

		bp_separator(&state->desc, state->leaf_items + (Size) (n - 1) * width,
					 highkey, separator);
		MemoryContextSwitchTo(old);
		highkey = separator;
	}
	bp_leaf_fill(page, &state->desc, plan, state->leaf_items, n,
				 state->have_lowkey ? state->lowkey : NULL, highkey, false);
	if (highkey)
		BpPageGetOpaque(page)->rightlink = state->next_blkno + 1;
	blkno = write_page(state);
	level_append(&state->level, state->have_lowkey ? state->lowkey : NULL,
				 blkno, width);
	if (state->have_lowkey)
		keep_keys(&state->desc, state->level.pivots +
				  (Size) (state->level.n - 1) * width, state->level_cxt);
	if (highkey)
		memcpy(state->lowkey, highkey, width);
	state->have_lowkey = true;
	state->nleaf -= n;
	memmove(state->leaf_items, state->leaf_items + (Size) n * width,
			(Size) state->nleaf * width);
	if (state->desc.has_keys && highkey)
		renew_keys(state);
	bp_leaf_planner_start(&state->planner, &state->desc, &state->options);
	for (int k = 0; k < state->nleaf; k++)
		bp_leaf_planner_add(&state->planner, state->leaf_items + (Size) k * width);
}

/*
 * Write the longest run of the first entries of the leaf being filled that
 * a leaf planned for them holds, with the entry after them as its high
 * key.  Fewer entries never need a wider codec, so the capacity of a plan
 * that is too small is the next length to try.
 */
static void
flush_fitting_prefix(BpBuildState *state)
{
	uint16		width = state->desc.width;
	int			n = state->nleaf - 1;

	for (;;)
	{
		const char *highkey = state->leaf_items + (Size) n * width;
		BpLeafPlan	plan;
		int			capacity = bp_leaf_plan(&state->desc, &state->options,
											state->leaf_items, n,
											state->have_lowkey ? state->lowkey : NULL,
											highkey, NULL, &plan);

		if (n <= capacity)
		{
			flush_leaf(state, n, highkey, &plan);
			return;
		}
		n = capacity;
	}
}

/*
 * Does the keyed leaf being filled, which has reached the fill target of
 * the planner's current plan, take more entries under a plan made for
 * the entries it holds?  Such a plan (adopted if so) counts the bytes its
 * keys take now: the current one was made for its first entries, and
 * equal neighbours share their keys, so that a run of duplicates needs
 * fewer bytes per entry than its first entry did.
 */
static bool
keyed_leaf_fills_further(BpBuildState *state, const char *lowkey,
						 const char *slot)
{
	BpLeafPlan	plan;
	int			capacity = bp_leaf_planner_plan(&state->planner, lowkey, slot,
												NULL, NULL, 0, &plan);

	if (state->nleaf >= plan.fill_target || state->nleaf >= capacity)
		return false;
	bp_leaf_planner_adopt(&state->planner, &plan);
	return true;
}

/*
 * Write the leaf being filled if it has reached its fill target with slot
 * as its high key.  The planner's current plan, which holds every entry,
 * tells whether it has; the leaf is then written as planned for its
 * fences, or by the current plan if that plan's codec is too wide for
 * the entries.  If slot made the codec so wide that the entries no longer
 * fit, a shorter leaf is written (flush_fitting_prefix) and the rest
 * starts the next one.
 */
static void
flush_full_leaf(BpBuildState *state, const char *slot)
{
	while (state->nleaf > 0)
	{
		const char *lowkey = state->have_lowkey ? state->lowkey : NULL;
		const BpLeafPlan *current = bp_leaf_planner_current(&state->planner,
															lowkey, slot);

		if (state->nleaf < current->fill_target)
			return;
		if (state->desc.has_keys && keyed_leaf_fills_further(state, lowkey, slot))
			return;
		if (state->nleaf <= current->capacity)
		{
			BpLeafPlan	plan;
			int			capacity = bp_leaf_planner_plan(&state->planner, lowkey,
														slot, NULL, NULL, 0,
														&plan);

			/* a keyed plan holds the keys of its own fences only */
			if (state->nleaf <= capacity || !state->desc.has_keys)
			{
				flush_leaf(state, state->nleaf, slot,
						   state->nleaf <= capacity ? &plan : current);
				return;
			}
		}
		flush_fitting_prefix(state);
	}
}

/*
 * Add the next entry, in sorted order, to the leaf level; its keys may
 * live only until the next entry is read.
 */
static void
add_sorted_entry(BpBuildState *state, const char *slot)
{
	char	   *item;

	flush_full_leaf(state, slot);
	item = state->leaf_items + (Size) state->nleaf * state->desc.width;
	memcpy(item, slot, state->desc.width);
	keep_keys(&state->desc, item, state->keys_cxt);
	state->nleaf++;
	bp_leaf_planner_add(&state->planner, item);
}

/*
 * Write one level of internal pages over the downlinks in items and
 * return the downlinks to the new pages.
 */
static BpLevelItems
write_internal_level(BpBuildState *state, const BpLevelItems *items,
					 uint16 level)
{
	uint16		width = state->desc.width;
	BpLevelItems parents = {0};
	Page		page = state->page.data;

	for (int first = 0, n; first < items->n; first += n)
	{
		BlockNumber blkno;

		/* as many as fit, keys included: each page holds two at least */
		for (n = bp_internal_build_count(&state->desc, state->internal_capacity,
										 items->pivots + (Size) first * width,
										 items->n - first);;
			 n = Max(2, n * 3 / 4))
		{
			const char *pivots = items->pivots + (Size) first * width;
			BpInternalFences fences = {
				first > 0 ? pivots : NULL, false,
				first + n < items->n ? pivots + (Size) n * width : NULL
			};

			if (bp_internal_fill(&state->desc, page, level, state->internal_capacity,
								 &fences, items->children + first, pivots, n))
				break;
			/* two long pivots: a page with room for fewer children */
			if (n <= 2 &&
				bp_internal_fill_fitting(&state->desc, page, level,
										 state->internal_capacity, &fences,
										 items->children + first, pivots, n,
										 true))
				break;
			if (n <= 2)
				elog(ERROR, "bpindex: the keys of two downlinks do not fit an internal page");
		}
		if (first + n < items->n)
			BpPageGetOpaque(page)->rightlink = state->next_blkno + 1;
		blkno = write_page(state);
		level_append(&parents, items->pivots + (Size) first * width, blkno,
					 width);
	}
	return parents;
}

/* Feed one heap tuple's index entry to the sort. */
static void
build_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
			   bool tupleIsAlive, void *arg)
{
	BpBuildState *state = (BpBuildState *) arg;

	bp_build_sort_put(state->sort, values, isnull, tid);
	state->indtuples += 1;
}

/* Write the rightmost leaf (in two if its entries do not fit one). */
static void
flush_last_leaf(BpBuildState *state)
{
	uint16		width = state->desc.width;

	for (;;)
	{
		BpLeafPlan	plan;
		int			capacity = bp_leaf_planner_plan(&state->planner,
													state->have_lowkey ? state->lowkey : NULL,
													NULL, NULL, NULL, 0, &plan);
		int			n = state->nleaf / 2;

		if (state->nleaf <= capacity)
		{
			flush_leaf(state, state->nleaf, NULL, &plan);
			return;
		}
		if (n <= bp_leaf_plan(&state->desc, &state->options, state->leaf_items, n,
							  state->have_lowkey ? state->lowkey : NULL,
							  state->leaf_items + (Size) n * width, NULL, &plan))
			flush_leaf(state, n, state->leaf_items + (Size) n * width, &plan);
		else
			flush_fitting_prefix(state);
	}
}

/*
 * Read the sorted entries back and fill the leaves; in a unique index, no
 * two live rows may share a key.
 */
static void
load_leaves(BpBuildState *state)
{
	char	   *entry = palloc(state->desc.width);
	int64		done = 0;
	bool		unique = state->index->rd_index->indisunique;
	BpUniqueBuild unique_check;

	state->leaf_items = palloc((Size) (BLCKSZ / 2 + 1) * state->desc.width);
	state->lowkey = palloc0(state->desc.width);
	state->keys_cxt = AllocSetContextCreate(CurrentMemoryContext,
											"bpindex build keys",
											ALLOCSET_DEFAULT_SIZES);
	state->level_cxt = AllocSetContextCreate(CurrentMemoryContext,
											 "bpindex build downlink keys",
											 ALLOCSET_DEFAULT_SIZES);
	bp_leaf_planner_start(&state->planner, &state->desc, &state->options);
	if (unique)
		bp_unique_build_start(&unique_check, state->index, state->heap,
							  &state->desc);
	while (bp_build_sort_next(state->sort, entry))
	{
		if (unique)
			bp_unique_build_next(&unique_check, entry);
		add_sorted_entry(state, entry);
		if (++done % 10000 == 0)
			pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, done);
		CHECK_FOR_INTERRUPTS();
	}
	if (unique)
		bp_unique_build_finish(&unique_check);
	flush_last_leaf(state);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, done);
	pfree(entry);
}

/* Bytes of keys the pivots of a level take on average (pivot 0 has none). */
static double
average_pivot_keys(const BpSlotDesc *desc, const BpLevelItems *items)
{
	double		total = 0;

	for (int i = 1; i < items->n; i++)
		total += bp_slot_keys_size(desc, items->pivots + (Size) i * desc->width);
	return total / (items->n - 1);
}

/*
 * Build internal levels until one root remains; write the metapage.  An
 * index with keys gets the capacity of internal pages for the keys of the
 * leaves' pivots.
 */
static void
finish_tree(BpBuildState *state)
{
	BpLevelItems items = state->level;
	uint16		level = 0;
	Buffer		metabuf;

	if (state->desc.has_keys && items.n > 1)
		state->internal_capacity =
			bp_internal_keyed_capacity(state->desc.width,
									   average_pivot_keys(&state->desc, &items));
	while (items.n > 1)
	{
		items = write_internal_level(state, &items, ++level);
		CHECK_FOR_INTERRUPTS();
	}
	metabuf = ReadBuffer(state->index, BP_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	fill_metapage(BufferGetPage(metabuf), &state->desc, &state->layout,
				  state->internal_capacity, state->fillfactor,
				  items.children[0], level);
	MarkBufferDirty(metabuf);
	UnlockReleaseBuffer(metabuf);
}

/* ambuild: build a new bpindex index over the heap's existing rows. */
IndexBuildResult *
bp_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	BpBuildState state = {0};
	IndexBuildResult *result;
	double		reltuples;
	int			nworkers;
	BpParallelBuild *parallel = NULL;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data",
			 RelationGetRelationName(index));
	bp_xlog_require(index);
	if (index->rd_index->indisunique)
		bp_unique_refuse_if_unsupported(RelationGetRelationName(index));

	state.index = index;
	state.heap = heap;
	state.options = bp_index_options(index);
	state.fillfactor = state.options.fillfactor;
	choose_layout(index, &state.desc, &state.layout, &state.internal_capacity);

	/* block 0 stays a placeholder until the tree is complete */
	bp_init_page(state.page.data, BP_META, 0);
	write_page(&state);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE,
								 BP_BUILD_PHASE_SCAN);
	nworkers = bp_build_workers(heap, index, indexInfo);
	if (nworkers > 0)
		parallel = bp_parallel_build_begin(heap, index, indexInfo, nworkers);
	if (parallel != NULL)
	{
		state.sort = bp_build_sort_begin(index, &state.desc, -1,
										 maintenance_work_mem,
										 bp_parallel_build_coordinate(parallel));
		bp_parallel_build_scan(parallel, heap, index, indexInfo, &reltuples,
							   &state.indtuples);
	}
	else
	{
		state.sort = bp_build_sort_begin(index, &state.desc,
										 heap->rd_rel->reltuples,
										 maintenance_work_mem, NULL);
		reltuples = table_index_build_scan(heap, index, indexInfo, true, true,
										   build_callback, &state, NULL);
	}

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE,
								 BP_BUILD_PHASE_SORT);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_TOTAL,
								 (int64) state.indtuples);
	bp_build_sort_perform(state.sort);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE,
								 BP_BUILD_PHASE_LOAD);
	load_leaves(&state);
	finish_tree(&state);
	bp_build_sort_end(state.sort);
	if (parallel != NULL)
		bp_parallel_build_end(parallel);

	if (RelationNeedsWAL(index))
		log_newpage_range(index, MAIN_FORKNUM, 0, state.next_blkno, true);

	result = palloc(sizeof(IndexBuildResult));
	result->heap_tuples = reltuples;
	result->index_tuples = state.indtuples;
	return result;
}

/* Write one page of the init fork and WAL-log it. */
static void
write_init_page(Relation index, BlockNumber blkno, Page page)
{
	PageSetChecksumInplace(page, blkno);
	smgrextend(RelationGetSmgr(index), INIT_FORKNUM, blkno, (char *) page, true);
	log_newpage(BP_SMGR_LOCATOR(RelationGetSmgr(index)), INIT_FORKNUM, blkno,
				page, true);
}

/* ambuildempty: metapage and an empty root leaf in the init fork. */
void
bp_buildempty(Relation index)
{
	BpSlotDesc	desc;
	BpaLayout	layout;
	BpOptions	options = bp_index_options(index);
	BpLeafPlan	plan;
	int			internal_capacity;
	PGAlignedBlock page;

	bp_xlog_require(index);
	choose_layout(index, &desc, &layout, &internal_capacity);
	fill_metapage(page.data, &desc, &layout, internal_capacity,
				  options.fillfactor, 1, 0);
	write_init_page(index, BP_METAPAGE_BLKNO, page.data);
	bp_leaf_plan(&desc, &options, NULL, 0, NULL, NULL, NULL, &plan);
	bp_leaf_fill(page.data, &desc, &plan, NULL, 0, NULL, NULL, false);
	write_init_page(index, 1, page.data);
	smgrimmedsync(RelationGetSmgr(index), INIT_FORKNUM);
}
