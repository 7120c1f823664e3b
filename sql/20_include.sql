--
-- 20_include: INCLUDE columns (amcaninclude).  Non-key columns are stored
-- in every entry, returned by index-only scans and never compared: they
-- neither order the entries nor take scan keys.  Packed leaves encode
-- them after the heap TID, integer-like ones relative to the leaf's
-- smallest value (an insert outside the leaf's codes re-encodes it),
-- floats and other types of up to 16 bytes as their raw bytes; wider
-- types keep the leaves plain.  Every query is compared with the same
-- query run without any index (bp_queries from 00_setup), in index,
-- index-only and bitmap scans.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SET max_parallel_workers_per_gather = 0;

SELECT pg_indexam_has_property(oid, 'can_include') FROM pg_am WHERE amname = 'bpindex';

CREATE TABLE inc (k int4, v int8, f float8, t timestamptz, u uuid, b bool,
                  n name, m money);
INSERT INTO inc
SELECT i % 500, i * 7919 % 100003,
       CASE i % 11 WHEN 0 THEN 'NaN'::float8 WHEN 1 THEN '-0'::float8 WHEN 2 THEN NULL
                   ELSE i / 3.0::float8 END,
       timestamptz '2025-01-01 00:00:00+00' + i * interval '37 s',
       md5(i::text)::uuid,
       CASE WHEN i % 5 = 0 THEN NULL ELSE i % 2 = 0 END,
       'name ' || i, i * 1.25
FROM generate_series(1, 20000) i;
-- integer-like, float, timestamptz, uuid, bool INCLUDE columns: packed leaves
CREATE INDEX inc_k ON inc USING bpindex (k) INCLUDE (v, f, t, u, b);
-- a 64-byte INCLUDE column and money: plain leaves
CREATE INDEX inc_kn ON inc USING bpindex (k, v) INCLUDE (n, m);
VACUUM ANALYZE inc;

-- the planner answers from the index alone
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT k, v, f FROM inc WHERE k = 7;
EXPLAIN (COSTS OFF) SELECT k, v, n FROM inc WHERE k BETWEEN 3 AND 9 ORDER BY k DESC, v DESC;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- how the leaves store the columns: the INCLUDE columns' code bytes
-- follow the key's in key_bytes
SELECT encoding, count(*) > 0 AS some, min(entry_bytes) > 0 AS sized,
       array_length(key_bytes, 1) AS columns_coded
FROM bpindex_leaves('inc_k') GROUP BY 1, 4 ORDER BY 1;
SELECT encoding, array_length(key_bytes, 1) AS columns_coded, count(*) > 0 AS some
FROM bpindex_leaves('inc_kn') GROUP BY 1, 2 ORDER BY 1;
SELECT bpindex_check('inc_k', true), bpindex_check('inc_kn', true);

SELECT * FROM bp_queries('include', ARRAY[
    'select k, v, f, t, u, b from inc where k = 7',
    'select k, v, f, t, u, b from inc where k between 100 and 120',
    'select k, v, f, t, u, b from inc where k in (3, 499, 250)',
    'select k, v, t from inc where k >= 490',
    'select k, u, b from inc where k < 5',
    'select k, v, n, m from inc where k = 42',
    'select k, v, n, m from inc where k = 42 and v > 50000',
    'select k, v, n from inc where k between 3 and 9 order by k, v',
    'select k, v, n from inc where k between 3 and 9 order by k desc, v desc',
    'select k, v, m from inc where k in (9, 1, 5) and v < 50000'
]);

-- INCLUDE values come back bit for bit: -0, NaN, NULL
SET enable_seqscan = off;
SET enable_bitmapscan = off;
\set count_special 'SELECT count(*) FILTER (WHERE f::text = ''-0'') AS minus_zero, count(*) FILTER (WHERE f::text = ''NaN'') AS nan, count(*) FILTER (WHERE f IS NULL) AS nulls, count(*) FILTER (WHERE b IS NULL) AS null_bools FROM inc WHERE k BETWEEN 0 AND 499'
EXPLAIN (COSTS OFF) :count_special;
:count_special;
RESET enable_seqscan;
RESET enable_bitmapscan;
:count_special;

-- inserts whose INCLUDE values lie far outside their leaf's codes
-- re-encode the leaf (or split it); updates and deletes, then VACUUM
INSERT INTO inc
SELECT i % 500, (i::int8 * 1000003) * (CASE WHEN i % 2 = 0 THEN -1 ELSE 1 END) * 1000000,
       i * 1e300, timestamptz '1970-01-01' - i * interval '1 year',
       md5((-i)::text)::uuid, NULL, 'new ' || i, -i
FROM generate_series(1, 3000) i;
UPDATE inc SET v = v + 1, f = -f WHERE k % 7 = 0;
DELETE FROM inc WHERE k % 13 = 0;
VACUUM ANALYZE inc;
SELECT bpindex_check('inc_k', true), bpindex_check('inc_kn', true);
SELECT encoding, array_length(key_bytes, 1) AS columns_coded, count(*) > 0 AS some
FROM bpindex_leaves('inc_k') GROUP BY 1, 2 ORDER BY 1;
SELECT * FROM bp_queries('include after writes', ARRAY[
    'select k, v, f, t, u, b from inc where k = 7',
    'select k, v, f, t, u, b from inc where k between 100 and 120',
    'select k, v, t from inc where k >= 490',
    'select k, u, b from inc where k < 5',
    'select k, v, n, m from inc where k between 40 and 45 order by k, v'
]);

-- more than four columns: the null bits move from the TID to a bitmap
CREATE TABLE inc5 (a int2, b int4, c int8, d date, e int4);
INSERT INTO inc5
SELECT CASE WHEN i % 9 = 0 THEN NULL ELSE i % 40 END, i,
       CASE WHEN i % 4 = 0 THEN NULL ELSE i * 3 END,
       CASE WHEN i % 6 = 0 THEN NULL ELSE date '2020-01-01' + i END,
       CASE WHEN i % 10 = 0 THEN NULL ELSE -i END
FROM generate_series(1, 8000) i;
CREATE INDEX inc5_ab ON inc5 USING bpindex (a, b) INCLUDE (c, d, e);
VACUUM ANALYZE inc5;
SELECT bpindex_check('inc5_ab', true);
SELECT * FROM bp_queries('include five columns', ARRAY[
    'select a, b, c, d, e from inc5 where a = 3',
    'select a, b, c, d, e from inc5 where a is null',
    'select a, b, c, d, e from inc5 where a between 10 and 12 and b > 4000 order by a, b',
    'select a, b, e from inc5 where a = 39 order by a desc, b desc'
]);

-- an exclusion constraint with INCLUDE columns
CREATE TABLE inc_ex (k int4, payload int8,
                     EXCLUDE USING bpindex (k WITH =) INCLUDE (payload));
INSERT INTO inc_ex SELECT g, g * 10 FROM generate_series(1, 1000) g;
INSERT INTO inc_ex VALUES (500, 1);
SET enable_seqscan = off;
SELECT k, payload FROM inc_ex WHERE k = 500;
RESET enable_seqscan;

-- a sorted build of INCLUDE entries that spills to disk: the database
-- counts the sort's temporary files
CREATE TABLE inc_big (k int4, v int8);
INSERT INTO inc_big SELECT (g * 7) % 30011, g FROM generate_series(1, 60000) g;
SELECT pg_stat_force_next_flush();
SELECT temp_files AS temp_files_before FROM pg_stat_database
WHERE datname = current_database() \gset
SET maintenance_work_mem = '1MB';
CREATE INDEX inc_big_k ON inc_big USING bpindex (k) INCLUDE (v);
RESET maintenance_work_mem;
SELECT pg_stat_force_next_flush();
SELECT temp_files > :temp_files_before AS build_spilled FROM pg_stat_database
WHERE datname = current_database();
VACUUM ANALYZE inc_big;
SELECT bpindex_check('inc_big_k', true);
SELECT * FROM bp_queries('include spilled build', ARRAY[
    'select k, v from inc_big where k between 1000 and 1100',
    'select k from inc_big where k between 1000 and 1100 order by k',
    'select k, v from inc_big where k in (0, 30010, 15000)'
]);

-- entries too wide for four to a page
SELECT format('CREATE INDEX inc_wide ON inc USING bpindex (k) INCLUDE (%s)',
              string_agg(format('n%s', i), ', ')) AS create
FROM generate_series(1, 31) i \gset
SELECT format('ALTER TABLE inc %s',
              string_agg(format('ADD COLUMN n%s name', i), ', '))
FROM generate_series(1, 31) i \gexec
:create;

SELECT * FROM bp_failures('include%');
DROP TABLE inc, inc5, inc_ex, inc_big;
