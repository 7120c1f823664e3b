/*-------------------------------------------------------------------------
 *
 * bpslot.c
 *	  Slots: the description of an index entry (BpSlotDesc), forming,
 *	  deforming and comparing logical slots, and their key fields.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amvalidate.h"
#include "access/detoast.h"
#include "access/genam.h"
#include "access/toast_compression.h"
#include "access/toast_internals.h"
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

#include "bpasort.h"
#include "bpcodec.h"
#include "bpcollation.h"
#include "bpcompat.h"
#include "bpformat.h"
#include "bpslot.h"

static void init_column_codes(BpSlotDesc *desc);

/* The sign bit of a 64-bit image. */
#define SIGN64		(UINT64CONST(1) << 63)

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
		case F_CASH_CMP:
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
 * function and collation bytewise: bytea, text, varchar and bpchar under
 * a C collation (or libc's C.UTF-8, if code_point_libc), and their
 * pattern classes under any?
 */
bool
bp_key_order_bytewise(Oid proc, Oid collation, bool code_point_libc)
{
	if (proc == F_BTTEXTCMP || proc == F_BPCHARCMP)
		return bp_collation_orders_bytes(collation, code_point_libc);
	/* bytea, and the pattern classes under any collation */
	return proc == F_BYTEACMP || proc == F_BTTEXT_PATTERN_CMP ||
		proc == F_BTBPCHAR_PATTERN_CMP;
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
 * A variable-length column, key or INCLUDE, takes a key field (bpslot.h):
 * its values live in the page's key area, stored for the type's functions
 * to read in place (key_align, key_plain).
 */
static void
init_key_field(Relation index, BpSlotDesc *desc, int att, int16 *length,
			   char *align)
{
	desc->has_keys = true;
	desc->att_byval[att] = false;
	desc->key_align[att] = (uint8) Max(ALIGNOF_INT,
									   att_align_nominal(1, *align));
	desc->key_plain[att] =
		get_typstorage(TupleDescAttr(RelationGetDescr(index), att)->atttypid) ==
		TYPSTORAGE_PLAIN;
	*length = BP_KEY_FIELD_SIZE;
	*align = TYPALIGN_CHAR;
}

/*
 * A variable-length key column: a key field whose prefixes decide its
 * order when the order is bytewise.
 */
static void
init_key_column(Relation index, BpSlotDesc *desc, int att, int16 *length,
				char *align, bool code_point_libc)
{
	Oid			proc = desc->cmp_proc[att]->fn_oid;
	bool		bytewise = bp_key_order_bytewise(proc, desc->collation[att],
												 code_point_libc);

	init_key_field(index, desc, att, length, align);
	desc->blank_padded[att] = proc == F_BPCHARCMP || proc == F_BTBPCHAR_PATTERN_CMP;
	/* collations are deterministic (bp_check_columns) */
	desc->equal_bytes[att] = proc == F_BTTEXTCMP || proc == F_BYTEACMP ||
		proc == F_BTTEXT_PATTERN_CMP;
	desc->cmp_kind[att] = bytewise ? BP_CMP_PREFIX : BP_CMP_FMGR;
	desc->key_order[att] = key_column_order(index, att, proc,
											desc->collation[att]);
}

/*
 * Fill desc from the index's key columns: offsets, lengths, collations
 * and comparison functions; text under libc's C.UTF-8 in bytewise order
 * if code_point_libc (a new index, or one whose metapage says so).
 */
void
bp_init_slot_desc(Relation index, BpSlotDesc *desc, bool code_point_libc)
{
	TupleDesc	tupdesc = RelationGetDescr(index);
	int16		lengths[INDEX_MAX_KEYS];
	char		aligns[INDEX_MAX_KEYS];

	desc->index_oid = RelationGetRelid(index);
	desc->has_keys = false;
	desc->max_key_bytes = 0;	/* set by the caller: bp_max_key_bytes */
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
		desc->key_align[i] = ALIGNOF_INT;
		desc->key_plain[i] = false;
		desc->key_order[i] = NULL;
		if (i >= desc->natts)
		{
			desc->collation[i] = InvalidOid;
			desc->cmp_proc[i] = NULL;
			desc->cmp_kind[i] = included_column_kind(att);
			/* never compared; pivots leave it NULL (bp_separator) */
			if (att->attlen == -1)
				init_key_field(index, desc, i, &lengths[i], &aligns[i]);
			continue;
		}
		desc->collation[i] = index->rd_indcollation[i];
		desc->cmp_proc[i] = index_getprocinfo(index, i + 1, 1);
		desc->cmp_kind[i] = bp_compare_kind(desc->cmp_proc[i]->fn_oid);
		if (att->attlen == -1)
			init_key_column(index, desc, i, &lengths[i], &aligns[i],
							code_point_libc);
		desc->reverse[i] = (index->rd_indoption[i] & INDOPTION_DESC) != 0;
		desc->nulls_first[i] = (index->rd_indoption[i] & INDOPTION_NULLS_FIRST) != 0;
	}
	desc->width = bp_slot_layout(desc->ncolumns, lengths, desc->att_byval,
								 aligns, desc->att_offset);
	init_itup_layout(desc, aligns);
	init_column_codes(desc);
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
 * Compare the first ncolumns key columns of slots that may be stored in a
 * page, in index order: a in page_a if that is not NULL (its keys are
 * offsets there, as in a copy of a slot stored there), else a logical
 * slot; b likewise.
 */
static int
compare_page_slot_columns(const BpSlotDesc *desc, int ncolumns,
						  const char *page_a, const char *page_b,
						  const char *a, const char *b)
{
	for (int i = 0; i < ncolumns; i++)
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

/* bp_compare_slot_keys of slots that may be stored in a page (as above). */
static int
compare_page_slot_keys(const BpSlotDesc *desc, const char *page_a,
					   const char *page_b, const char *a, const char *b)
{
	return compare_page_slot_columns(desc, desc->natts, page_a, page_b, a, b);
}

/*
 * Compare the first ncolumns key columns of two logical slots in index
 * order: the prefix of the entries that a skip scan walks.
 */
int
bp_compare_slot_prefix(const BpSlotDesc *desc, int ncolumns, const char *a,
					   const char *b)
{
	return compare_page_slot_columns(desc, ncolumns, NULL, NULL, a, b);
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
	const char *left_data;
	const char *right_data;
	bool		characters = desc->cmp_proc[att]->fn_oid != F_BYTEACMP;
	Size		shared = 0;
	Size		len = 0;

	/* a compressed key's bytes are not its data: it stays whole */
	if (bp_key_compressed(left_key) || bp_key_compressed(right_key))
		return false;
	left_data = bp_key_data(desc, att, left_key, &left_len);
	right_data = bp_key_data(desc, att, right_key, &right_len);
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
 * longer decide anything, become empty; variable-length INCLUDE columns
 * are NULL.  New keys are allocated in the current memory context.
 */
void
bp_separator(const BpSlotDesc *desc, const char *left, const char *right,
			 char *sep)
{
	int			att;

	memcpy(sep, right, desc->width);
	if (!desc->has_keys)
		return;
	for (int i = desc->natts; i < desc->ncolumns; i++)
		if (desc->att_len[i] == -1)
			bp_slot_set_null(desc, sep, i);
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
static void
store_byval(char *dst, Datum value, int16 len)
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

/*
 * Does a key area store key (of column att) with a 4-byte header: a
 * compressed key (whole, as it is), a key too long for a 1-byte one, or
 * any key of a type of plain storage?
 */
bool
bp_key_stored_long(const BpSlotDesc *desc, int att, const char *key)
{
	return bp_key_compressed(key) || desc->key_plain[att] ||
		VARSIZE_ANY_EXHDR(key) + VARHDRSZ_SHORT > VARATT_SHORT_MAX;
}

/*
 * Bytes key (of column att) takes in a key area: a 1-byte header if it can
 * have one (a compressed key: its own size).
 */
Size
bp_key_stored_size(const BpSlotDesc *desc, int att, const char *key)
{
	return VARSIZE_ANY_EXHDR(key) +
		(bp_key_stored_long(desc, att, key) ? VARHDRSZ : VARHDRSZ_SHORT);
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
	return bp_key_stored_size(desc, att, key);
}

/*
 * The longest key of a logical slot that compression has not been tried
 * on yet (tried), of a column whose type may be compressed; -1 if none.
 */
static int
longest_untried_key(const BpSlotDesc *desc, const char *slot,
					const bool *tried)
{
	int			longest = -1;
	Size		longest_size = 0;

	for (int i = 0; i < desc->ncolumns; i++)
	{
		const char *key;
		Size		size;

		if (desc->att_len[i] != -1 || desc->key_plain[i] || tried[i] ||
			bp_slot_isnull(desc, slot, i))
			continue;
		key = bp_key_field_value(desc, NULL, slot + desc->att_offset[i]);
		size = bp_key_stored_size(desc, i, key);
		if (size > longest_size)
		{
			longest = i;
			longest_size = size;
		}
	}
	return longest;
}

/*
 * Compress the keys of a logical slot whose keys take keys_size bytes,
 * longest first, as index_form_tuple compresses long values, while they
 * exceed the index's limit; returns the bytes they then take.  Compressed
 * keys are allocated in the current memory context; their fields keep the
 * prefix of their data.
 */
static Size
compress_long_keys(const BpSlotDesc *desc, char *slot, Size keys_size)
{
	bool		tried[INDEX_MAX_KEYS] = {0};
	int			att;

	while (keys_size > desc->max_key_bytes &&
		   (att = longest_untried_key(desc, slot, tried)) >= 0)
	{
		char	   *field = slot + desc->att_offset[att];
		const char *key = bp_key_field_value(desc, NULL, field);
		Datum		compressed;

		tried[att] = true;
		compressed = toast_compress_datum(PointerGetDatum(key),
										  InvalidCompressionMethod);
		if (DatumGetPointer(compressed) == NULL)
			continue;
		keys_size -= bp_key_stored_size(desc, att, key);
		keys_size += bp_key_stored_size(desc, att, DatumGetPointer(compressed));
		bp_set_key_ref(field, (uint64) (uintptr_t) DatumGetPointer(compressed));
	}
	return keys_size;
}

/*
 * Raise the error for the entry of the heap tuple at tid whose keys exceed
 * the index's limit, as btree raises it for its own oversized rows.
 */
static void
report_keys_too_large(const BpSlotDesc *desc, Size size, ItemPointer tid)
{
	char	   *name = get_rel_name(desc->index_oid);
	Oid			heap = IndexGetRelation(desc->index_oid, true);
	char	   *heap_name = OidIsValid(heap) ? get_rel_name(heap) : NULL;

	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("index row size %zu exceeds bpindex maximum %zu for index \"%s\"",
					size, desc->max_key_bytes, name ? name : "?"),
			 errdetail("Index row references tuple (%u,%u) in relation \"%s\".",
					   ItemPointerGetBlockNumberNoCheck(tid),
					   ItemPointerGetOffsetNumberNoCheck(tid) & BP_TID_OFFSET_MASK,
					   heap_name ? heap_name : "?"),
			 errhint("Values larger than about a third of a page after compression cannot be indexed by bpindex.  "
					 "Consider an index of an MD5 hash of the value, or full text indexing.")));
}

/*
 * Write an index entry into slot.  The keys of variable-length columns
 * are detoasted into the current memory context, where the slot points;
 * if they exceed the index's limit, the longest are compressed there.
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
			store_byval(dst, values[i], desc->att_len[i]);
		else if (desc->att_len[i] == -1)
			keys_size += set_key_field(desc, i, dst, values[i]);
		else
			memcpy(dst, DatumGetPointer(values[i]), desc->att_len[i]);
	}
	Assert(!desc->has_keys || desc->max_key_bytes > 0);
	if (keys_size > desc->max_key_bytes)
		keys_size = compress_long_keys(desc, slot, keys_size);
	if (keys_size > desc->max_key_bytes)
		report_keys_too_large(desc, keys_size, tid);
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
 * Does a key with a 4-byte header hold a compressed value's header: its
 * size, and a method PostgreSQL compresses with?
 */
static bool
compressed_header_valid(const char *key)
{
	return VARATT_IS_4B_C(key) && VARSIZE_4B(key) >= VARHDRSZ_COMPRESSED &&
		(VARDATA_COMPRESSED_GET_COMPRESS_METHOD(key) == TOAST_PGLZ_COMPRESSION_ID ||
		 VARDATA_COMPRESSED_GET_COMPRESS_METHOD(key) == TOAST_LZ4_COMPRESSION_ID);
}

/*
 * The key at offset of page (a page or a copy of one) of desc's index,
 * checked to lie whole in the page's key area as an inline varlena,
 * compressed or not.
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
		 !(VARATT_IS_4B_U(key) || compressed_header_valid(key)) ||
		 VARSIZE_4B(key) < VARHDRSZ || offset + VARSIZE_4B(key) > end))
		report_bad_key_offset(desc, offset);
	return key;
}

/*
 * Bytes at the start of two keys (varlenas of any header) that are the
 * same, stopping before any blank if blank_padded (bpchar's trailing
 * blanks do not count); none if either is compressed.
 */
Size
bp_keys_common_prefix(const char *a, const char *b, bool blank_padded)
{
	Size		len = Min(VARSIZE_ANY_EXHDR(a), VARSIZE_ANY_EXHDR(b));
	Size		n = 0;

	if (bp_key_compressed(a) || bp_key_compressed(b))
		return 0;
	while (n < len && VARDATA_ANY(a)[n] == VARDATA_ANY(b)[n] &&
		   !(blank_padded && VARDATA_ANY(a)[n] == ' '))
		n++;
	return n;
}

/*
 * Are two keys (varlenas of any header) the same bytes, both compressed
 * or neither?
 */
bool
bp_keys_equal(const char *a, const char *b)
{
	return bp_key_compressed(a) == bp_key_compressed(b) &&
		VARSIZE_ANY_EXHDR(a) == VARSIZE_ANY_EXHDR(b) &&
		memcmp(VARDATA_ANY(a), VARDATA_ANY(b), VARSIZE_ANY_EXHDR(a)) == 0;
}

/*
 * A key whole and uncompressed: key itself, or its data decompressed into
 * the current memory context, which the caller frees.
 */
const char *
bp_key_uncompressed(const char *key)
{
	if (!bp_key_compressed(key))
		return key;
	return (const char *) detoast_attr((struct varlena *) unconstify(char *, key));
}

/*
 * Bytes the keys of a logical slot take in a key area (keys with 4-byte
 * headers counted with their worst alignment), but for those equal to the
 * same column's key of the logical slot prev (if not NULL), which the slot
 * would share.
 */
Size
bp_slot_new_keys_size(const BpSlotDesc *desc, const char *slot,
					  const char *prev)
{
	Size		size = 0;

	for (int i = 0; desc->has_keys && i < desc->ncolumns; i++)
	{
		const char *key;
		Size		key_size;

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, slot, i))
			continue;
		key = bp_key_field_value(desc, NULL, slot + desc->att_offset[i]);
		if (prev != NULL && !bp_slot_isnull(desc, prev, i) &&
			bp_keys_equal(key, bp_key_field_value(desc, NULL, prev + desc->att_offset[i])))
			continue;
		key_size = bp_key_stored_size(desc, i, key);
		size += bp_key_stored_long(desc, i, key) ?
			key_size + desc->key_align[i] - 1 : key_size;
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
	for (int i = 0; desc->has_keys && i < desc->ncolumns; i++)
	{
		char		field[BP_KEY_FIELD_SIZE];
		const char *stored = slot + desc->att_offset[i];
		const char *key;
		const char *whole;

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, slot, i))
			continue;
		key = bp_key_field_value(desc, NULL, stored);
		whole = bp_key_uncompressed(key);
		bp_key_prefix(desc, i, field, whole);
		if (whole != key)
			pfree(unconstify(char *, whole));
		if (memcmp(field, stored, BP_KEY_PREFIX_SIZE) != 0)
			return false;
	}
	return true;
}

