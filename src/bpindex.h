/*-------------------------------------------------------------------------
 *
 * bpindex.h
 *	  Declarations shared by the phases of the bpindex access method.
 *
 * src/README.md describes the page formats these structures define.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPINDEX_H
#define BPINDEX_H

#include "access/amapi.h"
#include "access/genam.h"
#include "access/itup.h"
#include "access/skey.h"
#include "access/transam.h"
#include "access/tupmacs.h"
#include "fmgr.h"
#include "nodes/execnodes.h"
#include "nodes/pathnodes.h"
#include "port/pg_bswap.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/lockdefs.h"
#include "utils/float.h"
#include "utils/relcache.h"

#include "bpa.h"
#include "bpcodec.h"
#include "bpxlog.h"

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
#define BP_KIND_MASK		(BP_META | BP_LEAF | BP_INTERNAL)

/* Reloption defaults. */
#define BP_DEFAULT_FILLFACTOR	90
#define BP_MIN_FILLFACTOR		10
#define BP_MAX_LAYOUT_SLOTS		1024	/* upper bound of log_size, block_size */

/* Widest slot an index may have (four must fit an internal page). */
#define BP_MAX_SLOT_WIDTH		(BLCKSZ / 4)

/* Fill of internal pages at build, leaving room for later downlinks. */
#define BP_INTERNAL_FILLFACTOR	70

/* Build progress subphases, reported through amphasename. */
#define BP_BUILD_PHASE_SCAN		2
#define BP_BUILD_PHASE_SORT		3
#define BP_BUILD_PHASE_LOAD		4

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
	uint16		reserved;
	BpaLayout	leaf_layout;	/* layout of every leaf's BPA */
} BpMetaPageData;

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

/* Reloptions. */
typedef struct BpOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			fillfactor;		/* leaf fill at build, in percent */
	int			log_size;		/* slots in each leaf's log, 0 = default */
	int			block_size;		/* slots per BPA block, 0 = default */
	bool		packed_leaves;	/* leaves may pack their entries */
} BpOptions;

/* How one key column compares: inline for common types, else by fmgr. */
typedef enum BpCompareKind
{
	BP_CMP_FMGR,				/* call support function 1 */
	BP_CMP_INT2,
	BP_CMP_INT4,				/* int4, date */
	BP_CMP_INT8,				/* int8, timestamp, timestamptz, time */
	BP_CMP_UINT32,				/* oid */
	BP_CMP_BOOL,
	BP_CMP_FLOAT4,
	BP_CMP_FLOAT8,
	BP_CMP_BYTES,				/* uuid: memcmp */
	BP_CMP_PREFIX				/* variable-length, bytewise order: the
								 * key prefixes decide unless equal */
} BpCompareKind;

/*
 * A variable-length key column takes a field of BP_KEY_FIELD_SIZE bytes in
 * a slot: the first BP_KEY_PREFIX_SIZE bytes of the key (without trailing
 * blanks for bpchar), zero-padded, then a reference to the whole key, a
 * varlena without compression or TOAST.  In a slot stored on a page the
 * reference is the key's byte offset in that page's key area; in a logical
 * slot in memory it is a pointer.  Offsets are below BLCKSZ and pointers
 * never are, so that one comparison tells them apart.
 */
#define BP_KEY_PREFIX_SIZE	8
#define BP_KEY_FIELD_SIZE	16
#define BP_KEY_REF_OFFSET	BP_KEY_PREFIX_SIZE

/*
 * Bytes a pivot's key keeps after the shortest prefix that separates two
 * leaves (bp_separator).  The windows of a leaf's keys start after the
 * prefix its fences share (bpleaf.c); a fence cut to the shortest prefix
 * would often share one byte less with the other fence than the leaf's
 * keys do, and make the windows start too soon to tell keys apart.
 */
#define BP_SEPARATOR_SLACK	2

/*
 * Largest sum of the variable-length keys of an entry, in bytes with their
 * headers as a key area stores them; and room for such keys elsewhere
 * (headers of 4 bytes, aligned).
 */
#define BP_MAX_KEY_SIZE		(BLCKSZ / 10)
#define BP_KEYS_BUFSIZE		(BP_MAX_KEY_SIZE + 8 * INDEX_MAX_KEYS)

/*
 * The high bits of the heap TID's offset number in a slot, which heap
 * offsets (below 2048 even with 32 kB pages) never use, hold the dead bit
 * (the heap tuple is dead to everyone, see bpscan.c) and the null bits of
 * indexes with up to BP_TID_NULL_BITS key columns.  Slots compare as if
 * these bits were clear.
 */
#define BP_TID_NULL_SHIFT	11
#define BP_TID_NULL_BITS	4
#define BP_TID_DEAD_BIT		0x8000
#define BP_TID_OFFSET_MASK	((1 << BP_TID_NULL_SHIFT) - 1)

/*
 * How an index entry is laid out in a slot, and how slots compare.
 * Slot: heap TID (6 bytes), a null bitmap if there are more than
 * BP_TID_NULL_BITS columns, then the key columns and the INCLUDE columns
 * (stored, returned by index-only scans, never compared).  Columns that are
 * passed by value or have char alignment are packed without padding (and
 * read with memcpy); otherwise every column is aligned and the width is
 * rounded up to the strictest alignment.  Widths are even.
 */
