/*-------------------------------------------------------------------------
 *
 * bpvalidate.c
 *	  amvalidate for bpindex operator classes.
 *
 * A bpindex operator class must look like a btree one: strategies 1 to 5
 * with boolean operators, support function 1 a three-way comparison
 * returning int4, all of them for the class's own input type and for
 * every other pair of types its family covers.
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

#include "bpvalidate.h"

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

/* What a family holds for one pair of types: its operators and function. */
typedef struct TypePair
{
	Oid			lefttype;
	Oid			righttype;
	bool		has_proc;
	bool		has_strategy[BTMaxStrategyNumber + 1];
} TypePair;

/* The entry of pairs for (lefttype, righttype), added if missing. */
static TypePair *
find_pair(List **pairs, Oid lefttype, Oid righttype)
{
	ListCell   *lc;
	TypePair   *pair;

	foreach(lc, *pairs)
	{
		pair = (TypePair *) lfirst(lc);
		if (pair->lefttype == lefttype && pair->righttype == righttype)
			return pair;
	}
	pair = palloc0(sizeof(TypePair));
	pair->lefttype = lefttype;
	pair->righttype = righttype;
	*pairs = lappend(*pairs, pair);
	return pair;
}

/* Check the support functions of the family, noting them in pairs. */
static bool
validate_procs(const char *opclass, CatCList *procs, List **pairs)
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
		else
			find_pair(pairs, proc->amproclefttype, proc->amprocrighttype)->has_proc = true;
	}
	return ok;
}

/* Check the operators of the family, noting their strategies in pairs. */
static bool
validate_operators(const char *opclass, CatCList *opers, List **pairs)
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
		else
			find_pair(pairs, op->amoplefttype, op->amoprighttype)
				->has_strategy[op->amopstrategy] = true;
	}
	return ok;
}

/*
 * Every pair of types the family covers needs all five strategies and a
 * comparison function, as in btree, and the class's own type must be one.
 */
static bool
validate_pairs(const char *opclass, List *pairs, Oid opcintype)
{
	bool		ok = true;
	bool		has_own = false;
	ListCell   *lc;

	foreach(lc, pairs)
	{
		TypePair   *pair = (TypePair *) lfirst(lc);
		char	   *types = psprintf("%s and %s", format_type_be(pair->lefttype),
									 format_type_be(pair->righttype));

		has_own |= pair->lefttype == opcintype && pair->righttype == opcintype;
		if (!pair->has_proc)
			ok = report_invalid(opclass, "is missing support function 1 for types", types);
		for (int s = 1; s <= BTMaxStrategyNumber; s++)
			if (!pair->has_strategy[s])
				ok = report_invalid(opclass,
									psprintf("is missing the operator of strategy %d for types", s),
									types);
	}
	if (!has_own)
		ok = report_invalid(opclass, "is missing support function 1 and operators for type",
							format_type_be(opcintype));
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
	List	   *pairs = NIL;
	bool		ok;

	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opclass = NameStr(classform->opcname);

	procs = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(classform->opcfamily));
	opers = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(classform->opcfamily));
	ok = validate_procs(opclass, procs, &pairs);
	ok = validate_operators(opclass, opers, &pairs) && ok;
	ok = validate_pairs(opclass, pairs, classform->opcintype) && ok;

	ReleaseCatCacheList(opers);
	ReleaseCatCacheList(procs);
	ReleaseSysCache(classtup);
	return ok;
}
