/*-------------------------------------------------------------------------
 *
 * bpxlog.c
 *	  WAL records of single-page changes, in generic WAL's own format.
 *
 * A generic WAL record (resource manager RM_GENERIC_ID) carries, for each
 * registered page, a list of fragments: an OffsetNumber offset, an
 * OffsetNumber length and that many bytes of the new page.  generic_redo
 * copies them into the page; when the record holds a full-page image it
 * restores that instead.  GenericXLogFinish builds such a record by
 * diffing the whole page byte by byte, which costs more than a BPA insert
 * itself; the changes of one leaf are logged here instead, either as the
 * byte ranges the caller knows it changed, or as the ranges that differ
 * between the page and a modified copy, found a word at a time.  Recovery
 * and standbys replay them with the stock server.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/rmgr.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "utils/rel.h"

#include "bpindex.h"

/* Equal words between two differing runs that still merge them. */
#define MERGE_GAP_WORDS 2

/* Append one fragment (offset, length, bytes of page) to a delta. */
static Size
add_fragment(char *delta, Size len, const char *page, Size offset, Size length)
{
	OffsetNumber off = (OffsetNumber) offset;
	OffsetNumber n = (OffsetNumber) length;

	memcpy(delta + len, &off, sizeof(OffsetNumber));
	memcpy(delta + len + sizeof(OffsetNumber), &n, sizeof(OffsetNumber));
	memcpy(delta + len + 2 * sizeof(OffsetNumber), page + offset, length);
	return len + 2 * sizeof(OffsetNumber) + length;
}

/* Insert the record of a delta for buf and stamp the page.  In a critical section. */
static void
insert_record(Buffer buf, Page page, const char *delta, Size len)
{
	XLogRecPtr	recptr;

	XLogBeginInsert();
	XLogRegisterBuffer(0, buf, REGBUF_STANDARD);
	XLogRegisterBufData(0, (char *) delta, len);
	recptr = XLogInsert(RM_GENERIC_ID, 0);
	PageSetLSN(page, recptr);
}

/*
 * WAL-log n byte ranges of the page in buf that the caller has just
 * changed (within a critical section, with the buffer dirtied).  A range
 * that follows the previous one by no more than a fragment's own header
 * joins its fragment.
 */
void
bp_log_ranges(Buffer buf, Page page, int n, const Size *offsets,
			  const Size *lengths)
{
	PGAlignedBlock delta;
	Size		len = 0;
	int			i = 0;

	while (i < n)
	{
		Size		start = offsets[i];
		Size		end = offsets[i] + lengths[i];

		for (i++; i < n && offsets[i] >= start &&
			 offsets[i] <= end + 2 * sizeof(OffsetNumber); i++)
			end = Max(end, offsets[i] + lengths[i]);
		Assert(len + 2 * sizeof(OffsetNumber) + (end - start) <= BLCKSZ);
		len = add_fragment(delta.data, len, (const char *) page, start,
						   end - start);
	}
	insert_record(buf, page, delta.data, len);
}

/*
 * The fragments that turn old into new: runs of differing 8-byte words,
 * merged across short equal gaps.  Returns the delta's length.
 */
static Size
compute_delta(const char *old, const char *new, char *delta)
{
	const uint64 *a = (const uint64 *) old;
	const uint64 *b = (const uint64 *) new;
	int			nwords = BLCKSZ / sizeof(uint64);
	Size		len = 0;
	int			i = 0;

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
		len = add_fragment(delta, len, new, start * sizeof(uint64),
						   (end - start) * sizeof(uint64));
		i = end;
	}
	return len;
}

/*
 * Replace the exclusively locked page in buf by newpage, a modified copy
 * of it, WAL-logging the ranges that differ.  The entries of a leaf may
 * have moved, so its dead marks are cleared.
 */
void
bp_install_page(Relation index, Buffer buf, char *newpage)
{
	Page		page = BufferGetPage(buf);
	char	   *delta = palloc(2 * BLCKSZ);
	Size		len = 0;
	bool		logged = RelationNeedsWAL(index);

	if (BpPageGetOpaque(newpage)->flags & BP_LEAF)
		bp_leaf_clear_dead_marks(newpage);

	if (logged)
		len = compute_delta((const char *) page, newpage, delta);
	START_CRIT_SECTION();
	memcpy(page, newpage, BLCKSZ);
	MarkBufferDirty(buf);
	if (logged && len > 0)
		insert_record(buf, page, delta, len);
	END_CRIT_SECTION();
	pfree(delta);
}