typedef struct BpSlotDesc
{
	int			natts;			/* key columns: the ones compared */
	int			ncolumns;		/* key and INCLUDE columns */
	uint16		width;			/* bytes per slot */
	bool		nulls_in_tid;	/* null bits in the TID's offset number */
	uint16		null_offset;	/* offset of the null bitmap otherwise */
	uint16		att_offset[INDEX_MAX_KEYS];
	int16		att_len[INDEX_MAX_KEYS];	/* typlen: -1 for a key field */
	bool		att_byval[INDEX_MAX_KEYS];
	bool		has_keys;		/* a key column is variable-length */
	bool		blank_padded[INDEX_MAX_KEYS];	/* bpchar: prefixes skip
												 * trailing blanks */
	bool		equal_bytes[INDEX_MAX_KEYS];	/* keys are equal only if
												 * their bytes are (text
												 * under a deterministic
												 * collation, bytea) */
	Oid			index_oid;		/* for errors */
	Oid			collation[INDEX_MAX_KEYS];
	FmgrInfo   *cmp_proc[INDEX_MAX_KEYS];	/* support function 1 */
	/* text and bpchar key columns: their sort support (bputils.c) */
	struct SortSupportData *key_order[INDEX_MAX_KEYS];
	BpCompareKind cmp_kind[INDEX_MAX_KEYS];
	/* key column orderings (DESC, NULLS FIRST); false for INCLUDE columns */
	bool		reverse[INDEX_MAX_KEYS];	/* values in descending order */
	bool		nulls_first[INDEX_MAX_KEYS];	/* NULLs before the values */
	/* index tuples of entries without NULLs, formed without heap_fill_tuple */
	bool		itup_direct;	/* every column has a fixed length */
	char		att_align[INDEX_MAX_KEYS];	/* typalign of each column */
	uint16		itup_size;		/* bytes of such a tuple */
	uint16		itup_att_offset[INDEX_MAX_KEYS];	/* column offsets in it */
	/* how leaves may pack entries (bpleaf.c) */
	bool		packable;		/* every column has an image */
	BpcColumns	columns;
} BpSlotDesc;

/* Is column att of slot NULL? */
static inline bool
bp_slot_isnull(const BpSlotDesc *desc, const char *slot, int att)
{
	if (desc->nulls_in_tid)
		return (((const ItemPointerData *) slot)->ip_posid >>
				(BP_TID_NULL_SHIFT + att)) & 1;
	return (((const uint8 *) slot)[desc->null_offset + att / 8] >> (att % 8)) & 1;
}

/* Mark column att of slot NULL. */
static inline void
bp_slot_set_null(const BpSlotDesc *desc, char *slot, int att)
{
	if (desc->nulls_in_tid)
		((ItemPointer) slot)->ip_posid |= (uint16) (1 << (BP_TID_NULL_SHIFT + att));
	else
		((uint8 *) slot)[desc->null_offset + att / 8] |= (uint8) (1 << (att % 8));
}

/* Has a scan found the heap tuple of slot dead to everyone? */
static inline bool
bp_slot_dead(const char *slot)
{
	return (((const ItemPointerData *) slot)->ip_posid & BP_TID_DEAD_BIT) != 0;
}

/* The heap TID of a slot, without null and dead bits. */
static inline ItemPointerData
bp_slot_tid(const char *slot)
{
	ItemPointerData tid = *(const ItemPointerData *) slot;

	tid.ip_posid &= BP_TID_OFFSET_MASK;
	return tid;
}

/* A value passed by value, read from a possibly unaligned address. */
static inline Datum
bp_fetch_byval(const char *p, int16 len)
{
	switch (len)
	{
		case 1:
			return CharGetDatum(*p);
		case 2:
			{
				int16		v;

				memcpy(&v, p, sizeof(v));
				return Int16GetDatum(v);
			}
		case 4:
			{
				int32		v;

				memcpy(&v, p, sizeof(v));
				return Int32GetDatum(v);
			}
		default:
			{
				int64		v;

				Assert(len == 8);
				memcpy(&v, p, sizeof(v));
				return Int64GetDatum(v);
			}
	}
}

/*
 * The bytes of a key (a varlena of column att) that order and identify
 * it: its data without a bpchar's trailing blanks; their count in *len.
 */
static inline const char *
bp_key_data(const BpSlotDesc *desc, int att, const char *key, Size *len)
{
	const char *data = VARDATA_ANY(key);

	*len = VARSIZE_ANY_EXHDR(key);
	if (desc->blank_padded[att])
		while (*len > 0 && data[*len - 1] == ' ')
			(*len)--;
	return data;
}

/* The reference of a key field: an offset in a page or a pointer. */
static inline uint64
bp_key_ref(const char *field)
{
	uint64		ref;

	memcpy(&ref, field + BP_KEY_REF_OFFSET, sizeof(ref));
	return ref;
}

/* Make the key field refer to ref. */
static inline void
bp_set_key_ref(char *field, uint64 ref)
{
	memcpy(field + BP_KEY_REF_OFFSET, &ref, sizeof(ref));
}

extern const char *bp_page_key(const BpSlotDesc *desc, const char *page,
							   uint64 offset);

extern void bp_report_key_pointer(uint64 ref);
extern bool bp_keys_equal(const char *a, const char *b);
extern Size bp_keys_common_prefix(const char *a, const char *b,
								  bool blank_padded);
extern Size bp_page_store_key(const BpSlotDesc *desc, Page page, Size floor,
							  const char *key, const char *same_field);
