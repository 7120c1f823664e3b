/*-------------------------------------------------------------------------
 *
 * bpvalidate.c
 *	  amvalidate for bpindex operator classes.
 *
 * A bpindex operator class must look like a btree one: strategies 1 to 5
 * with boolean operators, support function 1 a three-way comparison
 * returning int4, and both complete for the class's own input type.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amvalidate.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#include "bpindex.h"

/* Report one problem of an operator class and return false. */
static bool
report_invalid(const char *opclass, const char *message, const char *what)
{
	ereport(INFO,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("operator class \"%s\" of access method bpindex %s %s",
					opclass, message, what)));
	return false;
}

/* Check the support functions of the family; note those for opcintype. */
static bool
validate_procs(const char *opclass, CatCList *procs, Oid opcintype,
			   bool *has_own_proc)
{
	bool		ok = true;

	for (int i = 0; i < procs->n_members; i++)
	{
		Form_pg_amproc proc = (Form_pg_amproc) GETSTRUCT(&procs->members[i]->tuple);

		if (proc->amprocnum != 1)
			ok = report_invalid(opclass, "contains invalid support number",
								format_procedure(proc->amproc));
		else if (!check_amproc_signature(proc->amproc, INT4OID, true, 2, 2,
										 proc->amproclefttype,
										 proc->amprocrighttype))
			ok = report_invalid(opclass, "contains support function with wrong signature",
								format_procedure(proc->amproc));
		else if (proc->amproclefttype == opcintype &&
				 proc->amprocrighttype == opcintype)
			*has_own_proc = true;
	}
	return ok;
}

/* Check the operators of the family; note the strategies for opcintype. */
static bool
validate_operators(const char *opclass, CatCList *opers, Oid opcintype,
				   bool *has_strategy)
{
	bool		ok = true;

	for (int i = 0; i < opers->n_members; i++)
	{
		Form_pg_amop op = (Form_pg_amop) GETSTRUCT(&opers->members[i]->tuple);

		if (op->amopstrategy < 1 || op->amopstrategy > BTMaxStrategyNumber)
			ok = report_invalid(opclass, "contains operator with invalid strategy number",
								format_operator(op->amopopr));
		else if (op->amoppurpose != AMOP_SEARCH)
			ok = report_invalid(opclass, "contains ordering operator",
								format_operator(op->amopopr));
		else if (!check_amop_signature(op->amopopr, BOOLOID,
									   op->amoplefttype, op->amoprighttype))
			ok = report_invalid(opclass, "contains operator with wrong signature",
								format_operator(op->amopopr));
		else if (op->amoplefttype == opcintype && op->amoprighttype == opcintype)
			has_strategy[op->amopstrategy] = true;
	}
	return ok;
}

/* amvalidate: check an operator class and its family. */
bool
bp_validate(Oid opclassoid)
{
	HeapTuple	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	Form_pg_opclass classform;
	char	   *opclass;
	CatCList   *procs;
	CatCList   *opers;
	bool		has_strategy[BTMaxStrategyNumber + 1] = {false};
	bool		has_own_proc = false;
	bool		ok;

	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opclass = NameStr(classform->opcname);

	procs = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(classform->opcfamily));
	opers = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(classform->opcfamily));
	ok = validate_procs(opclass, procs, classform->opcintype, &has_own_proc);
	ok = validate_operators(opclass, opers, classform->opcintype, has_strategy) && ok;

	if (!has_own_proc)
		ok = report_invalid(opclass, "is missing support function 1 for type",
							format_type_be(classform->opcintype));
	for (int s = 1; s <= BTMaxStrategyNumber; s++)
		if (!has_strategy[s])
			ok = report_invalid(opclass, psprintf("is missing the operator of strategy %d for type", s),
								format_type_be(classform->opcintype));

	ReleaseCatCacheList(opers);
	ReleaseCatCacheList(procs);
	ReleaseSysCache(classtup);
	return ok;
}
