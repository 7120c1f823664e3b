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
static relopt_parse_elt bp_relopt_tab[1];

/* Register the reloptions of bpindex. */
void
_PG_init(void)
{
	bp_relopt_kind = add_reloption_kind();
	add_int_reloption(bp_relopt_kind, "fillfactor",
					  "Percentage of each leaf's block capacity filled by CREATE INDEX",
					  BP_DEFAULT_FILLFACTOR, BP_MIN_FILLFACTOR, 100,
					  AccessExclusiveLock);
	bp_relopt_tab[0].optname = "fillfactor";
	bp_relopt_tab[0].opttype = RELOPT_TYPE_INT;
	bp_relopt_tab[0].offset = offsetof(BpOptions, fillfactor);
}

/* amoptions: parse and validate reloptions. */
bytea *
bp_options(Datum reloptions, bool validate)
{
	return (bytea *) build_reloptions(reloptions, validate, bp_relopt_kind,
									  sizeof(BpOptions), bp_relopt_tab,
									  lengthof(bp_relopt_tab));
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

	PG_RETURN_POINTER(amroutine);
}
