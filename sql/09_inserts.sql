--
-- 09_inserts: inserting into bpindex indexes after CREATE INDEX.
--
-- Most indexes here are created on an empty or nearly empty table, so
-- (almost) all their entries come from aminsert: BPA log appends,
-- flushes and redistributions, leaf splits, internal splits and new
-- roots.  Rows arrive in several statements, each in an order unrelated
-- to the key order (hashint4 of the row number), with NULLs, long runs of
-- duplicates and the extreme values of each type.  Every index is then
-- compared with sequential scans in Index Scan, Index Only Scan and
-- Bitmap Index Scan mode (bp_matrix, bp_queries from 00_setup) and
-- verified with bpindex_check(index, true).
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SET timezone = 'America/New_York';
SET datestyle = 'ISO, YMD';

--
-- ins_verify(index, min_leaves, expected): the shape of the tree from
-- bpindex_stats (levels, at least min_leaves leaves, one entry per row:
-- expected, or every row of the table when NULL; no unfinished split, no
-- page outside the tree) and bpindex_check with and without
-- heapallindexed, which raise an error on any violation.  Call it only
-- where the table has no dead rows, or give expected.
--
CREATE FUNCTION ins_verify(idx regclass, min_leaves int DEFAULT 3,
                           expected bigint DEFAULT NULL)
RETURNS TABLE (levels int, several_leaves boolean, one_entry_per_row boolean,
               incomplete_splits bigint, unused_pages bigint, bpindex_check text)
LANGUAGE plpgsql AS $$
DECLARE
    s record;
BEGIN
    IF expected IS NULL THEN
        EXECUTE format('SELECT count(*) FROM %s',
                       (SELECT indrelid::regclass FROM pg_index WHERE indexrelid = idx))
            INTO expected;
    END IF;
    SELECT * INTO STRICT s FROM bpindex_stats(idx);
    PERFORM bpindex_check(idx);
    PERFORM bpindex_check(idx, true);
    RETURN QUERY SELECT s.levels, s.leaf_pages >= min_leaves, s.entries = expected,
                        s.incomplete_splits, s.unused_pages, 'ok'::text;
END
$$;

--
-- ins_load(name, prebuilt): the table t_ins_<name> (k of the type of
-- src_<name>.k) with a bpindex index t_ins_<name>_bp built over its first
-- prebuilt rows of src_<name> (0: an empty table); the other rows inserted
-- in three statements, each in an order unrelated to the keys; analyzed.
--
CREATE FUNCTION ins_load(name text, prebuilt int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    tab text := 't_ins_' || name;
    src text := 'src_' || name;
BEGIN
    EXECUTE format('CREATE TABLE %I (k %s)', tab,
                   (SELECT format_type(atttypid, atttypmod) FROM pg_attribute
                    WHERE attrelid = src::regclass AND attname = 'k'));
    EXECUTE format('INSERT INTO %I SELECT k FROM %I WHERE i <= %s', tab, src, prebuilt);
    EXECUTE format('CREATE INDEX %I ON %I USING bpindex (k)', tab || '_bp', tab);
    FOR part IN 0..2 LOOP
        EXECUTE format('INSERT INTO %I SELECT k FROM %I WHERE i > %s AND i %% 3 = %s
                        ORDER BY hashint4(i)', tab, src, prebuilt, part);
    END LOOP;
    EXECUTE format('ANALYZE %I', tab);
END
$$;

--
-- One table per key type, 6000 rows.  The first 20 rows are in the table
-- when the index is built (an empty table for some types), the rest are
-- inserted in three statements.
--

-- int2: 5% NULL, the minimum and the maximum, about 550 copies of 42
CREATE TEMP TABLE src_int2 AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 32767
               WHEN i % 89 = 0 THEN -32768
               WHEN i % 11 = 0 THEN 42
               ELSE i * 7919 % 601 - 300 END::int2 AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('int2', 20);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       count(*) FILTER (WHERE k = 42) AS fortytwos
FROM t_ins_int2;
SELECT * FROM ins_verify('t_ins_int2_bp');
SELECT * FROM bp_matrix('ins int2', 't_ins_int2', 'k',
    ARRAY['-32768', '-300', '0', '42', '32767']);
SELECT * FROM bp_failures('ins int2');

-- int4, starting from an empty table
CREATE TEMP TABLE src_int4 AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 2147483647
               WHEN i % 89 = 0 THEN -2147483648
               WHEN i % 11 = 0 THEN 42
               ELSE (i * 7919 % 1201 - 600) * 3 END::int4 AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('int4', 0);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       count(*) FILTER (WHERE k = 42) AS fortytwos
FROM t_ins_int4;
SELECT * FROM ins_verify('t_ins_int4_bp');
SELECT * FROM bp_matrix('ins int4', 't_ins_int4', 'k',
    ARRAY['-2147483648', '-1800', '0', '42', '1000', '2147483647']);
SELECT * FROM bp_failures('ins int4');

-- int8, from an empty table
CREATE TEMP TABLE src_int8 AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 9223372036854775807
               WHEN i % 89 = 0 THEN -9223372036854775808
               WHEN i % 11 = 0 THEN 42
               ELSE (i * 7919 % 1201 - 600) * 10000000000 END::int8 AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('int8', 0);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       count(*) FILTER (WHERE k = 42) AS fortytwos
FROM t_ins_int8;
SELECT * FROM ins_verify('t_ins_int8_bp');
SELECT * FROM bp_matrix('ins int8', 't_ins_int8', 'k',
    ARRAY['-9223372036854775808', '-6000000000000', '0', '42', '3000000000000',
          '9223372036854775807']);
SELECT * FROM bp_failures('ins int8');

-- float4: NaN, +/-Infinity, -0 and 0, the largest finite magnitudes and
-- the smallest subnormal, from a small table
CREATE TEMP TABLE src_float4 AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 'NaN'
               WHEN i % 89 = 0 THEN 'Infinity'
               WHEN i % 83 = 0 THEN '-Infinity'
               WHEN i % 79 = 0 THEN '-0'
               WHEN i % 73 = 0 THEN '0'
               WHEN i % 71 = 0 THEN '3.4028235e+38'
               WHEN i % 67 = 0 THEN '-3.4028235e+38'
               WHEN i % 61 = 0 THEN '1e-45'
               WHEN i % 11 = 0 THEN '42'
               ELSE ((i * 7919 % 701 - 350) / 7.0)::float4 END::float4 AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('float4', 20);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       count(*) FILTER (WHERE k = 0 AND k::text = '-0') AS minus_zero,
       count(*) FILTER (WHERE k::text = '0') AS zero,
       count(*) FILTER (WHERE k = 'NaN') AS nan
FROM t_ins_float4;
SELECT * FROM ins_verify('t_ins_float4_bp');
SELECT * FROM bp_matrix('ins float4', 't_ins_float4', 'k',
    ARRAY['-Infinity', '-3.4028235e+38', '-50', '-0', '1e-45', '42', 'Infinity', 'NaN']);
SELECT * FROM bp_failures('ins float4');

-- float8, from an empty table
CREATE TEMP TABLE src_float8 AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 'NaN'
               WHEN i % 89 = 0 THEN 'Infinity'
               WHEN i % 83 = 0 THEN '-Infinity'
               WHEN i % 79 = 0 THEN '-0'
               WHEN i % 73 = 0 THEN '0'
               WHEN i % 71 = 0 THEN '1.7976931348623157e+308'
               WHEN i % 67 = 0 THEN '-1.7976931348623157e+308'
               WHEN i % 61 = 0 THEN '5e-324'
               WHEN i % 11 = 0 THEN '42'
               ELSE ((i * 7919 % 701 - 350) / 7.0)::float8 END AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('float8', 0);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       count(*) FILTER (WHERE k = 0 AND k::text = '-0') AS minus_zero,
       count(*) FILTER (WHERE k::text = '0') AS zero,
       count(*) FILTER (WHERE k = 'NaN') AS nan
FROM t_ins_float8;
SELECT * FROM ins_verify('t_ins_float8_bp');
SELECT * FROM bp_matrix('ins float8', 't_ins_float8', 'k',
    ARRAY['-Infinity', '-1.7976931348623157e+308', '-0', '5e-324', '42',
          '1.7976931348623157e+308', 'NaN']);
SELECT * FROM bp_failures('ins float8');

-- date: +/-infinity and the extreme finite dates, from a small table
CREATE TEMP TABLE src_date AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 'infinity'
               WHEN i % 89 = 0 THEN '-infinity'
               WHEN i % 83 = 0 THEN '4714-11-24 BC'
               WHEN i % 79 = 0 THEN '5874897-12-31'
               WHEN i % 11 = 0 THEN '2000-02-29'
               ELSE '2020-01-01'::date + (i * 7919 % 1201 - 600) END::date AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('date', 20);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k) FROM t_ins_date;
SELECT * FROM ins_verify('t_ins_date_bp');
SELECT * FROM bp_matrix('ins date', 't_ins_date', 'k',
    ARRAY['-infinity', '4714-11-24 BC', '2000-02-29', '2020-01-01', '5874897-12-31',
          'infinity']);
SELECT * FROM bp_failures('ins date');

-- time: 00:00 and 24:00 are both valid and distinct, from a small table
CREATE TEMP TABLE src_time AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN '24:00'
               WHEN i % 89 = 0 THEN '00:00'
               WHEN i % 83 = 0 THEN '23:59:59.999999'
               WHEN i % 79 = 0 THEN '00:00:00.000001'
               WHEN i % 11 = 0 THEN '12:00'
               ELSE '00:00'::time + (i * 7919 % 1201) * interval '71.5 seconds' END::time AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('time', 20);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k) FROM t_ins_time;