extern bool bp_key_order_bytewise(Oid proc, Oid collation);

/* Three-way comparison of two key prefixes, bytewise. */
static inline int
bp_compare_prefixes(const char *a, const char *b)
{
	uint64		x;
	uint64		y;

	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	x = pg_ntoh64(x);
	y = pg_ntoh64(y);
	return (x > y) - (x < y);
}

/*
 * The key a key field refers to.  A field of a slot stored in page (page
 * not NULL) refers by offset, checked to lie in the page's key area; a
 * field of a logical slot (page NULL) by pointer.
 */
static inline const char *
bp_key_field_value(const BpSlotDesc *desc, const char *page, const char *field)
{
	uint64		ref = bp_key_ref(field);

	if (page != NULL)
		return bp_page_key(desc, page, ref);
	if (ref < BLCKSZ)
		bp_report_key_pointer(ref);
	return (const char *) (uintptr_t) ref;
}

/*
 * Column att of slot, a slot stored in page if page is not NULL (its keys
 * are offsets there); by-reference values point into the slot or to its
 * key.
 */
static inline Datum
bp_slot_datum_in(const BpSlotDesc *desc, const char *page, const char *slot,
				 int att)
{
	const char *p = slot + desc->att_offset[att];

	if (desc->att_byval[att])
		return bp_fetch_byval(p, desc->att_len[att]);
	if (desc->att_len[att] == -1)
		return PointerGetDatum(bp_key_field_value(desc, page, p));
	return PointerGetDatum(p);
}

/* Column att of a logical slot. */
static inline Datum
bp_slot_datum(const BpSlotDesc *desc, const char *slot, int att)
{
	return bp_slot_datum_in(desc, NULL, slot, att);
}

/*
 * Three-way comparison of a column value stored at value with the Datum
 * argument of the same type, for the inline kinds (not BP_CMP_FMGR).
 */
static inline int
bp_compare_inline(BpCompareKind kind, const char *value, Datum argument,
				  int16 len)
{
#define BP_CMP3(a, b) ((a) < (b) ? -1 : ((a) > (b) ? 1 : 0))
	switch (kind)
	{
		case BP_CMP_INT2:
			return BP_CMP3(DatumGetInt16(bp_fetch_byval(value, 2)),
						   DatumGetInt16(argument));
		case BP_CMP_INT4:
			return BP_CMP3(DatumGetInt32(bp_fetch_byval(value, 4)),
						   DatumGetInt32(argument));
		case BP_CMP_INT8:
			return BP_CMP3(DatumGetInt64(bp_fetch_byval(value, 8)),
						   DatumGetInt64(argument));
		case BP_CMP_UINT32:
			return BP_CMP3(DatumGetObjectId(bp_fetch_byval(value, 4)),
						   DatumGetObjectId(argument));
		case BP_CMP_BOOL:
			return BP_CMP3(*(const bool *) value, DatumGetBool(argument));
		case BP_CMP_FLOAT4:
			return float4_cmp_internal(DatumGetFloat4(bp_fetch_byval(value, 4)),
									   DatumGetFloat4(argument));
		case BP_CMP_FLOAT8:
			return float8_cmp_internal(DatumGetFloat8(bp_fetch_byval(value, 8)),
									   DatumGetFloat8(argument));
		case BP_CMP_BYTES:
			{
				int			c = memcmp(value, DatumGetPointer(argument), len);

				return BP_CMP3(c, 0);
			}
		case BP_CMP_PREFIX:
		case BP_CMP_FMGR:
			break;
	}
#undef BP_CMP3
	pg_unreachable();
	return 0;
}

/* A slot to steer to, with the description to compare it by. */
typedef struct BpSlotBound
{
	const BpSlotDesc *desc;
	const char *key;
} BpSlotBound;

/* Encodings of a leaf's entries (bpleaf.c). */
#define BP_LEAF_PLAIN		0	/* logical slots */
#define BP_LEAF_PACKED		1	/* encoded by the leaf's codec */

/* Scratch bytes a leaf's BPA operations may need (bpa_scratch_size). */
#define BP_LEAF_SCRATCH_SIZE	(4 * BLCKSZ)

/* A leaf page opened for reading and writing its entries (bpleaf.c). */
typedef struct BpLeaf
{
	Page		page;
	const BpSlotDesc *desc;
	char	   *region;			/* its BPA */
	bool		packed;
	bool		keyed;			/* entries refer to keys in the page */
	const char *keys;			/* where logical slots read from the leaf
								 * point their keys: the page, or a copy of
								 * it (bp_leaf_copy_keys) */
	const char *probe;			/* keyed: the logical slot bp_leaf_encode
								 * gave for comparisons with stored ones */
	BpCodec		codec;			/* if packed */
	uint16		window_start;	/* packed, first column a key: where the
								 * windows of its keys start */
	uint16		key_strip;		/* bytes its entries' first keys are stored
								 * without (their shared prefix), or 0 */
	MemoryContext key_cxt;		/* where entries' keys read whole from a
								 * leaf that strips them are rebuilt */
	char	   *rebuilt_next;	/* free room of the chunk of key_cxt they
								 * are rebuilt in, NULL before the first */
	char	   *rebuilt_end;
	const char *prefix;			/* the prefix every first key shares, once
								 * read (shared_prefix) */
	uint16		width;			/* bytes of a stored entry */
	BpaCompareFn compare;		/* order of stored entries */
	void	   *compare_arg;
} BpLeaf;

