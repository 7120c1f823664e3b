--
-- 42_equal_key_runs: a packed leaf stores a run of equal variable-length
-- keys once (build) or once per insert, and a point query reads such a
-- run by the key offsets of its entries' codes: an entry whose code names
-- the key last found equal is inside without reading the key, and its
-- slot reuses that key's decoding.  Runs that mix several copies of one
-- key, dead-marked entries, keys stripped of the leaves' shared prefix
-- and NULLs must read as a sequential scan does, in every plan shape.
-- Skip scans test packed integer codes without decoding while a prefix
-- is set; they are compared the same way.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- four kinds of 60,000 events, a NULL kind every 50th: runs of 15,000
-- equal keys over many packed leaves
CREATE TABLE t_runs (kind text COLLATE "C", id int4);
INSERT INTO t_runs
SELECT CASE WHEN i % 50 = 0 THEN NULL
            ELSE (ARRAY['cart', 'checkout', 'refund', 'view'])[i % 4 + 1] END, i
FROM generate_series(1, 60000) i;
VACUUM ANALYZE t_runs;
CREATE INDEX t_runs_bp ON t_runs USING bpindex (kind);
SELECT leaf_pages = packed_leaves AS all_packed, leaf_pages > 10 AS many_leaves
FROM bpindex_stats('t_runs_bp');
SELECT (bp_check(q, m)).* FROM (VALUES
    ('select id from t_runs where kind = ''checkout''', 'index'),
    ('select kind, id from t_runs where kind = ''checkout''', 'index'),
    ('select kind from t_runs where kind = ''refund''', 'indexonly'),
    ('select id from t_runs where kind = ''view''', 'bitmap'),
    ('select kind from t_runs where kind = ''cart''', 'indexonly'),
    ('select kind from t_runs where kind = ''none''', 'indexonly')) v(q, m);
SELECT count(*) AS checkout_count FROM t_runs WHERE kind = 'checkout';

-- inserts of the same keys: each insert stores its own copy of the key,
-- so a run alternates between copies (in the log, and in blocks after
-- the splits the inserts cause)
INSERT INTO t_runs
SELECT (ARRAY['cart', 'checkout', 'refund', 'view'])[i % 4 + 1], 100000 + i
FROM generate_series(1, 8000) i;
SELECT bpindex_check('t_runs_bp', true);
SELECT (bp_check(q, m)).* FROM (VALUES
    ('select id from t_runs where kind = ''checkout''', 'index'),
    ('select kind from t_runs where kind = ''checkout''', 'indexonly'),
    ('select id from t_runs where kind = ''refund''', 'bitmap'),
    ('select kind from t_runs where kind = ''view''', 'indexonly')) v(q, m);

-- dead-marked entries inside runs: delete every third checkout, let an
-- index scan mark them (no VACUUM yet), and read the runs again
DELETE FROM t_runs WHERE kind = 'checkout' AND id % 3 = 0;
SELECT bp_wait_for_horizon() AS horizon_reached;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS checkouts_left FROM t_runs WHERE kind = 'checkout';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) > 0 AS marked
FROM bpindex_leaves('t_runs_bp') l, bpindex_page_items('t_runs_bp', l.blkno) i
WHERE i.dead;
SELECT (bp_check(q, m)).* FROM (VALUES
    ('select id from t_runs where kind = ''checkout''', 'index'),
    ('select kind, id from t_runs where kind = ''checkout''', 'index'),
    ('select kind from t_runs where kind = ''checkout''', 'indexonly'),
    ('select id from t_runs where kind = ''checkout''', 'bitmap')) v(q, m);
VACUUM t_runs;
SELECT bpindex_check('t_runs_bp', true);
SELECT (bp_check('select kind from t_runs where kind = ''checkout''', 'indexonly')).*;

-- keys stripped of the prefix the leaves' fences share: runs of long
-- URL-like keys whose whole keys are rebuilt for each decoding
CREATE TABLE t_runs_strip (url text COLLATE "C", id int4);
INSERT INTO t_runs_strip
SELECT 'https://www.example.com/catalogue/section/' || (i % 7), i
FROM generate_series(1, 35000) i;
VACUUM ANALYZE t_runs_strip;
CREATE INDEX t_runs_strip_bp ON t_runs_strip USING bpindex (url);
SELECT min(prefix_bytes) >= 40 AS leaves_strip
FROM bpindex_leaves('t_runs_strip_bp') WHERE low_key IS NOT NULL AND high_key IS NOT NULL;
INSERT INTO t_runs_strip
SELECT 'https://www.example.com/catalogue/section/' || (i % 7), 100000 + i
FROM generate_series(1, 3000) i;
SELECT bpindex_check('t_runs_strip_bp', true);
SELECT (bp_check(q, m)).* FROM (VALUES
    ('select url from t_runs_strip where url = ''https://www.example.com/catalogue/section/3''', 'indexonly'),
    ('select id from t_runs_strip where url = ''https://www.example.com/catalogue/section/6''', 'index'),
    ('select url, id from t_runs_strip where url = ''https://www.example.com/catalogue/section/0''', 'index'),
    ('select id from t_runs_strip where url = ''https://www.example.com/catalogue/section/5''', 'bitmap'),
    ('select url from t_runs_strip where url = ''https://www.example.com/catalogue/section/''', 'indexonly')) v(q, m);

