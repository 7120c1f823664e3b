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
\echo '== timings side by side (mean of repeated runs, milliseconds)'
CREATE FUNCTION pg_temp.mean_ms(query text, repetitions int) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE
	started timestamptz;
	total interval := '0';
BEGIN
	EXECUTE query;				-- warm up
	FOR i IN 1 .. repetitions LOOP
		started := clock_timestamp();
		EXECUTE query;
		total := total + (clock_timestamp() - started);
	END LOOP;
	RETURN round((extract(epoch FROM total) * 1000 / repetitions)::numeric, 3);
END $$;

CREATE TEMP TABLE demo_queries (ord int, workload text, query text, reps int, bitmap boolean);
INSERT INTO demo_queries VALUES
	(1, 'point query (k = probe)', 'SELECT * FROM %I WHERE k = ' || :probe, 2000, false),
	(2, 'ordered range, LIMIT 1000', 'SELECT k FROM %I WHERE k >= 5000000 ORDER BY k LIMIT 1000', 200, false),
	(3, 'ordered range with heap column, LIMIT 1000', 'SELECT * FROM %I WHERE k >= 5000000 ORDER BY k LIMIT 1000', 200, false),
	(4, 'wide range count (bitmap)', 'SELECT count(*) FROM %I WHERE k BETWEEN 2000000 AND 2999999', 10, true);

CREATE TEMP TABLE demo_timings AS
SELECT ord, workload, NULL::numeric AS btree_ms, NULL::numeric AS bpindex_ms FROM demo_queries;

DO $$
DECLARE
	q record;
BEGIN
	FOR q IN SELECT * FROM demo_queries ORDER BY ord LOOP
		IF q.bitmap THEN
			SET LOCAL enable_seqscan = off;
			SET LOCAL enable_indexscan = off;
			SET LOCAL enable_indexonlyscan = off;
		END IF;
		UPDATE demo_timings SET
			btree_ms = pg_temp.mean_ms(format(q.query, 'demo_btree'), q.reps),
			bpindex_ms = pg_temp.mean_ms(format(q.query, 'demo_bpindex'), q.reps)
		WHERE ord = q.ord;
		RESET enable_seqscan;
		RESET enable_indexscan;
		RESET enable_indexonlyscan;
	END LOOP;
END $$;

SELECT workload, btree_ms, bpindex_ms,
	   round(btree_ms / nullif(bpindex_ms, 0), 2) AS "speedup (btree/bpindex)"
FROM demo_timings ORDER BY ord;
