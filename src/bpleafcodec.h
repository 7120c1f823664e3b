/*-------------------------------------------------------------------------
 *
 * bpleafcodec.h
 *	  An opened leaf (BpLeaf) and the codec of its entries.  Only the
 *	  leaf's own files (bpleaf*.c) use the codec; the rest of bpindex reads
 *	  and writes leaves through bpleaf.h, bpleafread.h and bpleafplan.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPLEAFCODEC_H
#define BPLEAFCODEC_H

#include "storage/bufpage.h"
#include "utils/palloc.h"

#include "bpa.h"
#include "bpcodec.h"
#include "bpslot.h"

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
	uint16		prefix_offset;	/* the key in the key area that holds the
								 * shared prefix, 0: the low key's */
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

extern int	bp_compare_keyed(const void *a, const void *b, void *arg);
extern int	bp_compare_packed_bytewise(const void *a, const void *b,
									   void *arg);
extern int	bp_compare_packed_keyed(const void *a, const void *b, void *arg);
extern bool bp_bytewise_single_key(const BpSlotDesc *desc);
extern bool bp_windows_ordered(const BpSlotDesc *desc);
extern int	bp_side_of_prefix(const BpLeaf *leaf, const char *data, Size len,
							  Size n);
extern bool bp_encode_entry(const BpLeaf *leaf, const char *slot, char *out);
extern void bp_decode_entry(const BpLeaf *leaf, const char *encoded,
							char *out);
extern void bp_decode_entry_sharing_key(const BpLeaf *leaf, const char *encoded,
										const char *like, char *out);
extern void bp_decode_entries(const BpLeaf *leaf, const char *encoded, int n,
							  char *out);
extern const uint8 *bp_first_key_code(const BpLeaf *leaf, const char *stored);
extern void bp_key_window(const BpSlotDesc *desc, const char *key,
						  uint16 window_start, uint8 *window);
extern bool bp_leaf_decodes(const BpLeaf *leaf);
extern uint64 bp_index_order_image(const BpSlotDesc *desc, int att,
								   uint64 image);
extern bool bp_slot_values(const BpSlotDesc *desc, const char *slot,
						   const char *page, uint16 window_start,
						   uint16 key_strip, BpcValue *values, uint32 *block,
						   uint16 *offset);
extern const char *bp_first_code_key(const BpLeaf *leaf, const uint8 *code);

/* The key offset at the end of a variable-length key's code of length bytes. */
static inline uint16
bp_code_key_offset(const uint8 *code, int length)
{
	return (uint16) ((code[length - 2] << 8) | code[length - 1]);
}

#endif							/* BPLEAFCODEC_H */
