/*-------------------------------------------------------------------------
 *
 * bpleaf.c
 *	  The one owner of a leaf's bytes: its layout, its codec, its dead marks,
 *	  and every read and write of its entries.
 *
 * A leaf page holds, after the page header:
 *
 *	 low key | high key		two logical slots (the fences)
 *	 BpLeafHeader			the leaf's encoding
 *	 codec					bpc_stored_size(ncolumns) bytes (bpcodec.h)
 *	 BPA region				entries of the leaf's own width
 *	 dead marks				in the page's hole, up to the special space
 *
 * An encoding is packed (entries encoded by the codec, ordered by memcmp)
 * or plain (entries are logical slots, ordered by the operator classes).
 * Every leaf chooses its own when it is filled (build, split, re-encode):
 * packed whenever the index's columns have order-preserving images and
 * the codec is narrower than a logical slot, plain otherwise (and for the
 * rare float keys that have no image: -0 and NaNs other than the one
 * PostgreSQL makes, whose bits an index must give back unchanged).
 *
 * The rest of the access method reads and writes entries as logical slots
 * through the functions below and never sees an encoded entry, except
 * the insert path, which hands the BPA an entry encoded by
 * bp_leaf_encode() (and learns from it when the leaf must re-encode).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/itup.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "bpindex.h"

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

#define SIGN64		(UINT64CONST(1) << 63)


/*
 * Leaves strip the prefix their keys share only when it has at least this
 * many bytes: every read of a stripped entry rebuilds its key whole, which
 * costs a range scan more than the fewer pages of a shorter prefix save.
 */
#define MIN_KEY_STRIP		8

/* Bytes of the chunks that keys read whole from a leaf are rebuilt in. */
#define REBUILT_CHUNK_SIZE	8192

/* Bytes of keys a keyed leaf plans for each entry before it has any. */
#define DEFAULT_ENTRY_KEY_BYTES	16

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

/* Bytes of a leaf page before its BPA region, for ncolumns columns. */
static Size
prefix_size(int ncolumns, uint16 slot_width)
{
	return bp_fences_size(slot_width) + sizeof(BpLeafHeader) +
		bpc_stored_size(ncolumns);
}

/* Bytes of a leaf page before its BPA region. */
static Size
leaf_prefix_size(const BpSlotDesc *desc)
{
	return prefix_size(desc->ncolumns, desc->width);
}

/* Bytes of the dead marks of a leaf whose entries take width bytes. */
static Size
marks_size(Size prefix, uint16 width)
{
	return ((bp_page_content_size() - prefix) / width + 7) / 8;
}

/* Bytes of the dead marks of a leaf whose entries take width bytes. */
static Size
dead_marks_size(const BpSlotDesc *desc, uint16 width)
{
	return marks_size(leaf_prefix_size(desc), width);
}

/*
 * Bytes a leaf of an index of ncolumns columns and slot_width-byte logical
 * slots has for its BPA region when its entries take entry_width bytes.
 */
Size
bp_leaf_room(int ncolumns, uint16 slot_width, uint16 entry_width)
{
	Size		prefix = prefix_size(ncolumns, slot_width);

	return bp_page_content_size() - prefix - marks_size(prefix, entry_width);
}

/* Bytes a leaf whose entries take width bytes has for its BPA region. */
Size
bp_leaf_region_room(const BpSlotDesc *desc, uint16 width)
{
	return bp_leaf_room(desc->ncolumns, desc->width, width);
}

/*
 * The layout of a plain leaf (logical slots of width bytes, ncolumns columns)
 * under these options; false if it does not fit.
 */
bool
bp_choose_plain_layout(const BpOptions *opts, int ncolumns, uint16 width,
					   BpaLayout *layout)
{
	return bp_choose_leaf_layout(opts, width, bp_leaf_room(ncolumns, width, width),
								 layout);
}

/* The leaf header of a leaf page. */
static BpLeafHeader *
leaf_header(Page page, const BpSlotDesc *desc)
{
	return (BpLeafHeader *) (PageGetContents(page) + bp_fences_size(desc->width));
}

/* The stored codec of a leaf page. */
static uint8 *
leaf_codec_bytes(Page page, const BpSlotDesc *desc)
{
	return (uint8 *) leaf_header(page, desc) + sizeof(BpLeafHeader);
}

/* The BPA region of a leaf page. */
static char *
leaf_region(Page page, const BpSlotDesc *desc)
{
	return PageGetContents(page) + leaf_prefix_size(desc);
}

/*
 * Which columns can be packed, and how: every key column needs an
 * order-preserving image (integer-like, float, bool) or bytewise order
 * (uuid), or is a variable-length key, whose code is its offset in the
 * key area; an INCLUDE column an exact image or at most 16 bytes
 * (included_column_kind).
 */
void
bp_leaf_init_columns(BpSlotDesc *desc)
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

/* The order-preserving image of a float's bits (sign flipped). */
static inline uint64
float_image(uint64 bits, uint64 sign)
{
	return (bits & sign) ? ~bits & (sign | (sign - 1)) : bits | sign;
}

/* The bits of a float from its image. */
static inline uint64
float_bits(uint64 image, uint64 sign)
{
	return (image & sign) ? image & ~sign : ~image & (sign | (sign - 1));
}

/*
 * The image of a column value stored at p.  exact: false for a float the
 * image cannot give back bit for bit (-0, a NaN other than PostgreSQL's);
 * otherwise those map to the image of a value equal to them (0, NaN).
 */
static bool
value_image(BpCompareKind kind, const char *p, bool exact, uint64 *image)
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
			{
				uint32		bits;
				float4		v;
				float4		nan = get_float4_nan();

				memcpy(&bits, p, 4);
				memcpy(&v, p, 4);
				if ((isnan(v) && memcmp(&v, &nan, 4) != 0) ||
					(v == 0 && (bits & 0x80000000)))
				{
					if (exact)
						return false;
					bits = 0;
					if (isnan(v))
						memcpy(&bits, &nan, 4);
				}
				*image = float_image(bits, UINT64CONST(0x80000000));
				return true;
			}
		case BP_CMP_FLOAT8:
			{
				uint64		bits;
				float8		v;
				float8		nan = get_float8_nan();

				memcpy(&bits, p, 8);
				memcpy(&v, p, 8);
				if ((isnan(v) && memcmp(&v, &nan, 8) != 0) ||
					(v == 0 && (bits & SIGN64)))
				{
					if (exact)
						return false;
					bits = 0;
					if (isnan(v))
						memcpy(&bits, &nan, 8);
				}
				*image = float_image(bits, SIGN64);
				return true;
			}
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
bp_leaf_datum_image(BpCompareKind kind, int16 len, Datum value, uint64 *image)
{
	char		stored[8];

	if (len != 1 && len != 2 && len != 4 && len != 8)
		return false;
	bp_store_byval(stored, value, len);
	return value_image(kind, stored, false, image);
}

/* Store at p the column value whose image is image. */
static pg_attribute_always_inline void
store_image(BpCompareKind kind, uint64 image, char *p)
{
	switch (kind)
	{
		case BP_CMP_INT2:
			{
				int16		v = (int16) (int64) (image ^ SIGN64);

				memcpy(p, &v, 2);
				break;
			}
		case BP_CMP_INT4:
			{
				int32		v = (int32) (int64) (image ^ SIGN64);

				memcpy(p, &v, 4);
				break;
			}
		case BP_CMP_INT8:
			{
				int64		v = (int64) (image ^ SIGN64);

				memcpy(p, &v, 8);
				break;
			}
		case BP_CMP_UINT32:
			{
				uint32		v = (uint32) image;

				memcpy(p, &v, 4);
				break;
			}
		case BP_CMP_BOOL:
			*p = image != 0;
			break;
		case BP_CMP_FLOAT4:
			{
				uint32		bits = (uint32) float_bits(image, UINT64CONST(0x80000000));

				memcpy(p, &bits, 4);
				break;
			}
		case BP_CMP_FLOAT8:
			{
				uint64		bits = float_bits(image, SIGN64);

				memcpy(p, &bits, 8);
				break;
			}
		case BP_CMP_BYTES:
		case BP_CMP_PREFIX:
		case BP_CMP_FMGR:
			elog(ERROR, "bpindex: no image for comparison kind %d", kind);
	}
}

/*
 * The image of column att as its codes order it: complemented on a DESC
 * column, so that codes ascend in index order.  Its own inverse.
 */
static inline uint64
index_order_image(const BpSlotDesc *desc, int att, uint64 image)
{
	return desc->reverse[att] ? ~image : image;
}

/*
 * Do the windows of the first column's keys follow the index order?  They
 * do for a key in bytewise order, ascending, NULLs last, whose leaves'
 * windows start after the prefix the fences share (window_start_ordered).
 * Other keys' windows only tell unequal keys apart.
 */
static inline bool
windows_ordered(const BpSlotDesc *desc)
{
	return desc->att_len[0] == -1 && desc->cmp_kind[0] == BP_CMP_PREFIX &&
		!desc->reverse[0] && !desc->nulls_first[0];
}

/*
 * The window of a key (a varlena) from window_start: KEY_WINDOW_SIZE bytes,
 * zero-padded, without a bpchar's trailing blanks.
 */
static inline void
key_window(const BpSlotDesc *desc, const char *key, uint16 window_start,
		   uint8 *window)
{
	Size		len;
	const char *data = bp_key_data(desc, 0, key, &len);

	memset(window, 0, KEY_WINDOW_SIZE);
	if (len > window_start)
		memcpy(window, data + window_start, Min(len - window_start, KEY_WINDOW_SIZE));
}

/*
 * The code of a variable-length key column att of slot into bytes: the
 * key's window (column 0) and its offset, if the slot is stored in page
 * (its keys offsets there, the first column's stored without its first
 * key_strip bytes), else 0 (a slot in memory, whose place in a leaf is
 * not known yet; every offset takes the same bytes).
 */
static void
key_code(const BpSlotDesc *desc, const char *slot, int att, const char *page,
		 uint16 window_start, uint16 key_strip, uint8 *bytes)
{
	uint64		ref = bp_key_ref(slot + desc->att_offset[att]);
	uint16		key_offset = ref < BLCKSZ ? (uint16) ref : 0;
	int			length = desc->columns.length[att];

	if (length > KEY_OFFSET_CODE_SIZE && ref < BLCKSZ)
		key_window(desc, bp_page_key(desc, page, ref),
				   window_start - (att == 0 ? key_strip : 0), bytes);
	else if (length > KEY_OFFSET_CODE_SIZE)
		key_window(desc, (const char *) (uintptr_t) ref, window_start, bytes);
	bytes[length - 2] = (uint8) (key_offset >> 8);
	bytes[length - 1] = (uint8) key_offset;
}

/*
 * The codec's view of a logical slot: its column values and heap TID.
 * False if a column has no image.  Variable-length keys: key_code, for a
 * leaf whose window starts at window_start and that stores its entries'
 * first keys without key_strip bytes.
 */
static bool
slot_values(const BpSlotDesc *desc, const char *slot, const char *page,
			uint16 window_start, uint16 key_strip, BpcValue *values,
			uint32 *block, uint16 *offset)
{
	ItemPointerData tid = bp_slot_tid(slot);

	*block = ItemPointerGetBlockNumberNoCheck(&tid);
	*offset = ItemPointerGetOffsetNumberNoCheck(&tid);
	for (int i = 0; i < desc->ncolumns; i++)
	{
		const char *p = slot + desc->att_offset[i];

		values[i].isnull = bp_slot_isnull(desc, slot, i);
		values[i].image = 0;
		if (values[i].isnull)
			continue;
		if (desc->att_len[i] == -1)
			key_code(desc, slot, i, page, window_start, key_strip,
					 values[i].bytes);
		else if (desc->columns.kind[i] == BPC_BYTES)
			memcpy(values[i].bytes, p, desc->columns.length[i]);
		else if (!value_image(desc->cmp_kind[i], p, true, &values[i].image))
			return false;
		else
			values[i].image = index_order_image(desc, i, values[i].image);
	}
	return true;
}

/*
 * Decode an encoded entry of a leaf with a single integer column into the
 * logical slot out.
 */
