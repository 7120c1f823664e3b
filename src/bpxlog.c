/*-------------------------------------------------------------------------
 *
 * bpxlog.c
 *	  bpindex's WAL resource manager: writing, replaying, describing and
 *	  masking its records.
 *
 * Every change of an index page after the build goes through this file.
 * A record names its kind (bpxlog.h) and carries up to BP_XLOG_MAX_PAGES
 * pages, each either as a full image (a page new to the index) or as
 * fragments of the page: a 2-byte offset, a 2-byte length and that many
 * bytes.  Fragments are the byte ranges a caller knows it changed (an
 * append, bp_log_ranges) or the 8-byte words in which the page differs
 * from its copy before the change (everything else).  That comparison
 * sees the page as a standby has it: the hole between pd_lower and
 * pd_upper, where a leaf keeps its dead marks (hints, never logged), is
 * taken as zeros before and after, so bytes that leave or join the hole
 * are always logged and a standby's hole stays zero.
 *
 * Redo applies the fragments of each page (or restores its image) with
 * every page of the record locked, as the change was made.  The pages a
 * record registers with BP_XLOG_CLEANUP -- a leaf VACUUM removed entries
 * from, a page deleted, a page reused -- are read first and under a
 * cleanup lock, as nbtree's redo of VACUUM does: a standby scan that
 * keeps the pin of a leaf whose entries it is returning (an index-only
 * scan) holds the replay up until it moves on, or is cancelled by the
 * recovery conflict on buffer pins, and never returns entries whose heap
 * tuples replay removed.  A page about to be reused is announced by a
 * BP_XLOG_REUSE record with the transaction ID of its deletion, a
 * recovery conflict with every standby snapshot that could still reach it;
 * entries that bottom-up deletion is about to remove, by a BP_XLOG_HORIZON
 * record with the newest XID that deleted their tuples, a conflict with
 * every standby snapshot that could still see one.
 *
 * The resource manager is registered when the library is loaded through
 * shared_preload_libraries (bp_xlog_register_rmgr); without it every
 * write of a bpindex index raises an error before it changes anything
 * (bp_xlog_require), since its records could not be replayed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/bufmask.h"
#include "access/transam.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogutils.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/standby.h"
#include "utils/rel.h"

#include "bpcompat.h"
#include "bpxlog.h"

/* Equal words between two differing runs that still merge them. */
#define MERGE_GAP_WORDS 2

/*
 * The main data of a record that changes pages: which of its blocks are
 * replayed under a cleanup lock and which are rebuilt from a zeroed page
 * (bit i: block i).  Records with neither (most appends) carry no main
 * data.
 */
typedef struct BpXLogBlocks
{
	uint8		cleanup;		/* replayed under a cleanup lock */
	uint8		init;			/* fragments against a zeroed page */
} BpXLogBlocks;

/*
 * The main data of a BP_XLOG_REUSE or BP_XLOG_HORIZON record: a recovery
 * conflict with the standby snapshots that could see horizon's changes
 * undone.
 */
typedef struct BpXLogConflict
{
	FullTransactionId horizon;	/* REUSE: next XID when the page was
								 * deleted; HORIZON: newest XID that
								 * deleted a tuple whose entries go */
	BpRelFileLocator locator;
	BlockNumber blkno;
} BpXLogConflict;

/*
 * The main data of a BP_XLOG_PINS record: the index's relation, then nblocks
 * block numbers of leaves whose pins replay waits out.
 */
typedef struct BpXLogPins
{
	BpRelFileLocator locator;
	int32		nblocks;
	/* BlockNumber blocks[nblocks] follows */
} BpXLogPins;

/* The header of one fragment of a page: its bytes follow. */
typedef struct BpXLogFragment
{
	uint16		offset;
	uint16		length;
} BpXLogFragment;

/* Changes of several pages being made (bp_xlog_start .. finish). */
struct BpXLog
{
	Relation	index;
	uint8		kind;
	int			npages;
	Buffer		buffers[BP_XLOG_MAX_PAGES];
	int			flags[BP_XLOG_MAX_PAGES];
	PGAlignedBlock pages[BP_XLOG_MAX_PAGES];	/* the changed copies */
};

/* Was the resource manager registered (shared_preload_libraries)? */
static bool bp_rmgr_registered = false;

