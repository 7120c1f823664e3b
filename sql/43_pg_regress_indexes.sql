--
-- 43_pg_regress_indexes: the indexes that PostgreSQL's own btree_index,
-- create_index, select and join regression tests build with btree, built
-- with bpindex on tables of the same shapes (Wisconsin-style onek and
-- tenk1 generated here, not loaded), and the kinds of queries those tests
-- run on them: every result compared with the same query without any
-- index, and the plan checked for a bpindex scan.  Unique indexes are in
-- 39_unique (PostgreSQL 18 only); primary keys and UNIQUE constraints
-- are btree's by PostgreSQL's rule.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE SCHEMA rg;
SET search_path = rg, public;

-- rg_check(query, mode): query through the planner with sequential scans
-- disabled (mode 'any'), or forced to an index scan ('index'), an
-- index-only scan ('indexonly') or a bitmap scan ('bitmap'), against the
-- same query without any index; an ordered query compares its rows in
-- order.  bpindex_used: a bpindex index appears in the plan.
CREATE FUNCTION rg_check(query text, mode text DEFAULT 'any')
RETURNS TABLE (bpindex_used boolean, nrows bigint, same_as_seqscan boolean)
LANGUAGE plpgsql
SET enable_seqscan = off SET enable_indexscan = on SET enable_indexonlyscan = on
SET enable_bitmapscan = on SET max_parallel_workers_per_gather = 0 SET jit = off
AS $$
DECLARE
    wrapper text := bp_wrapped(query);
    node text := CASE mode WHEN 'index' THEN 'Index Scan' WHEN 'indexonly' THEN 'Index Only Scan'
                           WHEN 'bitmap' THEN 'Bitmap Index Scan' END;
    line text;
    m text[];
    n_idx bigint;
    s_idx text;
    base record;
BEGIN
    IF mode IN ('index', 'indexonly') THEN
        PERFORM set_config('enable_bitmapscan', 'off', true);
    END IF;
    IF mode IN ('index', 'bitmap') THEN
        PERFORM set_config('enable_indexonlyscan', 'off', true);
    END IF;
    IF mode = 'bitmap' THEN
        PERFORM set_config('enable_indexscan', 'off', true);
    END IF;
    bpindex_used := false;
    FOR line IN EXECUTE 'explain (costs off) ' || wrapper LOOP
        m := regexp_match(line, '(Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\S+)');
        IF m IS NOT NULL AND (node IS NULL OR m[1] = node)
           AND EXISTS (SELECT FROM pg_class c JOIN pg_am a ON a.oid = c.relam
                       WHERE c.relname = m[2] AND a.amname = 'bpindex') THEN
            bpindex_used := true;
        END IF;
    END LOOP;
    EXECUTE wrapper INTO n_idx, s_idx;
    base := bp_without_index(wrapper);
    IF NOT base.no_index THEN
        RAISE EXCEPTION 'rg_check: the baseline of % uses an index', query;
    END IF;
    nrows := base.nrows;
    same_as_seqscan := n_idx = base.nrows AND s_idx IS NOT DISTINCT FROM base.rows;
    RETURN NEXT;
END
$$;

-- rg_queries(queries, mode): rg_check over a list
CREATE FUNCTION rg_queries(queries text[], mode text DEFAULT 'any')
RETURNS TABLE (query text, bpindex_used boolean, nrows bigint, same_as_seqscan boolean)
LANGUAGE sql AS $$
    SELECT q.query, r.bpindex_used, r.nrows, r.same_as_seqscan
    FROM unnest(queries) WITH ORDINALITY AS q(query, n), LATERAL rg_check(q.query, mode) r
    ORDER BY q.n
$$;

-- The Wisconsin columns of onek and tenk1: unique1 a permutation of
-- 0..n-1, unique2 the row's place, the modulo columns of unique1, and
-- names that spell unique1 and unique2 in base 26 (least significant
-- letter first) and string4 by unique2 % 4
CREATE FUNCTION rg_wisconsin_name(v int) RETURNS name LANGUAGE sql IMMUTABLE AS $$
    SELECT (chr(65 + v % 26) || chr(65 + (v / 26) % 26) || chr(65 + (v / 676) % 26) || 'AAA')::name
$$;
CREATE FUNCTION rg_wisconsin(n int, step int)
RETURNS TABLE (unique1 int4, unique2 int4, two int4, four int4, ten int4, twenty int4,
               hundred int4, thousand int4, twothousand int4, fivethous int4, tenthous int4,
               odd int4, even int4, stringu1 name, stringu2 name, string4 name)
LANGUAGE sql AS $$
    SELECT u1, u2, u1 % 2, u1 % 4, u1 % 10, u1 % 20, u1 % 100, u1 % 1000, u1 % 2000, u1 % 5000,
           u1, (u1 % 100) * 2, (u1 % 100) * 2 + 1, rg_wisconsin_name(u1), rg_wisconsin_name(u2),
           ((ARRAY['AAAAxx', 'HHHHxx', 'OOOOxx', 'VVVVxx'])[u2 % 4 + 1])::name
    FROM (SELECT (g * step) % n AS u1, g AS u2 FROM generate_series(0, n - 1) g) s
