/*-------------------------------------------------------------------------
 *
 * bpbuildparallel.h
 *	  Parallel CREATE INDEX: workers that scan and sort parts of the heap.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPBUILDPARALLEL_H
#define BPBUILDPARALLEL_H

#include "access/relscan.h"
#include "nodes/execnodes.h"
#include "storage/dsm.h"
#include "storage/shm_toc.h"
#include "utils/tuplesort.h"

typedef struct BpParallelBuild BpParallelBuild;

extern BpParallelBuild *bp_parallel_build_begin(Relation heap, Relation index,
												IndexInfo *indexInfo,
												int nworkers);
extern struct SortCoordinateData *bp_parallel_build_coordinate(BpParallelBuild *build);
extern void bp_parallel_build_scan(BpParallelBuild *build, Relation heap,
								   Relation index, IndexInfo *indexInfo,
								   double *reltuples, double *indtuples);
extern void bp_parallel_build_end(BpParallelBuild *build);
extern PGDLLEXPORT void bp_parallel_build_main(struct dsm_segment *seg,
											   struct shm_toc *toc);

#endif							/* BPBUILDPARALLEL_H */
