/*-------------------------------------------------------------------------
 *
 * bpstate.c
 *	  An open index as the phases see it: its per-backend state in the
 *	  relcache, its checked buffers and metapage, and the checks of its
 *	  definition.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amvalidate.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/tupmacs.h"
#include "catalog/pg_type.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_index.h"
#include "catalog/pg_opclass.h"
#include "commands/defrem.h"
#include "mb/pg_wchar.h"
#include "storage/indexfsm.h"
#include "storage/lmgr.h"
#include <math.h>
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/sortsupport.h"
#include "utils/syscache.h"

#include "bpcompat.h"
#include "bpformat.h"
#include "bpgeometry.h"
#include "bpinternal.h"
#include "bpleaf.h"
#include "bpoptions.h"
#include "bppage.h"
#include "bpslot.h"
#include "bpstate.h"

/* Verify the special space, kind and structure of a page. */
void
bp_check_page(Relation index, Buffer buf, Page page)
{
	BlockNumber blkno = BufferGetBlockNumber(buf);
	BpPageOpaque opaque;
	uint16		kind;

	if (PageIsNew(page))
		bp_report_corrupted(index, blkno, "The page is uninitialized.");
	if (PageGetSpecialSize(page) != BP_OPAQUE_SIZE)
		bp_report_corrupted(index, blkno, "The special space has the wrong size.");
	opaque = BpPageGetOpaque(page);
	if (opaque->page_id != BP_PAGE_ID)
		bp_report_corrupted(index, blkno, "The page identifier is wrong.");
	kind = opaque->flags & BP_KIND_MASK;
	if (kind != BP_META && kind != BP_LEAF && kind != BP_INTERNAL)
		bp_report_corrupted(index, blkno, "The page kind is invalid.");
	/* only a live internal page of long keys omits its low key */
	if ((opaque->flags & BP_LOW_OMITTED) &&
		(kind != BP_INTERNAL || (opaque->flags & BP_DELETED) ||
		 !(opaque->flags & BP_HAS_LOW) || !bp_get_state(index)->desc.has_keys))
		bp_report_corrupted(index, blkno, "The page omits a low key it must store.");
	if ((kind == BP_META) != (blkno == BP_METAPAGE_BLKNO))
		bp_report_corrupted(index, blkno, "The metapage is misplaced.");
	if (opaque->flags & BP_DELETED)
	{
		/* a deleted page keeps only its fences, right-link and xid */
		if (kind == BP_META || (kind == BP_LEAF) != (opaque->level == 0) ||
			(opaque->flags & BP_INCOMPLETE_SPLIT) ||
			!(opaque->flags & BP_HAS_HIGH))
			bp_report_corrupted(index, blkno, "The deleted page is invalid.");
	}
	else if (kind == BP_LEAF)
	{
		const char *problem = bp_leaf_check_shape(page, &bp_get_state(index)->desc);

		if (problem != NULL)
			bp_report_corrupted(index, blkno, problem);
	}
	else if (kind == BP_INTERNAL)
	{
		BpIndexState *state = bp_get_state(index);
		BpInternalHeader *header = bp_internal_header(page, state->desc.width);

		/* pages of long keys have room for fewer children (bp_internal_fill_fitting) */
		if ((state->desc.has_keys ?
			 header->capacity > state->meta.internal_capacity :
			 header->capacity != state->meta.internal_capacity) ||
			header->nitems < 1 || header->nitems > header->capacity ||
			opaque->level == 0)
			bp_report_corrupted(index, blkno, "The internal page header is invalid.");
		if (state->desc.has_keys &&
			opaque->key_low < bp_internal_key_floor(page, state->desc.width))
			bp_report_corrupted(index, blkno, "The key area overlaps the pivots.");
	}
	if (kind != BP_META && !(opaque->flags & BP_DELETED))
	{
		const char *problem = bp_page_key_area_problem(&bp_get_state(index)->desc, page);

		if (problem != NULL)
			bp_report_corrupted(index, blkno, problem);
	}
}

/* Read, lock and verify a page of the index. */
Buffer
bp_read_buffer(Relation index, BlockNumber blkno, int lockmode)
{
	Buffer		buf = ReadBuffer(index, blkno);

	LockBuffer(buf, lockmode);
	bp_check_page(index, buf, BufferGetPage(buf));
	return buf;
}

/*
 * Read a page of the index with a cleanup lock (exclusive, and no other
 * backend holds a pin), as VACUUM takes on every leaf, and verify it.
 */
Buffer
bp_read_buffer_for_cleanup(Relation index, BlockNumber blkno)
{
	Buffer		buf = ReadBuffer(index, blkno);

	LockBufferForCleanup(buf);
	bp_check_page(index, buf, BufferGetPage(buf));
	return buf;
}