$$;
CREATE TABLE onek AS SELECT * FROM rg_wisconsin(1000, 389);
CREATE TABLE tenk1 AS SELECT * FROM rg_wisconsin(10000, 7919);
CREATE TABLE onek2 AS SELECT * FROM onek;
CREATE TABLE tenk2 AS SELECT * FROM tenk1;
CREATE TABLE int4_tbl (f1 int4);
INSERT INTO int4_tbl VALUES (0), (123456), (-123456), (2147483647), (-2147483647);
CREATE TABLE int8_tbl (q1 int8, q2 int8);
INSERT INTO int8_tbl VALUES (123, 456), (123, 4567890123456789), (4567890123456789, 123),
    (4567890123456789, 4567890123456789), (4567890123456789, -4567890123456789);
SELECT count(DISTINCT unique1) = 10000 AND max(unique1) = 9999 AS tenk1_unique1_is_a_permutation
FROM tenk1;

-- create_index.sql's indexes on them
CREATE INDEX onek_unique1 ON onek USING bpindex (unique1 int4_ops);
CREATE INDEX IF NOT EXISTS onek_unique1 ON onek USING bpindex (unique1 int4_ops);
CREATE INDEX onek_unique2 ON onek USING bpindex (unique2 int4_ops);
CREATE INDEX onek_hundred ON onek USING bpindex (hundred int4_ops);
CREATE INDEX onek_stringu1 ON onek USING bpindex (stringu1 name_ops);
CREATE INDEX tenk1_unique1 ON tenk1 USING bpindex (unique1 int4_ops);
CREATE INDEX tenk1_unique2 ON tenk1 USING bpindex (unique2 int4_ops);
CREATE INDEX tenk1_hundred ON tenk1 USING bpindex (hundred int4_ops);
CREATE INDEX tenk1_thous_tenthous ON tenk1 USING bpindex (thousand, tenthous);
CREATE INDEX tenk2_unique1 ON tenk2 USING bpindex (unique1 int4_ops);
CREATE INDEX tenk2_unique2 ON tenk2 USING bpindex (unique2 int4_ops);
CREATE INDEX tenk2_hundred ON tenk2 USING bpindex (hundred int4_ops);
CREATE INDEX onek2_u1_prtl ON onek2 USING bpindex (unique1 int4_ops)
    WHERE unique1 < 20 OR unique1 > 980;
CREATE INDEX onek2_u2_prtl ON onek2 USING bpindex (unique2 int4_ops)
    WHERE stringu1 < 'B';
CREATE INDEX onek2_stu1_prtl ON onek2 USING bpindex (stringu1 name_ops)
    WHERE onek2.stringu1 >= 'J' AND onek2.stringu1 < 'K';
VACUUM ANALYZE onek;
VACUUM ANALYZE tenk1;
VACUUM ANALYZE onek2;
VACUUM ANALYZE tenk2;

-- btree_index.sql's heaps: int4 and text loaded descending, name and
-- float8 ascending; minimum, maximum and point lookups
CREATE TABLE bt_i4_heap (seqno int4, random int4);
CREATE TABLE bt_name_heap (seqno name, random int4);
CREATE TABLE bt_txt_heap (seqno text, random int4);
CREATE TABLE bt_f8_heap (seqno float8, random int4);
INSERT INTO bt_i4_heap SELECT 9999 - g, (g * 7907) % 100003 FROM generate_series(0, 9999) g;
INSERT INTO bt_name_heap SELECT g::text::name, (g * 7907) % 100003 FROM generate_series(0, 9999) g;
INSERT INTO bt_txt_heap SELECT (9999 - g)::text, (g * 7907) % 100003 FROM generate_series(0, 9999) g;
INSERT INTO bt_f8_heap SELECT g + 0.5, (g * 7907) % 100003 FROM generate_series(0, 9999) g;
CREATE INDEX bt_i4_index ON bt_i4_heap USING bpindex (seqno int4_ops);
CREATE INDEX bt_name_index ON bt_name_heap USING bpindex (seqno name_ops);
CREATE INDEX bt_txt_index ON bt_txt_heap USING bpindex (seqno text_ops);
CREATE INDEX bt_f8_index ON bt_f8_heap USING bpindex (seqno float8_ops);
VACUUM ANALYZE bt_i4_heap;
VACUUM ANALYZE bt_name_heap;
VACUUM ANALYZE bt_txt_heap;
VACUUM ANALYZE bt_f8_heap;
SELECT * FROM rg_queries(ARRAY[
    'select * from bt_i4_heap where seqno < 1',
    'select * from bt_i4_heap where seqno >= 9999',
    'select * from bt_i4_heap where seqno = 4500',
    'select * from bt_name_heap where seqno < ''1''::name',
    'select * from bt_name_heap where seqno >= ''9999''::name',
    'select * from bt_name_heap where seqno = ''4500''::name',
    'select * from bt_txt_heap where seqno < ''1''::text',
    'select * from bt_txt_heap where seqno >= ''9999''::text',
    'select * from bt_txt_heap where seqno = ''4500''::text',
    'select * from bt_f8_heap where seqno < ''1''::float8',
    'select * from bt_f8_heap where seqno >= ''9999''::float8',
    'select * from bt_f8_heap where seqno = ''4500.5''::float8'
]);

