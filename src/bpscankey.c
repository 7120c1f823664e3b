/*-------------------------------------------------------------------------
 *
 * bpscankey.c
 *	  Scan key preparation and the range predicates they define.
 *
 * A scan's keys define a range of the index order.  bp_below_range and
 * bp_above_range are monotone predicates over slots (true for a prefix,
 * respectively a suffix, of the sorted order) that bound it, in the way
 * nbtree's "required" keys do: they look at each key column in turn as
 * long as the previous columns are pinned by = or IS NULL keys.  The
 * descent, the leaf-to-leaf walk and the BPA's block selection all use
 * them.  Every entry inside the bounds is still tested against all keys.
 *
 * A skip scan (bp_prepare_keys) adds an = key, a skip key, on each key
 * column before the last one with a key, when one of those columns would
 * stop the bounds: the scan then walks the distinct values of that prefix
 * of columns, each bounding a range as if its columns had = keys.  The
 * outer range, the one the scan's own keys bound, is where the prefixes
 * are sought (bp_below_outer_range, bp_before_next_prefix, ...).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "catalog/pg_type_d.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/sortsupport.h"

#include "bpscankey.h"
#include "bpslot.h"

/* Context of compare_elements: the elements' comparison. */
typedef struct ElementOrder
{
	FmgrInfo	cmp;
	Oid			collation;
} ElementOrder;

/* Does key pin its column to a single value (= or IS NULL)? */
static inline bool
key_is_equality(const BpScanKey *key)
{
	return key->strategy == BTEqualStrategyNumber ||
		(key->flags & SK_SEARCHNULL) != 0;
}

/*
 * The support function 1 of (lefttype, righttype) in the operator family
 * of index column att, or an error naming the index.
 */
static Oid
comparison_proc(Relation index, int att, Oid lefttype, Oid righttype)
{
	Oid			proc = get_opfamily_proc(index->rd_opfamily[att], lefttype,
										 righttype, 1);

	if (!OidIsValid(proc))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("missing support function 1(%s,%s) in operator family of index \"%s\"",
						format_type_be(lefttype), format_type_be(righttype),
						RelationGetRelationName(index))));
	return proc;
}

/*
 * Look up the comparison function between the index column's type and
 * the key's argument type in the column's operator family.
 */
static void
lookup_key_comparison(Relation index, int att, Oid subtype, FmgrInfo *cmp)
{
	Oid			opcintype = index->rd_opcintype[att];

	if (!OidIsValid(subtype) || subtype == opcintype)
	{
		fmgr_info_copy(cmp, index_getprocinfo(index, att + 1, 1),
					   CurrentMemoryContext);
		return;
	}
	fmgr_info(comparison_proc(index, att, opcintype, subtype), cmp);
}

/*
 * Do arguments of type subtype widen exactly to column att's own integer
 * type (int2 to int4 or int8, int4 to int8)?  A key with such an argument
 * (an integer literal against a bigint column) then compares inline, as
 * one of the column's own type does.
 */
static bool
argument_widens(Relation index, int att, Oid subtype)
{
	Oid			opcintype = index->rd_opcintype[att];

	return (opcintype == INT8OID && (subtype == INT4OID || subtype == INT2OID)) ||
		(opcintype == INT4OID && subtype == INT2OID);
}

/* An integer argument of type subtype as one of column att's type. */
static Datum
widen_argument(Relation index, int att, Oid subtype, Datum argument)
{
	int64		value = subtype == INT2OID ? DatumGetInt16(argument) :
		DatumGetInt32(argument);

	return index->rd_opcintype[att] == INT8OID ? Int64GetDatum(value) :
		Int32GetDatum((int32) value);
}

/*
 * What a value key's strategy means, once: comparing a column value with
 * the argument, a result below below_limit puts the value below the key's
 * range, one above above_limit above it.
 */
static void
set_range_limits(BpScanKey *key)
{
	key->below_limit = INT_MIN;
	key->above_limit = INT_MAX;
	switch (key->strategy)
	{
		case BTLessStrategyNumber:
			key->above_limit = -1;
			break;
		case BTLessEqualStrategyNumber:
			key->above_limit = 0;
			break;
		case BTEqualStrategyNumber:
			key->below_limit = 0;
			key->above_limit = 0;
			break;
		case BTGreaterEqualStrategyNumber:
			key->below_limit = 0;
			break;
		case BTGreaterStrategyNumber:
			key->below_limit = 1;
			break;
		default:
			elog(ERROR, "unrecognized bpindex strategy number %d", key->strategy);
	}
}

/* qsort_arg comparator of array elements. */
static int
compare_elements(const void *a, const void *b, void *arg)
{
	ElementOrder *order = (ElementOrder *) arg;

	return DatumGetInt32(FunctionCall2Coll(&order->cmp, order->collation,
										   *(const Datum *) a,
										   *(const Datum *) b));
}

/*
 * The sorted distinct non-NULL elements of an array key's argument, in
 * *elems; returns their count.  They are compared with the comparison of
 * the key's argument type in the column's operator family: the type of its
 * operator's right side (anyenum, say, for an array of an enum), as nbtree
 * sorts them.
 */
