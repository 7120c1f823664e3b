--
-- 46_first_part: the first copy a plain scan makes of its first leaf
-- holds the first two blocks of its range in the scan direction only
-- (sorted and decoded), so that a LIMIT, a min() or max(), or the
-- planner's look at an end of the index read no more.  Where the range
-- goes on in the leaf, the scan reads the leaf again, whole, and goes on
-- from the cut.  Leaves of unsorted blocks and a log (random inserts),
-- packed and plain, ASC and DESC, with NULLs, read forward, backward and
-- by cursors that turn around on either side of the cut, must read as a
-- sequential scan does.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- one packed leaf of 600 entries inserted in a scrambled order: unsorted
-- blocks and entries in the log; NULLs in both columns
CREATE TABLE t_fpart (a int4, b int8, c int4);
CREATE INDEX t_fpart_ab ON t_fpart USING bpindex (a, b);
INSERT INTO t_fpart
SELECT CASE WHEN i % 61 = 0 THEN NULL ELSE (i * 7919) % 97 END,
       CASE WHEN i % 53 = 0 THEN NULL ELSE (i * 104729) % 1000 END, i
FROM generate_series(1, 600) i;
VACUUM ANALYZE t_fpart;
SELECT leaf_pages, packed_leaves, sorted_block_fraction < 1 AS unsorted_blocks
FROM bpindex_stats('t_fpart_ab');
SELECT count(*) > 0 AS log_entries
FROM bpindex_page_items('t_fpart_ab', (SELECT blkno FROM bpindex_leaves('t_fpart_ab'))) i
WHERE i.region = 'log';

-- a scan of the whole leaf reads it twice: the first copy stopped at a
-- cut; a LIMIT 1 reads it once, and so does a range of one block
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT bp_scan_buffers('select a, b from t_fpart order by a, b') -
       bp_scan_buffers('select a, b from t_fpart order by a, b limit 1') AS forward_reads_again,
       bp_scan_buffers('select a, b from t_fpart order by a desc, b desc') -
       bp_scan_buffers('select a, b from t_fpart order by a desc, b desc limit 1') AS backward_reads_again,
       bp_scan_buffers('select a, b from t_fpart where a = 5') -
       bp_scan_buffers('select a, b from t_fpart where a = 5 limit 1') AS one_block_reads_once;
RESET enable_seqscan;
RESET enable_bitmapscan;

SELECT * FROM bp_queries('first part', ARRAY[
    'select a, b from t_fpart order by a, b',
    'select a, b from t_fpart order by a desc, b desc',
    'select a, b from t_fpart order by a, b limit 1',
    'select a, b from t_fpart order by a desc, b desc limit 1',
    'select a, b from t_fpart where a >= 10 order by a, b limit 40',
    'select a, b from t_fpart where a < 80 order by a desc, b desc limit 40',
    'select a, b from t_fpart where a = 33 order by a, b',
    'select a, b from t_fpart where a = 33 order by a desc, b desc limit 3',
    'select a, b from t_fpart where a is null order by a, b',
    'select a, b from t_fpart where b is null order by a, b',
    'select a, b from t_fpart where a between 20 and 70 and b > 300 order by a, b',
    'select min(a), max(a) from t_fpart',
    'select min(b) from t_fpart where a = 50'
], ARRAY['index', 'indexonly']);
SELECT * FROM bp_queries('first part, heap columns', ARRAY[
    'select a, b, c from t_fpart order by a, b limit 25',
    'select a, b, c from t_fpart order by a desc, b desc limit 25'
], ARRAY['index']);

-- cursors that turn around before, at and after the cut, forward and
-- backward, in index and index-only scans
\set steps '{"next", "forward 5", "backward 3", "forward 60", "backward 70", "prior", "forward 200", "backward 150", "last", "backward 30", "first", "forward 599", "next", "prior"}'
SELECT * FROM bp_cursor('select a, b from t_fpart order by a, b', :'steps', 'index');
SELECT * FROM bp_cursor('select a, b from t_fpart order by a desc, b desc', :'steps', 'indexonly');
SELECT * FROM bp_cursor('select a, b from t_fpart where a >= 40 order by a, b', :'steps', 'indexonly');