static void bp_redo(XLogReaderState *record);
static void bp_desc(StringInfo buf, XLogReaderState *record);
static const char *bp_identify(uint8 info);
static void bp_mask(char *pagedata, BlockNumber blkno);

static RmgrData bp_rmgr = {
	.rm_name = BP_RMGR_NAME,
	.rm_redo = bp_redo,
	.rm_desc = bp_desc,
	.rm_identify = bp_identify,
	.rm_mask = bp_mask
};

/*
 * Register the resource manager, if the library is being preloaded
 * (_PG_init); elsewhere it cannot be registered.
 */
void
bp_xlog_register_rmgr(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	RegisterCustomRmgr(BP_RMGR_ID, &bp_rmgr);
	bp_rmgr_registered = true;
}

PG_FUNCTION_INFO_V1(bpindex_wal_ready);

/* bpindex_wal_ready(): can this server write bpindex indexes? */
Datum
bpindex_wal_ready(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bp_rmgr_registered);
}

/*
 * Raise an ERROR, naming the index, if this server cannot write the
 * index's WAL: the library was not preloaded.  Called before any write.
 */
void
bp_xlog_require(Relation index)
{
	if (bp_rmgr_registered)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("bpindex index \"%s\" cannot be written: bpindex is not in shared_preload_libraries",
					RelationGetRelationName(index)),
			 errdetail("bpindex logs its changes with a WAL resource manager of its own, which is registered only when the server preloads the library."),
			 errhint("Add bpindex to shared_preload_libraries and restart the server (its standbys too).")));
}

/* Append one fragment (offset, length, bytes of page) to a delta. */
static Size
add_fragment(char *delta, Size len, const char *page, Size offset, Size length)
{
	BpXLogFragment frag;

	Assert(offset + length <= BLCKSZ);
	frag.offset = (uint16) offset;
	frag.length = (uint16) length;
	memcpy(delta + len, &frag, sizeof(frag));
	memcpy(delta + len + sizeof(frag), page + offset, length);
	return len + sizeof(frag) + length;
}

/* Zero the hole between pd_lower and pd_upper of a copy of a page. */
static void
zero_hole(char *page)
{
	PageHeader	header = (PageHeader) page;

	if (header->pd_lower >= SizeOfPageHeaderData &&
		header->pd_lower < header->pd_upper && header->pd_upper <= BLCKSZ)
		memset(page + header->pd_lower, 0, header->pd_upper - header->pd_lower);
}

/*
 * The fragments that turn old into new, both seen without their holes:
 * runs of differing 8-byte words, merged across short equal gaps.
 * Returns the delta's length (at most 2 * BLCKSZ bytes).
 */
static Size
compute_delta(const char *old, const char *new, char *delta)
{
	PGAlignedBlock before;
	PGAlignedBlock after;
	const uint64 *a = (const uint64 *) before.data;
	const uint64 *b = (const uint64 *) after.data;
	int			nwords = BLCKSZ / sizeof(uint64);
	Size		len = 0;
	int			i = 0;

	memcpy(before.data, old, BLCKSZ);
	memcpy(after.data, new, BLCKSZ);
	zero_hole(before.data);
	zero_hole(after.data);
	while (i < nwords)
	{
		int			start;
		int			end;

		while (i < nwords && a[i] == b[i])
			i++;
		if (i == nwords)
			break;
		start = i;
		end = i + 1;
		for (i = end; i < nwords && i - end <= MERGE_GAP_WORDS; i++)
			if (a[i] != b[i])
				end = i + 1;
		len = add_fragment(delta, len, after.data, start * sizeof(uint64),
						   (end - start) * sizeof(uint64));
		i = end;
	}
	return len;
}

/* Start changing pages of index, to be logged as one record of kind. */
BpXLog *
bp_xlog_start(Relation index, uint8 kind)
{
	BpXLog	   *xlog = palloc(sizeof(BpXLog));

	xlog->index = index;
	xlog->kind = kind;
	xlog->npages = 0;
	return xlog;
}

/*
 * Register the exclusively locked page in buf for a change; returns a copy
 * to change, installed by bp_xlog_finish (the same copy if buf is already
 * registered).  flags: BP_XLOG_FULL_IMAGE, BP_XLOG_CLEANUP.
 */
