/*-------------------------------------------------------------------------
 *
 * bpbuildparallel.c
 *	  Parallel CREATE INDEX for bpindex: workers scan parts of the heap and
 *	  sort their entries; the leader merges the sorted runs.
 *
 * The leader starts a parallel context whose shared memory holds the
 * parallel heap scan, the shared state of the participants' sorts and a
 * BpBuildShared.  Each participant (the workers, and the leader too if
 * parallel_leader_participation is on) scans the blocks the parallel heap
 * scan hands it, feeds its entries to a worker tuplesort
 * (bp_build_sort_part), sorts them and reports its counts.  Once every
 * participant is done, the leader's tuplesort merges their runs and
 * bpbuild.c fills the leaves from it exactly as after a serial sort; the
 * leaves and the tree are the same as a serial build's.
 *
 * How many workers: on 18, index_build asks plan_create_index_workers
 * because the access method says amcanbuildparallel; on 15, which does so
 * for btree only, bp_build_workers asks it itself.  Either way
 * max_parallel_maintenance_workers, the table's parallel_workers option
 * and maintenance_work_mem (32MB per participant) bound it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/parallel.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "miscadmin.h"
#include "optimizer/optimizer.h"
#include "pgstat.h"
#include "storage/condition_variable.h"
#include "storage/spin.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/tuplesort.h"

#include "bpbuildparallel.h"
#include "bpbuildsort.h"

/* Keys of the parallel context's table of contents. */
#define BP_KEY_SHARED		UINT64CONST(0xB7F1000000000001)
#define BP_KEY_TUPLESORT	UINT64CONST(0xB7F1000000000002)

/* What the participants share, followed by the parallel heap scan. */
typedef struct BpBuildShared
{
	Oid			heaprelid;
	Oid			indexrelid;
	bool		isconcurrent;
	int			scantuplesortstates;	/* participants planned */

	/* the participants' results, under mutex */
	ConditionVariable workersdonecv;
	slock_t		mutex;
	int			nparticipantsdone;
	double		reltuples;
	double		indtuples;
} BpBuildShared;

/* The parallel heap scan that follows a BpBuildShared. */
static inline ParallelTableScanDesc
shared_heap_scan(BpBuildShared *shared)
{
	return (ParallelTableScanDesc) ((char *) shared +
									BUFFERALIGN(sizeof(BpBuildShared)));
}

/* The leader's view of a parallel build. */
struct BpParallelBuild
{
	ParallelContext *pcxt;
	BpBuildShared *shared;
	Sharedsort *sharedsort;
	Snapshot	snapshot;
	int			nparticipants;	/* sorts to merge: workers launched and
								 * the leader if it takes part */
	bool		leader_takes_part;
};

/*
 * Scan the heap blocks the parallel scan hands this participant and sort
 * their entries in a worker tuplesort of sharedsort; add the counts to
 * the shared state and wake the leader.
 */
static void
sort_as_participant(BpBuildShared *shared, Sharedsort *sharedsort,
					Relation heap, Relation index, IndexInfo *indexInfo,
					int sortmem)
{
	SortCoordinate coordinate = palloc0(sizeof(SortCoordinateData));
	TableScanDesc scan = table_beginscan_parallel(heap, shared_heap_scan(shared));
	double		indtuples;
	double		reltuples;

	coordinate->isWorker = true;
	coordinate->nParticipants = -1;
	coordinate->sharedsort = sharedsort;
	reltuples = bp_build_sort_part(heap, index, indexInfo, scan, sortmem,
								   coordinate, &indtuples);

	SpinLockAcquire(&shared->mutex);
	shared->nparticipantsdone++;
	shared->reltuples += reltuples;
	shared->indtuples += indtuples;
	SpinLockRelease(&shared->mutex);
	ConditionVariableSignal(&shared->workersdonecv);
	pfree(coordinate);
}

/* Entry point of a parallel build's worker (found by name). */
PGDLLEXPORT void
bp_parallel_build_main(dsm_segment *seg, shm_toc *toc)
{
	BpBuildShared *shared = shm_toc_lookup(toc, BP_KEY_SHARED, false);
	Sharedsort *sharedsort = shm_toc_lookup(toc, BP_KEY_TUPLESORT, false);
	LOCKMODE	heap_lockmode;
	LOCKMODE	index_lockmode;
	Relation	heap;
	Relation	index;
	IndexInfo  *indexInfo;

	/* the lock modes index.c's build holds in the leader */
	heap_lockmode = shared->isconcurrent ? ShareUpdateExclusiveLock : ShareLock;
	index_lockmode = shared->isconcurrent ? RowExclusiveLock : AccessExclusiveLock;
	heap = table_open(shared->heaprelid, heap_lockmode);
	index = index_open(shared->indexrelid, index_lockmode);
	indexInfo = BuildIndexInfo(index);
	indexInfo->ii_Concurrent = shared->isconcurrent;

	tuplesort_attach_shared(sharedsort, seg);
	sort_as_participant(shared, sharedsort, heap, index, indexInfo,
						maintenance_work_mem / shared->scantuplesortstates);

	index_close(index, index_lockmode);
	table_close(heap, heap_lockmode);
}

