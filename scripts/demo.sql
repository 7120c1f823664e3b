-- bpindex demo: the same million rows indexed by btree and by bpindex.
\pset footer off
\set rows 1000000
\echo
\echo '== loading' :rows 'rows into demo_btree and demo_bpindex (same data)'
CREATE EXTENSION IF NOT EXISTS bpindex;
DROP TABLE IF EXISTS demo_btree, demo_bpindex;
SELECT setseed(0.42);
CREATE TABLE demo_btree AS
	SELECT (random() * 10000000)::int8 AS k, g AS payload
	FROM generate_series(1, :rows) g;
CREATE TABLE demo_bpindex AS SELECT * FROM demo_btree;
VACUUM ANALYZE demo_btree;
VACUUM ANALYZE demo_bpindex;

\echo
\echo '== CREATE INDEX timings'
\timing on
CREATE INDEX demo_btree_k ON demo_btree USING btree (k);
CREATE INDEX demo_bpindex_k ON demo_bpindex USING bpindex (k);
\timing off
VACUUM ANALYZE demo_btree;
VACUUM ANALYZE demo_bpindex;

\echo
\echo '== index sizes'
SELECT c.relname AS index, am.amname AS method,
	   pg_size_pretty(pg_relation_size(c.oid)) AS size,
	   pg_relation_size(c.oid) / 8192 AS pages
FROM pg_class c JOIN pg_am am ON am.oid = c.relam
WHERE c.relname IN ('demo_btree_k', 'demo_bpindex_k') ORDER BY 2;

SELECT k AS probe FROM demo_btree WHERE payload = 123456 \gset

\echo
\echo '== point query: WHERE k = probe (planner''s choice)'
EXPLAIN (ANALYZE, COSTS OFF) SELECT * FROM demo_btree WHERE k = :probe;
EXPLAIN (ANALYZE, COSTS OFF) SELECT * FROM demo_bpindex WHERE k = :probe;

\echo
\echo '== ordered range with LIMIT: WHERE k >= 5000000 ORDER BY k LIMIT 1000 (planner''s choice)'
EXPLAIN (ANALYZE, COSTS OFF) SELECT k FROM demo_btree WHERE k >= 5000000 ORDER BY k LIMIT 1000;
EXPLAIN (ANALYZE, COSTS OFF) SELECT k FROM demo_bpindex WHERE k >= 5000000 ORDER BY k LIMIT 1000;
EXPLAIN (ANALYZE, COSTS OFF) SELECT * FROM demo_bpindex WHERE k >= 5000000 ORDER BY k LIMIT 1000;

\echo
\echo '== wide range count: 10% of the keys (bitmap path, sequential scan disabled)'
SET enable_seqscan = off;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
EXPLAIN (ANALYZE, COSTS OFF) SELECT count(*) FROM demo_btree WHERE k BETWEEN 2000000 AND 2999999;
EXPLAIN (ANALYZE, COSTS OFF) SELECT count(*) FROM demo_bpindex WHERE k BETWEEN 2000000 AND 2999999;
RESET ALL;

\echo
\echo '== timings side by side (median of 7 rounds, btree and bpindex alternating; milliseconds per query)'
-- mean ms of one batch of executions of query, after one unmeasured run
CREATE FUNCTION pg_temp.batch_ms(query text, executions int) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	started timestamptz;
BEGIN
	EXECUTE query;
	started := clock_timestamp();
	FOR i IN 1 .. executions LOOP
		EXECUTE query;
	END LOOP;
	RETURN extract(epoch FROM clock_timestamp() - started) * 1000 / executions;
END $$;

CREATE TEMP TABLE demo_queries (ord int, workload text, query text, reps int, bitmap boolean);
INSERT INTO demo_queries VALUES
	(1, 'point query (k = probe)', 'SELECT * FROM %I WHERE k = ' || :probe, 300, false),
	(2, 'ordered range, LIMIT 1000', 'SELECT k FROM %I WHERE k >= 5000000 ORDER BY k LIMIT 1000', 30, false),
	(3, 'ordered range with heap column, LIMIT 1000', 'SELECT * FROM %I WHERE k >= 5000000 ORDER BY k LIMIT 1000', 30, false),
	(4, 'wide range count (bitmap)', 'SELECT count(*) FROM %I WHERE k BETWEEN 2000000 AND 2999999', 2, true);

CREATE TEMP TABLE demo_rounds (ord int, am text, ms float8);

-- seven rounds per query, each a batch of btree then bpindex or the
-- other way round, so that both see the same moments of the machine
DO $$
DECLARE
	q record;
	am text;
BEGIN
	FOR q IN SELECT * FROM demo_queries ORDER BY ord LOOP
		IF q.bitmap THEN
			SET LOCAL enable_seqscan = off;
			SET LOCAL enable_indexscan = off;
			SET LOCAL enable_indexonlyscan = off;
		END IF;
		FOR r IN 1 .. 7 LOOP
			FOREACH am IN ARRAY CASE WHEN r % 2 = 1 THEN ARRAY['btree', 'bpindex']
									 ELSE ARRAY['bpindex', 'btree'] END LOOP
				INSERT INTO demo_rounds
				VALUES (q.ord, am, pg_temp.batch_ms(format(q.query, 'demo_' || am), q.reps));
			END LOOP;
		END LOOP;
		RESET enable_seqscan;
		RESET enable_indexscan;
		RESET enable_indexonlyscan;
	END LOOP;
END $$;

CREATE TEMP TABLE demo_timings AS
SELECT q.ord, q.workload,
	   round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM demo_rounds r
			  WHERE r.ord = q.ord AND r.am = 'btree')::numeric, 3) AS btree_ms,
	   round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM demo_rounds r
			  WHERE r.ord = q.ord AND r.am = 'bpindex')::numeric, 3) AS bpindex_ms
FROM demo_queries q;

SELECT workload, btree_ms, bpindex_ms,
	   round(btree_ms / nullif(bpindex_ms, 0), 2) AS "speedup (btree/bpindex)"
FROM demo_timings ORDER BY ord;