Page
bp_xlog_register(BpXLog *xlog, Buffer buf, int flags)
{
	int			i;

	/* a page registered again keeps its copy */
	for (i = 0; i < xlog->npages; i++)
		if (xlog->buffers[i] == buf)
		{
			xlog->flags[i] |= flags;
			return (Page) xlog->pages[i].data;
		}
	i = xlog->npages++;
	if (i >= BP_XLOG_MAX_PAGES)
		elog(ERROR, "bpindex: more than %d pages in one WAL record",
			 BP_XLOG_MAX_PAGES);
	xlog->buffers[i] = buf;
	xlog->flags[i] = flags;
	memcpy(xlog->pages[i].data, BufferGetPage(buf), BLCKSZ);
	return (Page) xlog->pages[i].data;
}

/* Forget the changes registered; the pages stay as they were. */
void
bp_xlog_abort(BpXLog *xlog)
{
	pfree(xlog);
}

/*
 * The fragments that log page i of xlog, into delta: against the page as
 * it was, or against a zeroed page (*init) when that is smaller, counting
 * the full-page image the page would otherwise carry as the first change
 * after a checkpoint.  A page rebuilt whole (a split's halves, a new page,
 * a redistribution) mostly differs from its old bytes; its free slots and
 * key room are zeros, so a record of its non-zero words is smaller than
 * its image, and a page so logged needs no image (REGBUF_WILL_INIT).
 */
static Size
page_delta(BpXLog *xlog, int i, char *delta, bool *init)
{
	static const PGAlignedBlock zero_page;
	Buffer		buf = xlog->buffers[i];
	const char *new = xlog->pages[i].data;
	bool		needs_image;
	Size		len;
	Size		zero_len;
	PGAlignedBlock zero_delta;

	*init = true;
	if (xlog->flags[i] & BP_XLOG_FULL_IMAGE)
		return compute_delta(zero_page.data, new, delta);
	*init = false;
	len = compute_delta(BufferGetPage(buf), new, delta);
	needs_image = XLogCheckBufferNeedsBackup(buf);
	if (len < BLCKSZ / 4 && !needs_image)
		return len;
	zero_len = compute_delta(zero_page.data, new, zero_delta.data);
	if (zero_len >= len + (needs_image ? BLCKSZ : 0))
		return len;
	*init = true;
	memcpy(delta, zero_delta.data, zero_len);
	return zero_len;
}

/*
 * Install the changed copies into their buffers and log them as one
 * record (for a relation that needs WAL).
 */
void
bp_xlog_finish(BpXLog *xlog)
{
	bool		logged = RelationNeedsWAL(xlog->index);
	char	   *deltas = NULL;
	Size		lengths[BP_XLOG_MAX_PAGES] = {0};
	BpXLogBlocks blocks = {0};

	if (logged)
	{
		deltas = palloc((Size) xlog->npages * 2 * BLCKSZ);
		for (int i = 0; i < xlog->npages; i++)
		{
			bool		init;

			lengths[i] = page_delta(xlog, i, deltas + (Size) i * 2 * BLCKSZ,
									&init);
			if (init)
				blocks.init |= (uint8) (1 << i);
			if (xlog->flags[i] & BP_XLOG_CLEANUP)
				blocks.cleanup |= (uint8) (1 << i);
		}
	}
	START_CRIT_SECTION();
	for (int i = 0; i < xlog->npages; i++)
	{
		memcpy(BufferGetPage(xlog->buffers[i]), xlog->pages[i].data, BLCKSZ);
		MarkBufferDirty(xlog->buffers[i]);
	}
	if (logged)
	{
		XLogRecPtr	recptr;

		XLogBeginInsert();
		if (blocks.cleanup != 0 || blocks.init != 0)
			XLogRegisterData((char *) &blocks, sizeof(blocks));
		for (int i = 0; i < xlog->npages; i++)
		{
			XLogRegisterBuffer(i, xlog->buffers[i],
							   (blocks.init >> i) & 1 ?
							   REGBUF_WILL_INIT | REGBUF_STANDARD : REGBUF_STANDARD);
			XLogRegisterBufData(i, deltas + (Size) i * 2 * BLCKSZ, lengths[i]);
		}
		recptr = XLogInsert(BP_RMGR_ID, xlog->kind);
		for (int i = 0; i < xlog->npages; i++)
			PageSetLSN(BufferGetPage(xlog->buffers[i]), recptr);
	}
	END_CRIT_SECTION();
	if (deltas)
		pfree(deltas);
	pfree(xlog);
}

