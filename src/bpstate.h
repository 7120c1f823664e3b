/*-------------------------------------------------------------------------
 *
 * bpstate.h
 *	  An open index: its per-backend state, checked buffers and metapage.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPSTATE_H
#define BPSTATE_H

#include "storage/bufmgr.h"
#include "storage/lockdefs.h"
#include "utils/relcache.h"

#include "bpformat.h"
#include "bpgeometry.h"
#include "bpleaf.h"
#include "bpslot.h"

/* Everything a backend keeps about an open index (in rd_amcache). */
typedef struct BpIndexState
{
	BpSlotDesc	desc;
	BpMetaPageData meta;		/* copy of the metapage (layout only) */
	BpOptions	options;		/* the index's reloptions */
	BlockNumber cached_leaf;	/* leaf of this backend's last insert */
	BlockNumber cached_root;	/* root as last read from the metapage */
	uint16		cached_root_level;
	BpLeafWork	work;			/* buffers for inserts */
} BpIndexState;

extern BpIndexState *bp_get_state(Relation index);
extern Buffer bp_read_buffer(Relation index, BlockNumber blkno, int lockmode);
extern Buffer bp_read_buffer_for_cleanup(Relation index, BlockNumber blkno);
extern void bp_check_page(Relation index, Buffer buf, Page page);
extern void bp_read_meta(Relation index, BpMetaPageData *meta);
extern void bp_check_columns(Relation index);
extern void bp_check_column_class(Oid amoid, Oid type, Oid opclass,
								  const char *column, const char *index);
extern Relation bp_open_index(Oid indexoid, LOCKMODE lockmode);

#endif							/* BPSTATE_H */
