/* bpindex--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.3'" to load this file. \quit

-- 1.3: on-disk format 4 packs each leaf's entries by a codec of its own
-- (indexes of format 3 need a REINDEX); bpindex_stats counts the packed
-- leaves and the bytes of a stored entry, bpindex_leaves shows each leaf
DROP FUNCTION bpindex_stats(regclass);
CREATE FUNCTION bpindex_stats(index regclass,
	OUT levels int4, OUT internal_pages int8, OUT leaf_pages int8,
	OUT entries int8, OUT avg_leaf_fill float8, OUT avg_log_fill float8,
	OUT sorted_block_fraction float8, OUT empty_leaves int8,
	OUT incomplete_splits int8, OUT unused_pages int8,
	OUT deleted_pages int8, OUT recyclable_pages int8,
	OUT packed_leaves int8, OUT avg_entry_bytes float8)
AS 'MODULE_PATHNAME', 'bpindex_stats'
LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bpindex_stats(regclass) IS
'pages, entries and fill of a bpindex index, from a walk of every level';
-- like pgstattuple's pgstatindex: it reads every page and counts entries
REVOKE ALL ON FUNCTION bpindex_stats(regclass) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bpindex_stats(regclass) TO pg_stat_scan_tables;

CREATE FUNCTION bpindex_leaves(index regclass,
	OUT blkno int8, OUT entries int4, OUT capacity int4, OUT encoding text,
	OUT entry_bytes int4, OUT key_bytes int4[], OUT block_bytes int4,
	OUT offset_bytes int4, OUT low_key text, OUT high_key text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bpindex_leaves'
LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bpindex_leaves(regclass) IS
'each leaf of a bpindex index: entries, capacity, encoding and code widths (superuser only: shows keys)';
REVOKE ALL ON FUNCTION bpindex_leaves(regclass) FROM PUBLIC;
