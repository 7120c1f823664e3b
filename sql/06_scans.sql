--
-- 06_scans: scan behaviour beyond single queries.  SCROLL cursors that
-- move both ways, merge joins (mark/restore), parameterized nested loops
-- (rescans), NULL scan keys at run time, an empty index, an index of
-- NULLs only, and scans after DELETE and VACUUM.  Each result is
-- compared with the same query run without any index.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

--
-- bp_compare(query, forced, baseline): run query under the settings
-- "forced" (a list of name=value), return its EXPLAIN (COSTS OFF) lines,
-- then a line saying whether the result equals the result under
-- "baseline" (default: no index paths), as in bp_check: ordered queries
-- compare the sequence of rows, others the multiset.  The baseline plan
-- must not use an index.
--
CREATE FUNCTION bp_compare(query text, forced text,
    baseline text DEFAULT 'enable_indexscan=off,enable_indexonlyscan=off,enable_bitmapscan=off')
RETURNS SETOF text
LANGUAGE plpgsql
SET enable_seqscan = on
SET enable_indexscan = on
SET enable_indexonlyscan = on
SET enable_bitmapscan = on
SET enable_sort = on
SET enable_hashjoin = on
SET enable_mergejoin = on
SET enable_nestloop = on
SET enable_material = on
SET enable_memoize = on
SET plan_cache_mode = auto
SET max_parallel_workers_per_gather = 0
SET jit = off
AS $$
DECLARE
    ordered boolean := query ~* '\morder\s+by\M';
    wrapper text;
    setting text;
    line text;
    base_plan text := '';
    n1 bigint; s1 text; n2 bigint; s2 text;
BEGIN
    IF ordered THEN
        wrapper := format('select count(*), string_agg(to_jsonb(x)::text, '' '') from (%s) x', query);
    ELSE
        wrapper := format('select count(*), string_agg(x::text, '' '' order by x::text) from (%s) x', query);
    END IF;
    FOREACH setting IN ARRAY string_to_array(forced, ',') LOOP
        PERFORM set_config(trim(split_part(setting, '=', 1)), trim(split_part(setting, '=', 2)), true);
    END LOOP;
    FOR line IN EXECUTE 'explain (costs off) ' || query LOOP
        RETURN NEXT line;
    END LOOP;
    EXECUTE wrapper INTO n1, s1;
    FOREACH setting IN ARRAY string_to_array(forced, ',') LOOP
        PERFORM set_config(trim(split_part(setting, '=', 1)), 'on', true);
    END LOOP;
    FOREACH setting IN ARRAY string_to_array(baseline, ',') LOOP
        PERFORM set_config(trim(split_part(setting, '=', 1)), trim(split_part(setting, '=', 2)), true);
    END LOOP;
    FOR line IN EXECUTE 'explain (costs off) ' || wrapper LOOP
        base_plan := base_plan || line || E'\n';
    END LOOP;
    EXECUTE wrapper INTO n2, s2;
    RETURN NEXT format('rows: %s, same as without index: %s%s', n1,
                       n1 = n2 AND s1 IS NOT DISTINCT FROM s2,
                       CASE WHEN base_plan ~ 'Index' THEN ' (BASELINE USES AN INDEX)' ELSE '' END);
END
$$;

--
-- SCROLL cursors
--
-- t_cur: 5000 rows, keys 0..4000 (a quarter of them twice), NULLs;
-- t_cur10: the same with fillfactor 10 (leaves of about 40 entries, so
-- most steps cross leaves)
CREATE TABLE t_cur (k int4);
INSERT INTO t_cur
SELECT CASE WHEN i % 61 = 0 THEN NULL ELSE i * 7919 % 4001 END
FROM generate_series(1, 5000) i;
VACUUM ANALYZE t_cur;
CREATE TABLE t_cur10 AS SELECT * FROM t_cur;
VACUUM ANALYZE t_cur10;
CREATE INDEX t_cur_bp ON t_cur USING bpindex (k);
CREATE INDEX t_cur10_bp ON t_cur10 USING bpindex (k) WITH (fillfactor = 10);

