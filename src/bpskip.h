/*-------------------------------------------------------------------------
 *
 * bpskip.h
 *	  Skip scans: the primitive scans of a prefix's distinct values.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPSKIP_H
#define BPSKIP_H

#include "access/genam.h"
#include "access/sdir.h"

#include "bpparallel.h"

extern bool bp_skip_next_prefix(IndexScanDesc scan, ScanDirection dir);
extern bool bp_skip_first_prefix(IndexScanDesc scan, ScanDirection dir);
extern bool bp_skip_next_element(IndexScanDesc scan, ScanDirection dir);
extern bool bp_skip_parallel_leaf(IndexScanDesc scan, ScanDirection dir,
								  const BpParallelNext *next);
extern void bp_skip_resume(IndexScanDesc scan, ScanDirection dir);

#endif							/* BPSKIP_H */
