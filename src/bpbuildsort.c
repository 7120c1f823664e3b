/*-------------------------------------------------------------------------
 *
 * bpbuildsort.c
 *	  The sort of CREATE INDEX: entries in, ordered by (key columns, heap
 *	  TID), slots out.
 *
 * A serial build of an index on one key column and no INCLUDE columns
 * sorts in memory:
 *
 * - an integer-like column (int2, int4, int8, oid, bool, date, time,
 *   timestamp, timestamptz) ascending, NULLs last, as (key, TID) pairs of
 *   two integers;
 * - any other column as (sort key, value, TID) triples, through the
 *   column's sort support with abbreviated keys where the type has them:
 *   the abbreviation decides most comparisons, the value the ties, the
 *   TID the duplicates.  Values by reference are copied into an arena of
 *   large chunks, detoasted.
 *
 * Once the entries would outgrow the sort's memory, they move into a heap
 * tuplesort over (key columns, INCLUDE columns, TID), which every other
 * index and every parallel build uses from the start; it orders by the
 * btree ordering operators of the key columns' families, which agree with
 * support function 1.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "access/tableam.h"
#include "catalog/pg_operator_d.h"
#include "catalog/pg_type_d.h"
#include "executor/tuptable.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/sortsupport.h"
#include "utils/tuplesort.h"

#include "bpbuildsort.h"
#include "bpgeometry.h"
#include "bpoptions.h"
#include "bpslot.h"

/* The heap TID of an in-memory entry, with a bit for a NULL key. */
#define ENTRY_NULL_BIT	(UINT64CONST(1) << 62)
#define ENTRY_TID_MASK	((UINT64CONST(1) << 48) - 1)

/* Bytes of the arena's chunks, and the largest value placed in one. */
#define ARENA_CHUNK_SIZE	(64 * 1024)
#define ARENA_LARGEST_VALUE	(ARENA_CHUNK_SIZE / 8)

/*
 * An entry of an index on one integer-like column, as the in-memory sort
 * orders it: by key, NULLs last, then by heap TID.
 */
typedef struct BpSortPair
{
	int64		key;			/* the key, widened; PG_INT64_MAX for NULL */
	uint64		tid;			/* block << 16 | offset, | ENTRY_NULL_BIT */
} BpSortPair;

/*
 * An entry of an index on one column of another type, as the in-memory
 * sort orders it: by sort key, then by value, then by heap TID.
 */
typedef struct BpSortValue
{
	Datum		sortkey;		/* the abbreviated key, or the value */
	Datum		value;			/* by reference: a copy in the arena */
	uint64		tid;			/* block << 16 | offset, | ENTRY_NULL_BIT */
} BpSortValue;

/* How the entries are sorted. */
typedef enum BpSortMethod
{
	BP_SORT_PAIRS,				/* BpSortPair in memory */
	BP_SORT_VALUES,				/* BpSortValue in memory */
	BP_SORT_TUPLESORT			/* a heap tuplesort */
} BpSortMethod;

struct BpBuildSort
{
	Relation	index;
	const BpSlotDesc *desc;
	BpSortMethod method;

	/* the in-memory sorts: an array of pairs or values */
	char	   *entries;
	Size		entry_size;
	int64		nentries;
	int64		allocated;
	Size		budget;			/* bytes the array and the arena may take */

	/* BP_SORT_VALUES */
	SortSupportData ssup;
	int64		abbrev_next;	/* entries at which to consider abandoning
								 * abbreviation */
	MemoryContext arena_cxt;
	char	   *arena_free;		/* next free byte of the arena's chunk */
	Size		arena_left;
	Size		arena_used;

	/* BP_SORT_TUPLESORT */
	Tuplesortstate *sort;
	TupleTableSlot *sort_slot;	/* virtual slot fed to the sort */
	TupleTableSlot *sorted_slot;	/* minimal tuple slot read back */
	int64		next;			/* the in-memory entry read next */
};

