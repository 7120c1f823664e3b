/*-------------------------------------------------------------------------
 *
 * bpbuildsort.h
 *	  The sort of a build: index entries from heap tuples, in order.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPBUILDSORT_H
#define BPBUILDSORT_H

#include "access/relscan.h"
#include "nodes/execnodes.h"
#include "utils/sortsupport.h"
#include "utils/tuplesort.h"

#include "bpslot.h"

typedef struct BpBuildSort BpBuildSort;

extern double bp_build_sort_part(Relation heap, Relation index,
								 IndexInfo *indexInfo,
								 struct TableScanDescData *scan, int sortmem,
								 struct SortCoordinateData *coordinate,
								 double *indtuples);
extern BpBuildSort *bp_build_sort_begin(Relation index, const BpSlotDesc *desc,
										double rows_expected, int sortmem,
										struct SortCoordinateData *coordinate);
extern void bp_build_sort_put(BpBuildSort *sort, Datum *values, bool *isnull,
							  ItemPointer tid);
extern void bp_build_sort_perform(BpBuildSort *sort);
extern bool bp_build_sort_next(BpBuildSort *sort, char *entry);
extern void bp_build_sort_end(BpBuildSort *sort);

#endif							/* BPBUILDSORT_H */