/*
 * Replace the exclusively locked page in buf by newpage, a modified copy
 * of it, logged as a record of kind.  The entries of a leaf may have
 * moved, so its dead marks are cleared.  A leaf that VACUUM changed is
 * replayed under a cleanup lock.
 */
void
bp_install_page(Relation index, Buffer buf, char *newpage, uint8 kind)
{
	BpXLog	   *xlog = bp_xlog_start(index, kind);
	Page		page = bp_xlog_register(xlog, buf,
										kind == BP_XLOG_VACUUM || kind == BP_XLOG_DEAD ?
										BP_XLOG_CLEANUP : 0);

	memcpy(page, newpage, BLCKSZ);
	/* a leaf's dead marks, in the hole (an internal page has none) */
	zero_hole(page);
	bp_xlog_finish(xlog);
}

/*
 * WAL-log n byte ranges of the page in buf that the caller has just
 * changed (within a critical section, with the buffer dirtied): a record
 * of kind BP_XLOG_INSERT.  A range that follows the previous one by no
 * more than a fragment's own header joins its fragment.
 */
void
bp_log_ranges(Buffer buf, Page page, int n, const Size *offsets,
			  const Size *lengths)
{
	PGAlignedBlock delta;
	Size		len = 0;
	int			i = 0;
	XLogRecPtr	recptr;

	while (i < n)
	{
		Size		start = offsets[i];
		Size		end = offsets[i] + lengths[i];

		for (i++; i < n && offsets[i] >= start &&
			 offsets[i] <= end + sizeof(BpXLogFragment); i++)
			end = Max(end, offsets[i] + lengths[i]);
		Assert(len + sizeof(BpXLogFragment) + (end - start) <= BLCKSZ);
		len = add_fragment(delta.data, len, (const char *) page, start,
						   end - start);
	}
	XLogBeginInsert();
	XLogRegisterBuffer(0, buf, REGBUF_STANDARD);
	XLogRegisterBufData(0, delta.data, len);
	recptr = XLogInsert(BP_RMGR_ID, BP_XLOG_INSERT);
	PageSetLSN(page, recptr);
}

/* Log a recovery conflict of kind (BP_XLOG_REUSE or BP_XLOG_HORIZON). */
static void
log_conflict(Relation index, BlockNumber blkno, FullTransactionId horizon,
			 uint8 kind)
{
	BpXLogConflict conflict;

	if (!RelationNeedsWAL(index) || !XLogStandbyInfoActive())
		return;
	memset(&conflict, 0, sizeof(conflict));
	conflict.horizon = horizon;
	conflict.locator = bp_relation_locator(index);
	conflict.blkno = blkno;
	XLogBeginInsert();
	XLogRegisterData((char *) &conflict, sizeof(conflict));
	XLogInsert(BP_RMGR_ID, kind);
}

/*
 * Announce that the deleted page blkno of index, deleted when horizon was
 * the next transaction ID, is about to be reused: standbys resolve the
 * conflict with their snapshots that could still reach it.
 */
void
bp_xlog_reuse(Relation index, BlockNumber blkno, FullTransactionId horizon)
{
	log_conflict(index, blkno, horizon, BP_XLOG_REUSE);
}

/*
 * Announce that entries of leaf blkno whose heap tuples were deleted by
 * transactions up to horizon are about to be removed (bottom-up
 * deletion, whose tuples VACUUM has not pruned yet): standbys resolve the
 * conflict with their snapshots that could still see those tuples.
 */
void
bp_xlog_horizon(Relation index, BlockNumber blkno, TransactionId horizon)
{
	FullTransactionId next = ReadNextFullTransactionId();
	uint32		epoch = EpochFromFullTransactionId(next);

	if (!TransactionIdIsNormal(horizon))
		return;
	/* horizon precedes the next XID: in its epoch, or the one before */
	if (horizon > XidFromFullTransactionId(next))
		epoch--;
	log_conflict(index, blkno, FullTransactionIdFromEpochAndXid(epoch, horizon),
				 BP_XLOG_HORIZON);
}

/*
 * Must VACUUM log the leaves it cleanup-locked without changing them
 * (bp_xlog_pins)?  Only where standbys run queries.
 */