static pg_attribute_always_inline void
decode_integer_entry(const BpLeaf *leaf, const char *encoded, char *out)
{
	const BpSlotDesc *desc = leaf->desc;
	uint64		image;
	uint32		block;
	uint16		offset;
	ItemPointer tid = (ItemPointer) out;
	bool		isnull = bpc_decode_integer(&leaf->codec, (const uint8 *) encoded,
											&image, &block, &offset);
	int			key_end = desc->att_offset[0] + desc->att_len[0];

	/* the TID fills the slot up to the key, the key the rest but padding */
	Assert(desc->att_offset[0] == sizeof(ItemPointerData));
	ItemPointerSetBlockNumber(tid, block);
	tid->ip_posid = offset;
	if (isnull)
	{
		tid->ip_posid |= (uint16) (1 << BP_TID_NULL_SHIFT);
		memset(out + desc->att_offset[0], 0, desc->att_len[0]);
	}
	else
		store_image(desc->cmp_kind[0], index_order_image(desc, 0, image),
					out + desc->att_offset[0]);
	if (key_end < desc->width)
		memset(out + key_end, 0, desc->width - key_end);
}

/* Decode an encoded entry of a leaf of any columns into the logical slot out. */
static pg_noinline void
decode_columns_entry(const BpLeaf *leaf, const char *encoded, char *out)
{
	const BpSlotDesc *desc = leaf->desc;
	BpcValue	values[BPC_MAX_COLUMNS];
	uint32		block;
	uint16		offset;
	ItemPointer tid = (ItemPointer) out;

	bpc_decode(&leaf->codec, (const uint8 *) encoded, values, &block, &offset);
	memset(out, 0, desc->width);
	ItemPointerSetBlockNumber(tid, block);
	tid->ip_posid = offset;
	for (int i = 0; i < desc->ncolumns; i++)
	{
		char	   *p = out + desc->att_offset[i];

		if (values[i].isnull)
			bp_slot_set_null(desc, out, i);
		else if (desc->columns.kind[i] == BPC_BYTES)
			memcpy(p, values[i].bytes, desc->columns.length[i]);
		else
			store_image(desc->cmp_kind[i],
						index_order_image(desc, i, values[i].image), p);
	}
}

/* The key offset at the end of a variable-length key's code of length bytes. */
static inline uint16
code_key_offset(const uint8 *code, int length)
{
	return (uint16) ((code[length - 2] << 8) | code[length - 1]);
}

/*
 * The shared prefix of the keys of a packed leaf: the start of the key at
 * its prefix_offset (its low fence's when the leaf was filled), whose
 * first window_start bytes every key of the leaf has (key_window_start);
 * "" when the windows start at 0.  Read once per opening of the leaf.
 */
static const char *
shared_prefix(const BpLeaf *leaf)
{
	const BpSlotDesc *desc = leaf->desc;
	uint16		offset = leaf_header(leaf->page, desc)->prefix_offset;
	const char *key;

	if (leaf->window_start == 0)
		return "";
	if (leaf->prefix != NULL)
		return leaf->prefix;
	if (offset == 0)
		offset = bp_key_ref(bp_page_lowkey(leaf->page) + desc->att_offset[0]);
	key = bp_page_key(leaf->desc, leaf->page, offset);
	if (VARSIZE_ANY_EXHDR(key) < leaf->window_start)
	{
		char	   *name = get_rel_name(desc->index_oid);

		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" contains a leaf whose key windows start beyond its prefix key",
						name ? name : "?"),
				 errhint("Please REINDEX the index.")));
	}
	unconstify(BpLeaf *, leaf)->prefix = VARDATA_ANY(key);
	return leaf->prefix;
}

/*
 * Where key data of len bytes lies against the first n bytes of the
 * leaf's shared prefix: -1 below, 1 above, 0 if it starts with them.
 */
static int
side_of_prefix(const BpLeaf *leaf, const char *data, Size len, Size n)
{
	int			c = memcmp(data, shared_prefix(leaf), Min(len, n));

	if (c == 0 && len < n)
		return -1;				/* a proper prefix of the shared one */
	return (c > 0) - (c < 0);
}

/*
 * Room for size bytes (a key rebuilt whole) in leaf->key_cxt, carved from
 * chunks of REBUILT_CHUNK_SIZE bytes, which live as long as that context.
 */
static char *
rebuilt_key_space(const BpLeaf *leaf, Size size)
{
	BpLeaf	   *owner = unconstify(BpLeaf *, leaf);
	char	   *space;

	size = MAXALIGN(size);
	if (owner->rebuilt_next == NULL ||
		(Size) (owner->rebuilt_end - owner->rebuilt_next) < size)
	{
		Size		chunk = Max(size, REBUILT_CHUNK_SIZE);

		owner->rebuilt_next = MemoryContextAlloc(leaf->key_cxt, chunk);
		owner->rebuilt_end = owner->rebuilt_next + chunk;
	}
	space = owner->rebuilt_next;
	owner->rebuilt_next += size;
	return space;
}

/*
 * The whole first key of an entry of a leaf that stores such keys without
 * their shared prefix, from the part stored at key_offset: rebuilt in
 * leaf->key_cxt.
 */
static const char *
whole_entry_key(const BpLeaf *leaf, uint16 key_offset)
{
	const char *stored = bp_page_key(leaf->desc, leaf->page, key_offset);
	Size		len = VARSIZE_ANY_EXHDR(stored);
	Size		size = VARHDRSZ + leaf->key_strip + len;
	char	   *key = rebuilt_key_space(leaf, size);

	SET_VARSIZE(key, size);
	memcpy(VARDATA(key), shared_prefix(leaf), leaf->key_strip);
	memcpy(VARDATA(key) + leaf->key_strip, VARDATA_ANY(stored), len);
	return key;
}

/*
 * Fill the key field of column att of a logical slot decoded from the
 * leaf with the key at key_offset of its key area: its prefix, and a
 * pointer into leaf->keys (or to the key rebuilt whole, whole_entry_key).
 */
static inline void
set_decoded_key(const BpLeaf *leaf, int att, char *field, uint16 key_offset)
{
	const char *key;

	if (att == 0 && leaf->key_strip > 0)
		key = whole_entry_key(leaf, key_offset);
	else
	{
		bp_page_key(leaf->desc, leaf->page, key_offset);
		key = leaf->keys + key_offset;
	}
	bp_key_prefix(leaf->desc, att, field, key);
	bp_set_key_ref(field, (uint64) (uintptr_t) key);
}

/*
 * Turn the key codes that decode_columns_entry left in the key fields of
 * the logical slot out (offsets in the leaf's key area) into key fields:
 * the key's prefix and a pointer into leaf->keys.
 */
static void
resolve_key_codes(const BpLeaf *leaf, char *out)
{
	const BpSlotDesc *desc = leaf->desc;

	for (int i = 0; i < desc->natts; i++)
	{
		char	   *field = out + desc->att_offset[i];

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, out, i))
			continue;
		set_decoded_key(leaf, i, field,
						code_key_offset((const uint8 *) field, desc->columns.length[i]));
	}
}

/*
 * The code of the first column (a key) of a stored entry of a packed
 * keyed leaf: its window, then its offset; NULL if the key is NULL.
 */
static inline const uint8 *
first_key_code(const BpLeaf *leaf, const char *stored)
{
	const uint8 *code = (const uint8 *) stored;

	if (leaf->codec.att_flags[0] & BPC_ATT_NULL_BYTE)
	{
		if (*code != 0)
			return NULL;
		code++;
	}
	return code;
}

/* The key a first column's code refers to, in the leaf's page. */
static inline const char *
first_code_key(const BpLeaf *leaf, const uint8 *code)
{
	return bp_page_key(leaf->desc, leaf->page,
					   code_key_offset(code, leaf->desc->columns.length[0]));
}

/*
 * Decode an encoded entry of a packed leaf whose one column is a key (no
 * INCLUDE column) into the logical slot out, its key pointing into
 * leaf->keys.
 */
static void
decode_key_entry(const BpLeaf *leaf, const char *encoded, char *out)
{
	const BpSlotDesc *desc = leaf->desc;
	const uint8 *code = first_key_code(leaf, encoded);
	char	   *field = out + desc->att_offset[0];
	ItemPointer tid = (ItemPointer) out;
	uint32		block;
	uint16		offset;

	bpc_decode_tid(&leaf->codec, (const uint8 *) encoded, &block, &offset);
	memset(out, 0, desc->width);
	ItemPointerSetBlockNumber(tid, block);
	tid->ip_posid = offset;
	if (code == NULL)
		bp_slot_set_null(desc, out, 0);
	else
		set_decoded_key(leaf, 0, field, code_key_offset(code, desc->columns.length[0]));
}

/*
 * Decode a stored entry of leaf into the logical slot out: a packed one
 * by its codec, a keyed one with its keys pointing into leaf->keys.
 */
static inline void
decode_entry(const BpLeaf *leaf, const char *encoded, char *out)
{
	if (!leaf->packed)
		bp_slot_from_page(leaf->desc, leaf->page, leaf->keys, encoded, out);
	else if (leaf->codec.natts == 1 && leaf->codec.att_kind[0] == BPC_INTEGER)
		decode_integer_entry(leaf, encoded, out);
	else if (leaf->codec.natts == 1 && leaf->keyed)
		decode_key_entry(leaf, encoded, out);
	else
	{
		decode_columns_entry(leaf, encoded, out);
		if (leaf->keyed)
			resolve_key_codes(leaf, out);
	}
}

/*
 * Decode n consecutive encoded entries of leaf into consecutive logical
 * slots at out; a leaf of one integer column in a loop of its own.
 */
static void
decode_entries(const BpLeaf *leaf, const char *encoded, int n, char *out)
{
	uint16		slot_width = leaf->desc->width;

	if (!leaf->packed || leaf->keyed)
	{
		for (int i = 0; i < n; i++)
			decode_entry(leaf, encoded + (Size) i * leaf->width,
						 out + (Size) i * slot_width);
		return;
	}
	if (leaf->codec.natts == 1 && leaf->codec.att_kind[0] == BPC_INTEGER)
	{
		for (int i = 0; i < n; i++)
			decode_integer_entry(leaf, encoded + (Size) i * leaf->width,
								 out + (Size) i * slot_width);
		return;
	}
	for (int i = 0; i < n; i++)
		decode_columns_entry(leaf, encoded + (Size) i * leaf->width,
							 out + (Size) i * slot_width);
}

/* Comparator of packed entries: memcmp over the codec's width. */
static int
compare_packed(const void *a, const void *b, void *arg)
{
	int			c = memcmp(a, b, *(const uint16 *) arg);

	return (c > 0) - (c < 0);
}

/*
 * Comparator of the entries of a keyed leaf, whose keys are offsets in
 * its page (or pointers, for a logical slot compared with them).
 */
static int
compare_keyed(const void *a, const void *b, void *arg)
{
	const BpLeaf *leaf = (const BpLeaf *) arg;

	return bp_compare_page_slots(leaf->desc,
								 a == leaf->probe ? NULL : leaf->page,
								 b == leaf->probe ? NULL : leaf->page, a, b);
}

/*
 * Where the whole key data (len bytes) of the leaf's probe lies against
 * the prefix the leaf's stored keys are stripped of: -1 below, 1 above,
 * or 0 with data and len moved past it, as the stored keys are.
 */
static int
strip_probe_key(const BpLeaf *leaf, const char **data, Size *len)
{
	int			side = side_of_prefix(leaf, *data, *len, leaf->key_strip);

	if (side != 0)
		return side;
	*data += leaf->key_strip;
	*len -= leaf->key_strip;
	return 0;
}

/*
 * The key of the first column of an entry of a packed keyed leaf (stored,
 * or the leaf's probe), as the bytes that order it, and its heap TID;
 * false if the key is NULL.  A stored key lacks the leaf's key_strip
 * bytes.
 */
static inline bool
first_key_bytes(const BpLeaf *leaf, const char *entry, const char **data,
				Size *len, uint32 *block, uint16 *offset)
{
	const BpSlotDesc *desc = leaf->desc;
	const char *key;

	if (entry == leaf->probe)
	{
		ItemPointerData tid = bp_slot_tid(entry);

		*block = ItemPointerGetBlockNumberNoCheck(&tid);
		*offset = ItemPointerGetOffsetNumberNoCheck(&tid);
		if (bp_slot_isnull(desc, entry, 0))
			return false;
		key = bp_key_field_value(desc, NULL, entry + desc->att_offset[0]);
	}
	else
	{
		const uint8 *code = first_key_code(leaf, entry);

		bpc_decode_tid(&leaf->codec, (const uint8 *) entry, block, offset);
		if (code == NULL)
			return false;
		key = first_code_key(leaf, code);
	}
	*data = bp_key_data(desc, 0, key, len);
	return true;
}

/*
 * Comparator of the entries of a packed leaf whose one key column is a
 * variable-length key in bytewise order, ascending, NULLs last: the keys'
 * windows (two stored entries), else their bytes, then the heap TIDs,
 * without decoding the entries.
 */
