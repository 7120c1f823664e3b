--
-- 26_pagedel_keys: VACUUM deletes the leaves it empties in indexes with
-- variable-length keys too.  A fence or pivot that moves to another page
-- takes its key into that page's key area, and a deleted page keeps its
-- fences' keys for the scans that still reach it.  Results are compared
-- with sequential scans (bp_queries), the tree with bpindex_check, and
-- sizes with a btree index on a copy of the same table in the same run.
--
-- Keys of about 400 bytes: 190 equal bytes, then the row's number and
-- 192 bytes that follow from it.  Neighbours differ in the number, so
-- that pivots keep about 200 bytes and internal pages take a few dozen
-- children; leaves store their keys without the prefix their fences
-- share, which leaves some 200 bytes of each, so that they hold a few
-- dozen entries too, and a few thousand rows give three levels.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE FUNCTION t_pdk_key(i int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT repeat('k', 190) || lpad(i::text, 6, '0') || repeat(md5(i::text), 6)
$$;

--
-- Leaves emptied in the middle, at the left end and in runs: deletions
-- merge into left and right siblings, and level-1 pages that lose their
-- last leaf merge into a sibling with it.
--
CREATE TABLE t_pdk (k text COLLATE "C", id int4);
INSERT INTO t_pdk SELECT t_pdk_key(i), i FROM generate_series(1, 12000) i;
CREATE INDEX t_pdk_bp ON t_pdk USING bpindex (k);
SELECT levels FROM bpindex_stats('t_pdk_bp');
CREATE TABLE t_pdk_before AS SELECT * FROM bpindex_stats('t_pdk_bp');
DELETE FROM t_pdk WHERE id <= 4000 OR id BETWEEN 5000 AND 6000
    OR id BETWEEN 7000 AND 9500 OR (id BETWEEN 10000 AND 11000 AND id % 100 < 70);
SELECT bp_wait_for_horizon();
VACUUM t_pdk;
SELECT s.deleted_pages > 0 AS deleted, s.empty_leaves,
       s.internal_pages < b.internal_pages AS level1_merged
FROM bpindex_stats('t_pdk_bp') s, t_pdk_before b;
SELECT bpindex_check('t_pdk_bp', true);
-- a deleted page keeps its fences with their keys
SELECT count(*) > 0 AS deleted_pages_with_keyed_fences
FROM generate_series(1, pg_relation_size('t_pdk_bp') / 8192 - 1) b
WHERE EXISTS (SELECT FROM bpindex_page_items('t_pdk_bp', b::int4) i
              WHERE i.region LIKE 'deleted%')
  AND EXISTS (SELECT FROM bpindex_page_items('t_pdk_bp', b::int4) i
              WHERE i.region = 'high key' AND i.key LIKE '%k0%');
SELECT * FROM bp_queries('pdk', ARRAY[
    $q$select k from t_pdk where k = t_pdk_key(4001)$q$,
    $q$select k from t_pdk where k between t_pdk_key(3990) and t_pdk_key(4010) order by k$q$,
    $q$select k from t_pdk where k between t_pdk_key(4990) and t_pdk_key(9600) order by k desc$q$,
    $q$select k from t_pdk where k < t_pdk_key(10500) order by k desc$q$,
    $q$select k from t_pdk order by k limit 1$q$,
    $q$select k from t_pdk order by k desc limit 1$q$,
    $q$select count(*) from t_pdk where k between t_pdk_key(100) and t_pdk_key(11500)$q$
]);
SELECT * FROM bp_failures('pdk');
-- and back: inserts into the merged ranges
INSERT INTO t_pdk SELECT t_pdk_key(i), i FROM generate_series(1, 4000, 3) i;
INSERT INTO t_pdk SELECT t_pdk_key(i), i FROM generate_series(7000, 9500, 2) i;
SELECT bpindex_check('t_pdk_bp', true);
SELECT * FROM bp_queries('pdk back', ARRAY[
    $q$select k from t_pdk where k between t_pdk_key(3990) and t_pdk_key(4010) order by k$q$,
    $q$select k from t_pdk where k between t_pdk_key(6990) and t_pdk_key(9600) order by k desc$q$,
    $q$select count(*) from t_pdk where k < t_pdk_key(10000)$q$
]);
SELECT * FROM bp_failures('pdk back');

--
-- Everything deleted: the tree shrinks to its rightmost leaf under the
-- root; once the deleted pages are recyclable, the reinserts reuse them.
--
SELECT pg_relation_size('t_pdk_bp') AS pdk_size \gset
DELETE FROM t_pdk;
SELECT bp_wait_for_horizon();
VACUUM t_pdk;
SELECT leaf_pages, entries, empty_leaves FROM bpindex_stats('t_pdk_bp');
SELECT bpindex_check('t_pdk_bp', true);
SELECT txid_current() IS NOT NULL AS xid_assigned;
SELECT bp_wait_for_horizon();
VACUUM t_pdk;
SELECT deleted_pages > 0 AND deleted_pages = recyclable_pages AS all_recyclable
FROM bpindex_stats('t_pdk_bp');
INSERT INTO t_pdk SELECT t_pdk_key(i), i FROM generate_series(1, 6000) i;
SELECT pg_relation_size('t_pdk_bp') <= :pdk_size AS no_growth;
SELECT bpindex_check('t_pdk_bp', true);
SELECT * FROM bp_queries('pdk refilled', ARRAY[
    $q$select k from t_pdk where k = t_pdk_key(5)$q$,
    $q$select k from t_pdk where k between t_pdk_key(100) and t_pdk_key(250) order by k desc$q$,
    $q$select count(*) from t_pdk where k > t_pdk_key(1000)$q$
]);
SELECT * FROM bp_failures('pdk refilled');

--
-- A multi-column index (tenant, email) under the default collation:
-- whole tenants deleted, so that the fences that move carry a fixed-length
-- column and a key.
--
CREATE TABLE t_pdm (tenant int8, email text);
INSERT INTO t_pdm SELECT i % 40, format('user%s.%s@%s.example.com', i, repeat('x', i % 50), i % 7)
FROM generate_series(1, 20000) i;
CREATE INDEX t_pdm_bp ON t_pdm USING bpindex (tenant, email);
DELETE FROM t_pdm WHERE tenant BETWEEN 5 AND 25 OR tenant = 0;
SELECT bp_wait_for_horizon();
VACUUM t_pdm;
SELECT deleted_pages > 0 AS deleted, empty_leaves FROM bpindex_stats('t_pdm_bp');
SELECT bpindex_check('t_pdm_bp', true);
SELECT * FROM bp_queries('pdm', ARRAY[
    $q$select email from t_pdm where tenant = 4 order by tenant, email$q$,
    $q$select email from t_pdm where tenant between 3 and 27 order by tenant desc, email desc$q$,
    $q$select count(*) from t_pdm where tenant = 26 and email > 'user5'$q$
]);
SELECT * FROM bp_failures('pdm');

--
-- Retention: ascending text keys (fixed-width numbers, so that their
-- order is numeric under any collation), the oldest tenth deleted and a
-- tenth added at the top every cycle, then VACUUM.  The index stops
-- growing and stays no larger than btree's.
--
CREATE TABLE t_retk (k text);
CREATE TABLE t_retk_bt (k text);
INSERT INTO t_retk SELECT 'order-' || lpad(i::text, 10, '0') FROM generate_series(1, 30000) i;
INSERT INTO t_retk_bt SELECT * FROM t_retk;
CREATE INDEX t_retk_bp ON t_retk USING bpindex (k);
CREATE INDEX t_retk_btree ON t_retk_bt (k);
CREATE TABLE t_retk_sizes (cycle int, bp int8, bt int8);
VACUUM t_retk, t_retk_bt;
SELECT format($f$DELETE FROM t_retk WHERE k <= 'order-' || lpad('%s', 10, '0')$f$, c * 3000),
       format($f$DELETE FROM t_retk_bt WHERE k <= 'order-' || lpad('%s', 10, '0')$f$, c * 3000),
       format($f$INSERT INTO t_retk SELECT 'order-' || lpad(i::text, 10, '0') FROM generate_series(%s, %s) i$f$,
              30000 + (c - 1) * 3000 + 1, 30000 + c * 3000),
       format($f$INSERT INTO t_retk_bt SELECT 'order-' || lpad(i::text, 10, '0') FROM generate_series(%s, %s) i$f$,
              30000 + (c - 1) * 3000 + 1, 30000 + c * 3000),
       'SELECT bp_wait_for_horizon()',
       'VACUUM t_retk',
       'VACUUM t_retk_bt',
       format($f$INSERT INTO t_retk_sizes VALUES (%s, pg_relation_size('t_retk_bp'),
              pg_relation_size('t_retk_btree'))$f$, c)
FROM generate_series(1, 12) c \gexec
SELECT s12.bp <= s2.bp * 1.1 AS bp_stopped_growing,
       s12.bp <= s12.bt AS bp_not_above_btree
FROM t_retk_sizes s2, t_retk_sizes s12 WHERE s2.cycle = 2 AND s12.cycle = 12;
SELECT empty_leaves <= 1 AS at_most_one_empty_leaf FROM bpindex_stats('t_retk_bp');
SELECT bpindex_check('t_retk_bp', true);
SELECT * FROM bp_queries('pdkret', ARRAY[
    $q$select k from t_retk order by k limit 1$q$,
    $q$select k from t_retk order by k desc limit 1$q$,
    $q$select k from t_retk where k < 'order-0000040000' order by k desc$q$,
    $q$select count(*) from t_retk where k between 'order-0000040000' and 'order-0000060000'$q$
]);
SELECT * FROM bp_failures('pdkret');
