--
-- 35_skip_scan: quals on key columns after one without an = qual.  The
-- scan walks the distinct values of the leading columns (the prefix),
-- one primitive scan per value, bounded by the later columns' quals:
-- forward and backward, index-only and bitmap scans, IN lists on the
-- later column, ranges on both, NULLs in the prefix (ASC, DESC, NULLS
-- FIRST), prefixes of two columns, text prefixes, few and many distinct
-- values (many: leaves read whole, every entry tested), LIMIT, SCROLL
-- cursors, merge joins (mark/restore) and rescans.  Every result is
-- compared with the same query run without any index (bp_check from
-- 00_setup, bp_cursor and bp_compare from 06_scans).
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- sk_in_order(query): an ordered query with an IN list on a column after
-- the prefix, through a bpindex index scan and index-only scan, against a
-- sequential scan.  PostgreSQL 15's planner does not take the index
-- order for an array on a later column (it filters the array), 17 and
-- later do: the array is an index condition and nothing sorts there.
CREATE FUNCTION sk_in_order(query text)
RETURNS TABLE (nrows bigint, same_as_seqscan boolean, plan_ok boolean)
LANGUAGE plpgsql AS $$
DECLARE
    plan text;
    line text;
    s1 text;
    s2 text;
    s3 text;
    modern boolean := current_setting('server_version_num')::int >= 170000;
BEGIN
    plan_ok := true;
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    PERFORM set_config('enable_sort', 'off', true);
    FOREACH line IN ARRAY ARRAY['off', 'on'] LOOP
        PERFORM set_config('enable_indexonlyscan', line, true);
        plan := '';
        FOR s3 IN EXECUTE 'explain (costs off) ' || query LOOP
            plan := plan || s3 || E'\n';
        END LOOP;
        plan_ok := plan_ok AND plan ~ CASE line WHEN 'on' THEN 'Index Only Scan' ELSE 'Index Scan' END
            AND EXISTS (SELECT FROM pg_class c JOIN pg_am a ON a.oid = c.relam
                        WHERE a.amname = 'bpindex' AND plan ~ (' using ' || c.relname || ' '))
            AND (NOT modern OR (plan !~ 'Sort' AND plan !~ 'Filter'));
        EXECUTE format('select string_agg(to_jsonb(x)::text, '' '') from (%s) x', query) INTO s3;
        IF line = 'off' THEN
            s1 := s3;
        ELSE
            plan_ok := plan_ok AND s1 IS NOT DISTINCT FROM s3;
        END IF;
    END LOOP;
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    PERFORM set_config('enable_indexonlyscan', 'off', true);
    PERFORM set_config('enable_sort', 'on', true);
    EXECUTE format('select count(*), string_agg(to_jsonb(x)::text, '' '') from (%s) x', query)
        INTO nrows, s2;
    RESET enable_seqscan; RESET enable_indexscan; RESET enable_indexonlyscan;
    RESET enable_bitmapscan; RESET enable_sort;
    same_as_seqscan := s1 IS NOT DISTINCT FROM s2;
    RETURN NEXT;
END
$$;

-- few prefix values, each spanning many leaves (small leaves); NULLs in a
CREATE TABLE sk (a int4, b int8, c int4, d text);
INSERT INTO sk
SELECT CASE WHEN i % 97 = 0 THEN NULL ELSE i % 7 END,
       CASE WHEN i % 89 = 0 THEN NULL ELSE i END,
       i % 13, 'k' || (i % 5)
FROM generate_series(1, 20000) i;
CREATE INDEX sk_ab ON sk USING bpindex (a, b) WITH (fillfactor = 10, packed_leaves = off);
VACUUM ANALYZE sk;