/*
 * How a leaf is to store its entries: encoding, codec, BPA layout, and
 * how many entries that holds (in slots and, for keyed leaves, key bytes).
 */
typedef struct BpLeafPlan
{
	bool		packed;
	BpCodec		codec;
	BpaLayout	layout;
	Size		key_room;		/* keyed: bytes for the entries' keys */
	uint16		key_strip;		/* keyed: bytes of shared prefix its
								 * entries' keys are stored without */
	int			capacity;		/* entries it holds */
	int			fill_target;	/* entries a build puts in it */
} BpLeafPlan;

/*
 * A leaf being planned entry by entry (the build).  The plan last made
 * stays valid while it holds every entry added since, so that the build
 * plans a leaf afresh only when an entry outgrows the plan's codec and
 * when the leaf is written.
 */
typedef struct BpLeafPlanner
{
	const BpSlotDesc *desc;
	const BpOptions *opts;
	bool		packable;		/* every entry so far has an image */
	BpcRange	range;
	int			nentries;		/* entries added */
	Size		key_bytes;		/* keyed: bytes their keys take */
	int			distinct_keys;	/* keyed: entries whose keys differ from
								 * the entry's before them */
	const char *last;			/* keyed: the entry added last */
	const char *first_key;		/* keyed: the first key that is not NULL */
	Size		shared_prefix;	/* keyed: bytes every such key shares with
								 * it (bytewise_single_key indexes) */
	uint16		layout_width;	/* width of the cached layout, 0: none */
	BpaLayout	layout;
	bool		have_plan;		/* plan holds every entry added */
	BpLeafPlan	plan;
} BpLeafPlanner;

/* Buffers for reading leaves. */
typedef struct BpLeafWork
{
	char	   *scratch;		/* BP_LEAF_SCRATCH_SIZE bytes */
	char	   *stored;			/* BLCKSZ bytes: stored entries */
	char	   *slot;			/* one logical slot */
	char	   *keys;			/* BLCKSZ bytes: a copy of a leaf's keys */
} BpLeafWork;

/* Everything a backend keeps about an open index (in rd_amcache). */
typedef struct BpIndexState
{
	BpSlotDesc	slot;
	BpMetaPageData meta;		/* copy of the metapage (layout only) */
	BpOptions	options;		/* the index's reloptions */
	BlockNumber cached_leaf;	/* leaf of this backend's last insert */
	BlockNumber cached_root;	/* root as last read from the metapage */
	uint16		cached_root_level;
	BpLeafWork	work;			/* buffers for inserts */
} BpIndexState;

/* Visit of one slot of a leaf by bp_leaf_walk. */
typedef void (*BpLeafWalkFn) (const char *section, int block,
							  const char *slot, void *arg);

/* Monotone predicate over slots used to steer a descent. */
typedef bool (*BpGoRightFn) (const void *slot, void *arg);

/* Outcome of testing one index entry against the scan keys. */
typedef enum BpKeyResult
{
	BP_KEY_MATCH,
	BP_KEY_BELOW,				/* entry sorts before the range of a key */
	BP_KEY_ABOVE				/* entry sorts after the range of a key */
} BpKeyResult;

/* One preprocessed scan key. */
typedef struct BpScanKey
{
	int			attno;			/* 0-based index column */
	StrategyNumber strategy;	/* btree strategy, 0 for NULL tests */
	int			flags;			/* SK_SEARCHNULL, SK_SEARCHNOTNULL */
	Datum		argument;
	Oid			collation;
	FmgrInfo	cmp;			/* (index type, argument type) comparison */
	struct SortSupportData *order;	/* the column's key_order, when cmp is
									 * its support function 1 */
	BpCompareKind kind;			/* inline comparison, if argument has the
								 * column's type */
	bool		has_prefix;		/* argument is a key of the column's type */
	char		prefix[BP_KEY_PREFIX_SIZE];	/* ... its key prefix */
	int			below_limit;	/* value keys: a value whose comparison
								 * with argument is below this sorts
								 * before the key's range */
	int			above_limit;	/* ... above this, after it */
	bool		drives_array;	/* takes each element of the scan's driving
								 * array in turn (BpScanKeys.drive_elems) */
} BpScanKey;

/*
 * The side of key's range that an entry lies on whose order against the
 * key's argument is told by c (< 0, 0, > 0): outside the range when c
 * passes one of the key's limits, else BP_KEY_MATCH.
 */
static inline BpKeyResult
bp_key_side(const BpScanKey *key, int c)
{
	if (c < key->below_limit)
		return BP_KEY_BELOW;
	if (c > key->above_limit)
		return BP_KEY_ABOVE;
	return BP_KEY_MATCH;
}

/*
 * An = ANY(array) key that does not drive the scan: the array's sorted
 * distinct elements, tested by binary search on each entry.  Range keys
 * >= its first and <= its last element bound the scan.
 */
typedef struct BpScanFilter
{
	int			attno;			/* 0-based index column */
	Oid			collation;
	FmgrInfo	cmp;			/* (index type, element type) comparison */
	struct SortSupportData *order;	/* as BpScanKey's */
	BpCompareKind kind;			/* inline comparison, if the element type is
								 * the column's */
	Datum	   *elems;
	int			nelems;
} BpScanFilter;

