/*-------------------------------------------------------------------------
 *
 * bpcompat.h
 *	  Every difference between the PostgreSQL versions bpindex builds
 *	  against (15 and 18).  No other file tests PG_VERSION_NUM.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPCOMPAT_H
#define BPCOMPAT_H

#include "access/amapi.h"
#include "access/stratnum.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "optimizer/optimizer.h"
#include "storage/smgr.h"
#include "utils/pg_locale.h"
#include "utils/rel.h"

/* The varlena macros: in postgres.h up to 15, in varatt.h from 16. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * The RelFileNode of an SMgrRelation, as log_newpage() takes it: 16 renamed
 * RelFileNode to RelFileLocator, and smgr_rnode.node to smgr_rlocator.locator.
 */
#if PG_VERSION_NUM >= 160000
#define BP_SMGR_LOCATOR(smgr)	(&(smgr)->smgr_rlocator.locator)
#else
#define BP_SMGR_LOCATOR(smgr)	(&(smgr)->smgr_rnode.node)
#endif

/* 18's vacuum_delay_point() asks whether ANALYZE (rather than VACUUM) calls. */
/*
 * The physical identity of a relation, which a record of page reuse or of
 * a removal's horizon carries, and the recovery conflict of those with
 * standby snapshots.
 */
#if PG_VERSION_NUM >= 160000
typedef RelFileLocator BpRelFileLocator;
#define bp_relation_locator(rel)	((rel)->rd_locator)
#define bp_resolve_snapshot_conflict(horizon, locator) \
	ResolveRecoveryConflictWithSnapshotFullXid((horizon), false, (locator))
#else
typedef RelFileNode BpRelFileLocator;
#define bp_relation_locator(rel)	((rel)->rd_node)
#define bp_resolve_snapshot_conflict(horizon, locator) \
	ResolveRecoveryConflictWithSnapshotFullXid((horizon), (locator))
#endif

#if PG_VERSION_NUM >= 180000
#define bp_vacuum_delay_point()	vacuum_delay_point(false)
#else
#define bp_vacuum_delay_point()	vacuum_delay_point()
#endif

/*
 * Count a search of the index by a scan: in pg_stat_*_indexes, and from 18
 * on also in the scan's instrumentation, which EXPLAIN ANALYZE shows as
 * "Index Searches".
 */
#if PG_VERSION_NUM >= 180000
#define bp_count_index_search(scan) \
	do { \
		pgstat_count_index_scan((scan)->indexRelation); \
		if ((scan)->instrument) \
			(scan)->instrument->nsearches++; \
	} while (0)
#else
#define bp_count_index_search(scan) \
	pgstat_count_index_scan((scan)->indexRelation)
#endif

/* The estimated number of elements of an array expression: 17 gave it root. */
#if PG_VERSION_NUM >= 170000
#define bp_estimate_array_length(root, arrayexpr) \
	estimate_array_length((root), (arrayexpr))
#else
#define bp_estimate_array_length(root, arrayexpr) \
	estimate_array_length(arrayexpr)
#endif

/*
 * What get_ordering_op_properties() reports about the operator besides
 * its family: a btree strategy number before 18, a CompareType from 18 on.
 * BP_ORDERING_LT is the answer for a "<" operator.
 */
#if PG_VERSION_NUM >= 180000
typedef CompareType BpOrderingKind;
#define BP_ORDERING_LT			COMPARE_LT
#else
typedef int16 BpOrderingKind;
#define BP_ORDERING_LT			BTLessStrategyNumber
#endif

#if PG_VERSION_NUM >= 180000
/*
 * amtranslatestrategy / amtranslatecmptype (18): bpindex numbers its
 * strategies as btree does, so 18's planner, which finds the "<" of an
 * ordered index, mergejoinable equality and the endpoints of a column
 * through CompareType, treats bpindex's operator families as btree's.
 */
StaticAssertDecl(COMPARE_LT == BTLessStrategyNumber &&
				 COMPARE_LE == BTLessEqualStrategyNumber &&
				 COMPARE_EQ == BTEqualStrategyNumber &&
				 COMPARE_GE == BTGreaterEqualStrategyNumber &&
				 COMPARE_GT == BTGreaterStrategyNumber,
				 "CompareType numbers its comparisons as btree's strategies");

static inline CompareType
bp_translate_strategy(StrategyNumber strategy, Oid opfamily)
{
	if (strategy < BTLessStrategyNumber || strategy > BTGreaterStrategyNumber)
		return COMPARE_INVALID;
	return (CompareType) strategy;
}