-- btree_index.sql on tenk1: = ANY beside an inequality, backward
-- descents, DISTINCT over an IN list, row comparisons, skip arrays
SELECT * FROM rg_queries(ARRAY[
    'select unique1, thousand, tenthous from tenk1 where thousand in (182, 183) and tenthous > 7550',
    'select hundred, twenty from tenk1 where hundred < 48 order by hundred desc limit 1',
    'select hundred, twenty from tenk1 where hundred <= 48 order by hundred desc limit 1',
    'select distinct hundred from tenk1 where hundred in (47, 48, 72, 82)',
    'select distinct hundred from tenk1 where hundred in (47, 48, 72, 82) order by hundred desc',
    'select thousand, tenthous from tenk1 where thousand in (364, 366, 380) and tenthous = 200000',
    'select thousand, tenthous from tenk1 where (thousand, tenthous) >= (997, 5000) order by thousand, tenthous limit 5',
    'select thousand, tenthous from tenk1 where (thousand, tenthous) > (null, 5)',
    'select thousand, tenthous from tenk1 where thousand < 2 and tenthous in (1001, 3000) order by thousand',
    'select thousand, tenthous from tenk1 where thousand < 2 and tenthous in (1001, 3000) order by thousand desc, tenthous desc',
    'select thousand, tenthous from tenk1 where thousand > 995 and tenthous in (998, 999) order by thousand desc',
    'select thousand, tenthous from tenk1 where thousand > -1 and thousand >= 0 and tenthous = 3000 order by thousand',
    'select thousand, tenthous from tenk1 where thousand < 3 and thousand <= 2 and tenthous = 1001 order by thousand',
    'select thousand, tenthous from tenk1 where thousand > -1 and tenthous in (1001, 3000) order by thousand limit 2'
]);

-- create_index.sql on tenk1: OR arms (one index's BitmapOr, or an array
-- on 18), cross-type arms, two indexes' BitmapAnd and BitmapOr,
-- redundant and contradictory quals
SELECT * FROM rg_queries(ARRAY[
    'select * from tenk1 where thousand = 42 and (tenthous = 1 or tenthous = 3 or tenthous = 42)',
    'select * from tenk1 where thousand = 42 and (tenthous = 1 or tenthous = 3 or tenthous = 42 or tenthous = 0)',
    'select * from tenk1 where thousand = 42 and (tenthous = 1::int2 or tenthous::int2 = 3::int8 or tenthous = 42::int8)',
    'select * from tenk1 where thousand = 42 and (tenthous = 1 or tenthous = (select 1 + 2) or tenthous = 42)',
    'select count(*) from tenk1 where hundred = 42 and (thousand = 42 or thousand = 99)',
    'select count(*) from tenk1 where hundred = 42 and (thousand < 42 or thousand < 99 or 43 > thousand or 42 > thousand)',
    'select count(*) from tenk1 where (thousand = 42 and (tenthous = 1 or tenthous = 3)) or thousand = 41',
    'select count(*) from tenk1 where hundred = 42 and (thousand = 42 or thousand = 99 or tenthous < 2) or thousand = 41',
    'select * from tenk1 where unique1 < 1 or hundred < 2',
    'select * from tenk1 where unique1 < 1 or unique1 < 3 or hundred < 2',
    'select unique1 from tenk1 where unique1 in (1, 42, 7) order by unique1',
    'select unique1 from tenk1 where unique1 in (1, 42, 7) and unique1 = any (''{7, 8, 9}'')',
    'select unique1 from tenk1 where unique1 = any (''{7, 14, 22}'') and unique1 = any (''{33, 44}''::bigint[])',
    'select unique1 from tenk1 where unique1 = any (null)',
    'select unique1 from tenk1 where unique1 = any (''{NULL, NULL, NULL}'')',
    'select unique1 from tenk1 where unique1 is null and unique1 is null',
    'select unique1 from tenk1 where unique1 in (1, 42, 7) and unique1 = 1',
    'select unique1 from tenk1 where unique1 in (1, 42, 7) and unique1 = 12345',
    'select unique1 from tenk1 where unique1 in (1, 42, 7) and unique1 >= 42',
    'select unique1 from tenk1 where unique1 in (1, 42, 7) and unique1 > 42',
    'select unique1 from tenk1 where unique1 > 9996 and unique1 >= 9999',
    'select unique1 from tenk1 where unique1 < 3 and unique1 <= 3',
    'select unique1 from tenk1 where unique1 < 3 and unique1 < (-1)::bigint',
    'select unique1 from tenk1 where unique1 in (1, 42, 7) and unique1 < (-1)::bigint',
    'select thousand, tenthous from tenk1 where (thousand, tenthous) in ((1, 1001), (null, null))'
]);
SELECT * FROM rg_queries(ARRAY[
    'select count(*) from tenk1 where hundred = 42 and (thousand = 42 or thousand = 99)',
    'select * from tenk1 where unique1 < 1 or hundred < 2',
    'select * from tenk1 where thousand = 42 and (tenthous = 1 or tenthous = 3 or tenthous = 42)'
], 'bitmap');