/* The scan keys of a scan, ordered by column. */
typedef struct BpScanKeys
{
	int			nkeys;
	bool		unsatisfiable;	/* a key can never match (NULL argument) */
	bool		exact;			/* the range predicates decide every key */
	bool		point_bytes;	/* one key, = on the first column, whose
								 * equal keys have equal bytes */
	bool		first_column_prefix;	/* every key is a value key on the
										 * first column, ASC NULLS LAST, of
										 * kind BP_CMP_PREFIX */
	bool		first_column_inline;	/* every key is a value key on the
										 * first column with an inline
										 * comparison */
	BpScanKey  *keys;			/* room for twice the executor's keys */
	int			nfilters;
	BpScanFilter *filters;		/* room for the executor's keys */

	/*
	 * The = ANY(array) key whose sorted distinct elements split the scan
	 * into one primitive scan per element, in index order: an array on a
	 * column that every earlier column's = key pins.  drive_key < 0: none.
	 */
	int			drive_key;
	Datum	   *drive_elems;
	int			drive_nelems;
	const BpSlotDesc *slot;
} BpScanKeys;

/* For keys with first_column_inline: is slot inside the range? */
static inline bool
bp_inside_first_column(const BpScanKeys *keys, const char *slot)
{
	const BpSlotDesc *desc = keys->slot;
	const char *value = slot + desc->att_offset[0];

	if (bp_slot_isnull(desc, slot, 0))
		return false;
	for (int i = 0; i < keys->nkeys; i++)
	{
		const BpScanKey *key = &keys->keys[i];
		int			c = bp_compare_inline(key->kind, value, key->argument,
										  desc->att_len[0]);

		if (c < key->below_limit || c > key->above_limit)
			return false;
	}
	return true;
}

/* A leaf as copied by a scan: its entries in ascending order. */
typedef struct BpScanPos
{
	BlockNumber blkno;			/* leaf the entries came from */
	Buffer		buf;			/* its pin, while the scan keeps one, else
								 * InvalidBuffer */
	XLogRecPtr	lsn;			/* its LSN when it was copied */
	BlockNumber rightlink;
	uint16		flags;			/* the leaf's BP_HAS_LOW / BP_HAS_HIGH */
	int			nitems;
	int			capacity;		/* slots items has room for */
	int			lo;				/* items [lo, hi) are not outside the range */
	int			hi;
	int			cur;			/* item last returned; lo - 1 or hi at ends */
	char	   *items;			/* nitems slots */
	char	   *lowkey;			/* one slot */
	char	   *highkey;		/* one slot */
	char	   *keys;			/* keyed index: BLCKSZ bytes, a copy of the
								 * leaf, where the slots' keys point */
	MemoryContext key_cxt;		/* keyed index: where the slots' keys point
								 * that their leaf stored stripped */
	int			array_elem;		/* element of the driving array whose
								 * primitive scan the entries belong to */
	bool		valid;
} BpScanPos;

/* Scan state. */
typedef struct BpScanOpaqueData
{
	/*
	 * Copies of what the relcache entry holds: the BpIndexState in
	 * rd_amcache is freed by a relcache invalidation of the index (a
	 * concurrent VACUUM or ANALYZE updating its statistics), which the
	 * backend may process between two calls of the scan, e.g. between two
	 * FETCHes from a cursor.
	 */
	BpSlotDesc	slot;
	BpScanKeys	keys;			/* keys.slot points to slot */
	BpScanPos	pos;
	BpScanPos	mark;
	BpLeafWork	work;
	char	   *bound;			/* one slot: a leaf's fence while stepping */
	char	   *bound_keys;		/* its keys, BP_KEYS_BUFSIZE bytes */
	bool		point;			/* equality on the first column: copy only
								 * the range of each leaf, then sort it */
	IndexTuple	itup;			/* itup_size bytes, or BLCKSZ with keys, for
								 * index-only scans */
	int		   *killed;			/* items of pos whose heap tuples are dead */
	int			nkilled;
	int			killed_capacity;
	MemoryContext tuple_cxt;	/* index tuples with NULLs */
	MemoryContext keys_cxt;		/* array elements, reset by each rescan */
} BpScanOpaqueData;

typedef BpScanOpaqueData *BpScanOpaque;

/* Where a parallel scan stands when a participant seizes it (bpparallel.c). */
typedef struct BpParallelNext
{
	bool		started;		/* a leaf of array_elem's range was read */
	int			array_elem;		/* element of the driving array; -1: the
								 * first in the scan direction */
	BlockNumber leaf;			/* started: the leaf read last */
	BlockNumber rightlink;		/* ... its right-link */
} BpParallelNext;

/* bpindex.c */
extern char *bp_phasename(int64 phasenum);

/* bpoptions.c */
extern void bp_options_init(void);
extern bytea *bp_options(Datum reloptions, bool validate);
extern BpOptions bp_index_options(Relation index);
extern void bp_layout_for_options(const BpOptions *opts, int ncolumns,
								  uint16 width, const char *index_name,
								  BpaLayout *layout);

/* bputils.c */
extern BpIndexState *bp_get_state(Relation index);
extern void bp_init_slot_desc(Relation index, BpSlotDesc *desc);
extern BpCompareKind bp_compare_kind(Oid proc);
extern int	bp_compare_slot_keys(const BpSlotDesc *desc, const char *a,
								 const char *b);
