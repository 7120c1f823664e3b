/*-------------------------------------------------------------------------
 *
 * bputils.c
 *	  Slots, page layout, page verification and the metapage of bpindex.
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

#include "bpindex.h"

#define BP_OPAQUE_SIZE	MAXALIGN(sizeof(BpPageOpaqueData))

/* Raise the error for a page that is not what bpindex wrote. */
static void
bp_report_corrupted(Relation index, BlockNumber blkno, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" contains corrupted page at block %u",
					RelationGetRelationName(index), blkno),
			 errdetail_internal("%s", detail),
			 errhint("Please REINDEX it.")));
}

/* The inline comparison for a column's support function, if there is one. */
BpCompareKind
bp_compare_kind(Oid proc)
{
	switch (proc)
	{
		case F_BTINT2CMP:
			return BP_CMP_INT2;
		case F_BTINT4CMP:
		case F_DATE_CMP:
			return BP_CMP_INT4;
		case F_BTINT8CMP:
		case F_TIMESTAMP_CMP:
		case F_TIMESTAMPTZ_CMP:
		case F_TIME_CMP:
			return BP_CMP_INT8;
		case F_BTOIDCMP:
			return BP_CMP_UINT32;
		case F_BTBOOLCMP:
			return BP_CMP_BOOL;
		case F_BTFLOAT4CMP:
			return BP_CMP_FLOAT4;
		case F_BTFLOAT8CMP:
			return BP_CMP_FLOAT8;
		case F_UUID_CMP:
			return BP_CMP_BYTES;
		default:
			return BP_CMP_FMGR;
	}
}

/*
 * How the leaf codec may store an INCLUDE column, which is never compared
 * but must come back bit for bit: integer-like types through their image,
 * other types of up to 16 bytes (floats among them) as raw bytes.
 */
static BpCompareKind
included_column_kind(Form_pg_attribute att)
{
	switch (getBaseType(att->atttypid))
	{
		case INT2OID:
			return BP_CMP_INT2;
		case INT4OID:
		case DATEOID:
			return BP_CMP_INT4;
		case INT8OID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case TIMEOID:
			return BP_CMP_INT8;
		case OIDOID:
			return BP_CMP_UINT32;
		case BOOLOID:
			return BP_CMP_BOOL;
		default:
			return att->attlen > 0 && att->attlen <= BPC_MAX_BYTES ?
				BP_CMP_BYTES : BP_CMP_FMGR;
	}
}

/*
 * Where the columns of an index tuple without NULLs lie, so that scans can
 * form one by copying the columns out of a slot.
 */
static void
init_itup_layout(BpSlotDesc *desc, const char *aligns)
{
	Size		offset = IndexInfoFindDataOffset(0);

	desc->itup_direct = true;
	for (int i = 0; i < desc->ncolumns; i++)
	{
		if (desc->att_len[i] <= 0)
			desc->itup_direct = false;
		offset = att_align_nominal(offset, aligns[i]);
		desc->itup_att_offset[i] = (uint16) offset;
		offset += Max(desc->att_len[i], 0);
	}
	desc->itup_size = (uint16) MAXALIGN(offset);
}

/*
 * Is the order of a variable-length key column with this comparison
 * function and collation bytewise: bytea, and text, varchar and bpchar
 * under a C collation?
 */
bool
bp_key_order_bytewise(Oid proc, Oid collation)
{
	if (proc == F_BTTEXTCMP || proc == F_BPCHARCMP)
		return bp_collation_is_c(collation);
	return proc == F_BYTEACMP;
}

/*
 * Which sort support an entry of key_orders holds: the one that orders as
 * support function proc under collation (operator families agree with
 * their support function 1, so every index with both shares it).
 */
typedef struct KeyOrderKey
{
	Oid			proc;
	Oid			collation;
} KeyOrderKey;

/* An entry of key_orders. */
typedef struct KeyOrderEntry
{
	KeyOrderKey key;
	SortSupportData ssup;
} KeyOrderEntry;

/* The sort supports of key columns, for the backend's life. */
static HTAB *key_orders = NULL;

/*
 * The sort support that orders key column att of index as its support
 * function 1 does, for text and bpchar: its comparator needs no call
 * through fmgr and keeps the collation's locale, which the function looks
 * up on every call.  NULL for other columns, and for a family without
 * "<".  It lives as long as the backend, so that copies of a slot
 * description stay valid after the relcache entry's amcache is freed; one
 * per (function, collation).
 */
