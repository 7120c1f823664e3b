/*-------------------------------------------------------------------------
 *
 * bpindex.c
 *	  The bpindex access method handler, reloptions and module setup.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/reloptions.h"
#include "access/stratnum.h"
#include "commands/progress.h"
#include "commands/vacuum.h"
#include "fmgr.h"
#include "utils/guc.h"

#include "bpindex.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(bpindex_handler);

void		_PG_init(void);

static relopt_kind bp_relopt_kind;
static relopt_parse_elt bp_relopt_tab[3];

/* Register the reloptions of bpindex and the hypothetical-index hooks. */
void
_PG_init(void)
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

	bp_hypo_init();
}

/* amoptions: parse and validate reloptions. */
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

/* amphasename: names of the build subphases in pg_stat_progress_create_index. */
char *
bp_phasename(int64 phasenum)
{
	switch (phasenum)
	{
		case PROGRESS_CREATEIDX_SUBPHASE_INITIALIZE:
			return "initializing";
		case BP_BUILD_PHASE_SCAN:
			return "scanning table";
		case BP_BUILD_PHASE_SORT:
			return "sorting live tuples";
		case BP_BUILD_PHASE_LOAD:
			return "loading tuples in tree";
		default:
			return NULL;
	}
}

/* amcanreturn: every key column is stored whole, so all can be returned. */
static bool
bp_canreturn(Relation index, int attno)
{
	return true;
}

/* The access method's capabilities and entry points. */
Datum
bpindex_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *amroutine = makeNode(IndexAmRoutine);

	amroutine->amstrategies = BTMaxStrategyNumber;
	amroutine->amsupport = 1;
	amroutine->amoptsprocnum = 0;
	amroutine->amcanorder = true;
	amroutine->amcanorderbyop = false;
	amroutine->amcanbackward = true;
	amroutine->amcanunique = false;
	amroutine->amcanmulticol = true;
	amroutine->amoptionalkey = true;
	amroutine->amsearcharray = false;
	amroutine->amsearchnulls = true;
	amroutine->amstorage = false;
	amroutine->amclusterable = false;
	amroutine->ampredlocks = false;
	amroutine->amcanparallel = false;
	amroutine->amcaninclude = false;
	amroutine->amusemaintenanceworkmem = true;
	amroutine->amparallelvacuumoptions =
		VACUUM_OPTION_PARALLEL_BULKDEL | VACUUM_OPTION_PARALLEL_COND_CLEANUP;
	amroutine->amkeytype = InvalidOid;

	amroutine->ambuild = bp_build;
	amroutine->ambuildempty = bp_buildempty;
	amroutine->aminsert = bp_insert;
	amroutine->ambulkdelete = bp_bulkdelete;
	amroutine->amvacuumcleanup = bp_vacuumcleanup;
	amroutine->amcanreturn = bp_canreturn;
	amroutine->amcostestimate = bp_costestimate;
	amroutine->amoptions = bp_options;
	amroutine->amproperty = NULL;
	amroutine->ambuildphasename = bp_phasename;
	amroutine->amvalidate = bp_validate;
	amroutine->amadjustmembers = NULL;
	amroutine->ambeginscan = bp_beginscan;
	amroutine->amrescan = bp_rescan;
	amroutine->amgettuple = bp_gettuple;
	amroutine->amgetbitmap = bp_getbitmap;
	amroutine->amendscan = bp_endscan;
	amroutine->ammarkpos = bp_markpos;
	amroutine->amrestrpos = bp_restrpos;
	amroutine->amestimateparallelscan = NULL;
	amroutine->aminitparallelscan = NULL;
	amroutine->amparallelrescan = NULL;
	bp_set_newer_am_fields(amroutine);

	PG_RETURN_POINTER(amroutine);
}
