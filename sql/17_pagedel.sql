--
-- 17_pagedel: VACUUM deletes the leaves it empties and recycles them.
-- Results are compared with sequential scans (bp_queries), the tree with
-- bpindex_check, and sizes and buffer counts with a btree index on a copy
-- of the same table in the same run.
--
-- Deleted pages become reusable once no transaction can still reach them:
-- txid_current() moves the next transaction id past their deletion, and
-- bp_wait_for_horizon waits until no older snapshot is left, so that the
-- next VACUUM hands them to the free space map.
--
--
-- Everything deleted, then inserted again: the tree shrinks to its
-- rightmost leaf under the root, and the reinserts reuse the pages.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE t_pd (k int4);
INSERT INTO t_pd SELECT i FROM generate_series(1, 40000) i;
CREATE INDEX t_pd_bp ON t_pd USING bpindex (k);
SELECT levels, leaf_pages > 10 AS many_leaves, deleted_pages FROM bpindex_stats('t_pd_bp');
SELECT pg_relation_size('t_pd_bp') AS size_built \gset
DELETE FROM t_pd;
SELECT bp_wait_for_horizon();
VACUUM t_pd;
SELECT levels, leaf_pages, entries, empty_leaves,
       deleted_pages = :size_built / 8192 - 3 AS all_but_root_and_last_deleted
FROM bpindex_stats('t_pd_bp');
SELECT bpindex_check('t_pd_bp', true);
SELECT * FROM bp_queries('pdA empty', ARRAY[
    'select k from t_pd where k = 5',
    'select k from t_pd order by k',
    'select k from t_pd order by k desc',
    'select k from t_pd where k between 100 and 39990'
]);
-- a deleted page shows its fences and that it is deleted
-- (recyclable or not yet, as the horizon has moved)
SELECT split_part(region, ',', 1) AS region, key IS NOT NULL AS has_xid
FROM bpindex_page_items('t_pd_bp', 1) WHERE region LIKE 'deleted%';
SELECT txid_current() IS NOT NULL AS xid_assigned;
SELECT bp_wait_for_horizon();
VACUUM t_pd;
SELECT deleted_pages = recyclable_pages AS all_recyclable FROM bpindex_stats('t_pd_bp');
-- the same keys again, ascending: the splits take the recycled pages
INSERT INTO t_pd SELECT i FROM generate_series(1, 40000) i;
SELECT pg_relation_size('t_pd_bp') <= :size_built AS no_growth;
SELECT levels, entries, deleted_pages FROM bpindex_stats('t_pd_bp');
-- then random ones, splitting leaves in the middle
INSERT INTO t_pd SELECT i * 7919 % 40000 + 1 FROM generate_series(1, 40000) i;
SELECT levels, entries FROM bpindex_stats('t_pd_bp');
SELECT bpindex_check('t_pd_bp', true);
SELECT * FROM bp_queries('pdA refilled', ARRAY[
    'select k from t_pd where k = 5',
    'select k from t_pd where k between 100 and 250 order by k',
    'select k from t_pd where k between 100 and 250 order by k desc',
    'select count(*) from t_pd where k > 1000'
]);
SELECT * FROM bp_failures('pdA%');

--
-- Leaves emptied in the middle, at the left end, and in runs, under a
-- tree of three levels (small plain leaves), so that deletions merge into left
-- and right siblings, the leaf level's left neighbour of a merged child 0
-- sits under another parent, and level-1 pages lose their last leaf (and
-- merge into a sibling with it).
--
CREATE TABLE t_pd3 (k int4);
INSERT INTO t_pd3 SELECT i FROM generate_series(1, 60000) i;
CREATE INDEX t_pd3_bp ON t_pd3 USING bpindex (k) WITH (fillfactor = 10, packed_leaves = off);
SELECT levels FROM bpindex_stats('t_pd3_bp');
CREATE TABLE t_pd3_before AS SELECT * FROM bpindex_stats('t_pd3_bp');
DELETE FROM t_pd3 WHERE k <= 30000 OR k BETWEEN 33000 AND 37000
    OR k BETWEEN 45000 AND 55000 OR (k BETWEEN 56000 AND 59000 AND k % 1000 < 700);
