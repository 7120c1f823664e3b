/*-------------------------------------------------------------------------
 *
 * bpcost.c
 *	  Cost estimation for bpindex scans.
 *
 * A bpindex index answers the same quals in the same order as a btree
 * index of the same shape: its operator classes carry btree's strategy
 * numbers and comparison functions.  The estimate is therefore btree's
 * own, which works from IndexOptInfo and statistics, with the tree
 * height, which PostgreSQL 15's planner only knows for btree, read from the
 * metapage (hypothetical indexes bring the height of their size model),
 * and with the quals that bound the range a scan reads: a
 * scan reads every entry between the bounds of the key columns up to the
 * first one without an = or IS NULL qual (bpsearch.c) and tests the other
 * quals on each: it is costed on the bounding quals alone, the others
 * counting for the rows it returns and the work per entry.  PostgreSQL
 * 18's btree costs its own skip scans into that estimate when given quals
 * on later columns, which is why it gets the bounding quals only.
 *
 * Where quals on later columns follow leading columns that no = qual
 * pins, a bpindex scan skips (bpscankey.c, bpscan.c): it walks the
 * distinct values of the leading columns, the prefix, with a descent or
 * two per value, and reads the leaves of each value's range; where values
 * are so many that their ranges share leaves, it reads the leaves of the
 * outer range whole.  That is costed from the number of distinct prefixes
 * the statistics give, and taken when cheaper than reading the range.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/stratnum.h"
#include "nodes/makefuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/index_selfuncs.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/spccache.h"

#include "bpcompat.h"
#include "bpcost.h"
#include "bpsearch.h"

/*
 * CPU cost of each page a descent passes, in cpu_operator_cost units (as
 * btree's estimate charges them).
 */
#define DESCENT_PAGE_CPU	50.0

/*
 * Entries a skip scan's descent tests in the leaf it reaches: the log and
 * a block or two (bp_leaf_nearest, the range's blocks), not the leaf.
 */
#define DESCENT_LEAF_ENTRIES	100.0

/* What the quals of one index column do to a scan. */
typedef struct ColumnQuals
{
	bool		bounds;			/* a qual other than IS NOT NULL */
	bool		pins;			/* an = (not = ANY) or IS NULL qual */
	bool		array_eq;		/* an = ANY qual */
	double		nelems;			/* ... its estimated elements */
} ColumnQuals;

/*
 * Levels below the root of a real index, from its metapage, where the
 * planner does not know them (15 knows the height of btree indexes only;
 * 18 asks amgettreeheight).  A hypothetical index comes with its own.
 */
static int
tree_height(IndexOptInfo *index)
{
	Relation	rel = index_open(index->indexoid, NoLock);
	int			height = bp_gettreeheight(rel);

	index_close(rel, NoLock);
	return height;
}

/* Does the qual of index column col pin it to one value (=, IS NULL)? */
static bool
qual_pins_column(IndexOptInfo *index, int col, RestrictInfo *rinfo)
{
	Node	   *clause = (Node *) rinfo->clause;
	Oid			opno;

	if (IsA(clause, NullTest))
		return ((NullTest *) clause)->nulltesttype == IS_NULL;
	if (IsA(clause, OpExpr))
		opno = ((OpExpr *) clause)->opno;
	else if (IsA(clause, ScalarArrayOpExpr) && ((ScalarArrayOpExpr *) clause)->useOr)
		opno = ((ScalarArrayOpExpr *) clause)->opno;
	else
		return false;
	return get_op_opfamily_strategy(opno, index->opfamily[col]) ==
		BTEqualStrategyNumber;
}

/* Classify the quals of index column col of path into *quals. */
static void
classify_column_quals(PlannerInfo *root, IndexPath *path, int col,
					  ColumnQuals *quals)
{
	ListCell   *lc;
	ListCell   *qc;

	memset(quals, 0, sizeof(ColumnQuals));
	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);

		if (iclause->indexcol != col)
			continue;
		foreach(qc, iclause->indexquals)
		{
			RestrictInfo *rinfo = lfirst_node(RestrictInfo, qc);
			Node	   *clause = (Node *) rinfo->clause;
			ScalarArrayOpExpr *saop = IsA(clause, ScalarArrayOpExpr) ?
				(ScalarArrayOpExpr *) clause : NULL;

			if (IsA(clause, NullTest) &&
				((NullTest *) clause)->nulltesttype == IS_NOT_NULL)
				continue;
			quals->bounds = true;
			if (saop != NULL && qual_pins_column(path->indexinfo, col, rinfo))
			{
				quals->array_eq = true;
				quals->nelems = bp_estimate_array_length(root,
														 lsecond(saop->args));
			}
			else if (qual_pins_column(path->indexinfo, col, rinfo))
				quals->pins = true;
		}
	}
}