bool
bp_xlog_pins_needed(Relation index)
{
	return RelationNeedsWAL(index) && XLogStandbyInfoActive();
}

/*
 * Log that VACUUM cleanup-locked these n leaves of index and changed none
 * of them.  On the primary that lock waits for every scan that keeps a
 * leaf's pin while it returns a copy of its entries, entries a split may
 * have moved to a leaf VACUUM did change; replay takes the same locks, so
 * that a standby's scans are held to the same rule.
 */
void
bp_xlog_pins(Relation index, const BlockNumber *blocks, int n)
{
	BpXLogPins	pins;

	if (n == 0)
		return;
	memset(&pins, 0, sizeof(pins));
	pins.locator = bp_relation_locator(index);
	pins.nblocks = n;
	XLogBeginInsert();
	XLogRegisterData((char *) &pins, sizeof(pins));
	XLogRegisterData((char *) blocks, sizeof(BlockNumber) * n);
	XLogInsert(BP_RMGR_ID, BP_XLOG_PINS);
}

/* Replay a BP_XLOG_PINS record: wait out the pins of each leaf. */
static void
redo_pins(XLogReaderState *record)
{
	BpXLogPins	pins;
	const char *data = XLogRecGetData(record);

	memcpy(&pins, data, sizeof(pins));
	for (int i = 0; i < pins.nblocks; i++)
	{
		BlockNumber blkno;
		Buffer		buf;

		memcpy(&blkno, data + sizeof(pins) + i * sizeof(BlockNumber),
			   sizeof(BlockNumber));
		buf = XLogReadBufferExtended(pins.locator, MAIN_FORKNUM, blkno,
									 RBM_NORMAL_NO_LOG, InvalidBuffer);
		if (!BufferIsValid(buf))
			continue;
		LockBufferForCleanup(buf);
		UnlockReleaseBuffer(buf);
	}
}

/* Apply the fragments of a page's delta. */
static void
apply_delta(Page page, const char *delta, Size len)
{
	const char *p = delta;
	const char *end = delta + len;

	while (p < end)
	{
		BpXLogFragment frag;

		memcpy(&frag, p, sizeof(frag));
		p += sizeof(frag);
		if (frag.offset + frag.length > BLCKSZ || p + frag.length > end)
			elog(PANIC, "bpindex: a WAL record's fragment lies outside its page");
		memcpy((char *) page + frag.offset, p, frag.length);
		p += frag.length;
	}
}

/* rm_redo: replay a bpindex record. */
static void
bp_redo(XLogReaderState *record)
{
	uint8		kind = XLogRecGetInfo(record) & BP_XLOG_KIND_MASK;
	BpXLogBlocks blocks = {0};
	Buffer		buffers[BP_XLOG_MAX_PAGES];
	XLogRedoAction actions[BP_XLOG_MAX_PAGES];
	int			nblocks = XLogRecMaxBlockId(record) + 1;

	if (kind == BP_XLOG_REUSE || kind == BP_XLOG_HORIZON)
	{
		BpXLogConflict conflict;

		memcpy(&conflict, XLogRecGetData(record), sizeof(conflict));
		if (InHotStandby)
			bp_resolve_snapshot_conflict(conflict.horizon, conflict.locator);
		return;
	}
	if (kind == BP_XLOG_PINS)
	{
		redo_pins(record);
		return;
	}
	if (XLogRecGetDataLen(record) >= sizeof(blocks))
		memcpy(&blocks, XLogRecGetData(record), sizeof(blocks));
	if (nblocks > BP_XLOG_MAX_PAGES)
		elog(PANIC, "bpindex: a WAL record of %d pages", nblocks);

	/* the pages to clean first, holding no other lock while waiting */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < nblocks; i++)
		{
			bool		clean = (blocks.cleanup >> i) & 1;
			ReadBufferMode mode = RBM_NORMAL;

			if (clean != (pass == 0))
				continue;
			/* a page rebuilt whole starts from zeros */
			if ((blocks.init >> i) & 1)
				mode = clean ? RBM_ZERO_AND_CLEANUP_LOCK : RBM_ZERO_AND_LOCK;
			actions[i] = XLogReadBufferForRedoExtended(record, i, mode, clean,
													   &buffers[i]);
		}
	for (int i = 0; i < nblocks; i++)
	{
		if (actions[i] == BLK_NEEDS_REDO)
		{
			Size		len;
			char	   *delta = XLogRecGetBlockData(record, i, &len);
			Page		page = BufferGetPage(buffers[i]);

			/* a page found in shared buffers keeps its bytes: zero them */
			if ((blocks.init >> i) & 1)
				memset(page, 0, BLCKSZ);
			apply_delta(page, delta, len);
			/* as the primary's page is seen: no dead marks */
			zero_hole(page);
			PageSetLSN(page, record->EndRecPtr);
			MarkBufferDirty(buffers[i]);
		}
	}
	for (int i = 0; i < nblocks; i++)
		if (BufferIsValid(buffers[i]))
			UnlockReleaseBuffer(buffers[i]);
}

