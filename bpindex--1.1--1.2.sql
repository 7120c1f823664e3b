/* bpindex--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.2'" to load this file. \quit

-- 1.2: VACUUM deletes emptied leaves and recycles them; bpindex_stats
-- reports the deleted pages and those that may be reused already
DROP FUNCTION bpindex_stats(regclass);
CREATE FUNCTION bpindex_stats(index regclass,
	OUT levels int4, OUT internal_pages int8, OUT leaf_pages int8,
	OUT entries int8, OUT avg_leaf_fill float8, OUT avg_log_fill float8,
	OUT sorted_block_fraction float8, OUT empty_leaves int8,
	OUT incomplete_splits int8, OUT unused_pages int8,
	OUT deleted_pages int8, OUT recyclable_pages int8)
AS 'MODULE_PATHNAME', 'bpindex_stats'
LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bpindex_stats(regclass) IS
'pages, entries and fill of a bpindex index, from a walk of every level';
-- like pgstattuple's pgstatindex: it reads every page and counts entries
REVOKE ALL ON FUNCTION bpindex_stats(regclass) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bpindex_stats(regclass) TO pg_stat_scan_tables;
