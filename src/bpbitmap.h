/*-------------------------------------------------------------------------
 *
 * bpbitmap.h
 *	  Bitmap index scans: amgetbitmap.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPBITMAP_H
#define BPBITMAP_H

#include "access/relscan.h"
#include "nodes/tidbitmap.h"

extern int64 bp_getbitmap(IndexScanDesc scan, TIDBitmap *tbm);

#endif							/* BPBITMAP_H */