-- the steps: single steps both ways, reversals inside a leaf and just
-- after crossing one, jumps, running off both ends and coming back
SELECT ARRAY['next', 'next', 'next', 'prior', 'prior', 'prior', 'prior', 'next',
             'absolute 400', 'prior', 'next', 'next', 'relative -45', 'relative 90',
             'forward 1000', 'prior', 'next', 'backward 2500', 'next', 'prior',
             'last', 'next', 'next', 'prior', 'prior', 'relative -3',
             'first', 'prior', 'next', 'absolute -1', 'absolute -4999',
             'absolute 0', 'next', 'absolute 2500', 'relative 0', 'absolute 6000',
             'prior', 'absolute -6000', 'next', 'forward 4998', 'next', 'next',
             'backward 5001', 'next'] AS steps \gset

SELECT * FROM bp_cursor('select k from t_cur order by k', :'steps', 'index');
SELECT * FROM bp_cursor('select k from t_cur10 order by k', :'steps', 'indexonly');
SELECT * FROM bp_cursor('select k from t_cur10 order by k desc', :'steps', 'index');
-- a range: running off its ends stops inside a leaf, and must come back
SELECT * FROM bp_cursor('select k from t_cur10 where k between 300 and 349 order by k',
    ARRAY['last', 'next', 'next', 'prior', 'prior', 'first', 'prior', 'prior', 'next',
          'next', 'absolute 25', 'relative 30', 'prior', 'relative -60', 'next'],
    'indexonly');
SELECT * FROM bp_cursor('select k from t_cur10 where k > 3950 order by k desc',
    ARRAY['next', 'prior', 'next', 'last', 'next', 'prior', 'backward 20', 'next',
          'forward 100', 'prior'],
    'index');
-- NULLs only, at the end of the order
SELECT * FROM bp_cursor('select k from t_cur10 where k is null order by k',
    ARRAY['last', 'prior', 'first', 'prior', 'next', 'absolute 81', 'absolute 82', 'prior'],
    'index');
-- with SQL-level cursors too: one FETCH of several rows in each direction
BEGIN;
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
SET LOCAL enable_sort = off;
EXPLAIN (COSTS OFF) DECLARE c SCROLL CURSOR FOR SELECT k FROM t_cur10 WHERE k >= 3990 ORDER BY k;
DECLARE c SCROLL CURSOR FOR SELECT k FROM t_cur10 WHERE k >= 3990 ORDER BY k;
FETCH 7 FROM c;
FETCH BACKWARD 4 FROM c;
FETCH FORWARD ALL FROM c;
FETCH BACKWARD ALL FROM c;
FETCH ABSOLUTE 12 FROM c;
FETCH RELATIVE -11 FROM c;
CLOSE c;
COMMIT;

--
-- Merge joins: keys with duplicates on both sides, so the inner side
-- restores its mark for every outer duplicate
--
CREATE TABLE t_mj1 (k int4, v int4);
INSERT INTO t_mj1
SELECT CASE WHEN i % 97 = 0 THEN NULL ELSE i * 7919 % 500 END, i
FROM generate_series(1, 3000) i;
CREATE TABLE t_mj2 (k int4, w int4);
INSERT INTO t_mj2
SELECT CASE WHEN i % 89 = 0 THEN NULL ELSE i * 104729 % 700 END, i
FROM generate_series(1, 4000) i;
VACUUM ANALYZE t_mj1;
VACUUM ANALYZE t_mj2;
CREATE INDEX t_mj1_bp ON t_mj1 USING bpindex (k) WITH (fillfactor = 10);
CREATE INDEX t_mj2_bp ON t_mj2 USING bpindex (k) WITH (fillfactor = 10);