static int
sorted_array_elements(Relation index, const ScanKey sk, Datum **elems)
{
	ArrayType  *array = DatumGetArrayTypeP(sk->sk_argument);
	Oid			elemtype = ARR_ELEMTYPE(array);
	int			att = sk->sk_attno - 1;
	Oid			ordertype = OidIsValid(sk->sk_subtype) ? sk->sk_subtype :
		index->rd_opcintype[att];
	ElementOrder order;
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	bool	   *nulls;
	Datum	   *values;
	int			n;
	int			kept = 0;

	get_typlenbyvalalign(elemtype, &elmlen, &elmbyval, &elmalign);
	deconstruct_array(array, elemtype, elmlen, elmbyval, elmalign,
					  &values, &nulls, &n);
	for (int i = 0; i < n; i++)
		if (!nulls[i])
			values[kept++] = values[i];	/* "col = NULL" matches nothing */
	fmgr_info(comparison_proc(index, att, ordertype, ordertype), &order.cmp);
	order.collation = sk->sk_collation;
	qsort_arg(values, kept, sizeof(Datum), compare_elements, &order);
	n = 0;
	for (int i = 0; i < kept; i++)
		if (n == 0 || compare_elements(&values[n - 1], &values[i], &order) != 0)
			values[n++] = values[i];
	*elems = values;
	return n;
}

/* Is sk an = ANY(array) key? */
static inline bool
is_equality_array(const ScanKey sk)
{
	return (sk->sk_flags & SK_SEARCHARRAY) &&
		sk->sk_strategy == BTEqualStrategyNumber;
}

/*
 * Which = ANY(array) key drives primitive scans: the first, by column, of
 * those whose earlier columns all have a plain = or IS NULL key, or are
 * among the first nskip columns, which a skip scan pins (one primitive
 * scan per element then returns entries in index order).  Returns its
 * position in scankey, or -1.
 */
static int
choose_driving_array(const ScanKey scankey, int nkeys, int nskip)
{
	int			best = -1;

	for (int i = 0; i < nkeys; i++)
	{
		int			att = scankey[i].sk_attno;
		bool		pinned = true;

		if (!is_equality_array(&scankey[i]) ||
			(best >= 0 && scankey[best].sk_attno <= att))
			continue;
		for (int before = nskip + 1; before < att && pinned; before++)
		{
			pinned = false;
			for (int j = 0; j < nkeys; j++)
				if (scankey[j].sk_attno == before && !(scankey[j].sk_flags & SK_SEARCHARRAY) &&
					((scankey[j].sk_flags & SK_SEARCHNULL) ||
					 (!(scankey[j].sk_flags & (SK_SEARCHNOTNULL | SK_ISNULL)) &&
					  scankey[j].sk_strategy == BTEqualStrategyNumber)))
					pinned = true;
		}
		if (pinned)
			best = i;
	}
	return best;
}

/* Does sk pin its column to one value: a plain = or IS NULL key? */
static bool
pins_column(const ScanKey sk)
{
	if (sk->sk_flags & SK_SEARCHNULL)
		return true;
	return !(sk->sk_flags & (SK_SEARCHARRAY | SK_SEARCHNOTNULL | SK_ISNULL)) &&
		sk->sk_strategy == BTEqualStrategyNumber;
}

/* What pins column att among the scan's keys: an =, IS NULL or = ANY key. */
static bool
column_pinned(const ScanKey scankey, int nkeys, int att, bool *by_array)
{
	bool		pinned = false;

	*by_array = false;
	for (int i = 0; i < nkeys; i++)
		if (scankey[i].sk_attno - 1 == att)
		{
			*by_array |= is_equality_array(&scankey[i]);
			pinned |= pins_column(&scankey[i]) || is_equality_array(&scankey[i]);
		}
	return pinned;
}

/*
 * How many leading key columns a skip scan walks the values of: those
 * through the last one without an =, = ANY or IS NULL key before the last
 * column with a value or IS NULL key (the bounds of the range stop at the
 * first such column).  The later columns' = keys bound each prefix's
 * range, and an = ANY key there drives primitive scans inside each prefix.
 * An = ANY key before the first column without one drives the prefix
 * instead: each element's range is a skip scan of its own
 * (BpScanKeys.drive_in_prefix).  0: the scan does not skip, also when an
 * = ANY key lies between two columns without one.
 */
static int
skip_prefix_columns(const ScanKey scankey, int nkeys)
{
	int			last = -1;
	int			first_free = -1;
	int			last_free = -1;
	int			array_after_free = -1;

	for (int i = 0; i < nkeys; i++)
		if (!(scankey[i].sk_flags & SK_SEARCHNOTNULL))
			last = Max(last, scankey[i].sk_attno - 1);
	for (int att = 0; att < last; att++)
	{
		bool		by_array;

		if (!column_pinned(scankey, nkeys, att, &by_array))
		{
			if (first_free < 0)
				first_free = att;
			last_free = att;
		}
		else if (by_array && first_free >= 0)
			array_after_free = att;
	}
	if (first_free < 0 ||
		(array_after_free > first_free && array_after_free < last_free))
		return 0;
	return last_free + 1;
}

