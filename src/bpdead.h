/*-------------------------------------------------------------------------
 *
 * bpdead.h
 *	  Removing the entries of dead heap tuples from a leaf.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPDEAD_H
#define BPDEAD_H

#include "storage/bufmgr.h"
#include "storage/itemptr.h"
#include "utils/relcache.h"

extern int	bp_remove_dead_entries(Relation index, Buffer buf,
								   bool marked_only,
								   bool (*callback) (ItemPointer, void *),
								   void *arg, uint8 kind);
extern bool bp_remove_old_versions(Relation index, Relation heap, Buffer buf,
								   const char *slot);

#endif							/* BPDEAD_H */