SELECT * FROM bp_compare(
    'select t_mj1.k, v, w from t_mj1 join t_mj2 on t_mj1.k = t_mj2.k',
    'enable_hashjoin=off,enable_nestloop=off,enable_seqscan=off,enable_sort=off,enable_material=off,enable_bitmapscan=off');
SELECT * FROM bp_compare(
    'select t_mj1.k, t_mj2.k from t_mj1 join t_mj2 on t_mj1.k = t_mj2.k',
    'enable_hashjoin=off,enable_nestloop=off,enable_seqscan=off,enable_sort=off,enable_material=off,enable_bitmapscan=off');
SELECT * FROM bp_compare(
    'select t_mj1.k, v, w from t_mj1 join t_mj2 on t_mj1.k = t_mj2.k order by t_mj1.k desc, v, w',
    'enable_hashjoin=off,enable_nestloop=off,enable_seqscan=off,enable_material=off,enable_bitmapscan=off');
SELECT * FROM bp_compare(
    'select t_mj1.k, v, w from t_mj1 join t_mj2 on t_mj1.k = t_mj2.k and v > w where t_mj1.k between 100 and 300',
    'enable_hashjoin=off,enable_nestloop=off,enable_seqscan=off,enable_sort=off,enable_material=off,enable_bitmapscan=off');
SELECT * FROM bp_compare(
    'select t_mj1.k, t_mj2.k, v, w from t_mj1 full join t_mj2 on t_mj1.k = t_mj2.k',
    'enable_hashjoin=off,enable_nestloop=off,enable_seqscan=off,enable_sort=off,enable_material=off,enable_bitmapscan=off');
-- the baseline of the merge joins is a hash join
SELECT * FROM bp_compare(
    'select t_mj1.k, v, w from t_mj1 join t_mj2 on t_mj1.k = t_mj2.k',
    'enable_mergejoin=off,enable_nestloop=off,enable_indexscan=off,enable_indexonlyscan=off,enable_bitmapscan=off');

--
-- Nested loops with a parameterized inner scan: one rescan per outer row,
-- including outer rows whose key is NULL (a NULL scan key matches nothing)
--
SELECT * FROM bp_compare(
    'select t_mj1.k, v, w from t_mj1 join t_mj2 on t_mj1.k = t_mj2.k where v % 10 = 0',
    'enable_hashjoin=off,enable_mergejoin=off,enable_bitmapscan=off,enable_material=off,enable_memoize=off');
SELECT * FROM bp_compare(
    'select t_mj1.k, t_mj2.k from t_mj1 join t_mj2 on t_mj2.k between t_mj1.k - 1 and t_mj1.k + 1 where v % 7 = 0',
    'enable_hashjoin=off,enable_mergejoin=off,enable_bitmapscan=off,enable_material=off,enable_memoize=off');
SELECT * FROM bp_compare(
    'select t_mj1.k, w from t_mj1 join t_mj2 on t_mj2.k < t_mj1.k where v % 50 = 0',
    'enable_hashjoin=off,enable_mergejoin=off,enable_indexscan=off,enable_indexonlyscan=off,enable_material=off,enable_memoize=off');
-- a rescanned scan stopped early by LIMIT
SELECT * FROM bp_compare(
    'select v, (select w from t_mj2 where t_mj2.k >= t_mj1.k order by t_mj2.k limit 1) from t_mj1 where v % 25 = 0',
    'enable_bitmapscan=off,enable_seqscan=off');
SELECT * FROM bp_compare(
    'select v, (select max(t_mj2.k) from t_mj2 where t_mj2.k < t_mj1.k) from t_mj1 where v % 25 = 0',
    'enable_bitmapscan=off,enable_seqscan=off');

