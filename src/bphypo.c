/*-------------------------------------------------------------------------
 *
 * bphypo.c
 *	  Hypothetical bpindex indexes: planned with, shown by EXPLAIN, never
 *	  built.
 *
 * bpindex_hypo_create_index() parses a CREATE INDEX ... USING bpindex
 * statement and keeps what the planner needs to know about the index in
 * backend-local memory.  A get_relation_info_hook adds every hypothetical
 * index of a relation to its index list, with pages, tuples and tree
 * height from the build's own arithmetic (bp_estimate_pages), and an
 * explain_get_index_name_hook names it in EXPLAIN.  Both hooks call the
 * hooks installed before them, so HypoPG's hypothetical btree indexes
 * appear in the same plans.  Plain EXPLAIN never opens the index, so the
 * executor is never asked to scan one.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amapi.h"
#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/reloptions.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/transam.h"
#include "catalog/catalog.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_attribute.h"
#include "commands/tablespace.h"
#include "miscadmin.h"
#include "optimizer/planner.h"
#include "tcop/utility.h"
#include "commands/defrem.h"
#include "commands/explain.h"
#include "funcapi.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/plancat.h"
#include "optimizer/prep.h"
#include "parser/parse_utilcmd.h"
#include "parser/parser.h"
#include "rewrite/rewriteManip.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

#include "bpcompat.h"
#include "bpgeometry.h"
#include "bphypo.h"
#include "bpoptions.h"
#include "bpslot.h"
#include "bpstate.h"
#include "bpunique.h"

PG_FUNCTION_INFO_V1(bpindex_hypo_create_index);
PG_FUNCTION_INFO_V1(bpindex_hypo_list_indexes);
PG_FUNCTION_INFO_V1(bpindex_hypo_drop_index);
PG_FUNCTION_INFO_V1(bpindex_hypo_reset);
PG_FUNCTION_INFO_V1(bpindex_hypo_relation_size);

/* One hypothetical index. */
typedef struct HypoIndex
{
	Oid			oid;			/* a fresh OID, never on disk */
	Oid			relid;			/* its table */
	char	   *name;
	int			natts;			/* key and INCLUDE columns */
	int			nkeyatts;		/* key columns, the first ones */
	AttrNumber	attnums[INDEX_MAX_KEYS];
	Oid			atttypes[INDEX_MAX_KEYS];	/* to notice a column's change */
	Oid			opfamily[INDEX_MAX_KEYS];
	Oid			opcintype[INDEX_MAX_KEYS];
	Oid			collation[INDEX_MAX_KEYS];
	Oid			sortopfamily[INDEX_MAX_KEYS];
	bool		reverse[INDEX_MAX_KEYS];	/* DESC */
	bool		nulls_first[INDEX_MAX_KEYS];
	List	   *predicate;		/* implicit-AND, Vars of varno 1 */
	bool		unique;
	int16		attlen[INDEX_MAX_KEYS];
	bool		keyed;			/* has a variable-length key column */
	uint16		slot_width;
	BpaLayout	layout;			/* of a plain leaf */
	BpOptions	options;
} HypoIndex;

/* The hypothetical indexes of this backend, in TopMemoryContext. */
static List *hypo_indexes = NIL;

static get_relation_info_hook_type prev_get_relation_info_hook = NULL;
static explain_get_index_name_hook_type prev_explain_get_index_name_hook = NULL;
static ProcessUtility_hook_type prev_process_utility_hook = NULL;
static planner_hook_type prev_planner_hook = NULL;

/*
 * Hypothetical indexes are offered to the planner only while a plain
 * EXPLAIN (without ANALYZE, and not of EXECUTE, whose plan is cached) plans
 * its statement: only the outermost planner call, so that queries that run
 * during planning (functions evaluated while simplifying) never see them.
 */
static bool in_plain_explain = false;
static int	planner_depth = 0;

/* The hypothetical index with this OID, or NULL. */
static HypoIndex *
find_hypo(Oid oid)
{
	ListCell   *lc;

	foreach(lc, hypo_indexes)
	{
		HypoIndex  *hypo = (HypoIndex *) lfirst(lc);

		if (hypo->oid == oid)
			return hypo;
	}
	return NULL;
}

/* Forget one hypothetical index. */
static void
forget_hypo(HypoIndex *hypo)
{
	hypo_indexes = list_delete_ptr(hypo_indexes, hypo);
	pfree(hypo->name);
	pfree(hypo);
}

/*
 * Is a hypothetical index still possible: its table exists (it may have
 * been dropped, or its creating transaction rolled back) and its columns
 * are there with their types?  A real index would have gone with them.
 */
static bool
hypo_still_valid(HypoIndex *hypo)
{
	if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(hypo->relid)))
		return false;
	for (int i = 0; i < hypo->natts; i++)
	{
		HeapTuple	atttup = SearchSysCache2(ATTNUM, ObjectIdGetDatum(hypo->relid),
											 Int16GetDatum(hypo->attnums[i]));
		bool		ok;

		if (!HeapTupleIsValid(atttup))
			return false;
		ok = !((Form_pg_attribute) GETSTRUCT(atttup))->attisdropped &&
			((Form_pg_attribute) GETSTRUCT(atttup))->atttypid == hypo->atttypes[i];
		ReleaseSysCache(atttup);
		if (!ok)
			return false;
	}
	return true;
}

