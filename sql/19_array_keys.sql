--
-- 19_array_keys: = ANY(array) and IN lists (amsearcharray) in every plan
-- shape.  An array on the first column, or on a column whose earlier
-- columns have = keys, splits the scan into one primitive scan per
-- distinct element, in index order (backward for DESC); an array on a
-- later column becomes a range [first, last] and a filter.  Duplicate and
-- NULL elements, empty and NULL arrays, cross-type arrays, < ANY and
-- > ANY, several arrays, LIMIT, SCROLL cursors that cross from one
-- element to the next both ways, merge joins (mark/restore across
-- elements) and rescans with a new array each time.  Every result is
-- compared with the same query run without any index (bp_check and
-- bp_cursor from 00_setup and 06_scans).
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE ak (a int4, b int8, c float8, d date);
-- (a, b) is unique, so every ORDER BY a, b has one answer; a has NULLs
INSERT INTO ak
SELECT CASE WHEN i % 101 = 0 THEN NULL ELSE i % 200 END, i,
       CASE WHEN i % 7 = 0 THEN 'NaN' ELSE (i % 50) / 4.0 END,
       date '2024-01-01' + i % 365
FROM generate_series(1, 20000) i;
CREATE INDEX ak_a ON ak USING bpindex (a);
CREATE INDEX ak_ab ON ak USING bpindex (a, b);
CREATE INDEX ak_c ON ak USING bpindex (c);
CREATE INDEX ak_d ON ak USING bpindex (d);
VACUUM ANALYZE ak;

SELECT pg_index_column_has_property('ak_a'::regclass, 1, 'search_array');

-- the planner uses bpindex for an IN list with ORDER BY ... LIMIT
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT a, b FROM ak WHERE a IN (7, 3, 150) ORDER BY a, b LIMIT 5;
EXPLAIN (COSTS OFF) SELECT a FROM ak WHERE a = ANY ('{7, 3, 150}') ORDER BY a DESC;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- one array on the first column
SELECT * FROM bp_queries('array first column', ARRAY[
    'select a, b from ak where a in (7, 3, 150)',
    'select a, b from ak where a in (7, 3, 150) order by a, b',
    'select a, b from ak where a in (7, 3, 150) order by a desc, b desc',
    'select a, b from ak where a = any (''{5, 3, 3, null, 150, 7, 5}'') order by a, b',
    'select a, b from ak where a = any (''{5, 3, 3, null, 150, 7, 5}'') order by a desc, b desc',
    'select a, b from ak where a in (1, 2, 99999, -5) order by a, b limit 10',
    'select a from ak where a in (0, 199) order by a',
    'select a from ak where a in (-1, 200, 1000) order by a',
    'select a from ak where a = any (''{}''::int4[])',
    'select a from ak where a = any (null::int4[])',
    'select a from ak where a = any (''{null}''::int4[])',
    'select a from ak where a = any (''{null, 4}''::int4[]) order by a',
    'select a from ak where a = any (array(select g from generate_series(0, 198, 2) g)) order by a',
    'select a from ak where a = any (array(select g from generate_series(0, 198, 2) g)) order by a desc'
]);

-- cross-type arrays, < ANY / > ANY, an array with another key on its column
SELECT * FROM bp_queries('array cross-type', ARRAY[
    'select a from ak where a = any (''{3, 8, 4000000000}''::int8[]) order by a',
    'select a from ak where a = any (''{3, 8}''::int2[]) order by a desc',
    'select a from ak where a < any (''{3, 10, null}'') order by a',
    'select a from ak where a <= any (''{3, 10}'') order by a desc',
    'select a from ak where a > any (''{190, 195}'') order by a',
    'select a from ak where a >= any (''{190, 195}'') order by a',
    'select a from ak where a = any (''{1, 5, 9, 120}'') and a > 4 order by a',
    'select a from ak where a = any (''{1, 5, 9, 120}'') and a = any (''{9, 120, 121, 1}'') order by a',
    'select d from ak where d in (''2024-03-01'', ''2024-01-01''::timestamp, ''2024-12-30''::timestamptz) order by d',
    'select c from ak where c in (0, 2.5, ''NaN'', 12.25) order by c',
    'select c from ak where c = any (''{-0, NaN, 1e300}''::float8[]) order by c desc',
    'select c from ak where c = any (''{0.5, 2}''::float4[]) order by c'
]);