static SortSupport
key_column_order(Relation index, int att, Oid proc, Oid collation)
{
	KeyOrderKey key;
	KeyOrderEntry *entry;
	SortSupportData ssup;
	Oid			type = index->rd_opcintype[att];
	Oid			less;
	bool		found;

	if (proc != F_BTTEXTCMP && proc != F_BPCHARCMP)
		return NULL;
	less = get_opfamily_member(index->rd_opfamily[att], type, type,
							   BTLessStrategyNumber);
	if (!OidIsValid(less))
		return NULL;
	if (key_orders == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(KeyOrderKey);
		ctl.entrysize = sizeof(KeyOrderEntry);
		ctl.hcxt = CacheMemoryContext;
		key_orders = hash_create("bpindex key column orders", 16, &ctl,
								 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	memset(&key, 0, sizeof(key));
	key.proc = proc;
	key.collation = collation;
	entry = hash_search(key_orders, &key, HASH_FIND, NULL);
	if (entry != NULL)
		return &entry->ssup;

	/* prepared before it is entered, so that an error leaves no entry */
	memset(&ssup, 0, sizeof(ssup));
	ssup.ssup_cxt = CacheMemoryContext;
	ssup.ssup_collation = collation;
	PrepareSortSupportFromOrderingOp(less, &ssup);
	entry = hash_search(key_orders, &key, HASH_ENTER, &found);
	entry->ssup = ssup;
	return &entry->ssup;
}

/*
 * A variable-length key column takes a key field (bpindex.h); its
 * prefixes decide its order when the order is bytewise.
 */
static void
init_key_column(Relation index, BpSlotDesc *desc, int att, int16 *length,
				char *align)
{
	Oid			proc = desc->cmp_proc[att]->fn_oid;
	bool		bytewise = bp_key_order_bytewise(proc, desc->collation[att]);

	desc->has_keys = true;
	desc->att_byval[att] = false;
	desc->blank_padded[att] = proc == F_BPCHARCMP;
	/* collations are deterministic (bp_check_columns) */
	desc->equal_bytes[att] = proc == F_BTTEXTCMP || proc == F_BYTEACMP;
	desc->cmp_kind[att] = bytewise ? BP_CMP_PREFIX : BP_CMP_FMGR;
	desc->key_order[att] = key_column_order(index, att, proc,
											desc->collation[att]);
	*length = BP_KEY_FIELD_SIZE;
	*align = TYPALIGN_CHAR;
}

/*
 * Fill desc from the index's key columns: offsets, lengths, collations
 * and comparison functions.
 */
void
bp_init_slot_desc(Relation index, BpSlotDesc *desc)
{
	TupleDesc	tupdesc = RelationGetDescr(index);
	int16		lengths[INDEX_MAX_KEYS];
	char		aligns[INDEX_MAX_KEYS];

	desc->index_oid = RelationGetRelid(index);
	desc->has_keys = false;
	desc->natts = IndexRelationGetNumberOfKeyAttributes(index);
	desc->ncolumns = IndexRelationGetNumberOfAttributes(index);
	desc->nulls_in_tid = desc->ncolumns <= BP_TID_NULL_BITS;
	desc->null_offset = sizeof(ItemPointerData);
	for (int i = 0; i < desc->ncolumns; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		desc->att_len[i] = att->attlen;
		desc->att_byval[i] = att->attbyval;
		lengths[i] = att->attlen;
		aligns[i] = att->attalign;
		desc->att_align[i] = att->attalign;
		desc->reverse[i] = false;
		desc->nulls_first[i] = false;
		desc->blank_padded[i] = false;
		desc->equal_bytes[i] = false;
		desc->key_order[i] = NULL;
		if (i >= desc->natts)
		{
			desc->collation[i] = InvalidOid;
			desc->cmp_proc[i] = NULL;
			desc->cmp_kind[i] = included_column_kind(att);
			continue;
		}
		desc->collation[i] = index->rd_indcollation[i];
		desc->cmp_proc[i] = index_getprocinfo(index, i + 1, 1);
		desc->cmp_kind[i] = bp_compare_kind(desc->cmp_proc[i]->fn_oid);
		if (att->attlen == -1)
			init_key_column(index, desc, i, &lengths[i], &aligns[i]);
		desc->reverse[i] = (index->rd_indoption[i] & INDOPTION_DESC) != 0;
		desc->nulls_first[i] = (index->rd_indoption[i] & INDOPTION_NULLS_FIRST) != 0;
	}
	desc->width = bp_slot_layout(desc->ncolumns, lengths, desc->att_byval,
								 aligns, desc->att_offset);
	init_itup_layout(desc, aligns);
	bp_leaf_init_columns(desc);
}

/*
 * Compare column i of two slots, neither NULL; their keys may be offsets
 * in page, if page is not NULL.
 */
static inline int
compare_column(const BpSlotDesc *desc, const char *page_a, const char *page_b,
			   int i, const char *a, const char *b)
{
	int32		c;

	if (desc->cmp_kind[i] == BP_CMP_PREFIX)
	{
		c = bp_compare_prefixes(a + desc->att_offset[i], b + desc->att_offset[i]);
		if (c != 0)
			return c;
	}
	else if (desc->cmp_kind[i] != BP_CMP_FMGR)
		return bp_compare_inline(desc->cmp_kind[i], a + desc->att_offset[i],
								 bp_slot_datum(desc, b, i), desc->att_len[i]);
	if (desc->key_order[i] != NULL)
		c = desc->key_order[i]->comparator(bp_slot_datum_in(desc, page_a, a, i),
										   bp_slot_datum_in(desc, page_b, b, i),
										   desc->key_order[i]);
	else
		c = DatumGetInt32(FunctionCall2Coll(desc->cmp_proc[i], desc->collation[i],
											bp_slot_datum_in(desc, page_a, a, i),
											bp_slot_datum_in(desc, page_b, b, i)));
	return (c > 0) - (c < 0);
}

/* Compare the heap TIDs of two slots, ignoring the null and dead bits. */
static inline int
compare_tids(const char *a, const char *b)
{
	ItemPointerData ta = bp_slot_tid(a);
	ItemPointerData tb = bp_slot_tid(b);
	BlockNumber ba = ItemPointerGetBlockNumberNoCheck(&ta);
	BlockNumber bb = ItemPointerGetBlockNumberNoCheck(&tb);

	if (ba != bb)
		return ba < bb ? -1 : 1;
	return (ta.ip_posid > tb.ip_posid) - (ta.ip_posid < tb.ip_posid);
}

/*
 * bp_compare_slot_keys of slots that may be stored in a page: a in page_a
 * if that is not NULL (its keys are offsets there, as in a copy of a slot
 * stored there), else a logical slot; b likewise.
 */
static int
compare_page_slot_keys(const BpSlotDesc *desc, const char *page_a,
					   const char *page_b, const char *a, const char *b)
{
	for (int i = 0; i < desc->natts; i++)
	{
		bool		a_null = bp_slot_isnull(desc, a, i);
		bool		b_null = bp_slot_isnull(desc, b, i);
		int			c;

		if (a_null || b_null)
		{
			if (a_null && b_null)
				continue;
			return a_null != desc->nulls_first[i] ? 1 : -1;
		}
		c = compare_column(desc, page_a, page_b, i, a, b);
		if (c != 0)
			return desc->reverse[i] ? -c : c;
	}
	return 0;
}

/*
 * Compare the key columns of two slots in index order (each column in its
 * direction, NULLs last or first as it says), not their heap TIDs.
 */
int
bp_compare_slot_keys(const BpSlotDesc *desc, const char *a, const char *b)
{
	return compare_page_slot_keys(desc, NULL, NULL, a, b);
}

/* Compare two slots: key columns in index order, then heap TID. */
int
bp_compare_slots(const void *a, const void *b, void *arg)
{
	int			c = bp_compare_slot_keys((const BpSlotDesc *) arg, a, b);

	return c != 0 ? c : compare_tids(a, b);
}

/* bp_compare_slots of slots that may be stored in pages (as above). */
int
bp_compare_page_slots(const BpSlotDesc *desc, const char *page_a,
					  const char *page_b, const char *a, const char *b)
{
	int			c = compare_page_slot_keys(desc, page_a, page_b, a, b);

	return c != 0 ? c : compare_tids(a, b);
}

/*
 * Point the key field of column att of a logical slot at a new key: the
 * first len bytes of data, in the current memory context.
 */
static void
set_new_key(const BpSlotDesc *desc, char *slot, int att, const char *data,
			Size len)
{
	char	   *key = palloc(VARHDRSZ + len);
	char	   *field = slot + desc->att_offset[att];

	SET_VARSIZE(key, VARHDRSZ + len);
	memcpy(VARDATA(key), data, len);
	bp_key_prefix(desc, att, field, key);
	bp_set_key_ref(field, (uint64) (uintptr_t) key);
}

/*
 * Cut the key of column att of sep, a copy of right, to the shortest
 * prefix that still sorts after left's key in a bytewise ascending order
 * (left's key sorts before right's) and BP_SEPARATOR_SLACK bytes more;
 * false if that is the whole key.  A text prefix ends with a whole
 * character, and a bpchar prefix not with a blank, which its comparison
 * would ignore.
 */
static bool
shorten_key(const BpSlotDesc *desc, int att, const char *left, char *sep)
{
	const char *left_key = DatumGetPointer(bp_slot_datum(desc, left, att));
	const char *right_key = DatumGetPointer(bp_slot_datum(desc, sep, att));
	Size		left_len;
	Size		right_len;
	const char *left_data = bp_key_data(desc, att, left_key, &left_len);
	const char *right_data = bp_key_data(desc, att, right_key, &right_len);
	bool		characters = desc->cmp_proc[att]->fn_oid != F_BYTEACMP;
	Size		shared = 0;
	Size		len = 0;

	while (shared < left_len && shared < right_len &&
		   left_data[shared] == right_data[shared])
		shared++;
	/* the first byte that differs and the slack, in whole characters */
	while (len < shared + 1 + BP_SEPARATOR_SLACK && len < right_len)
		len += characters ? pg_mblen(right_data + len) : 1;
	while (desc->blank_padded[att] && len < right_len && right_data[len - 1] == ' ')
		len++;
	if (len >= right_len)
		return false;
	set_new_key(desc, sep, att, right_data, len);
	return true;
}

/*
 * A short separator of two neighbouring logical slots, left < right, into
 * sep, for a pivot and the fences of the pages it divides (suffix
 * truncation): any slot above left and not above right separates them.
 * It is right, but for the first key column where the two differ: a
 * variable-length key in a bytewise ascending order is cut to the
 * shortest prefix that sorts after left's and BP_SEPARATOR_SLACK bytes
 * more, and once it is, the later text and bytea key columns, which no
 * longer decide anything, become empty.  New keys are allocated in the
 * current memory context.
 */
void
bp_separator(const BpSlotDesc *desc, const char *left, const char *right,
			 char *sep)
{
	int			att;

	memcpy(sep, right, desc->width);
	if (!desc->has_keys)
		return;
	for (att = 0; att < desc->natts; att++)
	{
		bool		null = bp_slot_isnull(desc, left, att);

		if (null != bp_slot_isnull(desc, right, att) ||
			(!null && compare_column(desc, NULL, NULL, att, left, right) != 0))
			break;
	}
	if (att == desc->natts || desc->att_len[att] != -1 ||
		bp_slot_isnull(desc, left, att) || bp_slot_isnull(desc, right, att) ||
		desc->cmp_kind[att] != BP_CMP_PREFIX || desc->reverse[att] ||
		!shorten_key(desc, att, left, sep))
		return;
	for (int i = att + 1; i < desc->natts; i++)
		if (desc->att_len[i] == -1 && !bp_slot_isnull(desc, sep, i) &&
			(desc->equal_bytes[i] || desc->blank_padded[i]))
			set_new_key(desc, sep, i, "", 0);
}

/* Store a value passed by value at a possibly unaligned address. */
void
bp_store_byval(char *dst, Datum value, int16 len)
{
	int16		v2;
	int32		v4;
	int64		v8;

	switch (len)
	{
		case 1:
			*dst = DatumGetChar(value);
			break;
		case 2:
			v2 = DatumGetInt16(value);
			memcpy(dst, &v2, sizeof(v2));
			break;
		case 4:
			v4 = DatumGetInt32(value);
			memcpy(dst, &v4, sizeof(v4));
			break;
		default:
			Assert(len == 8);
			v8 = DatumGetInt64(value);
			memcpy(dst, &v8, sizeof(v8));
			break;
	}
}

/* Bytes a key takes in a key area: a 1-byte header if it can have one. */
Size
bp_key_stored_size(const char *key)
{
	Size		data;

	if (VARATT_IS_SHORT(key))
		return VARSIZE_SHORT(key);
	data = VARSIZE(key) - VARHDRSZ;
	return data + VARHDRSZ_SHORT <= VARATT_SHORT_MAX ? data + VARHDRSZ_SHORT :
		data + VARHDRSZ;
}

/*
 * Set the prefix of a key field of column att: the key's first bytes,
 * without a bpchar's trailing blanks, zero-padded.
 */
void
bp_key_prefix(const BpSlotDesc *desc, int att, char *field, const char *key)
{
	Size		len;
	const char *data = bp_key_data(desc, att, key, &len);

	memset(field, 0, BP_KEY_PREFIX_SIZE);
	memcpy(field, data, Min(len, BP_KEY_PREFIX_SIZE));
}

/*
 * Fill the key field of column att of a slot with a key (a varlena) of
 * the index: its prefix and a pointer to the detoasted key, allocated in
 * the current memory context if value was toasted.  Returns the bytes the
 * key takes in a key area.
 */
static Size
set_key_field(const BpSlotDesc *desc, int att, char *field, Datum value)
{
	const char *key = (const char *) PG_DETOAST_DATUM_PACKED(value);

	bp_key_prefix(desc, att, field, key);
	bp_set_key_ref(field, (uint64) (uintptr_t) key);
	return bp_key_stored_size(key);
}

/* Raise the error for an entry whose keys exceed BP_MAX_KEY_SIZE. */
static void
report_keys_too_large(const BpSlotDesc *desc, Size size)
{
	char	   *name = get_rel_name(desc->index_oid);

	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("index row size %zu exceeds bpindex maximum %d for index \"%s\"",
					size, BP_MAX_KEY_SIZE, name ? name : "?"),
			 errdetail("The variable-length key columns of an entry take at most %d bytes.",
					   BP_MAX_KEY_SIZE),
			 errhint("Values larger than a tenth of a page cannot be indexed by bpindex.  "
					 "Consider a btree index, or an index of an MD5 hash of the value.")));
}