static int
compare_packed_bytewise(const void *a, const void *b, void *arg)
{
	const BpLeaf *leaf = (const BpLeaf *) arg;
	const char *data_a = NULL;
	const char *data_b = NULL;
	Size		len_a = 0;
	Size		len_b = 0;
	uint32		block_a;
	uint32		block_b;
	uint16		offset_a;
	uint16		offset_b;
	bool		value_a;
	bool		value_b;

	if (a != leaf->probe && b != leaf->probe)
	{
		const uint8 *code_a = first_key_code(leaf, a);
		const uint8 *code_b = first_key_code(leaf, b);
		int			c;

		if (code_a != NULL && code_b != NULL &&
			(c = memcmp(code_a, code_b, KEY_WINDOW_SIZE)) != 0)
			return c > 0 ? 1 : -1;
	}
	value_a = first_key_bytes(leaf, a, &data_a, &len_a, &block_a, &offset_a);
	value_b = first_key_bytes(leaf, b, &data_b, &len_b, &block_b, &offset_b);
	if (value_a != value_b)
		return value_a ? -1 : 1;
	if (value_a && leaf->key_strip > 0 && (a == leaf->probe) != (b == leaf->probe))
	{
		/* the probe's key, whole, against stored keys without the prefix */
		int			side = a == leaf->probe ?
			strip_probe_key(leaf, &data_a, &len_a) :
			-strip_probe_key(leaf, &data_b, &len_b);

		if (side != 0)
			return side;
	}
	if (value_a)
	{
		int			c = memcmp(data_a, data_b, Min(len_a, len_b));

		if (c != 0)
			return c > 0 ? 1 : -1;
		if (len_a != len_b)
			return len_a < len_b ? -1 : 1;
	}
	if (block_a != block_b)
		return block_a < block_b ? -1 : 1;
	return (offset_a > offset_b) - (offset_a < offset_b);
}

/*
 * Comparator of the entries of a packed keyed leaf: decoded, since codes
 * of keys are offsets (a logical slot compared with them is the leaf's
 * probe).
 */
static int
compare_packed_keyed(const void *a, const void *b, void *arg)
{
	const BpLeaf *leaf = (const BpLeaf *) arg;
	char		slot_a[BP_MAX_SLOT_WIDTH];
	char		slot_b[BP_MAX_SLOT_WIDTH];

	if (a != leaf->probe)
	{
		decode_entry(leaf, a, slot_a);
		a = slot_a;
	}
	if (b != leaf->probe)
	{
		decode_entry(leaf, b, slot_b);
		b = slot_b;
	}
	return bp_compare_slots(a, b, (void *) leaf->desc);
}

/*
 * Is the index's one key column a variable-length key in bytewise order,
 * ascending, NULLs last (compare_packed_bytewise)?
 */
static bool
bytewise_single_key(const BpSlotDesc *desc)
{
	return desc->natts == 1 && windows_ordered(desc);
}

/* Does leaf store its entries in a form other than logical slots? */
static inline bool
leaf_decodes(const BpLeaf *leaf)
{
	return leaf->packed || leaf->keyed;
}

/*
 * Open the leaf in page for reading and writing its entries.  A keyed
 * leaf compares through the BpLeaf, which must stay where it is.  Keys
 * that a leaf stores stripped are rebuilt whole, as its entries are read,
 * in the current memory context, or in the one the caller gives
 * (bp_leaf_rebuild_keys_in).
 */
void
bp_leaf_open(BpLeaf *leaf, Page page, const BpSlotDesc *desc)
{
	leaf->page = page;
	leaf->desc = desc;
	leaf->region = leaf_region(page, desc);
	leaf->keyed = desc->has_keys;
	leaf->keys = page;
	leaf->probe = NULL;
	leaf->packed = leaf_header(page, desc)->encoding == BP_LEAF_PACKED;
	leaf->window_start = leaf_header(page, desc)->window_start;
	leaf->key_strip = (leaf_header(page, desc)->flags & LEAF_KEYS_STRIPPED) ?
		leaf->window_start : 0;
	leaf->key_cxt = CurrentMemoryContext;
	leaf->rebuilt_next = leaf->rebuilt_end = NULL;
	leaf->prefix = NULL;
	if (leaf->packed)
	{
		const char *problem = bpc_load(leaf_codec_bytes(page, desc),
									   desc->ncolumns, &desc->columns,
									   &leaf->codec);

		if (problem)
			elog(ERROR, "bpindex: %s", problem);
		leaf->width = leaf->codec.width;
		leaf->compare = compare_packed;
		leaf->compare_arg = &leaf->codec.width;
		if (leaf->keyed)
		{
			leaf->compare = bytewise_single_key(desc) ?
				compare_packed_bytewise : compare_packed_keyed;
			leaf->compare_arg = leaf;
		}
	}
	else if (leaf->keyed)
	{
		leaf->width = desc->width;
		leaf->compare = compare_keyed;
		leaf->compare_arg = leaf;
	}
	else
	{
		leaf->width = desc->width;
		leaf->compare = bp_compare_slots;
		leaf->compare_arg = (void *) desc;
	}
}

/*
 * Rebuild the keys that the leaf stores stripped, as its entries are read
 * from now on, in cxt, emptied first: the keys of the leaf the caller read
 * before go.
 */
void
bp_leaf_rebuild_keys_in(BpLeaf *leaf, MemoryContext cxt)
{
	MemoryContextReset(cxt);
	leaf->key_cxt = cxt;
	leaf->rebuilt_next = leaf->rebuilt_end = NULL;
}

/*
 * Encode a logical slot by the leaf's codec into out; false if the codec
 * cannot hold it.  Its keys' codes are their offsets if it is stored in
 * the leaf's page, else 0 (slot_values).
 */
static bool
encode_entry(const BpLeaf *leaf, const char *slot, char *out)
{
	BpcValue	values[BPC_MAX_COLUMNS];
	uint32		block;
	uint16		offset;

	return slot_values(leaf->desc, slot, leaf->page, leaf->window_start,
					   leaf->key_strip,
					   values, &block, &offset) &&
		bpc_encode(&leaf->codec, values, block, offset, (uint8 *) out);
}

/* Where the key area of a leaf page may grow down to: its region's end. */
static Size
region_end(const char *page, const char *region)
{
	return (region - page) + bpa_region_size(bpa_layout(region));
}

/* Where the key area of the leaf page may grow down to. */
Size
bp_leaf_key_floor(Page page, const BpSlotDesc *desc)
{
	return region_end(page, leaf_region(page, desc));
}

/*
 * Make the logical slots read from a keyed leaf from now on point their
 * keys into copy (BLCKSZ bytes), where the leaf's key area is copied now
 * at its offsets, so that they outlive the lock or a change of the page.
 */
void
bp_leaf_copy_keys(BpLeaf *leaf, char *copy)
{
	Size		low = BpPageGetOpaque(leaf->page)->key_low;

	if (!leaf->keyed)
		return;
	/* the key area only: the slots' keys are checked against the page */
	memcpy(copy + low, leaf->page + low, ((PageHeader) leaf->page)->pd_lower - low);
	leaf->keys = copy;
}

/*
 * Does the logical slot's first key start with the prefix every key of a
 * packed leaf with ordered windows has (shared_prefix)?  A NULL key, and
 * any key of other leaves, does.  Page deletion may widen a leaf's fences
 * beyond that prefix; a key between them without it re-encodes the leaf.
 */
static bool
has_leaf_prefix(const BpLeaf *leaf, const char *slot)
{
	const char *data;
	Size		len;

	if (!leaf->packed || leaf->window_start == 0 || !windows_ordered(leaf->desc) ||
		bp_slot_isnull(leaf->desc, slot, 0))
		return true;
	data = bp_key_data(leaf->desc, 0,
					   bp_key_field_value(leaf->desc, NULL, slot + leaf->desc->att_offset[0]),
					   &len);
	return side_of_prefix(leaf, data, len, leaf->window_start) == 0;
}

/*
 * Do the keys of the logical slot fit the key area of the leaf, as the
 * leaf stores them (perhaps stripped of its prefix), and does the first
 * start with the prefix the leaf's windows start after (has_leaf_prefix)?
 */
bool
bp_leaf_has_key_room(const BpLeaf *leaf, const char *slot)
{
	Size		size;

	if (!leaf->keyed)
		return true;
	if (!has_leaf_prefix(leaf, slot))
		return false;
	size = bp_slot_keys_size(leaf->desc, slot);
	if (leaf->key_strip > 0 && !bp_slot_isnull(leaf->desc, slot, 0))
		size -= leaf->key_strip;
	return size <= bp_page_key_room(leaf->page, region_end(leaf->page, leaf->region));
}

/*
 * Store the logical slot at dst of a keyed leaf page whose entries' first
 * keys lack their first key_strip bytes, adding its keys to the key area
 * (not below floor) as bp_slot_to_page does, sharing same's key if equal
 * (a slot stored in the page, or NULL).  False if they do not fit.  No
 * allocation: it may run in a critical section.
 */
static bool
store_entry_slot(const BpSlotDesc *desc, Page page, Size floor,
				 uint16 key_strip, const char *slot, const char *same,
				 char *dst)
{
	char		stored[BP_MAX_SLOT_WIDTH];
	char		part[BP_KEYS_BUFSIZE];
	char	   *field = stored + desc->att_offset[0];
	const char *key;
	Size		len;
	Size		offset;

	if (key_strip == 0)
		return bp_slot_to_page(desc, page, floor, slot, same, dst);
	Assert(desc->natts == 1);
	memcpy(stored, slot, desc->width);
	if (!bp_slot_isnull(desc, stored, 0))
	{
		key = bp_key_field_value(desc, NULL, field);
		len = VARSIZE_ANY_EXHDR(key);
		if (len < key_strip)
			elog(ERROR, "bpindex: an entry's key is shorter than its leaf's shared prefix");
		SET_VARSIZE(part, VARHDRSZ + len - key_strip);
		memcpy(VARDATA(part), VARDATA_ANY(key) + key_strip, len - key_strip);
		offset = bp_page_store_key(desc, page, floor, part,
								   same != NULL && !bp_slot_isnull(desc, same, 0) ?
								   same + desc->att_offset[0] : NULL);
		if (offset == 0)
			return false;
		bp_set_key_ref(field, offset);
	}
	memcpy(dst, stored, desc->width);
	return true;
}

/*
 * Add the keys of the logical slot to the key area of a keyed leaf, which
 * has room for them (bp_leaf_has_key_room) and whose codec holds the slot
 * (bp_leaf_encode), and return the slot as the leaf stores it, in out
 * (room for a logical slot; it may be slot), with the byte range of the
 * page the keys took.  No allocation, no comparison: it may run in a
 * critical section.  Other leaves: the slot itself and an empty range.
 */
const char *
bp_leaf_store_keys(BpLeaf *leaf, const char *slot, char *out,
				   Size *keys_offset, Size *keys_length)
{
	Size		old_low = BpPageGetOpaque(leaf->page)->key_low;
	char		stored[BP_MAX_SLOT_WIDTH];

	*keys_offset = 0;
	*keys_length = 0;
	if (!leaf->keyed)
		return slot;
	if (!store_entry_slot(leaf->desc, leaf->page,
						  region_end(leaf->page, leaf->region), leaf->key_strip,
						  slot, NULL, stored))
		elog(ERROR, "bpindex: the keys of an entry do not fit the leaf's key area");
	if (!leaf->packed)
		memcpy(out, stored, leaf->desc->width);
	else if (!encode_entry(leaf, stored, out))
		elog(ERROR, "bpindex: a leaf's codec does not hold an entry it took");
	*keys_offset = BpPageGetOpaque(leaf->page)->key_low;
	*keys_length = old_low - *keys_offset;
	return out;
}

/*
 * Problems of the encoding and region shape of a leaf page, or NULL:
 * what bp_check_page verifies before anyone reads a leaf.
 */