/* Three-way comparison of two pairs. */
static inline int
compare_pairs(const BpSortPair *a, const BpSortPair *b)
{
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

#define ST_SORT sort_pairs
#define ST_ELEMENT_TYPE BpSortPair
#define ST_COMPARE(a, b) compare_pairs(a, b)
#define ST_SCOPE static
#define ST_DECLARE
#define ST_DEFINE
#include "lib/sort_template.h"

/* Three-way comparison of two values through the column's sort support. */
static inline int
compare_values(const BpSortValue *a, const BpSortValue *b, SortSupport ssup)
{
	bool		a_null = (a->tid & ENTRY_NULL_BIT) != 0;
	bool		b_null = (b->tid & ENTRY_NULL_BIT) != 0;
	int			order;
	uint64		a_tid = a->tid & ENTRY_TID_MASK;
	uint64		b_tid = b->tid & ENTRY_TID_MASK;

	order = ApplySortComparator(a->sortkey, a_null, b->sortkey, b_null, ssup);
	if (order == 0 && ssup->abbrev_converter != NULL)
		order = ApplySortAbbrevFullComparator(a->value, a_null,
											  b->value, b_null, ssup);
	if (order == 0)
		order = (a_tid > b_tid) - (a_tid < b_tid);
	return order;
}

#define ST_SORT sort_values
#define ST_ELEMENT_TYPE BpSortValue
#define ST_COMPARE_ARG_TYPE SortSupportData
#define ST_COMPARE(a, b, ssup) compare_values(a, b, ssup)
#define ST_SCOPE static
#define ST_DECLARE
#define ST_DEFINE
#include "lib/sort_template.h"

/* The TID word of an in-memory entry. */
static inline uint64
entry_tid(ItemPointer tid, bool isnull)
{
	return ((uint64) ItemPointerGetBlockNumber(tid) << 16) |
		ItemPointerGetOffsetNumber(tid) | (isnull ? ENTRY_NULL_BIT : 0);
}

/* The heap TID and null flag of an in-memory entry's TID word. */
static inline void
entry_tid_get(uint64 word, ItemPointer tid, bool *isnull)
{
	uint64		packed = word & ENTRY_TID_MASK;

	*isnull = (word & ENTRY_NULL_BIT) != 0;
	ItemPointerSet(tid, (BlockNumber) (packed >> 16),
				   (OffsetNumber) (packed & 0xFFFF));
}

/* The key of a column value of an integer-like kind, widened to int64. */
static int64
pair_key(BpCompareKind kind, Datum value)
{
	if (!bp_integer_kind(kind) && kind != BP_CMP_BOOL)
		elog(ERROR, "bpindex: no pair key for comparison kind %d", kind);
	return bp_integer_datum(kind, value);
}

/* The column value of a pair's key (the inverse of pair_key). */
static Datum
pair_value(BpCompareKind kind, int64 key)
{
	switch (kind)
	{
		case BP_CMP_INT2:
			return Int16GetDatum((int16) key);
		case BP_CMP_INT4:
			return Int32GetDatum((int32) key);
		case BP_CMP_INT8:
			return Int64GetDatum(key);
		case BP_CMP_UINT32:
			return ObjectIdGetDatum((Oid) key);
		case BP_CMP_BOOL:
			return BoolGetDatum(key != 0);
		default:
			elog(ERROR, "bpindex: no pair key for comparison kind %d", kind);
	}
	return (Datum) 0;			/* keep compiler quiet */
}

/* The in-memory method for an index's entries, or BP_SORT_TUPLESORT. */
static BpSortMethod
in_memory_method(const BpSlotDesc *desc)
{
	if (desc->ncolumns != 1)
		return BP_SORT_TUPLESORT;
	if (desc->reverse[0] || desc->nulls_first[0])
		return BP_SORT_VALUES;
	switch (desc->cmp_kind[0])
	{
		case BP_CMP_INT2:
		case BP_CMP_INT4:
		case BP_CMP_INT8:
		case BP_CMP_UINT32:
		case BP_CMP_BOOL:
			return BP_SORT_PAIRS;
		default:
			return BP_SORT_VALUES;
	}
}

/*
 * The btree ordering operator of key column att: "<", or ">" on a DESC
 * column.
 */
static Oid
ordering_operator(BpBuildSort *sort, int att)
{
	Relation	index = sort->index;
	Oid			type = index->rd_opcintype[att];
	StrategyNumber strategy = sort->desc->reverse[att] ?
		BTGreaterStrategyNumber : BTLessStrategyNumber;
	Oid			operator = get_opfamily_member(index->rd_opfamily[att], type,
											   type, strategy);

	if (!OidIsValid(operator))
		elog(ERROR, "missing operator %d(%u,%u) in opfamily %u",
			 strategy, type, type, index->rd_opfamily[att]);
	return operator;
}

/*
 * Start a heap tuplesort over (key columns, INCLUDE columns, TID), ordered
 * by the key columns' ordering operators, NULLs last or first as each
 * column says, then by TID, in sortmem kilobytes; coordinate: a
 * participant's or the leader's sort of a parallel build, or NULL.
 */
static void
begin_tuplesort(BpBuildSort *sort, int sortmem, SortCoordinate coordinate)
{
	int			natts = sort->desc->natts;
	int			ncolumns = sort->desc->ncolumns;
	TupleDesc	sortdesc = CreateTemplateTupleDesc(ncolumns + 1);
	AttrNumber	attnums[INDEX_MAX_KEYS + 1];
	Oid			operators[INDEX_MAX_KEYS + 1];
	Oid			collations[INDEX_MAX_KEYS + 1];
	bool		nulls_first[INDEX_MAX_KEYS + 1];

	for (int i = 0; i < natts; i++)
	{
		attnums[i] = i + 1;
		operators[i] = ordering_operator(sort, i);
		collations[i] = sort->index->rd_indcollation[i];
		nulls_first[i] = sort->desc->nulls_first[i];
	}
	for (int i = 0; i < ncolumns; i++)
		TupleDescCopyEntry(sortdesc, i + 1, RelationGetDescr(sort->index), i + 1);
	TupleDescInitEntry(sortdesc, ncolumns + 1, "ctid", TIDOID, -1, 0);
	attnums[natts] = ncolumns + 1;
	operators[natts] = TIDLessOperator;
	collations[natts] = InvalidOid;
	nulls_first[natts] = false;

	sort->sort_slot = MakeSingleTupleTableSlot(sortdesc, &TTSOpsVirtual);
	sort->sorted_slot = MakeSingleTupleTableSlot(sortdesc, &TTSOpsMinimalTuple);
	sort->sort = tuplesort_begin_heap(sortdesc, natts + 1, attnums, operators,
									  collations, nulls_first,
									  sortmem, coordinate, TUPLESORT_NONE);
}

/* Feed one entry to the tuplesort. */
static void
put_in_tuplesort(BpBuildSort *sort, Datum *values, bool *isnull,
				 ItemPointer tid)
{
	TupleTableSlot *slot = sort->sort_slot;
	int			ncolumns = sort->desc->ncolumns;

	ExecClearTuple(slot);
	memcpy(slot->tts_values, values, sizeof(Datum) * ncolumns);
	memcpy(slot->tts_isnull, isnull, sizeof(bool) * ncolumns);
	slot->tts_values[ncolumns] = PointerGetDatum(tid);
	slot->tts_isnull[ncolumns] = false;
	ExecStoreVirtualTuple(slot);
	tuplesort_puttupleslot(sort->sort, slot);
}

/* Prepare the column's sort support, with abbreviation where it has one. */
static void
begin_values(BpBuildSort *sort)
{
	Relation	index = sort->index;
	SortSupport ssup = &sort->ssup;

	ssup->ssup_cxt = CurrentMemoryContext;
	ssup->ssup_collation = index->rd_indcollation[0];
	ssup->ssup_nulls_first = sort->desc->nulls_first[0];
	ssup->ssup_attno = 1;
	ssup->abbreviate = true;
	PrepareSortSupportFromOrderingOp(ordering_operator(sort, 0), ssup);
	sort->abbrev_next = 10;
	sort->arena_cxt = AllocSetContextCreate(CurrentMemoryContext,
											"bpindex build values",
											ALLOCSET_DEFAULT_SIZES);
}

/*
 * Start the in-memory array of an index's entries, sized by the number of
 * rows expected, within sortmem kilobytes.
 */
static void
begin_in_memory(BpBuildSort *sort, double rows_expected, int sortmem)
{
	BpSortMethod method = sort->method;
	double		estimate = Max(rows_expected, 0) * 1.05 + 1024;

	sort->entry_size = method == BP_SORT_PAIRS ?
		sizeof(BpSortPair) : sizeof(BpSortValue);
	sort->budget = Max((Size) sortmem * 1024, 1024 * sort->entry_size);
	sort->allocated = (int64) Min(estimate,
								  (double) (sort->budget / sort->entry_size /
											(method == BP_SORT_PAIRS ? 1 : 2)));
	sort->entries = MemoryContextAllocHuge(CurrentMemoryContext,
										   sort->entry_size * sort->allocated);
	if (method == BP_SORT_VALUES)
		begin_values(sort);
}

/*
 * Start the sort of the entries of index, whose slots desc describes:
 * rows_expected of them, in sortmem kilobytes; coordinate: a participant's
 * or the leader's sort of a parallel build, or NULL.
 */
BpBuildSort *
bp_build_sort_begin(Relation index, const BpSlotDesc *desc,
					double rows_expected, int sortmem,
					SortCoordinate coordinate)
{
	BpBuildSort *sort = palloc0(sizeof(BpBuildSort));
	BpSortMethod method = in_memory_method(desc);

	sort->index = index;
	sort->desc = desc;
	if (coordinate != NULL)
		method = BP_SORT_TUPLESORT;
	sort->method = method;
	if (method == BP_SORT_TUPLESORT)
		begin_tuplesort(sort, sortmem, coordinate);
	else
		begin_in_memory(sort, rows_expected, sortmem);
	return sort;
}

/* Bytes the in-memory sort takes, with extra more. */
static inline Size
in_memory_bytes(BpBuildSort *sort, Size extra)
{
	return sort->allocated * sort->entry_size + sort->arena_used + extra;
}

/* Room for one more in-memory entry: false once the budget is spent. */
static bool
reserve_entry(BpBuildSort *sort)
{
	int64		grown;

	if (sort->nentries < sort->allocated)
		return true;
	if (in_memory_bytes(sort, 0) >= sort->budget)
		return false;
	grown = Min(sort->allocated * 2,
				sort->allocated + (int64) ((sort->budget - in_memory_bytes(sort, 0)) /
										   sort->entry_size));
	if (grown <= sort->nentries)
		return false;
	sort->entries = repalloc_huge(sort->entries, sort->entry_size * grown);
	sort->allocated = grown;
	return true;
}

/*
 * Copy a value by reference into the arena, detoasted, into *copy; false
 * if it would take the sort beyond its budget.
 */
static bool
arena_copy(BpBuildSort *sort, Datum value, Datum *copy)
{
	char	   *bytes = DatumGetPointer(value);
	int16		typlen = sort->desc->att_len[0];
	Size		size;
	Size		pad;
	char	   *dst;

	if (typlen == -1)
		bytes = (char *) PG_DETOAST_DATUM_PACKED(value);
	size = datumGetSize(PointerGetDatum(bytes), false, typlen);
	pad = (typlen == -1 && VARATT_IS_SHORT(bytes)) ? 0 :
		MAXALIGN(sort->arena_free) - (uintptr_t) sort->arena_free;
	if (size > ARENA_LARGEST_VALUE)
	{
		if (in_memory_bytes(sort, size) > sort->budget)
			return false;
		sort->arena_used += size;
		dst = MemoryContextAlloc(sort->arena_cxt, size);
	}
	else
	{
		if (sort->arena_free == NULL || pad + size > sort->arena_left)
		{
			if (in_memory_bytes(sort, ARENA_CHUNK_SIZE) > sort->budget)
				return false;
			sort->arena_free = MemoryContextAlloc(sort->arena_cxt, ARENA_CHUNK_SIZE);
			sort->arena_left = ARENA_CHUNK_SIZE;
			sort->arena_used += ARENA_CHUNK_SIZE;
			pad = 0;
		}
		dst = sort->arena_free + pad;
		sort->arena_free += pad + size;
		sort->arena_left -= pad + size;
	}
	memcpy(dst, bytes, size);
	if (bytes != DatumGetPointer(value))
		pfree(bytes);
	*copy = PointerGetDatum(dst);
	return true;
}

/*
 * Every so often, as tuplesort does, ask the sort support whether its
 * abbreviation still distinguishes the keys; if not, sort by the values.
 */
static void
consider_abbreviation(BpBuildSort *sort)
{
	SortSupport ssup = &sort->ssup;
	BpSortValue *values = (BpSortValue *) sort->entries;

	if (ssup->abbrev_converter == NULL || sort->nentries < sort->abbrev_next)
		return;
	sort->abbrev_next *= 2;
	if (!ssup->abbrev_abort((int) Min(sort->nentries, INT_MAX), ssup))
		return;
	ssup->comparator = ssup->abbrev_full_comparator;
	ssup->abbrev_converter = NULL;
	ssup->abbrev_abort = NULL;
	ssup->abbrev_full_comparator = NULL;
	for (int64 i = 0; i < sort->nentries; i++)
		values[i].sortkey = values[i].value;
}

/* Add an entry to the in-memory array; false once the budget is spent. */
static bool
add_in_memory(BpBuildSort *sort, Datum value, bool isnull, ItemPointer tid)
{
	if (!reserve_entry(sort))
		return false;
	if (sort->method == BP_SORT_PAIRS)
	{
		BpSortPair *pair = (BpSortPair *) sort->entries + sort->nentries++;

		pair->key = isnull ? PG_INT64_MAX :
			pair_key(sort->desc->cmp_kind[0], value);
		pair->tid = entry_tid(tid, isnull);
	}
	else
	{
		BpSortValue *entry = (BpSortValue *) sort->entries + sort->nentries;

		entry->value = value;
		if (!isnull && !sort->desc->att_byval[0] && !arena_copy(sort, value, &entry->value))
			return false;
		entry->sortkey = (!isnull && sort->ssup.abbrev_converter != NULL) ?
			sort->ssup.abbrev_converter(entry->value, &sort->ssup) :
			entry->value;
		entry->tid = entry_tid(tid, isnull);
		sort->nentries++;
		consider_abbreviation(sort);
	}
	return true;
}

/* The value, null flag and heap TID of in-memory entry i. */
static void
in_memory_entry(BpBuildSort *sort, int64 i, Datum *value, bool *isnull,
				ItemPointer tid)
{
	if (sort->method == BP_SORT_PAIRS)
	{
		BpSortPair *pair = (BpSortPair *) sort->entries + i;

		entry_tid_get(pair->tid, tid, isnull);
		*value = *isnull ? (Datum) 0 :
			pair_value(sort->desc->cmp_kind[0], pair->key);
	}
	else
	{
		BpSortValue *entry = (BpSortValue *) sort->entries + i;

		entry_tid_get(entry->tid, tid, isnull);
		*value = *isnull ? (Datum) 0 : entry->value;
	}
}

/* Free the in-memory array and the arena. */
static void
free_in_memory(BpBuildSort *sort)
{
	pfree(sort->entries);
	sort->entries = NULL;
	sort->nentries = 0;
	if (sort->arena_cxt != NULL)
		MemoryContextDelete(sort->arena_cxt);
	sort->arena_cxt = NULL;
}

/* Move every in-memory entry into a new tuplesort. */
static void
spill_in_memory(BpBuildSort *sort)
{
	int			sortmem = (int) (sort->budget / 1024);

	ereport(DEBUG1,
			(errmsg_internal("bpindex: the sort of index \"%s\" outgrew memory and continues in a tuplesort",
							 RelationGetRelationName(sort->index))));
	begin_tuplesort(sort, sortmem, NULL);
	for (int64 i = 0; i < sort->nentries; i++)
	{
		Datum		value;
		bool		isnull;
		ItemPointerData tid;

		in_memory_entry(sort, i, &value, &isnull, &tid);
		put_in_tuplesort(sort, &value, &isnull, &tid);
	}
	free_in_memory(sort);
	sort->method = BP_SORT_TUPLESORT;
}

/* Add one entry: its column values, their null flags and its heap TID. */
void
bp_build_sort_put(BpBuildSort *sort, Datum *values, bool *isnull,
				  ItemPointer tid)
{
	if (sort->method != BP_SORT_TUPLESORT &&
		!add_in_memory(sort, values[0], isnull[0], tid))
		spill_in_memory(sort);
	if (sort->method == BP_SORT_TUPLESORT)
		put_in_tuplesort(sort, values, isnull, tid);
}

/* Sort the entries added. */
void
bp_build_sort_perform(BpBuildSort *sort)
{
	switch (sort->method)
	{
		case BP_SORT_PAIRS:
			ereport(DEBUG1,
					(errmsg_internal("bpindex: sorting " INT64_FORMAT " entries of index \"%s\" in memory, as pairs",
									 sort->nentries,
									 RelationGetRelationName(sort->index))));
			sort_pairs((BpSortPair *) sort->entries, sort->nentries);
			break;
		case BP_SORT_VALUES:
			ereport(DEBUG1,
					(errmsg_internal("bpindex: sorting " INT64_FORMAT " entries of index \"%s\" in memory, as values%s",
									 sort->nentries,
									 RelationGetRelationName(sort->index),
									 sort->ssup.abbrev_converter ?
									 " with abbreviated keys" : "")));
			sort_values((BpSortValue *) sort->entries, sort->nentries,
						&sort->ssup);
			break;
		case BP_SORT_TUPLESORT:
			tuplesort_performsort(sort->sort);
			break;
	}
}

/* Form the slot of the next sorted entry into entry; false at the end. */
bool
bp_build_sort_next(BpBuildSort *sort, char *entry)
{
	TupleTableSlot *slot = sort->sorted_slot;
	int			ncolumns = sort->desc->ncolumns;

	if (sort->method != BP_SORT_TUPLESORT)
	{
		Datum		value;
		bool		isnull;
		ItemPointerData tid;

		if (sort->next >= sort->nentries)
			return false;
		in_memory_entry(sort, sort->next++, &value, &isnull, &tid);
		bp_form_slot(sort->desc, entry, &value, &isnull, &tid);
		return true;
	}
	if (!tuplesort_gettupleslot(sort->sort, true, false, slot, NULL))
		return false;
	slot_getallattrs(slot);
	bp_form_slot(sort->desc, entry, slot->tts_values, slot->tts_isnull,
				 (ItemPointer) DatumGetPointer(slot->tts_values[ncolumns]));
	return true;
}

/* Free the sort. */
void
bp_build_sort_end(BpBuildSort *sort)
{
	if (sort->method == BP_SORT_TUPLESORT)
	{
		tuplesort_end(sort->sort);
		ExecDropSingleTupleTableSlot(sort->sort_slot);
		ExecDropSingleTupleTableSlot(sort->sorted_slot);
	}
	else
		free_in_memory(sort);
	pfree(sort);
}

/* What the heap scan of a participant feeds its sort through. */
typedef struct BpSortPartState
{
	BpBuildSort *sort;
	double		indtuples;
} BpSortPartState;

/* Feed one heap tuple's index entry to a participant's sort. */
static void
sort_part_callback(Relation index, ItemPointer tid, Datum *values,
				   bool *isnull, bool tupleIsAlive, void *arg)
{
	BpSortPartState *state = (BpSortPartState *) arg;

	bp_build_sort_put(state->sort, values, isnull, tid);
	state->indtuples += 1;
}

/*
 * A participant of a parallel build: sort the entries of the heap tuples
 * that scan returns in a tuplesort of sortmem kilobytes coordinated by
 * coordinate.  Returns the heap tuples scanned; the entries in *indtuples.
 */
double
bp_build_sort_part(Relation heap, Relation index, IndexInfo *indexInfo,
				   TableScanDesc scan, int sortmem, SortCoordinate coordinate,
				   double *indtuples)
{
	BpSlotDesc	desc;
	BpSortPartState state = {0};
	double		reltuples;

	BpOptions	opts = bp_index_options(index);

	bp_init_slot_desc(index, &desc, true);
	desc.max_key_bytes = bp_max_key_bytes(&desc, &opts);
	state.sort = bp_build_sort_begin(index, &desc, -1, sortmem, coordinate);
	reltuples = table_index_build_scan(heap, index, indexInfo, true, false,
									   sort_part_callback, &state, scan);
	bp_build_sort_perform(state.sort);
	bp_build_sort_end(state.sort);
	*indtuples = state.indtuples;
	return reltuples;
}