/* Read and verify the metapage into meta. */
void
bp_read_meta(Relation index, BpMetaPageData *meta)
{
	Buffer		buf = bp_read_buffer(index, BP_METAPAGE_BLKNO, BUFFER_LOCK_SHARE);
	BpMetaPage	stored = BpPageGetMeta(BufferGetPage(buf));

	if (stored->magic != BP_META_MAGIC)
	{
		UnlockReleaseBuffer(buf);
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not a bpindex index",
						RelationGetRelationName(index)),
				 errdetail_internal("The metapage has the wrong magic number.")));
	}
	if (stored->version != BP_VERSION)
	{
		UnlockReleaseBuffer(buf);
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has on-disk format version %u, but this version of bpindex reads version %d",
						RelationGetRelationName(index), stored->version,
						BP_VERSION),
				 errhint("Rebuild the index with REINDEX INDEX %s.",
						 quote_identifier(RelationGetRelationName(index)))));
	}
	*meta = *stored;
	UnlockReleaseBuffer(buf);
}

/*
 * The per-backend state of an open index, built on first use and kept in
 * the relcache entry.
 */
BpIndexState *
bp_get_state(Relation index)
{
	BpIndexState *state;
	BpMetaPageData meta;
	MemoryContext old;

	if (index->rd_amcache != NULL)
		return (BpIndexState *) index->rd_amcache;

	bp_read_meta(index, &meta);
	old = MemoryContextSwitchTo(index->rd_indexcxt);
	state = palloc0(sizeof(BpIndexState));
	bp_init_slot_desc(index, &state->desc,
					  (meta.flags & BP_META_CODE_POINT_LIBC) != 0);
	MemoryContextSwitchTo(old);

	if (meta.natts != state->desc.natts ||
		meta.slot_width != state->desc.width ||
		!bp_meta_geometry_valid(&state->desc, &meta.leaf_layout,
								meta.internal_capacity))
	{
		pfree(state);
		bp_report_corrupted(index, BP_METAPAGE_BLKNO,
						 "The metapage does not match the index definition.");
	}
	state->meta = meta;
	state->options = bp_index_options(index);
	state->desc.max_key_bytes = bp_max_key_bytes(&state->desc, &state->options);
	state->cached_leaf = InvalidBlockNumber;
	/* the metapage just read gives the root: the first descent needs no reread */
	state->cached_root = meta.root;
	state->cached_root_level = meta.root_level;
	old = MemoryContextSwitchTo(index->rd_indexcxt);
	bp_leaf_work_init(&state->work, &state->desc);
	MemoryContextSwitchTo(old);
	index->rd_amcache = state;
	return state;
}

/* The name of an operator class, for messages. */
static char *
class_name(Oid opclass)
{
	HeapTuple	tuple = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclass));
	char	   *name;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for operator class %u", opclass);
	name = pstrdup(NameStr(((Form_pg_opclass) GETSTRUCT(tuple))->opcname));
	ReleaseSysCache(tuple);
	return name;
}

/*
 * The name of a type, for messages: unqualified, so that it reads the same
 * under CREATE INDEX's restricted search_path (PostgreSQL 17 and later).
 */
static const char *
type_name(Oid type)
{
	HeapTuple	tuple = SearchSysCache1(TYPEOID, ObjectIdGetDatum(type));
	const char *name;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for type %u", type);
	name = pstrdup(NameStr(((Form_pg_type) GETSTRUCT(tuple))->typname));
	ReleaseSysCache(tuple);
	return quote_identifier(name);
}

/*
 * The btree operator family whose "<" is the "<" of a bpindex operator
 * class: the order the class gives its input type; InvalidOid if none.
 */
static Oid
btree_family_of_class(Oid opclass)
{
	Oid			type = get_opclass_input_type(opclass);
	Oid			less = get_opfamily_member(get_opclass_family(opclass), type,
										   type, BTLessStrategyNumber);
	Oid			family;
	Oid			btree_type;
	BpOrderingKind kind;

	if (!OidIsValid(less) ||
		!get_ordering_op_properties(less, &family, &btree_type, &kind))
		return InvalidOid;
	return family;
}

/*
 * Refuse opclass, the bpindex operator class of a key column of type type
 * (column, of index, or of a hypothetical index if index is NULL), when
 * CREATE INDEX chose it by default for another input type than the
 * column's (one the column's type is binary-coercible to) and the type's
 * own default btree operator class orders it otherwise: citext, indexed
 * as text, would not find its case-insensitive equals.  A domain takes its
 * base type's class, and a polymorphic class (anyarray, anyenum, ...)
 * orders as btree's.  A class named in CREATE INDEX that is not the
 * default is the user's choice; naming the default cannot be told from
 * leaving it out (pg_dump leaves it out), so it is refused as well.
 */
