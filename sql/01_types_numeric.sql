--
-- 01_types_numeric: int2, int4, int8, float4, float8 and oid columns.
--
-- Each table has 12000 rows (several leaves), in an order unrelated to the
-- key order, with NULLs, many duplicates and the extreme values of the
-- type.  It is loaded, vacuumed and analyzed before its bpindex index is
-- built (bpindex cannot insert after the build).  bp_matrix (00_setup)
-- then runs every query shape through Index Scan, Index Only Scan and
-- Bitmap Index Scan and compares each with a sequential scan.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- int2: values -300..300, the minimum and the maximum, 5% NULL
CREATE TABLE t_int2 (k int2);
INSERT INTO t_int2
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 32767
            WHEN i % 89 = 0 THEN -32768
            ELSE (i * 7919 % 601 - 300) END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_int2;
CREATE INDEX t_int2_bp ON t_int2 USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       pg_relation_size('t_int2_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_int2;
SELECT * FROM bp_matrix('int2', 't_int2', 'k',
    ARRAY['-32768', '-1000', '-300', '0', '150', '1000', '32767']);
SELECT * FROM bp_failures('int2');

-- int4
CREATE TABLE t_int4 (k int4);
INSERT INTO t_int4
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 2147483647
            WHEN i % 89 = 0 THEN -2147483648
            ELSE (i * 7919 % 1201 - 600) * 3 END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_int4;
CREATE INDEX t_int4_bp ON t_int4 USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       pg_relation_size('t_int4_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_int4;
SELECT * FROM bp_matrix('int4', 't_int4', 'k',
    ARRAY['-2147483648', '-1800', '-1', '0', '1000', '1800', '2147483647']);
SELECT * FROM bp_failures('int4');

-- int8
CREATE TABLE t_int8 (k int8);
INSERT INTO t_int8
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 9223372036854775807
            WHEN i % 89 = 0 THEN -9223372036854775808
            ELSE (i * 7919 % 1201 - 600) * 10000000000 END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_int8;
CREATE INDEX t_int8_bp ON t_int8 USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       pg_relation_size('t_int8_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_int8;
SELECT * FROM bp_matrix('int8', 't_int8', 'k',
    ARRAY['-9223372036854775808', '-6000000000000', '0', '5', '3000000000000',
          '9223372036854775807']);
SELECT * FROM bp_failures('int8');

-- float4: NaN, Infinity, -Infinity, -0 and 0 among ordinary values
CREATE TABLE t_float4 (k float4);
INSERT INTO t_float4
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'NaN'
            WHEN i % 89 = 0 THEN 'Infinity'
            WHEN i % 83 = 0 THEN '-Infinity'
            WHEN i % 79 = 0 THEN '-0'
            WHEN i % 73 = 0 THEN '0'
            ELSE ((i * 7919 % 701 - 350) / 7.0)::float4 END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_float4;
CREATE INDEX t_float4_bp ON t_float4 USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       count(*) FILTER (WHERE k = 0 AND k::text = '-0') AS minus_zero,
       count(*) FILTER (WHERE k::text = '0') AS zero,
       pg_relation_size('t_float4_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_float4;
SELECT * FROM bp_matrix('float4', 't_float4', 'k',
    ARRAY['-Infinity', '-50', '-0.5', '-0', '0', '10', 'Infinity', 'NaN']);
SELECT * FROM bp_failures('float4');

-- float8
CREATE TABLE t_float8 (k float8);
INSERT INTO t_float8
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'NaN'
            WHEN i % 89 = 0 THEN 'Infinity'
            WHEN i % 83 = 0 THEN '-Infinity'
            WHEN i % 79 = 0 THEN '-0'
            WHEN i % 73 = 0 THEN '0'
            ELSE ((i * 7919 % 701 - 350) / 7.0)::float8 END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_float8;
CREATE INDEX t_float8_bp ON t_float8 USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       count(*) FILTER (WHERE k = 0 AND k::text = '-0') AS minus_zero,
       count(*) FILTER (WHERE k::text = '0') AS zero,
       pg_relation_size('t_float8_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_float8;
SELECT * FROM bp_matrix('float8', 't_float8', 'k',
    ARRAY['-Infinity', '-50', '-0.5', '-0', '0', '10', 'Infinity', 'NaN']);
SELECT * FROM bp_failures('float8');

-- oid: compared unsigned, so 3000000000 sorts above 2147483647
CREATE TABLE t_oid (k oid);
INSERT INTO t_oid
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 4294967295
            WHEN i % 89 = 0 THEN 0
            WHEN i % 83 = 0 THEN 3000000000
            WHEN i % 79 = 0 THEN 2147483647
            ELSE i * 7919 % 1201 + 1 END::oid
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_oid;
CREATE INDEX t_oid_bp ON t_oid USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       pg_relation_size('t_oid_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_oid;
SELECT * FROM bp_matrix('oid', 't_oid', 'k',
    ARRAY['0', '1', '600', '2147483647', '2147483648', '3000000000', '4294967295']);
SELECT * FROM bp_failures('oid');

--
-- Cross-type quals through the families' cross-type operators: the
-- constant keeps its own type, and the index uses the (column type,
-- constant type) comparison function.
--
SELECT * FROM bp_queries('cross numeric', ARRAY[
    'select k from t_int4 where k = 300::int8',
    'select k from t_int4 where k < 300::int8',
    'select k from t_int4 where k >= -9223372036854775807::int8',
    'select k from t_int4 where k > 2147483647::int8',
    'select k from t_int4 where k <= 3000000000::int8',
    'select k from t_int4 where k > -3000000000::int8 and k < 6::int8',
    'select k from t_int4 where k = 300::int2',
    'select k from t_int4 where k between ''-32768''::int2 and 32767::int2',
    'select k from t_int4 where k >= 0::int2 and k < 900::int8',
    'select k from t_int4 where k >= 3::int2 order by k limit 5',
    'select k from t_int4 where k <= 3::int8 order by k desc limit 5',
    'select k from t_int2 where k = 150::int4',
    'select k from t_int2 where k < 100000::int4',
    'select k from t_int2 where k > -100000::int8 and k <= 150::int8',
    'select k from t_int2 where k >= 40000 order by k',
    'select k from t_int8 where k < 5',
    'select k from t_int8 where k = 0',
    'select k from t_int8 where k > 2147483647::int4',
    'select k from t_int8 where k <= ''-32768''::int2',
    'select k from t_float4 where k = 0::float8',
    'select k from t_float4 where k < 0.1::float8',
    'select k from t_float4 where k > 1e300::float8',
    'select k from t_float4 where k >= ''NaN''::float8',
    'select k from t_float4 where k between -1e300::float8 and ''-0''::float8',
    'select k from t_float4 where k > 10.5::float8 order by k limit 5',
    'select k from t_float8 where k = 0.5::float4',
    'select k from t_float8 where k < ''-Infinity''::float4',
    'select k from t_float8 where k <= ''-Infinity''::float4',
    'select k from t_float8 where k > -0.5::float4 order by k desc'
]);
SELECT * FROM bp_failures('cross numeric');
-- the index conditions keep the constants' types
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT k FROM t_int4 WHERE k < 300::int8 AND k > 1::int2;
EXPLAIN (COSTS OFF) SELECT k FROM t_float4 WHERE k > 1e300::float8;
RESET enable_seqscan;
RESET enable_bitmapscan;