SELECT * FROM bp_queries('skip few', ARRAY[
    'select a, b from sk where b = 1234',
    'select a, b from sk where b = 1235',
    'select a, b from sk where b = -1',
    'select a, b from sk where b = 19999',
    'select a, b from sk where b between 1000 and 1200',
    'select a, b from sk where b < 40',
    'select a, b from sk where b > 19960',
    'select a, b from sk where b >= 19999',
    'select a, b from sk where b is null',
    'select a, b from sk where b is not null and a > 5',
    'select a, b from sk where b in (5, 776, 1234, 9700, 19999, 40000)',
    'select a, b from sk where b = any (''{3, 3, null, 17000, 2}'')',
    'select a, b from sk where b = any (''{}''::int8[])',
    'select a, b from sk where a > 3 and b < 500',
    'select a, b from sk where a >= 2 and a < 5 and b between 300 and 900',
    'select a, b from sk where a < 0 and b = 5',
    'select a, b from sk where a is null and b < 3000',
    'select a, b from sk where a is not null and b = 9701',
    'select a, b from sk where b = 1234 order by a, b',
    'select a, b from sk where b < 300 order by a, b',
    'select a, b from sk where b < 300 order by a desc, b desc',
    'select a, b from sk where b between 100 and 2000 order by a, b limit 7',
    'select a, b from sk where b between 100 and 2000 order by a desc, b desc limit 7',
    'select a, b from sk where a > 2 and b > 19000 order by a desc, b desc',
    'select a, b from sk where b is null order by a desc, b desc'
]);
SELECT q.query, r.* FROM unnest(ARRAY[
    'select a, b from sk where b in (5, 776, 1234, 9700, 19999) order by a, b',
    'select a, b from sk where b in (5, 776, 1234, 9700, 19999) order by a desc, b desc',
    'select a, b from sk where b = any (''{3, 3, null, 17000, 2}'') order by a desc, b desc limit 2'
]) WITH ORDINALITY AS q(query, n), LATERAL sk_in_order(q.query) r ORDER BY q.n;

-- many prefix values, a few entries each: leaves are read whole
CREATE TABLE skm (a int4, b int8);
INSERT INTO skm SELECT i / 3, i % 50 FROM generate_series(1, 30000) i;
-- and some long runs, where skipping pays again
INSERT INTO skm SELECT 20000 + i % 3, i FROM generate_series(1, 6000) i;
CREATE INDEX skm_ab ON skm USING bpindex (a, b) WITH (fillfactor = 10, packed_leaves = off);
VACUUM ANALYZE skm;
SELECT * FROM bp_queries('skip many', ARRAY[
    'select a, b from skm where b = 7',
    'select a, b from skm where b in (7, 49, 4000)',
    'select a, b from skm where b between 10 and 12 and a > 9000',
    'select a, b from skm where b = 7 order by a, b',
    'select a, b from skm where b = 7 order by a desc, b desc',
    'select a, b from skm where b < 2 and a between 9990 and 20001 order by a, b',
    'select a, b from skm where b > 5990 order by a desc, b desc limit 4'
]);
SELECT * FROM sk_in_order('select a, b from skm where b in (7, 49, 4000) order by a desc, b desc');

-- DESC and NULLS FIRST prefix columns
CREATE TABLE skd (a int4, b int8);
INSERT INTO skd SELECT CASE WHEN i % 50 = 0 THEN NULL ELSE i % 11 END, i
FROM generate_series(1, 12000) i;
CREATE INDEX skd_ab ON skd USING bpindex (a DESC, b) WITH (fillfactor = 10, packed_leaves = off);
VACUUM ANALYZE skd;
SELECT * FROM bp_queries('skip desc', ARRAY[
    'select a, b from skd where b = 550',
    'select a, b from skd where b in (100, 550, 11000)',
    'select a, b from skd where b < 60',
    'select a, b from skd where a < 4 and b < 200',
    'select a, b from skd where a is null and b > 11000',
    'select a, b from skd where b < 300 order by a desc, b',
    'select a, b from skd where b < 300 order by a, b desc'
]);
SELECT * FROM sk_in_order('select a, b from skd where b in (100, 550, 11000) order by a desc, b');
DROP INDEX skd_ab;
CREATE INDEX skd_ab2 ON skd USING bpindex (a NULLS FIRST, b DESC) WITH (fillfactor = 10, packed_leaves = off);
SELECT * FROM bp_queries('skip nulls first', ARRAY[
    'select a, b from skd where b = 550',
    'select a, b from skd where b = 600',
    'select a, b from skd where b in (100, 600, 11000)',
    'select a, b from skd where b > 11900',
    'select a, b from skd where a > 6 and b < 200',
    'select a, b from skd where b > 11500 order by a nulls first, b desc',
    'select a, b from skd where b > 11500 order by a desc nulls last, b'
]);
SELECT * FROM sk_in_order('select a, b from skd where b in (100, 600, 11000) order by a nulls first, b desc');

