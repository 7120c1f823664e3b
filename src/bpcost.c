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
 * quals on each.  PostgreSQL 18's btree skips through the values of an
 * unconstrained leading column and costs its scans so; bpindex does not
 * skip, so it is costed on the bounding quals alone, the others counting
 * for the rows it returns and the work per entry.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/stratnum.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/index_selfuncs.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "bpcost.h"
#include "bpsearch.h"

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
 * scan reads; the other quals filter its entries.
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
	list_free(bounded.indexclauses);
}
