/*-------------------------------------------------------------------------
 *
 * bpinsert.c
 *	  Inserting into a bpindex index after it has been built.
 *
 * Not supported yet: aminsert refuses with an error naming the index, so
 * the statement that would have needed a new index entry fails and the
 * index never diverges from its table.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/rel.h"

#include "bpindex.h"

/* aminsert: refuse, naming the index. */
bool
bp_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		  Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		  IndexInfo *indexInfo)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("inserting into bpindex index \"%s\" is not supported yet",
					RelationGetRelationName(index)),
			 errhint("Drop the index before modifying table \"%s\", then create it again.",
					 RelationGetRelationName(heapRel))));
	return false;
}