/*
 * The key columns whose values a scan of path skips through, as
 * bp_prepare_keys decides at run time: those through the last one without
 * an =, = ANY or IS NULL qual before the last column with a qual other
 * than IS NOT NULL (*last); 0 when every such column has one, or when an
 * = ANY qual lies between two that have none.  *nelems: the elements of
 * the first = ANY qual after them, each a primitive scan per prefix (one
 * before them is the outer loop, its elements counted among the prefixes).
 * In a parallel scan that qual filters each prefix's range instead: *last
 * stops before its column, and *nelems is 1.
 */
static int
skip_prefix_columns(PlannerInfo *root, IndexPath *path, int *last,
					double *nelems)
{
	ColumnQuals quals[INDEX_MAX_KEYS];
	int			first_free = -1;
	int			last_free = -1;
	int			array_after_free = -1;

	*nelems = 1;
	*last = -1;
	for (int col = 0; col < path->indexinfo->nkeycolumns; col++)
	{
		classify_column_quals(root, path, col, &quals[col]);
		if (quals[col].bounds)
			*last = col;
	}
	for (int col = 0; col < *last; col++)
	{
		if (!quals[col].pins && !quals[col].array_eq)
		{
			if (first_free < 0)
				first_free = col;
			last_free = col;
		}
		else if (quals[col].array_eq && first_free >= 0)
			array_after_free = col;
	}
	if (first_free < 0 ||
		(array_after_free > first_free && array_after_free < last_free))
		return 0;
	for (int col = last_free + 1; col <= *last; col++)
		if (quals[col].array_eq && path->path.parallel_aware)
		{
			*last = col - 1;
			break;
		}
		else if (quals[col].array_eq)
		{
			*nelems = Max(quals[col].nelems, 1);
			break;
		}
	return last_free + 1;
}

/* The expression of key column col of index. */
static Node *
column_expression(PlannerInfo *root, IndexOptInfo *index, int col)
{
	ListCell   *indexpr = list_head(index->indexprs);
	AttrNumber	attno = index->indexkeys[col];
	Oid			type;
	int32		typmod;
	Oid			collation;

	if (attno == 0)
	{
		for (int i = 0; i < col; i++)
			if (index->indexkeys[i] == 0)
				indexpr = lnext(index->indexprs, indexpr);
		return (Node *) lfirst(indexpr);
	}
	get_atttypetypmodcoll(planner_rt_fetch(index->rel->relid, root)->relid,
						  attno, &type, &typmod, &collation);
	return (Node *) makeVar(index->rel->relid, attno, type, typmod, collation, 0);
}

/* The index clauses of path on key column col. */
static List *
column_clauses(IndexPath *path, int col)
{
	List	   *clauses = NIL;
	ListCell   *lc;

	foreach(lc, path->indexclauses)
		if (lfirst_node(IndexClause, lc)->indexcol == col)
			clauses = lappend(clauses, lfirst(lc));
	return clauses;
}

/* Selectivity of index clauses, over the index's table. */
static Selectivity
clauses_selectivity(PlannerInfo *root, IndexOptInfo *index, List *clauses)
{
	return clauselist_selectivity(root, get_quals_from_indexclauses(clauses),
								  index->rel->relid, JOIN_INNER, NULL);
}

/*
 * The distinct prefixes of the first ncolumns key columns of path's index
 * in the outer range of outer_tuples entries: the product of each
 * column's distinct values in the table (its statistics), times the
 * selectivity of the column's own clauses.
 */
static double
distinct_prefixes(PlannerInfo *root, IndexPath *path, int ncolumns,
				  double outer_tuples)
{
	IndexOptInfo *index = path->indexinfo;
	double		prefixes = 1;

	for (int col = 0; col < ncolumns; col++)
	{
		VariableStatData vardata;
		bool		isdefault;
		double		ndistinct;

		examine_variable(root, column_expression(root, index, col),
						 index->rel->relid, &vardata);
		ndistinct = get_variable_numdistinct(&vardata, &isdefault);
		ReleaseVariableStats(vardata);
		ndistinct *= clauses_selectivity(root, index, column_clauses(path, col));
		prefixes *= Max(ndistinct, 1);
	}
	return Min(prefixes, outer_tuples);
}

/* The index clauses of path on its key columns up to last. */
static List *
clauses_through(IndexPath *path, int last)
{
	List	   *clauses = NIL;
	ListCell   *lc;

	foreach(lc, path->indexclauses)
		if (lfirst_node(IndexClause, lc)->indexcol <= last)
			clauses = lappend(clauses, lfirst(lc));
	return clauses;
}

/*
 * The cost of a skip scan of path through nskip prefix columns, the quals
 * through key column last bounding each prefix's range: per distinct
 * prefix (and element of an array after them) a
 * descent to where it starts and one to its range, each testing some
 * entries of the leaf it reaches, then the leaves of its range; at most
 * every leaf and entry of the outer range (the range the bounding clauses
 * give), which the scan reads whole where prefixes are many.  Returns the
 * total cost; *startup the cost of the first descent, *pages the leaves
 * read.
 */