const char *
bp_leaf_check_shape(Page page, const BpSlotDesc *desc)
{
	uint8		encoding = leaf_header(page, desc)->encoding;
	uint16		width = desc->width;
	const char *problem;
	const BpaLayout *layout;
	PageHeader	header = (PageHeader) page;

	if (encoding == BP_LEAF_PACKED)
	{
		BpCodec		codec;

		if (!desc->packable)
			return "a leaf of an index without packed leaves is packed";
		problem = bpc_load(leaf_codec_bytes(page, desc), desc->ncolumns,
						   &desc->columns, &codec);
		if (problem)
			return problem;
		width = codec.width;
	}
	else if (encoding != BP_LEAF_PLAIN)
		return "the leaf's encoding is invalid";
	if (leaf_header(page, desc)->window_start != 0 &&
		(encoding != BP_LEAF_PACKED || desc->att_len[0] != -1 ||
		 leaf_header(page, desc)->window_start > BP_MAX_KEY_SIZE ||
		 (windows_ordered(desc) && leaf_header(page, desc)->prefix_offset == 0 &&
		  (BpPageGetOpaque(page)->flags & (BP_HAS_LOW | BP_HAS_HIGH)) !=
		  (BP_HAS_LOW | BP_HAS_HIGH))))
		return "the key window of the leaf is invalid";
	if (leaf_header(page, desc)->prefix_offset != 0 &&
		(leaf_header(page, desc)->window_start == 0 || !windows_ordered(desc) ||
		 leaf_header(page, desc)->prefix_offset < BpPageGetOpaque(page)->key_low ||
		 leaf_header(page, desc)->prefix_offset >= header->pd_lower))
		return "the prefix key of the leaf is misplaced";
	if ((leaf_header(page, desc)->flags & ~LEAF_KEYS_STRIPPED) != 0 ||
		((leaf_header(page, desc)->flags & LEAF_KEYS_STRIPPED) &&
		 (encoding != BP_LEAF_PACKED || !bytewise_single_key(desc) ||
		  leaf_header(page, desc)->window_start == 0)))
		return "the leaf's flags are invalid";
	problem = bpa_check_shape(leaf_region(page, desc),
							  bp_leaf_region_room(desc, Max(width, 2)));
	if (problem)
		return problem;
	layout = bpa_layout(leaf_region(page, desc));
	if (layout->slot_width != width)
		return "the leaf's region and codec disagree on the entry width";
	if (desc->has_keys ?
		BpPageGetOpaque(page)->key_low < region_end(page, leaf_region(page, desc)) ||
		BpPageGetOpaque(page)->key_low > header->pd_lower :
		BpPageGetOpaque(page)->key_low != 0)
		return "the key area of the leaf is misplaced";
	if (header->pd_upper != header->pd_special ||
		header->pd_upper - header->pd_lower != dead_marks_size(desc, width))
		return "the dead-mark area of the leaf is misplaced";
	return NULL;
}

/* Entries of the leaf. */
int
bp_leaf_count(const BpLeaf *leaf)
{
	return bpa_count(leaf->region);
}

/* The layout of the leaf's BPA. */
const BpaLayout *
bp_leaf_layout(const BpLeaf *leaf)
{
	return bpa_layout(leaf->region);
}

/*
 * The form of slot the leaf compares with its entries: the slot itself
 * for a plain leaf, its encoding in out (room for a logical slot) for a
 * packed one, or NULL if the leaf's codec cannot hold it (the leaf must
 * re-encode).  A keyed leaf compares the slot itself (its probe), whose
 * keys have no place in the leaf yet: bp_leaf_store_keys gives the form
 * it stores.
 */
const char *
bp_leaf_encode(BpLeaf *leaf, const char *slot, char *out)
{
	if (leaf->keyed)
		leaf->probe = slot;		/* compared as a logical slot */
	if (!leaf->packed)
		return slot;
	if (!encode_entry(leaf, slot, out))
		return NULL;
	return leaf->keyed ? slot : out;
}

/*
 * The dead marks of a leaf: bit i is set when the i-th slot of its BPA
 * region (counting the log, the header and the blocks as one array) holds
 * an entry whose heap tuple a scan found dead to everyone.  They lie in
 * the page's hole, between pd_lower and pd_upper, which WAL records never
 * carry: generic WAL zeroes the hole on every page it changes and replays,
 * full-page images leave it out, and wal_consistency_checking masks it.
 * So the marks are hints, set without WAL, lost with any change that moves
 * entries (bp_install_page and splits clear them).
 */
static uint8 *
leaf_dead_marks(Page page)
{
	return (uint8 *) page + ((PageHeader) page)->pd_lower;
}

/* Position of a stored entry of the leaf in its dead marks. */
static Size
dead_mark_position(const BpLeaf *leaf, const char *stored)
{
	return (stored - bpa_log_entry(leaf->region, 0)) / leaf->width;
}

/* Does the stored entry carry a dead mark? */
static bool
has_dead_mark(const BpLeaf *leaf, const char *stored)
{
	Size		i = dead_mark_position(leaf, stored);

	return (leaf_dead_marks(leaf->page)[i / 8] >> (i % 8)) & 1;
}

/* Does any entry of the leaf carry a dead mark? */
bool
bp_leaf_has_dead_marks(Page page)
{
	const uint8 *marks = leaf_dead_marks(page);
	Size		n = ((PageHeader) page)->pd_upper - ((PageHeader) page)->pd_lower;

	for (Size i = 0; i < n; i++)
		if (marks[i] != 0)
			return true;
	return false;
}

/* Mark the entry stored at stored dead (a hint). */
void
bp_leaf_set_dead_mark(BpLeaf *leaf, const char *stored)
{
	Size		i = dead_mark_position(leaf, stored);

	leaf_dead_marks(leaf->page)[i / 8] |= (uint8) (1 << (i % 8));
}

/* Forget every dead mark of a leaf. */
void
bp_leaf_clear_dead_marks(Page page)
{
	memset(leaf_dead_marks(page), 0,
		   ((PageHeader) page)->pd_upper - ((PageHeader) page)->pd_lower);
}

/* Scan keys compared with windows at most (more: decoded). */
#define MAX_WINDOW_KEYS		4

/*
 * The value keys of a scan (first_column_prefix) as seen from a packed
 * leaf whose first column is a bytewise key (compare_packed_bytewise):
 * where each argument lies against the prefix every key of the leaf
 * shares (the first window_start bytes of its fences), and its window.
 */
typedef struct KeyWindows
{
	bool		ready;			/* computed for this leaf */
	bool		usable;
	int8		side[MAX_WINDOW_KEYS];	/* the argument against the shared
										 * prefix: -1 below, 1 above, 0
										 * starts with it */
	uint8		window[MAX_WINDOW_KEYS][KEY_WINDOW_SIZE];
} KeyWindows;

/*
 * Where a reader's predicates and visits see an encoded entry as a
 * logical slot.
 */
typedef struct LeafReader
{
	BpLeaf	   *leaf;
	KeyWindows	windows;		/* of pred_arg's keys, if they are scan keys */
	bool		dead_marks;		/* set the dead bit of marked entries */
	bool		any_marks;		/* the leaf has marks */
	BpaPredicateFn before_start;
	BpaPredicateFn after_end;
	void	   *pred_arg;
	BpaVisitFn	visit;
	void	   *visit_arg;
	char	   *slot;			/* one logical slot */
} LeafReader;

/*
 * The logical slot of a stored entry as a reader sees it: decoded, with
 * the dead bit set if it carries a mark and the reader wants marks.
 */
static const char *
reader_slot(LeafReader *reader, const char *stored)
{
	BpLeaf	   *leaf = reader->leaf;
	bool		dead = reader->any_marks && has_dead_mark(leaf, stored);

	if (leaf_decodes(leaf))
		decode_entry(leaf, stored, reader->slot);
	else if (dead)
		memcpy(reader->slot, stored, leaf->width);
	else
		return stored;
	if (dead)
		((ItemPointer) reader->slot)->ip_posid |= BP_TID_DEAD_BIT;
	return reader->slot;
}

/*
 * Where a key's argument (a varlena of the key column's type) lies
 * against the prefix every key of the leaf shares, and its window there.
 */
static int8
argument_window(const BpLeaf *leaf, const char *argument, uint8 *window)
{
	Size		len;
	const char *data = bp_key_data(leaf->desc, 0, argument, &len);
	int			c;

	if (!windows_ordered(leaf->desc))
	{
		/* windows that only tell unequal keys apart */
		key_window(leaf->desc, argument, leaf->window_start, window);
		return 0;
	}
	c = side_of_prefix(leaf, data, len, leaf->window_start);
	if (c != 0)
		return c;
	key_window(leaf->desc, argument, leaf->window_start, window);
	return 0;
}

/* Compute reader->windows for its scan keys, once per leaf. */
static void
prepare_key_windows(LeafReader *reader)
{
	const BpScanKeys *keys = (const BpScanKeys *) reader->pred_arg;
	KeyWindows *windows = &reader->windows;

	windows->ready = true;
	windows->usable = reader->leaf->compare == compare_packed_bytewise &&
		keys->first_column_prefix && keys->nkeys <= MAX_WINDOW_KEYS;
	if (!windows->usable)
		return;
	for (int i = 0; i < keys->nkeys; i++)
		windows->side[i] = argument_window(reader->leaf,
										   DatumGetPointer(keys->keys[i].argument),
										   windows->window[i]);
}

/*
 * The side of the range of the scan keys that a stored entry of a packed
 * bytewise leaf lies on by its window alone (BP_KEY_MATCH: it does not
 * tell), as bp_prefix_side tells for plain entries.
 */
static BpKeyResult
window_side(LeafReader *reader, const char *stored)
{
	const BpScanKeys *keys = (const BpScanKeys *) reader->pred_arg;
	const uint8 *code;

	if (!reader->windows.ready)
		prepare_key_windows(reader);
	if (!reader->windows.usable ||
		(code = first_key_code(reader->leaf, stored)) == NULL)
		return BP_KEY_MATCH;
	for (int i = 0; i < keys->nkeys; i++)
	{
		int			c = -reader->windows.side[i];
		BpKeyResult side;

		if (c == 0)
			c = memcmp(code, reader->windows.window[i], KEY_WINDOW_SIZE);
		side = c == 0 ? BP_KEY_MATCH : bp_key_side(&keys->keys[i], (c > 0) - (c < 0));
		if (side != BP_KEY_MATCH)
			return side;
	}
	return BP_KEY_MATCH;
}

/*
 * For a keyed leaf read with the range predicates of scan keys on a
 * bytewise first column: the side of the range the stored entry's prefix
 * (or a packed entry's window) alone puts it on (BP_KEY_MATCH: it does
 * not tell), without decoding.
 */
static inline BpKeyResult
reader_prefix_side(LeafReader *reader, const void *stored)
{
	if (!reader->leaf->keyed || reader->before_start != bp_below_range ||
		!((const BpScanKeys *) reader->pred_arg)->first_column_prefix)
		return BP_KEY_MATCH;
	if (reader->leaf->packed)
		return window_side(reader, stored);
	return bp_prefix_side((const BpScanKeys *) reader->pred_arg, stored);
}

/* Predicate on stored entries: before_start of the decoded slot. */
static bool
reader_before_start(const void *stored, void *arg)
{
	LeafReader *reader = (LeafReader *) arg;
	BpKeyResult side = reader_prefix_side(reader, stored);

	if (side != BP_KEY_MATCH)
		return side == BP_KEY_BELOW;

	decode_entry(reader->leaf, stored, reader->slot);
	return reader->before_start(reader->slot, reader->pred_arg);
}

/* Predicate on stored entries: after_end of the decoded slot. */
static bool
reader_after_end(const void *stored, void *arg)
{
	LeafReader *reader = (LeafReader *) arg;
	BpKeyResult side = reader_prefix_side(reader, stored);

	if (side != BP_KEY_MATCH)
		return side == BP_KEY_ABOVE;

	decode_entry(reader->leaf, stored, reader->slot);
	return reader->after_end(reader->slot, reader->pred_arg);
}

/* Visit of a stored entry: the caller's visit of its logical slot. */
static void
reader_visit(const void *stored, void *arg)
{
	LeafReader *reader = (LeafReader *) arg;

	reader->visit(reader_slot(reader, stored), reader->visit_arg);
}

/* Prepare a reader of leaf. */
static void
init_reader(LeafReader *reader, BpLeaf *leaf, bool dead_marks, char *slot)
{
	memset(reader, 0, sizeof(LeafReader));
	reader->leaf = leaf;
	reader->dead_marks = dead_marks;
	reader->any_marks = dead_marks && bp_leaf_has_dead_marks(leaf->page);
	reader->slot = slot;
}

/* Allocate the buffers of leaf reads for slots described by desc. */
void
bp_leaf_work_init(BpLeafWork *work, const BpSlotDesc *desc)
{
	work->scratch = palloc(BP_LEAF_SCRATCH_SIZE);
	work->stored = palloc(BLCKSZ);
	work->slot = palloc(desc->width);
	work->keys = desc->has_keys ? palloc(BLCKSZ) : NULL;
}

/* Free the buffers of leaf reads. */
void
bp_leaf_work_free(BpLeafWork *work)
{
	pfree(work->scratch);
	pfree(work->stored);
	pfree(work->slot);
	if (work->keys)
		pfree(work->keys);
}

/* The leaf's scratch space for BPA operations, checked for size. */
static char *
leaf_scratch(const BpLeaf *leaf, BpLeafWork *work)
{
	if (bpa_scratch_size(bpa_layout(leaf->region)) > BP_LEAF_SCRATCH_SIZE)
		elog(ERROR, "bpindex: leaf layout needs more scratch space than allocated");
	return work->scratch;
}

