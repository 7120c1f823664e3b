--
-- 05_deep_tree: 100k-row int4 indexes.  With fillfactor = 10 and plain
-- leaves (packed_leaves = off) a leaf gets about 70 entries, so there are
-- more than a thousand leaves under at least two internal levels; the same
-- data is also indexed with the defaults (packed leaves) and with
-- fillfactor = 100.  A run of 2000 equal keys spans
-- many leaves.  Every query shape is compared with a sequential scan,
-- including full forward and backward ordered scans.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE t_deep10 (k int4);
INSERT INTO t_deep10
SELECT CASE WHEN i % 50 = 0 THEN NULL
            WHEN i % 50 = 1 THEN 5000
            ELSE i * 7919 % 30011 END
FROM generate_series(1, 100000) i;
VACUUM ANALYZE t_deep10;
CREATE TABLE t_deep90 AS SELECT * FROM t_deep10;
CREATE TABLE t_deep100 AS SELECT * FROM t_deep10;
VACUUM ANALYZE t_deep90;
VACUUM ANALYZE t_deep100;
CREATE INDEX t_deep10_bp ON t_deep10 USING bpindex (k) WITH (fillfactor = 10, packed_leaves = off);
CREATE INDEX t_deep90_bp ON t_deep90 USING bpindex (k);
CREATE INDEX t_deep100_bp ON t_deep100 USING bpindex (k) WITH (fillfactor = 100);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       count(*) FILTER (WHERE k = 5000) AS fives
FROM t_deep10;
-- the index pages: an internal page of an int4 index points to at most
-- about 500 children, so more than 1000 leaves need two internal levels;
-- fillfactor 10 makes the index several times larger than the default
SELECT c.relname, c.reloptions,
       pg_relation_size(c.oid) / current_setting('block_size')::int > 1000 AS over_1000_pages,
       pg_relation_size(c.oid) > 5 * pg_relation_size('t_deep90_bp') AS over_5x_default,
       pg_relation_size(c.oid) <= pg_relation_size('t_deep90_bp') AS at_most_default
FROM pg_class c
WHERE c.relname IN ('t_deep10_bp', 't_deep90_bp', 't_deep100_bp')
ORDER BY c.relname;

SELECT * FROM bp_matrix('deep10', 't_deep10', 'k',
    ARRAY['-1', '0', '4999', '5000', '5001', '17000', '30010', '40000']);
SELECT * FROM bp_failures('deep10');

SELECT * FROM bp_matrix('deep90', 't_deep90', 'k',
    ARRAY['0', '5000', '17000', '30010']);
SELECT * FROM bp_failures('deep90');

SELECT * FROM bp_queries('deep100', ARRAY[
    'select k from t_deep100 where k = 5000',
    'select k from t_deep100 where k between 4000 and 6000',
    'select k from t_deep100 where k is null',
    'select k from t_deep100 order by k',
    'select k from t_deep100 order by k desc',
    'select k from t_deep100 where k >= 5000 order by k limit 5',
    'select k from t_deep100 where k <= 5000 order by k desc limit 5'
]);
SELECT * FROM bp_failures('deep100');

-- The three indexes return the same rows in the same order (ctid too):
-- entries with equal keys are ordered by heap TID, and the tables were
-- copied in the same order
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT ctid, k FROM t_deep10 WHERE k BETWEEN 4990 AND 5010 ORDER BY k DESC;
SELECT (SELECT md5(string_agg(ctid::text || ':' || coalesce(k::text, '-'), ' '))
        FROM (SELECT ctid, k FROM t_deep10 WHERE k BETWEEN 4990 AND 5010 ORDER BY k DESC) s)
     = (SELECT md5(string_agg(ctid::text || ':' || coalesce(k::text, '-'), ' '))
        FROM (SELECT ctid, k FROM t_deep90 WHERE k BETWEEN 4990 AND 5010 ORDER BY k DESC) s)
       AS same_10_90,
       (SELECT md5(string_agg(ctid::text || ':' || coalesce(k::text, '-'), ' '))
        FROM (SELECT ctid, k FROM t_deep10 ORDER BY k) s)
     = (SELECT md5(string_agg(ctid::text || ':' || coalesce(k::text, '-'), ' '))
        FROM (SELECT ctid, k FROM t_deep100 ORDER BY k) s)
       AS same_10_100;
-- and within a run of equal keys the heap TIDs ascend forward and
-- descend backward
SELECT bool_and(ctid > prev) AS forward_tids_ascend, count(*)
FROM (SELECT ctid, lag(ctid) OVER () AS prev
      FROM (SELECT ctid FROM t_deep10 WHERE k = 5000 ORDER BY k) s) t
WHERE prev IS NOT NULL;
SELECT bool_and(ctid < prev) AS backward_tids_descend, count(*)
FROM (SELECT ctid, lag(ctid) OVER () AS prev
      FROM (SELECT ctid FROM t_deep10 WHERE k BETWEEN 5000 AND 5000 ORDER BY k DESC) s) t
WHERE prev IS NOT NULL;
EXPLAIN (COSTS OFF) SELECT ctid FROM t_deep10 WHERE k BETWEEN 5000 AND 5000 ORDER BY k DESC;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
