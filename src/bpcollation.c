/*-------------------------------------------------------------------------
 *
 * bpcollation.c
 *	  Collations whose order is the order of their strings' bytes, which
 *	  bpindex then compares as bytes (prefixes, windows, shortened pivots,
 *	  stripped prefixes): C and POSIX, and libc's C.UTF-8 in a UTF-8
 *	  database, whose order is that of code points, so of UTF-8 bytes.
 *	  PostgreSQL sorts under C.UTF-8 with strcoll(); bpindex trusts the
 *	  locale's name only once strcoll() has ordered, as bytes do, a set of
 *	  strings with characters of every UTF-8 length, cases and punctuation
 *	  that linguistic orders move.
 *
 * Indexes built before this knew C.UTF-8 compare its strings with the
 * comparison function; their metapage says so (bp_init_slot_desc).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_database.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

#include "bpcollation.h"
#include "bpcompat.h"

/*
 * Strings in ascending order of their bytes: ASCII punctuation, digits,
 * capitals and small letters that linguistic orders interleave, and
 * characters of two, three and four UTF-8 bytes.
 */
static const char *const byte_ordered[] = {
	"", "\t", " ", "!", "-", "0", "9", "A", "AB", "Ab", "B", "Z", "_",
	"a", "a b", "a-b", "aB", "ab", "b", "z", "~", "\x7f",
	"\xc3\x84", "\xc3\x9f", "\xc3\xa0", "\xc3\xa9", "\xc3\xbf",
	"\xc4\x80", "\xce\xa9", "\xd7\xa7",
	"\xe0\xa4\x81", "\xe2\x82\xac", "\xea\xb0\x80", "\xef\xbb\xbf",
	"\xf0\x9d\x84\x9e", "\xf0\x9f\x98\x80"
};

/*
 * The provider and locale name of a collation (the database's for the
 * default one), into *provider and a palloc'd string; false if unknown.
 */
static bool
collation_locale(Oid collation, char *provider, char **name)
{
	HeapTuple	tuple;
	Datum		datum;
	bool		isnull;

	if (collation == DEFAULT_COLLATION_OID)
	{
		tuple = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
		if (!HeapTupleIsValid(tuple))
			return false;
		*provider = ((Form_pg_database) GETSTRUCT(tuple))->datlocprovider;
		datum = SysCacheGetAttr(DATABASEOID, tuple, Anum_pg_database_datcollate,
								&isnull);
	}
	else
	{
		tuple = SearchSysCache1(COLLOID, ObjectIdGetDatum(collation));
		if (!HeapTupleIsValid(tuple))
			return false;
		*provider = ((Form_pg_collation) GETSTRUCT(tuple))->collprovider;
		datum = SysCacheGetAttr(COLLOID, tuple, Anum_pg_collation_collcollate,
								&isnull);
	}
	*name = isnull ? NULL : TextDatumGetCString(datum);
	ReleaseSysCache(tuple);
	return *name != NULL;
}

/* Does the collation order every pair of byte_ordered as their bytes do? */
static bool
orders_test_strings_as_bytes(Oid collation)
{
	int			n = lengthof(byte_ordered);

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (varstr_cmp(byte_ordered[i], strlen(byte_ordered[i]),
						   byte_ordered[j], strlen(byte_ordered[j]),
						   collation) >= 0)
				return false;
	return true;
}

/*
 * Is the collation libc's C.UTF-8 (or C.utf8) in a UTF-8 database, and
 * does strcoll() order the test strings as bytes?  The test runs once per
 * backend and locale name.
 */
static bool
libc_code_point_order(Oid collation)
{
	static int	tested = 0;		/* 1: passed, -1: failed */
	char		provider;
	char	   *name;
	bool		code_point_name;

	if (GetDatabaseEncoding() != PG_UTF8 ||
		!collation_locale(collation, &provider, &name))
		return false;
	code_point_name = provider == COLLPROVIDER_LIBC &&
		(pg_strcasecmp(name, "C.UTF-8") == 0 || pg_strcasecmp(name, "C.utf8") == 0);
	pfree(name);
	if (!code_point_name)
		return false;
	/* both spellings name the same locale */
	if (tested == 0)
		tested = orders_test_strings_as_bytes(collation) ? 1 : -1;
	return tested > 0;
}

/*
 * Is the order of strings under collation the order of their bytes: a C
 * collation, or, if code_point_libc, libc's C.UTF-8?
 */
bool
bp_collation_orders_bytes(Oid collation, bool code_point_libc)
{
	if (!OidIsValid(collation))
		return false;
	if (bp_collation_is_c(collation))
		return true;
	return code_point_libc && libc_code_point_order(collation);
}