/* Forget the hypothetical indexes that are no longer possible. */
static void
forget_stale_hypos(void)
{
	ListCell   *lc;

	foreach(lc, hypo_indexes)
	{
		HypoIndex  *hypo = (HypoIndex *) lfirst(lc);

		if (!hypo_still_valid(hypo))
		{
			hypo_indexes = foreach_delete_current(hypo_indexes, lc);
			pfree(hypo->name);
			pfree(hypo);
		}
	}
}

/* Parse sql, which must be one CREATE INDEX ... USING bpindex statement. */
static IndexStmt *
parse_index_stmt(const char *sql)
{
	List	   *stmts = raw_parser(sql, RAW_PARSE_DEFAULT);
	Node	   *stmt;

	if (list_length(stmts) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bpindex_hypo_create_index takes exactly one CREATE INDEX statement")));
	stmt = linitial_node(RawStmt, stmts)->stmt;
	if (!IsA(stmt, IndexStmt))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bpindex_hypo_create_index takes a CREATE INDEX statement")));
	if (((IndexStmt *) stmt)->accessMethod == NULL ||
		strcmp(((IndexStmt *) stmt)->accessMethod, "bpindex") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bpindex_hypo_create_index only creates indexes USING bpindex"),
				 errhint("Use HypoPG's hypopg_create_index() for other access methods.")));
	return (IndexStmt *) stmt;
}

/* Refuse what a real bpindex index refuses, or bpindex cannot pretend. */
static void
check_index_stmt(IndexStmt *stmt, Relation heap)
{
	if (heap->rd_rel->relkind != RELKIND_RELATION &&
		heap->rd_rel->relkind != RELKIND_MATVIEW)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot create a hypothetical index on \"%s\"",
						RelationGetRelationName(heap)),
				 errdetail("Hypothetical bpindex indexes are created on tables and materialized views, not on partitioned tables.")));
	if (stmt->unique)
		bp_unique_refuse_if_unsupported(stmt->idxname);
	if (list_length(stmt->indexParams) +
		list_length(stmt->indexIncludingParams) > INDEX_MAX_KEYS)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_COLUMNS),
				 errmsg("cannot use more than %d columns in an index", INDEX_MAX_KEYS)));
	if (!allowSystemTableMods && IsSystemRelation(heap))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied: \"%s\" is a system catalog",
						RelationGetRelationName(heap))));
	if (stmt->tableSpace)
		(void) get_tablespace_oid(stmt->tableSpace, false);
}

/*
 * A variable-length key column of a hypothetical index takes a key field
 * in its slots, as in a real index (bp_init_slot_desc); its collation
 * must be deterministic (bp_check_columns).
 */
static void
add_key_column(HypoIndex *hypo, int i, const char *name, int16 *length,
			   bool *byval, char *align)
{
	Oid			collation = hypo->collation[i];

	if (OidIsValid(collation) && !get_collation_isdeterministic(collation))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bpindex cannot index column \"%s\": collation \"%s\" is nondeterministic",
						name, get_collation_name(collation)),
				 errhint("Use a deterministic collation, or a btree index.")));
	hypo->keyed = true;
	*length = BP_KEY_FIELD_SIZE;
	*byval = false;
	*align = TYPALIGN_CHAR;
}

/*
 * The table column an IndexElem names, as column i of a hypothetical index
 * (attnum and type); the caller releases the syscache tuple.
 */
static HeapTuple
lookup_column(HypoIndex *hypo, int i, IndexElem *elem, Relation heap)
{
	HeapTuple	atttup;
	Form_pg_attribute att;

	if (elem->name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("hypothetical bpindex indexes support plain columns only")));
	atttup = SearchSysCacheAttName(RelationGetRelid(heap), elem->name);
	if (!HeapTupleIsValid(atttup))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" does not exist", elem->name)));
	att = (Form_pg_attribute) GETSTRUCT(atttup);
	if (att->attnum <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index creation on system columns is not supported")));
	hypo->attnums[i] = att->attnum;
	hypo->atttypes[i] = att->atttypid;
	return atttup;
}

/*
 * Fill INCLUDE column i of a hypothetical index from its IndexElem: a
 * type with a stored length, as a real index requires (bp_check_columns);
 * a variable-length one takes a key field.
 */
static void
add_include_column(HypoIndex *hypo, int i, IndexElem *elem, Relation heap,
				   int16 *lengths, bool *byvals, char *aligns)
{
	HeapTuple	atttup = lookup_column(hypo, i, elem, heap);
	Form_pg_attribute att = (Form_pg_attribute) GETSTRUCT(atttup);

	if (att->attlen < -1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bpindex cannot include column \"%s\": type %s has no stored length",
						elem->name, format_type_be(att->atttypid))));
	get_typlenbyvalalign(att->atttypid, &lengths[i], &byvals[i], &aligns[i]);
	hypo->attlen[i] = lengths[i];
	hypo->collation[i] = att->attcollation;
	ReleaseSysCache(atttup);
	if (lengths[i] == -1)
	{
		hypo->keyed = true;
		lengths[i] = BP_KEY_FIELD_SIZE;
		byvals[i] = false;
		aligns[i] = TYPALIGN_CHAR;
	}
}