extern int	bp_compare_slots(const void *a, const void *b, void *arg);
extern void bp_separator(const BpSlotDesc *desc, const char *left,
						 const char *right, char *sep);
extern int	bp_compare_page_slots(const BpSlotDesc *desc, const char *page_a,
								  const char *page_b, const char *a,
								  const char *b);
extern Size bp_key_stored_size(const char *key);
extern void bp_page_start_keys(Page page);
extern Size bp_page_key_room(Page page, Size floor);
extern Size bp_page_add_key(Page page, Size floor, const char *key);
extern void bp_slot_from_page(const BpSlotDesc *desc, const char *page,
							  const char *keys, const char *stored, char *out);
extern Size bp_slot_keys_size(const BpSlotDesc *desc, const char *slot);
extern Size bp_slot_new_keys_size(const BpSlotDesc *desc, const char *slot,
								  const char *prev);
extern bool bp_slot_key_prefixes_valid(const BpSlotDesc *desc,
									   const char *slot);
extern void bp_key_prefix(const BpSlotDesc *desc, int att, char *field,
						  const char *key);
extern bool bp_slot_to_page(const BpSlotDesc *desc, Page page, Size floor,
							const char *slot, const char *same, char *dst);
extern void bp_store_byval(char *dst, Datum value, int16 len);
extern void bp_form_slot(const BpSlotDesc *desc, char *slot, Datum *values,
						 bool *isnull, ItemPointer tid);
extern void bp_slot_deform(const BpSlotDesc *desc, const char *slot,
						   Datum *values, bool *isnull);
extern Size bp_page_content_size(void);
extern Size bp_fences_size(uint16 width);
extern int	bp_internal_capacity(uint16 width);
extern int	bp_internal_keyed_capacity(uint16 width, double key_bytes);
extern bool bp_internal_capacity_valid(int capacity, uint16 width, bool keyed);
extern bool bp_choose_leaf_layout(const BpOptions *opts, uint16 width,
								  Size region_room, BpaLayout *layout);
extern double bp_internal_fill_estimate(uint16 width, double avg_key_bytes);
extern int	bp_internal_build_count(const BpSlotDesc *desc, int capacity,
									const char *pivots, int n);
extern BlockNumber bp_estimate_pages(double ntuples, double per_leaf,
									 double per_internal, int *levels);
extern uint16 bp_slot_layout(int natts, const int16 *lengths,
							 const bool *byvals, const char *aligns,
							 uint16 *offsets);
extern void bp_init_page(Page page, uint16 flags, uint16 level);
extern Buffer bp_new_buffer(Relation index, FullTransactionId *deleted_at);
extern bool bp_page_deleted(Page page);
extern BpDeletedData *bp_page_deleted_data(Page page, uint16 width);
extern void bp_init_deleted_page(Page page, const BpSlotDesc *desc,
								 FullTransactionId safexid);
extern bool bp_page_recyclable(Page page, uint16 width);
extern char *bp_page_lowkey(Page page);
extern char *bp_page_highkey(Page page, uint16 width);
extern const char *bp_page_slot(const BpSlotDesc *desc, const char *page,
								const char *stored, char *buf);
extern const char *bp_page_fence(const BpSlotDesc *desc, const char *page,
								 bool high, char *buf);
extern char *bp_copy_page_fence(const BpSlotDesc *desc, const char *page,
								bool high);
extern char *bp_copy_page_slot(const BpSlotDesc *desc, const char *page,
							   const char *stored);
extern char *bp_copy_slot(const BpSlotDesc *desc, const char *slot);
extern void bp_slot_copy_keys(const BpSlotDesc *desc, const char *slot,
							  char *out, char *keys, bool as_offsets);
extern void bp_slot_resolve_offsets(const BpSlotDesc *desc, char *slot,
									const char *keys);
extern void bp_slots_rebase(const BpSlotDesc *desc, char *slots, int n,
							const char *from, char *to,
							MemoryContext outside_cxt);
extern void bp_slots_detach_keys(const BpSlotDesc *desc, char *slots, int n,
								 const char *page, char *copy);
extern void bp_page_fence_into(const BpSlotDesc *desc, const char *page,
							   const char *keys, bool high, char *out);
extern bool bp_slot_within_fences(Page page, const BpSlotDesc *desc,
								  const char *slot);
extern BpInternalHeader *bp_internal_header(Page page, uint16 width);
extern BlockNumber *bp_internal_children(Page page, uint16 width);
extern char *bp_internal_pivot(Page page, uint16 width, int i);
extern void bp_internal_open_gap(Page page, uint16 width, int pos);
extern Size bp_internal_key_floor(Page page, uint16 width);
extern bool bp_store_page_slot(const BpSlotDesc *desc, Page page, Size floor,
							   const char *slot, const char *same, char *dst);
extern bool bp_internal_fill(const BpSlotDesc *desc, Page page, uint16 level,
							 int capacity, const char *lowkey,
							 const char *highkey, const BlockNumber *children,
							 const char *pivots, int n);
extern bool bp_page_set_fence(const BpSlotDesc *desc, Page page, bool high,
							  const char *slot);
extern bool bp_internal_has_room(const BpSlotDesc *desc, Page page,
								 const char *pivot);
extern void bp_internal_pivots(const BpSlotDesc *desc, Page page,
							   const char *keys, char *out);