-- a prefix of two columns (a, b), the key on c; and a pinned, b skipped
CREATE TABLE sk3 (a int4, b int4, c int8);
INSERT INTO sk3 SELECT i % 3, (i / 3) % 40, i FROM generate_series(1, 24000) i;
CREATE INDEX sk3_abc ON sk3 USING bpindex (a, b, c) WITH (fillfactor = 10, packed_leaves = off);
VACUUM ANALYZE sk3;
SELECT * FROM bp_queries('skip two columns', ARRAY[
    'select a, b, c from sk3 where c = 12345',
    'select a, b, c from sk3 where c in (1, 12345, 23999)',
    'select a, b, c from sk3 where c < 130',
    'select a, b, c from sk3 where b > 37 and c < 3000',
    'select a, b, c from sk3 where a = 2 and c between 100 and 400',
    'select a, b, c from sk3 where a = 1 and b < 3 and c > 23000',
    'select a, b, c from sk3 where b = 5 and c < 2000',
    'select a, b, c from sk3 where c < 130 order by a, b, c',
    'select a, b, c from sk3 where c < 130 order by a desc, b desc, c desc'
]);
SELECT * FROM sk_in_order('select a, b, c from sk3 where a = 2 and c in (2, 1001, 20000) order by a desc, b desc, c desc');

-- = ANY on a prefix column: each element's range is a skip scan of its
-- own over the columns without a key (b here), elements in index order,
-- forward and backward; absent elements, a second array, a range beside
SELECT * FROM bp_queries('skip array prefix', ARRAY[
    'select a, b, c from sk3 where a in (0, 2) and c = 12345',
    'select a, b, c from sk3 where a in (1, 2) and c = 12345',
    'select a, b, c from sk3 where a in (2, 0) and c in (2, 12345, 23999)',
    'select a, b, c from sk3 where a in (1, 7, -3) and c < 200',
    'select a, b, c from sk3 where a in (0, 1, 2) and b > 37 and c < 3000',
    'select a, b, c from sk3 where a in (0, 2) and b in (3, 39) and c > 20000',
    'select a, b, c from sk3 where a = any(array[2, 1]) and c between 100 and 160',
    'select a, b, c from sk3 where a in (5, 6) and c < 1000',
    'select a, b, c from sk3 where a in (0, 2) and c < 130 order by a, b, c',
    'select a, b, c from sk3 where a in (0, 2) and c < 130 order by a desc, b desc, c desc',
    'select a, b, c from sk3 where a in (1, 2) and c > 23900 order by a desc, b desc, c desc limit 7'
]);
SELECT * FROM sk_in_order('select a, b, c from sk3 where a in (0, 2) and c in (2, 1001, 20000) order by a desc, b desc, c desc');
-- elements that share leaves: the leaf where one element's last prefix
-- ends, read whole for its skip, holds the next element's first prefixes
-- (full leaves of 1,400 to 1,800 entries, twenty values of m per element)
CREATE TABLE ska (a int4, m int4, b int8);
INSERT INTO ska SELECT (g - 1) / 2000, ((g - 1) % 2000) / 100, (g - 1) % 100
    FROM generate_series(1, 20000) g;
