/* bpindex--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.5'" to load this file. \quit

-- 1.5: a packed leaf of a single key column in bytewise order (text under
-- "C", bytea, bpchar) stores its entries' keys without the prefix its
-- fences share; bpindex_leaves shows how many bytes that prefix has.  The
-- 1.4 definition keeps working with the new library until the update.
DROP FUNCTION bpindex_leaves(regclass);
CREATE FUNCTION bpindex_leaves(index regclass,
	OUT blkno int8, OUT entries int4, OUT capacity int4, OUT encoding text,
	OUT entry_bytes int4, OUT key_bytes int4[], OUT block_bytes int4,
	OUT offset_bytes int4, OUT low_key text, OUT high_key text,
	OUT prefix_bytes int4)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bpindex_leaves'
LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bpindex_leaves(regclass) IS
'each leaf of a bpindex index: entries, capacity, encoding, code widths and the key prefix its entries are stored without (superuser only: shows keys)';
REVOKE ALL ON FUNCTION bpindex_leaves(regclass) FROM PUBLIC;