extern void bp_set_page_bounds(Page page, uint16 width);
extern Buffer bp_read_buffer(Relation index, BlockNumber blkno, int lockmode);
extern Buffer bp_read_buffer_for_cleanup(Relation index, BlockNumber blkno);
extern void bp_check_page(Relation index, Buffer buf, Page page);
extern void bp_read_meta(Relation index, BpMetaPageData *meta);
extern void bp_check_columns(Relation index);
extern Relation bp_open_index(Oid indexoid, LOCKMODE lockmode);

/* bpleaf.c */
extern void bp_leaf_init_columns(BpSlotDesc *desc);
extern bool bp_leaf_datum_image(BpCompareKind kind, int16 len, Datum value,
								uint64 *image);
extern Size bp_leaf_room(int ncolumns, uint16 slot_width, uint16 entry_width);
extern Size bp_leaf_region_room(const BpSlotDesc *desc, uint16 width);
extern bool bp_choose_plain_layout(const BpOptions *opts, int ncolumns,
								   uint16 width, BpaLayout *layout);
extern void bp_leaf_open(BpLeaf *leaf, Page page, const BpSlotDesc *desc);
extern const char *bp_leaf_check_shape(Page page, const BpSlotDesc *desc);
extern void bp_leaf_copy_keys(BpLeaf *leaf, char *copy);
extern void bp_leaf_rebuild_keys_in(BpLeaf *leaf, MemoryContext cxt);
extern bool bp_leaf_has_key_room(const BpLeaf *leaf, const char *slot);
extern Size bp_leaf_key_floor(Page page, const BpSlotDesc *desc);
extern bool bp_leaf_windows_hold(Page page, const BpSlotDesc *desc);
extern int	bp_keyed_leaf_fill(int ncolumns, uint16 slot_width,
							   uint16 entry_width, const BpOptions *opts,
							   double avg_key_bytes, double fresh_key_bytes);
extern const char *bp_leaf_store_keys(BpLeaf *leaf, const char *slot,
									  char *out, Size *keys_offset,
									  Size *keys_length);
extern int	bp_leaf_count(const BpLeaf *leaf);
extern const BpaLayout *bp_leaf_layout(const BpLeaf *leaf);
extern const char *bp_leaf_encode(BpLeaf *leaf, const char *slot, char *out);
extern bool bp_leaf_has_dead_marks(Page page);
extern void bp_leaf_set_dead_mark(BpLeaf *leaf, const char *stored);
extern void bp_leaf_clear_dead_marks(Page page);
extern void bp_leaf_work_init(BpLeafWork *work, const BpSlotDesc *desc);
extern void bp_leaf_work_free(BpLeafWork *work);
extern int	bp_leaf_sorted(BpLeaf *leaf, BpaPredicateFn before_start,
						   BpaPredicateFn after_end, void *arg,
						   bool dead_marks, char *out, BpLeafWork *work);
extern void bp_leaf_map(BpLeaf *leaf, BpaPredicateFn before_start,
						BpaPredicateFn after_end, void *arg, bool dead_marks,
						BpaVisitFn visit, void *visit_arg, BpLeafWork *work);
extern int	bp_leaf_copy_range(BpLeaf *leaf, const BpScanKeys *keys,
							   bool dead_marks, char *out, BpLeafWork *work);
extern int	bp_leaf_range_tids(BpLeaf *leaf, const BpScanKeys *keys,
							   bool skip_dead, ItemPointerData *out,
							   BpLeafWork *work);
extern int	bp_leaf_tids(BpLeaf *leaf, bool skip_dead, ItemPointerData *out);
extern const char *bp_leaf_find(BpLeaf *leaf, const char *slot, char *buf);
extern int	bp_leaf_collect_dead(BpLeaf *leaf, bool marked_only,
								 bool (*callback) (ItemPointer, void *),
								 void *state, char *out);
extern bool bp_leaf_remove_stored(BpLeaf *leaf, const char *stored, int n);
extern void bp_leaf_walk(BpLeaf *leaf, BpLeafWalkFn walk, void *arg,
						 BpLeafWork *work);
extern const char *bp_leaf_check(BpLeaf *leaf, BpLeafWork *work);
extern void bp_leaf_planner_start(BpLeafPlanner *planner,
								  const BpSlotDesc *desc,
								  const BpOptions *opts);
extern void bp_leaf_planner_add(BpLeafPlanner *planner, const char *slot);
extern const BpLeafPlan *bp_leaf_planner_current(BpLeafPlanner *planner,
												 const char *lowkey,
												 const char *highkey);
extern void bp_leaf_planner_adopt(BpLeafPlanner *planner,
								  const BpLeafPlan *plan);
extern int	bp_leaf_planner_plan(BpLeafPlanner *planner, const char *lowkey,
								 const char *highkey, const BpLeaf *fallback,
								 const char *items, int n, BpLeafPlan *plan);
extern int	bp_leaf_plan(const BpSlotDesc *desc, const BpOptions *opts,
						 const char *items, int n, const char *lowkey,
						 const char *highkey, const BpLeaf *fallback,
						 BpLeafPlan *plan);
extern void bp_leaf_fill(Page page, const BpSlotDesc *desc,
						 const BpLeafPlan *plan, const char *items, int n,
						 const char *lowkey, const char *highkey,
						 bool packed_blocks);

/* bpsearch.c */
extern bool bp_pivot_at_or_before(const void *slot, void *arg);
extern bool bp_before_bound(const void *slot, void *arg);
extern bool bp_never_right(const void *slot, void *arg);
extern void bp_prepare_keys(Relation index, ScanKey scankey, int nkeys,
							BpScanKeys *out);
