/*-------------------------------------------------------------------------
 *
 * bppage.c
 *	  Pages: their special space, key area, fences and deleted pages, and the
 *	  corrupted-page error.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amvalidate.h"
#include "access/genam.h"
#include "access/tupmacs.h"
#include "catalog/pg_type.h"
#include "catalog/index.h"
#include "mb/pg_wchar.h"
#include "storage/indexfsm.h"
#include "storage/lmgr.h"
#include <math.h>
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/sortsupport.h"

#include "bpformat.h"
#include "bppage.h"
#include "bpslot.h"

static char *copy_page_slot(const BpSlotDesc *desc, const char *page, const char *stored);

/* Raise the error for a page that is not what bpindex wrote. */
void
bp_report_corrupted(Relation index, BlockNumber blkno, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" contains corrupted page at block %u",
					RelationGetRelationName(index), blkno),
			 errdetail_internal("%s", detail),
			 errhint("Please REINDEX it.")));
}

/* Bytes between the page header and the special space. */
Size
bp_page_content_size(void)
{
	return BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - BP_OPAQUE_SIZE;
}

/* Offset in the content of what follows the two fence keys. */
Size
bp_fences_size(uint16 width)
{
	return MAXALIGN(2 * (Size) width);
}

/* Initialize a page of the given kind; the whole content counts as used. */
void
bp_init_page(Page page, uint16 flags, uint16 level)
{
	BpPageOpaque opaque;

	PageInit(page, BLCKSZ, BP_OPAQUE_SIZE);
	((PageHeader) page)->pd_lower = ((PageHeader) page)->pd_upper;
	opaque = BpPageGetOpaque(page);
	opaque->flags = flags;
	opaque->level = level;
	opaque->rightlink = InvalidBlockNumber;
	opaque->page_id = BP_PAGE_ID;
}

/* Is page a deleted bpindex page? */
bool
bp_page_deleted(Page page)
{
	return (BpPageGetOpaque(page)->flags & BP_DELETED) != 0;
}

/* The content of a deleted page, after its fences. */
BpDeletedData *
bp_page_deleted_data(Page page, uint16 width)
{
	return (BpDeletedData *) (PageGetContents(page) + bp_fences_size(width));
}

/*
 * Turn page (a leaf or internal page unlinked from the tree) into a deleted
 * page: it keeps its kind, level, fences (with their keys, in a fresh key
 * area; lowkey, if not NULL, is its low key, which an internal page may
 * omit) and right-link, so that a reader that still reaches it through a
 * stale link can go on from it, and records safexid, the next full
 * transaction id at its deletion.
 */
void
bp_init_deleted_page(Page page, const BpSlotDesc *desc, const char *lowkey,
					 FullTransactionId safexid)
{
	BpPageOpaqueData opaque = *BpPageGetOpaque(page);
	char	   *low = lowkey ? bp_copy_slot(desc, lowkey) :
		bp_copy_page_fence(desc, page, false);
	char	   *high = bp_copy_page_fence(desc, page, true);
	Size		floor;

	Assert(low != NULL || !(opaque.flags & BP_HAS_LOW));
	bp_init_page(page, (opaque.flags & (BP_KIND_MASK | BP_HAS_LOW | BP_HAS_HIGH)) |
				 BP_DELETED, opaque.level);
	BpPageGetOpaque(page)->rightlink = opaque.rightlink;
	bp_page_deleted_data(page, desc->width)->safexid = safexid;
	floor = (char *) (bp_page_deleted_data(page, desc->width) + 1) - (char *) page;
	if (desc->has_keys)
		bp_page_start_keys(page);
	if (!bp_store_page_slot(desc, page, floor, high, NULL,
							bp_page_highkey(page, desc->width)) ||
		(low && !bp_store_page_slot(desc, page, floor, low, NULL,
									bp_page_lowkey(page))))
		elog(ERROR, "bpindex: the fences of a deleted page do not fit it");
	if (low)
		pfree(low);
	pfree(high);
}

/*
 * May the deleted page be reused?  Only once no running transaction can
 * still hold a link to it: every snapshot must be younger than its
 * deletion (nbtree's rule).
 */