CREATE INDEX ska_amb ON ska USING bpindex (a, m, b) WITH (fillfactor = 100);
VACUUM ANALYZE ska;
SELECT count(*) >= 5 AS leaves_shared_by_elements FROM bpindex_leaves('ska_amb')
WHERE split_part(btrim(low_key, '()'), ',', 1) <> split_part(btrim(high_key, '()'), ',', 1);
SELECT * FROM bp_queries('skip array shared leaves', ARRAY[
    'select a, m, b from ska where a in (1, 3, 4, 5, 6, 8) and b between 40 and 60',
    'select a, m, b from ska where a in (3, 4) and b = 50',
    'select a, m, b from ska where a in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9) and b in (0, 99)',
    'select a, m, b from ska where a in (2, 3, 4) and m > 5 and b < 3',
    'select a, m, b from ska where a in (1, 3, 4, 5, 6, 8) and b between 40 and 60 order by a, m, b',
    'select a, m, b from ska where a in (1, 3, 4, 5, 6, 8) and b between 40 and 60 order by a desc, m desc, b desc',
    'select a, m, b from ska where a in (4, 5) and b > 90 order by a desc, m desc, b desc limit 30'
]);
SELECT * FROM bp_cursor('select a, m, b from ska where a in (3, 4, 6) and b between 10 and 12 order by a, m, b',
    ARRAY['forward 55', 'next', 'backward 20', 'forward 40', 'last', 'backward 75', 'prior',
          'absolute 61', 'relative -5', 'relative 12'], 'index');
-- a SCROLL cursor crossing elements and values of b both ways
SELECT * FROM bp_cursor('select a, b, c from sk3 where a in (0, 2) and c < 400 order by a, b, c',
    ARRAY['next', 'forward 5', 'prior', 'forward 70', 'next', 'backward 40', 'last', 'prior',
          'first', 'next', 'absolute 100', 'relative -30', 'relative 45'], 'index');
-- DESC and NULLS in the prefix column of the array
SELECT * FROM bp_queries('skip array desc', ARRAY[
    'select a, b from skd where a in (3, 7) and b < 300',
    'select a, b from skd where a in (3, 7, 10) and b between 5000 and 5100',
    'select a, b from skd where a in (3, 7) and b < 300 order by a nulls first, b desc',
    'select a, b from skd where a in (3, 7) and b < 300 order by a desc nulls last, b'
]);

-- a text prefix (keys stored out of the slot)
CREATE INDEX sk_db ON sk USING bpindex (d, b) WITH (fillfactor = 10, packed_leaves = off);
DROP INDEX sk_ab;
SELECT * FROM bp_queries('skip text', ARRAY[
    'select d, b from sk where b = 1234',
    'select d, b from sk where b in (3, 1234, 19995)',
    'select d, b from sk where d > ''k2'' and b < 100',
    'select d, b from sk where b < 50 order by d, b',
    'select d, b from sk where b < 50 order by d desc, b desc'
]);
DROP INDEX sk_db;

-- a text prefix in packed leaves (keys in the key area, compared through
-- their windows under "C"), each value long, sharing its start with the
-- others and spanning many leaves: the next value is found by a look at
-- the leaf a descent reaches, and at the leaves to its right when a value
-- ends at a leaf's end
CREATE TABLE skt (d text COLLATE "C", b int8);
INSERT INTO skt SELECT 'customer-region-' || lpad((i % 6)::text, 40, '0'), i
FROM generate_series(1, 30000) i;
INSERT INTO skt SELECT 'customer-region-' || lpad((6 + i % 50)::text, 40, '0'), -i
FROM generate_series(1, 100) i;
CREATE INDEX skt_db ON skt USING bpindex (d, b);
VACUUM ANALYZE skt;
SELECT * FROM bp_queries('skip packed text', ARRAY[
    'select d, b from skt where b = 12345',
    'select d, b from skt where b in (-77, 6, 12345, 29999)',
    'select d, b from skt where b between 9000 and 9040',
    'select d, b from skt where d >= ''customer-region-0000000000000000000000000000000000000003'' and b < 40',
    'select d, b from skt where b < 50 order by d, b',
    'select d, b from skt where b < 50 order by d desc, b desc',
    'select d, b from skt where b < 0 order by d desc, b desc limit 30'
]);
SELECT * FROM bp_cursor('select d, b from skt where b in (-3, 5, 29994) order by d, b',
    ARRAY['next', 'forward 3', 'prior', 'backward 2', 'last', 'prior', 'first', 'next'],
    'indexonly');