/* rm_identify: the name of a record's kind. */
static const char *
bp_identify(uint8 info)
{
	switch (info & BP_XLOG_KIND_MASK)
	{
		case BP_XLOG_INSERT:
			return "INSERT";
		case BP_XLOG_REWRITE:
			return "REWRITE";
		case BP_XLOG_SPLIT:
			return "SPLIT";
		case BP_XLOG_DOWNLINK:
			return "DOWNLINK";
		case BP_XLOG_NEWROOT:
			return "NEWROOT";
		case BP_XLOG_VACUUM:
			return "VACUUM";
		case BP_XLOG_DEAD:
			return "DEAD";
		case BP_XLOG_DELETE:
			return "DELETE";
		case BP_XLOG_REUSE:
			return "REUSE";
		case BP_XLOG_PINS:
			return "PINS";
		case BP_XLOG_HORIZON:
			return "HORIZON";
	}
	return NULL;
}

/* rm_desc: what a record changed, for pg_walinspect and error contexts. */
static void
bp_desc(StringInfo buf, XLogReaderState *record)
{
	uint8		kind = XLogRecGetInfo(record) & BP_XLOG_KIND_MASK;
	BpXLogBlocks blocks = {0};

	if (kind == BP_XLOG_REUSE || kind == BP_XLOG_HORIZON)
	{
		BpXLogConflict conflict;

		memcpy(&conflict, XLogRecGetData(record), sizeof(conflict));
		appendStringInfo(buf, kind == BP_XLOG_REUSE ?
						 "blkno %u, deleted at xid %u:%u" :
						 "blkno %u, tuples deleted up to xid %u:%u",
						 conflict.blkno,
						 EpochFromFullTransactionId(conflict.horizon),
						 XidFromFullTransactionId(conflict.horizon));
		return;
	}
	if (kind == BP_XLOG_PINS)
	{
		BpXLogPins	pins;

		memcpy(&pins, XLogRecGetData(record), sizeof(pins));
		appendStringInfo(buf, "%d leaves", pins.nblocks);
		return;
	}
	if (XLogRecGetDataLen(record) >= sizeof(blocks))
		memcpy(&blocks, XLogRecGetData(record), sizeof(blocks));
	for (int i = 0; i <= XLogRecMaxBlockId(record); i++)
	{
		Size		len = 0;
		int			nfragments = 0;
		char	   *delta;

		if (!XLogRecHasBlockRef(record, i))
			continue;
		delta = XLogRecGetBlockData(record, i, &len);
		for (Size at = 0; delta != NULL && at < len; nfragments++)
		{
			BpXLogFragment frag;

			memcpy(&frag, delta + at, sizeof(frag));
			at += sizeof(frag) + frag.length;
		}
		appendStringInfo(buf, "%spage %d: ", i > 0 ? "; " : "", i);
		if (len > 0)
			appendStringInfo(buf, "%s%d fragments, %zu bytes",
							 (blocks.init >> i) & 1 ? "new, " : "", nfragments, len);
		else
			appendStringInfoString(buf, XLogRecHasBlockImage(record, i) ? "image" : "unchanged");
		if ((blocks.cleanup >> i) & 1)
			appendStringInfoString(buf, ", cleanup lock");
	}
}

/*
 * rm_mask: what wal_consistency_checking leaves out of a page: its LSN and
 * checksum, and the hole, which holds a leaf's dead marks (hints that are
 * never logged).
 */
static void
bp_mask(char *pagedata, BlockNumber blkno)
{
	mask_page_lsn_and_checksum(pagedata);
	mask_unused_space(pagedata);
}
