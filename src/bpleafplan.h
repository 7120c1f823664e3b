/*-------------------------------------------------------------------------
 *
 * bpleafplan.h
 *	  Planning and filling leaves: the codec and layout that hold a set
 *	  of entries between two fences, and writing them into a page.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPLEAFPLAN_H
#define BPLEAFPLAN_H

#include "bpa.h"
#include "bpcodec.h"
#include "bpgeometry.h"
#include "bpleafcodec.h"
#include "bpslot.h"

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
	const char *first;			/* keyed: the entry added first */
	const char *last;			/* keyed: the entry added last */
	const char *first_key;		/* keyed: the first key that is not NULL */
	Size		shared_prefix;	/* keyed: bytes every such key shares with
								 * it (bp_bytewise_single_key indexes) */
	uint16		layout_width;	/* width of the cached layout, 0: none */
	BpaLayout	layout;
	bool		have_plan;		/* plan holds every entry added */
	BpLeafPlan	plan;
} BpLeafPlanner;

extern bool bp_leaf_windows_hold(Page page, const BpSlotDesc *desc);
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

#endif							/* BPLEAFPLAN_H */
