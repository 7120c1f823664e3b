/*-------------------------------------------------------------------------
 *
 * bpparallel.c
 *	  The shared state of a parallel index scan or index-only scan: which
 *	  leaf the participants read next.
 *
 * The participants of a parallel scan (the leader and its workers) take
 * the range's leaves one at a time, in the scan direction.  The shared
 * state says where the scan stands: not started (for an element of the
 * driving array), idle after a leaf (which one, its right-link and the
 * fence the next leaf must hold), at the end of a skip scan's prefix
 * (the last entry read, whose prefix's successor the next participant
 * seeks, in the range of the same element of a driving array on a prefix
 * column), being advanced by a participant, or done.  A participant seizes
 * the state (waiting while another advances it), reads and copies the
 * next leaf as a serial scan would, publishes
 * where the scan stands after that leaf, and returns the leaf's entries
 * while the others read the following leaves.  Each participant thus sees
 * leaves in index order, so their outputs merge in order (Gather Merge).
 *
 * Only the reading of one leaf is serialised, as in nbtree; the copies,
 * the tests of the keys and the heap fetches run in parallel.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relscan.h"
#include "pgstat.h"
#include "storage/condition_variable.h"
#include "storage/spin.h"

#include "bpcompat.h"
#include "bpparallel.h"
#include "bpslot.h"

/* Where a parallel scan stands. */
typedef enum BpParallelStatus
{
	BP_PARALLEL_NOT_STARTED,	/* no leaf of array_elem's range read yet */
	BP_PARALLEL_ADVANCING,		/* a participant is reading the next leaf */
	BP_PARALLEL_IDLE,			/* the next leaf follows leaf */
	BP_PARALLEL_NEXT_PREFIX,	/* skip scan: the next leaf is that of the
								 * range of the prefix after bound's */
	BP_PARALLEL_DONE			/* no leaf is left */
} BpParallelStatus;

/* The shared state, in the scan's dynamic shared memory. */
typedef struct BpParallelScanData
{
	slock_t		mutex;
	ConditionVariable advanced; /* status left BP_PARALLEL_ADVANCING */
	BpParallelStatus status;
	int			array_elem;		/* driving array element; -1: the first in
								 * the scan direction */
	BlockNumber leaf;			/* idle: the leaf read last */
	BlockNumber rightlink;		/* ... its right-link */
	uint16		bound_width;
	char		bound[BP_MAX_SLOT_WIDTH];	/* ... its fence in the scan
											 * direction; next prefix: the
											 * entry whose prefix is done */
	char		bound_keys[BP_KEYS_BUFSIZE];	/* its keys, referred to by
												 * offset */
} BpParallelScanData;

typedef BpParallelScanData *BpParallelScan;

/* The shared state of a parallel scan. */
static BpParallelScan
shared_state(IndexScanDesc scan)
{
	return (BpParallelScan) bp_parallel_am_state(scan->parallel_scan);
}

/* Bytes of the shared state (amestimateparallelscan). */
Size
bp_estimateparallelscan(BP_ESTIMATEPARALLELSCAN_PARAMS)
{
	return sizeof(BpParallelScanData);
}

/* Initialise the shared state of a new parallel scan (aminitparallelscan). */
void
bp_initparallelscan(void *target)
{
	BpParallelScan shared = (BpParallelScan) target;

	SpinLockInit(&shared->mutex);
	ConditionVariableInit(&shared->advanced);
	shared->status = BP_PARALLEL_NOT_STARTED;
	shared->array_elem = -1;
	shared->leaf = InvalidBlockNumber;
	shared->rightlink = InvalidBlockNumber;
	shared->bound_width = 0;
}

/* Start the parallel scan over (amparallelrescan, leader only). */
void
bp_parallelrescan(IndexScanDesc scan)
{
	BpParallelScan shared = shared_state(scan);

	SpinLockAcquire(&shared->mutex);
	shared->status = BP_PARALLEL_NOT_STARTED;
	shared->array_elem = -1;
	SpinLockRelease(&shared->mutex);
}

