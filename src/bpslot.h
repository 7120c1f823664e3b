/*-------------------------------------------------------------------------
 *
 * bpslot.h
 *	  Slots: the fixed-width form of an index entry, its description
 *	  (BpSlotDesc), and how slots and their key fields are read and compared.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPSLOT_H
#define BPSLOT_H

#include "access/itup.h"
#include "fmgr.h"
#include "port/pg_bswap.h"
#include "utils/float.h"
#include "utils/relcache.h"

#include "bpcodec.h"
#include "bpcompat.h"

/* Widest slot an index may have (four must fit an internal page). */
#define BP_MAX_SLOT_WIDTH		(BLCKSZ / 4)

/* How one key column compares: inline for common types, else by fmgr. */
typedef enum BpCompareKind
{
	BP_CMP_FMGR,				/* call support function 1 */
	BP_CMP_INT2,
	BP_CMP_INT4,				/* int4, date */
	BP_CMP_INT8,				/* int8, timestamp, timestamptz, time, money */
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
 * prefix its fences share (bpleafplan.c); a fence cut to the shortest prefix
 * would often share one byte less with the other fence than the leaf's
 * keys do, and make the windows start too soon to tell keys apart.
 */
#define BP_SEPARATOR_SLACK	2

/*
 * Ceiling of the sum of the variable-length keys of an entry, in bytes
 * with their headers as a key area stores them (an index's own limit,
 * BpSlotDesc.max_key_bytes, is at most this: bp_max_key_bytes); and room for
 * such keys elsewhere (headers of 4 bytes, each key aligned for its type).
 */
#define BP_MAX_KEY_SIZE		(BLCKSZ / 3)
#define BP_KEYS_BUFSIZE		(BP_MAX_KEY_SIZE + 16 * INDEX_MAX_KEYS)

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
	Size		max_key_bytes;	/* an entry's keys at most (bp_max_key_bytes) */
	bool		blank_padded[INDEX_MAX_KEYS];	/* bpchar: prefixes skip
												 * trailing blanks */
	bool		equal_bytes[INDEX_MAX_KEYS];	/* keys are equal only if
												 * their bytes are (text
												 * under a deterministic
												 * collation, bytea) */
	/*
	 * How a key area stores the keys of a variable-length column: a key
	 * with a 4-byte header at the type's alignment (at least an int's), so
	 * that the type's functions may read it in place; a 4-byte header for
	 * every key of a type of plain storage (oidvector), whose functions
	 * read its values without detoasting them.
	 */
	uint8		key_align[INDEX_MAX_KEYS];
	bool		key_plain[INDEX_MAX_KEYS];
	Oid			index_oid;		/* for errors */
	Oid			collation[INDEX_MAX_KEYS];
	FmgrInfo   *cmp_proc[INDEX_MAX_KEYS];	/* support function 1 */
	/* text and bpchar key columns: their sort support (key_column_order) */
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

/*
 * A buffer for the keys of a slot copied with bp_slot_copy_keys: NULL
 * where the slots have no keys (the copy never touches it then).
 */
static inline char *
bp_keys_buffer(const BpSlotDesc *desc)
{
	return desc->has_keys ? (char *) palloc(BP_KEYS_BUFSIZE) : NULL;
}

extern const char *bp_page_key(const BpSlotDesc *desc, const char *page,
							   uint64 offset);
extern void bp_report_key_pointer(uint64 ref);

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
 * Is a key (a varlena as a key area or a logical slot holds it) stored
 * compressed?  Only keys too long for the index otherwise are
 * (bp_form_slot).  Their bytes are not their data: comparisons detoast
 * them, and the paths that read key bytes (packed leaves, shortened
 * separators, shared prefixes) leave them out.
 */
static inline bool
bp_key_compressed(const char *key)
{
	return VARATT_IS_4B_C(key);
}

/*
 * The bytes of a key (a varlena of column att, not compressed) that order
 * and identify it: its data without a bpchar's trailing blanks; their
 * count in *len.
 */
static inline const char *
bp_key_data(const BpSlotDesc *desc, int att, const char *key, Size *len)
{
	const char *data = VARDATA_ANY(key);

	Assert(!VARATT_IS_4B_C(key));

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

/* Does kind compare integers (int2, int4, int8, unsigned 32-bit)? */
static inline bool
bp_integer_kind(BpCompareKind kind)
{
	return kind == BP_CMP_INT2 || kind == BP_CMP_INT4 || kind == BP_CMP_INT8 ||
		kind == BP_CMP_UINT32;
}

/*
 * The value of a datum of an integer-like comparison kind (bp_integer_kind,
 * or bool), widened to int64.
 */
static inline int64
bp_integer_datum(BpCompareKind kind, Datum value)
{
	switch (kind)
	{
		case BP_CMP_INT2:
			return DatumGetInt16(value);
		case BP_CMP_INT4:
			return DatumGetInt32(value);
		case BP_CMP_UINT32:
			return DatumGetObjectId(value);
		case BP_CMP_BOOL:
			return DatumGetBool(value);
		default:
			return DatumGetInt64(value);
	}
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

/*
 * The code of a variable-length key in a packed leaf ends with the key's
 * offset in the page's key area, big-endian.  The first column's code
 * starts with a window of the key: KEY_WINDOW_SIZE bytes from the leaf's
 * window start (the length of the prefix its fences share, when the order
 * is bytewise), zero-padded, which decides most comparisons without
 * reading the key (key_window_start).
 */
#define KEY_OFFSET_CODE_SIZE	2
#define KEY_WINDOW_SIZE			2

extern bool bp_keys_equal(const char *a, const char *b);
extern const char *bp_key_uncompressed(const char *key);
extern Size bp_keys_common_prefix(const char *a, const char *b,
								  bool blank_padded);
extern bool bp_key_order_bytewise(Oid proc, Oid collation,
								  bool code_point_libc);
extern void bp_init_slot_desc(Relation index, BpSlotDesc *desc,
							  bool code_point_libc);
extern BpCompareKind bp_compare_kind(Oid proc);
extern int	bp_compare_slot_keys(const BpSlotDesc *desc, const char *a,
								 const char *b);
extern int	bp_compare_slot_prefix(const BpSlotDesc *desc, int ncolumns,
								   const char *a, const char *b);
extern int	bp_compare_slots(const void *a, const void *b, void *arg);
extern void bp_separator(const BpSlotDesc *desc, const char *left,
						 const char *right, char *sep);
extern int	bp_compare_page_slots(const BpSlotDesc *desc, const char *page_a,
								  const char *page_b, const char *a,
								  const char *b);
extern bool bp_key_stored_long(const BpSlotDesc *desc, int att,
							   const char *key);
extern Size bp_key_stored_size(const BpSlotDesc *desc, int att,
							   const char *key);
extern Size bp_slot_keys_size(const BpSlotDesc *desc, const char *slot);
extern Size bp_slot_new_keys_size(const BpSlotDesc *desc, const char *slot,
								  const char *prev);
extern bool bp_slot_key_prefixes_valid(const BpSlotDesc *desc,
									   const char *slot);
extern void bp_key_prefix(const BpSlotDesc *desc, int att, char *field,
						  const char *key);
extern void bp_form_slot(const BpSlotDesc *desc, char *slot, Datum *values,
						 bool *isnull, ItemPointer tid);
extern void bp_slot_deform(const BpSlotDesc *desc, const char *slot,
						   Datum *values, bool *isnull);
extern void bp_sort_slots(const BpSlotDesc *desc, char *slots, int n);
extern void bp_sort_slots_by_tid(const BpSlotDesc *desc, char *slots, int n);
extern uint16 bp_slot_layout(int natts, const int16 *lengths,
							 const bool *byvals, const char *aligns,
							 uint16 *offsets);
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

extern uint64 bp_float_bits(uint64 image, uint64 sign);

extern bool bp_datum_image(BpCompareKind kind, int16 len, Datum value,
						   uint64 *image);

extern bool bp_value_image(BpCompareKind kind, const char *p, bool exact,
						   uint64 *image);

#endif							/* BPSLOT_H */