-- the same on a DESC NULLS FIRST column, and on plain (unpacked) leaves
-- of interval keys, after more scrambled inserts and deletes
CREATE TABLE t_fpart_desc (a int8, n interval);
CREATE INDEX t_fpart_desc_a ON t_fpart_desc USING bpindex (a DESC NULLS FIRST);
CREATE INDEX t_fpart_desc_n ON t_fpart_desc USING bpindex (n);
INSERT INTO t_fpart_desc
SELECT CASE WHEN i % 41 = 0 THEN NULL ELSE (i * 7919) % 5003 END,
       ((i * 104729) % 997) * interval '7 min'
FROM generate_series(1, 500) i;
DELETE FROM t_fpart_desc WHERE a % 5 = 0;
INSERT INTO t_fpart_desc
SELECT (i * 6151) % 5003, ((i * 3571) % 991) * interval '3 min' FROM generate_series(1, 200) i;
VACUUM ANALYZE t_fpart_desc;
SELECT leaf_pages, packed_leaves FROM bpindex_stats('t_fpart_desc_a');
SELECT count(*) AS leaves, count(*) FILTER (WHERE encoding = 'plain') AS plain_leaves
FROM bpindex_leaves('t_fpart_desc_n');
SELECT * FROM bp_queries('first part, DESC and plain', ARRAY[
    'select a from t_fpart_desc order by a desc nulls first',
    'select a from t_fpart_desc order by a nulls last',
    'select a from t_fpart_desc order by a desc nulls first limit 2',
    'select a from t_fpart_desc order by a nulls last limit 2',
    'select a from t_fpart_desc where a < 2500 order by a desc limit 30',
    'select n from t_fpart_desc order by n',
    'select n from t_fpart_desc order by n desc limit 7',
    'select n from t_fpart_desc where n > interval ''50 hours'' order by n limit 7'
], ARRAY['index', 'indexonly']);
SELECT * FROM bp_cursor('select a from t_fpart_desc order by a desc nulls first', :'steps', 'indexonly');
SELECT * FROM bp_cursor('select n from t_fpart_desc order by n', :'steps', 'index');

-- over many leaves: the scan goes on from the first leaf's cut to the
-- next leaves
CREATE TABLE t_fpart_many (k int8);
CREATE INDEX t_fpart_many_k ON t_fpart_many USING bpindex (k);
INSERT INTO t_fpart_many SELECT (i * 7919) % 20011 FROM generate_series(1, 20000) i;
VACUUM ANALYZE t_fpart_many;
SELECT leaf_pages > 5 AS many_leaves FROM bpindex_stats('t_fpart_many_k');
SELECT * FROM bp_queries('first part, many leaves', ARRAY[
    'select k from t_fpart_many order by k',
    'select k from t_fpart_many order by k desc',
    'select k from t_fpart_many where k > 10000 order by k limit 100',
    'select k from t_fpart_many where k < 10000 order by k desc limit 100',
    'select min(k), max(k) from t_fpart_many'
], ARRAY['index', 'indexonly']);
-- a leaf with dead marks (a queue's head, whose first blocks may hold no
-- live entry) is copied whole at once; the marked entries are skipped
CREATE TABLE t_fpart_dead (k int8);
CREATE INDEX t_fpart_dead_k ON t_fpart_dead USING bpindex (k);
INSERT INTO t_fpart_dead SELECT (i * 7919) % 601 FROM generate_series(1, 600) i;
VACUUM ANALYZE t_fpart_dead;
DELETE FROM t_fpart_dead WHERE k < 150;
SELECT bp_wait_for_horizon() AS horizon_reached;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
SELECT count(*) AS live FROM t_fpart_dead WHERE k >= 0;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
SELECT count(*) > 0 AS marked
FROM bpindex_leaves('t_fpart_dead_k') l, bpindex_page_items('t_fpart_dead_k', l.blkno) i
WHERE i.dead;
SELECT * FROM bp_queries('first part, dead marks', ARRAY[
    'select k from t_fpart_dead order by k limit 1',
    'select k from t_fpart_dead order by k limit 20',
    'select k from t_fpart_dead order by k desc limit 3',
    'select k from t_fpart_dead where k > 100 order by k'
], ARRAY['index']);
SELECT * FROM bp_cursor('select k from t_fpart_dead order by k', :'steps', 'index');

SELECT bpindex_check('t_fpart_ab', true), bpindex_check('t_fpart_desc_a', true),
       bpindex_check('t_fpart_desc_n', true), bpindex_check('t_fpart_many_k', true);