/*
 * Write an index entry into slot.  The keys of variable-length columns
 * are detoasted into the current memory context, where the slot points.
 */
void
bp_form_slot(const BpSlotDesc *desc, char *slot, Datum *values, bool *isnull,
			 ItemPointer tid)
{
	Size		keys_size = 0;

	if (desc->nulls_in_tid &&
		ItemPointerGetOffsetNumberNoCheck(tid) > BP_TID_OFFSET_MASK)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bpindex cannot index a row at tuple offset %u",
						ItemPointerGetOffsetNumberNoCheck(tid)),
				 errdetail("Offsets above %d are not supported.",
						   BP_TID_OFFSET_MASK)));
	memset(slot, 0, desc->width);
	ItemPointerCopy(tid, (ItemPointer) slot);
	for (int i = 0; i < desc->ncolumns; i++)
	{
		char	   *dst = slot + desc->att_offset[i];

		if (isnull[i])
			bp_slot_set_null(desc, slot, i);
		else if (desc->att_byval[i])
			bp_store_byval(dst, values[i], desc->att_len[i]);
		else if (desc->att_len[i] == -1)
			keys_size += set_key_field(desc, i, dst, values[i]);
		else
			memcpy(dst, DatumGetPointer(values[i]), desc->att_len[i]);
	}
	if (keys_size > BP_MAX_KEY_SIZE)
		report_keys_too_large(desc, keys_size);
}

