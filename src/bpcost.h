/*-------------------------------------------------------------------------
 *
 * bpcost.h
 *	  amcostestimate.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPCOST_H
#define BPCOST_H

#include "nodes/pathnodes.h"

extern void bp_costestimate(PlannerInfo *root, IndexPath *path,
							double loop_count, Cost *indexStartupCost,
							Cost *indexTotalCost,
							Selectivity *indexSelectivity,
							double *indexCorrelation, double *indexPages);

#endif							/* BPCOST_H */
