/*-------------------------------------------------------------------------
 *
 * bplikeprefix.c
 *	  LIKE 'prefix%' on a column whose order is bytewise: of a pattern
 *	  operator class (text_pattern_ops, varchar_pattern_ops,
 *	  bpchar_pattern_ops) under any collation, or of text's or bpchar's
 *	  default class under libc's C.UTF-8 (bpcollation.c): the bounds the
 *	  pattern's fixed prefix implies (col ~>=~ 'prefix' AND col ~<~
 *	  'prefiy', or col = 'prefix' for a pattern without wildcards; >= and <
 *	  for the default classes).  PostgreSQL's planner derives them for
 *	  btree's pattern classes, and for the default classes under C only;
 *	  bprowcompare.c's planner hook makes them lossy index clauses, the
 *	  LIKE staying a filter.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "bpcollation.h"
#include "bpcompat.h"
#include "bplikeprefix.h"

/*
 * Does key column col of index order its strings as bytes for a LIKE of
 * collation like_collation: a pattern class's family, whose >= compares
 * bytes, or text's or bpchar's default family under the LIKE's collation
 * when that is libc's C.UTF-8 (under C PostgreSQL derives the bounds)?
 */
static bool
bytewise_column(IndexOptInfo *index, int col, Oid like_collation)
{
	Oid			type = index->opcintype[col];
	Oid			collation = index->indexcollations[col];
	Oid			ge = get_opfamily_member(index->opfamily[col], type, type,
										 BTGreaterEqualStrategyNumber);
	RegProcedure proc;

	if (!OidIsValid(ge))
		return false;
	proc = get_opcode(ge);
	if (proc == F_TEXT_PATTERN_GE || proc == F_BPCHAR_PATTERN_GE)
		return true;
	return (proc == F_TEXT_GE || proc == F_BPCHARGE) &&
		collation == like_collation && !bp_collation_is_c(collation) &&
		bp_collation_orders_bytes(collation, true);
}

/*
 * The fixed prefix of a LIKE pattern of len bytes (backslash escapes the
 * next character): what comes before its first wildcard, and *exact if
 * it has none.  NULL for a pattern that ends with its escape character,
 * which LIKE refuses when it runs.
 */
static char *
like_fixed_prefix(const char *pattern, int len, bool *exact)
{
	StringInfoData prefix;
	int			i = 0;

	initStringInfo(&prefix);
	*exact = false;
	while (i < len)
	{
		int			charlen;

		if (pattern[i] == '%' || pattern[i] == '_')
			return prefix.data;
		if (pattern[i] == '\\' && ++i >= len)
			return NULL;
		charlen = pg_mblen(pattern + i);
		appendBinaryStringInfo(&prefix, pattern + i, charlen);
		i += charlen;
	}
	*exact = true;
	return prefix.data;
}

/*
 * The shortest string, byte by byte, above every string that starts with
 * prefix: the prefix with its last character that can be incremented
 * incremented, the characters after it dropped; NULL if none can be.
 */
static char *
prefix_successor(const char *prefix)
{
	mbcharacter_incrementer increment = pg_database_encoding_character_incrementer();
	int			len = strlen(prefix);
	char	   *work = pstrdup(prefix);

	while (len > 0)
	{
		int			start = pg_mbcliplen(work, len, len - 1);
		int			charlen = len - start;
		char		saved[MAX_MULTIBYTE_CHAR_LEN];

		memcpy(saved, work + start, charlen);
		if (increment((unsigned char *) work + start, charlen) &&
			memcmp(work + start, saved, charlen) > 0)
		{
			work[start + charlen] = '\0';
			return work;
		}
		len = start;
	}
	pfree(work);
	return NULL;
}

/*
 * The clause column op value, op the member of strategy of the family of
 * the index's key column col, value a constant of the column's type.
 */
static RestrictInfo *
bound_clause(PlannerInfo *root, IndexOptInfo *index, int col, Node *column,
			 StrategyNumber strategy, const char *value)
{
	Oid			type = index->opcintype[col];
	Oid			opno = get_opfamily_member(index->opfamily[col], type, type,
										   strategy);
	Datum		datum;
	Expr	   *clause;

	if (type == BPCHAROID)
		datum = DirectFunctionCall3(bpcharin, CStringGetDatum(value),
									ObjectIdGetDatum(InvalidOid),
									Int32GetDatum(-1));
	else
		datum = CStringGetTextDatum(value);
	clause = make_opclause(opno, BOOLOID, false, (Expr *) copyObject(column),
						   (Expr *) makeConst(type, -1, get_typcollation(type),
											  -1, datum, false, false),
						   InvalidOid, index->indexcollations[col]);
	set_opfuncid((OpExpr *) clause);
	return make_simple_restrictinfo(root, clause);
}

/*
 * The key column of index, in bytewise order (bytewise_column), that a
 * LIKE's operand is; -1 if none.
 */
static int
bytewise_like_column(Node *operand, IndexOptInfo *index, Oid like_collation)
{
	for (int col = 0; col < index->nkeycolumns; col++)
		if (match_index_to_operand(operand, col, index) &&
			bytewise_column(index, col, like_collation))
			return col;
	return -1;
}

/*
 * The bounds on a key column of index that rinfo's LIKE implies, or NIL;
 * the column in *col.  The LIKE (text or bpchar, under a deterministic
 * collation) must test that column, in bytewise order, against a
 * constant pattern with a fixed prefix.
 */
List *
bp_like_prefix_bounds(PlannerInfo *root, RestrictInfo *rinfo,
					  IndexOptInfo *index, int *col)
{
	OpExpr	   *like = (OpExpr *) rinfo->clause;
	Node	   *column;
	Const	   *pattern;
	text	   *pattern_text;
	char	   *prefix;
	char	   *successor;
	bool		exact;
	List	   *bounds;

	if (!IsA(like, OpExpr) || list_length(like->args) != 2 ||
		(like->opno != OID_TEXT_LIKE_OP && like->opno != OID_BPCHAR_LIKE_OP))
		return NIL;
	column = linitial(like->args);
	pattern = (Const *) lsecond(like->args);
	if (!IsA(pattern, Const) || pattern->constisnull ||
		(*col = bytewise_like_column(column, index, like->inputcollid)) < 0 ||
		(OidIsValid(like->inputcollid) &&
		 !get_collation_isdeterministic(like->inputcollid)))
		return NIL;
	pattern_text = DatumGetTextPP(pattern->constvalue);
	prefix = like_fixed_prefix(VARDATA_ANY(pattern_text),
							   VARSIZE_ANY_EXHDR(pattern_text), &exact);
	if (prefix == NULL || prefix[0] == '\0')
		return NIL;
	if (exact)
		return list_make1(bound_clause(root, index, *col, column,
									   BTEqualStrategyNumber, prefix));
	bounds = list_make1(bound_clause(root, index, *col, column,
									 BTGreaterEqualStrategyNumber, prefix));
	successor = prefix_successor(prefix);
	if (successor != NULL)
		bounds = lappend(bounds, bound_clause(root, index, *col, column,
											  BTLessStrategyNumber, successor));
	return bounds;
}