/* All columns of a slot. */
void
bp_slot_deform(const BpSlotDesc *desc, const char *slot, Datum *values,
			   bool *isnull)
{
	for (int i = 0; i < desc->ncolumns; i++)
	{
		isnull[i] = bp_slot_isnull(desc, slot, i);
		values[i] = isnull[i] ? (Datum) 0 : bp_slot_datum(desc, slot, i);
	}
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

/* Byte offset, after the fences, of the pivots of an internal page. */
static Size
pivots_offset(int capacity)
{
	return MAXALIGN(sizeof(BpInternalHeader) + sizeof(BlockNumber) * capacity);
}

/* Children (and pivots) that room bytes after an internal page's fences hold. */
static int
capacity_in_room(Size room, uint16 width)
{
	int			capacity = (int) (room / (width + sizeof(BlockNumber)));

	while (capacity > 0 &&
		   pivots_offset(capacity) + (Size) capacity * width > room)
		capacity--;
	return capacity;
}

/*
 * Children (and pivots) an internal page has room for.  In an index with
 * keys the pivots share that room with the key area, which grows down
 * towards the last pivot in use (bp_internal_key_floor).
 */
int
bp_internal_capacity(uint16 width)
{
	return capacity_in_room(bp_page_content_size() - bp_fences_size(width),
							width);
}

/*
 * Children an internal page of an index with keys has room for when its
 * pivots take about key_bytes of keys each: as many as fit with half that
 * many (so that shorter pivots still fill a page), four at least.  The
 * children's array takes no more room than such pages use.
 */
int
bp_internal_keyed_capacity(uint16 width, double key_bytes)
{
	Size		room = bp_page_content_size() - bp_fences_size(width);
	double		half = Min(key_bytes / 2, (double) BP_MAX_KEY_SIZE);

	return Max(4, capacity_in_room(room, (uint16) (width + half)));
}

/*
 * Is capacity the one of the internal pages of an index whose slots are
 * width bytes wide?  An index with keys chooses its own at CREATE INDEX
 * (bp_internal_keyed_capacity, which never exceeds bp_internal_capacity).
 */
bool
bp_internal_capacity_valid(int capacity, uint16 width, bool keyed)
{
	int			full = bp_internal_capacity(width);

	return keyed ? capacity >= 4 && capacity <= full : capacity == full;
}

/*
 * The leaf layout for entries of this width in a region of region_room
 * bytes under these options (0 for log_size or block_size: automatic).
 * False if it does not fit.
 */
bool
bp_choose_leaf_layout(const BpOptions *opts, uint16 width, Size region_room,
					  BpaLayout *layout)
{
	Size		region = region_room;
	bool		fits;

	if (opts->block_size > 0)
		fits = bpa_layout_fit_blocks(layout, region, width, opts->log_size,
									 opts->block_size);
	else
		fits = bpa_layout_fit(layout, region, width, opts->log_size, 0);
	/* a full leaf holds up to capacity + log_size - 1 entries: its halves must fit */
	return fits && bpa_block_capacity(layout) >= 4 &&
		layout->log_size <= bpa_block_capacity(layout);
}

/* Room for pivots and their keys on an internal page of this capacity. */
static Size
internal_pivot_room(uint16 width, int capacity)
{
	return bp_page_content_size() - bp_fences_size(width) -
		pivots_offset(capacity);
}

/*
 * Children a built internal page gets when its pivots are width bytes wide
 * and take avg_key_bytes of keys each (0 for an index without keys): the
 * build's fill of the room they share (bp_internal_build_count).
 */
double
bp_internal_fill_estimate(uint16 width, double avg_key_bytes)
{
	int			capacity = avg_key_bytes > 0 ?
		bp_internal_keyed_capacity(width, avg_key_bytes) :
		bp_internal_capacity(width);
	double		room = (double) internal_pivot_room(width, capacity) -
		2 * avg_key_bytes;
	double		fill = Min(capacity, room / (width + avg_key_bytes));

	return Max(2.0, floor(fill * BP_INTERNAL_FILLFACTOR / 100.0));
}

/*
 * How many of the n sorted pivots (logical slots; the first is the page's
 * low key, all zeros on the leftmost page) a built internal page of this
 * capacity takes, two at least: BP_INTERNAL_FILLFACTOR percent of its
 * children, or of the room that pivots and their keys share.  The rest of
 * the room is left for the keys of its fences and of later inserts.
 */
int
bp_internal_build_count(const BpSlotDesc *desc, int capacity,
						const char *pivots, int n)
{
	int			count = Min(n, Max(2, capacity * BP_INTERNAL_FILLFACTOR / 100));
	Size		room = internal_pivot_room(desc->width, capacity) *
		BP_INTERNAL_FILLFACTOR / 100;
	Size		used = 0;

	for (int i = 1; desc->has_keys && i < count; i++)
	{
		used += desc->width + bp_slot_keys_size(desc, pivots + (Size) i * desc->width);
		if (used > room && i >= 2)
			return i;
	}
	return count;
}

/*
 * Pages (the metapage included) and levels of an index over ntuples
 * entries whose leaves hold per_leaf entries and internal pages
 * per_internal children: the build's arithmetic.
 */
BlockNumber
bp_estimate_pages(double ntuples, double per_leaf, double per_internal,
				  int *levels)
{
	double		level_pages = Max(1.0, ceil(ntuples / Max(per_leaf, 1)));
	double		pages = 1 + level_pages;	/* the metapage and the leaves */

	*levels = 1;
	while (level_pages > 1)
	{
		level_pages = ceil(level_pages / Max(per_internal, 2));
		pages += level_pages;
		(*levels)++;
	}
	return (BlockNumber) Min(pages, (double) MaxBlockNumber);
}

/*
 * Column offsets (into offsets, if not NULL) and width of a slot for key
 * columns of these types: packed when every column is passed by value or
 * char-aligned, else aligned.
 */
uint16
bp_slot_layout(int natts, const int16 *lengths, const bool *byvals,
			   const char *aligns, uint16 *offsets)
{
	uint16		offset = sizeof(ItemPointerData);
	uint16		align = ALIGNOF_SHORT;
	bool		packed = true;

	if (natts > BP_TID_NULL_BITS)
		offset += (natts + 7) / 8;
	for (int i = 0; i < natts; i++)
		if (!byvals[i] && aligns[i] != TYPALIGN_CHAR)
			packed = false;
	for (int i = 0; i < natts; i++)
	{
		if (!packed)
		{
			offset = (uint16) att_align_nominal(offset, aligns[i]);
			align = Max(align, (uint16) att_align_nominal(1, aligns[i]));
		}
		if (offsets)
			offsets[i] = offset;
		offset += lengths[i];
	}
	return (uint16) TYPEALIGN(align, offset);
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
 * area) and right-link, so that a reader that still reaches it through a
 * stale link can go on from it, and records safexid, the next full
 * transaction id at its deletion.
 */
void
bp_init_deleted_page(Page page, const BpSlotDesc *desc, FullTransactionId safexid)
{
	BpPageOpaqueData opaque = *BpPageGetOpaque(page);
	char	   *low = bp_copy_page_fence(desc, page, false);
	char	   *high = bp_copy_page_fence(desc, page, true);
	Size		floor;

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
bp_new_buffer(Relation index, FullTransactionId *deleted_at)
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
			uint16		width = bp_get_state(index)->slot.width;

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
 * Where key would go in the key area of page, not below floor, or 0 if it
 * does not fit.  A key with a 4-byte header is aligned for it.
 */
static Size
page_next_key_offset(Page page, Size floor, const char *key)
{
	Size		size = bp_key_stored_size(key);
	Size		low = BpPageGetOpaque(page)->key_low;

	if (low < size + floor)
		return 0;
	low -= size;
	if (size > VARATT_SHORT_MAX)
		low = TYPEALIGN_DOWN(ALIGNOF_INT, low);
	return low >= floor ? low : 0;
}

/*
 * Copy key into the key area of page, not below floor; returns its
 * offset, or 0 if it does not fit.
 */
Size
bp_page_add_key(Page page, Size floor, const char *key)
{
	Size		offset = page_next_key_offset(page, floor, key);
	Size		size = bp_key_stored_size(key);
	char	   *dst = (char *) page + offset;

	if (offset == 0)
		return 0;
	if (size > VARATT_SHORT_MAX)
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

/* Raise the error for a logical slot whose key reference is an offset. */
void
bp_report_key_pointer(uint64 ref)
{
	elog(ERROR, "bpindex: a key of a slot in memory refers to offset %u",
		 (unsigned) ref);
}

/* Raise the error for a key reference outside its page's key area. */
static void
report_bad_key_offset(const BpSlotDesc *desc, uint64 offset)
{
	char	   *name = get_rel_name(desc->index_oid);

	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" contains a key reference outside its key area",
					name ? name : "?"),
			 errdetail_internal("Key offset %u.", (unsigned) offset),
			 errhint("Please REINDEX the index.")));
}