--
-- BitmapAnd and BitmapOr over bpindex bitmap scans, of one index or two
--
CREATE TABLE t_bm (x int4, y int8);
INSERT INTO t_bm
SELECT CASE WHEN i % 101 = 0 THEN NULL ELSE i * 7919 % 100 END, i * 104729 % 1000
FROM generate_series(1, 20000) i;
VACUUM ANALYZE t_bm;
CREATE INDEX t_bm_x ON t_bm USING bpindex (x);
CREATE INDEX t_bm_y ON t_bm USING bpindex (y);
SELECT * FROM bp_compare('select x, y from t_bm where x = 3 and y < 100',
    'enable_seqscan=off,enable_indexscan=off,enable_indexonlyscan=off');
SELECT * FROM bp_compare('select x, y from t_bm where x = 3 or y < 10',
    'enable_seqscan=off,enable_indexscan=off,enable_indexonlyscan=off');
SELECT * FROM bp_compare('select x, y from t_bm where x = 3 or x > 97 or x is null',
    'enable_seqscan=off,enable_indexscan=off,enable_indexonlyscan=off');

--
-- A NULL comparison value known only at run time (generic plan) matches
-- nothing, in every scan type
--
PREPARE p_eq(int4) AS SELECT count(*) FROM t_cur WHERE k = $1;
PREPARE p_range(int4, int4) AS SELECT count(*) FROM t_cur WHERE k >= $1 AND k < $2;
PREPARE p_ord(int4) AS SELECT k FROM t_cur WHERE k > $1 ORDER BY k DESC LIMIT 3;
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) EXECUTE p_eq(NULL);
EXECUTE p_eq(NULL);
EXECUTE p_eq(70);
EXECUTE p_range(NULL, 10);
EXECUTE p_range(5, NULL);
EXECUTE p_range(5, 40);
EXECUTE p_ord(NULL);
EXECUTE p_ord(3990);
-- (a cached plan is not replanned when settings change: prepare again)
DEALLOCATE ALL;
PREPARE p_eq(int4) AS SELECT count(*) FROM t_cur WHERE k = $1;
PREPARE p_range(int4, int4) AS SELECT count(*) FROM t_cur WHERE k >= $1 AND k < $2;
SET enable_indexscan = off;
SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) EXECUTE p_eq(NULL);
EXECUTE p_eq(NULL);
EXECUTE p_eq(70);
EXECUTE p_range(NULL, 10);
EXECUTE p_range(5, 40);
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_seqscan;
RESET plan_cache_mode;
DEALLOCATE ALL;
-- the same counts from a sequential scan
EXPLAIN (COSTS OFF)
SELECT count(*) FILTER (WHERE k = 70), count(*) FILTER (WHERE k >= 5 AND k < 40) FROM t_cur;
SELECT count(*) FILTER (WHERE k = 70), count(*) FILTER (WHERE k >= 5 AND k < 40) FROM t_cur;

--
-- An index built on an empty table: one empty leaf
--
CREATE TABLE t_empty (k int8, d date);
CREATE INDEX t_empty_bp ON t_empty USING bpindex (k, d);
SELECT * FROM bp_queries('empty', ARRAY[
    'select k, d from t_empty where k = 1',
    'select k, d from t_empty where k > 1 and d < ''2020-01-01''',
    'select k, d from t_empty where k is null',
    'select k, d from t_empty where d is not null',
    'select k, d from t_empty order by k, d',
    'select k, d from t_empty order by k desc, d desc',
    'select k, d from t_empty where k >= 0 order by k limit 1'
]);
SELECT * FROM bp_failures('empty');
-- TRUNCATE rebuilds the index empty
CREATE TABLE t_trunc (k int4);
INSERT INTO t_trunc SELECT generate_series(1, 2000);
CREATE INDEX t_trunc_bp ON t_trunc USING bpindex (k);
TRUNCATE t_trunc;
SELECT * FROM bp_queries('truncated', ARRAY[
    'select k from t_trunc where k = 5',
    'select k from t_trunc order by k desc'
]);
SELECT * FROM bp_failures('truncated');