SELECT bp_wait_for_horizon();
VACUUM t_pd3;
SELECT s.deleted_pages > 0 AS deleted, s.empty_leaves,
       s.internal_pages < b.internal_pages AS level1_merged
FROM bpindex_stats('t_pd3_bp') s, t_pd3_before b;
SELECT bpindex_check('t_pd3_bp', true);
SELECT * FROM bp_queries('pd3', ARRAY[
    'select k from t_pd3 where k between 29990 and 30010 order by k',
    'select k from t_pd3 where k between 44990 and 55010 order by k desc',
    'select k from t_pd3 where k between 32000 and 38000 order by k',
    'select k from t_pd3 where k < 34000 order by k desc',
    'select k from t_pd3 order by k limit 1',
    'select k from t_pd3 order by k desc limit 1',
    'select count(*) from t_pd3 where k between 3000 and 58000'
]);
SELECT * FROM bp_failures('pd3');
-- and back: inserts into the merged ranges
INSERT INTO t_pd3 SELECT i FROM generate_series(1, 30000, 3) i;
INSERT INTO t_pd3 SELECT i FROM generate_series(45000, 55000, 2) i;
SELECT bpindex_check('t_pd3_bp', true);
SELECT * FROM bp_queries('pd3 back', ARRAY[
    'select k from t_pd3 where k between 29990 and 30010 order by k',
    'select k from t_pd3 where k between 44990 and 55010 order by k desc',
    'select count(*) from t_pd3 where k < 56000'
]);
SELECT * FROM bp_failures('pd3 back');

--
-- Four levels (keys of 24 int8 columns in plain leaves make pages of a
-- few dozen entries): emptying the left part of the key range leaves chains of only
-- children, a leaf under a level-1 page under a level-2 page.  The highest
-- page of a chain merges into its sibling first, one level after the
-- other, so that no emptied leaf stays and the root loses a child.
--
SELECT format('CREATE TABLE t_pd4 (%s)', string_agg(format('c%s int8', i), ', '))
FROM generate_series(1, 24) i \gexec
SELECT format('INSERT INTO t_pd4 SELECT %s FROM generate_series(1, 40000) k',
              string_agg('k', ', '))
FROM generate_series(1, 24) i \gexec
SELECT format('CREATE INDEX t_pd4_bp ON t_pd4 USING bpindex (%s) WITH (packed_leaves = off)',
              string_agg(format('c%s', i), ', '))
FROM generate_series(1, 24) i \gexec
CREATE FUNCTION t_pd4_root_children() RETURNS int8 LANGUAGE sql AS $$
    SELECT count(child) FROM bpindex_page_items('t_pd4_bp',
        (SELECT root FROM bpindex_metap('t_pd4_bp')))
$$;
SELECT levels, t_pd4_root_children() AS root_children FROM bpindex_stats('t_pd4_bp');
DELETE FROM t_pd4 WHERE c1 <= 25000 OR c1 BETWEEN 28000 AND 36000;
SELECT bp_wait_for_horizon();
VACUUM t_pd4;
SELECT levels, t_pd4_root_children() AS root_children, empty_leaves,
       internal_pages < 25 AS internal_merged
FROM bpindex_stats('t_pd4_bp');
SELECT bpindex_check('t_pd4_bp', true);
SELECT * FROM bp_queries('pd4', ARRAY[
    'select c1 from t_pd4 order by c1 limit 3',
    'select c1 from t_pd4 where c1 between 24990 and 28010 order by c1 desc',
    'select c1, c2 from t_pd4 where c1 < 37000 order by c1',
    'select count(*) from t_pd4 where c1 > 20000'
]);
SELECT * FROM bp_failures('pd4');
-- and back: the merged ranges take new entries
INSERT INTO t_pd4 SELECT k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k
FROM generate_series(1, 36000, 7) k;
SELECT bpindex_check('t_pd4_bp', true);
SELECT * FROM bp_queries('pd4 back', ARRAY[
    'select c1 from t_pd4 where c1 between 100 and 400 order by c1',
    'select c1 from t_pd4 where c1 < 29000 order by c1 desc',
    'select count(*) from t_pd4 where c1 between 5000 and 38000'
]);
SELECT * FROM bp_failures('pd4 back');