-- select.sql: ordered scans with sorts on other columns, the partial
-- indexes (their predicates on key and non-key columns), VALUES probes
SELECT * FROM rg_queries(ARRAY[
    'select unique1, stringu1 from onek where unique1 < 10 order by unique1',
    'select unique1, stringu1 from onek where unique1 < 20 order by unique1 using >',
    'select unique1, stringu1 from onek where unique1 > 980 order by stringu1 using <, unique1',
    'select unique1, string4 from onek where unique1 > 980 order by string4 using <, unique1 using >',
    'select unique1, string4 from onek where unique1 < 20 order by unique1 using >, string4 using <',
    'select unique1, stringu1 from onek2 where unique1 < 10',
    'select unique1, stringu1 from onek2 where unique1 < 20 order by unique1 using >',
    'select unique1, stringu1 from onek2 where unique1 > 980',
    'select unique2 from onek2 where unique2 = 11 and stringu1 = ''ATAAAA''',
    'select * from onek2 where unique2 = 11 and stringu1 < ''B''',
    'select unique2 from onek2 where unique2 = 11 and stringu1 < ''B''',
    'select unique1, unique2 from onek2 where (unique2 = 11 or unique1 = 0) and stringu1 < ''B''',
    'select unique1, unique2 from onek2 where (unique2 = 11 and stringu1 < ''B'') or unique1 = 0',
    'select unique1, stringu1 from onek2 where stringu1 >= ''J'' and stringu1 < ''K''',
    'select onek.unique1, onek.stringu1 from onek, (values (147, ''RFAAAA''), (931, ''VJAAAA'')) as v (i, j) where onek.unique1 = v.i and onek.stringu1 = v.j',
    'select unique1, ten from onek where (unique1, ten) in (values (1, 1), (20, 0), (99, 9), (17, 99)) order by unique1'
]);

-- create_index.sql's onek_with_null: (unique2, unique1) under each NULL
-- order and direction, IS [NOT] NULL on either column, the first and last
-- rows around NULLs and the largest value
CREATE TABLE onek_with_null AS SELECT unique1, unique2 FROM onek;
INSERT INTO onek_with_null (unique1, unique2) VALUES
    (NULL, -1), (NULL, 2147483647), (NULL, NULL), (100, NULL), (500, NULL);
VACUUM ANALYZE onek_with_null;
CREATE FUNCTION rg_null_queries(ddl text) RETURNS TABLE (query text, bpindex_used boolean, nrows bigint, same_as_seqscan boolean)
LANGUAGE plpgsql AS $$
BEGIN
    DROP INDEX IF EXISTS onek_nulltest;
    EXECUTE ddl;
    RETURN QUERY SELECT * FROM rg_queries(ARRAY[
        'select count(*) from onek_with_null where unique1 is null',
        'select count(*) from onek_with_null where unique1 is null and unique2 is null',
        'select count(*) from onek_with_null where unique1 is not null',
        'select count(*) from onek_with_null where unique1 is null and unique2 is not null',
        'select count(*) from onek_with_null where unique1 is not null and unique1 > 500',
        'select count(*) from onek_with_null where unique1 is null and unique1 > 500',
        'select unique1, unique2 from onek_with_null where unique1 is null and unique2 in (-1, 0, 1)',
        'select unique1, unique2 from onek_with_null where unique2 is null',
        'select unique1, unique2 from onek_with_null where unique2 is not null and unique2 < 3'
    ]);
    RETURN QUERY SELECT * FROM rg_queries(ARRAY[
        'select unique1, unique2 from onek_with_null where unique1 = 500 order by unique2 desc, unique1 desc limit 1',
        'select unique2 from onek_with_null order by unique2 limit 2',
        'select unique2 from onek_with_null where unique2 >= -1 order by unique2 limit 2',
        'select unique2 from onek_with_null where unique2 >= 0 order by unique2 limit 2',
        'select unique2 from onek_with_null order by unique2 desc limit 5',
        'select unique2 from onek_with_null where unique2 >= -1 order by unique2 desc limit 3',
        'select unique2 from onek_with_null where unique2 < 999 order by unique2 desc limit 2'
    ], 'index');
END
$$;
-- (ORDER BY unique2 and ORDER BY unique2 DESC put NULLs last and first:
-- an index on unique2 DESC NULLS LAST or NULLS FIRST, read either way,
-- serves neither, as with btree: bpindex_used is false for those two)
SELECT * FROM rg_null_queries('CREATE INDEX onek_nulltest ON onek_with_null USING bpindex (unique2, unique1)');
SELECT * FROM rg_null_queries('CREATE INDEX onek_nulltest ON onek_with_null USING bpindex (unique2 desc, unique1)');
SELECT * FROM rg_null_queries('CREATE INDEX onek_nulltest ON onek_with_null USING bpindex (unique2 desc nulls last, unique1)');
SELECT * FROM rg_null_queries('CREATE INDEX onek_nulltest ON onek_with_null USING bpindex (unique2 nulls first, unique1)');
DROP INDEX onek_nulltest;
CREATE INDEX onek_nulltest ON onek_with_null USING bpindex (unique2);
SELECT * FROM rg_queries(ARRAY[
    'select unique2 from onek_with_null order by unique2 limit 2',
    'select unique2 from onek_with_null where unique2 >= -1 order by unique2 limit 2',
    'select unique2 from onek_with_null order by unique2 desc limit 5',
    'select unique2 from onek_with_null where unique2 < 999 order by unique2 desc limit 2'
], 'index');