/* Fill key column i of a hypothetical index from its IndexElem. */
static void
add_column(HypoIndex *hypo, int i, IndexElem *elem, Relation heap,
		   Oid amoid, int16 *lengths, bool *byvals, char *aligns)
{
	HeapTuple	atttup = lookup_column(hypo, i, elem, heap);
	Form_pg_attribute att = (Form_pg_attribute) GETSTRUCT(atttup);
	Oid			opclass;
	Oid			ltopr;
	Oid			btopcintype;
	BpOrderingKind btstrategy;

	/* as CREATE INDEX: DESC puts NULLs first unless NULLS LAST says not */
	hypo->reverse[i] = elem->ordering == SORTBY_DESC;
	hypo->nulls_first[i] = elem->nulls_ordering == SORTBY_NULLS_FIRST ||
		(hypo->reverse[i] && elem->nulls_ordering == SORTBY_NULLS_DEFAULT);
	if (att->attlen < -1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bpindex cannot index column \"%s\": type %s has no stored length",
						elem->name, format_type_be(att->atttypid))));
	opclass = ResolveOpClass(elem->opclass, att->atttypid, "bpindex", amoid);
	bp_check_column_class(amoid, att->atttypid, opclass, elem->name, NULL);
	hypo->opfamily[i] = get_opclass_family(opclass);
	hypo->opcintype[i] = get_opclass_input_type(opclass);
	hypo->collation[i] = elem->collation ?
		get_collation_oid(elem->collation, false) : att->attcollation;
	get_typlenbyvalalign(att->atttypid, &lengths[i], &byvals[i], &aligns[i]);
	hypo->attlen[i] = lengths[i];
	ReleaseSysCache(atttup);
	if (lengths[i] == -1)
		add_key_column(hypo, i, elem->name, &lengths[i], &byvals[i], &aligns[i]);

	/* the planner learns the order from the btree family of the "<" operator */
	ltopr = get_opfamily_member(hypo->opfamily[i], hypo->opcintype[i],
								hypo->opcintype[i], BTLessStrategyNumber);
	if (!OidIsValid(ltopr) ||
		!get_ordering_op_properties(ltopr, &hypo->sortopfamily[i], &btopcintype,
									&btstrategy))
		hypo->sortopfamily[i] = InvalidOid;
}

/* Turn the statement's WHERE clause into the planner's predicate form. */
static List *
index_predicate(Node *where)
{
	Expr	   *pred;

	if (where == NULL)
		return NIL;
	/* as CREATE INDEX (CheckPredicate) requires */
	if (contain_mutable_functions(where))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("functions in index predicate must be marked IMMUTABLE")));
	pred = (Expr *) eval_const_expressions(NULL, where);
	pred = canonicalize_qual(pred, false);
	fix_opfuncids((Node *) pred);
	return make_ands_implicit(pred);
}

/* A name like those CREATE INDEX chooses, marked as hypothetical. */
static char *
hypo_name(HypoIndex *hypo, IndexStmt *stmt, Relation heap)
{
	StringInfoData name;

	if (stmt->idxname)
		return pstrdup(stmt->idxname);
	initStringInfo(&name);
	appendStringInfo(&name, "<%u>bpindex_%s", hypo->oid, RelationGetRelationName(heap));
	for (int i = 0; i < hypo->natts; i++)
		appendStringInfo(&name, "_%s", get_attname(hypo->relid, hypo->attnums[i], false));
	return name.data;
}

/* Build a hypothetical index from a parsed statement. */
static HypoIndex *
make_hypo(IndexStmt *stmt, const char *sql)
{
	Oid			relid = RangeVarGetRelid(stmt->relation, AccessShareLock, false);
	Relation	heap = table_open(relid, AccessShareLock);
	Oid			amoid = get_index_am_oid("bpindex", false);
	HypoIndex  *hypo = palloc0(sizeof(HypoIndex));
	int16		lengths[INDEX_MAX_KEYS];
	char		aligns[INDEX_MAX_KEYS];
	bool		byvals[INDEX_MAX_KEYS];
	BpOptions  *opts;
	ListCell   *lc;

	check_index_stmt(stmt, heap);
	stmt = transformIndexStmt(relid, stmt, sql);
	hypo->relid = relid;
	hypo->oid = GetNewObjectId();
	foreach(lc, stmt->indexParams)
	{
		add_column(hypo, hypo->natts, lfirst_node(IndexElem, lc), heap, amoid,
				   lengths, byvals, aligns);
		hypo->natts++;
	}
	hypo->nkeyatts = hypo->natts;
	foreach(lc, stmt->indexIncludingParams)
	{
		add_include_column(hypo, hypo->natts, lfirst_node(IndexElem, lc), heap,
						   lengths, byvals, aligns);
		hypo->natts++;
	}
	opts = (BpOptions *) bp_options(transformRelOptions((Datum) 0, stmt->options,
														NULL, NULL, false, false),
									true);
	hypo->options = opts ? *opts : (BpOptions) {0, BP_DEFAULT_FILLFACTOR, 0, 0, true};
	hypo->slot_width = bp_slot_layout(hypo->natts, lengths, byvals, aligns,
									  NULL);
	hypo->predicate = index_predicate(stmt->whereClause);
	hypo->unique = stmt->unique;
	hypo->name = hypo_name(hypo, stmt, heap);
	bp_layout_for_options(&hypo->options, hypo->natts, hypo->slot_width,
						  hypo->name, &hypo->layout);
	table_close(heap, AccessShareLock);
	return hypo;
}