SELECT * FROM ins_verify('t_ins_time_bp');
SELECT * FROM bp_matrix('ins time', 't_ins_time', 'k',
    ARRAY['00:00', '00:00:00.000001', '12:00', '23:59:59.999999', '24:00']);
SELECT * FROM bp_failures('ins time');

-- timestamp, from an empty table
CREATE TEMP TABLE src_timestamp AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 'infinity'
               WHEN i % 89 = 0 THEN '-infinity'
               WHEN i % 83 = 0 THEN '4714-11-24 00:00:00 BC'
               WHEN i % 79 = 0 THEN '294276-12-31 23:59:59.999999'
               WHEN i % 11 = 0 THEN '2020-01-01 00:00'
               ELSE '2020-01-01 00:00'::timestamp
                    + (i * 7919 % 1201 - 600) * interval '37 minutes 13.5 seconds' END::timestamp AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('timestamp', 0);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k) FROM t_ins_timestamp;
SELECT * FROM ins_verify('t_ins_timestamp_bp');
SELECT * FROM bp_matrix('ins timestamp', 't_ins_timestamp', 'k',
    ARRAY['-infinity', '4714-11-24 00:00:00 BC', '2019-12-31 12:00', '2020-01-01 00:00',
          '294276-12-31 23:59:59.999999', 'infinity']);
SELECT * FROM bp_failures('ins timestamp');

-- timestamptz, around the switch to daylight saving time, from an empty
-- table
CREATE TEMP TABLE src_timestamptz AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 'infinity'
               WHEN i % 89 = 0 THEN '-infinity'
               WHEN i % 83 = 0 THEN '4714-11-24 00:00:00+00 BC'
               WHEN i % 79 = 0 THEN '294276-12-31 23:59:59.999999+00'
               WHEN i % 11 = 0 THEN '2020-03-08 03:00-04'
               ELSE '2020-03-08 02:00-05'::timestamptz
                    + (i * 7919 % 1201 - 600) * interval '7 minutes 3 seconds' END::timestamptz AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('timestamptz', 0);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k) FROM t_ins_timestamptz;
SELECT * FROM ins_verify('t_ins_timestamptz_bp');
SELECT * FROM bp_matrix('ins timestamptz', 't_ins_timestamptz', 'k',
    ARRAY['-infinity', '4714-11-24 00:00:00+00 BC', '2020-03-08 01:59:51-05',
          '2020-03-08 03:00-04', '294276-12-31 23:59:59.999999+00', 'infinity']);
SELECT * FROM bp_failures('ins timestamptz');