/* Stop the workers and leave parallel mode. */
void
bp_parallel_build_end(BpParallelBuild *build)
{
	WaitForParallelWorkersToFinish(build->pcxt);
	if (IsMVCCSnapshot(build->snapshot))
		UnregisterSnapshot(build->snapshot);
	DestroyParallelContext(build->pcxt);
	ExitParallelMode();
	pfree(build);
}

/*
 * Start a parallel build of index with up to nworkers workers: the heap
 * scan and the shared sort in shared memory, then the workers.  NULL if
 * no worker could be started (the caller then builds serially).
 */
BpParallelBuild *
bp_parallel_build_begin(Relation heap, Relation index, IndexInfo *indexInfo,
						int nworkers)
{
	BpParallelBuild *build = palloc0(sizeof(BpParallelBuild));
	bool		leader_takes_part = parallel_leader_participation;
	int			scantuplesortstates = nworkers + (leader_takes_part ? 1 : 0);
	ParallelContext *pcxt;
	Size		shared_size;
	Size		sort_size;
	BpBuildShared *shared;
	Sharedsort *sharedsort;

	EnterParallelMode();
	pcxt = CreateParallelContext("bpindex", "bp_parallel_build_main", nworkers);
	build->snapshot = indexInfo->ii_Concurrent ?
		RegisterSnapshot(GetTransactionSnapshot()) : SnapshotAny;

	shared_size = add_size(BUFFERALIGN(sizeof(BpBuildShared)),
						   table_parallelscan_estimate(heap, build->snapshot));
	sort_size = tuplesort_estimate_shared(scantuplesortstates);
	shm_toc_estimate_chunk(&pcxt->estimator, shared_size);
	shm_toc_estimate_chunk(&pcxt->estimator, sort_size);
	shm_toc_estimate_keys(&pcxt->estimator, 2);
	InitializeParallelDSM(pcxt);
	if (pcxt->seg == NULL)
	{
		build->pcxt = pcxt;
		bp_parallel_build_end(build);
		return NULL;
	}

	shared = shm_toc_allocate(pcxt->toc, shared_size);
	shared->heaprelid = RelationGetRelid(heap);
	shared->indexrelid = RelationGetRelid(index);
	shared->isconcurrent = indexInfo->ii_Concurrent;
	shared->scantuplesortstates = scantuplesortstates;
	ConditionVariableInit(&shared->workersdonecv);
	SpinLockInit(&shared->mutex);
	shared->nparticipantsdone = 0;
	shared->reltuples = 0;
	shared->indtuples = 0;
	table_parallelscan_initialize(heap, shared_heap_scan(shared), build->snapshot);
	sharedsort = shm_toc_allocate(pcxt->toc, sort_size);
	tuplesort_initialize_shared(sharedsort, scantuplesortstates, pcxt->seg);
	shm_toc_insert(pcxt->toc, BP_KEY_SHARED, shared);
	shm_toc_insert(pcxt->toc, BP_KEY_TUPLESORT, sharedsort);

	LaunchParallelWorkers(pcxt);
	build->pcxt = pcxt;
	build->shared = shared;
	build->sharedsort = sharedsort;
	build->leader_takes_part = leader_takes_part;
	build->nparticipants = pcxt->nworkers_launched + (leader_takes_part ? 1 : 0);
	elog(DEBUG1, "bpindex build of \"%s\": %d of %d workers launched%s",
		 RelationGetRelationName(index), pcxt->nworkers_launched, nworkers,
		 leader_takes_part ? ", the leader takes part" : "");
	if (pcxt->nworkers_launched == 0)
	{
		bp_parallel_build_end(build);
		return NULL;
	}
	return build;
}

/*
 * The coordinate of the leader's tuplesort, which merges the sorted runs
 * of every participant.
 */
SortCoordinate
bp_parallel_build_coordinate(BpParallelBuild *build)
{
	SortCoordinate coordinate = palloc0(sizeof(SortCoordinateData));

	coordinate->isWorker = false;
	coordinate->nParticipants = build->nparticipants;
	coordinate->sharedsort = build->sharedsort;
	return coordinate;
}

/*
 * Take part in the scan if the leader does, then wait until every
 * participant has sorted its part; their heap tuples and index entries
 * in *reltuples and *indtuples.
 */
void
bp_parallel_build_scan(BpParallelBuild *build, Relation heap, Relation index,
					   IndexInfo *indexInfo, double *reltuples,
					   double *indtuples)
{
	BpBuildShared *shared = build->shared;

	if (build->leader_takes_part)
		sort_as_participant(shared, build->sharedsort, heap, index, indexInfo,
							maintenance_work_mem / shared->scantuplesortstates);
	/* a worker that failed to start raises an error here, not a hang */
	WaitForParallelWorkersToAttach(build->pcxt);
	for (;;)
	{
		SpinLockAcquire(&shared->mutex);
		if (shared->nparticipantsdone == build->nparticipants)
		{
			*reltuples = shared->reltuples;
			*indtuples = shared->indtuples;
			SpinLockRelease(&shared->mutex);
			break;
		}
		SpinLockRelease(&shared->mutex);
		ConditionVariableSleep(&shared->workersdonecv,
							   WAIT_EVENT_PARALLEL_CREATE_INDEX_SCAN);
	}
	ConditionVariableCancelSleep();
}
