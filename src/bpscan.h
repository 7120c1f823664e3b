/*-------------------------------------------------------------------------
 *
 * bpscan.h
 *	  Index scans: amgettuple, amgetbitmap.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPSCAN_H
#define BPSCAN_H

#include "access/genam.h"
#include "access/itup.h"
#include "access/sdir.h"
#include "nodes/tidbitmap.h"
#include "utils/palloc.h"

#include "bpscanpos.h"


extern IndexScanDesc bp_beginscan(Relation index, int nkeys, int norderbys);
extern void bp_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
					  ScanKey orderbys, int norderbys);
extern bool bp_gettuple(IndexScanDesc scan, ScanDirection dir);
extern void bp_endscan(IndexScanDesc scan);
extern void bp_markpos(IndexScanDesc scan);
extern void bp_restrpos(IndexScanDesc scan);

extern const char *bp_scan_next_entry(IndexScanDesc scan, ScanDirection dir);

#endif							/* BPSCAN_H */