-- oid: compared unsigned, so 3000000000 sorts above 2147483647; from a
-- small table
CREATE TEMP TABLE src_oid AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 4294967295
               WHEN i % 89 = 0 THEN 0
               WHEN i % 83 = 0 THEN 3000000000
               WHEN i % 79 = 0 THEN 2147483647
               WHEN i % 73 = 0 THEN 2147483648
               WHEN i % 11 = 0 THEN 42
               ELSE (i * 7919 % 1201)::int8 * 3579139 END::oid AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('oid', 20);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k) FROM t_ins_oid;
SELECT * FROM ins_verify('t_ins_oid_bp');
SELECT * FROM bp_matrix('ins oid', 't_ins_oid', 'k',
    ARRAY['0', '42', '2147483647', '2147483648', '3000000000', '4294967295']);
SELECT * FROM bp_failures('ins oid');

-- bool: three distinct keys, so every split happens inside a run of
-- duplicates; from a small table
CREATE TEMP TABLE src_bool AS
SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE i * 7919 % 3 = 0 END AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('bool', 20);
SELECT k, count(*) FROM t_ins_bool GROUP BY k ORDER BY k;
SELECT * FROM ins_verify('t_ins_bool_bp');
SELECT * FROM bp_matrix('ins bool', 't_ins_bool', 'k', ARRAY['false', 'true']);
SELECT * FROM bp_failures('ins bool');

-- uuid: md5-derived values with duplicates, the all-zero and all-f
-- uuids, from an empty table
CREATE TEMP TABLE src_uuid AS
SELECT i, CASE WHEN i % 20 = 0 THEN NULL
               WHEN i % 97 = 0 THEN '00000000-0000-0000-0000-000000000000'
               WHEN i % 89 = 0 THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'
               WHEN i % 11 = 0 THEN '80000000-0000-0000-0000-000000000000'
               ELSE md5((i * 7919 % 1201)::text)::uuid END AS k
FROM generate_series(1, 6000) i;
SELECT ins_load('uuid', 0);
SELECT count(*), count(k), count(DISTINCT k),
       count(*) FILTER (WHERE k = '00000000-0000-0000-0000-000000000000') AS zeros,
       count(*) FILTER (WHERE k = 'ffffffff-ffff-ffff-ffff-ffffffffffff') AS ffs
FROM t_ins_uuid;
SELECT * FROM ins_verify('t_ins_uuid_bp');
SELECT array_agg(u::text ORDER BY u) AS probes
FROM unnest(ARRAY['00000000-0000-0000-0000-000000000000',
                  'ffffffff-ffff-ffff-ffff-ffffffffffff',
                  '80000000-0000-0000-0000-000000000000',
                  md5('17')::uuid, md5('1200')::uuid,
                  md5('absent')::uuid]::uuid[]) AS u \gset
SELECT * FROM bp_matrix('ins uuid', 't_ins_uuid', 'k', :'probes');
SELECT * FROM bp_failures('ins uuid');

--
-- Ascending keys: every insert goes to the rightmost leaf (through the
-- cached leaf of the previous insert), which splits so that the left leaf
-- keeps the fillfactor's share of entries, like nbtree's rightmost split.
--
CREATE TABLE t_ins_asc (k int4);
CREATE INDEX t_ins_asc_bp ON t_ins_asc USING bpindex (k);
INSERT INTO t_ins_asc SELECT generate_series(1, 10000);
INSERT INTO t_ins_asc SELECT generate_series(10001, 30000);
INSERT INTO t_ins_asc VALUES (NULL), (NULL), (30001);
ANALYZE t_ins_asc;
SELECT * FROM ins_verify('t_ins_asc_bp');
-- leaves are filled as a build fills them, to the default fillfactor of 90
SELECT abs(avg_leaf_fill - bp_fill_target('t_ins_asc_bp')) < 0.05 AS filled_like_a_build
FROM bpindex_stats('t_ins_asc_bp');
SELECT * FROM bp_queries('ins asc', ARRAY[
    'select k from t_ins_asc where k = 1',
    'select k from t_ins_asc where k = 30001',
    'select k from t_ins_asc where k between 9990 and 10010',
    'select k from t_ins_asc where k > 29990',
    'select k from t_ins_asc where k is null',
    'select k from t_ins_asc order by k',
    'select k from t_ins_asc order by k desc',
    'select k from t_ins_asc where k >= 20000 order by k limit 10',
    'select k from t_ins_asc where k < 20000 order by k desc limit 10'
]);
SELECT * FROM bp_failures('ins asc');

-- At fillfactor 10 an ascending load leaves each plain leaf a tenth full: 40000
-- int8 keys make about a thousand leaves, more than one internal page
-- holds, so the root (first a leaf, then an internal page) splits and the
-- tree grows to two internal levels.
CREATE TABLE t_ins_asc10 (k int8);
CREATE INDEX t_ins_asc10_bp ON t_ins_asc10 USING bpindex (k) WITH (fillfactor = 10, packed_leaves = off);
INSERT INTO t_ins_asc10 SELECT generate_series(1, 20000);
INSERT INTO t_ins_asc10 SELECT generate_series(20001, 40000);
ANALYZE t_ins_asc10;
SELECT * FROM ins_verify('t_ins_asc10_bp', 500);
SELECT round(avg_leaf_fill::numeric, 1) AS avg_leaf_fill FROM bpindex_stats('t_ins_asc10_bp');
SELECT * FROM bp_queries('ins asc10', ARRAY[
    'select k from t_ins_asc10 where k = 17000',
    'select k from t_ins_asc10 where k between 16950 and 17050',
    'select k from t_ins_asc10 where k < 100',
    'select k from t_ins_asc10 where k >= 39900',
    'select k from t_ins_asc10 order by k',
    'select k from t_ins_asc10 order by k desc',
    'select k from t_ins_asc10 where k > 20000 order by k limit 10',
    'select k from t_ins_asc10 where k <= 20000 order by k desc limit 10'
]);
SELECT * FROM bp_failures('ins asc10');