/*
 * Count in the key just written after out's keys, moving it before those
 * of later columns (the keys stay ordered by column, stably); returns it.
 */
static BpScanKey *
place_new_key(BpScanKeys *out)
{
	int			pos = out->nkeys;
	BpScanKey	key = out->keys[pos];

	for (; pos > 0 && out->keys[pos - 1].attno > key.attno; pos--)
		out->keys[pos] = out->keys[pos - 1];
	out->keys[pos] = key;
	out->nkeys++;
	return &out->keys[pos];
}

/*
 * The key prefix of a key's argument, which has the type of its key
 * column, so that entries whose prefixes differ from it compare without
 * the comparison function where the order is bytewise, and equal keys are
 * found by their bytes where equality is (point_bytes).
 */
static void
set_argument_prefix(const BpSlotDesc *desc, BpScanKey *key)
{
	const char *value = (const char *) PG_DETOAST_DATUM_PACKED(key->argument);

	bp_key_prefix(desc, key->attno, key->prefix, value);
	key->argument = PointerGetDatum(value);
}

/* Add a value key (strategy, argument) on sk's column to out. */
static BpScanKey *
add_value_key(Relation index, const ScanKey sk, StrategyNumber strategy,
			  Datum argument, BpScanKeys *out)
{
	BpScanKey  *key = &out->keys[out->nkeys];
	Oid			subtype = sk->sk_subtype;

	key->attno = sk->sk_attno - 1;
	if (argument_widens(index, key->attno, subtype))
	{
		argument = widen_argument(index, key->attno, subtype, argument);
		subtype = index->rd_opcintype[key->attno];
	}
	key->flags = 0;
	key->strategy = strategy;
	key->argument = argument;
	key->collation = sk->sk_collation;
	key->drives_array = false;
	key->skip = false;
	set_range_limits(key);
	lookup_key_comparison(index, key->attno, subtype, &key->cmp);
	key->kind = BP_CMP_FMGR;
	key->has_prefix = false;
	key->order = NULL;
	if (out->desc->key_order[key->attno] != NULL &&
		key->cmp.fn_oid == out->desc->cmp_proc[key->attno]->fn_oid &&
		key->collation == out->desc->collation[key->attno])
		key->order = out->desc->key_order[key->attno];
	if (!OidIsValid(subtype) || subtype == index->rd_opcintype[key->attno])
	{
		key->kind = out->desc->cmp_kind[key->attno];
		key->has_prefix = out->desc->att_len[key->attno] == -1;
	}
	if (key->has_prefix)
		set_argument_prefix(out->desc, key);
	return place_new_key(out);
}

/* Add an IS NULL / IS NOT NULL key on sk's column to out. */
static void
add_null_key(const ScanKey sk, BpScanKeys *out)
{
	BpScanKey  *key = &out->keys[out->nkeys];

	key->attno = sk->sk_attno - 1;
	key->flags = sk->sk_flags & (SK_SEARCHNULL | SK_SEARCHNOTNULL);
	key->strategy = InvalidStrategy;
	key->kind = BP_CMP_FMGR;
	key->order = NULL;
	key->has_prefix = false;
	key->drives_array = false;
	key->skip = false;
	place_new_key(out);
}

/*
 * Add the skip key of column att to out: = with the column's own
 * comparison, its argument set with each prefix (bp_set_prefix).
 */
static void
add_skip_key(Relation index, int att, BpScanKeys *out)
{
	BpScanKey  *key = &out->keys[out->nkeys];

	key->attno = att;
	key->flags = 0;
	key->strategy = BTEqualStrategyNumber;
	key->argument = (Datum) 0;
	key->collation = out->desc->collation[att];
	key->drives_array = false;
	key->skip = true;
	set_range_limits(key);
	fmgr_info_copy(&key->cmp, index_getprocinfo(index, att + 1, 1),
				   CurrentMemoryContext);
	key->order = out->desc->key_order[att];
	key->kind = out->desc->cmp_kind[att];
	key->has_prefix = out->desc->att_len[att] == -1;
	memset(key->prefix, 0, sizeof(key->prefix));
	place_new_key(out);
}

/*
 * An array key: = ANY that drives the scan becomes an = key on the current
 * element; another = ANY becomes a range [first, last] and a filter;
 * < ANY, <= ANY keep the last element, > ANY, >= ANY the first.
 */
