--
-- 38_row_compare: row comparisons (a, b) > (x, y), which PostgreSQL's
-- planner matches to btree indexes only.  bpindex's planner hook adds
-- index paths whose index condition is the bound the comparison implies
-- on the index's first column (a >= x), the comparison itself a filter:
-- keyset pages read the leaves of their rows instead of the whole index.
-- Both directions and every comparison, the column on either side,
-- cross-type values, NULLs in the data and in the row, DESC columns, text
-- under "C", prepared statements, SCROLL cursors; every result compared
-- with a sequential scan.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE rc (a int8, b timestamptz, c int4, name text COLLATE "C");
INSERT INTO rc
SELECT CASE WHEN g % 97 = 0 THEN NULL ELSE g % 5000 END,
       CASE WHEN g % 89 = 0 THEN NULL ELSE '2021-01-01'::timestamptz + (g % 7919) * interval '1 hour' END,
       g, 'n-' || lpad((g % 3000)::text, 5, '0')
FROM generate_series(1, 60000) g;
CREATE INDEX rc_ab ON rc USING bpindex (a, b);
CREATE INDEX rc_name ON rc USING bpindex (name, c);
VACUUM ANALYZE rc;

-- the bound on the first column is the index condition, the row a filter
EXPLAIN (COSTS OFF) SELECT * FROM rc WHERE (a, b) > (2500, '2021-03-01') ORDER BY a, b LIMIT 10;
EXPLAIN (COSTS OFF) SELECT * FROM rc WHERE (a, b) <= (2500, '2021-03-01') ORDER BY a DESC, b DESC LIMIT 10;
EXPLAIN (COSTS OFF) SELECT * FROM rc WHERE (2500::int4, '2021-03-01'::timestamptz) < (a, b) ORDER BY a, b LIMIT 10;

-- a page reads a few leaves, not the index (buffers of the whole query)
CREATE FUNCTION rc_buffers(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, FORMAT JSON) ' || query
        INTO plan;
    RETURN (plan->0->'Plan'->>'Shared Hit Blocks')::int +
           (plan->0->'Plan'->>'Shared Read Blocks')::int;
END $$;
SELECT pg_relation_size('rc_ab') / 8192 > 50 AS index_has_many_pages,
       rc_buffers($$SELECT * FROM rc WHERE (a, b) > (2500, '2021-03-01') ORDER BY a, b LIMIT 10$$) < 30 AS page_reads_few_buffers,
       rc_buffers($$SELECT * FROM rc WHERE (a, b) < (2500, '2021-03-01') ORDER BY a DESC, b DESC LIMIT 10$$) < 30 AS backward_page_reads_few_buffers;

-- each query through a bpindex index scan whose index condition is the
-- bound (the row comparison a filter, no sort), and with no index at all:
-- the same rows in the same order
CREATE FUNCTION rc_check(query text) RETURNS TABLE (query_text text, nrows bigint, via_index text)
LANGUAGE plpgsql
SET enable_sort = on
SET max_parallel_workers_per_gather = 0
AS $$
DECLARE
    wrapper text := format('select count(*), string_agg(to_jsonb(x)::text, '' '') from (%s) x', query);
    plan text := '';
    line text;
    n_idx bigint;
    s_idx text;
    n_seq bigint;
    s_seq text;
    sorted boolean := false;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    PERFORM set_config('enable_indexonlyscan', 'off', true);
    PERFORM set_config('enable_sort', 'off', true);
    FOR line IN EXECUTE 'explain (costs off) ' || wrapper LOOP
        plan := plan || line || E'\n';
        sorted := sorted OR line ~ '^\s*(->\s+)?(Incremental )?Sort\s*$';
    END LOOP;
    EXECUTE wrapper INTO n_idx, s_idx;
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    PERFORM set_config('enable_sort', 'on', true);
    EXECUTE wrapper INTO n_seq, s_seq;
    PERFORM set_config('enable_indexscan', 'on', true);
    query_text := query;
    nrows := n_seq;
    via_index := CASE
        WHEN plan !~ 'Index Scan (Backward )?using rcp?_' OR plan !~ 'Index Cond: ' OR sorted
            THEN 'unexpected plan: ' || plan
        WHEN (n_idx, s_idx) IS DISTINCT FROM (n_seq, s_seq) THEN 'different rows'
        ELSE 'ok' END;
    RETURN NEXT;
END $$;
SELECT r.* FROM unnest(ARRAY[
    'select a, b, c from rc where (a, b) > (2500, ''2021-03-01'') order by a, b limit 50',
    'select a, b, c from rc where (a, b) >= (2500, ''2021-03-01'') order by a, b limit 50',
    'select a, b, c from rc where (a, b) < (2500, ''2021-03-01'') order by a desc, b desc limit 50',
    'select a, b, c from rc where (a, b) <= (2500, ''2021-03-01'') order by a desc, b desc limit 50',
    'select a, b, c from rc where (a, b) > (4990, ''2021-01-01'') order by a, b',
    'select a, b, c from rc where (a, b) > (2500, null) order by a, b limit 20',
    'select a, b, c from rc where (a, b) > (null, ''2021-03-01'') order by a, b limit 20',
    'select a, b, c from rc where (2500, ''2021-03-01''::timestamptz) < (a, b) order by a, b limit 50',
    'select a, b, c from rc where (a, b) > (2500::int4, ''2021-03-01'') and c % 2 = 0 order by a, b limit 50',
    'select a, b, c from rc where (a, b) > (5000, ''2021-03-01'') order by a, b',
    'select name, c from rc where (name, c) > (''n-01500'', 40000) order by name, c limit 50',
    'select name, c from rc where (name, c) <= (''n-01500'', 40000) order by name desc, c desc limit 50'
]) q, rc_check(q) r;

