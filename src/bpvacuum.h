/*-------------------------------------------------------------------------
 *
 * bpvacuum.h
 *	  VACUUM: ambulkdelete and amvacuumcleanup.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPVACUUM_H
#define BPVACUUM_H

#include "access/genam.h"

extern IndexBulkDeleteResult *bp_bulkdelete(IndexVacuumInfo *info,
											IndexBulkDeleteResult *stats,
											IndexBulkDeleteCallback callback,
											void *callback_state);
extern IndexBulkDeleteResult *bp_vacuumcleanup(IndexVacuumInfo *info,
											   IndexBulkDeleteResult *stats);

#endif							/* BPVACUUM_H */
