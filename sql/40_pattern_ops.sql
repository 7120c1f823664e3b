--
-- 40_pattern_ops: text_pattern_ops, varchar_pattern_ops and
-- bpchar_pattern_ops order strings byte by byte under any collation, as
-- btree's do.  LIKE 'prefix%' on such a column uses the index through the
-- bounds of the pattern's fixed prefix (bpindex's planner hook derives
-- them, PostgreSQL's planner does so for btree's pattern classes only), the
-- LIKE staying a filter.  The columns take a libc collation other than "C"
-- where the database has one (C.utf8 in a UTF8 database), else "C"; every
-- result is compared with a sequential scan.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SELECT coalesce((SELECT collname FROM pg_collation
                 WHERE collname IN ('C.utf8', 'C.UTF-8') AND collprovider = 'c'
                   AND collencoding IN (-1, (SELECT encoding FROM pg_database
                                             WHERE datname = current_database()))
                 ORDER BY collname LIMIT 1), 'C') AS coll \gset
CREATE TABLE pt (s text COLLATE :"coll", v varchar(60) COLLATE :"coll",
                 c char(16) COLLATE :"coll", n int4);
INSERT INTO pt
SELECT w, w, left(w, 16), i
FROM (SELECT i, CASE WHEN i % 41 = 0 THEN NULL
                     WHEN i % 7 = 0 THEN 'Item-' || (i % 300)
                     WHEN i % 7 = 1 THEN 'item-' || lpad((i % 500)::text, 4, '0') || '-' || left(md5(i::text), 6)
                     WHEN i % 7 = 2 THEN 'it' || chr(65 + i % 50) || (i % 97)
                     WHEN i % 7 = 3 THEN 'a%b' || (i % 13)
                     WHEN i % 7 = 4 THEN 'a_b\' || (i % 11)
                     WHEN i % 7 = 5 THEN 'zz' || repeat('~', i % 5) || (i % 7)
                     ELSE left(md5(i::text), 2 + i % 9) END AS w
      FROM generate_series(1, 20000) i) d;
INSERT INTO pt VALUES ('', '', '', 0), ('item', 'item', 'item', 0);
CREATE INDEX pt_s ON pt USING bpindex (s text_pattern_ops);
CREATE INDEX pt_v ON pt USING bpindex (v varchar_pattern_ops);
CREATE INDEX pt_c ON pt USING bpindex (c bpchar_pattern_ops);
VACUUM ANALYZE pt;
SELECT bpindex_check('pt_s', true), bpindex_check('pt_v', true),
       bpindex_check('pt_c', true);

-- the bounds are the index condition, the LIKE a filter, as with btree
EXPLAIN (COSTS OFF) SELECT s FROM pt WHERE s LIKE 'item-04%';
EXPLAIN (COSTS OFF) SELECT v FROM pt WHERE v LIKE 'item-04%';
EXPLAIN (COSTS OFF) SELECT c FROM pt WHERE c LIKE 'item-04%';
EXPLAIN (COSTS OFF) SELECT s FROM pt WHERE s LIKE 'item';
-- the pattern order is the index's: ORDER BY ... USING ~<~ needs no sort
EXPLAIN (COSTS OFF) SELECT s FROM pt WHERE s ~>=~ 'item-04' ORDER BY s USING ~<~ LIMIT 5;
-- no fixed prefix, no bound: no index path for the LIKE
EXPLAIN (COSTS OFF) SELECT s FROM pt WHERE s LIKE '%item';

SELECT r.* FROM unnest(ARRAY[
    'select s from pt where s like ''item-04%''',
    'select s, n from pt where s like ''item-0%'' and n % 3 = 0',
    'select s from pt where s like ''Item-1_''',
    'select s from pt where s like ''item''',
    'select s from pt where s like ''it%''',
    'select s from pt where s like ''a\%b%''',
    'select s from pt where s like ''a\_b\\%''',
    'select s from pt where s like ''zz~~%''',
    'select s from pt where s like ''~%''',
    'select s from pt where s like ''item-04%'' order by s using ~<~',
    'select s from pt where s like ''item-04%'' order by s using ~>~',
    'select v from pt where v like ''item-04%''',
    'select v from pt where v like ''Item%''',
    'select c from pt where c like ''item-04%''',
    'select c from pt where c like ''a\%b1%''',
    'select s from pt where s ~>=~ ''item-04'' and s ~<~ ''item-05''',
    'select s from pt where s = ''item'''
]) q, bp_lossy_check(q, 'pt_') r;