bool
bp_page_recyclable(Page page, uint16 width)
{
	if (PageIsNew(page))
		return true;
	if (PageGetSpecialSize(page) != BP_OPAQUE_SIZE ||
		BpPageGetOpaque(page)->page_id != BP_PAGE_ID ||
		!bp_page_deleted(page))
		return false;
	return GlobalVisCheckRemovableFullXid(NULL,
										  bp_page_deleted_data(page, width)->safexid);
}

/*
 * A page for a split or a new root, exclusively locked: a deleted page
 * the free space map offers, if it is still deleted and recyclable and
 * nobody else has it pinned or locked (*deleted_at: the transaction ID of
 * its deletion), else a new page at the end of the index (*deleted_at
 * invalid).  Callers initialize the whole page.
 */
Buffer
bp_new_buffer(Relation index, uint16 width, FullTransactionId *deleted_at)
{
	Buffer		buf;

	*deleted_at = InvalidFullTransactionId;

	for (;;)
	{
		BlockNumber blkno = GetFreeIndexPage(index);

		if (blkno == InvalidBlockNumber)
			break;
		if (blkno == BP_METAPAGE_BLKNO)
			continue;
		buf = ReadBuffer(index, blkno);
		/* never wait: the caller may hold locks of the tree */
		if (ConditionalLockBufferForCleanup(buf))
		{
			Page		page = BufferGetPage(buf);
			if (bp_page_recyclable(page, width))
			{
				if (!PageIsNew(page))
					*deleted_at = bp_page_deleted_data(page, width)->safexid;
				return buf;
			}
			LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		}
		ReleaseBuffer(buf);
	}

	LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBuffer(index, P_NEW);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	UnlockRelationForExtension(index, ExclusiveLock);
	return buf;
}

/*
 * Does the page store its low key: it has one (it is not the leftmost of
 * its level) and keeps its bytes (an internal page of long keys may not,
 * BP_LOW_OMITTED)?
 */
bool
bp_page_stores_low(const char *page)
{
	return (BpPageGetOpaque(page)->flags & (BP_HAS_LOW | BP_LOW_OMITTED)) ==
		BP_HAS_LOW;
}

/* The low fence key of a leaf or internal page. */
char *
bp_page_lowkey(Page page)
{
	return PageGetContents(page);
}

/* The high fence key of a leaf or internal page. */
char *
bp_page_highkey(Page page, uint16 width)
{
	return PageGetContents(page) + width;
}

/*
 * The key area of a page lies between its key_low and pd_lower, below the
 * dead marks of a leaf, and grows down towards the page's other content.
 * Keys are never moved or freed while the page lives (the slots that
 * refer to one may be copied, as the BPA's header copies entries); a page
 * is rebuilt to compact its keys.
 */

/* Give a page just initialized an empty key area, ending at pd_lower. */
void
bp_page_start_keys(Page page)
{
	BpPageGetOpaque(page)->key_low = ((PageHeader) page)->pd_lower;
}

/* Bytes between floor and the key area of page (0 if they overlap). */
Size
bp_page_key_room(Page page, Size floor)
{
	Size		low = BpPageGetOpaque(page)->key_low;

	return low > floor ? low - floor : 0;
}

/*
 * Where key (of column att) would go in the key area of page, not below
 * floor, or 0 if it does not fit.  A key with a 4-byte header is aligned
 * as its type says.
 */
static Size
page_next_key_offset(const BpSlotDesc *desc, int att, Page page, Size floor,
					 const char *key)
{
	Size		size = bp_key_stored_size(desc, att, key);
	Size		low = BpPageGetOpaque(page)->key_low;

	if (low < size + floor)
		return 0;
	low -= size;
	if (bp_key_stored_long(desc, att, key))
		low = TYPEALIGN_DOWN(desc->key_align[att], low);
	return low >= floor ? low : 0;
}

/*
 * Copy key (of column att) into the key area of page, not below floor (a
 * compressed key as it is); returns its offset, or 0 if it does not fit.
 */