/*
 * The key at offset of page (a page or a copy of one) of desc's index,
 * checked to lie whole in the page's key area as an uncompressed inline
 * varlena.
 */
const char *
bp_page_key(const BpSlotDesc *desc, const char *page, uint64 offset)
{
	Size		low;
	Size		end;
	const char *key;

	low = BpPageGetOpaque(page)->key_low;
	end = ((const PageHeaderData *) page)->pd_lower;
	key = page + offset;
	if (low == 0 || offset < low || offset >= end ||
		(VARATT_IS_1B(key) ? VARATT_IS_1B_E(key) || VARSIZE_1B(key) < 1 ||
		 offset + VARSIZE_1B(key) > end :
		 offset % ALIGNOF_INT != 0 || offset + VARHDRSZ > end ||
		 !VARATT_IS_4B_U(key) || VARSIZE_4B(key) < VARHDRSZ ||
		 offset + VARSIZE_4B(key) > end))
		report_bad_key_offset(desc, offset);
	return key;
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
	for (int i = 0; i < desc->natts; i++)
	{
		char	   *field = out + desc->att_offset[i];

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, out, i))
			continue;
		bp_set_key_ref(field, (uint64) (uintptr_t)
					   (keys + (bp_page_key(desc, page, bp_key_ref(field)) - page)));
	}
}

/*
 * Bytes at the start of two keys (varlenas of any header) that are the
 * same, stopping before any blank if blank_padded (bpchar's trailing
 * blanks do not count).
 */
Size
bp_keys_common_prefix(const char *a, const char *b, bool blank_padded)
{
	Size		len = Min(VARSIZE_ANY_EXHDR(a), VARSIZE_ANY_EXHDR(b));
	Size		n = 0;

	while (n < len && VARDATA_ANY(a)[n] == VARDATA_ANY(b)[n] &&
		   !(blank_padded && VARDATA_ANY(a)[n] == ' '))
		n++;
	return n;
}

/* Are two keys (varlenas of any header) the same bytes? */
bool
bp_keys_equal(const char *a, const char *b)
{
	return VARSIZE_ANY_EXHDR(a) == VARSIZE_ANY_EXHDR(b) &&
		memcmp(VARDATA_ANY(a), VARDATA_ANY(b), VARSIZE_ANY_EXHDR(a)) == 0;
}

/*
 * Bytes the keys of a logical slot take in a key area (4-byte headers
 * counted with their worst alignment), but for those equal to the same
 * column's key of the logical slot prev (if not NULL), which the slot
 * would share.
 */
Size
bp_slot_new_keys_size(const BpSlotDesc *desc, const char *slot,
					  const char *prev)
{
	Size		size = 0;

	for (int i = 0; desc->has_keys && i < desc->natts; i++)
	{
		const char *key;
		Size		key_size;

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, slot, i))
			continue;
		key = bp_key_field_value(desc, NULL, slot + desc->att_offset[i]);
		if (prev != NULL && !bp_slot_isnull(desc, prev, i) &&
			bp_keys_equal(key, bp_key_field_value(desc, NULL, prev + desc->att_offset[i])))
			continue;
		key_size = bp_key_stored_size(key);
		size += key_size > VARATT_SHORT_MAX ? key_size + ALIGNOF_INT - 1 : key_size;
	}
	return size;
}

/* Bytes the keys of a logical slot take in a key area, at most. */
Size
bp_slot_keys_size(const BpSlotDesc *desc, const char *slot)
{
	return bp_slot_new_keys_size(desc, slot, NULL);
}

/* Does every key field of the logical slot hold its key's prefix? */
bool
bp_slot_key_prefixes_valid(const BpSlotDesc *desc, const char *slot)
{
	for (int i = 0; desc->has_keys && i < desc->natts; i++)
	{
		char		field[BP_KEY_FIELD_SIZE];
		const char *stored = slot + desc->att_offset[i];

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, slot, i))
			continue;
		bp_key_prefix(desc, i, field, bp_key_field_value(desc, NULL, stored));
		if (memcmp(field, stored, BP_KEY_PREFIX_SIZE) != 0)
			return false;
	}
	return true;
}

/*
 * The offset in the key area of page of key (a varlena): the key that
 * same_field (a key field of a slot stored in page, or NULL) refers to if
 * that is equal, else a copy added there (not below floor); 0 if it does
 * not fit.
 */