/*
 * Seize the scan to read its next leaf: wait while another participant
 * advances it, then fill next with where it stands (the fence into bound,
 * slot width bytes).  False if the scan is done.
 */
bool
bp_parallel_seize(IndexScanDesc scan, BpParallelNext *next, char *bound,
				  char *bound_keys)
{
	BpParallelScan shared = shared_state(scan);
	bool		seized = false;

	for (;;)
	{
		SpinLockAcquire(&shared->mutex);
		if (shared->status == BP_PARALLEL_DONE)
		{
			SpinLockRelease(&shared->mutex);
			break;
		}
		if (shared->status != BP_PARALLEL_ADVANCING)
		{
			next->started = shared->status == BP_PARALLEL_IDLE;
			next->next_prefix = shared->status == BP_PARALLEL_NEXT_PREFIX;
			next->array_elem = shared->array_elem;
			next->leaf = shared->leaf;
			next->rightlink = shared->rightlink;
			if (next->started || next->next_prefix)
			{
				memcpy(bound, shared->bound, shared->bound_width);
				if (bound_keys != NULL)
					memcpy(bound_keys, shared->bound_keys, BP_KEYS_BUFSIZE);
			}
			shared->status = BP_PARALLEL_ADVANCING;
			SpinLockRelease(&shared->mutex);
			seized = true;
			break;
		}
		SpinLockRelease(&shared->mutex);
		ConditionVariableSleep(&shared->advanced, PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
	return seized;
}

/* Release the seized scan in status, waking those waiting for it. */
static void
release(BpParallelScan shared, BpParallelStatus status)
{
	shared->status = status;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->advanced);
}

/*
 * Release the seized scan in status with the logical slot bound, its keys
 * by offset: the others have their own address spaces.
 */
static void
release_with_bound(BpParallelScan shared, BpParallelStatus status,
				   const char *bound, const BpSlotDesc *desc)
{
	char		copy[BP_MAX_SLOT_WIDTH];
	char		keys[BP_KEYS_BUFSIZE];

	bp_slot_copy_keys(desc, bound, copy, keys, true);
	SpinLockAcquire(&shared->mutex);
	shared->bound_width = desc->width;
	memcpy(shared->bound, copy, desc->width);
	memcpy(shared->bound_keys, keys, BP_KEYS_BUFSIZE);
	release(shared, status);
}

/*
 * Release the seized scan after reading leaf: the next leaf follows it
 * (through rightlink forward) and holds bound (width bytes).
 */
void
bp_parallel_release_after(IndexScanDesc scan, int array_elem, BlockNumber leaf,
						  BlockNumber rightlink, const char *bound,
						  const BpSlotDesc *desc)
{
	BpParallelScan shared = shared_state(scan);

	SpinLockAcquire(&shared->mutex);
	shared->array_elem = array_elem;
	shared->leaf = leaf;
	shared->rightlink = rightlink;
	SpinLockRelease(&shared->mutex);
	release_with_bound(shared, BP_PARALLEL_IDLE, bound, desc);
}

/*
 * Release the seized skip scan to go on from the range of the prefix
 * after that of entry, a logical slot: the last one of the outer range
 * read (that of the driving array's element array_elem, when the array's
 * column lies in the prefix), whose prefix's range the leaves read hold
 * whole.
 */
void
bp_parallel_release_to_prefix(IndexScanDesc scan, int array_elem,
							  const char *entry, const BpSlotDesc *desc)
{
	BpParallelScan shared = shared_state(scan);

	SpinLockAcquire(&shared->mutex);
	shared->array_elem = array_elem;
	SpinLockRelease(&shared->mutex);
	release_with_bound(shared, BP_PARALLEL_NEXT_PREFIX, entry, desc);
}

/*
 * Release the seized scan to start the range of the driving array's
 * element array_elem, or (array_elem < 0) as done.
 */
void
bp_parallel_release_to_element(IndexScanDesc scan, int array_elem)
{
	BpParallelScan shared = shared_state(scan);

	SpinLockAcquire(&shared->mutex);
	shared->array_elem = array_elem;
	release(shared, array_elem < 0 ? BP_PARALLEL_DONE : BP_PARALLEL_NOT_STARTED);
}
