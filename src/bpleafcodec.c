/*-------------------------------------------------------------------------
 *
 * bpleafcodec.c
 *	  The codec of leaf entries: order-preserving images of values, the
 *	  windows and codes of keys, encoding and decoding entries, and the
 *	  comparators of encoded entries.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/itup.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "bpcodec.h"
#include "bpleafcodec.h"
#include "bppage.h"
#include "bpslot.h"

/* Bytes of the chunks that keys read whole from a leaf are rebuilt in. */
#define REBUILT_CHUNK_SIZE	8192

#define SIGN64		(UINT64CONST(1) << 63)

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
				uint32		bits = (uint32) bp_float_bits(image, UINT64CONST(0x80000000));

				memcpy(p, &bits, 4);
				break;
			}
		case BP_CMP_FLOAT8:
			{
				uint64		bits = bp_float_bits(image, SIGN64);

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
uint64
bp_index_order_image(const BpSlotDesc *desc, int att, uint64 image)
{
	return desc->reverse[att] ? ~image : image;
}

/*
 * Do the windows of the first column's keys follow the index order?  They
 * do for a key in bytewise order, ascending, NULLs last, whose leaves'
 * windows start after the prefix the fences share (window_start_ordered).
 * Other keys' windows only tell unequal keys apart.
 */
bool
bp_windows_ordered(const BpSlotDesc *desc)
{
	return desc->att_len[0] == -1 && desc->cmp_kind[0] == BP_CMP_PREFIX &&
		!desc->reverse[0] && !desc->nulls_first[0];
}

/*
 * The window of a key (a varlena) from window_start: KEY_WINDOW_SIZE bytes,
 * zero-padded, without a bpchar's trailing blanks.
 */
void
bp_key_window(const BpSlotDesc *desc, const char *key, uint16 window_start,
		   uint8 *window)
{
	Size		len;
	const char *data = bp_key_data(desc, 0, key, &len);

	memset(window, 0, KEY_WINDOW_SIZE);
	if (len > window_start)
		memcpy(window, data + window_start, Min(len - window_start, KEY_WINDOW_SIZE));
}

/*
 * The key of column att of a slot that key_code codes: at an offset of page
 * if the slot is stored there, else where its pointer points.
 */
static inline const char *
coded_slot_key(const BpSlotDesc *desc, const char *slot, int att,
			   const char *page)
{
	uint64		ref = bp_key_ref(slot + desc->att_offset[att]);

	return ref < BLCKSZ ? bp_page_key(desc, page, ref) : (const char *) (uintptr_t) ref;
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

	if (length > KEY_OFFSET_CODE_SIZE)
		bp_key_window(desc, coded_slot_key(desc, slot, att, page),
					  window_start - (att == 0 && ref < BLCKSZ ? key_strip : 0),
					  bytes);
	bytes[length - 2] = (uint8) (key_offset >> 8);
	bytes[length - 1] = (uint8) key_offset;
}

/*
 * The codec's view of a logical slot: its column values and heap TID.
 * False if a column has no image or a key is compressed.  Variable-length
 * keys: key_code, for a
 * leaf whose window starts at window_start and that stores its entries'
 * first keys without key_strip bytes.
 */
bool
bp_slot_values(const BpSlotDesc *desc, const char *slot, const char *page,
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
		{
			/* a packed leaf reads its keys' bytes: compressed ones stay out */
			if (bp_key_compressed(coded_slot_key(desc, slot, i, page)))
				return false;
			key_code(desc, slot, i, page, window_start, key_strip,
					 values[i].bytes);
		}
		else if (desc->columns.kind[i] == BPC_BYTES)
			memcpy(values[i].bytes, p, desc->columns.length[i]);
		else if (!bp_value_image(desc->cmp_kind[i], p, true, &values[i].image))
			return false;
		else
			values[i].image = bp_index_order_image(desc, i, values[i].image);
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
		store_image(desc->cmp_kind[0], bp_index_order_image(desc, 0, image),
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
						bp_index_order_image(desc, i, values[i].image), p);
	}
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
	uint16		offset = leaf->prefix_offset;
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
int
bp_side_of_prefix(const BpLeaf *leaf, const char *data, Size len, Size n)
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

	for (int i = 0; i < desc->ncolumns; i++)
	{
		char	   *field = out + desc->att_offset[i];

		if (desc->att_len[i] != -1 || bp_slot_isnull(desc, out, i))
			continue;
		set_decoded_key(leaf, i, field,
						bp_code_key_offset((const uint8 *) field, desc->columns.length[i]));
	}
}

/*
 * The code of the first column (a key) of a stored entry of a packed
 * keyed leaf: its window, then its offset; NULL if the key is NULL.
 */