-- select.sql's foo: ORDER BY with NULLs from (f1), (f1 DESC) and
-- (f1 DESC NULLS LAST), forward or backward
CREATE TABLE foo (f1 int);
INSERT INTO foo VALUES (42), (3), (10), (7), (NULL), (NULL), (1);
CREATE FUNCTION rg_foo(ddl text) RETURNS TABLE (query text, bpindex_used boolean, nrows bigint, same_as_seqscan boolean)
LANGUAGE plpgsql SET enable_sort = off AS $$
BEGIN
    DROP INDEX IF EXISTS fooi;
    EXECUTE ddl;
    RETURN QUERY SELECT * FROM rg_queries(ARRAY[
        'select * from foo order by f1',
        'select * from foo order by f1 asc',
        'select * from foo order by f1 nulls first',
        'select * from foo order by f1 desc',
        'select * from foo order by f1 desc nulls last'
    ]);
END
$$;
SELECT * FROM rg_foo('CREATE INDEX fooi ON foo USING bpindex (f1)');
SELECT * FROM rg_foo('CREATE INDEX fooi ON foo USING bpindex (f1 desc)');
SELECT * FROM rg_foo('CREATE INDEX fooi ON foo USING bpindex (f1 desc nulls last)');

-- expression indexes, an opclass on an expression, INCLUDE
CREATE TABLE func_index_heap (f1 text, f2 text);
CREATE INDEX func_index_index ON func_index_heap USING bpindex (textcat(f1, f2));
INSERT INTO func_index_heap VALUES ('ABC', 'DEF'), ('AB', 'CDEFG'), ('QWE', 'RTY'), ('ABCD', 'EF');
INSERT INTO func_index_heap SELECT g::text, (g * 7)::text FROM generate_series(1, 2000) g;
DROP INDEX func_index_index;
CREATE INDEX func_index_index ON func_index_heap USING bpindex ((f1 || f2) text_ops);
CREATE INDEX func_index_index2 ON func_index_heap USING bpindex (textcat(f1, f2));
CREATE INDEX func_index_row ON func_index_heap USING bpindex ((func_index_heap.*));
CREATE TABLE covering_index_heap (f1 int, f2 int, f3 text);
CREATE INDEX covering_index_index ON covering_index_heap USING bpindex (f1, f2) INCLUDE (f3);
INSERT INTO covering_index_heap SELECT g % 50, g, 'payload ' || g FROM generate_series(1, 3000) g;
VACUUM ANALYZE func_index_heap;
VACUUM ANALYZE covering_index_heap;
SELECT * FROM rg_queries(ARRAY[
    'select * from func_index_heap where f1 || f2 = ''ABCDEF''',
    'select * from func_index_heap where textcat(f1, f2) = ''ABCDEF''',
    'select * from func_index_heap where f1 || f2 between ''100'' and ''105''',
    'select * from func_index_heap where func_index_heap = row(''QWE'', ''RTY'')::func_index_heap'
]);
-- a constant expression, built in parallel (btree_index.sql)
CREATE TABLE btree_test_expr (n int);
CREATE FUNCTION btree_test_func() RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT 1 $$;
INSERT INTO btree_test_expr SELECT g FROM generate_series(1, 5000) g;
SET min_parallel_table_scan_size = 0;
SET max_parallel_maintenance_workers = 4;
CREATE INDEX btree_test_expr_idx ON btree_test_expr USING bpindex (btree_test_func());
RESET min_parallel_table_scan_size;
RESET max_parallel_maintenance_workers;
ANALYZE btree_test_expr;
SELECT * FROM rg_queries(ARRAY['select count(*) from btree_test_expr where btree_test_func() = 1']);
SELECT * FROM rg_queries(ARRAY[
    'select f1, f2, f3 from covering_index_heap where f1 = 7 and f2 < 500',
    'select f1, f3 from covering_index_heap where f1 between 3 and 4 order by f1, f2'
], 'indexonly');