/* Deep copy of a hypothetical index into TopMemoryContext. */
static HypoIndex *
keep_hypo(HypoIndex *hypo)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
	HypoIndex  *kept = palloc(sizeof(HypoIndex));

	*kept = *hypo;
	kept->name = pstrdup(hypo->name);
	kept->predicate = copyObject(hypo->predicate);
	hypo_indexes = lappend(hypo_indexes, kept);
	MemoryContextSwitchTo(old);
	return kept;
}

/* bpindex_hypo_create_index(sql): add a hypothetical index. */
Datum
bpindex_hypo_create_index(PG_FUNCTION_ARGS)
{
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	HypoIndex  *hypo = keep_hypo(make_hypo(parse_index_stmt(sql), sql));
	Datum		values[2];
	bool		nulls[2] = {false, false};
	TupleDesc	tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = ObjectIdGetDatum(hypo->oid);
	values[1] = CStringGetTextDatum(hypo->name);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc),
													  values, nulls)));
}

/* The rows and pages of the hypothetical index's table, as the planner estimates them. */
static double
estimate_entries(HypoIndex *hypo, BlockNumber *heap_pages)
{
	Relation	heap = table_open(hypo->relid, AccessShareLock);
	double		tuples;
	double		allvisfrac;

	estimate_rel_size(heap, NULL, heap_pages, &tuples, &allvisfrac);
	table_close(heap, AccessShareLock);
	return tuples;
}

/* What the statistics of one key column tell about its values. */
typedef struct ColumnStats
{
	bool		have_range;		/* lo and hi are set */
	uint64		lo;				/* images of the least and greatest values */
	uint64		hi;
	double		ndistinct;
	double		correlation;	/* of the column's order with the heap's */
	double		width;			/* average bytes of a value that is not NULL */
	double		nullfrac;
	double		shared_prefix;	/* variable-length: bytes that neighbouring
								 * histogram bounds share, on average */
} ColumnStats;

/*
 * Bytes that neighbouring values of a histogram of variable-length values
 * share at their start, on average.
 */
static double
bounds_shared_prefix(const AttStatsSlot *slot)
{
	double		total = 0;

	for (int v = 1; v < slot->nvalues; v++)
	{
		total += bp_keys_common_prefix((const char *) PG_DETOAST_DATUM_PACKED(slot->values[v - 1]),
									   (const char *) PG_DETOAST_DATUM_PACKED(slot->values[v]),
									   false);
	}
	return slot->nvalues > 1 ? total / (slot->nvalues - 1) : 0;
}

/* Widen stats' range to the values of one statistics slot. */
static void
add_slot_values(ColumnStats *stats, BpCompareKind kind, int16 len,
				AttStatsSlot *slot)
{
	for (int v = 0; v < slot->nvalues; v++)
	{
		uint64		image;

		if (!bp_datum_image(kind, len, slot->values[v], &image))
			continue;
		if (!stats->have_range || image < stats->lo)
			stats->lo = image;
		if (!stats->have_range || image > stats->hi)
			stats->hi = image;
		stats->have_range = true;
	}
}

/*
 * The statistics of key column i of a table of tuples rows: the range of
 * its histogram and most common values, its distinct values (all of them
 * when unknown) and its correlation.
 */