-- ak_in_order(query): an ordered query through ak_ab against a sequential
-- scan.  For an array on a column after the first, the planner of
-- PostgreSQL 15 does not take the index order (it sorts, or filters the
-- array), PostgreSQL 17 and later do; the index returns the entries in
-- order either way, so sort_free is required only from 17 on
CREATE FUNCTION ak_in_order(query text) RETURNS TABLE (nrows bigint, same_as_seqscan boolean, sort_free boolean)
LANGUAGE plpgsql AS $$
DECLARE
    plan text := '';
    line text;
    s1 text;
    s2 text;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    PERFORM set_config('enable_sort', 'off', true);
    FOR line IN EXECUTE 'explain (costs off) ' || query LOOP
        plan := plan || line || E'\n';
    END LOOP;
    EXECUTE format('select string_agg(to_jsonb(x)::text, '' '') from (%s) x', query) INTO s1;
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    PERFORM set_config('enable_indexonlyscan', 'off', true);
    PERFORM set_config('enable_sort', 'on', true);
    EXECUTE format('select count(*), string_agg(to_jsonb(x)::text, '' '') from (%s) x', query)
        INTO nrows, s2;
    RESET enable_seqscan; RESET enable_indexscan; RESET enable_indexonlyscan;
    RESET enable_bitmapscan; RESET enable_sort;
    same_as_seqscan := s1 IS NOT DISTINCT FROM s2;
    sort_free := plan ~ 'using ak_ab' AND (plan !~ 'Sort' OR current_setting('server_version_num')::int < 170000);
    RETURN NEXT;
END
$$;
-- several columns: an array after = keys drives, a later one filters
SELECT q.n, r.* FROM unnest(ARRAY[
    'select a, b from ak where a = 5 and b in (805, 5, 19805, 6) order by a, b',
    'select a, b from ak where a = 5 and b in (805, 5, 19805, 6) order by a desc, b desc',
    'select a, b from ak where a in (5, 6) and b in (805, 5, 6, 206, 19805) order by a, b',
    'select a, b from ak where a in (5, 6) and b in (805, 5, 6, 206, 19805) order by a desc, b desc',
    'select a, b from ak where a in (5, 6, 7) and b > 19000 order by a, b',
    'select a, b from ak where a in (5, 6, 7) and b between 1000 and 3000 order by a desc, b desc',
    'select a, b from ak where a is null and b in (101, 202, 303) order by a, b',
    'select a, b from ak where a >= 190 and b in (195, 1190, 1191, 19999) order by a, b'
]) WITH ORDINALITY AS q(query, n), LATERAL ak_in_order(q.query) r
ORDER BY q.n;
SELECT * FROM bp_queries('array two columns unordered', ARRAY[
    'select a, b from ak where a = 5 and b in (805, 5, 19805, 6)',
    'select a, b from ak where a in (5, 6) and b in (805, 5, 6, 206, 19805)',
    'select a, b from ak where a in (5, 6, 7) and b between 1000 and 3000',
    'select a, b from ak where a is null and b in (101, 202, 303)',
    'select a, b from ak where a >= 190 and b in (195, 1190, 1191, 19999)',
    'select a, b from ak where b in (19805, 5, 806, 600)'
], ARRAY['bitmap']);

-- an array on a later column only
SELECT * FROM ak_in_order('select a, b from ak where b in (19805, 5, 806, 600) order by a, b');
SELECT * FROM ak_in_order('select a, b from ak where b in (19805, 5, 806, 600) order by a desc, b desc');
SELECT * FROM ak_in_order('select a, b from ak where a > 3 and b in (19805, 5, 806, 600) order by a, b');

