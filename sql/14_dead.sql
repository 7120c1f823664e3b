--
-- 14_dead: entries whose heap tuples an index scan finds dead to everyone
-- get their dead bit (as nbtree's LP_DEAD hints); later scans skip them,
-- every scan still answers what a sequential scan answers, bpindex_check
-- accepts them and VACUUM removes them.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
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
-- buffers a query reads (hits and reads, every node)
CREATE FUNCTION scan_buffers(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, FORMAT JSON) ' || query
        INTO plan;
    RETURN (plan -> 0 -> 'Plan' ->> 'Shared Hit Blocks')::int +
           (plan -> 0 -> 'Plan' ->> 'Shared Read Blocks')::int;
END
$$;
EXPLAIN (COSTS OFF) SELECT count(v) FROM t_dead WHERE k >= 0;
SELECT scan_buffers('SELECT count(v) FROM t_dead WHERE k >= 0') AS marking_scan_buffers \gset
SELECT count(v) FROM t_dead WHERE k >= 0;
-- the next scan skips the marked entries: rows in random heap order put
-- nearly every entry on another heap page, so skipping a third of the
-- entries saves about a third of the buffers
SELECT scan_buffers('SELECT count(v) FROM t_dead WHERE k >= 0') < 0.8 * :marking_scan_buffers
       AS marked_entries_skip_the_heap;
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
DROP FUNCTION scan_buffers(text);

--
-- Dead marks are hints: a read-only scan that marks entries writes no WAL
-- (EXPLAIN's WAL line counts what the statement itself wrote).  Rows of
-- 3000 bytes leave every heap page with enough free space that the scan
-- does not prune it, which would write WAL of its own.
--
CREATE TABLE t_dead_wal (k int8, pad text) WITH (autovacuum_enabled = off);
ALTER TABLE t_dead_wal ALTER pad SET STORAGE PLAIN;
INSERT INTO t_dead_wal SELECT i, repeat('x', 3000) FROM generate_series(1, 2000) i;
CREATE INDEX t_dead_wal_bp ON t_dead_wal USING bpindex (k);
VACUUM ANALYZE t_dead_wal;
DELETE FROM t_dead_wal WHERE k % 3 = 0;
SELECT bp_wait_for_horizon() AS horizon_reached;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
CREATE FUNCTION dead_scan_wal() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXPLAIN (ANALYZE, WAL, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF)
                SELECT count(pad) FROM t_dead_wal WHERE k > 0 LOOP
        -- PostgreSQL 18 also counts index searches, and prints fractional rows
        CONTINUE WHEN line ~ 'Index Searches';
        RETURN NEXT regexp_replace(line, '\d+(\.\d+)?', 'N', 'g');
    END LOOP;
END
$$;
-- the plan, and no "WAL:" line under any node
SELECT * FROM dead_scan_wal();
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
SELECT count(*) FILTER (WHERE p.dead) AS dead_marks,
       count(*) FILTER (WHERE p.dead AND p.ctid IN (SELECT ctid FROM t_dead_wal)) AS live_marked_dead
FROM generate_series(1, pg_relation_size('t_dead_wal_bp') / 8192 - 1) b,
     LATERAL bpindex_page_items('t_dead_wal_bp', b) p
WHERE p.region IN ('log', 'block');
SELECT count(*) FROM t_dead_wal WHERE k > 0;
DROP FUNCTION dead_scan_wal();

--
-- An insert that flushes, re-encodes or splits a leaf with dead marks
-- first removes the marked entries whose heap line pointers are LP_DEAD
-- (their tuples pruned).  The marked entries above have heap tuples that
-- are dead but not pruned: the inserts keep them.
--
CREATE VIEW t_dead_wal_count AS
SELECT count(*) - (SELECT count(*) FROM t_dead_wal) AS extra_entries,
       count(*) FILTER (WHERE p.dead) AS dead_marks
FROM generate_series(1, pg_relation_size('t_dead_wal_bp') / 8192 - 1) b,
     LATERAL bpindex_page_items('t_dead_wal_bp', b) p
WHERE p.region IN ('log', 'block');
-- every leaf's log fills and flushes
INSERT INTO t_dead_wal SELECT i % 2000, NULL FROM generate_series(1, 2000) i;
SELECT * FROM t_dead_wal_count;
-- VACUUM prunes them, leaving the entries (and LP_DEAD line pointers)
VACUUM (INDEX_CLEANUP OFF) t_dead_wal;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
SELECT count(pad) FROM t_dead_wal WHERE k > 0;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
SELECT * FROM t_dead_wal_count;
-- now the next flush of each leaf removes them
INSERT INTO t_dead_wal SELECT i % 2000, NULL FROM generate_series(1, 2000) i;
SELECT * FROM t_dead_wal_count;
SELECT * FROM bp_queries('dead removed', ARRAY[
    'select k from t_dead_wal where k between 100 and 140',
    'select k from t_dead_wal where k > 1500 order by k desc'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('dead removed');
SELECT bpindex_check('t_dead_wal_bp', true);
DROP TABLE t_dead_wal CASCADE;

--
-- A relcache invalidation of the index in the middle of a scan (ANALYZE
-- updates the index's pg_class row) frees what the relcache entry holds;
-- the scan keeps its own copy of what it needs and goes on.
--
CREATE TABLE t_dead_inval (k int4) WITH (autovacuum_enabled = off);
INSERT INTO t_dead_inval SELECT i FROM generate_series(1, 5000) i;
CREATE INDEX t_dead_inval_bp ON t_dead_inval USING bpindex (k);
BEGIN;
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
DECLARE c SCROLL CURSOR FOR SELECT k FROM t_dead_inval WHERE k > 100 ORDER BY k;
FETCH 2 FROM c;
ANALYZE t_dead_inval;
INSERT INTO t_dead_inval SELECT i FROM generate_series(5001, 6000) i;
FETCH 2 FROM c;
MOVE 4000 IN c;
FETCH 2 FROM c;
FETCH BACKWARD 2 FROM c;
COMMIT;
DROP TABLE t_dead_inval;

--
-- A queue's head or a retention table's oldest rows: whole leaves of
-- entries marked dead, which scans step over without copying them.  The
-- leaves must really be all dead for this to test that; every scan shape
-- still answers what a sequential scan answers, and so do cursors that
-- cross those leaves both ways.
--
CREATE TABLE t_head (k int8, v int4) WITH (autovacuum_enabled = off);
INSERT INTO t_head SELECT i, i FROM generate_series(1, 30000) i;
CREATE INDEX t_head_bp ON t_head USING bpindex (k);
VACUUM ANALYZE t_head;
DELETE FROM t_head WHERE k <= 12000 OR k % 1000 = 0;
SELECT bp_wait_for_horizon() AS horizon_reached;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
SELECT count(v) FROM t_head WHERE k > 0;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
-- leaves whose entries are all marked dead, and leaves with some live
SELECT count(*) FILTER (WHERE live = 0) >= 5 AS all_dead_leaves,
       count(*) FILTER (WHERE live > 0) >= 5 AS leaves_with_live_entries
FROM (SELECT b, count(*) FILTER (WHERE NOT p.dead) AS live
      FROM generate_series(1, pg_relation_size('t_head_bp') / 8192 - 1) b,
           LATERAL bpindex_page_items('t_head_bp', b) p
      WHERE p.region IN ('log', 'block')
      GROUP BY b) leaves;
SELECT * FROM bp_queries('dead head min', ARRAY['select min(k) from t_head'],
    ARRAY['index', 'indexonly']);
SELECT * FROM bp_queries('dead head', ARRAY[
    'select k from t_head order by k limit 3',
    'select k from t_head where k < 12500 order by k desc',
    'select k from t_head where k between 5000 and 12003',
    'select count(*) from t_head where k < 20000',
    'select k from t_head where k in (1, 11999, 12001, 13000, 13001)'
]);
SELECT * FROM bp_cursor('select k from t_head where k < 14000 order by k',
    ARRAY['next', 'prior', 'next', 'forward 5', 'backward 3', 'first', 'prior', 'next',
          'last', 'backward 1995', 'prior', 'next'], 'index');
SELECT * FROM bp_cursor('select k from t_head where k < 14000 order by k desc',
    ARRAY['last', 'prior', 'next', 'first', 'forward 1990', 'next', 'prior'], 'indexonly');
VACUUM t_head;
SELECT bpindex_check('t_head_bp', true);
SELECT * FROM bp_queries('dead head after vacuum', ARRAY[
    'select min(k) from t_head',
    'select k from t_head where k < 12500 order by k desc'
], ARRAY['index', 'indexonly']);
DROP TABLE t_head;
