--
-- 14_dead: entries whose heap tuples an index scan finds dead to everyone
-- get their dead bit (as nbtree's LP_DEAD hints); later scans skip them,
-- every scan still answers what a sequential scan answers, bpindex_check
-- accepts them and VACUUM removes them.
--
CREATE TABLE t_dead (k int8, v int4) WITH (autovacuum_enabled = off);
INSERT INTO t_dead SELECT i % 2000, i FROM generate_series(1, 6000) i ORDER BY hashint4(i);
INSERT INTO t_dead VALUES (NULL, -1), (NULL, -2), (NULL, -4);
CREATE INDEX t_dead_bp ON t_dead USING bpindex (k);
-- entries in the logs as well as in the blocks
INSERT INTO t_dead SELECT i % 2000, i FROM generate_series(6001, 6600) i;
VACUUM ANALYZE t_dead;
-- every entry of every leaf, with its dead bit
CREATE VIEW t_dead_entries AS
SELECT p.* FROM generate_series(1, pg_relation_size('t_dead_bp') / 8192 - 1) b,
     LATERAL bpindex_page_items('t_dead_bp', b) p
WHERE p.region IN ('log', 'block');
SELECT count(*) AS entries, count(*) FILTER (WHERE region = 'log') > 0 AS some_in_logs,
       count(*) FILTER (WHERE dead) AS dead
FROM t_dead_entries;

DELETE FROM t_dead WHERE v % 3 = 0;
SELECT bp_wait_for_horizon() AS horizon_reached;
-- deleting marks nothing: only scans that visit the heap do
SELECT count(*) FILTER (WHERE dead) AS dead FROM t_dead_entries;

-- an index scan over all keys visits every deleted row's heap tuple
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT count(v) FROM t_dead WHERE k >= 0;
SELECT count(v) FROM t_dead WHERE k >= 0;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
-- now exactly the entries of deleted rows are dead
SELECT count(*) FILTER (WHERE dead) AS dead,
       count(*) FILTER (WHERE dead AND ctid IN (SELECT ctid FROM t_dead)) AS live_marked_dead,
       count(*) FILTER (WHERE NOT dead AND ctid NOT IN (SELECT ctid FROM t_dead)) AS deleted_not_marked,
       (SELECT count(*) FROM generate_series(1, 6600) i WHERE i % 3 = 0) AS deleted_rows
FROM t_dead_entries;

-- scans skip them and answer as a sequential scan does, forward and
-- backward, ordered, index-only and bitmap
SELECT * FROM bp_queries('dead', ARRAY[
    'select k, v from t_dead where k = 3',
    'select k, v from t_dead where k = 1999',
    'select k, v from t_dead where k between 100 and 140',
    'select k, v from t_dead where k between 100 and 1900'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_queries('dead', ARRAY[
    'select k from t_dead where k between 100 and 140',
    'select k from t_dead where k >= 1990 order by k',
    'select k from t_dead where k < 10 order by k desc',
    'select k from t_dead order by k',
    'select k from t_dead order by k desc',
    'select k from t_dead where k is null',
    'select k from t_dead where k > 500 order by k limit 20'
]);
SELECT * FROM bp_failures('dead');
SELECT bpindex_check('t_dead_bp', true);

-- scans of a SCROLL cursor that turn around over dead entries
BEGIN;
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
DECLARE c SCROLL CURSOR FOR SELECT k, v FROM t_dead WHERE k BETWEEN 10 AND 12 ORDER BY k;
FETCH 4 FROM c;
FETCH BACKWARD 2 FROM c;
FETCH ALL FROM c;
FETCH BACKWARD ALL FROM c;
COMMIT;
SELECT k, v FROM t_dead WHERE k BETWEEN 10 AND 12 ORDER BY k, v;

-- new rows for the keys of dead entries are found
INSERT INTO t_dead SELECT i % 2000, -i FROM generate_series(3, 600, 3) i;
SELECT * FROM bp_queries('dead after insert', ARRAY[
    'select k, v from t_dead where k = 3',
    'select k, v from t_dead where k between 100 and 140'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_queries('dead after insert', ARRAY[
    'select k from t_dead where k between 100 and 140 order by k',
    'select k from t_dead order by k desc'
]);
SELECT * FROM bp_failures('dead after insert');

-- VACUUM removes the dead entries with the rest of the deleted rows'
SELECT bp_wait_for_horizon() AS horizon_reached;
VACUUM (INDEX_CLEANUP ON) t_dead;
SELECT count(*) = (SELECT count(*) FROM t_dead) AS one_entry_per_row,
       count(*) FILTER (WHERE dead) AS dead
FROM t_dead_entries;
SELECT bpindex_check('t_dead_bp', true);
DROP TABLE t_dead CASCADE;