static void
add_array_key(Relation index, const ScanKey sk, bool drives, BpScanKeys *out)
{
	Datum	   *elems;
	int			n = sorted_array_elements(index, sk, &elems);
	Datum	   *keyed = elems;	/* as the keys compare them */
	const BpScanKey *first;
	BpScanFilter *filter;

	if (n == 0)
	{
		out->unsatisfiable = true;
		return;
	}
	if (argument_widens(index, sk->sk_attno - 1, sk->sk_subtype))
	{
		keyed = palloc(n * sizeof(Datum));
		for (int i = 0; i < n; i++)
			keyed[i] = widen_argument(index, sk->sk_attno - 1, sk->sk_subtype,
									  elems[i]);
	}
	switch (sk->sk_strategy)
	{
		case BTLessStrategyNumber:
		case BTLessEqualStrategyNumber:
			add_value_key(index, sk, sk->sk_strategy, elems[n - 1], out);
			return;
		case BTGreaterStrategyNumber:
		case BTGreaterEqualStrategyNumber:
			add_value_key(index, sk, sk->sk_strategy, elems[0], out);
			return;
	}
	if (drives)
	{
		bool		reverse = out->desc->reverse[sk->sk_attno - 1];
		Datum		first_elem = reverse ? elems[n - 1] : elems[0];

		/* the elements in index order: descending on a DESC column */
		if (reverse)
			for (int i = 0; i < n / 2; i++)
			{
				Datum		swap = keyed[i];

				keyed[i] = keyed[n - 1 - i];
				keyed[n - 1 - i] = swap;
			}
		add_value_key(index, sk, BTEqualStrategyNumber, first_elem,
					  out)->drives_array = true;
		out->drive_elems = keyed;
		out->drive_nelems = n;
		return;
	}
	/* the filter compares as the range key does */
	first = add_value_key(index, sk, BTGreaterEqualStrategyNumber, elems[0], out);
	filter = &out->filters[out->nfilters++];
	filter->attno = first->attno;
	filter->collation = first->collation;
	filter->cmp = first->cmp;
	filter->order = first->order;
	/* elements compare through the function: they have no prefixes */
	filter->kind = first->kind == BP_CMP_PREFIX ? BP_CMP_FMGR : first->kind;
	add_value_key(index, sk, BTLessEqualStrategyNumber, elems[n - 1], out);
	filter->elems = keyed;
	filter->nelems = n;
}

/*
 * Turn the executor's scan keys into BpScanKeys ordered by column, for
 * a parallel scan or not.  out->keys must have room for 2 * nkeys entries
 * and out->filters for nkeys, out->desc is the scan's copy of the index's
 * slot descriptor.  Array elements are allocated in the current memory
 * context.
 */
void
bp_prepare_keys(Relation index, ScanKey scankey, int nkeys, bool parallel,
				BpScanKeys *out)
{
	int			pinned_through = -1;
	int			nskip = skip_prefix_columns(scankey, nkeys);
	int			driving = choose_driving_array(scankey, nkeys, nskip);

	/*
	 * A parallel skip scan's participants read whole leaves, filtering: an
	 * array after the prefix filters rather than drives primitive scans
	 * inside each prefix.
	 */
	if (parallel && nskip > 0 && driving >= 0 &&
		scankey[driving].sk_attno > nskip)
		driving = -1;

	out->nskip = nskip;
	out->prefix_set = false;
	out->unsatisfiable = false;
	out->nkeys = 0;
	out->nfilters = 0;
	out->drive_key = -1;
	out->drive_elems = NULL;
	out->drive_nelems = 0;
	for (int i = 0; i < nkeys && !out->unsatisfiable; i++)
	{
		ScanKey		sk = &scankey[i];

		if (sk->sk_flags & (SK_SEARCHNULL | SK_SEARCHNOTNULL))
			add_null_key(sk, out);
		else if (sk->sk_flags & SK_ISNULL)
			out->unsatisfiable = true;	/* "col op NULL" is never true */
		else if (sk->sk_flags & SK_SEARCHARRAY)
			add_array_key(index, sk, i == driving, out);
		else
			add_value_key(index, sk, sk->sk_strategy, sk->sk_argument, out);
	}
	for (int att = 0; att < nskip; att++)
		add_skip_key(index, att, out);
	if (nskip > 0)
	{
		out->prefix = palloc(out->desc->width);
		out->prefix_keys = bp_keys_buffer(out->desc);
	}
	for (int i = 0; i < out->nkeys; i++)
		if (out->keys[i].drives_array)
			out->drive_key = i;
	out->drive_elem = 0;
	out->drive_in_prefix = out->drive_key >= 0 &&
		out->keys[out->drive_key].attno < nskip;

	out->first_column_inline = out->nkeys > 0 &&
		!out->desc->reverse[0] && !out->desc->nulls_first[0];
	for (int i = 0; i < out->nkeys; i++)
		if (out->keys[i].attno != 0 || out->keys[i].flags != 0 ||
			out->keys[i].kind == BP_CMP_FMGR || out->keys[i].kind == BP_CMP_PREFIX)
			out->first_column_inline = false;

	out->inline_columns = true;
	for (int i = 0; i < out->nkeys; i++)
	{
		const BpScanKey *key = &out->keys[i];

		if ((key->flags != 0 && !key->skip) || key->kind == BP_CMP_FMGR ||
			key->kind == BP_CMP_PREFIX || out->desc->reverse[key->attno] ||
			out->desc->nulls_first[key->attno])
			out->inline_columns = false;
	}

	out->point_bytes = out->nkeys == 1 && out->nfilters == 0 &&
		out->keys[0].attno == 0 && out->keys[0].flags == 0 &&
		out->keys[0].strategy == BTEqualStrategyNumber &&
		out->keys[0].has_prefix && out->desc->equal_bytes[0];
	out->first_column_prefix = out->nkeys > 0 &&
		!out->desc->reverse[0] && !out->desc->nulls_first[0];
	for (int i = 0; i < out->nkeys; i++)
		if (out->keys[i].attno != 0 || out->keys[i].flags != 0 ||
			out->keys[i].kind != BP_CMP_PREFIX)
			out->first_column_prefix = false;

	/* exact: every keyed column follows columns pinned by equality keys */
	out->exact = out->nfilters == 0;
	for (int i = 0; i < out->nkeys; i++)
	{
		if (out->keys[i].attno > pinned_through + 1)
			out->exact = false;
		if (key_is_equality(&out->keys[i]) &&
			out->keys[i].attno == pinned_through + 1)
			pinned_through = out->keys[i].attno;
	}
	/* the skip keys pin their columns only while there is a prefix */
	out->skip_exact = out->exact;
	if (nskip > 0)
		out->exact = false;
}