-- CREATE INDEX CONCURRENTLY (plain, partial, on an expression), REINDEX
-- and DROP INDEX CONCURRENTLY, a duplicated column, an index on a
-- temporary table and on a materialized view
CREATE TABLE concur_heap (f1 text, f2 text);
INSERT INTO concur_heap SELECT chr(97 + g % 26), 'v' || g FROM generate_series(1, 3000) g;
CREATE INDEX CONCURRENTLY concur_index1 ON concur_heap USING bpindex (f2, f1);
CREATE INDEX CONCURRENTLY IF NOT EXISTS concur_index1 ON concur_heap USING bpindex (f2, f1);
CREATE INDEX CONCURRENTLY concur_index4 ON concur_heap USING bpindex (f2) WHERE f1 = 'a';
CREATE INDEX CONCURRENTLY concur_index5 ON concur_heap USING bpindex (f2) WHERE f1 = 'x';
CREATE INDEX CONCURRENTLY on concur_heap USING bpindex ((f2 || f1));
BEGIN;
CREATE INDEX CONCURRENTLY concur_index7 ON concur_heap USING bpindex (f1);
ROLLBACK;
INSERT INTO concur_heap SELECT chr(97 + g % 26), 'w' || g FROM generate_series(1, 1000) g;
REINDEX INDEX CONCURRENTLY concur_index1;
REINDEX TABLE CONCURRENTLY concur_heap;
SELECT indexrelid::regclass, indisvalid, indisready FROM pg_index
WHERE indrelid = 'concur_heap'::regclass ORDER BY indexrelid::regclass::text;
VACUUM ANALYZE concur_heap;
SELECT * FROM rg_queries(ARRAY[
    'select * from concur_heap where f2 = ''v42''',
    'select * from concur_heap where f2 between ''w1'' and ''w11'' and f1 > ''c''',
    'select * from concur_heap where f1 = ''a'' and f2 < ''v2''',
    'select * from concur_heap where f1 = ''x'' and f2 > ''w9''',
    'select * from concur_heap where f2 || f1 = ''v27b'''
]);
DROP INDEX CONCURRENTLY concur_index4;
DROP INDEX CONCURRENTLY IF EXISTS concur_index4;
SELECT count(*) AS concur_indexes FROM pg_index WHERE indrelid = 'concur_heap'::regclass;

CREATE TABLE concur_reindex_tab (c1 int, c2 text);
INSERT INTO concur_reindex_tab SELECT g - 1000, 'c2-' || g FROM generate_series(1, 2000) g;
CREATE INDEX concur_reindex_ind3 ON concur_reindex_tab USING bpindex (abs(c1));
CREATE INDEX concur_reindex_ind4 ON concur_reindex_tab USING bpindex (c1, c1, c2);
REINDEX TABLE CONCURRENTLY concur_reindex_tab;
VACUUM ANALYZE concur_reindex_tab;
SELECT * FROM rg_queries(ARRAY[
    'select * from concur_reindex_tab where abs(c1) = 17',
    'select * from concur_reindex_tab where c1 = 5 and c2 = ''c2-1005''',
    'select c1, c2 from concur_reindex_tab where c1 between -3 and 3 order by c1, c2'
]);

CREATE TABLE dupindexcols AS SELECT unique1 AS id, stringu2::text AS f1 FROM tenk1;
CREATE INDEX dupindexcols_i ON dupindexcols USING bpindex (f1, id, f1 text_pattern_ops);
ANALYZE dupindexcols;
SELECT * FROM rg_queries(ARRAY[
    'select count(*) from dupindexcols where f1 between ''WA'' and ''ZZZ'' and id < 1000 and f1 ~<~ ''YX'''
]);

CREATE TEMP TABLE concur_temp (f1 int, f2 text) ON COMMIT PRESERVE ROWS;
INSERT INTO concur_temp SELECT g, 'temp ' || g FROM generate_series(1, 1000) g;
CREATE INDEX CONCURRENTLY concur_temp_ind ON concur_temp USING bpindex (f1);
ANALYZE concur_temp;
CREATE MATERIALIZED VIEW rg_matview AS SELECT unique1 AS col1, hundred FROM tenk1;
CREATE INDEX ON rg_matview USING bpindex (col1);
ANALYZE rg_matview;
SELECT * FROM rg_queries(ARRAY[
    'select * from concur_temp where f1 between 10 and 12',
    'select * from rg_matview where col1 in (5, 500, 5000)'
]);
REINDEX TABLE CONCURRENTLY concur_temp;
REFRESH MATERIALIZED VIEW rg_matview;
SELECT * FROM rg_queries(ARRAY[
    'select * from concur_temp where f1 between 10 and 12',
    'select * from rg_matview where col1 in (5, 500, 5000)'
]);

-- partitioned indexes: on a partitioned table, and ON ONLY with attached
-- partitions' indexes
CREATE TABLE concur_reindex_part (c1 int, c2 int) PARTITION BY RANGE (c1);
CREATE TABLE concur_reindex_part_0 PARTITION OF concur_reindex_part
    FOR VALUES FROM (0) TO (10) PARTITION BY LIST (c2);
CREATE TABLE concur_reindex_part_0_1 PARTITION OF concur_reindex_part_0 FOR VALUES IN (1);
CREATE TABLE concur_reindex_part_0_2 PARTITION OF concur_reindex_part_0 FOR VALUES IN (2);
CREATE TABLE concur_reindex_part_10 PARTITION OF concur_reindex_part
    FOR VALUES FROM (10) TO (20) PARTITION BY LIST (c2);