DROP TABLE skt;

-- integer prefixes: the scan descends straight to the range of the value
-- after the current one (a guess), dense runs of values where the guess
-- holds, gaps where the leaf reached names the next value, values whose
-- range is empty, the ends of the type, NULLs, and DESC
CREATE TABLE skg (a int2, b int8, c int8);
INSERT INTO skg SELECT i % 12, i, i FROM generate_series(1, 12000) i;
INSERT INTO skg SELECT 100 * (i % 7) + 50, i, -i FROM generate_series(1, 7000) i;
INSERT INTO skg SELECT CASE i % 3 WHEN 0 THEN 32767 WHEN 1 THEN -32768 ELSE NULL END,
       i, i * 1000000000000 FROM generate_series(1, 3000) i;
CREATE INDEX skg_ab ON skg USING bpindex (a, b);
CREATE INDEX skg_ac ON skg USING bpindex (a DESC, c);
VACUUM ANALYZE skg;
SELECT * FROM bp_queries('skip guess', ARRAY[
    'select a, b from skg where b = 5000',
    'select a, b from skg where b = 2999',
    'select a, b from skg where b in (7, 1000, 2998, 6999, 11999)',
    'select a, b from skg where b between 990 and 1010',
    'select a, b from skg where b < 30 order by a, b',
    'select a, b from skg where b < 30 order by a desc, b desc',
    'select a, b from skg where a > 5 and b between 2000 and 2012',
    'select a, b from skg where a < 300 and b = 3000 order by a desc, b desc',
    'select a, b from skg where a >= 32767 and b > 2990',
    'select a, b from skg where a is not null and b = 1',
    'select a, c from skg where c = -700',
    'select a, c from skg where c in (-6999, -3, 5, 2000000000000000)',
    'select a, c from skg where c > 2990000000000000 order by a desc, c',
    'select a, c from skg where c between -20 and 20 order by a, c desc',
    'select a, c from skg where a between 40 and 500 and c < -6990 order by a desc, c'
]);
SELECT * FROM bp_cursor('select a, b from skg where b in (5, 1000, 2999) order by a, b',
    ARRAY['next', 'forward 4', 'next', 'prior', 'backward 2', 'last', 'next', 'prior',
          'first', 'prior', 'next'], 'index');
SELECT * FROM bp_cursor('select a, c from skg where c between -8 and 8 order by a desc, c',
    ARRAY['forward 5', 'prior', 'forward 20', 'next', 'backward 7', 'last', 'prior',
          'first', 'next'], 'indexonly');
DROP TABLE skg;
-- a cursor that reaches the end after a last guess (past the greatest
-- value: nothing there) and turns back, with a key the copy must test
CREATE TABLE skz (a int4, b int4, c int4);
INSERT INTO skz SELECT g % 5, g % 4000, g FROM generate_series(1, 20000) g;
CREATE INDEX skz_abc ON skz USING bpindex (a, b, c) WITH (fillfactor = 10, packed_leaves = off);
VACUUM ANALYZE skz;
SELECT * FROM bp_cursor('select a, b, c from skz where b in (7, 12, 3998, 3999) and c > 100 order by a, b, c',
    ARRAY['last', 'prior', 'prior', 'next', 'next', 'next', 'backward 4', 'first', 'prior', 'next'],
    'index');
SELECT * FROM bp_cursor('select a, b, c from skz where b in (7, 12, 3998, 3999) and c > 100 order by a desc, b desc, c desc',
    ARRAY['last', 'prior', 'prior', 'next', 'next', 'next', 'backward 4', 'first', 'prior', 'next'],
    'indexonly');
DROP TABLE skz;

