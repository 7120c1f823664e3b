/*-------------------------------------------------------------------------
 *
 * bpoptions.h
 *	  Reloptions: parsing, validation and the options of an index.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPOPTIONS_H
#define BPOPTIONS_H

#include "utils/relcache.h"

#include "bpgeometry.h"

extern void bp_options_init(void);
extern bytea *bp_options(Datum reloptions, bool validate);
extern BpOptions bp_index_options(Relation index);

#endif							/* BPOPTIONS_H */