/*
 * Make the skip keys of a skip scan pin the prefix columns to the values
 * (or NULLs) of slot, a logical slot: one primitive scan's range.
 */
void
bp_set_prefix(BpScanKeys *keys, const char *slot)
{
	const BpSlotDesc *desc = keys->desc;

	Assert(keys->nskip > 0);
	bp_slot_copy_keys(desc, slot, keys->prefix, keys->prefix_keys, false);
	for (int i = 0; i < keys->nkeys; i++)
	{
		BpScanKey  *key = &keys->keys[i];

		if (!key->skip)
			continue;
		key->flags = bp_slot_isnull(desc, keys->prefix, key->attno) ?
			SK_SEARCHNULL : 0;
		if (key->flags != 0)
			continue;
		key->argument = bp_slot_datum(desc, keys->prefix, key->attno);
		if (key->has_prefix)
			set_argument_prefix(desc, key);
	}
	keys->prefix_set = true;
	keys->exact = keys->skip_exact;
}

/* Leave a skip scan without a prefix: its skip keys impose nothing. */
void
bp_clear_prefix(BpScanKeys *keys)
{
	keys->prefix_set = false;
	keys->exact = false;
}

/* Do two logical slots have the same prefix of a skip scan? */
bool
bp_same_prefix(const BpScanKeys *keys, const char *a, const char *b)
{
	return bp_compare_slot_prefix(keys->desc, keys->nskip, a, b) == 0;
}

/* Make the driving array key of keys take element elem of its array. */
void
bp_set_array_element(BpScanKeys *keys, int elem)
{
	BpScanKey  *key = &keys->keys[keys->drive_key];

	Assert(keys->drive_key >= 0 && elem >= 0 && elem < keys->drive_nelems);
	keys->drive_elem = elem;
	key->argument = keys->drive_elems[elem];
	if (key->has_prefix)
		set_argument_prefix(keys->desc, key);
}

/*
 * Compare column att of slot (not NULL) with argument, inline or through
 * the key's comparison function.
 */
static inline int32
compare_column(BpCompareKind kind, const FmgrInfo *cmp, SortSupport order,
			   Oid collation, const BpSlotDesc *desc, const char *slot, int att,
			   Datum argument, const char *prefix)
{
	if (kind == BP_CMP_PREFIX)
	{
		int			c = bp_compare_prefixes(slot + desc->att_offset[att], prefix);

		if (c != 0)
			return c;
	}
	else if (kind != BP_CMP_FMGR)
		return bp_compare_inline(kind, slot + desc->att_offset[att], argument,
								 desc->att_len[att]);
	if (order != NULL)
		return order->comparator(bp_slot_datum(desc, slot, att), argument, order);
	return DatumGetInt32(FunctionCall2Coll((FmgrInfo *) cmp, collation,
										   bp_slot_datum(desc, slot, att),
										   argument));
}

