/*-------------------------------------------------------------------------
 *
 * bpscanpos.h
 *	  A scan's state and its positions: leaves copied for ordered scans.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPSCANPOS_H
#define BPSCANPOS_H

#include "access/genam.h"
#include "access/itup.h"
#include "access/sdir.h"
#include "storage/buf.h"
#include "utils/palloc.h"

#include "bpleaf.h"
#include "bpscankey.h"
#include "bpsearch.h"
#include "bpslot.h"

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
	int			floor;			/* items [floor, ceil) lie within the bounds
								 * the leaf was loaded with */
	int			ceil;
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
	/* skip scans (bpscankey.h): */
	bool		has_prefix;		/* the entries belong to the primitive scan
								 * of prefix */
	char	   *prefix;			/* one slot */
	char	   *prefix_keys;	/* its keys, BP_KEYS_BUFSIZE bytes */
	bool		partial;		/* the copy stops at the fence in the scan
								 * direction, a cut inside the leaf: the rest
								 * is read with the leaf again */
	bool		whole;			/* the copy holds the leaf's whole part of
								 * the outer range, not only the range */
	bool		filtering;		/* reading the leaf whole: [lo, hi) is its
								 * part of the outer range, every entry
								 * tested against the keys */
	int			group_start;	/* item where the prefix's entries start in
								 * the scan direction, -1 if not here */
	int			small_groups;	/* prefixes of few entries in a row here */
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
	BpSlotDesc	desc;
	BpScanKeys	keys;			/* keys.desc points to slot */
	BpScanPos	pos;
	BpScanPos	mark;
	BpScanPos	probe;			/* a skip scan's leaf while it seeks the
								 * next prefix beyond pos's leaf */
	BpLeafWork	work;
	char	   *bound;			/* one slot: a leaf's fence while stepping */
	char	   *bound_keys;		/* its keys, BP_KEYS_BUFSIZE bytes */
	char	   *done_keys;		/* the keys of a parallel skip scan's last
								 * prefix read, allocated at the first seek */
	BpParentCopy parent_copy;	/* the level-1 page its descents go through */
	BlockNumber guess_leaf;		/* the leaf a skip scan's last guess reached */
	int			leaf_guesses;	/* guesses in a row that reached it */
	bool		guess_held;		/* the last guess found entries of its range */
	bool		first_part;		/* the next leaf copy takes the first blocks
								 * of the range only (a plain scan's first
								 * leaf) */
	bool		range_only;		/* a skip scan's next leaf copy takes the
								 * range only: a guess finds the next prefix */
	bool		point;			/* equality on the first column: copy only
								 * the range of each leaf, then sort it */
	bool		point_equal;	/* = or IS NULL on every key column: the
								 * range's entries differ in their TIDs only */
	IndexTuple	itup;			/* itup_size bytes, or BLCKSZ with keys, for
								 * index-only scans */
	bool		same_tuple;		/* every entry the scan returns has the
								 * same index tuple, its TID apart */
	IndexTuple	shared_tuple;	/* with same_tuple, the one formed first */
	int		   *killed;			/* items of pos whose heap tuples are dead */
	int			nkilled;
	int			killed_capacity;
	MemoryContext scan_cxt;		/* where the scan's state lives */
	MemoryContext tuple_cxt;	/* index tuples with NULLs */
	IndexTuple	formed;			/* the last of those (no keys), in tuple_cxt */
	char	   *formed_slot;	/* the slot it was formed of, in tuple_cxt */
	MemoryContext keys_cxt;		/* array elements, reset by each rescan */
} BpScanOpaqueData;

typedef BpScanOpaqueData *BpScanOpaque;

extern void bp_pos_alloc(BpScanPos *pos, const BpSlotDesc *desc);
extern void bp_pos_alloc_in(BpScanPos *pos, const BpSlotDesc *desc,
							MemoryContext cxt);
extern bool bp_pos_allocated(const BpScanPos *pos);
extern void bp_pos_free(BpScanPos *pos);
extern void bp_pos_copy(BpScanPos *dst, const BpScanPos *src,
						const BpSlotDesc *desc);
extern void bp_scan_release_pos(BpScanPos *pos);
extern void bp_scan_kill_entries(IndexScanDesc scan);
extern void bp_pos_find_range(BpScanOpaque so, BpScanPos *pos,
							  ScanDirection dir);
extern void bp_scan_load_leaf(IndexScanDesc scan, BpScanPos *pos, Buffer buf,
							  ScanDirection dir, const char *from,
							  const char *to);
extern void bp_scan_load_leaf_empty(IndexScanDesc scan, BpScanPos *pos,
									Buffer buf, ScanDirection dir);
extern Buffer bp_scan_descend(IndexScanDesc scan, BpGoRightFn go_right);
extern void bp_scan_first_leaf(IndexScanDesc scan, ScanDirection dir,
							   int elem);
extern void bp_scan_element_leaf(IndexScanDesc scan, ScanDirection dir,
								 int elem);
extern void bp_scan_load_rest(IndexScanDesc scan, ScanDirection dir);
extern bool bp_scan_load_range_if_any(IndexScanDesc scan, BpScanPos *pos,
									  Buffer buf, ScanDirection dir);
extern void bp_scan_load_adjacent_leaf(IndexScanDesc scan, BpScanPos *pos,
									   ScanDirection dir, BlockNumber leaf,
									   BlockNumber rightlink);
extern int	bp_following_element(const BpScanKeys *keys, int elem,
								 ScanDirection dir);
extern bool bp_range_beyond_leaf(BpScanOpaque so, ScanDirection dir);
extern bool bp_has_next_leaf(BpScanOpaque so, ScanDirection dir);

#endif							/* BPSCANPOS_H */