-- skip scans over (a, b): b's key and the prefix's value tested on the
-- packed codes of a leaf, forward and backward, with NULL prefixes
CREATE TABLE t_runs_skip (a int4, b int8, c int4);
INSERT INTO t_runs_skip
SELECT CASE WHEN i % 997 = 0 THEN NULL ELSE i % 40 END, i / 3, i
FROM generate_series(1, 60000) i;
VACUUM ANALYZE t_runs_skip;
CREATE INDEX t_runs_skip_bp ON t_runs_skip USING bpindex (a, b);
SELECT leaf_pages = packed_leaves AS all_packed FROM bpindex_stats('t_runs_skip_bp');
SELECT (bp_check(q, m)).* FROM (VALUES
    ('select a, b from t_runs_skip where b = 4000', 'indexonly'),
    ('select a, b, c from t_runs_skip where b = 19833', 'index'),
    ('select a, b from t_runs_skip where b between 100 and 140 order by a, b', 'indexonly'),
    ('select a, b from t_runs_skip where b between 100 and 140 order by a desc, b desc', 'indexonly'),
    ('select a, b from t_runs_skip where b in (5, 6000, 19999)', 'indexonly'),
    ('select c from t_runs_skip where b = 332', 'bitmap')) v(q, m);

-- IS NULL and IS NOT NULL keys test the same codes: a NULL code of a
-- leading column, NULLS LAST and NULLS FIRST, alone and before a key on
-- the next column
SELECT (bp_check(q, m)).* FROM (VALUES
    ('select a, b from t_runs_skip where a is null', 'indexonly'),
    ('select a, b from t_runs_skip where a is null and b between 5000 and 15000 order by a, b', 'indexonly'),
    ('select a, b from t_runs_skip where a is null and b > 19000 order by a desc, b desc', 'indexonly'),
    ('select c from t_runs_skip where a is null and b < 3000', 'bitmap'),
    ('select a, b from t_runs_skip where a is not null and a < 2 and b < 20 order by a, b', 'indexonly')) v(q, m);
CREATE INDEX t_runs_skip_nf ON t_runs_skip USING bpindex (a NULLS FIRST, b);
DROP INDEX t_runs_skip_bp;
SELECT leaf_pages = packed_leaves AS all_packed FROM bpindex_stats('t_runs_skip_nf');
SELECT (bp_check(q, m)).* FROM (VALUES
    ('select a, b from t_runs_skip where a is null', 'indexonly'),
    ('select a, b from t_runs_skip where a is null and b between 5000 and 15000 order by a nulls first, b', 'indexonly'),
    ('select a, b from t_runs_skip where a = 7 and b > 19000 order by a desc nulls last, b desc', 'indexonly'),
    ('select a, b from t_runs_skip where b = 4000', 'indexonly'),
    ('select c from t_runs_skip where a is not null and b = 332', 'bitmap')) v(q, m);

-- an index-only scan of one key column whose entries all have the same
-- tuple (= on text, IS NULL) forms it once per rescan: a nested loop
-- rescans it with each outer key, and the kinds it returns are the
-- outer keys', as a hash join over sequential scans finds them
CREATE FUNCTION runs_by_kind(plain boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    result text;
BEGIN
    PERFORM set_config('enable_hashjoin', (NOT plain)::text, true);
    PERFORM set_config('enable_mergejoin', 'off', true);
    PERFORM set_config('enable_seqscan', (NOT plain)::text, true);
    PERFORM set_config('enable_indexscan', plain::text, true);
    PERFORM set_config('enable_indexonlyscan', plain::text, true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    EXECUTE 'SELECT string_agg(kind || '':'' || n, '' '' ORDER BY kind)
             FROM (SELECT t.kind, count(*) AS n
                   FROM (VALUES (''cart''), (''refund''), (''view''), (''checkout'')) v(k)
                   JOIN t_runs t ON t.kind = v.k GROUP BY t.kind) s' INTO result;
    RETURN result;
END $$;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF)
SELECT t.kind FROM (VALUES ('cart'), ('refund')) v(k) JOIN t_runs t ON t.kind = v.k;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT runs_by_kind(true) = runs_by_kind(false) AS nested_loop_as_hash_join,
       runs_by_kind(true) AS kinds;
SELECT (bp_check(q, m)).* FROM (VALUES
    ('select kind from t_runs where kind is null', 'indexonly'),
    ('select url from t_runs_strip where url is null', 'indexonly')) v(q, m);