/* Position of stored in sorted (n stored entries, ascending), or -1. */
static int
find_in_sorted_copy(const BpLeaf *leaf, const char *sorted, int n,
					const char *stored)
{
	int			lo = 0;
	int			hi = n - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			c = leaf->compare(sorted + (Size) mid * leaf->width, stored,
									  leaf->compare_arg);

		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/*
 * Set the dead bit of the slots of out that carry marks: out holds, as
 * logical slots, the n stored entries of sorted, a sorted copy of some of
 * the leaf's entries.  One search per marked entry, so a leaf with a few
 * marks costs a few searches, not one per entry copied.
 */
static void
copy_dead_marks(const BpLeaf *leaf, const char *sorted, int n, char *out)
{
	const uint8 *marks = leaf_dead_marks(leaf->page);
	Size		nbytes = ((PageHeader) leaf->page)->pd_upper -
		((PageHeader) leaf->page)->pd_lower;
	const char *first_slot = bpa_log_entry(leaf->region, 0);
	Size		out_width = leaf->desc->width;

	for (Size byte = 0; byte < nbytes; byte++)
	{
		for (int bit = 0; marks[byte] != 0 && bit < 8; bit++)
		{
			Size		pos = byte * 8 + bit;
			int			found;

			if (!((marks[byte] >> bit) & 1) ||
				!bpa_position_holds_entry(leaf->region, pos))
				continue;
			found = find_in_sorted_copy(leaf, sorted, n,
										first_slot + pos * leaf->width);
			if (found >= 0)
				((ItemPointer) (out + found * out_width))->ip_posid |=
					BP_TID_DEAD_BIT;
		}
	}
}

/*
 * Copy the leaf's entries into out as logical slots in ascending order,
 * from the first for which before_start (on logical slots) is false, or
 * all with before_start NULL; returns their count.  With after_end, the
 * copy may stop after the last entry that is not after_end (bpa_sorted).
 * dead_marks: set the dead bit of marked entries.
 */
int
bp_leaf_sorted(BpLeaf *leaf, BpaPredicateFn before_start,
			   BpaPredicateFn after_end, void *arg,
			   bool dead_marks, char *out, BpLeafWork *work)
{
	LeafReader	reader;
	char	   *scratch = leaf_scratch(leaf, work);
	bool		decodes = leaf_decodes(leaf);
	char	   *stored = decodes ? work->stored : out;
	int			n;

	init_reader(&reader, leaf, dead_marks, work->slot);
	reader.before_start = before_start;
	reader.after_end = after_end;
	reader.pred_arg = arg;
	n = bpa_sorted(leaf->region, leaf->compare, leaf->compare_arg,
				   before_start == NULL ? NULL :
				   decodes ? reader_before_start : before_start,
				   after_end == NULL ? NULL :
				   decodes ? reader_after_end : after_end,
				   decodes ? (void *) &reader : arg, stored, scratch);
	if (decodes)
		decode_entries(leaf, stored, n, out);
	if (reader.any_marks)
		copy_dead_marks(leaf, stored, n, out);
	return n;
}

/*
 * Visit the leaf's entries, as logical slots, that may lie in the range
 * the predicates (on logical slots, either may be NULL) bound: the log
 * and the blocks the header selects, in no particular order.
 */
void
bp_leaf_map(BpLeaf *leaf, BpaPredicateFn before_start, BpaPredicateFn after_end,
			void *arg, bool dead_marks, BpaVisitFn visit, void *visit_arg,
			BpLeafWork *work)
{
	LeafReader	reader;

	init_reader(&reader, leaf, dead_marks, work->slot);
	reader.before_start = before_start;
	reader.after_end = after_end;
	reader.pred_arg = arg;
	reader.visit = visit;
	reader.visit_arg = visit_arg;
	if (!leaf_decodes(leaf))
	{
		if (!reader.any_marks)
		{
			bpa_map(leaf->region, before_start, after_end, arg, visit, visit_arg);
			return;
		}
		/* predicates see the stored slots, visits the marked copies */
		bpa_map(leaf->region, before_start, after_end, arg, reader_visit, &reader);
		return;
	}
	bpa_map(leaf->region, before_start ? reader_before_start : NULL,
			after_end ? reader_after_end : NULL, &reader, reader_visit, &reader);
}

/* The codes of the first column that the range of keys admits. */
typedef struct CodeRange
{
	uint64		lo;
	uint64		hi;				/* lo > hi: none */
} CodeRange;

/* The image of a scan key's argument of the column's own type. */
static uint64
argument_image(const BpSlotDesc *desc, Datum argument)
{
	char		value[8];
	uint64		image;

	switch (desc->att_len[0])
	{
		case 1:
			value[0] = DatumGetChar(argument);
			break;
		case 2:
			{
				int16		v = DatumGetInt16(argument);

				memcpy(value, &v, 2);
				break;
			}
		case 4:
			{
				int32		v = DatumGetInt32(argument);

				memcpy(value, &v, 4);
				break;
			}
		default:
			{
				int64		v = DatumGetInt64(argument);

				memcpy(value, &v, 8);
				break;
			}
	}
	value_image(desc->cmp_kind[0], value, false, &image);
	return image;
}

/*
 * Narrow range to the codes of images v with below_limit <= sign(v - a)
 * <= above_limit, a the key's image (see BpScanKey).
 */
static void
narrow_codes(CodeRange *range, uint64 base, uint64 a, int below_limit,
			 int above_limit)
{
	if (below_limit > 0 && a == PG_UINT64_MAX)
		range->lo = PG_UINT64_MAX;	/* nothing lies above */
	else if (below_limit >= 0)
	{
		uint64		lo = below_limit > 0 ? a + 1 : a;

		range->lo = Max(range->lo, lo > base ? lo - base : 0);
	}
	if (above_limit < 0 && a == 0)
		range->hi = 0, range->lo = Max(range->lo, 1);	/* nothing lies below */
	else if (above_limit <= 0)
	{
		uint64		hi = above_limit < 0 ? a - 1 : a;

		if (hi < base)
			range->lo = Max(range->lo, 1), range->hi = 0;
		else
			range->hi = Min(range->hi, hi - base);
	}
}

/*
 * The range of first-column codes of a packed leaf inside the range of
 * keys with first_column_inline (value keys on the first, integer-like
 * column, with arguments of its type).
 */
static CodeRange
first_column_codes(const BpLeaf *leaf, const BpScanKeys *keys)
{
	CodeRange	range = {0, bpc_max_code(leaf->codec.att_width[0])};

	/* keys are first_column_inline only on an ASC NULLS LAST column */
	Assert(!leaf->desc->reverse[0] && !leaf->desc->nulls_first[0]);
	if (leaf->codec.att_flags[0] & BPC_ATT_CONST_NULL)
		return (CodeRange) {1, 0};
	for (int i = 0; i < keys->nkeys; i++)
		narrow_codes(&range, leaf->codec.att_base[0],
					 argument_image(leaf->desc, keys->keys[i].argument),
					 keys->keys[i].below_limit, keys->keys[i].above_limit);
	return range;
}

/* The heap TID of a stored entry of the leaf. */
static ItemPointerData
stored_entry_tid(const BpLeaf *leaf, const char *stored)
{
	ItemPointerData tid;

	if (leaf->packed)
	{
		uint32		block;
		uint16		offset;

		bpc_decode_tid(&leaf->codec, (const uint8 *) stored, &block, &offset);
		ItemPointerSet(&tid, block, offset);
	}
	else
		tid = bp_slot_tid(stored);
	return tid;
}

/* Where append_slot copies logical slots. */
typedef struct SlotCopy
{
	char	   *out;
	uint16		width;
	int			n;
} SlotCopy;

/* Visit: append a logical slot to a SlotCopy. */
static void
append_slot(const void *slot, void *arg)
{
	SlotCopy   *copy = (SlotCopy *) arg;

	memcpy(copy->out + (Size) copy->n++ * copy->width, slot, copy->width);
}

/*
 * Where copy_run_inside collects the entries of a range: their logical
 * slots into out, or (out NULL) the heap TIDs of the unmarked ones into
 * tids.
 */
typedef struct RangeCopy
{
	const BpLeaf *leaf;
	const BpScanKeys *keys;
	CodeRange	codes;			/* packed leaf, integer first column */
	bool		by_code;
	bool		by_bytes;		/* keyed leaf, keys point_bytes */
	uint8		window[KEY_WINDOW_SIZE];	/* by_bytes, packed: the key's */
	LeafReader *reader;
	char	   *out;
	ItemPointerData *tids;
	int			n;
} RangeCopy;

/*
 * Is key (a varlena, stored without the first skip bytes of its key) the
 * same bytes as the key of keys (point_bytes), which starts with those?
 */
static inline bool
key_equals_argument(const BpScanKeys *keys, const char *key, uint16 skip)
{
	const char *value = DatumGetPointer(keys->keys[0].argument);

	return VARSIZE_ANY_EXHDR(key) + skip == VARSIZE_ANY_EXHDR(value) &&
		memcmp(VARDATA_ANY(key), VARDATA_ANY(value) + skip, VARSIZE_ANY_EXHDR(key)) == 0;
}

/*
 * Does the first column of the stored entry of a keyed leaf hold the key
 * of keys (point_bytes)?  A plain entry tells by its prefix first, a
 * packed one by its window (the argument's is window), without decoding.
 */
static bool
stored_key_equals(const BpLeaf *leaf, const BpScanKeys *keys,
				  const uint8 *window, const char *stored)
{
	const char *field = stored + leaf->desc->att_offset[0];

	if (leaf->packed)
	{
		const uint8 *code = first_key_code(leaf, stored);

		/* the argument starts with the prefix a stripped key lacks */
		return code != NULL && memcmp(code, window, KEY_WINDOW_SIZE) == 0 &&
			key_equals_argument(keys, first_code_key(leaf, code), leaf->key_strip);
	}
	if (bp_slot_isnull(leaf->desc, stored, 0) ||
		bp_compare_prefixes(field, keys->keys[0].prefix) != 0)
		return false;
	return key_equals_argument(keys, bp_page_key(leaf->desc, leaf->page, bp_key_ref(field)), 0);
}

/* Append the stored entries of one run that lie inside the range. */
static void
copy_run_inside(RangeCopy *copy, const char *run, int n)
{
	const BpLeaf *leaf = copy->leaf;
	uint16		width = leaf->desc->width;

	for (int i = 0; i < n; i++)
	{
		const char *stored = run + (Size) i * leaf->width;
		const char *slot = NULL;

		if (copy->by_code)
		{
			uint64		code = bpc_first_code(&leaf->codec, (const uint8 *) stored);

			if (code < copy->codes.lo || code > copy->codes.hi)
				continue;
		}
		else if (copy->by_bytes)
		{
			if (!stored_key_equals(leaf, copy->keys, copy->window, stored))
				continue;
		}
		else
		{
			slot = reader_slot(copy->reader, stored);
			if (!bp_inside_first_column(copy->keys, slot))
				continue;
		}
		if (copy->out != NULL)
			memcpy(copy->out + (Size) copy->n++ * width,
				   slot ? slot : reader_slot(copy->reader, stored), width);
		else if (!copy->reader->any_marks || !has_dead_mark(leaf, stored))
			copy->tids[copy->n++] = stored_entry_tid(leaf, stored);
	}
}

/*
 * Collect the leaf's entries inside the range of keys (first_column_inline,
 * or point_bytes on a keyed leaf) into copy, unordered: the log and the
 * blocks the header selects, tested inline (on a packed leaf, on the first
 * column's code; on a keyed leaf, by the key's prefix and bytes, without
 * the comparison function).  Returns the count.
 */
static int
collect_range_inside(BpLeaf *leaf, RangeCopy *copy)
{
	const BpScanKeys *keys = copy->keys;
	LeafReader *reader = copy->reader;
	int			first;
	int			end;

	reader->before_start = bp_below_range;
	reader->after_end = bp_above_range;
	reader->pred_arg = (void *) keys;
	if (leaf->packed && leaf->codec.att_kind[0] == BPC_INTEGER)
	{
		copy->by_code = true;
		copy->codes = first_column_codes(leaf, keys);
		if (copy->codes.lo > copy->codes.hi)
			return 0;
	}
	copy->by_bytes = leaf->keyed && keys->point_bytes;
	/* no key of a packed leaf equals one without the prefix they share */
	if (copy->by_bytes && leaf->packed &&
		argument_window(leaf, DatumGetPointer(keys->keys[0].argument),
						copy->window) != 0)
		return 0;
	copy_run_inside(copy, bpa_log_entry(leaf->region, 0),
					bpa_log_count(leaf->region));
	if (leaf_decodes(leaf))
		bpa_candidate_blocks(leaf->region, reader_before_start, reader_after_end,
							 reader, &first, &end);
	else
		bpa_candidate_blocks(leaf->region, bp_below_range, bp_above_range,
							 (void *) keys, &first, &end);
	for (int b = first; b < end; b++)
		copy_run_inside(copy, bpa_block_entry(leaf->region, b, 0),
						bpa_block_count(leaf->region, b));
	return copy->n;
}

/*
 * Copy the leaf's entries inside the range of keys into out as logical
 * slots, unordered: keys with first_column_inline through
 * collect_range_inside, others through bp_leaf_map.  Returns the count.
 */
int
bp_leaf_copy_range(BpLeaf *leaf, const BpScanKeys *keys, bool dead_marks,
				   char *out, BpLeafWork *work)
{
	LeafReader	reader;
	RangeCopy	copy = {leaf, keys, {0, 0}, false, false, {0}, &reader, out, NULL, 0};

	init_reader(&reader, leaf, dead_marks, work->slot);
	if (!keys->first_column_inline && !(leaf->keyed && keys->point_bytes))
	{
		SlotCopy	all = {out, leaf->desc->width, 0};

		bp_leaf_map(leaf, bp_below_range, bp_above_range, (void *) keys,
					dead_marks, append_slot, &all, work);
		return all.n;
	}
	return collect_range_inside(leaf, &copy);
}

/*
 * The heap TIDs of the leaf's entries inside the range of keys, which must
 * be first_column_inline and exact, into out, unordered, skipping marked
 * entries if skip_dead; returns their count.
 */
int
bp_leaf_range_tids(BpLeaf *leaf, const BpScanKeys *keys, bool skip_dead,
				   ItemPointerData *out, BpLeafWork *work)
{
	LeafReader	reader;
	RangeCopy	copy = {leaf, keys, {0, 0}, false, false, {0}, &reader, NULL, out, 0};

	Assert(keys->first_column_inline && keys->exact);
	init_reader(&reader, leaf, skip_dead, work->slot);
	return collect_range_inside(leaf, &copy);
}

/* The i-th stored entry of block b of the region, or of its log if b < 0. */
static const char *
stored_entry_at(const char *region, int b, int i)
{
	return b < 0 ? bpa_log_entry(region, i) : bpa_block_entry(region, b, i);
}

/* How many entries block b of the region holds, or its log if b < 0. */
static int
stored_run_count(const char *region, int b)
{
	return b < 0 ? bpa_log_count(region) : bpa_block_count(region, b);
}

/*
 * The heap TIDs of the count consecutive encoded entries at run into out,
 * for TID codes of block_width and offset_width bytes (constants where
 * inlined, so that each width has a loop of its own).
 */
static pg_attribute_always_inline void
decode_run_tids(const BpCodec *codec, const char *run, int count,
				int block_width, int offset_width, ItemPointerData *out)
{
	const uint8 *p = (const uint8 *) run + codec->tid_position;

	for (int i = 0; i < count; i++, p += codec->width)
		ItemPointerSet(&out[i],
					   codec->block_base +
					   (uint32) bpc_get_big_endian(p, block_width),
					   (OffsetNumber) bpc_get_big_endian(p + block_width,
														 offset_width));
}

/* The heap TIDs of the count consecutive entries at run of a packed leaf. */
static void
packed_run_tids(const BpCodec *codec, const char *run, int count,
				ItemPointerData *out)
{
	switch (codec->block_width * 4 + codec->offset_width)
	{
		case 0 * 4 + 1:
			decode_run_tids(codec, run, count, 0, 1, out);
			break;
		case 0 * 4 + 2:
			decode_run_tids(codec, run, count, 0, 2, out);
			break;
		case 1 * 4 + 1:
			decode_run_tids(codec, run, count, 1, 1, out);
			break;
		case 1 * 4 + 2:
			decode_run_tids(codec, run, count, 1, 2, out);
			break;
		case 2 * 4 + 1:
			decode_run_tids(codec, run, count, 2, 1, out);
			break;
		case 2 * 4 + 2:
			decode_run_tids(codec, run, count, 2, 2, out);
			break;
		default:
			decode_run_tids(codec, run, count, codec->block_width,
							codec->offset_width, out);
			break;
	}
}

/*
 * The heap TIDs of every entry of the leaf into out, in no particular
 * order, skipping marked entries if skip_dead; returns their count.
 */
int
bp_leaf_tids(BpLeaf *leaf, bool skip_dead, ItemPointerData *out)
{
	const char *region = leaf->region;
	bool		marks = skip_dead && bp_leaf_has_dead_marks(leaf->page);
	int			n = 0;

	for (int b = -1; b < bpa_used_blocks(region); b++)
	{
		int			count = stored_run_count(region, b);

		if (leaf->packed && !marks)
		{
			packed_run_tids(&leaf->codec, stored_entry_at(region, b, 0), count,
							out + n);
			n += count;
			continue;
		}
		for (int i = 0; i < count; i++)
		{
			const char *stored = stored_entry_at(region, b, i);

			if (!marks || !has_dead_mark(leaf, stored))
				out[n++] = stored_entry_tid(leaf, stored);
		}
	}
	return n;
}

/*
 * Where the leaf stores the entry equal to the logical slot, or NULL if it
 * holds none.  buf: room for a logical slot.
 */
const char *
bp_leaf_find(BpLeaf *leaf, const char *slot, char *buf)
{
	const char *stored = bp_leaf_encode(leaf, slot, buf);

	if (stored == NULL)
		return NULL;
	return bpa_find(leaf->region, stored, leaf->compare, leaf->compare_arg);
}

/*
 * Copy into out the stored form of every entry (with marked_only, every
 * entry carrying a dead mark) whose heap TID the callback reports dead;
 * returns their count.
 */
int
bp_leaf_collect_dead(BpLeaf *leaf, bool marked_only,
					 bool (*callback) (ItemPointer, void *),
					 void *state, char *out)
{
	const char *region = leaf->region;
	int			n = 0;

	if (marked_only && !bp_leaf_has_dead_marks(leaf->page))
		return 0;
	for (int b = -1; b < bpa_used_blocks(region); b++)
	{
		int			count = stored_run_count(region, b);

		for (int i = 0; i < count; i++)
		{
			const char *stored = stored_entry_at(region, b, i);
			ItemPointerData tid;

			if (marked_only && !has_dead_mark(leaf, stored))
				continue;
			tid = stored_entry_tid(leaf, stored);
			if (callback(&tid, state))
				memcpy(out + (Size) n++ * leaf->width, stored, leaf->width);
		}
	}
	return n;
}

/* Remove n entries, in their stored form, from the leaf; false if one is missing. */
bool
bp_leaf_remove_stored(BpLeaf *leaf, const char *stored, int n)
{
	for (int i = 0; i < n; i++)
		if (!bpa_remove(leaf->region, stored + (Size) i * leaf->width,
						leaf->compare, leaf->compare_arg))
			return false;
	return true;
}

/*
 * Visit every slot of the leaf's BPA as a logical slot: the log, the
 * header, the blocks; entries carry the dead bit of their marks.
 */
void
bp_leaf_walk(BpLeaf *leaf, BpLeafWalkFn walk, void *arg, BpLeafWork *work)
{
	LeafReader	reader;
	const char *region = leaf->region;

	init_reader(&reader, leaf, true, work->slot);
	for (int i = 0; i < bpa_log_count(region); i++)
		walk("log", -1, reader_slot(&reader, bpa_log_entry(region, i)), arg);
	reader.any_marks = false;	/* header slots are bounds, not entries */
	for (int b = 0; b < bpa_used_blocks(region); b++)
		walk("header", b, reader_slot(&reader, bpa_header_entry(region, b)), arg);
	reader.any_marks = bp_leaf_has_dead_marks(leaf->page);
	for (int b = 0; b < bpa_used_blocks(region); b++)
		for (int j = 0; j < bpa_block_count(region, b); j++)
			walk("block", b, reader_slot(&reader, bpa_block_entry(region, b, j)),
				 arg);
}

/*
 * Make the keys of a logical slot decoded from the stored entry of the
 * leaf (pointing into leaf->keys, or rebuilt whole) refer to them by
 * offset, as a slot stored in the leaf.
 */
static void
refer_to_key_offsets(const BpLeaf *leaf, const char *stored, char *slot)
{
	const BpSlotDesc *desc = leaf->desc;

	for (int i = 0; i < desc->natts; i++)
	{
		char	   *field = slot + desc->att_offset[i];

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, slot, i))
			continue;
		if (i == 0 && leaf->key_strip > 0)
			bp_set_key_ref(field, code_key_offset(first_key_code(leaf, stored),
												  desc->columns.length[0]));
		else
			bp_set_key_ref(field, (uint64) ((const char *) (uintptr_t) bp_key_ref(field) -
											leaf->keys));
	}
}

