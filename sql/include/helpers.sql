--
-- helpers.sql: the helper functions of the test files, included by each
-- (\i sql/include/helpers.sql, with ECHO off) so that every file also runs
-- on its own.  Creating them again replaces them; bp_results keeps the
-- checks of every file of the run.
--
SET client_min_messages = warning;

--
-- bp_check(query, mode): run query through one bpindex access path and
-- compare the result with the same query planned without any index path.
--
-- mode is 'index' (Index Scan), 'indexonly' (Index Only Scan) or 'bitmap'
-- (Bitmap Index Scan).  The plan of the forced run must contain that node
-- on an index whose access method is bpindex; if the query has a WHERE
-- clause, its quals must all be index conditions (no Filter); if it has an
-- ORDER BY, the plan must not sort, and the scan must be Backward exactly
-- when the first ORDER BY item's direction is the opposite of its column's
-- in the index.  The baseline run must not use any index.
--
-- The query is wrapped as
--   select count(*), string_agg(...) from (<query>) x
-- Unordered queries compare the multiset of x::text.  Ordered queries
-- compare the sequence of to_jsonb(x), which is the same for values that
-- are equal but print differently (float -0 and 0), so that ties may come
-- in any order.
--
-- Failures also raise a NOTICE with the query and the plan.
--
DO $$
BEGIN
    CREATE TYPE bp_result AS (mode text, plan_ok boolean, nrows bigint,
                              same_as_seqscan boolean);
EXCEPTION WHEN duplicate_object THEN NULL;
END
$$;