Size
bp_page_store_key(const BpSlotDesc *desc, Page page, Size floor,
				  const char *key, const char *same_field)
{
	if (same_field != NULL)
	{
		const char *other = bp_key_field_value(desc, page, same_field);

		if (bp_keys_equal(key, other))
			return other - (const char *) page;
	}
	return bp_page_add_key(page, floor, key);
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
	for (int i = 0; desc->has_keys && i < desc->natts; i++)
	{
		char	   *field = stored + desc->att_offset[i];
		const char *key;
		Size		offset;

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, stored, i))
			continue;
		key = bp_key_field_value(desc, NULL, field);
		offset = bp_page_store_key(desc, page, floor, key,
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

/* Bytes that copies of the keys of a logical slot take, each aligned. */
static Size
slot_keys_copy_size(const BpSlotDesc *desc, const char *slot)
{
	Size		size = 0;

	for (int i = 0; desc->has_keys && i < desc->natts; i++)
		if (desc->att_len[i] == -1 && !bp_slot_isnull(desc, slot, i))
			size += INTALIGN(VARSIZE_ANY(bp_key_field_value(desc, NULL,
															slot + desc->att_offset[i])));
	return size;
}

/*
 * A copy of a logical slot in one allocation with copies of its keys, so
 * that it outlives where it came from.
 */
char *
bp_copy_slot(const BpSlotDesc *desc, const char *slot)
{
	char	   *copy = palloc(MAXALIGN(desc->width) + slot_keys_copy_size(desc, slot));

	bp_slot_copy_keys(desc, slot, copy, copy + MAXALIGN(desc->width), false);
	return copy;
}

/*
 * Copy the logical slot to out and its keys into keys (BP_KEYS_BUFSIZE
 * bytes), referring to them by pointer, or with as_offsets by their
 * offsets from keys (to cross into another process's memory, where
 * bp_slot_resolve_offsets turns them back into pointers).
 */
void
bp_slot_copy_keys(const BpSlotDesc *desc, const char *slot, char *out,
				  char *keys, bool as_offsets)
{
	Size		used = 0;

	memmove(out, slot, desc->width);
	for (int i = 0; desc->has_keys && i < desc->natts; i++)
	{
		char	   *field = out + desc->att_offset[i];
		const char *key;

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, out, i))
			continue;
		key = bp_key_field_value(desc, NULL, field);
		if (used + VARSIZE_ANY(key) > BP_KEYS_BUFSIZE)
			elog(ERROR, "bpindex: the keys of a slot exceed %d bytes",
				 BP_KEYS_BUFSIZE);
		memcpy(keys + used, key, VARSIZE_ANY(key));
		bp_set_key_ref(field, as_offsets ? used : (uint64) (uintptr_t) (keys + used));
		used = INTALIGN(used + VARSIZE_ANY(key));
	}
}

/* Point the keys of a slot copied with as_offsets into keys. */
void
bp_slot_resolve_offsets(const BpSlotDesc *desc, char *slot, const char *keys)
{
	for (int i = 0; desc->has_keys && i < desc->natts; i++)
	{
		char	   *field = slot + desc->att_offset[i];

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, slot, i))
			continue;
		if (bp_key_ref(field) >= BP_KEYS_BUFSIZE)
			elog(ERROR, "bpindex: key offset %u out of bounds",
				 (unsigned) bp_key_ref(field));
		bp_set_key_ref(field, (uint64) (uintptr_t) (keys + bp_key_ref(field)));
	}
}

/*
 * Point the keys of n logical slots that lie in the BLCKSZ bytes at from
 * to the same offsets of to, copying their bytes there if copy_bytes (to
 * is not yet a copy of from); copy the others into outside_cxt, if not
 * NULL.
 */
static void
move_slot_keys(const BpSlotDesc *desc, char *slots, int n, const char *from,
			   char *to, bool copy_bytes, MemoryContext outside_cxt)
{
	for (int k = 0; desc->has_keys && k < n; k++)
	{
		char	   *slot = slots + (Size) k * desc->width;

		for (int i = 0; i < desc->natts; i++)
		{
			char	   *field = slot + desc->att_offset[i];
			const char *key;

			if (desc->att_len[i] != -1 || bp_slot_isnull(desc, slot, i))
				continue;
			key = bp_key_field_value(desc, NULL, field);
			if ((key < from || key >= from + BLCKSZ) && outside_cxt)
			{
				char	   *copy = MemoryContextAlloc(outside_cxt, VARSIZE_ANY(key));

				memcpy(copy, key, VARSIZE_ANY(key));
				bp_set_key_ref(field, (uint64) (uintptr_t) copy);
				continue;
			}
			if (key < from || key >= from + BLCKSZ)
				continue;
			if (copy_bytes)
				memcpy(to + (key - from), key, VARSIZE_ANY(key));
			bp_set_key_ref(field, (uint64) (uintptr_t) (to + (key - from)));
		}
	}
}

/*
 * Move the keys of n logical slots that point into the BLCKSZ bytes at
 * from to the same places in to (a copy of them), and copy the others
 * (keys rebuilt whole from a leaf that strips them) into outside_cxt.
 */
void
bp_slots_rebase(const BpSlotDesc *desc, char *slots, int n, const char *from,
				char *to, MemoryContext outside_cxt)
{
	move_slot_keys(desc, slots, n, from, to, false, outside_cxt);
}

/*
 * Copy the keys that n logical slots point to in page (a locked page) to
 * the same offsets of copy (BLCKSZ bytes), and point the slots there.
 */
void
bp_slots_detach_keys(const BpSlotDesc *desc, char *slots, int n,
					 const char *page, char *copy)
{
	move_slot_keys(desc, slots, n, page, copy, true, NULL);
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

	if (!(flags & (high ? BP_HAS_HIGH : BP_HAS_LOW)))
		memset(out, 0, desc->width);
	else
		bp_slot_from_page(desc, page, keys,
						  high ? contents + desc->width : contents, out);
}

/* A copy of a fence of page with its keys, or NULL if it has none. */
char *
bp_copy_page_fence(const BpSlotDesc *desc, const char *page, bool high)
{
	uint16		flags = BpPageGetOpaque(page)->flags;

	if (!(flags & (high ? BP_HAS_HIGH : BP_HAS_LOW)))
		return NULL;
	return bp_copy_page_slot(desc, page, high ? bp_page_highkey((Page) page, desc->width) :
							 bp_page_lowkey((Page) page));
}

/* A copy of a slot stored in page, as bp_copy_slot makes. */
char *
bp_copy_page_slot(const BpSlotDesc *desc, const char *page,
				  const char *stored)
{
	char		buf[BP_MAX_SLOT_WIDTH];

	return bp_copy_slot(desc, bp_page_slot(desc, page, stored, buf));
}

/*
 * Set a fence of a live leaf or internal page to the logical slot, its
 * keys added to the page's key area; false if they do not fit.
 */
bool
bp_page_set_fence(const BpSlotDesc *desc, Page page, bool high, const char *slot)
{
	Size		floor = 0;

	if (desc->has_keys)
		floor = (BpPageGetOpaque(page)->flags & BP_LEAF) ?
			bp_leaf_key_floor(page, desc) :
			bp_internal_key_floor(page, desc->width);
	return bp_store_page_slot(desc, page, floor, slot, NULL,
							  high ? bp_page_highkey(page, desc->width) :
							  bp_page_lowkey(page));
}

/* Does slot lie within the fences of page (low key <= slot < high key)? */
bool
bp_slot_within_fences(Page page, const BpSlotDesc *desc, const char *slot)
{
	uint16		flags = BpPageGetOpaque(page)->flags;
	char		fence[BP_MAX_SLOT_WIDTH];

	if ((flags & BP_HAS_LOW) &&
		bp_compare_slots(bp_page_fence(desc, page, false, fence), slot,
						 (void *) desc) > 0)
		return false;
	if ((flags & BP_HAS_HIGH) &&
		bp_compare_slots(slot, bp_page_fence(desc, page, true, fence),
						 (void *) desc) >= 0)
		return false;
	return true;
}

