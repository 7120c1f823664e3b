/*-------------------------------------------------------------------------
 *
 * bprowcompare.c
 *	  Row comparisons as index conditions.  PostgreSQL's planner matches a
 *	  row comparison such as (a, b) > (x, y) to btree indexes only, so a
 *	  keyset page over a bpindex index on (a, b) would read the whole
 *	  index.  A set_rel_pathlist_hook adds, for each bpindex index whose
 *	  first key column is the comparison's first column, index paths (both
 *	  directions) and a bitmap heap path whose index condition is the bound
 *	  the comparison implies on that column (a >= x), derived from it as a
 *	  lossy index clause: the row comparison itself stays a filter (checked
 *	  on the heap rows of a bitmap scan), and the relation's row estimate
 *	  is the one the planner made from it.  The same hook gives LIKE
 *	  'prefix%' on a key column of a pattern operator class its bounds,
 *	  beside the = restrictions of the key columns before it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "access/sysattr.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "utils/lsyscache.h"

#include "bpcompat.h"
#include "bpcost.h"
#include "bplikeprefix.h"
#include "bprowcompare.h"

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;

/* Is index a bpindex index (real or hypothetical), orderable? */
static bool
is_bpindex(const IndexOptInfo *index)
{
	return index->amcostestimate == bp_costestimate && index->nkeycolumns > 0 &&
		index->sortopfamily != NULL;
}

/*
 * The strategy of the bound a row comparison of strategy row_strategy (a
 * btree strategy: <, <=, >= or >) implies on its first column: >= for >
 * and >=, <= for < and <= (the other way round when the column is on the
 * right); InvalidStrategy for others.
 */
static StrategyNumber
leading_bound_strategy(StrategyNumber row_strategy, bool commuted)
{
	bool		lower;

	if (row_strategy == BTGreaterStrategyNumber ||
		row_strategy == BTGreaterEqualStrategyNumber)
		lower = true;
	else if (row_strategy == BTLessStrategyNumber ||
			 row_strategy == BTLessEqualStrategyNumber)
		lower = false;
	else
		return InvalidStrategy;
	return lower != commuted ? BTGreaterEqualStrategyNumber :
		BTLessEqualStrategyNumber;
}

/*
 * The bound rinfo's row comparison implies on the first key column of
 * index, as a restriction clause (column op value), or NULL: the
 * comparison's first column must be that column (on either side), the
 * other side a value the scan can compute before it starts, the operator
 * one of the column's operator family, under the column's collation.
 */
static RestrictInfo *
leading_bound(PlannerInfo *root, RestrictInfo *rinfo, IndexOptInfo *index)
{
	RowCompareExpr *rc = (RowCompareExpr *) rinfo->clause;
	Node	   *left = linitial(rc->largs);
	Node	   *right = linitial(rc->rargs);
	bool		commuted = false;
	StrategyNumber strategy;
	Oid			column_type;
	Oid			value_type;
	Oid			opno;
	Expr	   *clause;

	if (!match_index_to_operand(left, 0, index))
	{
		Node	   *swap = left;

		left = right;
		right = swap;
		commuted = true;
		if (!match_index_to_operand(left, 0, index))
			return NULL;
	}
	if (bms_is_member(index->rel->relid, pull_varnos(root, right)) ||
		contain_volatile_functions(right))
		return NULL;
	if (!op_in_opfamily(linitial_oid(rc->opnos), index->opfamily[0]) ||
		linitial_oid(rc->inputcollids) != index->indexcollations[0])
		return NULL;
	strategy = leading_bound_strategy(bp_rowcompare_strategy(rc), commuted);
	if (strategy == InvalidStrategy)
		return NULL;
	/* the comparison operator's input types, column first */
	op_input_types(linitial_oid(rc->opnos), &column_type, &value_type);
	if (commuted)
	{
		Oid			swap = column_type;

		column_type = value_type;
		value_type = swap;
	}
	opno = get_opfamily_member(index->opfamily[0], column_type, value_type,
							   strategy);
	if (!OidIsValid(opno))
		return NULL;
	clause = make_opclause(opno, BOOLOID, false, (Expr *) copyObject(left),
						   (Expr *) copyObject(right), InvalidOid,
						   linitial_oid(rc->inputcollids));
	set_opfuncid((OpExpr *) clause);
	return make_simple_restrictinfo(root, clause);
}

/*
 * Can an index-only scan of index answer for rel: does it return every
 * column the query reads of rel (its output and its restrictions)?
 */
static bool
index_only_possible(RelOptInfo *rel, IndexOptInfo *index)
{
	Bitmapset  *needed = NULL;
	Bitmapset  *returned = NULL;
	ListCell   *lc;

	if (!enable_indexonlyscan)
		return false;
	pull_varattnos((Node *) rel->reltarget->exprs, rel->relid, &needed);
	foreach(lc, index->indrestrictinfo)
		pull_varattnos((Node *) lfirst_node(RestrictInfo, lc)->clause,
					   rel->relid, &needed);
	for (int i = 0; i < index->ncolumns; i++)
		if (index->indexkeys[i] != 0 && index->canreturn[i])
			returned = bms_add_member(returned, index->indexkeys[i] -
									  FirstLowInvalidHeapAttributeNumber);
	return bms_is_subset(needed, returned);
}