const uint8 *
bp_first_key_code(const BpLeaf *leaf, const char *stored)
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
const char *
bp_first_code_key(const BpLeaf *leaf, const uint8 *code)
{
	return bp_page_key(leaf->desc, leaf->page,
					   bp_code_key_offset(code, leaf->desc->columns.length[0]));
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
	const uint8 *code = bp_first_key_code(leaf, encoded);
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
		set_decoded_key(leaf, 0, field, bp_code_key_offset(code, desc->columns.length[0]));
}

/*
 * Decode into out an encoded entry of a packed leaf of one key column
 * (decode_key_entry's kind) whose key code names the same key as that of
 * the entry decoded into like: like's key field, out's own heap TID.  A
 * run of equal keys decodes its key once.
 */
void
bp_decode_entry_sharing_key(const BpLeaf *leaf, const char *encoded,
							const char *like, char *out)
{
	ItemPointer tid = (ItemPointer) out;
	uint32		block;
	uint16		offset;

	Assert(leaf->packed && leaf->keyed && leaf->codec.natts == 1);
	bpc_decode_tid(&leaf->codec, (const uint8 *) encoded, &block, &offset);
	memcpy(out, like, leaf->desc->width);
	ItemPointerSetBlockNumber(tid, block);
	tid->ip_posid = offset;
}

/*
 * Decode a stored entry of leaf into the logical slot out: a packed one
 * by its codec, a keyed one with its keys pointing into leaf->keys.
 */
void
bp_decode_entry(const BpLeaf *leaf, const char *encoded, char *out)
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
void
bp_decode_entries(const BpLeaf *leaf, const char *encoded, int n, char *out)
{
	uint16		slot_width = leaf->desc->width;

	if (!leaf->packed || leaf->keyed)
	{
		for (int i = 0; i < n; i++)
			bp_decode_entry(leaf, encoded + (Size) i * leaf->width,
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

/*
 * Comparator of the entries of a keyed leaf, whose keys are offsets in
 * its page (or pointers, for a logical slot compared with them).
 */
int
bp_compare_keyed(const void *a, const void *b, void *arg)
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
	int			side = bp_side_of_prefix(leaf, *data, *len, leaf->key_strip);

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
		const uint8 *code = bp_first_key_code(leaf, entry);

		bpc_decode_tid(&leaf->codec, (const uint8 *) entry, block, offset);
		if (code == NULL)
			return false;
		key = bp_first_code_key(leaf, code);
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
int
bp_compare_packed_bytewise(const void *a, const void *b, void *arg)
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
		const uint8 *code_a = bp_first_key_code(leaf, a);
		const uint8 *code_b = bp_first_key_code(leaf, b);
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
int
bp_compare_packed_keyed(const void *a, const void *b, void *arg)
{
	const BpLeaf *leaf = (const BpLeaf *) arg;
	char		slot_a[BP_MAX_SLOT_WIDTH];
	char		slot_b[BP_MAX_SLOT_WIDTH];

	if (a != leaf->probe)
	{
		bp_decode_entry(leaf, a, slot_a);
		a = slot_a;
	}
	if (b != leaf->probe)
	{
		bp_decode_entry(leaf, b, slot_b);
		b = slot_b;
	}
	return bp_compare_slots(a, b, (void *) leaf->desc);
}

/*
 * Is the index's one key column a variable-length key in bytewise order,
 * ascending, NULLs last (bp_compare_packed_bytewise)?
 */
bool
bp_bytewise_single_key(const BpSlotDesc *desc)
{
	for (int i = desc->natts; i < desc->ncolumns; i++)
		if (desc->att_len[i] == -1)
			return false;		/* its keys are not the key column's */
	return desc->natts == 1 && bp_windows_ordered(desc);
}

/* Does leaf store its entries in a form other than logical slots? */
bool
bp_leaf_decodes(const BpLeaf *leaf)
{
	return leaf->packed || leaf->keyed;
}

/*
 * Encode a logical slot by the leaf's codec into out; false if the codec
 * cannot hold it.  Its keys' codes are their offsets if it is stored in
 * the leaf's page, else 0 (bp_slot_values).
 */
bool
bp_encode_entry(const BpLeaf *leaf, const char *slot, char *out)
{
	BpcValue	values[BPC_MAX_COLUMNS];
	uint32		block;
	uint16		offset;

	return bp_slot_values(leaf->desc, slot, leaf->page, leaf->window_start,
					   leaf->key_strip,
					   values, &block, &offset) &&
		bpc_encode(&leaf->codec, values, block, offset, (uint8 *) out);
}