static void
column_stats(HypoIndex *hypo, int i, BpCompareKind kind, double tuples,
			 ColumnStats *stats)
{
	HeapTuple	tuple = SearchSysCache3(STATRELATTINH,
										ObjectIdGetDatum(hypo->relid),
										Int16GetDatum(hypo->attnums[i]),
										BoolGetDatum(false));
	AttStatsSlot slot;
	int			kinds[] = {STATISTIC_KIND_HISTOGRAM, STATISTIC_KIND_MCV};

	memset(stats, 0, sizeof(ColumnStats));
	stats->ndistinct = tuples;
	if (!HeapTupleIsValid(tuple))
		return;
	stats->ndistinct = ((Form_pg_statistic) GETSTRUCT(tuple))->stadistinct;
	stats->width = ((Form_pg_statistic) GETSTRUCT(tuple))->stawidth;
	stats->nullfrac = ((Form_pg_statistic) GETSTRUCT(tuple))->stanullfrac;
	if (stats->ndistinct < 0)
		stats->ndistinct = -stats->ndistinct * tuples;
	if (stats->ndistinct < 1)
		stats->ndistinct = tuples;
	for (int k = 0; k < lengthof(kinds); k++)
	{
		if (get_attstatsslot(&slot, tuple, kinds[k], InvalidOid, ATTSTATSSLOT_VALUES))
		{
			add_slot_values(stats, kind, hypo->attlen[i], &slot);
			if (kinds[k] == STATISTIC_KIND_HISTOGRAM && hypo->attlen[i] == -1)
				stats->shared_prefix = bounds_shared_prefix(&slot);
			free_attstatsslot(&slot);
		}
	}
	if (get_attstatsslot(&slot, tuple, STATISTIC_KIND_CORRELATION, InvalidOid,
						 ATTSTATSSLOT_NUMBERS))
	{
		stats->correlation = slot.numbers[0];
		free_attstatsslot(&slot);
	}
	ReleaseSysCache(tuple);
}

/*
 * The bytes of a packed entry of the hypothetical index whose leaves hold
 * per_leaf entries each, from the column statistics; 0 if its leaves stay
 * plain.  A column takes no bytes in leaves that lie within one of its
 * values (with the same values of the columns before it), else the bytes
 * of the part of its range a leaf covers; block numbers span the leaf's
 * share of the heap when the leading column follows the heap's order,
 * else the whole heap.
 */
static int
estimate_entry_width(HypoIndex *hypo, double tuples, BlockNumber heap_pages,
					 double per_leaf)
{
	double		groups = 1;		/* distinct values of the columns so far */
	double		correlation = 0;
	double		blocks;
	int			width = 0;

	for (int i = 0; i < hypo->natts; i++)
	{
		Oid			proc;
		BpCompareKind kind;
		ColumnStats stats;
		double		group_rows;

		/* an INCLUDE column: at most its own bytes, or a key's offset */
		if (i >= hypo->nkeyatts)
		{
			width += hypo->attlen[i] == -1 ? 2 : hypo->attlen[i];
			continue;
		}
		proc = get_opfamily_proc(hypo->opfamily[i], hypo->opcintype[i],
								 hypo->opcintype[i], BTORDER_PROC);
		kind = bp_compare_kind(proc);
		if (hypo->attlen[i] != -1 && !bp_column_packable(kind, hypo->attlen[i]))
			return 0;
		column_stats(hypo, i, kind, tuples, &stats);
		if (i == 0)
			correlation = stats.correlation;
		group_rows = tuples / Min(tuples, groups);
		groups = Min(tuples, groups * stats.ndistinct);
		if (hypo->attlen[i] == -1)
		{
			/*
			 * The key's offset, after a null byte in leaves that hold a
			 * NULL: most leaves, unless the NULLs gather at the end (the
			 * leading column) or are rarer than one a leaf.
			 */
			bool		nulls_in_most_leaves = i == 0 ? stats.nullfrac > 0.5 :
			stats.nullfrac * per_leaf >= 1;

			/* and the first column's window */
			width += 2 + (i == 0 ? 2 : 0) + (nulls_in_most_leaves ? 1 : 0);
		}
		else if (kind == BP_CMP_BYTES)
			width += hypo->attlen[i];
		else if (tuples / groups >= 2 * per_leaf)
			continue;			/* a leaf holds one value */
		else if (!stats.have_range || kind == BP_CMP_FLOAT4 ||
				 kind == BP_CMP_FLOAT8)
			width += hypo->attlen[i];
		else
			width += Min(hypo->attlen[i],
						 bp_code_bytes((uint64) ((double) (stats.hi - stats.lo) *
												 Min(1.0, per_leaf / group_rows))));
	}
	blocks = fabs(correlation) > 0.9 ? per_leaf * heap_pages / Max(tuples, 1) :
		heap_pages;
	width += bp_tid_code_bytes(blocks, tuples / Max(heap_pages, 1));
	return Max(width, 2);
}

/*
 * Do the packed leaves of the hypothetical index store its keys without
 * the prefix their fences share: one key column, variable-length, in
 * bytewise order (as bpleafplan.c strips them)?
 */
static bool
hypo_strips_keys(HypoIndex *hypo)
{
	for (int i = hypo->nkeyatts; i < hypo->natts; i++)
		if (hypo->attlen[i] == -1)
			return false;
	return hypo->nkeyatts == 1 && hypo->attlen[0] == -1 &&
		hypo->options.packed_leaves &&
		bp_key_order_bytewise(get_opfamily_proc(hypo->opfamily[0], hypo->opcintype[0],
												hypo->opcintype[0], BTORDER_PROC),
							  hypo->collation[0], true);
}

/*
 * Bytes of keys an entry of the hypothetical index adds to its leaf, from
 * the statistics of its variable-length columns: their average width
 * where their values are not NULL (less the prefix a leaf's keys share,
 * at least what neighbouring histogram bounds share, if stripped and its
 * leaves strip it), shared by runs of equal values (the build stores a
 * key equal to its neighbour's once); and in *fresh, those of an entry
 * whose keys are not shared.
 */