/*
 * Does the first column's key of a logical slot decoded from a packed
 * leaf start with the prefix that the keys of the leaf share (NULL does)?
 */
static bool
key_has_shared_prefix(const BpLeaf *leaf, const char *slot)
{
	const BpSlotDesc *desc = leaf->desc;
	const char *key;

	if (bp_slot_isnull(desc, slot, 0))
		return true;
	key = bp_key_field_value(desc, NULL, slot + desc->att_offset[0]);
	return side_of_prefix(leaf, VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key),
						  leaf->window_start) == 0;
}

/*
 * Problems of a leaf's entries, or NULL: the BPA's invariants, a packed
 * entry that does not decode to what it encodes, a mark on a slot that
 * holds no entry (an append there would inherit it).  The fences are the
 * caller's to check, on the sorted entries.
 */
const char *
bp_leaf_check(BpLeaf *leaf, BpLeafWork *work)
{
	const char *region = leaf->region;
	const uint8 *marks = leaf_dead_marks(leaf->page);
	Size		nbytes = ((PageHeader) leaf->page)->pd_upper -
		((PageHeader) leaf->page)->pd_lower;
	uint8	   *occupied = palloc0(nbytes);
	const char *problem = bpa_check(region, bp_leaf_region_room(leaf->desc, leaf->width),
									leaf->compare, leaf->compare_arg);

	for (int b = -1; b < bpa_used_blocks(region) && problem == NULL; b++)
	{
		int			n = stored_run_count(region, b);

		for (int i = 0; i < n && problem == NULL; i++)
		{
			const char *stored = stored_entry_at(region, b, i);
			Size		pos = dead_mark_position(leaf, stored);

			if (!leaf->packed && bp_slot_dead(stored))
				problem = "a stored entry has the dead bit of its TID set";
			if (leaf->keyed)
			{
				decode_entry(leaf, stored, work->slot);
				if (!bp_slot_key_prefixes_valid(leaf->desc, work->slot))
					problem = "a key prefix differs from its key";
			}
			if (leaf->packed)
			{
				decode_entry(leaf, stored, work->slot);
				if (leaf->window_start > 0 && windows_ordered(leaf->desc) &&
					!key_has_shared_prefix(leaf, work->slot))
					problem = "a key lacks the prefix its leaf's fences share";
				if (leaf->keyed)
					refer_to_key_offsets(leaf, stored, work->slot);
				if (!encode_entry(leaf, work->slot, work->stored) ||
					memcmp(work->stored, stored, leaf->width) != 0)
					problem = "a packed entry does not decode to a value of its codec";
			}
			occupied[pos / 8] |= (uint8) (1 << (pos % 8));
		}
	}
	for (Size i = 0; i < nbytes && problem == NULL; i++)
		if (marks[i] & ~occupied[i])
			problem = "a dead mark lies on a slot that holds no entry";
	pfree(occupied);
	return problem;
}

/*
 * The bound that the fences put on integer key column att of every entry
 * a leaf may hold: both fences exist, agree on every earlier column, and
 * hold a value in this one.  They never bound an INCLUDE column.
 */
static BpcBound
fence_bound(const BpSlotDesc *desc, const char *lowkey, const char *highkey,
			int att)
{
	BpcBound	bound = {0};

	if (lowkey == NULL || highkey == NULL || att >= desc->natts ||
		desc->columns.kind[att] != BPC_INTEGER ||
		bp_slot_isnull(desc, lowkey, att) || bp_slot_isnull(desc, highkey, att))
		return bound;
	for (int i = 0; i < att; i++)
	{
		/* fences that agree on a variable-length key are not told apart */
		if (desc->att_len[i] == -1 ||
			bp_slot_isnull(desc, lowkey, i) || bp_slot_isnull(desc, highkey, i) ||
			memcmp(lowkey + desc->att_offset[i], highkey + desc->att_offset[i],
				   desc->att_len[i]) != 0)
			return bound;
	}
	value_image(desc->cmp_kind[att], lowkey + desc->att_offset[att], false, &bound.lo);
	value_image(desc->cmp_kind[att], highkey + desc->att_offset[att], false, &bound.hi);
	bound.lo = index_order_image(desc, att, bound.lo);
	bound.hi = index_order_image(desc, att, bound.hi);
	bound.bounded = bound.lo <= bound.hi;
	bound.no_nulls = true;
	return bound;
}