static Cost
skip_scan_cost(PlannerInfo *root, IndexPath *path, int nskip, int last,
			   double nelems, List *bounding, double loop_count, Cost *startup,
			   double *pages)
{
	IndexOptInfo *index = path->indexinfo;
	double		tuples = Max(index->tuples, 1);
	double		leaves = Max(index->pages, 1);
	double		outer_tuples = clamp_row_est(tuples *
											 clauses_selectivity(root, index, bounding));
	double		outer_leaves = ceil(leaves * outer_tuples / tuples);
	double		prefixes = distinct_prefixes(root, path, nskip, outer_tuples);
	double		descents = 2 * prefixes * nelems;
	double		entries = clamp_row_est(tuples *
										clauses_selectivity(root, index,
															clauses_through(path, last)));
	double		random_page_cost;
	QualCost	qual_cost;
	Cost		descent_cost;

	*pages = Min(outer_leaves, descents + ceil(leaves * entries / tuples));
	entries += descents * Min(DESCENT_LEAF_ENTRIES, tuples / leaves);
	if (entries >= outer_tuples)
	{
		/* prefixes share leaves: every leaf and entry of the outer range */
		descents = Min(descents, outer_leaves);
		entries = outer_tuples;
	}
	get_tablespace_page_costs(index->reltablespace, &random_page_cost, NULL);
	cost_qual_eval(&qual_cost, get_quals_from_indexclauses(path->indexclauses), root);
	descent_cost = (ceil(log(tuples) / log(2.0)) +
					(index->tree_height + 1) * DESCENT_PAGE_CPU) * cpu_operator_cost;
	*startup = descent_cost;
	if (loop_count > 1)
		return index_pages_fetched(*pages * loop_count, index->pages,
								   index->rel->pages, root) / loop_count *
			random_page_cost +
			descents * descent_cost +
			entries * (cpu_index_tuple_cost + qual_cost.per_tuple);
	return *pages * random_page_cost + descents * descent_cost +
		entries * (cpu_index_tuple_cost + qual_cost.per_tuple);
}

/*
 * The index clauses of path that bound the range a scan reads: those of
 * each key column in turn while the columns before are pinned to one value
 * (bpsearch.c's bounds).
 */
static List *
bounding_clauses(IndexPath *path)
{
	List	   *bounding = NIL;

	for (int col = 0; col < path->indexinfo->nkeycolumns; col++)
	{
		bool		found = false;
		bool		pinned = false;
		ListCell   *lc;
		ListCell   *qc;

		foreach(lc, path->indexclauses)
		{
			IndexClause *iclause = lfirst_node(IndexClause, lc);

			if (iclause->indexcol != col)
				continue;
			found = true;
			bounding = lappend(bounding, iclause);
			foreach(qc, iclause->indexquals)
				pinned |= qual_pins_column(path->indexinfo, col,
										   lfirst_node(RestrictInfo, qc));
		}
		if (!found || !pinned)
			break;
	}
	return bounding;
}

/*
 * amcostestimate: btree's estimate for the quals that bound the range a
 * scan reads, the other quals filtering its entries; or a skip scan's
 * cost, when the scan skips and that is lower.
 */
void
bp_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
				Cost *indexStartupCost, Cost *indexTotalCost,
				Selectivity *indexSelectivity, double *indexCorrelation,
				double *indexPages)
{
	IndexOptInfo *index = path->indexinfo;
	IndexPath	bounded = *path;
	List	   *quals;
	QualCost	qual_cost;
	int			nskip;
	int			last;
	double		nelems;
	Cost		skip_startup;
	Cost		skip_total;
	double		skip_pages;

	if (index->tree_height < 0)
		index->tree_height = tree_height(index);
	bounded.indexclauses = bounding_clauses(path);
	btcostestimate(root, &bounded, loop_count, indexStartupCost, indexTotalCost,
				   indexSelectivity, indexCorrelation, indexPages);
	if (list_length(bounded.indexclauses) == list_length(path->indexclauses))
		return;

	/* every entry read is tested against the quals that do not bound */
	quals = get_quals_from_indexclauses(path->indexclauses);
	cost_qual_eval(&qual_cost, get_quals_from_indexclauses(path->indexclauses), root);
	*indexTotalCost += *indexSelectivity * index->tuples * qual_cost.per_tuple;
	/* and the scan returns the entries that pass all of them */
	*indexSelectivity = clauselist_selectivity(root,
											   add_predicate_to_index_quals(index, quals),
											   index->rel->relid, JOIN_INNER, NULL);

	nskip = skip_prefix_columns(root, path, &last, &nelems);
	if (nskip > 0)
	{
		skip_total = skip_scan_cost(root, path, nskip, last, nelems,
									bounded.indexclauses, loop_count,
									&skip_startup, &skip_pages);
		if (skip_total < *indexTotalCost)
		{
			*indexStartupCost = skip_startup;
			*indexTotalCost = skip_total;
			*indexPages = skip_pages;
		}
	}
	list_free(bounded.indexclauses);
}
