/*-------------------------------------------------------------------------
 *
 * bpleaf.h
 *	  The leaf: opening a leaf page, inserting into it, its dead marks,
 *	  keys and checks.  The phases treat BpLeaf as opaque and use these
 *	  functions; the ones marked "leaf files" serve bpleaf*.c only.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPLEAF_H
#define BPLEAF_H

#include "storage/bufpage.h"

#include "bpa.h"
#include "bpcodec.h"
#include "bpformat.h"
#include "bpleafcodec.h"
#include "bpslot.h"

/* Scratch bytes a leaf's BPA operations may need (bpa_scratch_size). */
#define BP_LEAF_SCRATCH_SIZE	(4 * BLCKSZ)

/* What an insert into a leaf came to (bp_leaf_plan_append and after). */
typedef enum BpLeafInsertResult
{
	BP_LEAF_INSERTED,			/* stored (or, planned: room for an append) */
	BP_LEAF_DUPLICATE,			/* an equal entry was stored already */
	BP_LEAF_FLUSH,				/* the log is full: flush or redistribute */
	BP_LEAF_CROWDED,			/* only a redistribution makes room */
	BP_LEAF_FULL,				/* the leaf must split */
	BP_LEAF_RECODE				/* the leaf's codec cannot hold the entry */
} BpLeafInsertResult;

/* Byte ranges of a leaf page that an append wrote, for WAL. */
#define BP_LEAF_MAX_CHANGES	(BPA_MAX_TOUCHED + 2)
typedef struct BpLeafChange
{
	int			n;
	Size		offset[BP_LEAF_MAX_CHANGES];
	Size		length[BP_LEAF_MAX_CHANGES];
} BpLeafChange;

/* A leaf as bpindex_stats and bpindex_leaves show it. */
typedef struct BpLeafSummary
{
	bool		packed;
	const BpCodec *codec;		/* if packed */
	uint16		entry_width;	/* bytes of a stored entry */
	uint16		key_strip;		/* bytes the first keys are stored without */
	int			entries;
	int			log_entries;
	int			capacity;		/* entries the blocks hold */
	int			log_capacity;	/* entries the log takes before a flush */
	int			used_blocks;
	int			sorted_blocks;
} BpLeafSummary;

/* Buffers for reading leaves. */
typedef struct BpLeafWork
{
	MemoryContext cxt;			/* where the buffers live */
	char	   *scratch;		/* BP_LEAF_SCRATCH_SIZE bytes, allocated at
								 * the first use (bp_leaf_work_scratch):
								 * most scans never need it */
	char	   *stored;			/* BLCKSZ bytes: stored entries */
	char	   *slot;			/* one logical slot */
	char	   *keys;			/* BLCKSZ bytes: a copy of a leaf's keys */
} BpLeafWork;

extern void bp_leaf_open(BpLeaf *leaf, Page page, const BpSlotDesc *desc);
extern const char *bp_leaf_check_shape(Page page, const BpSlotDesc *desc);
extern void bp_leaf_copy_keys(BpLeaf *leaf, char *copy);
extern void bp_leaf_rebuild_keys_in(BpLeaf *leaf, MemoryContext cxt);
extern bool bp_leaf_has_key_room(const BpLeaf *leaf, const char *slot);
extern Size bp_leaf_key_floor(Page page, const BpSlotDesc *desc);
extern int	bp_leaf_count(const BpLeaf *leaf);
extern const char *bp_leaf_encode(BpLeaf *leaf, const char *slot, char *out);
extern bool bp_leaf_has_dead_marks(Page page);
extern bool bp_leaf_all_dead(const BpLeaf *leaf);
extern void bp_leaf_set_dead_mark(BpLeaf *leaf, const char *stored);
extern void bp_leaf_work_init(BpLeafWork *work, const BpSlotDesc *desc);
extern void bp_leaf_work_free(BpLeafWork *work);
extern char *bp_leaf_work_scratch(BpLeafWork *work);
extern const char *bp_leaf_find(BpLeaf *leaf, const char *slot, char *buf);
extern bool bp_leaf_remove_stored(BpLeaf *leaf, const char *stored, int n);
extern const char *bp_leaf_check(BpLeaf *leaf, BpLeafWork *work);
extern BpLeafInsertResult bp_leaf_plan_append(BpLeaf *leaf, const char *stored,
											  int *ascending_block);
extern void bp_leaf_append(BpLeaf *leaf, const char *stored,
						   int ascending_block, char *out,
						   BpLeafChange *change);
extern BpLeafInsertResult bp_leaf_flush_insert(BpLeaf *leaf,
											   const char *stored, char *out,
											   char *scratch);
extern void bp_leaf_redistribute(BpLeaf *leaf, const char *stored,
								 char *scratch);
extern int	bp_leaf_stream_rank(const BpLeaf *leaf, const char *stored);
extern int	bp_leaf_capacity(const BpLeaf *leaf);
extern int	bp_leaf_fill_target(const BpLeaf *leaf, int fillfactor);
extern const char *bp_leaf_keys_page(const BpLeaf *leaf);
extern void bp_leaf_summarize(const BpLeaf *leaf, BpLeafSummary *summary);
extern BpLeafHeader *bp_leaf_header(Page page, const BpSlotDesc *desc);
extern Size bp_region_end(const char *page, const char *region);
extern bool bp_store_entry_slot(const BpSlotDesc *desc, Page page, Size floor,
								uint16 key_strip, const char *slot,
								const char *same, char *dst);
extern bool bp_has_dead_mark(const BpLeaf *leaf, const char *stored);
extern uint8 *bp_leaf_dead_marks(Page page);
extern const char *bp_stored_entry_at(const char *region, int b, int i);
extern int	bp_stored_run_count(const char *region, int b);
extern ItemPointerData bp_stored_entry_tid(const BpLeaf *leaf,
										   const char *stored);
extern Size bp_leaf_dead_marks_size(const BpSlotDesc *desc, uint16 width);
extern char *bp_leaf_region(Page page, const BpSlotDesc *desc);
extern uint8 *bp_leaf_codec_bytes(Page page, const BpSlotDesc *desc);

#endif							/* BPLEAF_H */