-- SCROLL cursors that move across elements both ways
SELECT n, step, via_index, same FROM bp_cursor(
    'select a, b from ak where a in (150, 3, 7, 9999) order by a, b',
    ARRAY['next', 'forward 99', 'next', 'prior', 'prior', 'forward 100', 'next',
          'backward 150', 'last', 'next', 'prior', 'first', 'prior', 'next',
          'absolute 200', 'relative -101', 'relative 102'], 'index');
SELECT n, step, via_index, same FROM bp_cursor(
    'select a, b from ak where a in (150, 3, 7) order by a desc, b desc',
    ARRAY['next', 'forward 99', 'next', 'prior', 'last', 'prior', 'backward 99', 'prior'],
    'indexonly');
SELECT n, step, via_index, same FROM bp_cursor(
    'select a, b from ak where a = any (''{}''::int4[]) order by a, b',
    ARRAY['next', 'prior', 'last'], 'index');

-- merge join of two array scans with duplicates on both sides: the inner
-- scan restores marks taken in the primitive scan of another element
CREATE TABLE ak_probe (a int4, n int4);
INSERT INTO ak_probe SELECT g, r FROM generate_series(0, 12) g, generate_series(1, 3) r;
CREATE INDEX ak_probe_a ON ak_probe USING bpindex (a, n);
VACUUM ANALYZE ak_probe;
SELECT * FROM bp_compare(
    'select p.a, p.n, k.b from ak_probe p join ak k on k.a = p.a where k.a in (2, 5, 6, 11, 40) and p.a in (2, 5, 6, 11, 40)',
    'enable_hashjoin=off,enable_nestloop=off,enable_seqscan=off,enable_bitmapscan=off,enable_sort=off,enable_material=off');

-- rescans: a nested loop gives the inner scan a new array on each row
CREATE TABLE ak_lists (id int, vals int4[]);
INSERT INTO ak_lists VALUES (1, '{3, 1, 3}'), (2, '{}'), (3, NULL), (4, '{199, NULL, 0}'), (5, '{7}');
ANALYZE ak_lists;
SELECT * FROM bp_compare(
    'select l.id, k.a, k.b from ak_lists l cross join lateral (select a, b from ak where a = any (l.vals) order by a, b limit 7) k',
    'enable_hashjoin=off,enable_mergejoin=off,enable_seqscan=off,enable_bitmapscan=off,enable_material=off');
SELECT * FROM bp_compare(
    'select l.id, count(*) from ak_lists l join ak k on k.a = any (l.vals) group by l.id',
    'enable_hashjoin=off,enable_mergejoin=off,enable_seqscan=off,enable_indexscan=off,enable_material=off');

-- after deletes and VACUUM, and with dead entries marked by an earlier scan
DELETE FROM ak WHERE b % 3 = 0;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM ak WHERE a IN (3, 7, 150);
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT * FROM bp_queries('array after delete', ARRAY[
    'select a, b from ak where a in (7, 3, 150) order by a, b']);
SELECT * FROM bp_queries('array after delete, second column', ARRAY[
    'select a, b from ak where a in (5, 6) and b in (805, 5, 6, 206, 19805)'], ARRAY['bitmap']);
SELECT * FROM ak_in_order('select a, b from ak where a in (5, 6) and b in (805, 5, 6, 206, 19805) order by a desc, b desc');
VACUUM ak;
SELECT * FROM bp_queries('array after vacuum', ARRAY[
    'select a, b from ak where a in (7, 3, 150) order by a, b',
    'select a, b from ak where a = any (''{5, 3, 3, null, 150, 7, 5}'') order by a desc, b desc'
]);
SELECT bpindex_check('ak_ab', true);

-- smaller integer arguments and arrays on int8 and int4 columns (ASC and
-- DESC), widened to the column's type and compared inline: values at the
-- ends of int4 and int2, negative ones, and = ANY in both scan directions
CREATE TABLE akw (w int8, v int4);
INSERT INTO akw SELECT (i - 2500) * 1000003::int8, (i - 2500) * 13 FROM generate_series(1, 5000) i;
INSERT INTO akw VALUES (2147483647, 32767), (-2147483648, -32768), (2147483648, 32768),
    (-2147483649, -32769), (NULL, NULL);