-- bitmap scans take the same bounds (the LIKE rechecked on the heap)
SET enable_seqscan = off;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT s, n FROM pt WHERE s LIKE 'item-04%';
EXPLAIN (COSTS OFF) SELECT v, n FROM pt WHERE v LIKE 'Item%' AND n > 100;
RESET enable_seqscan;
RESET enable_indexscan;
RESET enable_indexonlyscan;
SELECT r.* FROM unnest(ARRAY[
    'select s, n from pt where s like ''item-04%''',
    'select s from pt where s like ''it%''',
    'select s from pt where s like ''a\_b\\%''',
    'select v, n from pt where v like ''Item%'' and n > 100',
    'select c from pt where c like ''item-04%'''
]) q, bp_lossy_check(q, 'pt_', 'bitmap') r;

-- a text_ops index under the same collation serves LIKE too: under "C",
-- whose bounds PostgreSQL derives, and under C.utf8, whose order is that of
-- bytes (45_code_point_collation)
CREATE FUNCTION lk_plan(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    FOR line IN EXECUTE 'explain (costs off) ' || query LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END $$;
DROP INDEX pt_s;
CREATE INDEX pt_s_plain ON pt USING bpindex (s);
SET enable_seqscan = off;
SELECT lk_plan('select s from pt where s like ''item-04%''') ~ 'Index Cond'
       AS text_ops_serves_like;
RESET enable_seqscan;
DROP INDEX pt_s_plain;

-- inserts after the build, and the upper bound at the end of the byte
-- range (a prefix of '~' and of the highest character)
INSERT INTO pt SELECT 'item-04' || i, 'item-04' || i, 'item-04' || i, i FROM generate_series(1, 3000) i;
SELECT bpindex_check('pt_v', true), bpindex_check('pt_c', true);
SELECT r.* FROM unnest(ARRAY[
    'select v from pt where v like ''item-04%''',
    'select c from pt where c like ''item-04%''',
    'select v from pt where v like ''zz~%'''
]) q, bp_lossy_check(q, 'pt_') r;

-- LIKE on a key column after the first: its bounds join the = conditions
-- of the columns before it (a multi-tenant search), or the scan skips
-- through the values of those without one
CREATE TABLE pt2 (tenant int4, region text COLLATE :"coll", s text COLLATE :"coll", n int4);
INSERT INTO pt2 SELECT (n + i) % 20, 'r' || ((n + i) % 3), s, n FROM pt, generate_series(1, 2) i;
CREATE INDEX pt_ts ON pt2 USING bpindex (tenant, s text_pattern_ops);
CREATE INDEX pt_trs ON pt2 USING bpindex (tenant, region, s text_pattern_ops);
VACUUM ANALYZE pt2;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT s FROM pt2 WHERE tenant = 1 AND s LIKE 'item-04%';
EXPLAIN (COSTS OFF) SELECT tenant, region, s FROM pt2 WHERE tenant = 1 AND s LIKE 'item-04%' AND region = 'r1';
-- no condition on tenant: a skip scan through its values, bounded on s
EXPLAIN (COSTS OFF) SELECT tenant, s FROM pt2 WHERE s LIKE 'item-04%';
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP INDEX pt_trs;
SELECT r.* FROM unnest(ARRAY[
    'select s from pt2 where tenant = 1 and s like ''item-04%''',
    'select tenant, s from pt2 where tenant = 3 and s like ''it%'' order by tenant, s',
    'select tenant, s from pt2 where tenant = 3 and s like ''it%'' order by tenant desc, s desc',
    'select s, n from pt2 where tenant = 0 and s like ''Item-1_''',
    'select s from pt2 where tenant = 7 and s like ''a\%b%''',
    'select tenant, s from pt2 where s like ''item-04%''',
    'select tenant, s from pt2 where tenant < 3 and s like ''item-04%'''
]) q, bp_lossy_check(q, 'pt_') r;
CREATE INDEX pt_trs ON pt2 USING bpindex (tenant, region, s text_pattern_ops);
DROP INDEX pt_ts;
SELECT r.* FROM unnest(ARRAY[
    'select tenant, region, s from pt2 where tenant = 1 and region = ''r1'' and s like ''item-04%''',
    'select tenant, region, s from pt2 where tenant = 1 and s like ''item-04%''',
    'select region, s from pt2 where region = ''r2'' and s like ''zz~%'''
]) q, bp_lossy_check(q, 'pt_') r;
