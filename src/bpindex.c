/*-------------------------------------------------------------------------
 *
 * bpindex.c
 *	  The bpindex access method handler and module setup.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "commands/progress.h"
#include "commands/vacuum.h"
#include "fmgr.h"
#include "utils/guc.h"

#include "bpbitmap.h"
#include "bpbuild.h"
#include "bpcompat.h"
#include "bpcost.h"
#include "bphypo.h"
#include "bpinsert.h"
#include "bpoptions.h"
#include "bpparallel.h"
#include "bprowcompare.h"
#include "bpscan.h"
#include "bpsearch.h"
#include "bpvacuum.h"
#include "bpvalidate.h"
#include "bpxlog.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(bpindex_handler);

void		_PG_init(void);

/*
 * Register the reloptions of bpindex, the hypothetical-index hooks, the
 * planner hook for row comparisons and, when the library is preloaded, the
 * WAL resource manager.
 */
void
_PG_init(void)
{
	bp_xlog_register_rmgr();
	bp_options_init();
	bp_hypo_init();
	bp_rowcompare_init();
}

/* amphasename: names of the build subphases in pg_stat_progress_create_index. */
static char *
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

/* amcanreturn: every column (key or INCLUDE) is stored whole and returned. */
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
	amroutine->amcanunique = true;
	amroutine->amcanmulticol = true;
	amroutine->amoptionalkey = true;
	amroutine->amsearcharray = true;
	amroutine->amsearchnulls = true;
	amroutine->amstorage = false;
	amroutine->amclusterable = true;
	amroutine->ampredlocks = true;
	amroutine->amcanparallel = true;
	amroutine->amcaninclude = true;
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
	amroutine->amestimateparallelscan = bp_estimateparallelscan;
	amroutine->aminitparallelscan = bp_initparallelscan;
	amroutine->amparallelrescan = bp_parallelrescan;
	bp_set_newer_am_fields(amroutine, bp_gettreeheight);

	PG_RETURN_POINTER(amroutine);
}
