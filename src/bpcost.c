/*-------------------------------------------------------------------------
 *
 * bpcost.c
 *	  Cost estimation for bpindex scans.
 *
 * A bpindex index answers the same quals in the same order as a btree
 * index of the same shape: its operator classes carry btree's strategy
 * numbers and comparison functions.  The estimate is therefore btree's
 * own, which works from IndexOptInfo and statistics only (the index is
 * never opened, so it also serves hypothetical indexes), with the tree
 * height, which the planner only knows for btree, taken from the build's
 * fill model, and with the quals that bound the range a scan reads: a
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

#include "access/stratnum.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/index_selfuncs.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "bpindex.h"

/*
 * Levels below the root of an index like this one, from the build's fill
 * model, where the planner does not know them (15 knows the height of
 * btree indexes only; 18 asks amgettreeheight).
 */
static int
estimate_tree_height(IndexOptInfo *index)
{
	BpOptions	defaults = {0, BP_DEFAULT_FILLFACTOR, 0, 0, true};
	int16		lengths[INDEX_MAX_KEYS];
	char		aligns[INDEX_MAX_KEYS];
	bool		byvals[INDEX_MAX_KEYS];
	BpaLayout	layout;
	int			levels;
	uint16		width;

	for (int i = 0; i < index->nkeycolumns; i++)
	{
		get_typlenbyvalalign(index->opcintype[i], &lengths[i], &byvals[i],
							 &aligns[i]);
		if (lengths[i] <= 0)
			return 0;
	}
	width = bp_slot_layout(index->nkeycolumns, lengths, byvals, aligns, NULL);
	if (!bp_choose_plain_layout(&defaults, index->nkeycolumns, width, &layout))
		return 0;
	bp_estimate_pages(index->tuples, bpa_fill_target(&layout, BP_DEFAULT_FILLFACTOR),
					  bp_internal_fill_estimate(width, 0), &levels);
	return levels - 1;
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
		index->tree_height = estimate_tree_height(index);
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