void
bp_check_column_class(Oid amoid, Oid type, Oid opclass, const char *column,
					  const char *index)
{
	Oid			opcintype = get_opclass_input_type(opclass);
	Oid			own;
	Oid			family;

	if (getBaseType(type) == opcintype ||
		GetDefaultOpClass(type, amoid) != opclass)
		return;
	own = GetDefaultOpClass(type, BTREE_AM_OID);
	family = btree_family_of_class(opclass);
	if (!OidIsValid(own) || !OidIsValid(family) ||
		get_opclass_family(own) == family)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 index != NULL ?
			 errmsg("bpindex operator class \"%s\" for type %s does not order column \"%s\" (type %s) of index \"%s\" as btree does",
					class_name(opclass), format_type_be(opcintype),
					column, type_name(type), index) :
			 errmsg("bpindex operator class \"%s\" for type %s does not order column \"%s\" (type %s) as btree does",
					class_name(opclass), format_type_be(opcintype),
					column, type_name(type)),
			 errdetail("It is the default operator class of bpindex for type %s, which is binary-coercible to %s; the default btree operator class of type %s is \"%s\", of another operator family.",
					   type_name(type), format_type_be(opcintype),
					   type_name(type), class_name(own)),
			 errhint("Create an operator class of bpindex for type %s and name it in CREATE INDEX, or index the expression (%s::%s) to order the values as %s.",
					 type_name(type), quote_identifier(column),
					 format_type_be(opcintype), format_type_be(opcintype))));
}

/* The operator class of key column att of index (pg_index.indclass). */
static Oid
column_class(Relation index, int att)
{
	bool		isnull;
	Datum		indclass = SysCacheGetAttr(INDEXRELID, index->rd_indextuple,
										   Anum_pg_index_indclass, &isnull);

	Assert(!isnull);
	return ((oidvector *) DatumGetPointer(indclass))->values[att];
}

/*
 * Reject columns bpindex cannot store (types without a stored length), key
 * columns without a comparison function and key columns whose operator
 * class does not order their type as btree does (bp_check_column_class),
 * naming the column.
 */
void
bp_check_columns(Relation index)
{
	TupleDesc	tupdesc = RelationGetDescr(index);
	int			natts = IndexRelationGetNumberOfKeyAttributes(index);

	for (int i = natts; i < IndexRelationGetNumberOfAttributes(index); i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (att->attlen < -1)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex cannot include column \"%s\" in index \"%s\": type %s has no stored length",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(att->atttypid))));
	}
	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		Oid			cmpproc = index_getprocid(index, i + 1, 1);

		if (att->attlen < -1)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex cannot index column \"%s\" of index \"%s\": type %s has no stored length",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(att->atttypid))));
		if (att->attlen == -1 && OidIsValid(index->rd_indcollation[i]) &&
			!get_collation_isdeterministic(index->rd_indcollation[i]))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bpindex cannot index column \"%s\" of index \"%s\": collation \"%s\" is nondeterministic",
							NameStr(att->attname),
							RelationGetRelationName(index),
							get_collation_name(index->rd_indcollation[i])),
					 errhint("Use a deterministic collation, or a btree index.")));
		if (!OidIsValid(cmpproc) ||
			!check_amproc_signature(cmpproc, INT4OID, true, 2, 2,
									index->rd_opcintype[i],
									index->rd_opcintype[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator class of column \"%s\" of index \"%s\" has no comparison function for type %s",
							NameStr(att->attname),
							RelationGetRelationName(index),
							format_type_be(index->rd_opcintype[i])),
					 errdetail("Support function 1 of a bpindex operator class must compare two values of the class's input type and return int4.")));
		bp_check_column_class(index->rd_rel->relam, att->atttypid,
							  column_class(index, i), NameStr(att->attname),
							  RelationGetRelationName(index));
	}
}

/* Is index an index of the bpindex access method (by its name)? */
static bool
index_is_bpindex(Relation index)
{
	char	   *amname = get_am_name(index->rd_rel->relam);
	bool		result = amname != NULL && strcmp(amname, "bpindex") == 0;

	if (amname)
		pfree(amname);
	return result;
}

/*
 * Open a relation that must be a valid bpindex index, for the SQL-callable
 * functions; anything else is refused with an error naming it.
 */
Relation
bp_open_index(Oid indexoid, LOCKMODE lockmode)
{
	Relation	index = index_open(indexoid, lockmode);

	if (index->rd_rel->relkind == RELKIND_PARTITIONED_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a partitioned index",
						RelationGetRelationName(index)),
				 errhint("Use the index of each partition.")));
	if (index->rd_rel->relkind != RELKIND_INDEX ||
		!index_is_bpindex(index))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a bpindex index",
						RelationGetRelationName(index))));
	if (!index->rd_index->indisvalid)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" is not valid",
						RelationGetRelationName(index))));
	return index;
}
