/*-------------------------------------------------------------------------
 *
 * bplikeprefix.h
 *	  The bounds a LIKE pattern's fixed prefix implies on a column of a
 *	  pattern operator class.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPLIKEPREFIX_H
#define BPLIKEPREFIX_H

#include "nodes/pathnodes.h"

extern List *bp_like_prefix_bounds(PlannerInfo *root, RestrictInfo *rinfo,
								   IndexOptInfo *index, int *col);

#endif							/* BPLIKEPREFIX_H */
