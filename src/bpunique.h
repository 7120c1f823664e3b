/*-------------------------------------------------------------------------
 *
 * bpunique.h
 *	  Unique indexes: the check an insert makes before it adds its entry,
 *	  and the check CREATE INDEX makes of its sorted entries.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPUNIQUE_H
#define BPUNIQUE_H

#include "access/genam.h"
#include "storage/bufmgr.h"
#include "utils/relcache.h"

#include "bpslot.h"

/* What the entries holding an insert's key say. */
typedef enum BpUniqueVerdict
{
	BP_UNIQUE_FREE,				/* no other live row holds the key */
	BP_UNIQUE_WAIT,				/* a transaction in progress wrote one */
	BP_UNIQUE_TAKEN				/* a live row holds it */
} BpUniqueVerdict;

/* One insert's check: what it asks, and what it found. */
typedef struct BpUniqueCheck
{
	Relation	index;
	Relation	heap;
	const char *slot;			/* the entry to insert */
	IndexUniqueCheck mode;
	TransactionId xwait;		/* BP_UNIQUE_WAIT: the transaction */
	uint32		speculative_token;	/* and its speculative insertion */
	Buffer		target;			/* the leaf slot belongs in, locked */
	bool		found_self;		/* UNIQUE_CHECK_EXISTING: slot's own entry */
} BpUniqueCheck;

/* CREATE INDEX's check of the sorted entries of a unique index. */
typedef struct BpUniqueBuild
{
	Relation	index;
	Relation	heap;
	const BpSlotDesc *desc;
	bool		nulls_distinct;
	char	   *previous;		/* the last entry seen, and its keys */
	char	   *previous_keys;
	bool		have_previous;
	ItemPointerData *run;		/* heap TIDs of the run of equal keys */
	int			nrun;
	int			maxrun;
} BpUniqueBuild;

extern bool bp_unique_applies(Relation index, const bool *isnull);
extern bool bp_unique_first_leaf_step(const void *slot, void *arg);
extern bool bp_unique_leaf_is_first(const BpSlotDesc *desc, Page page,
									const char *slot);
extern BpUniqueVerdict bp_unique_check(BpUniqueCheck *check, Buffer first);
extern void bp_unique_wait(BpUniqueCheck *check);
extern void bp_unique_report_violation(Relation index, Relation heap,
									   Datum *values, bool *isnull);
extern void bp_unique_refuse_if_unsupported(const char *name);

extern void bp_unique_build_start(BpUniqueBuild *build, Relation index,
								  Relation heap, const BpSlotDesc *desc);
extern void bp_unique_build_next(BpUniqueBuild *build, const char *slot);
extern void bp_unique_build_finish(BpUniqueBuild *build);

#endif							/* BPUNIQUE_H */