CREATE INDEX concur_reindex_part_index ON ONLY concur_reindex_part USING bpindex (c1);
CREATE INDEX concur_reindex_part_index_0 ON ONLY concur_reindex_part_0 USING bpindex (c1);
ALTER INDEX concur_reindex_part_index ATTACH PARTITION concur_reindex_part_index_0;
CREATE INDEX concur_reindex_part_index_10 ON ONLY concur_reindex_part_10 USING bpindex (c1);
ALTER INDEX concur_reindex_part_index ATTACH PARTITION concur_reindex_part_index_10;
CREATE INDEX concur_reindex_part_index_0_1 ON ONLY concur_reindex_part_0_1 USING bpindex (c1);
ALTER INDEX concur_reindex_part_index_0 ATTACH PARTITION concur_reindex_part_index_0_1;
CREATE INDEX concur_reindex_part_index_0_2 ON ONLY concur_reindex_part_0_2 USING bpindex (c1);
ALTER INDEX concur_reindex_part_index_0 ATTACH PARTITION concur_reindex_part_index_0_2;
INSERT INTO concur_reindex_part SELECT g % 10, 1 + g % 2 FROM generate_series(1, 2000) g;
REINDEX TABLE CONCURRENTLY concur_reindex_part;
REINDEX INDEX concur_reindex_part_index;
SELECT relid::regclass, indexrelid::regclass, isleaf, level FROM pg_partition_tree('concur_reindex_part_index')
    JOIN pg_index ON indexrelid = relid ORDER BY relid::regclass::text;
ANALYZE concur_reindex_part;
SELECT * FROM rg_queries(ARRAY[
    'select count(*) from concur_reindex_part where c1 = 3',
    'select c1, c2 from concur_reindex_part where c1 = 4 and c2 = 1 order by c1 limit 3'
]);
CREATE TABLE btree_part (id int4) PARTITION BY RANGE (id);
CREATE INDEX btree_part_idx ON btree_part USING bpindex (id);
ALTER INDEX btree_part_idx ALTER COLUMN id SET (n_distinct = 100);
CREATE TABLE btree_tall_tbl (id int4, t text);
CREATE INDEX btree_tall_idx2 ON btree_tall_tbl USING bpindex (id);
ALTER INDEX btree_tall_idx2 ALTER COLUMN id SET (n_distinct = 100);
-- an opclass takes no parameters: the same error as btree's (whose
-- operator class PostgreSQL 18 names with its schema)
DO $$
BEGIN
    CREATE INDEX ON btree_tall_tbl USING bpindex (id int4_ops(foo = 1));
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'refused: %', replace(SQLERRM, 'public.', '');
END
$$;

-- bpchar_ops on a text column (binary-compatible): LIKE on the column
-- itself cannot use it, LIKE on the column cast to bpchar can
CREATE TEMP TABLE btree_bpchar (f1 text COLLATE "C");
CREATE INDEX ON btree_bpchar USING bpindex (f1 bpchar_ops);
INSERT INTO btree_bpchar VALUES ('foo'), ('fool'), ('bar'), ('quux');
INSERT INTO btree_bpchar SELECT 'foo' FROM generate_series(1, 1500);
VACUUM ANALYZE btree_bpchar;
SELECT * FROM rg_queries(ARRAY[
    'select * from btree_bpchar where f1 like ''foo''',
    'select * from btree_bpchar where f1 like ''foo%''',
    'select * from btree_bpchar where f1::bpchar like ''foo''',
    'select * from btree_bpchar where f1::bpchar like ''foo%'''
]);

