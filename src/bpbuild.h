/*-------------------------------------------------------------------------
 *
 * bpbuild.h
 *	  CREATE INDEX: the build and its progress phases.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPBUILD_H
#define BPBUILD_H

#include "access/genam.h"
#include "nodes/execnodes.h"

/* Build progress subphases, reported through amphasename. */
#define BP_BUILD_PHASE_SCAN		2
#define BP_BUILD_PHASE_SORT		3
#define BP_BUILD_PHASE_LOAD		4

extern IndexBuildResult *bp_build(Relation heap, Relation index,
								  IndexInfo *indexInfo);
extern void bp_buildempty(Relation index);

#endif							/* BPBUILD_H */