extern BpKeyResult bp_test_keys(const BpScanKeys *keys, const char *slot);
extern void bp_set_array_element(BpScanKeys *keys, int elem);
extern bool bp_below_range(const void *slot, void *keys);
extern bool bp_above_range(const void *slot, void *keys);
extern bool bp_not_above_range(const void *slot, void *keys);
extern BpKeyResult bp_prefix_side(const BpScanKeys *keys, const char *slot);
extern Buffer bp_descend(Relation index, BpGoRightFn go_right, void *arg,
						 int lockmode);
extern Buffer bp_descend_to_level(Relation index, BpGoRightFn go_right,
								  void *arg, int lockmode, uint16 target_level);
extern int	bp_choose_child(Page page, const BpSlotDesc *desc, BpGoRightFn go_right,
							void *arg);
extern int	bp_gettreeheight(Relation index);

/* bpbuild.c */
struct TableScanDescData;
struct SortCoordinateData;
struct dsm_segment;
struct shm_toc;
extern IndexBuildResult *bp_build(Relation heap, Relation index,
								  IndexInfo *indexInfo);
extern void bp_buildempty(Relation index);
extern double bp_build_sort_part(Relation heap, Relation index,
								 IndexInfo *indexInfo,
								 struct TableScanDescData *scan, int sortmem,
								 struct SortCoordinateData *coordinate,
								 double *indtuples);

/* bpbuildsort.c */
typedef struct BpBuildSort BpBuildSort;
extern BpBuildSort *bp_build_sort_begin(Relation index, const BpSlotDesc *desc,
										double rows_expected, int sortmem,
										struct SortCoordinateData *coordinate);
extern void bp_build_sort_put(BpBuildSort *sort, Datum *values, bool *isnull,
							  ItemPointer tid);
extern void bp_build_sort_perform(BpBuildSort *sort);
extern bool bp_build_sort_next(BpBuildSort *sort, char *entry);
extern void bp_build_sort_end(BpBuildSort *sort);

/* bpbuildparallel.c */
typedef struct BpParallelBuild BpParallelBuild;
extern BpParallelBuild *bp_parallel_build_begin(Relation heap, Relation index,
												IndexInfo *indexInfo,
												int nworkers);
extern struct SortCoordinateData *bp_parallel_build_coordinate(BpParallelBuild *build);
extern void bp_parallel_build_scan(BpParallelBuild *build, Relation heap,
								   Relation index, IndexInfo *indexInfo,
								   double *reltuples, double *indtuples);
extern void bp_parallel_build_end(BpParallelBuild *build);
extern PGDLLEXPORT void bp_parallel_build_main(struct dsm_segment *seg,
											   struct shm_toc *toc);

/* bpinsert.c */
extern bool bp_insert(Relation index, Datum *values, bool *isnull,
					  ItemPointer ht_ctid, Relation heapRel,
					  IndexUniqueCheck checkUnique, bool indexUnchanged,
					  IndexInfo *indexInfo);

/* bpscan.c */
extern IndexScanDesc bp_beginscan(Relation index, int nkeys, int norderbys);
extern void bp_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
					  ScanKey orderbys, int norderbys);
extern bool bp_gettuple(IndexScanDesc scan, ScanDirection dir);
extern int64 bp_getbitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern void bp_endscan(IndexScanDesc scan);
extern void bp_markpos(IndexScanDesc scan);
extern void bp_restrpos(IndexScanDesc scan);

/* bpparallel.c */
extern Size bp_parallel_scan_size(void);
extern void bp_initparallelscan(void *target);
extern void bp_parallelrescan(IndexScanDesc scan);
extern bool bp_parallel_seize(IndexScanDesc scan, BpParallelNext *next,
							  char *bound, char *bound_keys);
extern void bp_parallel_release_after(IndexScanDesc scan, int array_elem,
									  BlockNumber leaf, BlockNumber rightlink,
									  const char *bound,
									  const BpSlotDesc *desc);
extern void bp_parallel_release_to_element(IndexScanDesc scan, int array_elem);

/* bpvacuum.c */
extern IndexBulkDeleteResult *bp_bulkdelete(IndexVacuumInfo *info,
											IndexBulkDeleteResult *stats,
											IndexBulkDeleteCallback callback,
											void *callback_state);
extern IndexBulkDeleteResult *bp_vacuumcleanup(IndexVacuumInfo *info,
											   IndexBulkDeleteResult *stats);
extern int	bp_remove_dead_entries(Relation index, Buffer buf, bool marked_only,
								   bool (*callback) (ItemPointer, void *),
								   void *arg);

/* bppagedel.c */
extern bool bp_delete_empty_leaf(Relation index, BlockNumber blkno);

/* bpcost.c */
extern void bp_costestimate(PlannerInfo *root, IndexPath *path,
							double loop_count, Cost *indexStartupCost,
							Cost *indexTotalCost,
							Selectivity *indexSelectivity,
							double *indexCorrelation, double *indexPages);

/* bphypo.c */
extern void bp_hypo_init(void);

/* bpvalidate.c */
extern bool bp_validate(Oid opclassoid);

/* what differs between PostgreSQL versions; it refers to the functions above */
#include "bpcompat.h"

#endif							/* BPINDEX_H */