Size
bp_page_add_key(const BpSlotDesc *desc, int att, Page page, Size floor,
				const char *key)
{
	Size		offset = page_next_key_offset(desc, att, page, floor, key);
	Size		size = bp_key_stored_size(desc, att, key);
	char	   *dst = (char *) page + offset;

	if (offset == 0)
		return 0;
	if (bp_key_compressed(key))
		memcpy(dst, key, size);
	else if (bp_key_stored_long(desc, att, key))
	{
		SET_VARSIZE(dst, size);
		memcpy(dst + VARHDRSZ, VARDATA_ANY(key), size - VARHDRSZ);
	}
	else
	{
		SET_VARSIZE_SHORT(dst, size);
		memcpy(dst + VARHDRSZ_SHORT, VARDATA_ANY(key), size - VARHDRSZ_SHORT);
	}
	BpPageGetOpaque(page)->key_low = (uint16) offset;
	return offset;
}

/*
 * Copy a slot stored in page (its keys offsets there) to out as a logical
 * slot whose keys point into keys, which is page itself or a copy of it.
 */
void
bp_slot_from_page(const BpSlotDesc *desc, const char *page, const char *keys,
				  const char *stored, char *out)
{
	memcpy(out, stored, desc->width);
	if (!desc->has_keys)
		return;
	for (int i = 0; i < desc->ncolumns; i++)
	{
		char	   *field = out + desc->att_offset[i];

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, out, i))
			continue;
		bp_set_key_ref(field, (uint64) (uintptr_t)
					   (keys + (bp_page_key(desc, page, bp_key_ref(field)) - page)));
	}
}

/*
 * The offset in the key area of page of key (a varlena of column att):
 * the key that same_field (a key field of a slot stored in page, or NULL)
 * refers to if that is equal, else a copy added there (not below floor);
 * 0 if it does not fit.
 */
Size
bp_page_store_key(const BpSlotDesc *desc, int att, Page page, Size floor,
				  const char *key, const char *same_field)
{
	if (same_field != NULL)
	{
		const char *other = bp_key_field_value(desc, page, same_field);

		if (bp_keys_equal(key, other))
			return other - (const char *) page;
	}
	return bp_page_add_key(desc, att, page, floor, key);
}

/*
 * Store the logical slot at dst in page, adding its keys to the key area
 * of page (not below floor) and referring to them by offset.  A key equal
 * to the same column's key of same (a slot stored in page, or NULL) is
 * not copied again.  False, with the key area perhaps grown, if the keys
 * do not fit.
 */
bool
bp_slot_to_page(const BpSlotDesc *desc, Page page, Size floor,
				const char *slot, const char *same, char *dst)
{
	char		stored[BP_MAX_SLOT_WIDTH];

	memcpy(stored, slot, desc->width);
	for (int i = 0; desc->has_keys && i < desc->ncolumns; i++)
	{
		char	   *field = stored + desc->att_offset[i];
		const char *key;
		Size		offset;

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, stored, i))
			continue;
		key = bp_key_field_value(desc, NULL, field);
		offset = bp_page_store_key(desc, i, page, floor, key,
								   same != NULL && !bp_slot_isnull(desc, same, i) ?
								   same + desc->att_offset[i] : NULL);
		if (offset == 0)
			return false;
		bp_set_key_ref(field, offset);
	}
	memcpy(dst, stored, desc->width);
	return true;
}

/*
 * A slot stored in page as a logical slot: the stored slot itself in an
 * index without keys, else converted into buf (room for a slot), its keys
 * pointing into page.
 */
const char *
bp_page_slot(const BpSlotDesc *desc, const char *page, const char *stored,
			 char *buf)
{
	if (!desc->has_keys)
		return stored;
	bp_slot_from_page(desc, page, page, stored, buf);
	return buf;
}

/* A fence of page as a logical slot (bp_page_slot). */
const char *
bp_page_fence(const BpSlotDesc *desc, const char *page, bool high, char *buf)
{
	const char *contents = PageGetContents((Page) page);

	return bp_page_slot(desc, page, high ? contents + desc->width : contents,
						buf);
}

