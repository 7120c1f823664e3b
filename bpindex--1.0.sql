/* bpindex--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION bpindex" to load this file. \quit

CREATE FUNCTION bpindex_handler(internal)
RETURNS index_am_handler
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE ACCESS METHOD bpindex TYPE INDEX HANDLER bpindex_handler;
COMMENT ON ACCESS METHOD bpindex IS 'BP-tree: B+-tree with buffered partitioned array leaves';

CREATE FUNCTION bpindex_check(index regclass, heapallindexed boolean DEFAULT false)
RETURNS void
AS 'MODULE_PATHNAME', 'bpindex_check'
LANGUAGE C STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION bpindex_check(regclass, boolean) IS
'verify the structure of a bpindex index and, with heapallindexed, that every visible heap tuple has its entry';
-- like amcheck: it reads every page (and with heapallindexed the table)
REVOKE ALL ON FUNCTION bpindex_check(regclass, boolean) FROM PUBLIC;

CREATE FUNCTION bpindex_metap(index regclass,
	OUT version int4, OUT root int8, OUT levels int4, OUT key_columns int4,
	OUT slot_width int4, OUT fillfactor int4, OUT log_size int4,
	OUT num_blocks int4, OUT block_size int4, OUT leaf_capacity int4,
	OUT internal_capacity int4)
AS 'MODULE_PATHNAME', 'bpindex_metap'
LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bpindex_metap(regclass) IS
'the metapage of a bpindex index: root, levels and layout';

CREATE FUNCTION bpindex_stats(index regclass,
	OUT levels int4, OUT internal_pages int8, OUT leaf_pages int8,
	OUT entries int8, OUT avg_leaf_fill float8, OUT avg_log_fill float8,
	OUT sorted_block_fraction float8, OUT empty_leaves int8,
	OUT incomplete_splits int8, OUT unused_pages int8)
AS 'MODULE_PATHNAME', 'bpindex_stats'
LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bpindex_stats(regclass) IS
'pages, entries and fill of a bpindex index, from a walk of every level';
-- like pgstattuple's pgstatindex: it reads every page and counts entries
REVOKE ALL ON FUNCTION bpindex_stats(regclass) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bpindex_stats(regclass) TO pg_stat_scan_tables;

CREATE FUNCTION bpindex_page_items(index regclass, blkno int8,
	OUT itemno int4, OUT region text, OUT block int4, OUT key text,
	OUT ctid tid, OUT child int8, OUT dead bool)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bpindex_page_items'
LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bpindex_page_items(regclass, int8) IS
'the slots of one page of a bpindex index (superuser only: shows raw data)';
REVOKE ALL ON FUNCTION bpindex_page_items(regclass, int8) FROM PUBLIC;

-- Hypothetical indexes, session-local, never built (see README)
CREATE FUNCTION bpindex_hypo_create_index(sql text,
	OUT indexrelid oid, OUT indexname text)
AS 'MODULE_PATHNAME', 'bpindex_hypo_create_index'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION bpindex_hypo_create_index(text) IS
'create a hypothetical bpindex index from a CREATE INDEX ... USING bpindex statement';

CREATE FUNCTION bpindex_hypo_list_indexes(OUT indexrelid oid, OUT indexname text,
	OUT schemaname text, OUT tablename text, OUT amname text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bpindex_hypo_list_indexes'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

CREATE FUNCTION bpindex_hypo_drop_index(indexid oid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bpindex_hypo_drop_index'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

CREATE FUNCTION bpindex_hypo_reset()
RETURNS void
AS 'MODULE_PATHNAME', 'bpindex_hypo_reset'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

CREATE FUNCTION bpindex_hypo_relation_size(indexid oid)
RETURNS int8
AS 'MODULE_PATHNAME', 'bpindex_hypo_relation_size'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION bpindex_hypo_relation_size(oid) IS
'estimated size in bytes of a hypothetical bpindex index, from the build''s fill model';

-- Operator classes number their strategies like btree (1 <, 2 <=, 3 =,
-- 4 >=, 5 >) and use btree's comparison functions as support function 1,
-- so the planner can derive their sort order from btree's families.

-- integer_ops: the operators and comparison functions of btree's integer_ops
CREATE OPERATOR FAMILY integer_ops USING bpindex;
CREATE OPERATOR CLASS int2_ops
	DEFAULT FOR TYPE int2 USING bpindex FAMILY integer_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btint2cmp(int2, int2);
CREATE OPERATOR CLASS int4_ops
	DEFAULT FOR TYPE int4 USING bpindex FAMILY integer_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btint4cmp(int4, int4);
CREATE OPERATOR CLASS int8_ops
	DEFAULT FOR TYPE int8 USING bpindex FAMILY integer_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btint8cmp(int8, int8);
ALTER OPERATOR FAMILY integer_ops USING bpindex ADD
	OPERATOR 1 < (int2, int4),
	OPERATOR 2 <= (int2, int4),
	OPERATOR 3 = (int2, int4),
	OPERATOR 4 >= (int2, int4),
	OPERATOR 5 > (int2, int4),
	FUNCTION 1 (int2, int4) btint24cmp(int2, int4),
	OPERATOR 1 < (int2, int8),
	OPERATOR 2 <= (int2, int8),
	OPERATOR 3 = (int2, int8),
	OPERATOR 4 >= (int2, int8),
	OPERATOR 5 > (int2, int8),
	FUNCTION 1 (int2, int8) btint28cmp(int2, int8),
	OPERATOR 1 < (int4, int2),
	OPERATOR 2 <= (int4, int2),
	OPERATOR 3 = (int4, int2),
	OPERATOR 4 >= (int4, int2),
	OPERATOR 5 > (int4, int2),
	FUNCTION 1 (int4, int2) btint42cmp(int4, int2),
	OPERATOR 1 < (int4, int8),
	OPERATOR 2 <= (int4, int8),
	OPERATOR 3 = (int4, int8),
	OPERATOR 4 >= (int4, int8),
	OPERATOR 5 > (int4, int8),
	FUNCTION 1 (int4, int8) btint48cmp(int4, int8),
	OPERATOR 1 < (int8, int2),
	OPERATOR 2 <= (int8, int2),
	OPERATOR 3 = (int8, int2),
	OPERATOR 4 >= (int8, int2),
	OPERATOR 5 > (int8, int2),
	FUNCTION 1 (int8, int2) btint82cmp(int8, int2),
	OPERATOR 1 < (int8, int4),
	OPERATOR 2 <= (int8, int4),
	OPERATOR 3 = (int8, int4),
	OPERATOR 4 >= (int8, int4),
	OPERATOR 5 > (int8, int4),
	FUNCTION 1 (int8, int4) btint84cmp(int8, int4);

-- float_ops: the operators and comparison functions of btree's float_ops
CREATE OPERATOR FAMILY float_ops USING bpindex;
CREATE OPERATOR CLASS float4_ops
	DEFAULT FOR TYPE float4 USING bpindex FAMILY float_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btfloat4cmp(float4, float4);
CREATE OPERATOR CLASS float8_ops
	DEFAULT FOR TYPE float8 USING bpindex FAMILY float_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btfloat8cmp(float8, float8);
ALTER OPERATOR FAMILY float_ops USING bpindex ADD
	OPERATOR 1 < (float4, float8),
	OPERATOR 2 <= (float4, float8),
	OPERATOR 3 = (float4, float8),
	OPERATOR 4 >= (float4, float8),
	OPERATOR 5 > (float4, float8),
	FUNCTION 1 (float4, float8) btfloat48cmp(float4, float8),
	OPERATOR 1 < (float8, float4),
	OPERATOR 2 <= (float8, float4),
	OPERATOR 3 = (float8, float4),
	OPERATOR 4 >= (float8, float4),
	OPERATOR 5 > (float8, float4),
	FUNCTION 1 (float8, float4) btfloat84cmp(float8, float4);

-- datetime_ops: the operators and comparison functions of btree's datetime_ops
CREATE OPERATOR FAMILY datetime_ops USING bpindex;
CREATE OPERATOR CLASS date_ops
	DEFAULT FOR TYPE date USING bpindex FAMILY datetime_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 date_cmp(date, date);
CREATE OPERATOR CLASS timestamp_ops
	DEFAULT FOR TYPE timestamp USING bpindex FAMILY datetime_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 timestamp_cmp(timestamp, timestamp);
CREATE OPERATOR CLASS timestamptz_ops
	DEFAULT FOR TYPE timestamptz USING bpindex FAMILY datetime_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 timestamptz_cmp(timestamptz, timestamptz);
ALTER OPERATOR FAMILY datetime_ops USING bpindex ADD
	OPERATOR 1 < (date, timestamp),
	OPERATOR 2 <= (date, timestamp),
	OPERATOR 3 = (date, timestamp),
	OPERATOR 4 >= (date, timestamp),
	OPERATOR 5 > (date, timestamp),
	FUNCTION 1 (date, timestamp) date_cmp_timestamp(date, timestamp),
	OPERATOR 1 < (date, timestamptz),
	OPERATOR 2 <= (date, timestamptz),
	OPERATOR 3 = (date, timestamptz),
	OPERATOR 4 >= (date, timestamptz),
	OPERATOR 5 > (date, timestamptz),
	FUNCTION 1 (date, timestamptz) date_cmp_timestamptz(date, timestamptz),
	OPERATOR 1 < (timestamp, date),
	OPERATOR 2 <= (timestamp, date),
	OPERATOR 3 = (timestamp, date),
	OPERATOR 4 >= (timestamp, date),
	OPERATOR 5 > (timestamp, date),
	FUNCTION 1 (timestamp, date) timestamp_cmp_date(timestamp, date),
	OPERATOR 1 < (timestamp, timestamptz),
	OPERATOR 2 <= (timestamp, timestamptz),
	OPERATOR 3 = (timestamp, timestamptz),
	OPERATOR 4 >= (timestamp, timestamptz),
	OPERATOR 5 > (timestamp, timestamptz),
	FUNCTION 1 (timestamp, timestamptz) timestamp_cmp_timestamptz(timestamp, timestamptz),
	OPERATOR 1 < (timestamptz, date),
	OPERATOR 2 <= (timestamptz, date),
	OPERATOR 3 = (timestamptz, date),
	OPERATOR 4 >= (timestamptz, date),
	OPERATOR 5 > (timestamptz, date),
	FUNCTION 1 (timestamptz, date) timestamptz_cmp_date(timestamptz, date),
	OPERATOR 1 < (timestamptz, timestamp),
	OPERATOR 2 <= (timestamptz, timestamp),
	OPERATOR 3 = (timestamptz, timestamp),
	OPERATOR 4 >= (timestamptz, timestamp),
	OPERATOR 5 > (timestamptz, timestamp),
	FUNCTION 1 (timestamptz, timestamp) timestamptz_cmp_timestamp(timestamptz, timestamp);

-- time_ops: the operators and comparison functions of btree's time_ops
CREATE OPERATOR FAMILY time_ops USING bpindex;
CREATE OPERATOR CLASS time_ops
	DEFAULT FOR TYPE time USING bpindex FAMILY time_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 time_cmp(time, time);

-- oid_ops: the operators and comparison functions of btree's oid_ops
CREATE OPERATOR FAMILY oid_ops USING bpindex;
CREATE OPERATOR CLASS oid_ops
	DEFAULT FOR TYPE oid USING bpindex FAMILY oid_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btoidcmp(oid, oid);

-- bool_ops: the operators and comparison functions of btree's bool_ops
CREATE OPERATOR FAMILY bool_ops USING bpindex;
CREATE OPERATOR CLASS bool_ops
	DEFAULT FOR TYPE bool USING bpindex FAMILY bool_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btboolcmp(bool, bool);

-- uuid_ops: the operators and comparison functions of btree's uuid_ops
CREATE OPERATOR FAMILY uuid_ops USING bpindex;
CREATE OPERATOR CLASS uuid_ops
	DEFAULT FOR TYPE uuid USING bpindex FAMILY uuid_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 uuid_cmp(uuid, uuid);