-- Two interleaved ascending streams, as two sessions loading consecutive
-- batches make them: rows alternate between a batch and the next one,
-- 1000 keys each, so one stream runs just below the other.  The lower
-- stream's keys go through the log; when its flush finds no room, the
-- leaf splits right after the stream's latest key and both halves are
-- packed into their first blocks, so each stream appends at the top of
-- its own leaf.  Redistributing those leaves and splitting them in half
-- when full left them about 65 % full on average; the stream splits leave
-- them above 72 % (plain leaves: on packed leaves, whose capacity
-- changes with their codec, they end about 52 % full, left to improve).
CREATE TABLE t_ins_two (k int8);
CREATE INDEX t_ins_two_bp ON t_ins_two USING bpindex (k) WITH (packed_leaves = off);
INSERT INTO t_ins_two
SELECT ((g / 2) / 1000 * 2 + g % 2) * 1000 + (g / 2) % 1000
FROM generate_series(0, 39999) g;
ANALYZE t_ins_two;
SELECT * FROM ins_verify('t_ins_two_bp');
SELECT avg_leaf_fill > 0.72 AS streams_split_apart FROM bpindex_stats('t_ins_two_bp');
SELECT * FROM bp_queries('ins two', ARRAY[
    'select k from t_ins_two where k = 17999',
    'select k from t_ins_two where k between 16990 and 18010',
    'select k from t_ins_two where k >= 39990',
    'select k from t_ins_two order by k',
    'select k from t_ins_two order by k desc',
    'select k from t_ins_two where k > 21000 order by k limit 10'
]);
SELECT * FROM bp_failures('ins two');

-- One ascending stream inside a gap between built keys: the leaf of the
-- gap splits after the stream (the keys above it move to the right
-- leaf), then the stream fills its own leaves to the fillfactor: the
-- leaves end about 89 % full on average, where splitting in half left
-- them 61 % full.
CREATE TABLE t_ins_gap (k int8);
INSERT INTO t_ins_gap SELECT i::int8 * 1000000 FROM generate_series(1, 20000) i;
CREATE INDEX t_ins_gap_bp ON t_ins_gap USING bpindex (k);
INSERT INTO t_ins_gap SELECT 5000000000 + i FROM generate_series(1, 30000) i;
ANALYZE t_ins_gap;
SELECT * FROM ins_verify('t_ins_gap_bp');
SELECT avg_leaf_fill > 0.85 AS stream_leaves_filled FROM bpindex_stats('t_ins_gap_bp');
SELECT * FROM bp_queries('ins gap', ARRAY[
    'select k from t_ins_gap where k = 5000000000',
    'select k from t_ins_gap where k = 5001000000',
    'select k from t_ins_gap where k between 4999000000 and 5000000100',
    'select k from t_ins_gap where k between 5000029990 and 5002000000',
    'select k from t_ins_gap order by k',
    'select k from t_ins_gap where k > 5000015000 order by k limit 10',
    'select k from t_ins_gap where k < 5000015000 order by k desc limit 10'
]);
SELECT * FROM bp_failures('ins gap');

-- Descending keys: every insert goes to the leftmost leaf, which splits
-- in half; then ascending keys above them, which the cached leaf (the
-- leftmost) does not cover
CREATE TABLE t_ins_desc (k int4);
CREATE INDEX t_ins_desc_bp ON t_ins_desc USING bpindex (k);
INSERT INTO t_ins_desc SELECT generate_series(30000, 1, -1);
SELECT round(avg_leaf_fill::numeric, 1) AS avg_leaf_fill FROM bpindex_stats('t_ins_desc_bp');
INSERT INTO t_ins_desc SELECT generate_series(30001, 35000);
ANALYZE t_ins_desc;
SELECT * FROM ins_verify('t_ins_desc_bp');
SELECT * FROM bp_queries('ins desc', ARRAY[
    'select k from t_ins_desc where k = 1',
    'select k from t_ins_desc where k between 29990 and 30010',
    'select k from t_ins_desc where k < 50',
    'select k from t_ins_desc order by k',
    'select k from t_ins_desc order by k desc',
    'select k from t_ins_desc where k >= 15000 order by k limit 10',
    'select k from t_ins_desc where k < 15000 order by k desc limit 10'
]);
SELECT * FROM bp_failures('ins desc');

--
-- Multi-column keys
--

-- (int4, int8): 40 x 30 values, NULLs in both columns, the extremes of
-- both types, duplicate pairs
CREATE TEMP TABLE src_mc AS
SELECT i, CASE WHEN i % 23 = 0 THEN NULL
               WHEN i % 97 = 0 THEN 2147483647
               WHEN i % 89 = 0 THEN -2147483648
               ELSE i * 7919 % 40 END::int4 AS a,
          CASE WHEN i % 17 = 0 THEN NULL
               WHEN i % 83 = 0 THEN 9223372036854775807
               WHEN i % 79 = 0 THEN -9223372036854775808
               ELSE i * 104729 % 211 % 30 END::int8 AS b