/* An index clause of index column col: rinfo, or bounds derived from it. */
static IndexClause *
make_index_clause(RestrictInfo *rinfo, List *quals, bool lossy, int col)
{
	IndexClause *iclause = makeNode(IndexClause);

	iclause->rinfo = rinfo;
	iclause->indexquals = quals;
	iclause->lossy = lossy;
	iclause->indexcol = col;
	iclause->indexcols = NIL;
	return iclause;
}

/*
 * Is rinfo "column = value" on key column col of index: the column on the
 * left, the equality operator of its family under its collation, a value
 * the scan can compute before it starts?
 */
static bool
equality_on_column(PlannerInfo *root, RestrictInfo *rinfo, IndexOptInfo *index,
				   int col)
{
	OpExpr	   *op = (OpExpr *) rinfo->clause;
	Node	   *value;

	if (!IsA(op, OpExpr) || list_length(op->args) != 2 ||
		!match_index_to_operand(linitial(op->args), col, index) ||
		get_op_opfamily_strategy(op->opno, index->opfamily[col]) !=
		BTEqualStrategyNumber ||
		(OidIsValid(index->indexcollations[col]) &&
		 op->inputcollid != index->indexcollations[col]))
		return false;
	value = lsecond(op->args);
	return !bms_is_member(index->rel->relid, pull_varnos(root, value)) &&
		!contain_volatile_functions(value);
}

/*
 * The index clauses of the key columns of index before col: each
 * restriction of rel that is an = on one of them (columns without one are
 * skipped through by the scan).
 */
static List *
leading_equality_clauses(PlannerInfo *root, RelOptInfo *rel,
						 IndexOptInfo *index, int col)
{
	List	   *iclauses = NIL;

	for (int j = 0; j < col; j++)
	{
		ListCell   *lc;

		foreach(lc, rel->baserestrictinfo)
		{
			RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);

			if (!rinfo->pseudoconstant && equality_on_column(root, rinfo, index, j))
				iclauses = lappend(iclauses,
								   make_index_clause(rinfo, list_make1(rinfo), false, j));
		}
	}
	return iclauses;
}

/*
 * Add index paths of index (index-only scans where they can be), forward
 * and backward, and a bitmap heap path, whose index clauses are the =
 * restrictions of the key columns before col and rinfo, lossy, through
 * the bounds on column col derived from it.
 */
static void
add_bound_paths(PlannerInfo *root, RelOptInfo *rel, IndexOptInfo *index,
				RestrictInfo *rinfo, List *bounds, int col)
{
	List	   *iclauses = lappend(leading_equality_clauses(root, rel, index, col),
								   make_index_clause(rinfo, bounds, true, col));
	ScanDirection dirs[] = {ForwardScanDirection, BackwardScanDirection};
	bool		index_only = index_only_possible(rel, index);

	if (enable_bitmapscan && index->amhasgetbitmap)
	{
		IndexPath  *bitmapqual = create_index_path(root, index, iclauses, NIL,
												   NIL, NIL, ForwardScanDirection,
												   false, NULL, 1.0, false);

		add_path(rel, (Path *) create_bitmap_heap_path(root, rel,
													   (Path *) bitmapqual,
													   rel->lateral_relids,
													   1.0, 0));
	}
	for (int i = 0; enable_indexscan && i < lengthof(dirs); i++)
	{
		List	   *pathkeys = build_index_pathkeys(root, index, dirs[i]);
		IndexPath  *path;

		pathkeys = truncate_useless_pathkeys(root, rel, pathkeys);
		/* backward only when some ordering asks for it */
		if (i > 0 && pathkeys == NIL)
			continue;
		path = create_index_path(root, index, iclauses, NIL, NIL,
								 pathkeys, dirs[i], index_only, NULL, 1.0,
								 false);
		add_path(rel, (Path *) path);
	}
}

/*
 * set_rel_pathlist_hook: paths of bpindex indexes for the row comparisons
 * and the LIKE prefixes (bplikeprefix.c) among the restrictions of a table
 * or a partition.
 */
static void
bp_set_rel_pathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
					RangeTblEntry *rte)
{
	ListCell   *lc;

	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);
	/* a table, or a partition or child of one (which have indexes) */
	if ((rel->reloptkind != RELOPT_BASEREL &&
		 rel->reloptkind != RELOPT_OTHER_MEMBER_REL) ||
		rte->rtekind != RTE_RELATION || (!enable_indexscan && !enable_bitmapscan))
		return;
	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *index = lfirst_node(IndexOptInfo, lc);
		ListCell   *rc;

		if (!is_bpindex(index) || (index->indpred != NIL && !index->predOK))
			continue;
		foreach(rc, rel->baserestrictinfo)
		{
			RestrictInfo *rinfo = lfirst_node(RestrictInfo, rc);
			List	   *bounds = NIL;
			int			col = 0;

			if (rinfo->pseudoconstant)
				continue;
			if (IsA(rinfo->clause, RowCompareExpr))
			{
				RestrictInfo *bound = leading_bound(root, rinfo, index);

				if (bound != NULL)
					bounds = list_make1(bound);
			}
			else
				bounds = bp_like_prefix_bounds(root, rinfo, index, &col);
			if (bounds != NIL)
				add_bound_paths(root, rel, index, rinfo, bounds, col);
		}
	}
}

/* Install the planner hook (_PG_init). */
void
bp_rowcompare_init(void)
{
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = bp_set_rel_pathlist;
}