/* Can codec hold every one of the n logical slots? */
static bool
codec_holds(const BpSlotDesc *desc, const BpCodec *codec, const char *items,
			int n)
{
	uint8		out[BLCKSZ / 4];

	for (int k = 0; k < n; k++)
	{
		BpcValue	values[BPC_MAX_COLUMNS];
		uint32		block;
		uint16		offset;

		if (!slot_values(desc, items + (Size) k * desc->width, NULL, 0, 0, values, &block,
						 &offset) ||
			!bpc_encode(codec, values, block, offset, out))
			return false;
	}
	return true;
}

/*
 * Bytes the keys of the planned entries take in a leaf that stores them
 * without their first key_strip bytes (at most: bp_slot_new_keys_size
 * counts a 4-byte header's worst alignment, which a shorter key keeps at
 * most).
 */
static Size
planned_key_bytes(const BpLeafPlanner *planner, uint16 key_strip)
{
	Size		stripped = (Size) planner->distinct_keys * key_strip;

	return planner->key_bytes > stripped ? planner->key_bytes - stripped : 0;
}

/*
 * Does the first key of the logical slot lowkey (NULL: none) start with
 * the first n bytes of key (a varlena; NULL: any)?  A leaf whose windows
 * start after n bytes then takes its prefix from its low key, else it
 * stores the prefix as a key of its own.
 */
static bool
fence_starts_with(const BpSlotDesc *desc, const char *lowkey, const char *key,
				  Size n)
{
	if (lowkey == NULL || bp_slot_isnull(desc, lowkey, 0))
		return false;
	return key == NULL ||
		bp_keys_common_prefix(bp_key_field_value(desc, NULL, lowkey + desc->att_offset[0]),
							  key, desc->blank_padded[0]) >= n;
}

/*
 * Narrow the prefix that the planned entries' first keys share to the
 * logical slot's key (a NULL key shares any).
 */
static void
add_shared_prefix(BpLeafPlanner *planner, const char *slot)
{
	const BpSlotDesc *desc = planner->desc;
	const char *key;

	if (bp_slot_isnull(desc, slot, 0))
		return;
	key = bp_key_field_value(desc, NULL, slot + desc->att_offset[0]);
	if (planner->first_key == NULL)
	{
		planner->first_key = key;
		planner->shared_prefix = bp_keys_common_prefix(key, key, desc->blank_padded[0]);
	}
	else
		planner->shared_prefix = Min(planner->shared_prefix,
									 bp_keys_common_prefix(planner->first_key, key,
														  desc->blank_padded[0]));
}

/* Start planning a leaf with no entries yet. */
void
bp_leaf_planner_start(BpLeafPlanner *planner, const BpSlotDesc *desc,
					  const BpOptions *opts)
{
	planner->desc = desc;
	planner->opts = opts;
	planner->packable = desc->packable && opts->packed_leaves;
	planner->layout_width = 0;
	planner->have_plan = false;
	planner->nentries = 0;
	planner->key_bytes = 0;
	planner->distinct_keys = 0;
	planner->last = NULL;
	planner->first_key = NULL;
	planner->shared_prefix = 0;
	bpc_range_init(&planner->range, desc->ncolumns);
}

/*
 * Add the next logical slot to a planned leaf.  The current plan stays if
 * it holds the slot: a plain one always does, a packed one if its codec
 * encodes the slot.
 */
void
bp_leaf_planner_add(BpLeafPlanner *planner, const char *slot)
{
	BpcValue	values[BPC_MAX_COLUMNS];
	uint32		block;
	uint16		offset;
	uint8		encoded[BP_MAX_SLOT_WIDTH];

	planner->nentries++;
	if (planner->desc->has_keys)
	{
		/* slot stays where it is until the planner starts again */
		Size		new_keys = bp_slot_new_keys_size(planner->desc, slot,
													 planner->last);

		planner->key_bytes += new_keys;
		planner->distinct_keys += new_keys > 0;
		planner->last = slot;
		if (bytewise_single_key(planner->desc))
			add_shared_prefix(planner, slot);
		/* a plan that strips more than the keys now share no longer holds */
		planner->have_plan = planner->have_plan &&
			planner->nentries <= planner->plan.capacity &&
			planner->plan.key_strip <= planner->shared_prefix &&
			planned_key_bytes(planner, planner->plan.key_strip) <=
			planner->plan.key_room;
	}
	if (planner->packable)
	{
		planner->packable = slot_values(planner->desc, slot, NULL, 0, 0, values, &block,
										&offset);
		if (planner->packable)
			bpc_range_add(&planner->range, values, block, offset);
	}
	if (planner->have_plan && planner->plan.packed)
		planner->have_plan = planner->packable &&
			bpc_encode(&planner->plan.codec, values, block, offset, encoded);
}

/*
 * A plan that holds every entry added: the plan last made if it still
 * does, else a new one for these fences (bp_leaf_planner_plan).
 */
const BpLeafPlan *
bp_leaf_planner_current(BpLeafPlanner *planner, const char *lowkey,
						const char *highkey)
{
	if (!planner->have_plan)
	{
		bp_leaf_planner_plan(planner, lowkey, highkey, NULL, NULL, 0,
							 &planner->plan);
		planner->have_plan = true;
	}
	return &planner->plan;
}

/*
 * Make plan, which holds every entry added, the planner's current plan
 * (bp_leaf_planner_current).
 */
void
bp_leaf_planner_adopt(BpLeafPlanner *planner, const BpLeafPlan *plan)
{
	planner->plan = *plan;
	planner->have_plan = true;
}

/* The layout of a leaf whose entries take width bytes, cached by width. */
static void
planner_layout(BpLeafPlanner *planner, uint16 width, BpaLayout *layout)
{
	if (planner->layout_width != width)
	{
		if (!bp_choose_leaf_layout(planner->opts, width,
								   bp_leaf_region_room(planner->desc, width),
								   &planner->layout))
			elog(ERROR, "bpindex: no leaf layout for entries of %u bytes", width);
		planner->layout_width = width;
	}
	*layout = planner->layout;
}

/*
 * Set the layout of a keyed plan for slots of width bytes in a region of
 * at most room bytes: the largest region that leaves room, after
 * fence_keys bytes for the fences' keys, for the keys of as many entries
 * as it holds: avg bytes each up to its fill target (equal neighbours
 * share their keys), fresh bytes each above it (an insert stores its keys
 * anew).
 */
static void
plan_keyed_layout(Size room, uint16 width, const BpOptions *opts,
				  Size fence_keys, double avg, double fresh, BpLeafPlan *plan)
{
	Size		avail = room > fence_keys ? room - fence_keys : 0;
	Size		lo = 0;
	Size		hi = avail;

	/* region + capacity * avg grows with the region: bisect for avail */
	while (lo < hi)
	{
		Size		mid = lo + (hi - lo + 1) / 2;
		BpaLayout	layout;
		double		need = (double) mid;

		if (bp_choose_leaf_layout(opts, width, mid, &layout))
		{
			int			target = bpa_fill_target(&layout, opts->fillfactor);

			need += target * avg + (bpa_block_capacity(&layout) - target) * fresh;
		}
		if (need <= (double) avail)
			lo = mid;
		else
			hi = mid - 1;
	}
	/* keys too long for any region: the smallest, which the keys limit */
	while (!bp_choose_leaf_layout(opts, width, lo, &plan->layout))
	{
		if (lo >= room)
			elog(ERROR, "bpindex: no leaf layout for entries of %u bytes", width);
		lo = Min(room, lo + width);
	}
	plan->key_room = avail > bpa_region_size(&plan->layout) ?
		avail - bpa_region_size(&plan->layout) : 0;
	plan->capacity = bpa_block_capacity(&plan->layout);
}

/*
 * Set the layout of a keyed plan to the smallest region (of at most room
 * bytes) whose blocks hold nentries, if that leaves, after fence_keys
 * bytes for the fences' keys, key_bytes for the entries' keys; else leave
 * the plan as it is.  plan_keyed_layout reserves room for the keys of
 * inserts to come at the size of a distinct key, which leaves too few
 * slots for entries that share long keys (duplicates); entries that fit
 * a page must get a plan that holds them.
 */