-- a boolean leading column; two partial indexes and two-column indexes
-- under OR (create_index.sql's boolindex and bitmap_split_or)
CREATE TABLE boolindex (b bool, i int);
INSERT INTO boolindex SELECT g % 3 = 0, g FROM generate_series(1, 2000) g;
CREATE INDEX boolindex_b_i ON boolindex USING bpindex (b, i);
ANALYZE boolindex;
SELECT * FROM rg_queries(ARRAY[
    'select * from boolindex order by b, i limit 10',
    'select * from boolindex where b = true order by i desc limit 10',
    'select * from boolindex where b = false order by i limit 10',
    'select * from boolindex where b is true order by i desc limit 10'
]);
CREATE TABLE bitmap_split_or (a int NOT NULL, b int NOT NULL, c int NOT NULL);
INSERT INTO bitmap_split_or (SELECT 1, 1, i FROM generate_series(1, 1000) i);
INSERT INTO bitmap_split_or (SELECT i, 2, 2 FROM generate_series(1, 1000) i);
CREATE INDEX t_b_partial_1_idx ON bitmap_split_or USING bpindex (b) WHERE a = 1;
CREATE INDEX t_b_partial_2_idx ON bitmap_split_or USING bpindex (b) WHERE a = 2;
VACUUM ANALYZE bitmap_split_or;
SELECT * FROM rg_queries(ARRAY[
    'select * from bitmap_split_or where (a = 1 or a = 2) and b = 2'
]);
DROP INDEX t_b_partial_1_idx;
DROP INDEX t_b_partial_2_idx;
CREATE INDEX t_a_b_idx ON bitmap_split_or USING bpindex (a, b);
CREATE INDEX t_b_c_idx ON bitmap_split_or USING bpindex (b, c);
CREATE STATISTICS t_a_b_stat (mcv) ON a, b FROM bitmap_split_or;
VACUUM ANALYZE bitmap_split_or;
SELECT * FROM rg_queries(ARRAY[
    'select * from bitmap_split_or where a = 1 and (b = 1 or b = 2) and c = 2',
    'select count(*) from bitmap_split_or t1, bitmap_split_or t2 where t1.a = t2.b or t1.a = 2'
]);

-- join.sql: a composite-type key (record comparison) in merge and
-- nested loop joins, partial indexes under a merge join with mark and
-- restore, an expression key, parameterized scans from other tables
CREATE TYPE mycomptype AS (id int, v bigint);
CREATE TABLE tidv (idv mycomptype);
INSERT INTO tidv SELECT ROW(g % 100, g)::mycomptype FROM generate_series(1, 2000) g;
CREATE INDEX tidv_idv_idx ON tidv USING bpindex (idv);
ANALYZE tidv;
SELECT * FROM rg_queries(ARRAY[
    'select count(*) from tidv a join tidv b on a.idv = b.idv',
    'select a.idv from tidv a where a.idv < row(1, 500)::mycomptype order by a.idv'
]);
CREATE TABLE j1 (id1 int, id2 int);
CREATE TABLE j2 (id1 int, id2 int);
INSERT INTO j1 SELECT g, g % 7 FROM generate_series(1, 10000) g;
INSERT INTO j2 SELECT g, g % 7 FROM generate_series(1, 10000) g;
INSERT INTO j2 SELECT g, g % 7 FROM generate_series(1, 10000, 1000) g;
CREATE INDEX j1_id1_idx ON j1 USING bpindex (id1) WHERE id1 % 1000 = 1;
CREATE INDEX j2_id1_idx ON j2 USING bpindex (id1) WHERE id1 % 1000 = 1;
ANALYZE j1;
ANALYZE j2;
CREATE FUNCTION rg_merge(query text) RETURNS TABLE (query text, bpindex_used boolean, nrows bigint, same_as_seqscan boolean)
LANGUAGE sql SET enable_nestloop = off SET enable_hashjoin = off SET enable_sort = off AS $$
    SELECT * FROM rg_queries(ARRAY[query])
$$;
SELECT * FROM rg_merge('select * from j1 inner join j2 on j1.id1 = j2.id1 and j1.id2 = j2.id2 where j1.id1 % 1000 = 1 and j2.id1 % 1000 = 1');
SELECT * FROM rg_merge('select * from j1 inner join j2 on j1.id1 = j2.id1 and j1.id2 = j2.id2 where j1.id1 % 1000 = 1 and j2.id1 % 1000 = 1 and j2.id1 = any (array[1])');
SELECT * FROM rg_merge('select * from j1 inner join j2 on j1.id1 = j2.id1 and j1.id2 = j2.id2 where j1.id1 % 1000 = 1 and j2.id1 % 1000 = 1 and j2.id1 >= any (array[1, 5])');
CREATE TABLE j3 AS SELECT unique1, tenthous FROM onek;
CREATE INDEX ON j3 USING bpindex (unique1, tenthous);
CREATE TABLE sj (a int, b int, c int);
INSERT INTO sj SELECT g, g % 10, g % 7 FROM generate_series(1, 1000) g;
CREATE INDEX sj_fn_idx ON sj USING bpindex ((a * a));
ANALYZE j3;
ANALYZE sj;
SELECT * FROM rg_queries(ARRAY[
    'select t1.unique1, t2.hundred from onek t1, tenk1 t2 where exists (select 1 from j3 where j3.unique1 = t1.unique1 and j3.tenthous = t2.hundred) and t1.unique1 < 1',
    'select * from sj where a * a = 49',
    'select t.unique1 from tenk1 t, int8_tbl a, int8_tbl b where t.thousand = a.q1 and t.tenthous = b.q1 and a.q2 = 456 and b.q2 = 456',
    'select x.f1, t.unique2 from int4_tbl x, lateral (select unique2 from tenk1 where x.f1 = unique1) t',
    'select count(*) from tenk1 a join tenk1 b on a.unique1 = b.unique2 where a.unique2 < 50',
    'select a.unique1, b.unique2 from onek a left join onek b on a.unique1 = b.unique2 where a.unique1 = 42',
    'select count(*) from onek t1 left join tenk1 t2 on (t2.thousand = t1.tenthous or t2.thousand = t1.thousand)'
]);
CREATE TEMP TABLE skip_fetch (a int, b int) WITH (fillfactor = 10);
INSERT INTO skip_fetch SELECT i % 3, i FROM generate_series(0, 30) i;
CREATE INDEX ON skip_fetch USING bpindex (a);
VACUUM ANALYZE skip_fetch;
SELECT * FROM rg_queries(ARRAY[
    'select t1.a from skip_fetch t1 left join skip_fetch t2 on t2.a = 1 where t2.a is null'
], 'bitmap');

-- every index built above is sound
SELECT c.relname, bpindex_check(c.oid, true) FROM pg_class c JOIN pg_am a ON a.oid = c.relam
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE a.amname = 'bpindex' AND n.nspname IN ('rg') AND c.relkind = 'i'
ORDER BY c.relname;
SELECT count(*) AS bpindex_indexes FROM pg_class c JOIN pg_am a ON a.oid = c.relam
WHERE a.amname = 'bpindex' AND c.relnamespace IN ('rg'::regnamespace, pg_my_temp_schema());

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA rg CASCADE;
RESET client_min_messages;