static inline StrategyNumber
bp_translate_cmptype(CompareType cmptype, Oid opfamily)
{
	if (cmptype < COMPARE_LT || cmptype > COMPARE_GT)
		return InvalidStrategy;
	return (StrategyNumber) cmptype;
}
#endif

/*
 * Unique indexes: 18's INSERT ... ON CONFLICT takes an arbiter of any
 * access method with an equality strategy; 15's takes btree only and
 * raises an internal error for another, so there bpindex refuses them.
 */
#if PG_VERSION_NUM >= 180000
#define bp_unique_indexes_supported true
#else
#define bp_unique_indexes_supported false
#endif

/*
 * The access method's part of a parallel index scan's shared state: 18
 * renamed ps_offset to ps_offset_am (17 added the instrumentation's).
 */
#if PG_VERSION_NUM >= 180000
#define bp_parallel_am_state(pscan) \
	((void *) ((char *) (pscan) + (pscan)->ps_offset_am))
#else
#define bp_parallel_am_state(pscan) \
	((void *) ((char *) (pscan) + (pscan)->ps_offset))
#endif

/*
 * The parameters of amestimateparallelscan: 17 gave it the scan's key
 * counts, 18 the index too.
 */
#if PG_VERSION_NUM >= 180000
#define BP_ESTIMATEPARALLELSCAN_PARAMS	Relation index, int nkeys, int norderbys
#else
#define BP_ESTIMATEPARALLELSCAN_PARAMS	void
#endif

/*
 * How many workers a CREATE INDEX may start (0: build serially): 17 and
 * later plan them in index_build for an access method that says
 * amcanbuildparallel; 15 does so for btree only, so bpindex asks the
 * planner itself.
 */
#if PG_VERSION_NUM >= 170000
static inline int
bp_build_workers(Relation heap, Relation index, IndexInfo *indexInfo)
{
	return indexInfo->ii_ParallelWorkers;
}
#else
static inline int
bp_build_workers(Relation heap, Relation index, IndexInfo *indexInfo)
{
	if (!IsNormalProcessingMode())
		return 0;
	return plan_create_index_workers(RelationGetRelid(heap),
									 RelationGetRelid(index));
}
#endif

/*
 * Does the collation order strings bytewise (C, POSIX)?  17 replaced
 * lc_collate_is_c() by a field of the collation's locale.
 */
#if PG_VERSION_NUM >= 170000
static inline bool
bp_collation_is_c(Oid collation)
{
	return OidIsValid(collation) &&
		pg_newlocale_from_collation(collation)->collate_is_c;
}
#else
static inline bool
bp_collation_is_c(Oid collation)
{
	return OidIsValid(collation) && lc_collate_is_c(collation);
}
#endif

/*
 * The IndexAmRoutine fields that PostgreSQL added after 15, for
 * bpindex_handler().
 */
static inline void
bp_set_newer_am_fields(IndexAmRoutine *amroutine,
					   int (*gettreeheight) (Relation index))
{
#if PG_VERSION_NUM >= 160000
	/* an entry per heap tuple, not a summary: HOT updates skip no insert */
	amroutine->amsummarizing = false;
#endif
#if PG_VERSION_NUM >= 170000
	/* CREATE INDEX may start workers (bpbuildparallel.c) */
	amroutine->amcanbuildparallel = true;
	/* aminsert keeps no state across the inserts of a statement */
	amroutine->aminsertcleanup = NULL;
#endif
#if PG_VERSION_NUM >= 180000
	/* no hash support functions, not a hash index */
	amroutine->amcanhash = false;
	/* the operator families are btree's: one equality and one order each */
	amroutine->amconsistentequality = true;
	amroutine->amconsistentordering = true;
	/* the root's level from the metapage, as btree gives its own */
	amroutine->amgettreeheight = gettreeheight;
	amroutine->amtranslatestrategy = bp_translate_strategy;
	amroutine->amtranslatecmptype = bp_translate_cmptype;
#endif
}

/*
 * The comparison of a row comparison, as a btree strategy number (both
 * enums number them so): 18 renamed the field.
 */
#if PG_VERSION_NUM >= 180000
#define bp_rowcompare_strategy(rc)	((StrategyNumber) (rc)->cmptype)
#else
#define bp_rowcompare_strategy(rc)	((StrategyNumber) (rc)->rctype)
#endif

#endif							/* BPCOMPAT_H */