FROM generate_series(1, 8000) i;
CREATE TABLE t_ins_mc (a int4, b int8);
CREATE INDEX t_ins_mc_bp ON t_ins_mc USING bpindex (a, b);
INSERT INTO t_ins_mc SELECT a, b FROM src_mc WHERE i % 3 = 0 ORDER BY hashint4(i);
INSERT INTO t_ins_mc SELECT a, b FROM src_mc WHERE i % 3 = 1 ORDER BY hashint4(i);
INSERT INTO t_ins_mc SELECT a, b FROM src_mc WHERE i % 3 = 2 ORDER BY hashint4(i);
-- and a few rows through COPY
COPY t_ins_mc (a, b) FROM stdin;
7	15
7	\N
\N	15
\N	\N
-2147483648	-9223372036854775808
2147483647	9223372036854775807
0	-1
39	30
40	0
7	15
\.
ANALYZE t_ins_mc;
SELECT count(*), count(a), count(b), count(DISTINCT (a, b)) FROM t_ins_mc;
SELECT * FROM ins_verify('t_ins_mc_bp');
SELECT * FROM bp_queries('ins mc', ARRAY[
    'select a, b from t_ins_mc where a = 7',
    'select a, b from t_ins_mc where a < 3',
    'select a, b from t_ins_mc where a >= 38',
    'select a, b from t_ins_mc where a = 40',
    'select a, b from t_ins_mc where a = 2147483647',
    'select a, b from t_ins_mc where a is null',
    'select a, b from t_ins_mc where a = 7 and b = 15',
    'select a, b from t_ins_mc where a = 7 and b > 25',
    'select a, b from t_ins_mc where a = 7 and b between 10 and 20',
    'select a, b from t_ins_mc where a = 7 and b is null',
    'select a, b from t_ins_mc where a = 0 and b < 0',
    'select a, b from t_ins_mc where a = -2147483648 and b = -9223372036854775808',
    'select a, b from t_ins_mc where a is null and b > 20',
    'select a, b from t_ins_mc where a is null and b is null',
    'select a, b from t_ins_mc where a > 30 and b < 5',
    'select a, b from t_ins_mc where b = 15',
    'select a, b from t_ins_mc where b is null',
    'select a, b from t_ins_mc where b >= 9223372036854775807',
    'select a, b from t_ins_mc order by a, b',
    'select a, b from t_ins_mc order by a desc, b desc',
    'select a, b from t_ins_mc where a = 7 order by b',
    'select a, b from t_ins_mc where a = 7 order by b desc',
    'select a, b from t_ins_mc where a = 7 and b > 10 order by a, b limit 5',
    'select a, b from t_ins_mc where a >= 36 order by a, b',
    'select a, b from t_ins_mc where a < 5 order by a desc, b desc',
    'select a, b from t_ins_mc where a is null order by a desc, b desc limit 7'
]);
SELECT * FROM bp_failures('ins mc');

-- (uuid, uuid, int8): 48-byte entries, so an internal page holds about
-- 150 children and 30000 random rows need two internal levels
CREATE TEMP TABLE src_wide AS
SELECT i, CASE WHEN i % 31 = 0 THEN NULL ELSE md5((i % 2000)::text)::uuid END AS a,
          CASE WHEN i % 29 = 0 THEN NULL ELSE md5(i::text)::uuid END AS b,
          CASE WHEN i % 37 = 0 THEN NULL ELSE i % 1000 END::int8 AS c
FROM generate_series(1, 30000) i;
CREATE TABLE t_ins_wide (a uuid, b uuid, c int8);
CREATE INDEX t_ins_wide_bp ON t_ins_wide USING bpindex (a, b, c);
INSERT INTO t_ins_wide SELECT a, b, c FROM src_wide WHERE i % 3 = 0 ORDER BY hashint4(i);
INSERT INTO t_ins_wide SELECT a, b, c FROM src_wide WHERE i % 3 = 1 ORDER BY hashint4(i);
INSERT INTO t_ins_wide SELECT a, b, c FROM src_wide WHERE i % 3 = 2 ORDER BY hashint4(i);
ANALYZE t_ins_wide;
SELECT slot_width, internal_capacity < 200 AS narrow_internal_pages
FROM bpindex_metap('t_ins_wide_bp');
SELECT * FROM ins_verify('t_ins_wide_bp', 200);
SELECT * FROM bp_queries('ins wide', ARRAY[
    'select a, b, c from t_ins_wide where a = md5(''17'')::uuid',
    'select a, b, c from t_ins_wide where a = md5(''17'')::uuid and b > ''80000000-0000-0000-0000-000000000000''',
    'select a, b, c from t_ins_wide where a = md5(''1999'')::uuid and b = md5(''3999'')::uuid and c = 999',
    'select a, b, c from t_ins_wide where a < ''01000000-0000-0000-0000-000000000000''',
    'select a, b, c from t_ins_wide where a is null and b is null',
    'select a, b, c from t_ins_wide where a is null and c < 10',
    'select a, b, c from t_ins_wide where c = 500',
    'select a, b, c from t_ins_wide order by a, b, c',
    'select a, b, c from t_ins_wide order by a desc, b desc, c desc limit 20',
    'select a, b, c from t_ins_wide where a >= ''f0000000-0000-0000-0000-000000000000'' order by a, b, c',
    'select a, b, c from t_ins_wide where a = md5(''17'')::uuid order by a desc, b desc, c desc'
]);
SELECT * FROM bp_failures('ins wide');

-- the same wide entries inserted in descending order: leftmost splits of
-- leaves and internal pages
CREATE TABLE t_ins_wide_desc (a uuid, b uuid, c int8);
CREATE INDEX t_ins_wide_desc_bp ON t_ins_wide_desc USING bpindex (a, b, c);
INSERT INTO t_ins_wide_desc SELECT a, b, c FROM src_wide WHERE i <= 20000
ORDER BY a DESC NULLS FIRST, b DESC NULLS FIRST, c DESC NULLS FIRST;
ANALYZE t_ins_wide_desc;
SELECT * FROM ins_verify('t_ins_wide_desc_bp', 200);
SELECT * FROM bp_queries('ins wide desc', ARRAY[
    'select a, b, c from t_ins_wide_desc where a = md5(''17'')::uuid',
    'select a, b, c from t_ins_wide_desc where a is null',
    'select a, b, c from t_ins_wide_desc order by a, b, c',
    'select a, b, c from t_ins_wide_desc order by a desc, b desc, c desc',
    'select a, b, c from t_ins_wide_desc where a > ''80000000-0000-0000-0000-000000000000'' order by a, b, c limit 10'
]);
SELECT * FROM bp_failures('ins wide desc');

--
-- Inserts into indexes built by CREATE INDEX at fillfactor 10 and 100:
-- at 10 the leaves absorb the inserts without splitting, at 100 they
-- split at once
--
CREATE TABLE t_ins_ff10 (k int4);
INSERT INTO t_ins_ff10 SELECT i * 7919 % 10007 FROM generate_series(1, 10000) i;
CREATE TABLE t_ins_ff100 AS SELECT * FROM t_ins_ff10;
CREATE INDEX t_ins_ff10_bp ON t_ins_ff10 USING bpindex (k) WITH (fillfactor = 10);
CREATE INDEX t_ins_ff100_bp ON t_ins_ff100 USING bpindex (k) WITH (fillfactor = 100);
SELECT leaf_pages AS ff10_leaves FROM bpindex_stats('t_ins_ff10_bp') \gset
SELECT leaf_pages AS ff100_leaves FROM bpindex_stats('t_ins_ff100_bp') \gset
INSERT INTO t_ins_ff10 SELECT i * 7919 % 10007 FROM generate_series(10001, 15000) i ORDER BY hashint4(i);
INSERT INTO t_ins_ff100 SELECT i * 7919 % 10007 FROM generate_series(10001, 15000) i ORDER BY hashint4(i);
SELECT (SELECT leaf_pages FROM bpindex_stats('t_ins_ff10_bp')) = :ff10_leaves AS ff10_no_split,
       (SELECT leaf_pages FROM bpindex_stats('t_ins_ff100_bp')) >= :ff100_leaves + 10 AS ff100_split;
