/*-------------------------------------------------------------------------
 *
 * bpformat.h
 *	  The on-disk format of bpindex pages: the special space, the
 *	  metapage, the headers of internal pages, leaves and deleted pages.
 *
 * src/README.md describes the page layouts these structures define.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPFORMAT_H
#define BPFORMAT_H

#include "access/transam.h"
#include "storage/block.h"
#include "storage/bufpage.h"

#include "bpa.h"

/* Identification of bpindex pages and the metapage. */
#define BP_PAGE_ID			0xB7F1
#define BP_META_MAGIC		0x42504958	/* "BPIX" */
#define BP_VERSION			4
#define BP_METAPAGE_BLKNO	0

/* Page kinds and flags, in BpPageOpaqueData.flags. */
#define BP_META				(1 << 0)
#define BP_LEAF				(1 << 1)
#define BP_INTERNAL			(1 << 2)
#define BP_HAS_LOW			(1 << 3)	/* low key is set (not leftmost) */
#define BP_HAS_HIGH			(1 << 4)	/* high key and right-link are set */
#define BP_INCOMPLETE_SPLIT	(1 << 5)	/* right sibling has no downlink yet */
#define BP_DELETED			(1 << 6)	/* unlinked from the tree (keeps its kind,
										 * fences and right-link) */
#define BP_LOW_OMITTED		(1 << 7)	/* internal page, not leftmost, whose
										 * low key (and pivot 0) is not stored */
#define BP_KIND_MASK		(BP_META | BP_LEAF | BP_INTERNAL)

/* Special space of every page. */
typedef struct BpPageOpaqueData
{
	uint16		flags;			/* BP_* kind and flags */
	uint16		level;			/* 0 for leaves */
	BlockNumber rightlink;		/* right sibling, if BP_HAS_HIGH */
	uint16		page_id;		/* BP_PAGE_ID */
	uint16		key_low;		/* start of the key area, which ends at
								 * pd_lower; 0 if the page has none */
} BpPageOpaqueData;

typedef BpPageOpaqueData *BpPageOpaque;

/* Bytes of the special space of every page. */
#define BP_OPAQUE_SIZE	MAXALIGN(sizeof(BpPageOpaqueData))

#define BpPageGetOpaque(page) ((BpPageOpaque) PageGetSpecialPointer((Page) (page)))

/* Content of the metapage. */
typedef struct BpMetaPageData
{
	uint32		magic;			/* BP_META_MAGIC */
	uint32		version;		/* BP_VERSION */
	BlockNumber root;			/* root page */
	uint16		root_level;		/* level of the root, 0 if it is a leaf */
	uint16		natts;			/* key columns */
	uint16		slot_width;		/* bytes per slot */
	uint16		fillfactor;		/* fillfactor used by the build */
	uint16		internal_capacity;	/* pivots per internal page */
	uint16		flags;			/* BP_META_CODE_POINT_LIBC */
	BpaLayout	leaf_layout;	/* layout of every leaf's BPA */
} BpMetaPageData;

/*
 * The index was built knowing that libc's C.UTF-8 orders strings as their
 * bytes (bpcollation.c); without it such keys are compared by the
 * collation's function, as the index's pages were laid out.
 */
#define BP_META_CODE_POINT_LIBC	0x0001

typedef BpMetaPageData *BpMetaPage;

#define BpPageGetMeta(page) ((BpMetaPage) PageGetContents(page))

/* Header of the content of an internal page, after its two fence keys. */
typedef struct BpInternalHeader
{
	uint16		nitems;			/* children (and pivots) in use */
	uint16		capacity;		/* children the page has room for */
	uint32		reserved;
} BpInternalHeader;

/*
 * Content of a deleted page, after its two fence keys: the next full
 * transaction id when it was deleted.  The page may be reused once no
 * running transaction is older than that (bp_page_recyclable).
 */
typedef struct BpDeletedData
{
	FullTransactionId safexid;
} BpDeletedData;

/* Encodings of a leaf's entries (bpleaf.c). */
#define BP_LEAF_PLAIN		0	/* logical slots */
#define BP_LEAF_PACKED		1	/* encoded by the leaf's codec */

/* The leaf's encoding, after its fences. */
typedef struct BpLeafHeader
{
	uint8		encoding;		/* BP_LEAF_PLAIN or BP_LEAF_PACKED */
	uint8		flags;			/* LEAF_KEYS_STRIPPED */
	uint16		window_start;	/* packed, first column a key: where its
								 * window starts (key_window_start) */
	uint16		prefix_offset;	/* ordered windows: the key in the key area
								 * whose first window_start bytes every key
								 * of the leaf starts with; 0 in leaves
								 * written before it, whose low key is */
	uint8		reserved[2];
} BpLeafHeader;

/*
 * The keys of the first column of a packed leaf's entries are stored
 * without their first window_start bytes, the prefix they all share
 * (key_window_start, shared_prefix).  Fences keep their keys whole.
 */
#define LEAF_KEYS_STRIPPED	0x01

#endif							/* BPFORMAT_H */