-- packed leaves of the default size, the common case
CREATE INDEX sk_ab ON sk USING bpindex (a, b);
SELECT * FROM bp_queries('skip packed', ARRAY[
    'select a, b from sk where b = 1234',
    'select a, b from sk where b in (5, 776, 1234, 9700, 19999)',
    'select a, b from sk where b < 300 order by a desc, b desc',
    'select a, b from sk where a > 2 and b between 100 and 130 order by a, b'
]);
DROP INDEX sk_ab;
CREATE INDEX sk_ab ON sk USING bpindex (a, b) WITH (fillfactor = 10, packed_leaves = off);

-- mixed group sizes: prefixes of two entries (leaves read whole), then
-- long ones (skipping again), of three; NULLs in both columns
CREATE TABLE skx (a int4, b int4, c int4);
INSERT INTO skx SELECT i / 2, i % 37, i FROM generate_series(1, 6000) i;
INSERT INTO skx SELECT 5000 + i % 4, i % 1000, i FROM generate_series(1, 8000) i;
INSERT INTO skx SELECT 6000 + i / 3, i % 11, i FROM generate_series(1, 3000) i;
INSERT INTO skx SELECT NULL, i % 50, i FROM generate_series(1, 500) i;
INSERT INTO skx SELECT 7000 + i % 2, NULL, i FROM generate_series(1, 300) i;
CREATE INDEX skx_ab ON skx USING bpindex (a, b) WITH (fillfactor = 20, packed_leaves = off);
VACUUM ANALYZE skx;
DO $$
DECLARE
    q text;
    conds text[] := ARRAY['b = 7', 'b in (0, 7, 36, 500)', 'b between 3 and 5', 'b < 2',
                          'b > 990', 'b is null', 'a > 2990 and b = 3',
                          'a between 4990 and 6100 and b in (1, 9)', 'a is null and b = 3',
                          'b >= 36'];
    ords text[] := ARRAY['', ' order by a, b', ' order by a desc, b desc',
                         ' order by a, b limit 50', ' order by a desc, b desc limit 50'];
    r record;
BEGIN
    FOREACH q IN ARRAY conds LOOP
        FOR i IN 1 .. array_length(ords, 1) LOOP
            IF q ~ ' in ' AND ords[i] <> '' THEN
                r := sk_in_order('select a, b from skx where ' || q || ords[i]);
                IF NOT (r.same_as_seqscan AND r.plan_ok) THEN
                    RAISE NOTICE 'skip mixed: % differs', q || ords[i];
                END IF;
                CONTINUE;
            END IF;
            PERFORM bp_run('skip mixed', 'select a, b from skx where ' || q || ords[i],
                           'select a, b from skx where ' || q || ords[i]);
        END LOOP;
    END LOOP;
END $$;
SELECT shape, idx, ionly, bitmap FROM bp_results WHERE label = 'skip mixed' AND NOT ok;
-- cursors going both ways across small and long prefixes: the steps that
-- differ from the sequential scan's (none)
SELECT * FROM bp_cursor('select a, b from skx where b = 7 order by a, b',
    ARRAY['forward 100', 'prior', 'backward 50', 'next', 'forward 300', 'backward 200',
          'forward 400', 'last', 'backward 300', 'next', 'forward 1000', 'prior', 'prior',
          'backward 700', 'forward 20'], 'index') WHERE NOT same OR n = 0;
SELECT * FROM bp_cursor('select a, b from skx where b in (1, 9, 36) order by a desc, b desc',
    ARRAY['forward 100', 'prior', 'backward 50', 'next', 'forward 300', 'backward 200',
          'forward 400', 'last', 'backward 300', 'next', 'forward 1000', 'prior', 'prior',
          'backward 700', 'forward 20'], 'indexonly') WHERE NOT same OR n = 0;
DROP TABLE skx;

SELECT * FROM bp_failures('skip%');