static double
estimate_key_bytes(HypoIndex *hypo, double tuples, bool stripped,
				   double *fresh)
{
	double		groups = 1;		/* distinct values of the columns so far */
	double		bytes = 0;

	*fresh = 0;
	for (int i = 0; i < hypo->natts; i++)
	{
		ColumnStats stats;
		double		width;

		column_stats(hypo, i, BP_CMP_FMGR, tuples, &stats);
		/* an INCLUDE column's values are not shared by runs of keys */
		groups = i < hypo->nkeyatts ? Min(tuples, groups * stats.ndistinct) :
			tuples;
		if (hypo->attlen[i] != -1)
			continue;
		width = stats.width > 0 ? stats.width :
			get_typavgwidth(hypo->atttypes[i], -1);
		if (stripped && hypo_strips_keys(hypo))
			width = Max(width - stats.shared_prefix, 1);
		if (width > VARATT_SHORT_MAX)
			width = INTALIGN((Size) width);
		bytes += width * (1 - stats.nullfrac) * Min(1.0, groups / Max(tuples, 1));
		*fresh += width * (1 - stats.nullfrac);
	}
	*fresh = Max(*fresh, 1);
	return Max(bytes, 1);
}

/*
 * Pages and levels of the hypothetical index over tuples entries of a
 * table of heap_pages pages: the build's arithmetic on leaves of the
 * layout their estimated packed width gives (the plain layout if they
 * would stay plain), or on keyed leaves and internal pages whose keys
 * take what the statistics say.
 */
static BlockNumber
estimate_hypo_pages(HypoIndex *hypo, double tuples, BlockNumber heap_pages,
					int *levels)
{
	BpaLayout	layout = hypo->layout;

	if (hypo->keyed)
	{
		double		fresh_key_bytes;
		double		whole_key_bytes;
		double		pivot_key_bytes = estimate_key_bytes(hypo, tuples, false,
														 &whole_key_bytes);
		double		key_bytes = estimate_key_bytes(hypo, tuples, true, &fresh_key_bytes);
		int			width = hypo->slot_width;
		int			per_leaf = 0;

		/* the packed width depends on the entries per leaf, as below */
		for (int round = 0; round < 3; round++)
		{
			per_leaf = bp_keyed_leaf_fill(hypo->natts, hypo->slot_width,
										  (uint16) width, &hypo->options,
										  key_bytes, fresh_key_bytes);
			width = hypo->options.packed_leaves ?
				estimate_entry_width(hypo, tuples, heap_pages, per_leaf) : 0;
			if (width == 0 || width >= hypo->slot_width)
				width = hypo->slot_width;
		}
		per_leaf = bp_keyed_leaf_fill(hypo->natts, hypo->slot_width,
									  (uint16) width, &hypo->options, key_bytes,
									  fresh_key_bytes);
		return bp_estimate_pages(tuples, per_leaf,
								 bp_internal_fill_estimate(hypo->slot_width, pivot_key_bytes),
								 levels);
	}
	/* the width depends on the entries per leaf, which depend on the width */
	for (int round = 0; round < 3 && hypo->options.packed_leaves; round++)
	{
		int			width = estimate_entry_width(hypo, tuples, heap_pages,
												 bp_layout_fill_target(&layout, hypo->options.fillfactor));

		if (width == 0 || width >= hypo->slot_width ||
			!bp_choose_leaf_layout(&hypo->options, (uint16) width,
								   bp_leaf_room(hypo->natts, hypo->slot_width, (uint16) width),
								   &layout))
		{
			layout = hypo->layout;
			break;
		}
	}
	return bp_estimate_pages(tuples, bp_layout_fill_target(&layout, hypo->options.fillfactor),
							 bp_internal_fill_estimate(hypo->slot_width, 0), levels);
}

