/*-------------------------------------------------------------------------
 *
 * bpinsert.h
 *	  aminsert: inserts, leaf splits and downlinks.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPINSERT_H
#define BPINSERT_H

#include "access/genam.h"
#include "nodes/execnodes.h"

extern bool bp_insert(Relation index, Datum *values, bool *isnull,
					  ItemPointer ht_ctid, Relation heapRel,
					  IndexUniqueCheck checkUnique, bool indexUnchanged,
					  IndexInfo *indexInfo);

#endif							/* BPINSERT_H */
