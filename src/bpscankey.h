/*-------------------------------------------------------------------------
 *
 * bpscankey.h
 *	  Preprocessed scan keys and the range predicates they define.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPSCANKEY_H
#define BPSCANKEY_H

#include "access/skey.h"
#include "fmgr.h"
#include "utils/relcache.h"

#include "bpslot.h"

/* Outcome of testing one index entry against the scan keys. */
typedef enum BpKeyResult
{
	BP_KEY_MATCH,
	BP_KEY_BELOW,				/* entry sorts before the range of a key */
	BP_KEY_ABOVE				/* entry sorts after the range of a key */
} BpKeyResult;

/* One preprocessed scan key. */
typedef struct BpScanKey
{
	int			attno;			/* 0-based index column */
	StrategyNumber strategy;	/* btree strategy, 0 for NULL tests */
	int			flags;			/* SK_SEARCHNULL, SK_SEARCHNOTNULL */
	Datum		argument;
	Oid			collation;
	FmgrInfo	cmp;			/* (index type, argument type) comparison */
	struct SortSupportData *order;	/* the column's key_order, when cmp is
									 * its support function 1 */
	BpCompareKind kind;			/* inline comparison, if argument has the
								 * column's type */
	bool		has_prefix;		/* argument is a key of the column's type */
	char		prefix[BP_KEY_PREFIX_SIZE];	/* ... its key prefix */
	int			below_limit;	/* value keys: a value whose comparison
								 * with argument is below this sorts
								 * before the key's range */
	int			above_limit;	/* ... above this, after it */
	bool		drives_array;	/* takes each element of the scan's driving
								 * array in turn (BpScanKeys.drive_elems) */
	bool		skip;			/* a skip scan's key on a prefix column: =
								 * the prefix's value (IS NULL for a NULL),
								 * no condition while there is no prefix */
} BpScanKey;

/*
 * The side of key's range that an entry lies on whose order against the
 * key's argument is told by c (< 0, 0, > 0): outside the range when c
 * passes one of the key's limits, else BP_KEY_MATCH.
 */
static inline BpKeyResult
bp_key_side(const BpScanKey *key, int c)
{
	if (c < key->below_limit)
		return BP_KEY_BELOW;
	if (c > key->above_limit)
		return BP_KEY_ABOVE;
	return BP_KEY_MATCH;
}

/*
 * Where NULLs alone decide, the side of key's range of an entry whose
 * column is NULL (isnull) or not, into *side: an IS NULL or IS NOT NULL
 * key, or a value key and a NULL.  False when the value must be compared.
 */
static inline bool
bp_key_null_side(const BpScanKey *key, bool nulls_first, bool isnull,
				 BpKeyResult *side)
{
	BpKeyResult null_side = nulls_first ? BP_KEY_BELOW : BP_KEY_ABOVE;
	BpKeyResult value_side = nulls_first ? BP_KEY_ABOVE : BP_KEY_BELOW;

	if (key->flags & SK_SEARCHNULL)
		*side = isnull ? BP_KEY_MATCH : value_side;
	else if (key->flags & SK_SEARCHNOTNULL)
		*side = isnull ? null_side : BP_KEY_MATCH;
	else if (isnull)
		*side = null_side;
	else
		return false;
	return true;
}

/*
 * An = ANY(array) key that does not drive the scan: the array's sorted
 * distinct elements, tested by binary search on each entry.  Range keys
 * >= its first and <= its last element bound the scan.
 */
typedef struct BpScanFilter
{
	int			attno;			/* 0-based index column */
	Oid			collation;
	FmgrInfo	cmp;			/* (index type, element type) comparison */
	struct SortSupportData *order;	/* as BpScanKey's */
	BpCompareKind kind;			/* inline comparison, if the element type is
								 * the column's */
	Datum	   *elems;
	int			nelems;
} BpScanFilter;