/* The header of an internal page. */
BpInternalHeader *
bp_internal_header(Page page, uint16 width)
{
	return (BpInternalHeader *) (PageGetContents(page) + bp_fences_size(width));
}

/* The child block numbers of an internal page. */
BlockNumber *
bp_internal_children(Page page, uint16 width)
{
	return (BlockNumber *) ((char *) bp_internal_header(page, width) +
							sizeof(BpInternalHeader));
}

/* Make room at position pos of an internal page's children and pivots. */
void
bp_internal_open_gap(Page page, uint16 width, int pos)
{
	BpInternalHeader *header = bp_internal_header(page, width);
	BlockNumber *children = bp_internal_children(page, width);

	memmove(children + pos + 1, children + pos,
			sizeof(BlockNumber) * (header->nitems - pos));
	memmove(bp_internal_pivot(page, width, pos + 1),
			bp_internal_pivot(page, width, pos),
			(Size) (header->nitems - pos) * width);
	header->nitems++;
}

/*
 * Where the key area of an internal page may grow down to: the end of its
 * last pivot.  A pivot added takes room from the key area.
 */
Size
bp_internal_key_floor(Page page, uint16 width)
{
	return bp_internal_pivot(page, width, bp_internal_header(page, width)->nitems) -
		(char *) page;
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

/*
 * Fill page as an internal page at level with n children and their pivots
 * (logical slots; pivot 0 is the page's low key, all zeros if it has none,
 * whatever pivots holds there), with these fences (either may be NULL), a
 * key area if the index has keys, and no right-link.  False if the keys
 * do not fit.
 */
bool
bp_internal_fill(const BpSlotDesc *desc, Page page, uint16 level,
				 int capacity, const char *lowkey, const char *highkey,
				 const BlockNumber *children, const char *pivots, int n)
{
	uint16		width = desc->width;
	BpInternalHeader *header;
	Size		floor;
	bool		fits = true;

	bp_init_page(page, BP_INTERNAL | (lowkey ? BP_HAS_LOW : 0) |
				 (highkey ? BP_HAS_HIGH : 0), level);
	if (desc->has_keys)
		bp_page_start_keys(page);
	header = bp_internal_header(page, width);
	header->nitems = n;
	header->capacity = capacity;
	memcpy(bp_internal_children(page, width), children, sizeof(BlockNumber) * n);
	floor = bp_internal_key_floor(page, width);
	if (highkey)
		fits = bp_store_page_slot(desc, page, floor, highkey, NULL,
							   bp_page_highkey(page, width));
	if (lowkey && fits)
	{
		fits = bp_store_page_slot(desc, page, floor, lowkey, NULL,
							   bp_page_lowkey(page));
		memcpy(bp_internal_pivot(page, width, 0), bp_page_lowkey(page), width);
	}
	for (int i = 1; i < n && fits; i++)
		fits = bp_store_page_slot(desc, page, floor, pivots + (Size) i * width,
							   i > 1 || lowkey ?
							   bp_internal_pivot(page, width, i - 1) : NULL,
							   bp_internal_pivot(page, width, i));
	return fits;
}

/*
 * Can the internal page take one more pivot, the logical slot pivot (NULL
 * for one whose keys the page has already): a free child, and room for
 * the pivot and its keys above the key area's floor?
 */
bool
bp_internal_has_room(const BpSlotDesc *desc, Page page, const char *pivot)
{
	uint16		width = desc->width;
	BpInternalHeader *header = bp_internal_header(page, width);

	return header->nitems < header->capacity &&
		(!desc->has_keys ||
		 width + (pivot ? bp_slot_keys_size(desc, pivot) : 0) <=
		 bp_page_key_room(page, bp_internal_key_floor(page, width)));
}

/*
 * The children's pivots of an internal page as logical slots into out
 * (room for nitems slots), their keys pointing into keys (page or a copy
 * of it); pivot 0 is all zeros when the page has no low key.
 */
void
bp_internal_pivots(const BpSlotDesc *desc, Page page, const char *keys,
				   char *out)
{
	uint16		width = desc->width;
	int			n = bp_internal_header(page, width)->nitems;
	bool		has_low = (BpPageGetOpaque(page)->flags & BP_HAS_LOW) != 0;

	for (int i = 0; i < n; i++)
	{
		if (i == 0 && !has_low)
			memset(out, 0, width);
		else
			bp_slot_from_page(desc, page, keys, bp_internal_pivot(page, width, i),
							  out + (Size) i * width);
	}
}

/* Pivot i of an internal page: the low bound of child i. */
char *
bp_internal_pivot(Page page, uint16 width, int i)
{
	BpInternalHeader *header = bp_internal_header(page, width);

	return (char *) header + pivots_offset(header->capacity) +
		(Size) i * width;
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
static const char *
key_area_problem(const BpSlotDesc *desc, Page page)
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

		if (!(flags & (f == 0 ? BP_HAS_LOW : BP_HAS_HIGH)))
			continue;
		for (int i = 0; i < desc->natts; i++)
			if (desc->att_len[i] == -1 && !bp_slot_isnull(desc, fence, i) &&
				!stored_key_in_area(page, fence + desc->att_offset[i]))
				return "A fence refers to a key outside the page's key area.";
	}
	return NULL;
}

/* Verify the special space, kind and structure of a page. */
void
bp_check_page(Relation index, Buffer buf, Page page)
{
	BlockNumber blkno = BufferGetBlockNumber(buf);
	BpPageOpaque opaque;
	uint16		kind;

	if (PageIsNew(page))
		bp_report_corrupted(index, blkno, "The page is uninitialized.");
	if (PageGetSpecialSize(page) != BP_OPAQUE_SIZE)
		bp_report_corrupted(index, blkno, "The special space has the wrong size.");
	opaque = BpPageGetOpaque(page);
	if (opaque->page_id != BP_PAGE_ID)
		bp_report_corrupted(index, blkno, "The page identifier is wrong.");
	kind = opaque->flags & BP_KIND_MASK;
	if (kind != BP_META && kind != BP_LEAF && kind != BP_INTERNAL)
		bp_report_corrupted(index, blkno, "The page kind is invalid.");
	if ((kind == BP_META) != (blkno == BP_METAPAGE_BLKNO))
		bp_report_corrupted(index, blkno, "The metapage is misplaced.");
	if (opaque->flags & BP_DELETED)
	{
		/* a deleted page keeps only its fences, right-link and xid */
		if (kind == BP_META || (kind == BP_LEAF) != (opaque->level == 0) ||
			(opaque->flags & BP_INCOMPLETE_SPLIT) ||
			!(opaque->flags & BP_HAS_HIGH))
			bp_report_corrupted(index, blkno, "The deleted page is invalid.");
	}
	else if (kind == BP_LEAF)
	{
		const char *problem = bp_leaf_check_shape(page, &bp_get_state(index)->slot);

		if (problem != NULL)
			bp_report_corrupted(index, blkno, problem);
	}
	else if (kind == BP_INTERNAL)
	{
		BpIndexState *state = bp_get_state(index);
		BpInternalHeader *header = bp_internal_header(page, state->slot.width);

		if (header->capacity != state->meta.internal_capacity ||
			header->nitems < 1 || header->nitems > header->capacity ||
			opaque->level == 0)
			bp_report_corrupted(index, blkno, "The internal page header is invalid.");
		if (state->slot.has_keys &&
			opaque->key_low < bp_internal_key_floor(page, state->slot.width))
			bp_report_corrupted(index, blkno, "The key area overlaps the pivots.");
	}
	if (kind != BP_META && !(opaque->flags & BP_DELETED))
	{
		const char *problem = key_area_problem(&bp_get_state(index)->slot, page);

		if (problem != NULL)
			bp_report_corrupted(index, blkno, problem);
	}
}