static void
plan_keyed_to_hold(Size room, uint16 width, const BpOptions *opts,
				   Size fence_keys, int nentries, Size key_bytes,
				   BpLeafPlan *plan)
{
	Size		avail = room > fence_keys ? room - fence_keys : 0;
	Size		lo = 0;
	Size		hi = avail;
	BpaLayout	layout;

	/* the smallest region whose blocks hold nentries */
	while (lo < hi)
	{
		Size		mid = lo + (hi - lo) / 2;

		if (bp_choose_leaf_layout(opts, width, mid, &layout) &&
			bpa_block_capacity(&layout) >= nentries)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (!bp_choose_leaf_layout(opts, width, lo, &layout) ||
		bpa_block_capacity(&layout) < nentries ||
		bpa_region_size(&layout) + key_bytes > avail)
		return;
	plan->layout = layout;
	plan->key_room = avail - bpa_region_size(&layout);
	plan->capacity = bpa_block_capacity(&layout);
}

/*
 * The fill target of a keyed plan whose entries take avg bytes of keys:
 * the layout's, or less if their keys would fill the key room first.
 */
static int
keyed_fill_target(const BpLeafPlan *plan, int fillfactor, double avg)
{
	double		by_keys = avg > 0 ? plan->key_room / avg : plan->capacity;

	return Max(1, Min(bpa_fill_target(&plan->layout, fillfactor),
					  (int) (by_keys * fillfactor / 100)));
}

/*
 * Plan a keyed leaf (plain, its keys in the page's key area) for the
 * planned entries between these fences: the capacity and fill target
 * count both slots and key bytes.  Returns the capacity, below the count
 * of entries if their keys do not fit.
 */
static int
plan_keyed(BpLeafPlanner *planner, const char *lowkey, const char *highkey,
		   BpLeafPlan *plan)
{
	const BpSlotDesc *desc = planner->desc;
	Size		fence_keys = (lowkey ? bp_slot_keys_size(desc, lowkey) : 0) +
		(highkey ? bp_slot_keys_size(desc, highkey) : 0);
	Size		window_start = plan->packed && bytewise_single_key(desc) ?
		planner->shared_prefix : 0;
	uint16		key_strip = window_start >= MIN_KEY_STRIP ? (uint16) window_start : 0;
	Size		key_bytes = planned_key_bytes(planner, key_strip);
	double		avg = planner->nentries > 0 ?
		(double) key_bytes / planner->nentries : DEFAULT_ENTRY_KEY_BYTES;
	double		fresh = planner->distinct_keys > 0 ?
		(double) key_bytes / planner->distinct_keys : avg;
	uint16		width = plan->packed ? plan->codec.width : desc->width;

	plan->key_strip = key_strip;
	if (window_start > 0 &&
		!fence_starts_with(desc, lowkey, planner->first_key, window_start))
		fence_keys += window_start + VARHDRSZ + ALIGNOF_INT - 1;	/* own prefix key */

	plan_keyed_layout(bp_leaf_region_room(desc, width), width,
					  planner->opts, fence_keys, avg, fresh, plan);
	if (planner->nentries > plan->capacity || key_bytes > plan->key_room)
		plan_keyed_to_hold(bp_leaf_region_room(desc, width), width,
						   planner->opts, fence_keys, planner->nentries,
						   key_bytes, plan);
	plan->fill_target = keyed_fill_target(plan, planner->opts->fillfactor, avg);
	if (key_bytes > plan->key_room)
		plan->capacity = Min(Min(plan->capacity,
								 (int) (avg > 0 ? plan->key_room / avg : plan->capacity)),
							 planner->nentries - 1);
	return plan->capacity;
}

/*
 * Entries a build puts into a leaf of an index with keys (slots of
 * slot_width bytes, ncolumns columns) whose entries take entry_width bytes
 * in the leaf and avg_key_bytes bytes of keys each (shared by equal
 * neighbours), a distinct key fresh_key_bytes: the what-if estimate's leaf
 * fill.
 */
int
bp_keyed_leaf_fill(int ncolumns, uint16 slot_width, uint16 entry_width,
				   const BpOptions *opts, double avg_key_bytes,
				   double fresh_key_bytes)
{
	BpLeafPlan	plan;

	plan_keyed_layout(bp_leaf_room(ncolumns, slot_width, entry_width), entry_width,
					  opts, (Size) (2 * fresh_key_bytes), avg_key_bytes,
					  fresh_key_bytes, &plan);
	return keyed_fill_target(&plan, opts->fillfactor, avg_key_bytes);
}

/*
 * Plan how a leaf stores the planned entries between these fences (either
 * may be NULL): packed with the narrowest codec that holds them, or the
 * fallback leaf's codec if that is narrower and holds them too, or plain.
 * Returns the plan's capacity (bpa_block_capacity; for keyed leaves, the
 * entries whose keys fit too, plan_keyed).  fallback is checked against
 * items, the n entries added.
 */
int
bp_leaf_planner_plan(BpLeafPlanner *planner, const char *lowkey,
					 const char *highkey, const BpLeaf *fallback,
					 const char *items, int n, BpLeafPlan *plan)
{
	const BpSlotDesc *desc = planner->desc;
	BpcBound	bounds[BPC_MAX_COLUMNS];
	bool		have = planner->packable;

	for (int i = 0; i < desc->ncolumns && have; i++)
		bounds[i] = fence_bound(desc, lowkey, highkey, i);
	have = have && bpc_choose(&desc->columns, &planner->range, bounds,
							  &plan->codec);
	if (fallback && fallback->packed &&
		(!have || fallback->codec.width < plan->codec.width) &&
		codec_holds(desc, &fallback->codec, items, n))
	{
		plan->codec = fallback->codec;
		have = true;
	}
	plan->packed = have && plan->codec.width < desc->width;
	if (desc->has_keys)
		return plan_keyed(planner, lowkey, highkey, plan);
	planner_layout(planner, plan->packed ? plan->codec.width : desc->width,
				   &plan->layout);
	plan->key_room = 0;
	plan->key_strip = 0;
	plan->capacity = bpa_block_capacity(&plan->layout);
	plan->fill_target = bpa_fill_target(&plan->layout, planner->opts->fillfactor);
	return plan->capacity;
}

/*
 * Plan how a leaf stores n sorted logical slots between these fences, as
 * bp_leaf_planner_plan does.
 */
int
bp_leaf_plan(const BpSlotDesc *desc, const BpOptions *opts, const char *items,
			 int n, const char *lowkey, const char *highkey,
			 const BpLeaf *fallback, BpLeafPlan *plan)
{
	BpLeafPlanner planner;

	bp_leaf_planner_start(&planner, desc, opts);
	for (int k = 0; k < n; k++)
		bp_leaf_planner_add(&planner, items + (Size) k * desc->width);
	return bp_leaf_planner_plan(&planner, lowkey, highkey, fallback, items, n,
								plan);
}

/*
 * Where the windows of an ordered first column start: after the prefix
 * that the keys of its fences (logical slots, either may be NULL) share;
 * every key between the fences starts with that prefix.  0 without both.
 */
static uint16
window_start_ordered(const BpSlotDesc *desc, const char *lowkey,
					 const char *highkey)
{
	if (lowkey == NULL || highkey == NULL || bp_slot_isnull(desc, lowkey, 0) ||
		bp_slot_isnull(desc, highkey, 0))
		return 0;
	return (uint16) bp_keys_common_prefix(bp_key_field_value(desc, NULL, lowkey + desc->att_offset[0]),
										  bp_key_field_value(desc, NULL, highkey + desc->att_offset[0]),
										  desc->blank_padded[0]);
}

/*
 * Where the windows of a packed leaf's first column start: after the
 * prefix that the keys of its n entries (logical slots) share, so that
 * the windows tell most of them apart (any start would do for equality);
 * with other key columns after an ordered one, window_start_ordered.  0
 * if the first column is not a key.  The prefix of one ordered key column
 * stops before any blank of a bpchar, which its order ignores at the end.
 */
static uint16
key_window_start(const BpSlotDesc *desc, const char *lowkey, const char *highkey,
				 const char *items, int n)
{
	const char *first = NULL;
	Size		shared = BP_MAX_KEY_SIZE;
	bool		blank_padded = bytewise_single_key(desc) && desc->blank_padded[0];

	if (desc->att_len[0] != -1)
		return 0;
	if (windows_ordered(desc) && !bytewise_single_key(desc))
		return window_start_ordered(desc, lowkey, highkey);
	for (int k = 0; k < n; k++)
	{
		const char *slot = items + (Size) k * desc->width;
		const char *key;

		if (bp_slot_isnull(desc, slot, 0))
			continue;
		key = bp_key_field_value(desc, NULL, slot + desc->att_offset[0]);
		if (first == NULL)
			first = key;
		shared = Min(shared, bp_keys_common_prefix(first, key, blank_padded));
	}
	return first == NULL ? 0 : (uint16) shared;
}

/*
 * Do the windows of the leaf page hold under its fences, one of which
 * page deletion has just changed?  They do while the fences still share
 * the prefix the windows start after (the unchanged fence starts with it).
 */
bool
bp_leaf_windows_hold(Page page, const BpSlotDesc *desc)
{
	const BpLeafHeader *header = leaf_header(page, desc);
	uint16		flags = BpPageGetOpaque(page)->flags;
	char		low[BP_MAX_SLOT_WIDTH];
	char		high[BP_MAX_SLOT_WIDTH];

	if (header->encoding != BP_LEAF_PACKED || header->window_start == 0 ||
		!windows_ordered(desc) || header->prefix_offset != 0)
		return true;
	if (!(flags & BP_HAS_LOW) || !(flags & BP_HAS_HIGH))
		return false;
	return window_start_ordered(desc, bp_page_fence(desc, page, false, low),
								bp_page_fence(desc, page, true, high)) >=
		header->window_start;
}

static void fill_leaf(Page page, const BpSlotDesc *desc, const BpLeafPlan *plan,
					  const char *items, int n, const char *lowkey,
					  const char *highkey, bool packed_blocks);

/*
 * Store the fences and the n sorted logical slots of a keyed leaf being
 * filled (its region initialized) with their keys in its key area, the
 * entries' first keys without their first key_strip bytes; returns the
 * slots as stored, to build the region from.  Equal neighbours share
 * their keys.
 */
static char *
store_keyed_entries(Page page, const BpSlotDesc *desc, char *region,
					const char *items, int n, const char *lowkey,
					const char *highkey, uint16 key_strip)
{
	Size		floor = region_end(page, region);
	char	   *stored = palloc((Size) Max(n, 1) * desc->width);
	const char *same = NULL;
	bool		fits = true;

	bp_page_start_keys(page);
	if (highkey)
		fits = bp_slot_to_page(desc, page, floor, highkey, NULL,
							   bp_page_highkey(page, desc->width));
	if (lowkey && fits)
	{
		fits = bp_slot_to_page(desc, page, floor, lowkey, NULL,
							   bp_page_lowkey(page));
		/* a fence's key is whole: stripped entries share none with it */
		same = key_strip == 0 ? bp_page_lowkey(page) : NULL;
	}
	for (int k = 0; k < n && fits; k++)
	{
		char	   *dst = stored + (Size) k * desc->width;

		fits = store_entry_slot(desc, page, floor, key_strip,
								items + (Size) k * desc->width, same, dst);
		same = dst;
	}
	if (!fits)
		elog(ERROR, "bpindex: the keys of a leaf do not fit its plan");
	return stored;
}

/*
 * Where the prefix of window_start bytes that the first keys of a keyed
 * leaf being filled share lies in its key area: in its low key if that
 * starts with it (it then stays, should page deletion move the low key),
 * else in a key of its own, made from the first of the n logical slots
 * whose key is not NULL.
 */
static uint16
store_leaf_prefix(Page page, const BpSlotDesc *desc, const char *region,
				  const char *lowkey, const char *items, int n,
				  uint16 window_start)
{
	const char *first = NULL;
	char		prefix[BP_KEYS_BUFSIZE];
	Size		offset;

	for (int k = 0; k < n && first == NULL; k++)
		if (!bp_slot_isnull(desc, items + (Size) k * desc->width, 0))
			first = bp_key_field_value(desc, NULL,
									   items + (Size) k * desc->width + desc->att_offset[0]);
	if (fence_starts_with(desc, lowkey, first, window_start))
		return bp_key_ref(bp_page_lowkey(page) + desc->att_offset[0]);
	Assert(first != NULL);
	SET_VARSIZE(prefix, VARHDRSZ + window_start);
	memcpy(VARDATA(prefix), VARDATA_ANY(first), window_start);
	offset = bp_page_add_key(page, region_end(page, region), prefix);
	if (offset == 0)
		elog(ERROR, "bpindex: the keys of a leaf do not fit its plan");
	return (uint16) offset;
}

/*
 * Fill page as a leaf holding n sorted logical slots as planned, with the
 * given fences, spread evenly over the blocks, or packed into the first
 * blocks.  The leaf is built in a copy: if the plan does not hold them
 * (more entries than its capacity, keys beyond its key room) an ERROR
 * leaves page as it was.
 */
void
bp_leaf_fill(Page page, const BpSlotDesc *desc, const BpLeafPlan *plan,
			 const char *items, int n, const char *lowkey, const char *highkey,
			 bool packed_blocks)
{
	PGAlignedBlock leaf;

	if (n > plan->capacity || n > bpa_block_capacity(&plan->layout))
		elog(ERROR, "bpindex: a leaf planned for %d entries cannot take %d",
			 Min(plan->capacity, bpa_block_capacity(&plan->layout)), n);
	fill_leaf(leaf.data, desc, plan, items, n, lowkey, highkey, packed_blocks);
	memcpy(page, leaf.data, BLCKSZ);
}

/* bp_leaf_fill, building the leaf in page. */
static void
fill_leaf(Page page, const BpSlotDesc *desc, const BpLeafPlan *plan,
		  const char *items, int n, const char *lowkey, const char *highkey,
		  bool packed_blocks)
{
	uint16		flags = BP_LEAF;
	uint16		width = plan->packed ? plan->codec.width : desc->width;
	char	   *region;
	char	   *stored = (char *) items;
	char	   *keyed = NULL;
	uint16		window_start = 0;
	uint16		key_strip = 0;

	if (lowkey)
		flags |= BP_HAS_LOW;
	if (highkey)
		flags |= BP_HAS_HIGH;
	bp_init_page(page, flags, 0);
	leaf_header(page, desc)->encoding = plan->packed ? BP_LEAF_PACKED : BP_LEAF_PLAIN;
	if (plan->packed)
		leaf_header(page, desc)->window_start = window_start =
			key_window_start(desc, lowkey, highkey, items, n);
	if (plan->key_strip > 0 && window_start > 0)
	{
		if (window_start != plan->key_strip)
			elog(ERROR, "bpindex: a leaf planned to strip %u bytes of its keys shares %u",
				 plan->key_strip, window_start);
		key_strip = window_start;
		leaf_header(page, desc)->flags |= LEAF_KEYS_STRIPPED;
	}
	((PageHeader) page)->pd_lower -= dead_marks_size(desc, width);
	region = leaf_region(page, desc);
	bpa_init(region, &plan->layout);
	if (desc->has_keys)
	{
		stored = keyed = store_keyed_entries(page, desc, region, items, n,
											 lowkey, highkey, key_strip);
		if (window_start > 0 && windows_ordered(desc))
			leaf_header(page, desc)->prefix_offset =
				store_leaf_prefix(page, desc, region, lowkey, items, n, window_start);
	}
	else
	{
		if (lowkey)
			memcpy(bp_page_lowkey(page), lowkey, desc->width);
		if (highkey)
			memcpy(bp_page_highkey(page, desc->width), highkey, desc->width);
	}
	if (plan->packed)
	{
		/* logical slots, or slots with their keys' offsets in this page */
		const char *source = stored;

		bpc_store(&plan->codec, leaf_codec_bytes(page, desc));
		stored = palloc((Size) Max(n, 1) * width);
		for (int k = 0; k < n; k++)
		{
			BpcValue	values[BPC_MAX_COLUMNS];
			uint32		block;
			uint16		offset;

			if (!slot_values(desc, source + (Size) k * desc->width, page,
							 window_start, key_strip, values,
							 &block, &offset) ||
				!bpc_encode(&plan->codec, values, block, offset,
							(uint8 *) stored + (Size) k * width))
				elog(ERROR, "bpindex: a leaf's codec does not hold its entries");
		}
	}
	if (packed_blocks)
		bpa_build_packed(region, stored, n);
	else
		bpa_build(region, stored, n);
	if (stored != items && stored != keyed)
		pfree(stored);
	if (keyed)
		pfree(keyed);
}
