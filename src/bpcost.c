/*-------------------------------------------------------------------------
 *
 * bpcost.c
 *	  Cost estimation for bpindex scans.
 *
 * A bpindex index answers the same quals in the same order as a btree
 * index of the same shape: its operator classes carry btree's strategy
 * numbers and comparison functions.  The estimate is therefore btree's
 * own, which works from IndexOptInfo and statistics only (the index is
 * never opened, so it also serves hypothetical indexes).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/index_selfuncs.h"

#include "bpindex.h"

/* amcostestimate: btree's estimate for the same quals and statistics. */
void
bp_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
				Cost *indexStartupCost, Cost *indexTotalCost,
				Selectivity *indexSelectivity, double *indexCorrelation,
				double *indexPages)
{
	btcostestimate(root, path, loop_count, indexStartupCost, indexTotalCost,
				   indexSelectivity, indexCorrelation, indexPages);
}