/* bpindex_hypo_list_indexes(): every hypothetical index of this backend. */
Datum
bpindex_hypo_list_indexes(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	forget_stale_hypos();
	foreach(lc, hypo_indexes)
	{
		HypoIndex  *hypo = (HypoIndex *) lfirst(lc);
		Datum		values[5];
		bool		nulls[5] = {false};
		char	   *relname = get_rel_name(hypo->relid);
		char	   *nspname = get_namespace_name(get_rel_namespace(hypo->relid));

		values[0] = ObjectIdGetDatum(hypo->oid);
		values[1] = CStringGetTextDatum(hypo->name);
		nulls[2] = nspname == NULL;
		values[2] = nspname ? CStringGetTextDatum(nspname) : (Datum) 0;
		nulls[3] = relname == NULL;
		values[3] = relname ? CStringGetTextDatum(relname) : (Datum) 0;
		values[4] = CStringGetTextDatum("bpindex");
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* bpindex_hypo_drop_index(oid): forget one; false if there is none. */
Datum
bpindex_hypo_drop_index(PG_FUNCTION_ARGS)
{
	HypoIndex  *hypo;

	forget_stale_hypos();
	hypo = find_hypo(PG_GETARG_OID(0));
	if (hypo == NULL)
		PG_RETURN_BOOL(false);
	forget_hypo(hypo);
	PG_RETURN_BOOL(true);
}

/* bpindex_hypo_reset(): forget them all. */
Datum
bpindex_hypo_reset(PG_FUNCTION_ARGS)
{
	while (hypo_indexes != NIL)
		forget_hypo((HypoIndex *) linitial(hypo_indexes));
	PG_RETURN_VOID();
}

/* bpindex_hypo_relation_size(oid): estimated bytes, NULL if unknown. */
Datum
bpindex_hypo_relation_size(PG_FUNCTION_ARGS)
{
	HypoIndex  *hypo;
	int			levels;
	double		tuples;
	BlockNumber heap_pages;

	forget_stale_hypos();
	hypo = find_hypo(PG_GETARG_OID(0));
	if (hypo == NULL)
		PG_RETURN_NULL();
	tuples = estimate_entries(hypo, &heap_pages);
	PG_RETURN_INT64((int64) estimate_hypo_pages(hypo, tuples, heap_pages,
												&levels) * BLCKSZ);
}

/* The index's target list: a Var per column. */
static List *
index_tlist(HypoIndex *hypo, Index varno)
{
	List	   *tlist = NIL;

	for (int i = 0; i < hypo->natts; i++)
	{
		Oid			type;
		int32		typmod;
		Oid			collation;

		get_atttypetypmodcoll(hypo->relid, hypo->attnums[i], &type, &typmod,
							  &collation);
		tlist = lappend(tlist,
						makeTargetEntry((Expr *) makeVar(varno, hypo->attnums[i],
														 type, typmod, collation, 0),
										i + 1, NULL, false));
	}
	return tlist;
}

/*
 * Share of rel's rows a partial index keeps.  The hook runs while rel is
 * being built, before the planner has registered it, so it is registered
 * for the duration of the estimate.
 */
static Selectivity
predicate_selectivity(PlannerInfo *root, RelOptInfo *rel, List *predicate)
{
	RelOptInfo *registered = root->simple_rel_array[rel->relid];
	Selectivity selectivity;

	root->simple_rel_array[rel->relid] = rel;
	PG_TRY();
	{
		selectivity = clauselist_selectivity(root, predicate, rel->relid,
											 JOIN_INNER, NULL);
	}
	PG_FINALLY();
	{
		root->simple_rel_array[rel->relid] = registered;
	}
	PG_END_TRY();
	return selectivity;
}

/* The planner's description of a hypothetical index on rel. */
static IndexOptInfo *
index_opt_info(PlannerInfo *root, RelOptInfo *rel, HypoIndex *hypo, Oid amoid)
{
	IndexOptInfo *info = makeNode(IndexOptInfo);
	IndexAmRoutine *routine = GetIndexAmRoutineByAmId(amoid, false);
	int			n = hypo->natts;
	int			nkeys = hypo->nkeyatts;
	int			levels;

	info->indexoid = hypo->oid;
	info->reltablespace = rel->reltablespace;
	info->rel = rel;
	info->ncolumns = n;
	info->nkeycolumns = nkeys;
	info->indexkeys = palloc(sizeof(int) * n);
	info->canreturn = palloc(sizeof(bool) * n);
	for (int i = 0; i < n; i++)
	{
		info->indexkeys[i] = hypo->attnums[i];
		info->canreturn[i] = true;
	}
	/* the ordering of the key columns, as plancat.c fills it in */
	info->indexcollations = palloc(sizeof(Oid) * nkeys);
	info->opfamily = palloc(sizeof(Oid) * nkeys);
	info->opcintype = palloc(sizeof(Oid) * nkeys);
	info->sortopfamily = palloc(sizeof(Oid) * nkeys);
	info->reverse_sort = palloc(sizeof(bool) * nkeys);
	info->nulls_first = palloc(sizeof(bool) * nkeys);
	info->opclassoptions = palloc0(sizeof(bytea *) * n);
	for (int i = 0; i < nkeys; i++)
	{
		info->indexcollations[i] = hypo->collation[i];
		info->opfamily[i] = hypo->opfamily[i];
		info->opcintype[i] = hypo->opcintype[i];
		info->sortopfamily[i] = hypo->sortopfamily[i];
		info->reverse_sort[i] = hypo->reverse[i];
		info->nulls_first[i] = hypo->nulls_first[i];
	}
	if (!OidIsValid(hypo->sortopfamily[0]))
		info->sortopfamily = NULL;	/* not orderable */
	info->relam = amoid;
	info->indpred = copyObject(hypo->predicate);
	info->unique = hypo->unique;
	info->immediate = true;
	if (info->indpred != NIL && rel->relid != 1)
		ChangeVarNodes((Node *) info->indpred, 1, rel->relid, 0);
	info->indextlist = index_tlist(hypo, rel->relid);
	info->hypothetical = true;

	info->tuples = rel->tuples;
	if (info->indpred != NIL)
		info->tuples *= predicate_selectivity(root, rel, info->indpred);
	info->pages = estimate_hypo_pages(hypo, info->tuples, rel->pages, &levels);
	info->tree_height = levels - 1;

	/* the capabilities of a real bpindex index, from the handler */
	info->amcanorderbyop = routine->amcanorderbyop;
	info->amoptionalkey = routine->amoptionalkey;
	info->amsearcharray = routine->amsearcharray;
	info->amsearchnulls = routine->amsearchnulls;
	info->amhasgettuple = routine->amgettuple != NULL;
	info->amhasgetbitmap = routine->amgetbitmap != NULL;
	info->amcanparallel = routine->amcanparallel;
	info->amcanmarkpos = routine->ammarkpos != NULL;
	info->amcostestimate = (void (*) ()) routine->amcostestimate;
	pfree(routine);
	return info;
}

/* get_relation_info_hook: add the relation's hypothetical indexes. */
static void
hypo_get_relation_info(PlannerInfo *root, Oid relid, bool inhparent,
					   RelOptInfo *rel)
{
	ListCell   *lc;
	Oid			amoid;

	if (prev_get_relation_info_hook)
		prev_get_relation_info_hook(root, relid, inhparent, rel);
	if (inhparent || !in_plain_explain || planner_depth != 1 || hypo_indexes == NIL)
		return;
	/* after DROP EXTENSION the library stays loaded, but bpindex is gone */
	amoid = get_index_am_oid("bpindex", true);
	if (!OidIsValid(amoid))
		return;
	forget_stale_hypos();
	foreach(lc, hypo_indexes)
	{
		HypoIndex  *hypo = (HypoIndex *) lfirst(lc);

		if (hypo->relid == relid)
			rel->indexlist = lcons(index_opt_info(root, rel, hypo, amoid),
								   rel->indexlist);
	}
}

/* explain_get_index_name_hook: name hypothetical indexes. */
static const char *
hypo_explain_index_name(Oid indexId)
{
	HypoIndex  *hypo = find_hypo(indexId);

	if (hypo)
		return hypo->name;
	if (prev_explain_get_index_name_hook)
		return prev_explain_get_index_name_hook(indexId);
	return NULL;
}

/* Is a utility statement an EXPLAIN that plans without executing? */
static bool
is_plain_explain(Node *stmt)
{
	ExplainStmt *explain;
	ListCell   *lc;

	if (stmt == NULL || !IsA(stmt, ExplainStmt))
		return false;
	explain = (ExplainStmt *) stmt;
	/* EXPLAIN EXECUTE (a utility Query) would plan into the plan cache */
	if (explain->query == NULL || !IsA(explain->query, Query) ||
		((Query *) explain->query)->commandType == CMD_UTILITY)
		return false;
	foreach(lc, explain->options)
	{
		DefElem    *opt = (DefElem *) lfirst(lc);

		if (strcmp(opt->defname, "analyze") == 0 && defGetBoolean(opt))
			return false;
	}
	return true;
}

/* ProcessUtility_hook: note whether a plain EXPLAIN is running. */
static void
hypo_process_utility(PlannedStmt *pstmt, const char *queryString,
					 bool readOnlyTree, ProcessUtilityContext context,
					 ParamListInfo params, QueryEnvironment *queryEnv,
					 DestReceiver *dest, QueryCompletion *qc)
{
	bool		outer = in_plain_explain;
	int			outer_depth = planner_depth;

	in_plain_explain = is_plain_explain(pstmt->utilityStmt);
	planner_depth = 0;
	PG_TRY();
	{
		if (prev_process_utility_hook)
			prev_process_utility_hook(pstmt, queryString, readOnlyTree, context,
									  params, queryEnv, dest, qc);
		else
			standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
									params, queryEnv, dest, qc);
	}
	PG_FINALLY();
	{
		in_plain_explain = outer;
		planner_depth = outer_depth;
	}
	PG_END_TRY();
}

/* planner_hook: count nested planner calls. */
static PlannedStmt *
hypo_planner(Query *parse, const char *query_string, int cursorOptions,
			 ParamListInfo boundParams)
{
	PlannedStmt *result;

	planner_depth++;
	PG_TRY();
	{
		if (prev_planner_hook)
			result = prev_planner_hook(parse, query_string, cursorOptions,
									   boundParams);
		else
			result = standard_planner(parse, query_string, cursorOptions,
									  boundParams);
	}
	PG_FINALLY();
	{
		planner_depth--;
	}
	PG_END_TRY();
	return result;
}

/* Install the planner, utility and EXPLAIN hooks, keeping the previous ones. */
void
bp_hypo_init(void)
{
	prev_process_utility_hook = ProcessUtility_hook;
	ProcessUtility_hook = hypo_process_utility;
	prev_planner_hook = planner_hook;
	planner_hook = hypo_planner;
	prev_get_relation_info_hook = get_relation_info_hook;
	get_relation_info_hook = hypo_get_relation_info;
	prev_explain_get_index_name_hook = explain_get_index_name_hook;
	explain_get_index_name_hook = hypo_explain_index_name;
}
