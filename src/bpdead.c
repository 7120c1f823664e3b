/*-------------------------------------------------------------------------
 *
 * bpdead.c
 *	  Removing the entries of dead heap tuples from a leaf, WAL-logged: for
 *	  VACUUM (every entry the callback names) and for inserts that make room
 *	  in a full leaf (the entries scans marked dead).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/indexfsm.h"
#include "utils/rel.h"

#include "bpdead.h"
#include "bpleaf.h"
#include "bpleafread.h"
#include "bpstate.h"
#include "bpxlog.h"

/*
 * Remove from the exclusively locked leaf in buf the entries (with
 * marked_only, the entries carrying a dead mark) whose heap TID the
 * callback reports dead, WAL-logged; returns how many it removed.
 */
int
bp_remove_dead_entries(Relation index, Buffer buf, bool marked_only,
					   bool (*callback) (ItemPointer, void *), void *arg)
{
	BpIndexState *state = bp_get_state(index);
	BpLeaf		leaf;
	PGAlignedBlock copy;
	int			n;

	bp_leaf_open(&leaf, BufferGetPage(buf), &state->desc);
	n = bp_leaf_collect_dead(&leaf, marked_only, callback, arg,
							 state->work.stored);
	if (n == 0)
		return 0;
	memcpy(copy.data, BufferGetPage(buf), BLCKSZ);
	bp_leaf_open(&leaf, copy.data, &state->desc);
	if (!bp_leaf_remove_stored(&leaf, state->work.stored, n))
		elog(ERROR, "entry vanished from bpindex index \"%s\" while removing dead entries",
			 RelationGetRelationName(index));
	bp_install_page(index, buf, copy.data,
					marked_only ? BP_XLOG_DEAD : BP_XLOG_VACUUM);
	return n;
}
