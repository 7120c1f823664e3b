/*-------------------------------------------------------------------------
 *
 * bpoptions.c
 *	  The reloptions of bpindex and their one validation.
 *
 * packed_leaves (default on) lets leaves pack their entries (bpleaf.c);
 * off keeps every leaf filled from now on plain.
 *
 * fillfactor, log_size and block_size are parsed by amoptions, which can
 * check each value's range only: whether a log_size and block_size fit a
 * leaf depends on the width of the index's entries.  bp_layout_for_options
 * makes that check, and it is made wherever options meet an index:
 * CREATE INDEX (and every rebuild: REINDEX, TRUNCATE, VACUUM FULL, a
 * restored dump), ALTER INDEX ... SET (through the post-alter hook, so
 * that nothing is accepted that a rebuild would refuse) and the
 * hypothetical indexes.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/reloptions.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_class.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "bpgeometry.h"
#include "bpoptions.h"
#include "bpslot.h"

static relopt_kind bp_relopt_kind;
static relopt_parse_elt bp_relopt_tab[4];
static object_access_hook_type prev_object_access_hook = NULL;

static void bp_options_post_alter(ObjectAccessType access, Oid classId,
								  Oid objectId, int subId, void *arg);

/* Register the reloptions and the hook that validates ALTER INDEX SET. */
void
bp_options_init(void)
{
	bp_relopt_kind = add_reloption_kind();
	add_int_reloption(bp_relopt_kind, "fillfactor",
					  "Percentage of each leaf's block capacity filled by CREATE INDEX",
					  BP_DEFAULT_FILLFACTOR, BP_MIN_FILLFACTOR, 100,
					  AccessExclusiveLock);
	add_int_reloption(bp_relopt_kind, "log_size",
					  "Slots in the insert log of each leaf (0: chosen from the entry width)",
					  0, 0, BP_MAX_LAYOUT_SLOTS, AccessExclusiveLock);
	add_int_reloption(bp_relopt_kind, "block_size",
					  "Slots in each block of a leaf (0: chosen from the entry width)",
					  0, 0, BP_MAX_LAYOUT_SLOTS, AccessExclusiveLock);
	bp_relopt_tab[0].optname = "fillfactor";
	bp_relopt_tab[0].opttype = RELOPT_TYPE_INT;
	bp_relopt_tab[0].offset = offsetof(BpOptions, fillfactor);
	bp_relopt_tab[1].optname = "log_size";
	bp_relopt_tab[1].opttype = RELOPT_TYPE_INT;
	bp_relopt_tab[1].offset = offsetof(BpOptions, log_size);
	bp_relopt_tab[2].optname = "block_size";
	bp_relopt_tab[2].opttype = RELOPT_TYPE_INT;
	bp_relopt_tab[2].offset = offsetof(BpOptions, block_size);
	add_bool_reloption(bp_relopt_kind, "packed_leaves",
					   "Store each leaf's entries in the fewest bytes its contents allow",
					   true, AccessExclusiveLock);
	bp_relopt_tab[3].optname = "packed_leaves";
	bp_relopt_tab[3].opttype = RELOPT_TYPE_BOOL;
	bp_relopt_tab[3].offset = offsetof(BpOptions, packed_leaves);

	prev_object_access_hook = object_access_hook;
	object_access_hook = bp_options_post_alter;
}

/* amoptions: parse reloptions and check the range of each. */
bytea *
bp_options(Datum reloptions, bool validate)
{
	BpOptions  *opts = (BpOptions *) build_reloptions(reloptions, validate,
													  bp_relopt_kind,
													  sizeof(BpOptions),
													  bp_relopt_tab,
													  lengthof(bp_relopt_tab));

	if (validate && opts && (opts->log_size == 1 || opts->block_size == 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for bpindex option \"%s\": 1",
						opts->log_size == 1 ? "log_size" : "block_size"),
				 errdetail("Valid values are 0 (chosen from the entry width) and 2 to %d slots.",
						   BP_MAX_LAYOUT_SLOTS)));
	return (bytea *) opts;
}

/* The options of an index, defaults where none are set. */
BpOptions
bp_index_options(Relation index)
{
	BpOptions	defaults = {0, BP_DEFAULT_FILLFACTOR, 0, 0, true};

	return index->rd_options ? *(BpOptions *) index->rd_options : defaults;
}

/*
 * The reloptions of relation relid as the current command has just
 * written them (the relcache does not show them before the command ends).
 */
static BpOptions
options_being_written(Oid relid)
{
	Relation	pg_class = table_open(RelationRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	BpOptions	opts = {0, BP_DEFAULT_FILLFACTOR, 0, 0};

	ScanKeyInit(&key, Anum_pg_class_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(pg_class, ClassOidIndexId, true, SnapshotSelf,
							  1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		bytea	   *parsed = extractRelOptions(tuple, RelationGetDescr(pg_class),
											   bp_options);

		if (parsed)
			opts = *(BpOptions *) parsed;
	}
	systable_endscan(scan);
	table_close(pg_class, AccessShareLock);
	return opts;
}

/*
 * object_access_hook: after ALTER INDEX ... SET or RESET of a bpindex
 * index, refuse options that its next rebuild could not use.
 */
static void
bp_options_post_alter(ObjectAccessType access, Oid classId, Oid objectId,
					  int subId, void *arg)
{
	if (prev_object_access_hook)
		prev_object_access_hook(access, classId, objectId, subId, arg);
	if (access == OAT_POST_ALTER && classId == RelationRelationId &&
		subId == 0 && get_rel_relkind(objectId) == RELKIND_INDEX)
	{
		Relation	index = relation_open(objectId, AccessShareLock);

		if (index->rd_indam != NULL && index->rd_indam->amoptions == bp_options)
		{
			BpOptions	opts = options_being_written(objectId);
			BpSlotDesc	desc;
			BpaLayout	layout;

			/* the layout depends on the slots' width alone */
			bp_init_slot_desc(index, &desc, false);
			bp_layout_for_options(&opts, desc.ncolumns, desc.width,
								  RelationGetRelationName(index), &layout);
		}
		relation_close(index, AccessShareLock);
	}
}