-- NULLs sort after every key: an ascending stream at the top of the
-- rightmost leaf, which splits it at the fill target as any such stream
INSERT INTO t_ins_ff10 SELECT NULL FROM generate_series(1, 100);
INSERT INTO t_ins_ff100 SELECT NULL FROM generate_series(1, 100);
ANALYZE t_ins_ff10;
ANALYZE t_ins_ff100;
SELECT * FROM ins_verify('t_ins_ff10_bp');
SELECT * FROM ins_verify('t_ins_ff100_bp');
SELECT * FROM bp_matrix('ins ff10', 't_ins_ff10', 'k', ARRAY['0', '5000', '10006']);
SELECT * FROM bp_failures('ins ff10');
SELECT * FROM bp_matrix('ins ff100', 't_ins_ff100', 'k', ARRAY['0', '5000', '10006']);
SELECT * FROM bp_failures('ins ff100');

--
-- UPDATEs that change the key (a new entry for the new row version), that
-- set it to NULL and back, HOT updates of another column (no new entry),
-- and an UPDATE rolled back (its entries stay, pointing to dead rows)
--
CREATE TABLE t_ins_upd (k int4, v int4, pad text) WITH (fillfactor = 50, autovacuum_enabled = off);
CREATE INDEX t_ins_upd_bp ON t_ins_upd USING bpindex (k);
INSERT INTO t_ins_upd SELECT i * 7919 % 5003, i, 'x' FROM generate_series(1, 5000) i ORDER BY hashint4(i);
UPDATE t_ins_upd SET k = k + 10000 WHERE v % 4 = 0;
UPDATE t_ins_upd SET k = NULL WHERE v % 10 = 1;
UPDATE t_ins_upd SET k = -k WHERE k < 100;
UPDATE t_ins_upd SET k = v WHERE k IS NULL AND v % 20 = 1;
UPDATE t_ins_upd SET pad = 'hot' WHERE v % 7 = 0;
BEGIN;
UPDATE t_ins_upd SET k = k + 20000 WHERE v % 3 = 0;
ROLLBACK;
ANALYZE t_ins_upd;
SELECT count(*), count(k), min(k), max(k), count(*) FILTER (WHERE k > 10000) AS moved
FROM t_ins_upd;
SELECT * FROM bp_matrix('ins upd', 't_ins_upd', 'k',
    ARRAY['-99', '0', '1001', '5002', '10000', '15002', '20000']);