/* Does column filter->attno of slot hold one of the filter's elements? */
static bool
filter_matches(const BpScanFilter *filter, const BpSlotDesc *desc,
			   const char *slot)
{
	/* filters never compare prefixes (their kind is not BP_CMP_PREFIX) */
	static const char no_prefix[BP_KEY_PREFIX_SIZE] = {0};

	int			lo = 0;
	int			hi = filter->nelems;

	if (bp_slot_isnull(desc, slot, filter->attno))
		return false;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int32		c = compare_column(filter->kind, &filter->cmp, filter->order,
									   filter->collation, desc, slot,
									   filter->attno, filter->elems[mid],
									   no_prefix);

		if (c == 0)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/*
 * Test one key against the corresponding column of slot: a match, or the
 * side of the key's range on which the slot lies in index order.
 */
static inline BpKeyResult
test_key(const BpScanKey *key, const BpSlotDesc *desc, const char *slot)
{
	int			att = key->attno;
	BpKeyResult side;
	int32		c;

	if (bp_key_null_side(key, desc->nulls_first[att],
						 bp_slot_isnull(desc, slot, att), &side))
		return side;
	c = compare_column(key->kind, &key->cmp, key->order, key->collation, desc, slot,
					   att, key->argument, key->prefix);
	if (c >= key->below_limit && c <= key->above_limit)
		return BP_KEY_MATCH;
	/* below the key's values, which is above them on a DESC column */
	return (c < key->below_limit) != desc->reverse[att] ? BP_KEY_BELOW : BP_KEY_ABOVE;
}

/*
 * Is a key of keys to be ignored: a skip key while there is no prefix, or
 * any skip key for the outer range?
 */
static inline bool
ignored_key(const BpScanKeys *keys, const BpScanKey *key, bool outer)
{
	return key->skip && (outer || !keys->prefix_set);
}

/* Test every key; the first failure tells on which side the entry lies. */
BpKeyResult
bp_test_keys(const BpScanKeys *keys, const char *slot)
{
	for (int i = 0; i < keys->nkeys; i++)
	{
		BpKeyResult result;

		if (ignored_key(keys, &keys->keys[i], false))
			continue;
		result = test_key(&keys->keys[i], keys->desc, slot);
		if (result != BP_KEY_MATCH)
			return result;
	}
	for (int i = 0; i < keys->nfilters; i++)
		if (!filter_matches(&keys->filters[i], keys->desc, slot))
			return BP_KEY_BELOW;	/* between two elements: no side */
	return BP_KEY_MATCH;
}

/*
 * Does the column of key, the driving array's, hold in slot one of the
 * array's elements?  They are in index order.
 */
static bool
drive_array_holds(const BpScanKeys *keys, const BpScanKey *key,
				  const char *slot)
{
	const BpSlotDesc *desc = keys->desc;
	int			lo = 0;
	int			hi = keys->drive_nelems;

	if (bp_slot_isnull(desc, slot, key->attno))
		return false;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		char		prefix[BP_KEY_PREFIX_SIZE];
		int32		c;

		if (key->has_prefix)
			bp_key_prefix(desc, key->attno, prefix,
						  DatumGetPointer(keys->drive_elems[mid]));
		c = compare_column(key->kind, &key->cmp, key->order, key->collation,
						   desc, slot, key->attno, keys->drive_elems[mid],
						   prefix);
		if (c == 0)
			return true;
		if ((c < 0) != desc->reverse[key->attno])
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/*
 * Does slot match the keys of the outer range of a skip scan: every key
 * but the skip keys, the driving array's key as the whole array (as its
 * current element when its column lies in the prefix)?
 */
bool
bp_test_outer_keys(const BpScanKeys *keys, const char *slot)
{
	for (int i = 0; i < keys->nkeys; i++)
	{
		const BpScanKey *key = &keys->keys[i];

		if (key->skip)
			continue;
		if (key->drives_array && !keys->drive_in_prefix ?
			!drive_array_holds(keys, key, slot) :
			test_key(key, keys->desc, slot) != BP_KEY_MATCH)
			return false;
	}
	for (int i = 0; i < keys->nfilters; i++)
		if (!filter_matches(&keys->filters[i], keys->desc, slot))
			return false;
	return true;
}

/*
 * The side of key's range on which column att of slot lies, for keys with
 * inline_columns: one inline comparison, NULLs after every value.
 */
static inline BpKeyResult
inline_key_side(const BpScanKey *key, const BpSlotDesc *desc, const char *slot,
				int att)
{
	BpKeyResult side;

	if (bp_key_null_side(key, false, bp_slot_isnull(desc, slot, att), &side))
		return side;
	return bp_key_side(key, bp_compare_inline(key->kind, slot + desc->att_offset[att],
											  key->argument, desc->att_len[att]));
}

/*
 * Is slot outside the range on the given side?  Walks the key columns in
 * order; a column is looked at only while all earlier columns are pinned
 * by equality keys that the slot satisfies.  The outer range of a skip
 * scan ignores the skip keys, as does a skip scan without a prefix.  Keys
 * with inline_columns may test each key inline (inline_tests).
 */
static pg_attribute_always_inline bool
walk_columns(const BpScanKeys *keys, const char *slot, BpKeyResult side,
			 bool outer, bool inline_tests)
{
	int			i = 0;

	for (int att = 0; i < keys->nkeys && keys->keys[i].attno == att; att++)
	{
		bool		pinned = false;
		bool		all_equal = true;

		for (; i < keys->nkeys && keys->keys[i].attno == att; i++)
		{
			const BpScanKey *key = &keys->keys[i];
			BpKeyResult result;

			if (ignored_key(keys, key, outer))
				continue;
			result = inline_tests ? inline_key_side(key, keys->desc, slot, att) :
				test_key(key, keys->desc, slot);
			if (result == side)
				return true;
			if (key_is_equality(key))
			{
				pinned = true;
				all_equal &= result == BP_KEY_MATCH;
			}
		}
		if (!pinned || !all_equal)
			return false;
	}
	return false;
}

/* walk_columns testing each key in general. */
static bool
outside_range(const BpScanKeys *keys, const char *slot, BpKeyResult side,
			  bool outer)
{
	return walk_columns(keys, slot, side, outer, false);
}

/*
 * outside_range of the range (not the outer one) for keys with
 * inline_columns: each key one inline comparison.
 */
static bool
outside_inline_columns(const BpScanKeys *keys, const char *slot,
					   BpKeyResult side)
{
	return walk_columns(keys, slot, side, false, true);
}

/*
 * outside_range for keys with first_column_inline: is slot below the range
 * (below) or above it (!below)?  One inline comparison per key.
 */
static inline bool
outside_first_column(const BpScanKeys *keys, const char *slot, bool below)
{
	const BpSlotDesc *desc = keys->desc;
	const char *value = slot + desc->att_offset[0];

	if (bp_slot_isnull(desc, slot, 0))
		return !below;			/* NULLs sort after every value */
	for (int i = 0; i < keys->nkeys; i++)
	{
		const BpScanKey *key = &keys->keys[i];
		int			c = bp_compare_inline(key->kind, value, key->argument,
										  desc->att_len[0]);

		if (below ? c < key->below_limit : c > key->above_limit)
			return true;
	}
	return false;
}

/* The integer of kind (bp_integer_kind) stored at p. */
static inline int64
integer_at(BpCompareKind kind, const char *p)
{
	int16		len = kind == BP_CMP_INT2 ? 2 : kind == BP_CMP_INT8 ? 8 : 4;

	return bp_integer_datum(kind, bp_fetch_byval(p, len));
}

/*
 * Narrow col's limit on one side (lower or not) to the one of key: the
 * tighter value, and where two are equal, strict if either is.
 */
static void
narrow_integer_limit(BpIntegerBoundColumn *col, const BpScanKey *key,
					 bool lower, int64 value)
{
	int			limit = lower ? key->below_limit : key->above_limit;
	bool		strict;

	if (lower ? limit == INT_MIN : limit == INT_MAX)
		return;					/* no limit on this side */
	strict = lower ? limit > 0 : limit < 0;
	if (!col->has_limit || (lower ? value > col->limit : value < col->limit))
	{
		col->limit = value;
		col->strict = strict;
	}
	else if (value == col->limit)
		col->strict |= strict;
	col->has_limit = true;
}

/*
 * Compile one side of the range of keys, the lower (bp_below_range) or
 * the upper (bp_above_range), into bound, for columns that compare as
 * integers: true when every column the range walks is integer-like with
 * keys of its own type (inline_columns), and no column has both an IS
 * NULL key and value keys.  The keys must not change while bound is used.
 */
bool
bp_integer_bound(const BpScanKeys *keys, bool lower, BpIntegerBound *bound)
{
	const BpSlotDesc *desc = keys->desc;
	int			i = 0;

	if (!keys->inline_columns)
		return false;
	bound->desc = desc;
	bound->ncolumns = 0;
#ifdef USE_ASSERT_CHECKING
	bound->keys = keys;
#endif
	for (int att = 0; i < keys->nkeys && keys->keys[i].attno == att; att++)
	{
		BpIntegerBoundColumn *col = &bound->columns[att];
		bool		any_value = false;

		if (att >= BP_INTEGER_BOUND_COLUMNS || !bp_integer_kind(desc->cmp_kind[att]))
			return false;
		memset(col, 0, sizeof(BpIntegerBoundColumn));
		col->offset = desc->att_offset[att];
		col->kind = desc->cmp_kind[att];
		for (; i < keys->nkeys && keys->keys[i].attno == att; i++)
		{
			const BpScanKey *key = &keys->keys[i];
			int64		value;

			if (ignored_key(keys, key, false))
				continue;
			if (key->flags & SK_SEARCHNULL)
			{
				col->null_pinned = true;
				continue;
			}
			if (key->kind != col->kind)
				return false;
			any_value = true;
			value = bp_integer_datum(col->kind, key->argument);
			if (key->strategy == BTEqualStrategyNumber)
			{
				col->conflict |= col->pinned && col->equal != value;
				col->pinned = true;
				col->equal = value;
			}
			narrow_integer_limit(col, key, lower, value);
		}
		if (col->null_pinned && any_value)
			return false;
		if (!col->null_pinned && !any_value)
			break;				/* the walk stops at a column without keys */
		bound->ncolumns = att + 1;
	}
	return true;
}

/*
 * Is slot outside bound, below it (a lower bound) or above it: the walk
 * of outside_range, a column one integer comparison.
 */
static pg_attribute_always_inline bool
outside_integer_bound(const BpIntegerBound *bound, const char *slot, bool lower)
{
	for (int att = 0; att < bound->ncolumns; att++)
	{
		const BpIntegerBoundColumn *col = &bound->columns[att];
		int64		value;

		if (bp_slot_isnull(bound->desc, slot, att))
		{
			if (col->null_pinned)
				continue;		/* equal: the next column decides */
			return !lower;		/* NULLs lie after every value */
		}
		if (col->null_pinned)
			return lower;		/* values lie before NULL */
		value = integer_at(col->kind, slot + col->offset);
		if (col->has_limit &&
			(lower ? value < col->limit : value > col->limit))
			return true;
		if (col->has_limit && col->strict && value == col->limit)
			return true;
		if (!col->pinned || col->conflict || value != col->equal)
			return false;
	}
	return false;
}

/* bp_below_range of the keys a lower bp_integer_bound was compiled from. */
bool
bp_below_integer_bound(const void *slot, void *arg)
{
	const BpIntegerBound *bound = (const BpIntegerBound *) arg;
	bool		below = outside_integer_bound(bound, slot, true);

	Assert(below == bp_below_range(slot, (void *) bound->keys));
	return below;
}

/*
 * bp_not_above_range of the keys an upper bp_integer_bound was compiled
 * from.
 */
bool
bp_not_above_integer_bound(const void *slot, void *arg)
{
	const BpIntegerBound *bound = (const BpIntegerBound *) arg;
	bool		not_above = !outside_integer_bound(bound, slot, false);

	Assert(not_above == bp_not_above_range(slot, (void *) bound->keys));
	return not_above;
}

/* Does slot sort before every entry the keys can match? */
bool
bp_below_range(const void *slot, void *arg)
{
	const BpScanKeys *keys = (const BpScanKeys *) arg;

	if (keys->first_column_inline)
		return outside_first_column(keys, slot, true);
	if (keys->inline_columns)
	{
		bool		below = outside_inline_columns(keys, slot, BP_KEY_BELOW);

		Assert(below == outside_range(keys, slot, BP_KEY_BELOW, false));
		return below;
	}
	return outside_range(keys, slot, BP_KEY_BELOW, false);
}

/* Does slot sort after every entry the keys can match? */
bool
bp_above_range(const void *slot, void *arg)
{
	const BpScanKeys *keys = (const BpScanKeys *) arg;

	if (keys->first_column_inline)
		return outside_first_column(keys, slot, false);
	if (keys->inline_columns)
	{
		bool		above = outside_inline_columns(keys, slot, BP_KEY_ABOVE);

		Assert(above == outside_range(keys, slot, BP_KEY_ABOVE, false));
		return above;
	}
	return outside_range(keys, slot, BP_KEY_ABOVE, false);
}

/*
 * For keys with first_column_prefix: the side of the range on which the
 * prefix of slot's first column (a slot stored in a page will do: its
 * prefix is its own) puts it, or BP_KEY_MATCH when the prefixes alone do
 * not tell (equal to a key's, or a NULL).
 */
BpKeyResult
bp_prefix_side(const BpScanKeys *keys, const char *slot)
{
	const char *prefix = slot + keys->desc->att_offset[0];

	if (bp_slot_isnull(keys->desc, slot, 0))
		return BP_KEY_MATCH;
	for (int i = 0; i < keys->nkeys; i++)
	{
		int			c = bp_compare_prefixes(prefix, keys->keys[i].prefix);
		BpKeyResult side = c == 0 ? BP_KEY_MATCH : bp_key_side(&keys->keys[i], c);

		if (side != BP_KEY_MATCH)
			return side;
	}
	return BP_KEY_MATCH;
}

/* Negation of bp_above_range, to steer a descent to the range's end. */
bool
bp_not_above_range(const void *slot, void *keys)
{
	return !bp_above_range(slot, keys);
}

/* Does slot sort before the outer range of a skip scan? */
bool
bp_below_outer_range(const void *slot, void *keys)
{
	return outside_range((const BpScanKeys *) keys, slot, BP_KEY_BELOW, true);
}

/* Does slot sort after the outer range of a skip scan? */
bool
bp_above_outer_range(const void *slot, void *keys)
{
	return outside_range((const BpScanKeys *) keys, slot, BP_KEY_ABOVE, true);
}

/*
 * Forward skip scan: does slot sort before the entries of the outer range
 * whose prefix follows the current one (before the outer range, or with a
 * prefix at or below the current one)?  Without a prefix, the whole outer
 * range.  Monotone, as the union of two monotone predicates.
 */
bool
bp_before_next_prefix(const void *slot, void *arg)
{
	const BpScanKeys *keys = (const BpScanKeys *) arg;

	return bp_below_outer_range(slot, arg) ||
		(keys->prefix_set &&
		 bp_compare_slot_prefix(keys->desc, keys->nskip, slot, keys->prefix) <= 0);
}

/*
 * Backward skip scan: does slot sort after the entries of the outer range
 * whose prefix precedes the current one?
 */
bool
bp_after_prev_prefix(const void *slot, void *arg)
{
	const BpScanKeys *keys = (const BpScanKeys *) arg;

	return bp_above_outer_range(slot, arg) ||
		(keys->prefix_set &&
		 bp_compare_slot_prefix(keys->desc, keys->nskip, slot, keys->prefix) >= 0);
}

/* Negation of bp_after_prev_prefix, to steer a descent backward. */
bool
bp_not_after_prev_prefix(const void *slot, void *keys)
{
	return !bp_after_prev_prefix(slot, keys);
}
