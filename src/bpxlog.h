/*-------------------------------------------------------------------------
 *
 * bpxlog.h
 *	  bpindex's WAL resource manager: its records, and the API through
 *	  which every change of an index page is made and logged.
 *
 * See bpxlog.c and src/README.md ("WAL").
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPXLOG_H
#define BPXLOG_H

#include "access/xlogreader.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

/*
 * The resource manager's ID, in the range PostgreSQL keeps for extensions
 * (128-255).  RegisterCustomRmgr refuses it, naming both, if another
 * preloaded module has taken it.
 */
#define BP_RMGR_ID			201
#define BP_RMGR_NAME		"bpindex"

/*
 * Record kinds, in the high bits of a record's info byte.  Each names what
 * changed; all carry the changed pages the same way (full images or byte
 * ranges), and the kinds that remove entries or delete or reuse a page
 * are replayed under a cleanup lock of the page concerned.
 */
#define BP_XLOG_INSERT		0x00	/* byte ranges an append changed */
#define BP_XLOG_REWRITE		0x10	/* a page rewritten: flush, re-encoding */
#define BP_XLOG_SPLIT		0x20	/* a page and its new right sibling */
#define BP_XLOG_DOWNLINK	0x30	/* a downlink added, a split finished */
#define BP_XLOG_NEWROOT		0x40	/* a new root and the metapage */
#define BP_XLOG_VACUUM		0x50	/* VACUUM removed entries of a leaf */
#define BP_XLOG_DEAD		0x60	/* an insert removed pruned entries */
#define BP_XLOG_DELETE		0x70	/* an empty page deleted */
#define BP_XLOG_REUSE		0x80	/* a deleted page about to be reused */
#define BP_XLOG_PINS		0x90	/* leaves VACUUM cleanup-locked, unchanged */
#define BP_XLOG_HORIZON		0xA0	/* entries of dead tuples about to go */
#define BP_XLOG_KIND_MASK	0xF0

/* Blocks of one record, at most. */
#define BP_XLOG_MAX_PAGES	5

/* Flags of a page registered with bp_xlog_register. */
#define BP_XLOG_FULL_IMAGE	0x01	/* log the whole page (a new page) */
#define BP_XLOG_CLEANUP		0x02	/* replay under a cleanup lock */

typedef struct BpXLog BpXLog;

/* Module setup */
extern void bp_xlog_register_rmgr(void);
extern void bp_xlog_require(Relation index);

/* Changes of several pages, logged as one record */
extern BpXLog *bp_xlog_start(Relation index, uint8 kind);
extern Page bp_xlog_register(BpXLog *xlog, Buffer buf, int flags);
extern void bp_xlog_finish(BpXLog *xlog);
extern void bp_xlog_abort(BpXLog *xlog);

/* Changes of one page */
extern void bp_install_page(Relation index, Buffer buf, char *newpage,
							uint8 kind);
extern void bp_log_ranges(Buffer buf, Page page, int n, const Size *offsets,
						  const Size *lengths);
extern void bp_xlog_reuse(Relation index, BlockNumber blkno,
						  FullTransactionId horizon);
extern void bp_xlog_horizon(Relation index, BlockNumber blkno,
							TransactionId horizon);
extern bool bp_xlog_pins_needed(Relation index);
extern void bp_xlog_pins(Relation index, const BlockNumber *blocks, int n);

#endif							/* BPXLOG_H */