--
-- Retention: ascending keys, the oldest tenth deleted and a tenth added
-- at the top every cycle, then VACUUM.  The index stops growing, and
-- min(k) reads no more buffers than on btree (plus two).
--
CREATE TABLE t_ret (k int8);
INSERT INTO t_ret SELECT i FROM generate_series(1, 50000) i;
CREATE TABLE t_ret_bt (k int8);
INSERT INTO t_ret_bt SELECT i FROM generate_series(1, 50000) i;
CREATE INDEX t_ret_bp ON t_ret USING bpindex (k);
CREATE INDEX t_ret_btree ON t_ret_bt (k);
CREATE TABLE t_ret_sizes (cycle int, bp int8, bt int8, bp_min_buffers int, bt_min_buffers int);
CREATE FUNCTION t_ret_min_buffers(tab text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT min(k) FROM %I', tab)
    LOOP
        IF line ~ 'Buffers: shared' THEN
            RETURN (SELECT sum(m[1]::int) FROM regexp_matches(line, '(?:hit|read)=(\d+)', 'g') m);
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;
VACUUM t_ret, t_ret_bt;
-- twelve cycles, each a row of commands (VACUUM cannot run in a function)
SELECT format('DELETE FROM t_ret WHERE k <= %s', c * 5000),
       format('DELETE FROM t_ret_bt WHERE k <= %s', c * 5000),
       format('INSERT INTO t_ret SELECT i FROM generate_series(%s, %s) i',
              50000 + (c - 1) * 5000 + 1, 50000 + c * 5000),
       format('INSERT INTO t_ret_bt SELECT i FROM generate_series(%s, %s) i',
              50000 + (c - 1) * 5000 + 1, 50000 + c * 5000),
       'SELECT bp_wait_for_horizon()',
       'VACUUM t_ret',
       'VACUUM t_ret_bt',
       format($f$INSERT INTO t_ret_sizes VALUES (%s, pg_relation_size('t_ret_bp'),
              pg_relation_size('t_ret_btree'), t_ret_min_buffers('t_ret'),
              t_ret_min_buffers('t_ret_bt'))$f$, c)
FROM generate_series(1, 12) c \gexec
-- the plans whose buffers were counted (PostgreSQL 15 names the InitPlan's
-- output parameter, 18 does not)
CREATE FUNCTION t_ret_plan(tab text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT min(k) FROM %I', tab) LOOP
        RETURN NEXT regexp_replace(line, ' \(returns \$\d+\)', '');
    END LOOP;
END
$$;
SELECT * FROM t_ret_plan('t_ret');
SELECT * FROM t_ret_plan('t_ret_bt');
-- the size after the last cycle is within 10 % of the second cycle's and
-- not above btree's; min(k) reads at most two buffers more than btree's
SELECT s12.bp <= s2.bp * 1.1 AS bp_stopped_growing,
       s12.bp <= s12.bt AS bp_not_above_btree
FROM t_ret_sizes s2, t_ret_sizes s12 WHERE s2.cycle = 2 AND s12.cycle = 12;
SELECT cycle, bp_min_buffers <= bt_min_buffers + 2 AS min_buffers_ok
FROM t_ret_sizes WHERE cycle > 1 ORDER BY cycle;
SELECT levels, empty_leaves <= 1 AS at_most_one_empty_leaf FROM bpindex_stats('t_ret_bp');
SELECT bpindex_check('t_ret_bp', true);
SELECT * FROM bp_queries('pdret', ARRAY[
    'select k from t_ret order by k limit 1',
    'select k from t_ret order by k desc limit 1',
    'select k from t_ret order by k limit 100',
    'select k from t_ret where k < 61000 order by k desc',
    'select count(*) from t_ret where k between 55000 and 70000'
]);
SELECT * FROM bp_failures('pdret');