/* The scan keys of a scan, ordered by column. */
typedef struct BpScanKeys
{
	int			nkeys;
	bool		unsatisfiable;	/* a key can never match (NULL argument) */
	bool		exact;			/* the range predicates decide every key */
	bool		point_bytes;	/* one key, = on the first column, whose
								 * equal keys have equal bytes */
	bool		first_column_prefix;	/* every key is a value key on the
										 * first column, ASC NULLS LAST, of
										 * kind BP_CMP_PREFIX */
	bool		first_column_inline;	/* every key is a value key on the
										 * first column with an inline
										 * comparison */
	bool		inline_columns; /* every key has an inline comparison, on
								 * an ASC NULLS LAST column, and is a value
								 * key or a skip key */
	BpScanKey  *keys;			/* room for twice the executor's keys */
	int			nfilters;
	BpScanFilter *filters;		/* room for the executor's keys */

	/*
	 * The = ANY(array) key whose sorted distinct elements split the scan
	 * into one primitive scan per element, in index order: an array on a
	 * column that every earlier column's = key pins.  drive_key < 0: none.
	 */
	int			drive_key;
	Datum	   *drive_elems;
	int			drive_nelems;
	int			drive_elem;		/* the element the key holds */

	/*
	 * The driving array's column lies in a skip scan's prefix: its
	 * elements are the outer loop, each a skip scan over the prefix's
	 * other columns (bp_skip_next_element), instead of an inner loop
	 * inside each prefix.
	 */
	bool		drive_in_prefix;

	/*
	 * Skip scan: key columns 0 .. nskip - 1 form a prefix whose distinct
	 * values the scan walks, one primitive scan per value, as if each
	 * column had an = key on the current prefix (their skip keys).  The
	 * scan's outer range is the one its own keys bound.  nskip = 0: the
	 * scan does not skip.
	 */
	int			nskip;
	bool		prefix_set;		/* the skip keys hold a prefix */
	bool		skip_exact;		/* exact, with the prefix set */
	char	   *prefix;			/* a slot holding the prefix */
	char	   *prefix_keys;	/* its keys, BP_KEYS_BUFSIZE bytes */
	const BpSlotDesc *desc;
} BpScanKeys;

/* For keys with first_column_inline: is slot inside the range? */
static inline bool
bp_inside_first_column(const BpScanKeys *keys, const char *slot)
{
	const BpSlotDesc *desc = keys->desc;
	const char *value = slot + desc->att_offset[0];

	if (bp_slot_isnull(desc, slot, 0))
		return false;
	for (int i = 0; i < keys->nkeys; i++)
	{
		const BpScanKey *key = &keys->keys[i];
		int			c = bp_compare_inline(key->kind, value, key->argument,
										  desc->att_len[0]);

		if (c < key->below_limit || c > key->above_limit)
			return false;
	}
	return true;
}

extern void bp_prepare_keys(Relation index, ScanKey scankey, int nkeys,
							bool parallel, BpScanKeys *out);
extern BpKeyResult bp_test_keys(const BpScanKeys *keys, const char *slot);
extern bool bp_test_outer_keys(const BpScanKeys *keys, const char *slot);
extern void bp_set_prefix(BpScanKeys *keys, const char *slot);
extern void bp_clear_prefix(BpScanKeys *keys);
extern bool bp_same_prefix(const BpScanKeys *keys, const char *a,
						   const char *b);
extern bool bp_below_outer_range(const void *slot, void *keys);
extern bool bp_above_outer_range(const void *slot, void *keys);
extern bool bp_before_next_prefix(const void *slot, void *keys);
extern bool bp_after_prev_prefix(const void *slot, void *keys);
extern bool bp_not_after_prev_prefix(const void *slot, void *keys);
extern void bp_set_array_element(BpScanKeys *keys, int elem);

/* Columns a BpIntegerBound tests at most. */
#define BP_INTEGER_BOUND_COLUMNS	4

/*
 * One side of the range of scan keys on leading integer-like columns, as
 * the values each column's keys put their limit on, tested by one integer
 * comparison a column (bp_integer_bound).
 */
typedef struct BpIntegerBoundColumn
{
	uint16		offset;			/* of the column in a slot */
	BpCompareKind kind;			/* BP_CMP_INT2, INT4, INT8 or UINT32 */
	bool		null_pinned;	/* an IS NULL key: the column is NULL */
	bool		has_limit;		/* a value key limits this side */
	bool		strict;			/* the limit's own value lies outside */
	int64		limit;
	bool		pinned;			/* = keys: all of value equal */
	bool		conflict;		/* = keys of two values: nothing is equal */
	int64		equal;
} BpIntegerBoundColumn;

typedef struct BpIntegerBound
{
	const BpSlotDesc *desc;
	int			ncolumns;
	BpIntegerBoundColumn columns[BP_INTEGER_BOUND_COLUMNS];
#ifdef USE_ASSERT_CHECKING
	const struct BpScanKeys *keys;	/* to check each answer */
#endif
} BpIntegerBound;

extern bool bp_integer_bound(const BpScanKeys *keys, bool lower,
							 BpIntegerBound *bound);
extern bool bp_below_integer_bound(const void *slot, void *bound);
extern bool bp_not_above_integer_bound(const void *slot, void *bound);

extern bool bp_below_range(const void *slot, void *keys);
extern bool bp_above_range(const void *slot, void *keys);
extern bool bp_not_above_range(const void *slot, void *keys);
extern BpKeyResult bp_prefix_side(const BpScanKeys *keys, const char *slot);

#endif							/* BPSCANKEY_H */
