--
-- 31_long_keys: distinct long text keys arriving in an index built over
-- short ones, and copies of a long key filling a DESC index of URL-like
-- paths: every insert succeeds (leaves split where their bytes, not their
-- counts, balance) and the index stays sound and answers like a
-- sequential scan.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE FUNCTION lk_chain(n int, len int) RETURNS text LANGUAGE sql AS
  $$ SELECT left(string_agg(md5((n * 1000 + i)::text), ''), len)
     FROM generate_series(1, len / 32 + 1) i $$;

-- Distinct keys of 300 to 2,250 bytes, one INSERT each, into an
-- index of 200 short keys; every insert is counted, none may fail
CREATE TABLE lk (t text);
CREATE FUNCTION lk_run(key_bytes int) RETURNS TABLE (len int, inserted int, failed int)
LANGUAGE plpgsql AS $$
DECLARE
    ok int := 0;
    bad int := 0;
BEGIN
    TRUNCATE lk;
    INSERT INTO lk SELECT 'short' || g FROM generate_series(1, 200) g;
    CREATE INDEX lk_idx ON lk USING bpindex (t);
    FOR i IN 1..200 LOOP
        BEGIN
            INSERT INTO lk VALUES (lk_chain(i, key_bytes));
            ok := ok + 1;
        EXCEPTION WHEN others THEN
            bad := bad + 1;
            RAISE NOTICE 'insert % of % bytes failed: %', i, key_bytes, sqlerrm;
        END;
    END LOOP;
    PERFORM bpindex_check('lk_idx', true);
    DROP INDEX lk_idx;
    RETURN QUERY SELECT key_bytes, ok, bad;
END $$;
SELECT * FROM lk_run(300);
SELECT * FROM lk_run(600);
SELECT * FROM lk_run(700);
SELECT * FROM lk_run(800);
SELECT * FROM lk_run(1200);
SELECT * FROM lk_run(1800);
SELECT * FROM lk_run(2250);

-- the same with the index kept, then every plan shape against a
-- sequential scan
INSERT INTO lk SELECT lk_chain(g, 300 + g % 500) FROM generate_series(201, 400) g;
CREATE INDEX lk_idx ON lk USING bpindex (t);
INSERT INTO lk SELECT lk_chain(g, 800 - g % 400) FROM generate_series(401, 700) g;
SELECT bpindex_check('lk_idx', true);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT t FROM lk WHERE t >= '8' ORDER BY t;
SELECT count(*), md5(string_agg(t, ',')) AS ordered
FROM (SELECT t FROM lk WHERE t >= '8' ORDER BY t) s;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SELECT count(*), md5(string_agg(t, ',')) AS ordered
FROM (SELECT t FROM lk WHERE t >= '8' ORDER BY t) s;
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;

-- URL-like paths with duplicates, a twentieth with a long tail, in a DESC
-- index at fillfactor 70; then 48 copies of each long path of one item:
-- a split half made mostly of copies of one 327-byte key
CREATE TABLE t6 (k text COLLATE "C", pad text);
INSERT INTO t6 SELECT 'https://example.com/catalog/item/' || lpad((n * 25)::text, 6, '0')
    || CASE WHEN n % 20 = 7 THEN '/' || repeat('x', 40 + n % 260) ELSE '' END, repeat('p', 60)
  FROM generate_series(0, 1999) n, generate_series(1, 1 + (n * 7919) % 23) d;
CREATE INDEX t6_k ON t6 USING bpindex (k DESC NULLS LAST) WITH (fillfactor = 70);
INSERT INTO t6 SELECT k, repeat('a', 60) FROM (SELECT DISTINCT k FROM t6
  WHERE k LIKE 'https://example.com/catalog/item/045175/%') s, generate_series(1, 48);
SELECT bpindex_check('t6_k', true);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM t6 WHERE
  k >= 'https://example.com/catalog/item/045175/' AND k < 'https://example.com/catalog/item/045176';
SELECT count(*), md5(string_agg(k, ',' ORDER BY k)) FROM t6 WHERE
  k >= 'https://example.com/catalog/item/045175/' AND k < 'https://example.com/catalog/item/045176';
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SELECT count(*), md5(string_agg(k, ',' ORDER BY k)) FROM t6 WHERE
  k >= 'https://example.com/catalog/item/045175/' AND k < 'https://example.com/catalog/item/045176';
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;

DROP TABLE lk, t6;
DROP FUNCTION lk_run(int), lk_chain(int, int);

-- PostgreSQL's btree_index.sql tall tree, on bpindex: keys of about 1,650
-- poorly compressible bytes, a few per page, make a tree at least four
-- levels deep; deleting every row empties its leaves and internal pages,
-- which VACUUM deletes, and inserts then split the root left standing
create table btree_tall_tbl(id int4, t text);
create index btree_tall_idx on btree_tall_tbl using bpindex (id, t) with (fillfactor = 10);
insert into btree_tall_tbl
  select g, g::text || '_' ||
          (select string_agg(md5(i::text), '_') from generate_series(1, 50) i)
from generate_series(1, 100) g;
select levels >= 4 as four_levels_at_least from bpindex_stats('btree_tall_idx');
SELECT * FROM bp_queries('tall', ARRAY[
    'select id, length(t) from btree_tall_tbl where id between 40 and 60',
    'select id from btree_tall_tbl where t > ''50_''',
    'select id, t from btree_tall_tbl where id > 90 order by id desc, t desc'
]);
delete from btree_tall_tbl where id < 950;
vacuum btree_tall_tbl;
select leaf_pages = 1 as one_leaf_left, deleted_pages > 100 as pages_deleted
from bpindex_stats('btree_tall_idx');
insert into btree_tall_tbl (id, t)
  select g, repeat('x', 100) from generate_series(1, 500) g;
select bpindex_check('btree_tall_idx', true);
SELECT * FROM bp_queries('tall', ARRAY[
    'select id, t from btree_tall_tbl where id between 100 and 130 order by id'
]);
drop table btree_tall_tbl;
