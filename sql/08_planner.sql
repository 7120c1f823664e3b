--
-- 08_planner: with realistic statistics and no enable_* overrides, the
-- planner chooses a bpindex index where it would choose a btree index of
-- the same shape (bpindex estimates its costs as btree does): index scans
-- for equality on a unique column and for ORDER BY ... LIMIT, index-only
-- scans when the visibility map allows them, bitmap scans for selective
-- ranges and a sequential scan for wide ones.
--
-- The statistics targets exceed the table size, so ANALYZE reads every
-- row and the estimates do not depend on sampling.  Parallel plans are
-- turned off to keep the plans independent of the worker settings.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SET max_parallel_workers_per_gather = 0;
CREATE TABLE t_plan (k int4, g int4, pad text);
ALTER TABLE t_plan ALTER COLUMN k SET STATISTICS 1000;
ALTER TABLE t_plan ALTER COLUMN g SET STATISTICS 1000;
INSERT INTO t_plan
SELECT i * 7919 % 100003, i % 10, repeat('x', 80)
FROM generate_series(1, 100000) i;
CREATE TABLE t_small (k int4);
INSERT INTO t_small SELECT i * 4999 FROM generate_series(1, 20) i;
VACUUM ANALYZE t_plan;
VACUUM ANALYZE t_small;
CREATE INDEX t_plan_bp ON t_plan USING bpindex (k);

EXPLAIN (COSTS OFF) SELECT * FROM t_plan WHERE k = 4242;
EXPLAIN (COSTS OFF) SELECT k FROM t_plan WHERE k = 4242;
EXPLAIN (COSTS OFF) SELECT * FROM t_plan ORDER BY k LIMIT 10;
EXPLAIN (COSTS OFF) SELECT * FROM t_plan ORDER BY k DESC LIMIT 10;
EXPLAIN (COSTS OFF) SELECT * FROM t_plan WHERE k > 50000 ORDER BY k LIMIT 10;
EXPLAIN (COSTS OFF) SELECT * FROM t_plan WHERE k BETWEEN 1000 AND 1100;
EXPLAIN (COSTS OFF) SELECT * FROM t_plan WHERE k < 5000;
EXPLAIN (COSTS OFF) SELECT k FROM t_plan WHERE k BETWEEN 1000 AND 3000;
EXPLAIN (COSTS OFF) SELECT * FROM t_plan WHERE k > 10000;
EXPLAIN (COSTS OFF) SELECT * FROM t_plan ORDER BY k;
EXPLAIN (COSTS OFF) SELECT * FROM t_plan WHERE k IS NULL;
EXPLAIN (COSTS OFF) SELECT min(k), max(k) FROM t_plan;
EXPLAIN (COSTS OFF) SELECT * FROM t_small s JOIN t_plan p ON p.k = s.k;
-- EXPLAIN ANALYZE counts one search of the index per scan here where the
-- server reports searches ("Index Searches", PostgreSQL 18; 15 has no such
-- field, and there only the index is checked)
CREATE FUNCTION index_searches_ok(query text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    plan json;
    node json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) '
        || query INTO plan;
    node := plan->0->'Plan';
    WHILE node->>'Node Type' NOT IN ('Index Scan', 'Index Only Scan', 'Bitmap Index Scan') LOOP
        node := node->'Plans'->0;
    END LOOP;
    RETURN node->>'Index Name' = 't_plan_bp'
        AND coalesce((node->>'Index Searches')::int, 1) = 1;
END
$$;
SELECT index_searches_ok('SELECT * FROM t_plan WHERE k = 4242') AS index_scan,
       index_searches_ok('SELECT * FROM t_plan WHERE k BETWEEN 1000 AND 1100') AS bitmap_scan,
       index_searches_ok('SELECT * FROM t_plan ORDER BY k DESC LIMIT 10') AS backward_scan;
-- and the answers are right
SELECT count(*) FROM t_plan WHERE k BETWEEN 1000 AND 1100;
SELECT k, g FROM t_plan ORDER BY k DESC LIMIT 3;
SELECT min(k), max(k) FROM t_plan;
SELECT count(*), sum(p.k) FROM t_small s JOIN t_plan p ON p.k = s.k;

--
-- The same queries with a btree index instead: the same plans, but for
-- the index name
--
CREATE FUNCTION bp_plan_shape(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    FOR line IN EXECUTE 'explain (costs off) ' || query LOOP
        plan := plan || CASE WHEN plan = '' THEN '' ELSE ' / ' END
                || regexp_replace(trim(line), 't_plan_(bp|bt)', 't_plan_IDX', 'g');
    END LOOP;
    RETURN plan;
END
$$;
CREATE TABLE planner_queries (n serial, query text, bpindex_plan text, btree_plan text);
INSERT INTO planner_queries (query) VALUES
    ('SELECT * FROM t_plan WHERE k = 4242'),
    ('SELECT k FROM t_plan WHERE k = 4242'),
    ('SELECT * FROM t_plan ORDER BY k LIMIT 10'),
    ('SELECT * FROM t_plan ORDER BY k DESC LIMIT 10'),
    ('SELECT * FROM t_plan WHERE k > 50000 ORDER BY k LIMIT 10'),
    ('SELECT * FROM t_plan WHERE k BETWEEN 1000 AND 1100'),
    ('SELECT * FROM t_plan WHERE k < 5000'),
    ('SELECT k FROM t_plan WHERE k BETWEEN 1000 AND 3000'),
    ('SELECT * FROM t_plan WHERE k > 10000'),
    ('SELECT * FROM t_plan ORDER BY k'),
    ('SELECT * FROM t_plan WHERE k IS NULL'),
    ('SELECT min(k), max(k) FROM t_plan'),
    ('SELECT * FROM t_small s JOIN t_plan p ON p.k = s.k');
UPDATE planner_queries SET bpindex_plan = bp_plan_shape(query);
DROP INDEX t_plan_bp;
CREATE INDEX t_plan_bt ON t_plan USING btree (k);
UPDATE planner_queries SET btree_plan = bp_plan_shape(query);
SELECT n, query, bpindex_plan = btree_plan AS same_plan
FROM planner_queries ORDER BY n;
-- the plans that differ, if any
SELECT n, bpindex_plan, btree_plan FROM planner_queries
WHERE bpindex_plan <> btree_plan ORDER BY n;
RESET max_parallel_workers_per_gather;