-- bitmap scans take the same bound (the row comparison rechecked)
SELECT r.* FROM unnest(ARRAY[
    'select count(*), sum(c) from rc where (a, b) > (4990, ''2021-01-01'')',
    'select a, b, c from rc where (a, b) <= (3, ''2021-06-01'')',
    'select name, c from rc where (name, c) > (''n-02990'', 40000)'
]) q, bp_lossy_check(q, 'rc_', 'bitmap') r;

-- a DESC first column: the bound is a condition on it all the same
CREATE INDEX rc_ab_desc ON rc USING bpindex (a DESC, b);
DROP INDEX rc_ab;
EXPLAIN (COSTS OFF) SELECT * FROM rc WHERE (a, b) < (2500, '2021-03-01') ORDER BY a DESC, b LIMIT 10;
SELECT r.* FROM unnest(ARRAY[
    'select a, b, c from rc where (a, b) < (2500, ''2021-03-01'') order by a desc, b limit 50',
    'select a, b, c from rc where (a, b) >= (2500, ''2021-03-01'') order by a, b desc limit 50'
]) q, rc_check(q) r;
DROP INDEX rc_ab_desc;
CREATE INDEX rc_ab ON rc USING bpindex (a, b);

-- a prepared keyset page: the value is a parameter, the bound a runtime key
PREPARE rc_page(int8, timestamptz) AS
SELECT a, b, c FROM rc WHERE (a, b) > ($1, $2) ORDER BY a, b LIMIT 5;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE rc_page(2500, '2021-03-01');
CREATE TEMP TABLE rc_got AS EXECUTE rc_page(2500, '2021-03-01');
RESET plan_cache_mode;
SET enable_indexscan = off;
CREATE TEMP TABLE rc_expected AS
SELECT a, b, c FROM rc WHERE (a, b) > (2500, '2021-03-01') ORDER BY a, b LIMIT 5;
RESET enable_indexscan;
SELECT (SELECT string_agg(g::text, ' ' ORDER BY g.a, g.b) FROM rc_got g) =
       (SELECT string_agg(e::text, ' ' ORDER BY e.a, e.b) FROM rc_expected e) AS same_as_seqscan;
DEALLOCATE rc_page;

-- a SCROLL cursor over a keyset page, both ways
SELECT n, step, via_index, same FROM bp_cursor(
    'select a, b, c from rc where (a, b) > (2500, ''2021-03-01'') order by a, b',
    ARRAY['next', 'forward 40', 'prior', 'backward 30', 'first', 'prior', 'last', 'prior',
          'absolute 1000', 'relative -500'], 'index');

-- a partitioned table: each partition's index scan takes the bound, and
-- the pages come merged in order
CREATE TABLE rcp (a int8, b timestamptz, c int4) PARTITION BY RANGE (a);
CREATE TABLE rcp_1 PARTITION OF rcp FOR VALUES FROM (MINVALUE) TO (2500);
CREATE TABLE rcp_2 PARTITION OF rcp FOR VALUES FROM (2500) TO (MAXVALUE);
CREATE TABLE rcp_null PARTITION OF rcp DEFAULT;
INSERT INTO rcp SELECT a, b, c FROM rc;
CREATE INDEX rcp_ab ON rcp USING bpindex (a, b);
VACUUM ANALYZE rcp;
EXPLAIN (COSTS OFF) SELECT * FROM rcp WHERE (a, b) > (2400, '2021-03-01') ORDER BY a, b LIMIT 10;
SELECT r.* FROM unnest(ARRAY[
    'select a, b, c from rcp where (a, b) > (2400, ''2021-03-01'') order by a, b limit 200',
    'select a, b, c from rcp where (a, b) < (2600, ''2021-03-01'') order by a desc, b desc limit 200'
]) q, rc_check(q) r;
DROP TABLE rcp;

-- a hypothetical index takes the bound as a real one does
DROP INDEX rc_ab;
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname
FROM bpindex_hypo_create_index('CREATE INDEX ON rc USING bpindex (a, b)');
CREATE FUNCTION rc_explain(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        RETURN NEXT regexp_replace(line, '<\d+>', '<oid>', 'g');
    END LOOP;
END $$;
SELECT * FROM rc_explain($q$SELECT * FROM rc WHERE (a, b) > (2500, '2021-03-01') ORDER BY a, b LIMIT 10$q$);
DROP FUNCTION rc_explain(text);
SELECT bpindex_hypo_reset();
CREATE INDEX rc_ab ON rc USING bpindex (a, b);

-- no path without an orderable match: the second column alone, or an
-- opfamily mismatch (a collation other than the index's)
EXPLAIN (COSTS OFF) SELECT * FROM rc WHERE (b, a) > ('2021-03-01', 2500) ORDER BY a, b LIMIT 10;
EXPLAIN (COSTS OFF) SELECT * FROM rc WHERE (name COLLATE "POSIX", c) > ('n-01500', 40000) LIMIT 10;

DROP TABLE rc;
DROP FUNCTION rc_buffers(text);
DROP FUNCTION rc_check(text);