--
-- An index of NULLs only, over several leaves
--
CREATE TABLE t_nulls (k float8, t timestamptz);
INSERT INTO t_nulls SELECT NULL, NULL FROM generate_series(1, 3000);
VACUUM ANALYZE t_nulls;
CREATE INDEX t_nulls_bp ON t_nulls USING bpindex (k, t);
SELECT * FROM bp_queries('nulls', ARRAY[
    'select k, t from t_nulls where k is null',
    'select k, t from t_nulls where k is null and t is null',
    'select k, t from t_nulls where k is not null',
    'select k, t from t_nulls where k = 0',
    'select k, t from t_nulls where k < ''Infinity''',
    'select k, t from t_nulls where k is null and t > ''-infinity''',
    'select k, t from t_nulls where t is null',
    'select k, t from t_nulls order by k, t',
    'select k, t from t_nulls order by k desc, t desc limit 5',
    'select k, t from t_nulls where k is null order by k, t limit 5'
]);
SELECT * FROM bp_failures('nulls');

--
-- DELETE, then VACUUM.  Before VACUUM the index still holds the entries
-- of deleted rows, which the scans must skip; after it, they are gone.
-- The deletions empty whole leaves (a range of keys) and thin out others.
--
CREATE TABLE t_del (k int4, pad int4);
INSERT INTO t_del
SELECT CASE WHEN i % 41 = 0 THEN NULL ELSE i * 7919 % 2000 END, i
FROM generate_series(1, 8000) i;
VACUUM ANALYZE t_del;
CREATE INDEX t_del_bp ON t_del USING bpindex (k) WITH (fillfactor = 50);
DELETE FROM t_del WHERE k BETWEEN 500 AND 899;
DELETE FROM t_del WHERE pad % 3 = 0;
DELETE FROM t_del WHERE k IS NULL AND pad % 2 = 0;
SELECT count(*), count(k) FROM t_del;
SELECT * FROM bp_matrix('del', 't_del', 'k', ARRAY['499', '700', '900']);
VACUUM t_del;
-- VACUUM counted the remaining entries
SELECT c.reltuples, (SELECT count(*) FROM t_del) AS rows
FROM pg_class c WHERE c.relname = 't_del_bp';
SELECT * FROM bp_matrix('del vacuumed', 't_del', 'k', ARRAY['499', '700', '900']);
SELECT * FROM bp_failures('del%');
-- every row deleted: all leaves are empty after VACUUM
DELETE FROM t_del;
VACUUM t_del;
SELECT c.reltuples FROM pg_class c WHERE c.relname = 't_del_bp';
SELECT * FROM bp_queries('del all', ARRAY[
    'select k from t_del where k = 5',
    'select k from t_del where k is null',
    'select k from t_del order by k',
    'select k from t_del order by k desc',
    'select k from t_del where k > 100 order by k desc limit 3'
]);
SELECT * FROM bp_failures('del all');
-- an index over a DELETEd-then-VACUUMed table, in a merge join with
-- backward scans stepping over empty leaves
CREATE TABLE t_del2 (k int4);
INSERT INTO t_del2 SELECT i % 3000 FROM generate_series(1, 9000) i;
VACUUM ANALYZE t_del2;
CREATE INDEX t_del2_bp ON t_del2 USING bpindex (k) WITH (fillfactor = 10);
DELETE FROM t_del2 WHERE k % 1000 BETWEEN 100 AND 899;
VACUUM ANALYZE t_del2;
SELECT * FROM bp_compare(
    'select a.k, b.k from t_del2 a join t_del2 b on a.k = b.k order by a.k desc',
    'enable_hashjoin=off,enable_nestloop=off,enable_seqscan=off,enable_material=off,enable_bitmapscan=off,enable_sort=off');
SELECT * FROM bp_queries('del2', ARRAY[
    'select k from t_del2 order by k desc',
    'select k from t_del2 where k between 50 and 950 order by k desc',
    'select k from t_del2 where k between 50 and 950 order by k',
    'select k from t_del2 where k between 150 and 850'
]);
SELECT * FROM bp_failures('del2');
