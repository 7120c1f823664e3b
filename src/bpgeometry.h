/*-------------------------------------------------------------------------
 *
 * bpgeometry.h
 *	  The size model: reloptions, leaf layouts and plans, internal
 *	  capacities, and the pages and levels of an index.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPGEOMETRY_H
#define BPGEOMETRY_H

#include "bpa.h"
#include "bpcodec.h"
#include "bpslot.h"

/* Reloption defaults. */
#define BP_DEFAULT_FILLFACTOR	90
#define BP_MIN_FILLFACTOR		10
#define BP_MAX_LAYOUT_SLOTS		1024	/* upper bound of log_size, block_size */

/* Fill of internal pages at build, leaving room for later downlinks. */
#define BP_INTERNAL_FILLFACTOR	70
/* The capacity bp_max_key_bytes leaves room for on an internal page. */
#define BP_LONG_KEYS_INTERNAL_CAPACITY	3

/*
 * Levels of a tree at most: a split locks a page a level up to the root,
 * and a backend holds at most MAX_SIMUL_LWLOCKS (200) LWLocks.
 */
#define BP_MAX_LEVELS		100

/* The fewest bytes of keys an entry of an index with keys may take. */
#define BP_MIN_KEY_BYTES	64

/* Reloptions. */
typedef struct BpOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			fillfactor;		/* leaf fill at build, in percent */
	int			log_size;		/* slots in each leaf's log, 0 = default */
	int			block_size;		/* slots per BPA block, 0 = default */
	bool		packed_leaves;	/* leaves may pack their entries */
} BpOptions;

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

extern void bp_layout_for_options(const BpOptions *opts, int ncolumns,
								  uint16 width, const char *index_name,
								  BpaLayout *layout);
extern int	bp_internal_capacity(uint16 width);
extern int	bp_internal_keyed_capacity(uint16 width, double key_bytes);
extern bool bp_choose_leaf_layout(const BpOptions *opts, uint16 width,
								  Size region_room, BpaLayout *layout);
extern double bp_internal_fill_estimate(uint16 width, double avg_key_bytes);
extern int	bp_internal_build_count(const BpSlotDesc *desc, int capacity,
									const char *pivots, int n);
extern int	bp_leaf_layout_capacity(const BpaLayout *layout);
extern int	bp_layout_fill_target(const BpaLayout *layout, int fillfactor);
extern BlockNumber bp_estimate_pages(double ntuples, double per_leaf,
									 double per_internal, int *levels);
extern Size bp_leaf_room(int ncolumns, uint16 slot_width, uint16 entry_width);
extern Size bp_leaf_region_room(const BpSlotDesc *desc, uint16 width);
extern bool bp_choose_plain_layout(const BpOptions *opts, int ncolumns,
								   uint16 width, BpaLayout *layout);
extern int	bp_keyed_leaf_fill(int ncolumns, uint16 slot_width,
							   uint16 entry_width, const BpOptions *opts,
							   double avg_key_bytes, double fresh_key_bytes);
extern Size bp_leaf_prefix_bytes(int ncolumns, uint16 slot_width);
extern Size bp_leaf_marks_bytes(Size prefix, uint16 width);
extern void bp_plan_keyed_layout(Size room, uint16 width,
								 const BpOptions *opts, Size fence_keys,
								 double avg, double fresh, BpLeafPlan *plan);
extern void bp_plan_keyed_to_hold(Size room, uint16 width,
								  const BpOptions *opts, Size fence_keys,
								  int nentries, Size key_bytes,
								  BpLeafPlan *plan);
extern int	bp_keyed_fill_target(const BpLeafPlan *plan, int fillfactor,
								 double avg);
extern Size bp_internal_pivots_offset(int capacity);
extern int	bp_internal_capacity_for_keys(uint16 width, Size key_bytes,
										  int capacity, int least);
extern Size bp_max_key_bytes(const BpSlotDesc *desc, const BpOptions *opts);
extern void bp_check_key_room(const BpSlotDesc *desc, const char *index_name);

extern bool bp_meta_geometry_valid(const BpSlotDesc *desc,
								   const BpaLayout *leaf_layout,
								   int internal_capacity);
extern bool bp_column_packable(BpCompareKind kind, int16 attlen);
extern int	bp_code_bytes(uint64 span);
extern int	bp_tid_code_bytes(double blocks, double rows_per_page);

#endif							/* BPGEOMETRY_H */
