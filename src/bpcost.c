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
 * fill model.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/index_selfuncs.h"
#include "utils/lsyscache.h"

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

/* amcostestimate: btree's estimate for the same quals and statistics. */
void
bp_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
				Cost *indexStartupCost, Cost *indexTotalCost,
				Selectivity *indexSelectivity, double *indexCorrelation,
				double *indexPages)
{
	if (path->indexinfo->tree_height < 0)
		path->indexinfo->tree_height = estimate_tree_height(path->indexinfo);
	btcostestimate(root, path, loop_count, indexStartupCost, indexTotalCost,
				   indexSelectivity, indexCorrelation, indexPages);
}