/*
 * Copy a fence of page into out as a logical slot whose keys point into
 * keys (page or a copy of it); all zeros if the page has no such fence.
 */
void
bp_page_fence_into(const BpSlotDesc *desc, const char *page, const char *keys,
				   bool high, char *out)
{
	uint16		flags = BpPageGetOpaque(page)->flags;
	const char *contents = PageGetContents((Page) page);

	if (high ? !(flags & BP_HAS_HIGH) : !bp_page_stores_low(page))
		memset(out, 0, desc->width);
	else
		bp_slot_from_page(desc, page, keys,
						  high ? contents + desc->width : contents, out);
}

/*
 * A copy of a fence of page with its keys, or NULL if it has none or does
 * not store it (BP_LOW_OMITTED).
 */
char *
bp_copy_page_fence(const BpSlotDesc *desc, const char *page, bool high)
{
	uint16		flags = BpPageGetOpaque(page)->flags;

	if (high ? !(flags & BP_HAS_HIGH) : !bp_page_stores_low(page))
		return NULL;
	return copy_page_slot(desc, page, high ? bp_page_highkey((Page) page, desc->width) :
							 bp_page_lowkey((Page) page));
}

/* A copy of a slot stored in page, as bp_copy_slot makes. */
static char *
copy_page_slot(const BpSlotDesc *desc, const char *page,
				  const char *stored)
{
	char		buf[BP_MAX_SLOT_WIDTH];

	return bp_copy_slot(desc, bp_page_slot(desc, page, stored, buf));
}

/* Does slot lie within the fences of page (low key <= slot < high key)? */
bool
bp_slot_within_fences(Page page, const BpSlotDesc *desc, const char *slot)
{
	uint16		flags = BpPageGetOpaque(page)->flags;
	char		fence[BP_MAX_SLOT_WIDTH];

	if (bp_page_stores_low(page) &&
		bp_compare_slots(bp_page_fence(desc, page, false, fence), slot,
						 (void *) desc) > 0)
		return false;
	if ((flags & BP_HAS_HIGH) &&
		bp_compare_slots(slot, bp_page_fence(desc, page, true, fence),
						 (void *) desc) >= 0)
		return false;
	return true;
}

/* Does the key field of a slot stored in page refer into its key area? */
static bool
stored_key_in_area(const char *page, const char *field)
{
	uint64		ref = bp_key_ref(field);

	return ref >= BpPageGetOpaque(page)->key_low &&
		ref < ((const PageHeaderData *) page)->pd_lower;
}

/*
 * Problems of the key area of a page of an index with keys, or NULL: its
 * bound, and where the keys of its fences lie (its entries' keys are
 * checked where they are read, bp_page_key).
 */
const char *
bp_page_key_area_problem(const BpSlotDesc *desc, Page page)
{
	uint16		flags = BpPageGetOpaque(page)->flags;
	Size		low = BpPageGetOpaque(page)->key_low;

	if (!desc->has_keys)
		return NULL;
	if (low == 0 || low > ((PageHeader) page)->pd_lower)
		return "The key area bound is invalid.";
	for (int f = 0; f < 2; f++)
	{
		const char *fence = PageGetContents(page) + f * desc->width;

		if (f == 0 ? !bp_page_stores_low(page) : !(flags & BP_HAS_HIGH))
			continue;
		for (int i = 0; i < desc->ncolumns; i++)
			if (desc->att_len[i] == -1 && !bp_slot_isnull(desc, fence, i) &&
				!stored_key_in_area(page, fence + desc->att_offset[i]))
				return "A fence refers to a key outside the page's key area.";
	}
	return NULL;
}

/*
 * Store the logical slot at dst of page (keys not below floor), with its
 * keys if the index has any, sharing same's (bp_slot_to_page); false if
 * they do not fit.
 */
bool
bp_store_page_slot(const BpSlotDesc *desc, Page page, Size floor,
				const char *slot, const char *same, char *dst)
{
	if (!desc->has_keys)
	{
		memcpy(dst, slot, desc->width);
		return true;
	}
	return bp_slot_to_page(desc, page, floor, slot, same, dst);
}