/* Read, lock and verify a page of the index. */
Buffer
bp_read_buffer(Relation index, BlockNumber blkno, int lockmode)
{
	Buffer		buf = ReadBuffer(index, blkno);

	LockBuffer(buf, lockmode);
	bp_check_page(index, buf, BufferGetPage(buf));
	return buf;
}

/*
 * Read a page of the index with a cleanup lock (exclusive, and no other
 * backend holds a pin), as VACUUM takes on every leaf, and verify it.
 */
Buffer
bp_read_buffer_for_cleanup(Relation index, BlockNumber blkno)
{
	Buffer		buf = ReadBuffer(index, blkno);

	LockBufferForCleanup(buf);
	bp_check_page(index, buf, BufferGetPage(buf));
	return buf;
}

/* Read and verify the metapage into meta. */
void
bp_read_meta(Relation index, BpMetaPageData *meta)
{
	Buffer		buf = bp_read_buffer(index, BP_METAPAGE_BLKNO, BUFFER_LOCK_SHARE);
	BpMetaPage	stored = BpPageGetMeta(BufferGetPage(buf));

	if (stored->magic != BP_META_MAGIC)
	{
		UnlockReleaseBuffer(buf);
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not a bpindex index",
						RelationGetRelationName(index)),
				 errdetail_internal("The metapage has the wrong magic number.")));
	}
	if (stored->version != BP_VERSION)
	{
		UnlockReleaseBuffer(buf);
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has on-disk format version %u, but this version of bpindex reads version %d",
						RelationGetRelationName(index), stored->version,
						BP_VERSION),
				 errhint("Rebuild the index with REINDEX INDEX %s.",
						 quote_identifier(RelationGetRelationName(index)))));
	}
	*meta = *stored;
	UnlockReleaseBuffer(buf);
}

/*
 * The per-backend state of an open index, built on first use and kept in
 * the relcache entry.
 */
BpIndexState *
bp_get_state(Relation index)
{
	BpIndexState *state;
	BpMetaPageData meta;
	MemoryContext old;

	if (index->rd_amcache != NULL)
		return (BpIndexState *) index->rd_amcache;

	old = MemoryContextSwitchTo(index->rd_indexcxt);
	state = palloc0(sizeof(BpIndexState));
	bp_init_slot_desc(index, &state->slot);
	MemoryContextSwitchTo(old);

	bp_read_meta(index, &meta);
	if (meta.natts != state->slot.natts ||
		meta.slot_width != state->slot.width ||
		!bpa_layout_valid(&meta.leaf_layout) ||
		meta.leaf_layout.slot_width != state->slot.width ||
		bpa_region_size(&meta.leaf_layout) >
		bp_leaf_region_room(&state->slot, state->slot.width) ||
		!bp_internal_capacity_valid(meta.internal_capacity, state->slot.width,
									state->slot.has_keys))
	{
		pfree(state);
		bp_report_corrupted(index, BP_METAPAGE_BLKNO,
						 "The metapage does not match the index definition.");
	}
	state->meta = meta;
	state->options = bp_index_options(index);
	state->cached_leaf = InvalidBlockNumber;
	/* the metapage just read gives the root: the first descent needs no reread */
	state->cached_root = meta.root;
	state->cached_root_level = meta.root_level;
	old = MemoryContextSwitchTo(index->rd_indexcxt);
	bp_leaf_work_init(&state->work, &state->slot);
	MemoryContextSwitchTo(old);
	index->rd_amcache = state;
	return state;
}

/*
 * Reject columns bpindex cannot store (variable-length types) and key
 * columns without a comparison function, naming the column.
 */
void
bp_check_columns(Relation index)
{
	TupleDesc	tupdesc = RelationGetDescr(index);
	int			natts = IndexRelationGetNumberOfKeyAttributes(index);

	for (int i = natts; i < IndexRelationGetNumberOfAttributes(index); i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (att->attlen <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex cannot include column \"%s\" in index \"%s\": type %s is variable-length",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(att->atttypid)),
					 errdetail("bpindex stores every entry in a fixed-width slot, so INCLUDE columns must have a fixed-length type.")));
	}
	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		Oid			cmpproc = index_getprocid(index, i + 1, 1);

		if (att->attlen < -1)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex cannot index column \"%s\" of index \"%s\": type %s has no stored length",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(att->atttypid))));
		if (att->attlen == -1 && OidIsValid(index->rd_indcollation[i]) &&
			!get_collation_isdeterministic(index->rd_indcollation[i]))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex cannot index column \"%s\" of index \"%s\": collation \"%s\" is nondeterministic",
							NameStr(att->attname),
							RelationGetRelationName(index),
							get_collation_name(index->rd_indcollation[i])),
					 errhint("Use a deterministic collation, or a btree index.")));
		if (!OidIsValid(cmpproc) ||
			!check_amproc_signature(cmpproc, INT4OID, true, 2, 2,
									index->rd_opcintype[i],
									index->rd_opcintype[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator class of column \"%s\" of index \"%s\" has no comparison function for type %s",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(index->rd_opcintype[i])),
					 errdetail("Support function 1 of a bpindex operator class must compare two values of the class's input type and return int4.")));
	}
}

/*
 * Open a relation that must be a valid bpindex index, for the SQL-callable
 * functions; anything else is refused with an error naming it.
 */
Relation
bp_open_index(Oid indexoid, LOCKMODE lockmode)
{
	Relation	index = index_open(indexoid, lockmode);

	if (index->rd_rel->relkind == RELKIND_PARTITIONED_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a partitioned index",
						RelationGetRelationName(index)),
				 errhint("Use the index of each partition.")));
	if (index->rd_rel->relkind != RELKIND_INDEX ||
		index->rd_indam->amgettuple != bp_gettuple)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a bpindex index",
						RelationGetRelationName(index))));
	if (!index->rd_index->indisvalid)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" is not valid",
						RelationGetRelationName(index))));
	return index;
}