-- bp_wrapped(query): query as one row of its row count and its rows'
-- text: in the query's order (to_jsonb) when it has an ORDER BY, else
-- sorted
CREATE OR REPLACE FUNCTION bp_wrapped(query text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN query ~* '\morder\s+by\M'
        THEN format('select count(*), string_agg(to_jsonb(x)::text, '' '') from (%s) x', query)
        ELSE format('select count(*), string_agg(x::text, '' '' order by x::text) from (%s) x', query)
    END
$$;

-- bp_without_index(wrapped): a bp_wrapped query run without any index
-- path (and without partition pruning: PostgreSQL 18 answers an ordered
-- query whose quals leave one partition with that partition's index scan
-- even with index scans disabled): its row count, rows, plan, and whether
-- the plan uses no index
CREATE OR REPLACE FUNCTION bp_without_index(wrapped text, OUT nrows bigint,
                                            OUT rows text, OUT plan text,
                                            OUT no_index boolean)
LANGUAGE plpgsql
SET enable_partition_pruning = off
SET enable_seqscan = on
SET enable_indexscan = off
SET enable_indexonlyscan = off
SET enable_bitmapscan = off
SET enable_sort = on
SET enable_incremental_sort = on
AS $$
DECLARE
    line text;
BEGIN
    plan := '';
    FOR line IN EXECUTE 'explain (costs off) ' || wrapped LOOP
        plan := plan || line || E'\n';
    END LOOP;
    no_index := plan !~ 'Index';
    EXECUTE wrapped INTO nrows, rows;
END
$$;

CREATE OR REPLACE FUNCTION bp_check(query text, mode text) RETURNS bp_result
LANGUAGE plpgsql
SET enable_seqscan = on
SET enable_indexscan = on
SET enable_indexonlyscan = on
SET enable_bitmapscan = on
SET enable_sort = on
SET enable_incremental_sort = on
SET enable_partition_pruning = on
SET max_parallel_workers_per_gather = 0
SET jit = off
AS $$
DECLARE
    ordered boolean := query ~* '\morder\s+by\M';
    filtered boolean := query ~* '\mwhere\M';
    wrapper text := bp_wrapped(query);
    node text;
    plan text := '';
    base_plan text;
    line text;
    m text[];
    node_ok boolean := false;
    used_index text;
    index_desc boolean;
    quals_ok boolean;
    sort_free boolean := true;
    base_ok boolean;
    n_idx bigint;
    s_idx text;
    n_seq bigint;
    s_seq text;
    r bp_result;
BEGIN
    IF mode NOT IN ('index', 'indexonly', 'bitmap') THEN
        RAISE EXCEPTION 'unknown mode "%"', mode;
    END IF;
    IF ordered AND mode = 'bitmap' THEN
        RAISE EXCEPTION 'a bitmap scan cannot return ordered results: %', query;
    END IF;
    -- forced bpindex path
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_indexscan', CASE WHEN mode = 'bitmap' THEN 'off' ELSE 'on' END, true);
    PERFORM set_config('enable_indexonlyscan', CASE WHEN mode = 'indexonly' THEN 'on' ELSE 'off' END, true);
    PERFORM set_config('enable_bitmapscan', CASE WHEN mode = 'bitmap' THEN 'on' ELSE 'off' END, true);
    PERFORM set_config('enable_sort', 'off', true);
    PERFORM set_config('enable_incremental_sort', 'off', true);
    node := CASE mode WHEN 'index' THEN 'Index Scan'
                      WHEN 'indexonly' THEN 'Index Only Scan'
                      ELSE 'Bitmap Index Scan' END;
    FOR line IN EXECUTE 'explain (costs off) ' || wrapper LOOP
        plan := plan || line || E'\n';
        IF mode = 'bitmap' THEN
            m := regexp_match(line, '^\s*(?:->\s+)?Bitmap Index Scan on (\S+)');
        ELSE
            m := regexp_match(line, '^\s*(?:->\s+)?' || node || '(?: Backward)? using (\S+) on ');
        END IF;
        IF m IS NOT NULL AND EXISTS (
                SELECT FROM pg_class c JOIN pg_am a ON a.oid = c.relam
                WHERE c.relname = m[1] AND c.relkind = 'i' AND a.amname = 'bpindex') THEN
            node_ok := true;
            used_index := m[1];
        END IF;
        IF line ~ '^\s*(->\s+)?(Incremental )?Sort\s*$' THEN
            sort_free := false;
        END IF;
    END LOOP;
    quals_ok := NOT filtered OR (plan ~ 'Index Cond: ' AND plan !~ 'Filter: ');
    -- the scan runs backward when the first ORDER BY item's direction is
    -- the opposite of its column's in the index (DESC on an ASC column);
    -- an item that is no plain column of the index goes with the first
    m := regexp_match(query, '\morder\s+by\s+(\w+)', 'i');
    IF ordered AND node_ok THEN
        SELECT (coalesce(i.indoption[array_position(i.indkey::int2[], a.attnum)],
                         i.indoption[0]) & 1) = 1
        INTO index_desc
        FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attname = lower(m[1])
        WHERE c.relname = used_index;
        IF (plan ~ ' Backward ') IS DISTINCT FROM
           ((query ~* '\morder\s+by\s+[^,]*\mdesc\M') <> index_desc) THEN
            node_ok := false;
        END IF;
    END IF;
    EXECUTE wrapper INTO n_idx, s_idx;

    -- baseline: no index at all
    SELECT b.nrows, b.rows, b.plan, b.no_index INTO n_seq, s_seq, base_plan, base_ok
    FROM bp_without_index(wrapper) b;

    r.mode := mode;
    r.plan_ok := node_ok AND quals_ok AND (sort_free OR NOT ordered) AND base_ok;
    r.nrows := n_seq;
    r.same_as_seqscan := n_idx = n_seq AND s_idx IS NOT DISTINCT FROM s_seq;
    IF NOT r.plan_ok THEN
        RAISE NOTICE 'bp_check: unexpected plan for % scan of: %', mode, query
            USING DETAIL = plan || 'baseline:' || E'\n' || base_plan;
    END IF;
    IF NOT r.same_as_seqscan THEN
        RAISE NOTICE 'bp_check: % scan returns % rows, seq scan % rows, for: %',
            mode, n_idx, n_seq, query;
    END IF;
    RETURN r;
END
$$;

-- Every check of every file, for the summaries
CREATE TABLE IF NOT EXISTS bp_results (
    seq serial PRIMARY KEY,
    label text NOT NULL,
    shape text NOT NULL,
    nrows bigint,
    idx text,
    ionly text,
    bitmap text,
    ok boolean NOT NULL
);

-- One cell of a matrix row: ok, PLAN (wrong plan), DIFF (wrong result)
CREATE OR REPLACE FUNCTION bp_cell(r bp_result) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN r IS NULL THEN '-'
                WHEN r.plan_ok AND r.same_as_seqscan THEN 'ok'
                WHEN r.same_as_seqscan THEN 'PLAN'
                WHEN r.plan_ok THEN 'DIFF'
                ELSE 'PLAN+DIFF' END
$$;

--
-- bp_run(label, query, shape, modes): check query in each of modes (an
-- ordered query in index and indexonly only), record it in bp_results
-- under label and shape, and return the row.
--
CREATE OR REPLACE FUNCTION bp_run(label text, query text, shape text,
                       modes text[] DEFAULT ARRAY['index', 'indexonly', 'bitmap'])
RETURNS bp_results
LANGUAGE plpgsql AS $$
DECLARE
    ri bp_result;
    ro bp_result;
    rb bp_result;
    nrows bigint;
    res bp_results;
BEGIN
    IF 'index' = ANY (modes) THEN
        ri := bp_check(query, 'index');
        nrows := ri.nrows;
    END IF;
    IF 'indexonly' = ANY (modes) THEN
        ro := bp_check(query, 'indexonly');
        nrows := ro.nrows;
    END IF;
    IF 'bitmap' = ANY (modes) AND query !~* '\morder\s+by\M' THEN
        rb := bp_check(query, 'bitmap');
        nrows := rb.nrows;
    END IF;
    INSERT INTO bp_results (label, shape, nrows, idx, ionly, bitmap, ok)
    VALUES (label, shape, nrows, bp_cell(ri), bp_cell(ro), bp_cell(rb),
            bp_cell(ri) IN ('ok', '-') AND bp_cell(ro) IN ('ok', '-')
            AND bp_cell(rb) IN ('ok', '-'))
    RETURNING * INTO res;
    RETURN res;
END
$$;

-- bp_queries(label, queries, modes): bp_run over a list of whole queries
CREATE OR REPLACE FUNCTION bp_queries(label text, queries text[],
                           modes text[] DEFAULT ARRAY['index', 'indexonly', 'bitmap'])
RETURNS TABLE (query text, nrows bigint, idx text, ionly text, bitmap text)
LANGUAGE sql AS $$
    SELECT r.shape, r.nrows, r.idx, r.ionly, r.bitmap
    FROM unnest(queries) WITH ORDINALITY AS q(query, n),
         LATERAL bp_run(label, q.query, q.query, modes) AS r
    ORDER BY q.n
$$;

--
-- bp_literal(value, type): a constant of the column's type.  A boolean
-- "col = true" would be simplified by the planner to "col", which only
-- btree's own boolean family can use as an index condition, so boolean
-- equality probes are given as an uncorrelated subquery.
--
CREATE OR REPLACE FUNCTION bp_literal(v text, typ text, op text DEFAULT NULL) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN v IS NULL THEN 'NULL::' || typ
                WHEN typ = 'boolean' AND op = '=' THEN format('(select %L::%s)', v, typ)
                ELSE format('%L::%s', v, typ) END
$$;

--
-- bp_matrix(label, tab, col, probes): every query shape over column col
-- of table tab, for each probe value (given in ascending order) and each
-- consecutive pair of probes, in every mode that applies.  One row per
-- shape: the seq scan's row count and a cell per mode (ok; PLAN: the plan
-- is not the expected bpindex scan; DIFF: the result differs from the
-- seq scan's; -: mode not applicable).  A composite column has no IS NULL
-- shapes (a row's IS NULL tests its fields, and is no index condition),
-- an array column no = ANY shape (its probes would be elements).
--
CREATE OR REPLACE FUNCTION bp_matrix(label text, tab text, col text, probes text[])
RETURNS TABLE (shape text, nrows bigint, idx text, ionly text, bitmap text)
LANGUAGE plpgsql AS $$
DECLARE
    typ text;
    c text := quote_ident(col);
    v text;
    w text;
    op text;
    conds text[] := '{}';
    ordered text[] := '{}';
    s text;
    ord text[] := ARRAY['index', 'indexonly'];
    r bp_results;
    lv text;
    category "char";
BEGIN
    SELECT format_type(a.atttypid, a.atttypmod),
           coalesce(b.typcategory, t.typcategory) INTO STRICT typ, category
    FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
         LEFT JOIN pg_type b ON b.oid = t.typbasetype
    WHERE a.attrelid = tab::regclass AND a.attname = col;

    -- shapes without a probe
    IF category <> 'C' THEN
        conds := conds || format('where %s is null', c)
                       || format('where %s is not null', c);
    END IF;
    ordered := ordered || format('order by %s', c)
                       || format('order by %s desc', c)
                       || format('order by %s limit 10', c)
                       || format('order by %s desc limit 10', c);
    IF category <> 'C' THEN
        ordered := ordered
            || format('where %s is not null order by %s desc limit 10', c, c)
            || format('where %s is null order by %s', c, c);
    END IF;
    -- one probe
    FOREACH v IN ARRAY probes LOOP
        FOREACH op IN ARRAY ARRAY['=', '<', '<=', '>=', '>'] LOOP
            conds := conds || format('where %s %s %s', c, op, bp_literal(v, typ, op));
        END LOOP;
        lv := bp_literal(v, typ);
        ordered := ordered
            || format('where %s between %s and %s order by %s desc', c, lv, lv, c)
            || format('where %s >= %s order by %s limit 5', c, lv, c)
            || format('where %s <= %s order by %s desc limit 5', c, lv, c)
            || format('where %s < %s order by %s', c, lv, c)
            || format('where %s > %s order by %s desc', c, lv, c);
    END LOOP;
    -- two probes
    FOR i IN 1 .. coalesce(array_length(probes, 1), 0) - 1 LOOP
        v := bp_literal(probes[i], typ);
        w := bp_literal(probes[i + 1], typ);
        conds := conds
            || format('where %s between %s and %s', c, v, w)
            || format('where %s > %s and %s < %s', c, v, c, w);
        -- an empty range: lower bound above the upper bound
        IF i = 1 THEN
            conds := conds || format('where %s between %s and %s', c, w, v);
        END IF;
        ordered := ordered
            || format('where %s between %s and %s order by %s desc', c, v, w, c)
            || format('where %s > %s and %s < %s order by %s', c, v, c, w, c);
    END LOOP;

    FOREACH s IN ARRAY conds LOOP
        r := bp_run(label, format('select %s from %s %s', c, tab, s), s);
        RETURN QUERY SELECT replace(r.shape, '::' || typ, ''),
                            r.nrows, r.idx, r.ionly, r.bitmap;
    END LOOP;
    -- bitmap only: = any(array), which a bitmap index scan expands itself
    IF array_length(probes, 1) > 0 AND category <> 'A' THEN
        s := format('where %s = any(%L::%s[])', c, probes, typ);
        r := bp_run(label, format('select %s from %s %s', c, tab, s),
                    format('where %s = any(<all probes>)', c), ARRAY['bitmap']);
        RETURN QUERY SELECT r.shape, r.nrows, r.idx, r.ionly, r.bitmap;
    END IF;
    FOREACH s IN ARRAY ordered LOOP
        r := bp_run(label, format('select %s from %s %s', c, tab, s), s, ord);
        RETURN QUERY SELECT replace(r.shape, '::' || typ, ''),
                            r.nrows, r.idx, r.ionly, r.bitmap;
    END LOOP;
END
$$;

-- par_settings(): plans that run a bpindex index scan in parallel, for
-- the current transaction: no sequential or bitmap scans, free workers, and
-- per-row work dominating, so that sharing it wins over a Gather Merge
CREATE OR REPLACE FUNCTION par_settings() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    PERFORM set_config('parallel_setup_cost', '0', true);
    PERFORM set_config('parallel_tuple_cost', '0', true);
    PERFORM set_config('min_parallel_index_scan_size', '0', true);
    PERFORM set_config('max_parallel_workers_per_gather', '2', true);
    PERFORM set_config('parallel_leader_participation', 'on', true);
    PERFORM set_config('cpu_tuple_cost', '1', true);
    PERFORM set_config('cpu_index_tuple_cost', '1', true);
END
$$;

-- bp_explain_count(query, pattern): the sum of the numbers that pattern
-- captures in the first line of EXPLAIN (ANALYZE, BUFFERS) of query that
-- it matches (0 for groups that match nothing), NULL where no line does
CREATE OR REPLACE FUNCTION bp_explain_count(query text, pattern text) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    m text[];
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        m := regexp_match(line, pattern);
        IF m IS NOT NULL THEN
            RETURN (SELECT coalesce(sum(n::int), 0) FROM unnest(m) n);
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

-- bp_index_searches(query): the Index Searches that EXPLAIN ANALYZE
-- reports for query's index scan (PostgreSQL 18), NULL where it reports
-- none
CREATE OR REPLACE FUNCTION bp_index_searches(query text) RETURNS int
LANGUAGE sql AS $$
    SELECT bp_explain_count(query, 'Index Searches: (\d+)')
$$;

-- bp_scan_buffers(query): the shared buffers (hit and read) that EXPLAIN
-- ANALYZE reports for query's top plan node
CREATE OR REPLACE FUNCTION bp_scan_buffers(query text) RETURNS int
LANGUAGE sql AS $$
    SELECT bp_explain_count(query, 'Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?')
$$;

-- par_run(query, ordered): the query through a parallel bpindex scan (the
-- plan must show it under a Gather or Gather Merge, and workers must have
-- been launched) against the same query through a sequential scan without
-- workers; ordered compares the sequence of rows, else their multiset
CREATE OR REPLACE FUNCTION par_run(query text, ordered boolean DEFAULT false)
RETURNS TABLE (nrows bigint, parallel_plan boolean, workers_launched boolean,
               same_as_seqscan boolean)
LANGUAGE plpgsql AS $$
DECLARE
    wrapper text := CASE WHEN ordered
        THEN format('select count(*), string_agg(to_jsonb(x)::text, '' '') from (%s) x', query)
        ELSE format('select count(*), string_agg(x::text, '' '' order by x::text) from (%s) x', query) END;
    plan text := '';
    line text;
    n_par bigint;
    s_par text;
    n_seq bigint;
    s_seq text;
BEGIN
    PERFORM par_settings();
    FOR line IN EXECUTE 'explain (analyze, costs off, timing off, summary off) ' || query LOOP
        plan := plan || line || E'\n';
    END LOOP;
    EXECUTE wrapper INTO n_par, s_par;
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    PERFORM set_config('enable_indexonlyscan', 'off', true);
    PERFORM set_config('max_parallel_workers_per_gather', '0', true);
    EXECUTE wrapper INTO n_seq, s_seq;
    nrows := n_seq;
    parallel_plan := plan ~ 'Gather' AND EXISTS (
        SELECT FROM regexp_matches(plan, 'Parallel Index (?:Only )?Scan (?:Backward )?using (\S+) on ', 'g') m
        JOIN pg_class c ON c.relname = m[1] JOIN pg_am a ON a.oid = c.relam
        WHERE a.amname = 'bpindex');
    workers_launched := (regexp_match(plan, 'Workers Launched: (\d+)'))[1]::int > 0;
    same_as_seqscan := n_par = n_seq AND s_par IS NOT DISTINCT FROM s_seq;
    IF NOT (parallel_plan AND workers_launched AND same_as_seqscan) THEN
        RAISE NOTICE 'par_run: %', query USING DETAIL = plan;
    END IF;
    RETURN NEXT;
END
$$;

-- bp_page_entries(idx): every item of every page of an index but the
-- metapage
CREATE OR REPLACE FUNCTION bp_page_entries(idx regclass)
RETURNS TABLE (blkno bigint, itemno int, region text, block int, key text, ctid tid)
LANGUAGE sql AS $$
    SELECT b, p.itemno, p.region, p.block, p.key, p.ctid
    FROM generate_series(1, pg_relation_size(idx) / 8192 - 1) b,
         LATERAL bpindex_page_items(idx, b) p
$$;
-- bp_same_pages(a, b): do two indexes hold the same items on the same pages?
CREATE OR REPLACE FUNCTION bp_same_pages(a regclass, b regclass) RETURNS boolean
LANGUAGE sql AS $$
    SELECT pg_relation_size(a) = pg_relation_size(b) AND
           NOT EXISTS (SELECT * FROM bp_page_entries(a) EXCEPT ALL SELECT * FROM bp_page_entries(b)) AND
           NOT EXISTS (SELECT * FROM bp_page_entries(b) EXCEPT ALL SELECT * FROM bp_page_entries(a))
$$;

-- Failures recorded under labels matching a pattern
CREATE OR REPLACE FUNCTION bp_failures(pattern text)
RETURNS TABLE (checks bigint, failures bigint)
LANGUAGE sql AS $$
    SELECT count(*), count(*) FILTER (WHERE NOT ok)
    FROM bp_results WHERE label LIKE pattern
$$;

--
-- bp_fill_target(idx): the share of a leaf's block capacity that a build
-- fills: fillfactor percent of it, rounded down to whole entries
CREATE OR REPLACE FUNCTION bp_fill_target(idx regclass) RETURNS float8
LANGUAGE sql AS $$
    SELECT (leaf_capacity * fillfactor / 100) / leaf_capacity::float8
    FROM bpindex_metap(idx)
$$;

-- bp_wait_for_horizon(timeout): wait until no other session can still see
-- the rows that transactions committed before the call deleted or updated,
-- so that a VACUUM run next removes them (and their index entries).  A
-- transaction still running with an older xid (in any database) or an
-- older snapshot (in this database) holds them back; on a shared server
-- that is often another test run.  Returns false after timeout.
--
CREATE OR REPLACE FUNCTION bp_wait_for_horizon(timeout interval DEFAULT '120 s')
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    horizon bigint := pg_snapshot_xmax(pg_current_snapshot())::text::bigint;
    deadline timestamptz := clock_timestamp() + timeout;
BEGIN
    LOOP
        PERFORM pg_stat_clear_snapshot();
        IF NOT EXISTS (
                SELECT FROM pg_stat_activity
                WHERE pid <> pg_backend_pid()
                  AND (backend_xid::text::bigint < horizon
                       OR (datname = current_database()
                           AND backend_xmin::text::bigint < horizon))) THEN
            RETURN true;
        END IF;
        IF clock_timestamp() > deadline THEN
            RETURN false;
        END IF;
        PERFORM pg_sleep(0.01);
    END LOOP;
END
$$;

--
-- bp_lossy_check(query, index_prefix, mode): query through an index scan
-- (mode 'index', plain or index-only) or a bitmap scan (mode 'bitmap') of an
-- index whose name starts with index_prefix, with an index condition (a
-- Filter may stay: a LIKE beside the bounds its prefix implies), and with
-- no index at all: the same rows (in any order)
--
CREATE OR REPLACE FUNCTION bp_lossy_check(query text, index_prefix text,
                                          mode text DEFAULT 'index')
RETURNS TABLE (query_text text, nrows bigint, via_index text)
LANGUAGE plpgsql
SET max_parallel_workers_per_gather = 0
AS $$
DECLARE
    wrapper text := format('select count(*), string_agg(to_jsonb(x)::text, '' '' order by to_jsonb(x)::text) from (%s) x', query);
    plan text := '';
    line text;
    n_idx bigint;
    s_idx text;
    n_seq bigint;
    s_seq text;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', (mode = 'bitmap')::text, true);
    PERFORM set_config('enable_indexscan', (mode <> 'bitmap')::text, true);
    PERFORM set_config('enable_indexonlyscan', (mode <> 'bitmap')::text, true);
    FOR line IN EXECUTE 'explain (costs off) ' || wrapper LOOP
        plan := plan || line || E'\n';
    END LOOP;
    EXECUTE wrapper INTO n_idx, s_idx;
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    PERFORM set_config('enable_indexonlyscan', 'off', true);
    EXECUTE wrapper INTO n_seq, s_seq;
    PERFORM set_config('enable_indexscan', 'on', true);
    PERFORM set_config('enable_indexonlyscan', 'on', true);
    query_text := query;
    nrows := n_seq;
    via_index := CASE
        WHEN plan !~ (CASE WHEN mode = 'bitmap' THEN 'Bitmap Index Scan on '
                           ELSE 'Index (Only )?Scan (Backward )?using ' END || index_prefix)
             OR plan !~ 'Index Cond: '
            THEN 'unexpected plan: ' || plan
        WHEN (n_idx, s_idx) IS DISTINCT FROM (n_seq, s_seq) THEN 'different rows'
        ELSE 'ok' END;
    RETURN NEXT;
END $$;

RESET client_min_messages;

--
-- bp_cursor(query, steps, mode): open query as a SCROLL cursor twice, once
-- through a bpindex scan (mode 'index' or 'indexonly') and once through a
-- sequential scan and sort, apply the same steps to both and return, per
-- step, the row each cursor is on (or "-" when it is off either end) and
-- whether they agree.  Steps: next, prior, first, last, absolute N,
-- relative N, forward N and backward N (MOVE, then report the row by
-- FETCH RELATIVE 0).  The first row reports the cursor plan of the
-- bpindex cursor: its scan node and whether a Sort or Materialize was
-- needed (a SCROLL cursor over a node that cannot run backward gets one).
--
CREATE OR REPLACE FUNCTION bp_cursor(query text, steps text[], mode text)
RETURNS TABLE (n int, step text, via_index text, via_seqscan text, same boolean)
LANGUAGE plpgsql
SET enable_seqscan = on
SET enable_indexscan = on
SET enable_indexonlyscan = on
SET enable_bitmapscan = on
SET enable_sort = on
SET max_parallel_workers_per_gather = 0
SET jit = off
AS $$
DECLARE
    c1 refcursor;
    c2 refcursor;
    r1 text;
    r2 text;
    verb text;
    cnt int;
    line text;
    plan text := '';
    i int := 0;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    PERFORM set_config('enable_sort', 'off', true);
    PERFORM set_config('enable_indexonlyscan', CASE WHEN mode = 'indexonly' THEN 'on' ELSE 'off' END, true);
    FOR line IN EXECUTE format('explain (costs off) declare c scroll cursor for select x::text from (%s) x', query) LOOP
        plan := plan || line || E'\n';
    END LOOP;
    OPEN c1 SCROLL FOR EXECUTE format('select x::text from (%s) x', query);
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    PERFORM set_config('enable_indexonlyscan', 'off', true);
    PERFORM set_config('enable_sort', 'on', true);
    OPEN c2 SCROLL FOR EXECUTE format('select x::text from (%s) x', query);

    n := 0;
    step := 'plan';
    via_index := coalesce(substring(plan from '(Index (?:Only )?Scan(?: Backward)? using \S+)'), 'NO INDEX SCAN');
    via_seqscan := CASE WHEN plan ~ '(Sort|Materialize)' THEN 'sorts or materializes'
                        ELSE 'no sort, no materialize' END;
    same := NULL;
    RETURN NEXT;

    FOREACH step IN ARRAY steps LOOP
        i := i + 1;
        verb := split_part(step, ' ', 1);
        cnt := nullif(split_part(step, ' ', 2), '')::int;
        r1 := NULL;
        r2 := NULL;
        CASE verb
            WHEN 'next' THEN
                FETCH NEXT FROM c1 INTO r1;
                FETCH NEXT FROM c2 INTO r2;
            WHEN 'prior' THEN
                FETCH PRIOR FROM c1 INTO r1;
                FETCH PRIOR FROM c2 INTO r2;
            WHEN 'first' THEN
                FETCH FIRST FROM c1 INTO r1;
                FETCH FIRST FROM c2 INTO r2;
            WHEN 'last' THEN
                FETCH LAST FROM c1 INTO r1;
                FETCH LAST FROM c2 INTO r2;
            WHEN 'absolute' THEN
                FETCH ABSOLUTE cnt FROM c1 INTO r1;
                FETCH ABSOLUTE cnt FROM c2 INTO r2;
            WHEN 'relative' THEN
                FETCH RELATIVE cnt FROM c1 INTO r1;
                FETCH RELATIVE cnt FROM c2 INTO r2;
            WHEN 'forward' THEN
                MOVE FORWARD cnt FROM c1;
                MOVE FORWARD cnt FROM c2;
                FETCH RELATIVE 0 FROM c1 INTO r1;
                FETCH RELATIVE 0 FROM c2 INTO r2;
            WHEN 'backward' THEN
                MOVE BACKWARD cnt FROM c1;
                MOVE BACKWARD cnt FROM c2;
                FETCH RELATIVE 0 FROM c1 INTO r1;
                FETCH RELATIVE 0 FROM c2 INTO r2;
        END CASE;
        n := i;
        via_index := coalesce(r1, '-');
        via_seqscan := coalesce(r2, '-');
        same := r1 IS NOT DISTINCT FROM r2;
        RETURN NEXT;
    END LOOP;
    CLOSE c1;
    CLOSE c2;
END
$$;