-- the plans: the index, with the later column's qual as an index condition
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM sk WHERE b = 1234;
EXPLAIN (COSTS OFF) SELECT a, b FROM sk WHERE b IN (5, 1234);
EXPLAIN (COSTS OFF) SELECT a, b FROM sk WHERE b < 100 ORDER BY a DESC, b DESC;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- a skip scan descends once or twice per prefix value: the searches
-- counted for the index (pg_stat_user_indexes on every version, flushed
-- between statements; "Index Searches" of EXPLAIN ANALYZE from 18 on)
CREATE TEMP TABLE sk_stat (n int, idx_scan bigint);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_stat_force_next_flush();
INSERT INTO sk_stat SELECT 1, idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'sk_ab';
SELECT count(*) FROM sk WHERE b = 1234;
SELECT pg_stat_force_next_flush();
INSERT INTO sk_stat SELECT 2, idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'sk_ab';
SET enable_indexscan = off;
SET enable_bitmapscan = on;
SELECT count(*) FROM sk WHERE b = 1234;
SELECT pg_stat_force_next_flush();
INSERT INTO sk_stat SELECT 3, idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'sk_ab';
-- 8 prefix values (NULL among them), a leaf or two each
SELECT s2.idx_scan - s1.idx_scan BETWEEN 8 AND 20 AS ordered_searches_per_prefix,
       s3.idx_scan - s2.idx_scan BETWEEN 8 AND 20 AS bitmap_searches_per_prefix
FROM sk_stat s1, sk_stat s2, sk_stat s3 WHERE s1.n = 1 AND s2.n = 2 AND s3.n = 3;
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT coalesce(bp_index_searches('SELECT * FROM sk WHERE b = 1234') BETWEEN 8 AND 20,
                current_setting('server_version_num')::int < 180000) AS explain_counts_searches;
-- a descent or two per element and value of b (80 of them), not a read of
-- the elements' ranges
SELECT coalesce(bp_index_searches('select * from sk3 where a in (0, 2) and c = 12345') BETWEEN 80 AND 170,
                current_setting('server_version_num')::int < 180000) AS explain_counts_searches;
-- a descent after the first few reads one page, the leaf: the scan keeps
-- a copy of the level-1 page that its descents go through (a descent from
-- the root reads three pages here)
SELECT levels FROM bpindex_stats('sk3_abc');
SELECT bp_scan_buffers('select a, b, c from sk3 where a in (0, 2) and c = 12345') < 135 AS array_descents_read_leaves,
       bp_scan_buffers('select a, b, c from sk3 where c = 12345') < 200 AS skip_descents_read_leaves,
       bp_scan_buffers('select a, b, c from sk3 where c = 12345 order by a desc, b desc') < 200 AS backward_descents_read_leaves;
RESET enable_seqscan;