SELECT * FROM bp_failures('ins upd');
SELECT * FROM bp_queries('ins upd rows', ARRAY[
    'select k, v, pad from t_ins_upd where k between 10000 and 10100',
    'select k, v, pad from t_ins_upd where k < 0',
    'select k, v, pad from t_ins_upd where k is null',
    'select k, v, pad from t_ins_upd where k >= 20000'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('ins upd rows');
-- the old row versions' entries are still there; VACUUM removes them
SELECT entries > 5000 AS dead_entries FROM bpindex_stats('t_ins_upd_bp');
SELECT bp_wait_for_horizon();
VACUUM t_ins_upd;
SELECT * FROM ins_verify('t_ins_upd_bp');

--
-- DELETE, VACUUM and insert again, three times: a range deleted whole
-- (VACUUM deletes the leaves it empties), every other row, and finally
-- every row
--
CREATE TABLE t_ins_cyc (k int4, id int4) WITH (autovacuum_enabled = off);
CREATE INDEX t_ins_cyc_bp ON t_ins_cyc USING bpindex (k);
INSERT INTO t_ins_cyc SELECT i * 7919 % 5000, i FROM generate_series(1, 20000) i ORDER BY hashint4(i);
-- cycle 1: the keys 1000 .. 2999
DELETE FROM t_ins_cyc WHERE k BETWEEN 1000 AND 2999;
SELECT bp_wait_for_horizon();
VACUUM t_ins_cyc;
SELECT empty_leaves AS empty_leaves_left, deleted_pages > 0 AS leaves_deleted
FROM bpindex_stats('t_ins_cyc_bp');
SELECT * FROM ins_verify('t_ins_cyc_bp');
SELECT * FROM bp_matrix('ins cyc1 deleted', 't_ins_cyc', 'k', ARRAY['999', '1000', '2000', '3000']);
SELECT * FROM bp_failures('ins cyc1 deleted');
INSERT INTO t_ins_cyc SELECT 1000 + i * 7919 % 2000, 100000 + i FROM generate_series(1, 6000) i ORDER BY hashint4(i);
SELECT empty_leaves AS empty_leaves_after_reinsert FROM bpindex_stats('t_ins_cyc_bp');
SELECT * FROM ins_verify('t_ins_cyc_bp');
SELECT * FROM bp_matrix('ins cyc1', 't_ins_cyc', 'k', ARRAY['999', '1000', '2000', '3000']);
SELECT * FROM bp_failures('ins cyc1');
-- cycle 2: every other row
DELETE FROM t_ins_cyc WHERE id % 2 = 0;
SELECT bp_wait_for_horizon();
VACUUM t_ins_cyc;
SELECT * FROM ins_verify('t_ins_cyc_bp');
INSERT INTO t_ins_cyc SELECT i * 7919 % 5000, 200000 + i FROM generate_series(1, 10000) i ORDER BY hashint4(i);
INSERT INTO t_ins_cyc SELECT NULL, 300000 + i FROM generate_series(1, 500) i;
SELECT * FROM ins_verify('t_ins_cyc_bp');
SELECT * FROM bp_matrix('ins cyc2', 't_ins_cyc', 'k', ARRAY['0', '1500', '4999']);
SELECT * FROM bp_failures('ins cyc2');
-- cycle 3: every row; VACUUM deletes every leaf but the rightmost, scans
-- find nothing
DELETE FROM t_ins_cyc;
SELECT bp_wait_for_horizon();
VACUUM t_ins_cyc;
SELECT entries, leaf_pages, empty_leaves FROM bpindex_stats('t_ins_cyc_bp');
SELECT * FROM ins_verify('t_ins_cyc_bp', 1);
SELECT * FROM bp_queries('ins cyc3 empty', ARRAY[
    'select k from t_ins_cyc where k = 7',
    'select k from t_ins_cyc where k is null',
    'select k from t_ins_cyc order by k',
    'select k from t_ins_cyc order by k desc'
]);
INSERT INTO t_ins_cyc SELECT i % 7000, i FROM generate_series(1, 14000) i;
SELECT * FROM ins_verify('t_ins_cyc_bp');
SELECT * FROM bp_matrix('ins cyc3', 't_ins_cyc', 'k', ARRAY['0', '2500', '6999']);
SELECT * FROM bp_failures('ins cyc3%');

--
-- INSERT ... SELECT of 50000 rows in one statement
--
CREATE TABLE t_ins_bulk (k int8, v int4);
CREATE INDEX t_ins_bulk_bp ON t_ins_bulk USING bpindex (k);
INSERT INTO t_ins_bulk
SELECT CASE WHEN i % 50 = 0 THEN NULL WHEN i % 50 = 1 THEN 77777 ELSE i::int8 * 7919 % 100003 END, i
FROM generate_series(1, 50000) i ORDER BY hashint4(i);
ANALYZE t_ins_bulk;
SELECT count(*), count(k), count(*) FILTER (WHERE k = 77777) AS dups FROM t_ins_bulk;
SELECT * FROM ins_verify('t_ins_bulk_bp');
SELECT * FROM bp_matrix('ins bulk', 't_ins_bulk', 'k', ARRAY['0', '50000', '77777', '100002']);
SELECT * FROM bp_failures('ins bulk');

--
-- UNLOGGED and temporary tables: indexes created empty, then inserts
--
CREATE UNLOGGED TABLE t_ins_unlogged (k timestamptz, d date);
CREATE INDEX t_ins_unlogged_bp ON t_ins_unlogged USING bpindex (d, k);
INSERT INTO t_ins_unlogged
SELECT '2021-06-01 00:00+00'::timestamptz + (i * 7919 % 3001) * interval '17 minutes',
       '2021-06-01'::date + i % 50
FROM generate_series(1, 4000) i ORDER BY hashint4(i);
INSERT INTO t_ins_unlogged
SELECT CASE WHEN i % 3 = 0 THEN NULL ELSE '2021-06-01 00:00+00'::timestamptz + i * interval '1 hour' END,
       CASE WHEN i % 5 = 0 THEN NULL ELSE '2021-06-01'::date + i % 50 END
FROM generate_series(1, 2000) i ORDER BY hashint4(i);
ANALYZE t_ins_unlogged;
SELECT relpersistence FROM pg_class WHERE relname = 't_ins_unlogged_bp';
SELECT * FROM ins_verify('t_ins_unlogged_bp');
SELECT * FROM bp_queries('ins unlogged', ARRAY[
    'select d, k from t_ins_unlogged where d = ''2021-06-10''',
    'select d, k from t_ins_unlogged where d = ''2021-06-10'' and k > ''2021-07-01 00:00+00''',
    'select d, k from t_ins_unlogged where d is null and k is not null',
    'select d, k from t_ins_unlogged order by d, k',
    'select d, k from t_ins_unlogged order by d desc, k desc limit 10'
]);
SELECT * FROM bp_failures('ins unlogged');

CREATE TEMP TABLE t_ins_temp (k float8);
CREATE INDEX t_ins_temp_bp ON t_ins_temp USING bpindex (k);
INSERT INTO t_ins_temp SELECT (i * 7919 % 4001) / 3.0 FROM generate_series(1, 4000) i ORDER BY hashint4(i);
INSERT INTO t_ins_temp SELECT CASE WHEN i % 2 = 0 THEN 'NaN'::float8 END FROM generate_series(1, 600) i;
INSERT INTO t_ins_temp SELECT -i / 7.0 FROM generate_series(1, 3000) i;
ANALYZE t_ins_temp;
SELECT relpersistence FROM pg_class WHERE relname = 't_ins_temp_bp';
SELECT * FROM ins_verify('t_ins_temp_bp');
SELECT * FROM bp_matrix('ins temp', 't_ins_temp', 'k', ARRAY['-100', '0', '10.5', 'NaN']);
SELECT * FROM bp_failures('ins temp');
-- TRUNCATE in the transaction that created the table empties the index in
-- place (same relfilenode): the backend's cached leaf must be forgotten
BEGIN;
CREATE TEMP TABLE t_ins_temp2 (k int4);
CREATE INDEX t_ins_temp2_bp ON t_ins_temp2 USING bpindex (k);
INSERT INTO t_ins_temp2 SELECT generate_series(1, 5000);
TRUNCATE t_ins_temp2;
INSERT INTO t_ins_temp2 SELECT generate_series(1, 50);
SELECT * FROM ins_verify('t_ins_temp2_bp', 1);
COMMIT;
TRUNCATE t_ins_temp2;
INSERT INTO t_ins_temp2 SELECT generate_series(100, 1, -1);
SELECT * FROM ins_verify('t_ins_temp2_bp', 1);

--
-- Partial indexes: only the rows satisfying the predicate get an entry,
-- here with a predicate on the key and one on another column
--
CREATE TABLE t_ins_partial (k int4, v int4);
CREATE INDEX t_ins_partial_k ON t_ins_partial USING bpindex (k) WHERE k >= 1000;
CREATE INDEX t_ins_partial_v ON t_ins_partial USING bpindex (k) WHERE v % 2 = 0;
INSERT INTO t_ins_partial
SELECT CASE WHEN i % 25 = 0 THEN NULL ELSE i * 7919 % 5000 END, i
FROM generate_series(1, 10000) i ORDER BY hashint4(i);
ANALYZE t_ins_partial;
SELECT count(*) FILTER (WHERE k >= 1000) AS k_rows,
       count(*) FILTER (WHERE v % 2 = 0) AS v_rows FROM t_ins_partial;
SELECT * FROM ins_verify('t_ins_partial_k', 3,
    (SELECT count(*) FROM t_ins_partial WHERE k >= 1000));
SELECT * FROM ins_verify('t_ins_partial_v', 5,
    (SELECT count(*) FROM t_ins_partial WHERE v % 2 = 0));
SELECT * FROM bp_queries('ins partial', ARRAY[
    'select k from t_ins_partial where k >= 1000 and k < 1010',
    'select k from t_ins_partial where k > 4990 order by k desc',
    'select k from t_ins_partial where k = 4000'
]);
SELECT * FROM bp_queries('ins partial', ARRAY[
    'select k, v from t_ins_partial where v % 2 = 0 and k < 20',
    'select k, v from t_ins_partial where v % 2 = 0 and k is null',
    'select k from t_ins_partial where v % 2 = 0 and k < 10 order by k'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('ins partial');

--
-- Expression indexes: the entries hold the expression's value
--
CREATE TABLE t_ins_expr (k int4, ts timestamp);
CREATE INDEX t_ins_expr_bp ON t_ins_expr USING bpindex ((k * 2));
CREATE INDEX t_ins_expr_day ON t_ins_expr USING bpindex ((ts::date), (k % 10));
INSERT INTO t_ins_expr
SELECT CASE WHEN i % 17 = 0 THEN NULL ELSE i * 7919 % 1000 END,
       '2021-01-01'::timestamp + (i * 7919 % 3001) * interval '37 minutes'
FROM generate_series(1, 6000) i ORDER BY hashint4(i);
ANALYZE t_ins_expr;
SELECT * FROM ins_verify('t_ins_expr_bp', 5);
SELECT * FROM ins_verify('t_ins_expr_day');
SELECT * FROM bp_queries('ins expr', ARRAY[
    'select k from t_ins_expr where k * 2 = 1000',
    'select k from t_ins_expr where k * 2 < 11',
    'select k from t_ins_expr where k * 2 between 1990 and 3000',
    'select k from t_ins_expr where k * 2 is null',
    'select k * 2 from t_ins_expr order by k * 2 desc limit 5',
    'select k from t_ins_expr where k * 2 > 1900 order by k * 2',
    'select ts from t_ins_expr where ts::date = ''2021-01-15''',
    'select ts from t_ins_expr where ts::date = ''2021-01-15'' and k % 10 = 3',
    'select ts::date, k % 10 from t_ins_expr where ts::date >= ''2021-03-01'' order by ts::date, k % 10'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('ins expr');

--
-- Fixed-length keys passed by reference, through user-defined operator
-- classes: name (64 bytes) and interval (16 bytes).  Six name columns and
-- an interval make 408-byte entries: a leaf holds a handful of them and
-- an internal page under twenty, so 8000 rows grow the tree to four
-- levels, splitting internal pages at every level.
--
CREATE OPERATOR CLASS ins_name_ops FOR TYPE name USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 btnamecmp(name, name);
CREATE OPERATOR CLASS ins_interval_ops FOR TYPE interval USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 interval_cmp(interval, interval);
CREATE TABLE t_ins_name (n name, iv interval);
CREATE INDEX t_ins_name_bp ON t_ins_name USING bpindex (n ins_name_ops, iv ins_interval_ops);
CREATE INDEX t_ins_name_wide ON t_ins_name USING bpindex (
    ((n || 'a')::name) ins_name_ops, ((n || 'b')::name) ins_name_ops,
    ((n || 'c')::name) ins_name_ops, ((n || 'd')::name) ins_name_ops,
    ((n || 'e')::name) ins_name_ops, ((n || 'f')::name) ins_name_ops,
    iv ins_interval_ops);
SELECT slot_width, leaf_capacity < 10 AS tiny_leaves, internal_capacity < 20 AS tiny_internal_pages
FROM bpindex_metap('t_ins_name_wide');
INSERT INTO t_ins_name
SELECT CASE WHEN i % 19 = 0 THEN NULL ELSE 'name_' || (i * 7919 % 700) END,
       CASE WHEN i % 23 = 0 THEN NULL ELSE (i * 104729 % 500) * interval '1 minute 1 second' END
FROM generate_series(1, 4000) i ORDER BY hashint4(i);
INSERT INTO t_ins_name
SELECT 'name_' || (i % 700), i * interval '1 second' FROM generate_series(1, 2000) i;
INSERT INTO t_ins_name
SELECT 'name_' || (i % 700), i * interval '1 second' FROM generate_series(2000, 1, -1) i;
ANALYZE t_ins_name;
SELECT * FROM ins_verify('t_ins_name_bp');
SELECT * FROM ins_verify('t_ins_name_wide', 1000);
SELECT * FROM bp_queries('ins name', ARRAY[
    'select n, iv from t_ins_name where n = ''name_17''',
    'select n, iv from t_ins_name where n = ''name_17'' and iv > ''00:10:00''',
    'select n, iv from t_ins_name where n >= ''name_69'' and n < ''name_7''',
    'select n, iv from t_ins_name where n is null and iv < ''01:00:00''',
    'select n, iv from t_ins_name where iv is null',
    'select n, iv from t_ins_name order by n, iv',
    'select n, iv from t_ins_name order by n desc, iv desc limit 20',
    'select n, iv from t_ins_name where n < ''name_2'' order by n desc, iv desc'
]);
SELECT * FROM bp_queries('ins name', ARRAY[
    'select n from t_ins_name where (n || ''a'')::name = ''name_17a''',
    'select n from t_ins_name where (n || ''a'')::name between ''name_50a'' and ''name_52a''',
    'select n from t_ins_name where (n || ''a'')::name is null',
    'select (n || ''a'')::name from t_ins_name where (n || ''a'')::name > ''name_698'' order by (n || ''a'')::name desc'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('ins name');

-- every check of this file
SELECT * FROM bp_failures('ins %');