/*
 * Bytes that copies of the keys of a logical slot take at most, each
 * aligned (bp_slot_copy_keys).
 */
static Size
slot_keys_copy_size(const BpSlotDesc *desc, const char *slot)
{
	Size		size = 0;

	for (int i = 0; desc->has_keys && i < desc->ncolumns; i++)
		if (desc->att_len[i] == -1 && !bp_slot_isnull(desc, slot, i))
			size += MAXALIGN(VARSIZE_ANY(bp_key_field_value(desc, NULL,
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
 * bytes, maximally aligned), referring to them by pointer, or with
 * as_offsets by their offsets from keys (to cross into another process's
 * memory, where bp_slot_resolve_offsets turns them back into pointers).
 * A key with a 4-byte header is aligned as its type says.
 */
void
bp_slot_copy_keys(const BpSlotDesc *desc, const char *slot, char *out,
				  char *keys, bool as_offsets)
{
	Size		used = 0;

	memmove(out, slot, desc->width);
	for (int i = 0; desc->has_keys && i < desc->ncolumns; i++)
	{
		char	   *field = out + desc->att_offset[i];
		const char *key;

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, out, i))
			continue;
		key = bp_key_field_value(desc, NULL, field);
		if (!VARATT_IS_SHORT(key))
			used = TYPEALIGN(desc->key_align[i], used);
		if (used + VARSIZE_ANY(key) > BP_KEYS_BUFSIZE)
			elog(ERROR, "bpindex: the keys of a slot exceed %d bytes",
				 BP_KEYS_BUFSIZE);
		memcpy(keys + used, key, VARSIZE_ANY(key));
		bp_set_key_ref(field, as_offsets ? used : (uint64) (uintptr_t) (keys + used));
		used += VARSIZE_ANY(key);
	}
}

/* Point the keys of a slot copied with as_offsets into keys. */
void
bp_slot_resolve_offsets(const BpSlotDesc *desc, char *slot, const char *keys)
{
	for (int i = 0; desc->has_keys && i < desc->ncolumns; i++)
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
	const char *copied = NULL;	/* the key copied last: runs share one */

	for (int k = 0; desc->has_keys && k < n; k++)
	{
		char	   *slot = slots + (Size) k * desc->width;

		for (int i = 0; i < desc->ncolumns; i++)
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
			if (copy_bytes && key != copied)
				memcpy(to + (key - from), key, VARSIZE_ANY(key));
			copied = key;
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
 * Which columns can be packed, and how: every key column needs an
 * order-preserving image (integer-like, float, bool) or bytewise order
 * (uuid), or is a variable-length key, whose code is its offset in the
 * key area; an INCLUDE column an exact image or at most 16 bytes
 * (included_column_kind).
 */
static void
init_column_codes(BpSlotDesc *desc)
{
	desc->packable = desc->ncolumns <= BPC_MAX_COLUMNS;
	desc->columns.natts = desc->ncolumns;
	desc->columns.nkeys = desc->natts;
	for (int i = 0; i < desc->ncolumns; i++)
	{
		desc->columns.kind[i] = BPC_INTEGER;
		desc->columns.length[i] = 0;
		desc->columns.nulls_first[i] = desc->nulls_first[i];
		if (desc->att_len[i] == -1)
		{
			/* leaves of keys compare decoded entries, never codes */
			desc->columns.kind[i] = BPC_BYTES;
			desc->columns.length[i] = KEY_OFFSET_CODE_SIZE +
				(i == 0 ? KEY_WINDOW_SIZE : 0);
		}
		else if (desc->cmp_kind[i] == BP_CMP_BYTES && desc->att_len[i] <= BPC_MAX_BYTES)
		{
			desc->columns.kind[i] = BPC_BYTES;
			desc->columns.length[i] = (uint8) desc->att_len[i];
			/* bytes codes keep the bytes' order, NULLs last */
			if (desc->reverse[i] || desc->nulls_first[i])
				desc->packable = false;
		}
		else if (desc->cmp_kind[i] == BP_CMP_FMGR || desc->cmp_kind[i] == BP_CMP_BYTES)
			desc->packable = false;
	}
}

/* Sort n logical slots into the index order (slots: desc->width bytes each). */
void
bp_sort_slots(const BpSlotDesc *desc, char *slots, int n)
{
	bpa_sort_slots(slots, n, desc->width, bp_compare_slots, (void *) desc);
}

/* qsort_arg comparator of slots by heap TID alone. */
static int
compare_slot_tids(const void *a, const void *b, void *arg)
{
	return compare_tids((const char *) a, (const char *) b);
}

/*
 * Sort n logical slots whose keys are all equal into the index order:
 * by heap TID, without comparing keys.
 */
void
bp_sort_slots_by_tid(const BpSlotDesc *desc, char *slots, int n)
{
	bpa_sort_slots(slots, n, desc->width, compare_slot_tids, NULL);
}

/* The order-preserving image of a float's bits (sign flipped). */
static uint64
float_image(uint64 bits, uint64 sign)
{
	return (bits & sign) ? ~bits & (sign | (sign - 1)) : bits | sign;
}

/*
 * The image of a float of width bytes stored at p.  PostgreSQL makes one
 * NaN and compares -0 equal to 0; another NaN's bits or -0 have no exact
 * image (false if exact), else they map to those of its NaN and of 0.
 */
static bool
float_value_image(const char *p, int width, bool exact, uint64 *image)
{
	uint64		sign = width == 4 ? UINT64CONST(0x80000000) : SIGN64;
	uint64		infinity = width == 4 ? UINT64CONST(0x7F800000) :
		UINT64CONST(0x7FF0000000000000);
	uint64		bits = width == 4 ?
		(uint32) DatumGetInt32(bp_fetch_byval(p, 4)) :
		(uint64) DatumGetInt64(bp_fetch_byval(p, 8));
	uint64		nan_bits = width == 4 ?
		(uint32) DatumGetInt32(Float4GetDatum(get_float4_nan())) :
		(uint64) DatumGetInt64(Float8GetDatum(get_float8_nan()));
	bool		is_nan = (bits & ~sign) > infinity;

	if ((is_nan && bits != nan_bits) || bits == sign)
	{
		if (exact)
			return false;
		bits = is_nan ? nan_bits : 0;
	}
	*image = float_image(bits, sign);
	return true;
}

/* The bits of a float from its image. */
uint64
bp_float_bits(uint64 image, uint64 sign)
{
	return (image & sign) ? image & ~sign : ~image & (sign | (sign - 1));
}

/*
 * The image of a column value stored at p.  exact: false for a float the
 * image cannot give back bit for bit (-0, a NaN other than PostgreSQL's);
 * otherwise those map to the image of a value equal to them (0, NaN).
 */
bool
bp_value_image(BpCompareKind kind, const char *p, bool exact, uint64 *image)
{
	switch (kind)
	{
		case BP_CMP_INT2:
			*image = (uint64) (int64) DatumGetInt16(bp_fetch_byval(p, 2)) ^ SIGN64;
			return true;
		case BP_CMP_INT4:
			*image = (uint64) (int64) DatumGetInt32(bp_fetch_byval(p, 4)) ^ SIGN64;
			return true;
		case BP_CMP_INT8:
			*image = (uint64) DatumGetInt64(bp_fetch_byval(p, 8)) ^ SIGN64;
			return true;
		case BP_CMP_UINT32:
			*image = DatumGetObjectId(bp_fetch_byval(p, 4));
			return true;
		case BP_CMP_BOOL:
			*image = *p != 0;
			return true;
		case BP_CMP_FLOAT4:
			return float_value_image(p, 4, exact, image);
		case BP_CMP_FLOAT8:
			return float_value_image(p, 8, exact, image);
		case BP_CMP_BYTES:
		case BP_CMP_PREFIX:
		case BP_CMP_FMGR:
			break;
	}
	return false;
}

/*
 * The order-preserving image of a value of a column of this kind and
 * length, passed by value; false if the kind has none (bytes, fmgr).
 */
bool
bp_datum_image(BpCompareKind kind, int16 len, Datum value, uint64 *image)
{
	char		stored[8];

	if (len != 1 && len != 2 && len != 4 && len != 8)
		return false;
	store_byval(stored, value, len);
	return bp_value_image(kind, stored, false, image);
}