-- the plan follows the cost of what the scan does: with 10 leading values
-- skipping reads a few leaves and beats a sequential scan; with 1,000, or
-- as many as rows (a unique leading column, the case of a million values
-- in a million rows), the ranges share leaves and the scan reads the index
-- whole, still smaller than the table; an index on b beats both
CREATE TABLE skp (a10 int4, a1k int4, au int4, b int8, filler int8);
INSERT INTO skp SELECT g % 10, g % 1000, g, g, g FROM generate_series(1, 100000) g;
CREATE INDEX skp_10 ON skp USING bpindex (a10, b);
CREATE INDEX skp_1k ON skp USING bpindex (a1k, b);
CREATE INDEX skp_u ON skp USING bpindex (au, b);
VACUUM ANALYZE skp;
-- the plan of a query: its scan node, and its estimated cost against the
-- sequential scan's
CREATE FUNCTION sk_plan(query text) RETURNS TABLE (node text, cost_vs_seqscan float8)
LANGUAGE plpgsql AS $$
DECLARE
    plan json;
    seq json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    PERFORM set_config('enable_indexscan', 'off', true);
    PERFORM set_config('enable_indexonlyscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO seq;
    PERFORM set_config('enable_indexscan', 'on', true);
    PERFORM set_config('enable_indexonlyscan', 'on', true);
    PERFORM set_config('enable_bitmapscan', 'on', true);
    node := (plan->0->'Plan'->>'Node Type') ||
        coalesce(' using ' || (plan->0->'Plan'->>'Index Name'), '');
    cost_vs_seqscan := (plan->0->'Plan'->>'Total Cost')::float8 /
        (seq->0->'Plan'->>'Total Cost')::float8;
    RETURN NEXT;
END $$;
-- 10 values: a few descents each
SELECT node, cost_vs_seqscan < 0.1 AS skips FROM sk_plan('SELECT * FROM skp WHERE b = 12345');
DROP INDEX skp_10, skp_u;
-- 1,000 values, about 100 entries each: the index read whole
SELECT node, cost_vs_seqscan BETWEEN 0.3 AND 1 AS reads_index FROM sk_plan('SELECT * FROM skp WHERE b = 12345');
DROP INDEX skp_1k;
-- as many values as rows
CREATE INDEX skp_u ON skp USING bpindex (au, b);
SELECT node, cost_vs_seqscan BETWEEN 0.3 AND 1 AS reads_index FROM sk_plan('SELECT * FROM skp WHERE b = 12345');
-- the second column's index beats them
CREATE INDEX skp_b ON skp USING bpindex (b);
SELECT node FROM sk_plan('SELECT * FROM skp WHERE b = 12345');
DROP INDEX skp_u, skp_b;
-- = ANY on the leading column of (a10, a1k, b): each element's range
-- skipped through (2 x 100 prefixes, each with its descents), far cheaper
-- than a sequential scan; with a range on b that keeps a tenth of the rows,
-- a bitmap scan of it (3-4 ms against the sequential scan's 10)
CREATE INDEX skp_10_1k ON skp USING bpindex (a10, a1k, b);
SELECT node, cost_vs_seqscan < 0.5 AS skips
FROM sk_plan('SELECT * FROM skp WHERE a10 IN (3, 7) AND b = 12345');
SELECT node FROM sk_plan('SELECT * FROM skp WHERE a10 IN (3, 7) AND b > 50000');
DROP TABLE skp;
DROP FUNCTION sk_plan(text);

-- SCROLL cursors crossing prefix values both ways
SELECT * FROM bp_cursor('select a, b from sk where b between 1000 and 1100 order by a, b',
    ARRAY['next', 'forward 5', 'next', 'prior', 'backward 3', 'forward 40', 'next',
          'prior', 'prior', 'last', 'prior', 'next', 'next', 'prior', 'first', 'prior',
          'next', 'absolute 50', 'relative -20', 'relative 30'], 'index');
SELECT * FROM bp_cursor('select a, b from sk where b in (7, 777, 7777, 17777) order by a desc, b desc',
    ARRAY['next', 'next', 'prior', 'forward 3', 'prior', 'last', 'backward 2', 'next', 'first'],
    'indexonly');
SELECT * FROM bp_cursor('select a, b from skm where b = 7 order by a, b',
    ARRAY['forward 100', 'prior', 'backward 50', 'next', 'last', 'backward 300', 'next',
          'forward 1000', 'prior', 'prior'], 'index');

-- a merge join whose inner skip scan is marked and restored
SELECT * FROM bp_compare('select x.a, x.b, y.b from sk x join sk y on x.a = y.a where x.b < 60 and y.b between 100 and 130',
    'enable_hashjoin=off,enable_nestloop=off,enable_seqscan=off,enable_sort=off,enable_bitmapscan=off,enable_material=off');
CREATE TABLE skj (a int4);
INSERT INTO skj SELECT i % 7 FROM generate_series(1, 30) i;
ANALYZE skj;
-- rescans: a parameterized nested loop, a new value of b each time
SELECT * FROM bp_compare('select j.a, (select count(*) from sk x where x.b = j.a * 1000 + 7) from skj j',
    'enable_bitmapscan=off');

DROP FUNCTION sk_in_order(text);
DROP TABLE sk, skm, skd, sk3, skj, ska;