CREATE INDEX akw_w ON akw USING bpindex (w);
CREATE INDEX akw_v ON akw USING bpindex (v DESC);
VACUUM ANALYZE akw;
SELECT * FROM bp_queries('array widened', ARRAY[
    'select w from akw where w = 2147483647::int4',
    'select w from akw where w >= (-2147483648)::int4 and w < 5000009::int4',
    'select w from akw where w > 32767::int2 and w <= 2000006',
    'select w from akw where w in (2147483647, -2147483648, 0, 1000003, -7) order by w',
    'select w from akw where w = any (''{-1000003, 2000006, 2147483647}''::int4[]) order by w desc',
    'select w from akw where w = any (''{-32768, 32767, 0}''::int2[])',
    'select v from akw where v = 32767::int2',
    'select v from akw where v in (-32768, 13, 26, -13, 32767) order by v desc',
    'select v from akw where v = any (''{-26, 0, 39}''::int2[]) order by v',
    'select v from akw where v between (-40)::int2 and 40::int2 order by v desc'
]);
DROP TABLE akw;

-- an element whose range starts in the leaf the scan is on reads that
-- leaf again instead of descending from the root: 100 elements over the
-- few leaves of ak_a (or ak_ab, which the planner may take) take about a
-- search per leaf (pg_stat_user_indexes counts the descents), in ordered
-- scans both ways and in bitmap scans;
-- their results are compared with a sequential scan under 'array first
-- column' above
CREATE TEMP TABLE ak_stat (n int, idx_scan bigint);
SELECT leaf_pages BETWEEN 2 AND 12 AS few_leaves FROM bpindex_stats('ak_a');
SELECT leaf_pages BETWEEN 2 AND 16 AS few_leaves FROM bpindex_stats('ak_ab');
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_stat_force_next_flush();
INSERT INTO ak_stat SELECT 1, sum(idx_scan) FROM pg_stat_user_indexes WHERE indexrelname IN ('ak_a', 'ak_ab');
SELECT count(*) FROM (SELECT a FROM ak WHERE a = ANY (array(SELECT g FROM generate_series(0, 198, 2) g)) ORDER BY a) s;
SELECT pg_stat_force_next_flush();
INSERT INTO ak_stat SELECT 2, sum(idx_scan) FROM pg_stat_user_indexes WHERE indexrelname IN ('ak_a', 'ak_ab');
SELECT count(*) FROM (SELECT a FROM ak WHERE a = ANY (array(SELECT g FROM generate_series(0, 198, 2) g)) ORDER BY a DESC) s;
SELECT pg_stat_force_next_flush();
INSERT INTO ak_stat SELECT 3, sum(idx_scan) FROM pg_stat_user_indexes WHERE indexrelname IN ('ak_a', 'ak_ab');
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = on;
SELECT count(*) FROM ak WHERE a = ANY (array(SELECT g FROM generate_series(0, 198, 2) g));
SELECT pg_stat_force_next_flush();
INSERT INTO ak_stat SELECT 4, sum(idx_scan) FROM pg_stat_user_indexes WHERE indexrelname IN ('ak_a', 'ak_ab');
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_seqscan;
SELECT s2.idx_scan - s1.idx_scan BETWEEN 1 AND 20 AS forward_searches_per_leaf,
       s3.idx_scan - s2.idx_scan BETWEEN 1 AND 20 AS backward_searches_per_leaf,
       s4.idx_scan - s3.idx_scan BETWEEN 1 AND 20 AS bitmap_searches_per_leaf
FROM ak_stat s1, ak_stat s2, ak_stat s3, ak_stat s4
WHERE s1.n = 1 AND s2.n = 2 AND s3.n = 3 AND s4.n = 4;

SELECT * FROM bp_failures('array%');
DROP TABLE ak, ak_probe, ak_lists;
DROP FUNCTION ak_in_order(text);
