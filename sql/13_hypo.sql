--
-- 13_hypo: hypothetical bpindex indexes, planned with and shown by plain
-- EXPLAIN but never built (33_hypopg: beside HypoPG's hypothetical btree
-- indexes).
--
-- hypo_explain() and the table t_hypo
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
\i sql/include/hypo_setup.sql

-- without any index: sequential scans
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE k8 = 4242');

-- a hypothetical bpindex index: nothing on disk, the planner uses it
SELECT indexrelid > 0 AS has_oid, regexp_replace(indexname, '<\d+>', '<oid>') AS indexname
FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k8)');
SELECT count(*) AS real_indexes FROM pg_index WHERE indrelid = 't_hypo'::regclass;
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname, schemaname, tablename, amname
FROM bpindex_hypo_list_indexes();

-- point query: Index Scan
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE k8 = 4242');
-- ordered range with LIMIT: Index Only Scan, no sort
SELECT * FROM hypo_explain('SELECT k8 FROM t_hypo WHERE k8 >= 5000 ORDER BY k8 LIMIT 10');
-- backward, with a heap column
SELECT * FROM hypo_explain('SELECT * FROM t_hypo ORDER BY k8 DESC LIMIT 10');
-- wide range: Bitmap Index Scan
SELECT * FROM hypo_explain('SELECT sum(payload) FROM t_hypo WHERE k8 BETWEEN 100000 AND 120000');
-- cross-type qual
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE k8 = 4242::int4');

-- the estimated size is within 10% of what a real build produces, for
-- int8 and int4 keys at default settings
SELECT indexrelid AS hypo8 FROM bpindex_hypo_list_indexes() \gset
SELECT indexrelid AS hypo4
FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k4)') \gset
CREATE INDEX t_hypo_real8 ON t_hypo USING bpindex (k8);
CREATE INDEX t_hypo_real4 ON t_hypo USING bpindex (k4);
SELECT key, abs(estimated - real) / real::float8 < 0.10 AS within_10_percent
FROM (VALUES ('int8', bpindex_hypo_relation_size(:hypo8), pg_relation_size('t_hypo_real8')),
             ('int4', bpindex_hypo_relation_size(:hypo4), pg_relation_size('t_hypo_real4')))
     AS sizes(key, estimated, real);
DROP INDEX t_hypo_real8, t_hypo_real4;
-- int4 entries are narrower than int8 ones, so its estimate is smaller
SELECT bpindex_hypo_relation_size(:hypo4) < bpindex_hypo_relation_size(:hypo8) AS int4_smaller;

-- dropping one
SELECT bpindex_hypo_drop_index(:hypo4);
SELECT bpindex_hypo_drop_index(:hypo4);
SELECT bpindex_hypo_relation_size(:hypo4) IS NULL AS gone;
SELECT count(*) FROM bpindex_hypo_list_indexes();

-- reset removes every hypothetical bpindex index
SELECT bpindex_hypo_reset();
SELECT count(*) FROM bpindex_hypo_list_indexes();
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE k8 = 4242');

-- a partial index with reloptions: used only where its predicate holds
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname
FROM bpindex_hypo_create_index('CREATE INDEX t_hypo_partial ON t_hypo USING bpindex (k8) WITH (fillfactor = 50) WHERE k8 < 100000');
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE k8 = 4242');
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE k8 = 424242');
SELECT indexrelid AS partial FROM bpindex_hypo_list_indexes() \gset
SELECT indexrelid AS full8
FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k8)') \gset
-- outside the planner the size estimate counts every row of the table,
-- so a lower fillfactor alone makes the partial index's estimate larger
SELECT bpindex_hypo_relation_size(:partial) > bpindex_hypo_relation_size(:full8) AS lower_fill_larger;
-- a multi-column hypothetical index serves equality plus ORDER BY
SELECT bpindex_hypo_reset();
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname
FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (j, k8)');
SELECT * FROM hypo_explain('SELECT j, k8 FROM t_hypo WHERE j = 17 ORDER BY k8 LIMIT 3');
SELECT bpindex_hypo_reset();

-- variable-length keys: the estimate comes from the columns' statistics
-- (average width, NULLs, distinct values: equal neighbours share a key),
-- within 15% of a real build, for unique emails, codes with duplicates,
-- long keys, and a key after a fixed-length column
CREATE TABLE t_hypo_text (email text, code text, path text COLLATE "C", tenant int8);
INSERT INTO t_hypo_text
SELECT format('user%s.%s@example%s.com', i, md5(i::text), i % 97),
       CASE WHEN i % 10 <> 0 THEN 'CODE-' || (i % 300) END,
       '/static/assets/images/products/' || md5(i::text) || repeat('/x', i % 40),
       i % 50
FROM generate_series(1, 30000) i;
ANALYZE t_hypo_text;
SELECT count(*) AS hypothetical_indexes
FROM unnest(ARRAY['email', 'code', 'path', 'tenant, email']) c,
     LATERAL bpindex_hypo_create_index(format('CREATE INDEX ON t_hypo_text USING bpindex (%s)', c));
SELECT format('CREATE INDEX t_hypo_text_real_%s ON t_hypo_text USING bpindex (%s)',
              replace(c, ', ', '_'), c)
FROM unnest(ARRAY['email', 'code', 'path', 'tenant, email']) c \gexec
SELECT c.col,
       abs(bpindex_hypo_relation_size(h.indexrelid) - pg_relation_size(c.real))
           / pg_relation_size(c.real)::float8 < 0.15 AS within_15_percent
FROM (VALUES ('email', 't_hypo_text_real_email'), ('code', 't_hypo_text_real_code'),
             ('path', 't_hypo_text_real_path'),
             ('tenant_email', 't_hypo_text_real_tenant_email')) AS c(col, real)
JOIN bpindex_hypo_list_indexes() h
  ON h.indexname ~ ('^<\d+>bpindex_t_hypo_text_' || c.col || '$')
ORDER BY c.col;
SELECT format('DROP INDEX %s', c) FROM unnest(ARRAY['t_hypo_text_real_email',
    't_hypo_text_real_code', 't_hypo_text_real_path', 't_hypo_text_real_tenant_email']) c \gexec
-- the planner uses them
SELECT * FROM hypo_explain($q$SELECT tenant FROM t_hypo_text WHERE email = 'user42.x@example42.com'$q$);
SELECT * FROM hypo_explain($q$SELECT path FROM t_hypo_text WHERE path > '/static/assets/images/products/f' ORDER BY path LIMIT 5$q$);
SELECT bpindex_hypo_reset();

-- DESC, NULLS FIRST and INCLUDE, as a real index takes them: a DESC
-- index serves ORDER BY DESC forward and ASC backward, the INCLUDE column
-- makes an index-only scan, and the estimate stays near a real build
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname
FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k8 DESC)');
SELECT * FROM hypo_explain('SELECT k8 FROM t_hypo WHERE k8 IS NOT NULL ORDER BY k8 DESC LIMIT 10');
SELECT * FROM hypo_explain('SELECT k8 FROM t_hypo WHERE k8 IS NOT NULL ORDER BY k8 LIMIT 10');
SELECT bpindex_hypo_reset();
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname
FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (j NULLS FIRST, k4 DESC NULLS LAST)');
SELECT * FROM hypo_explain('SELECT j, k4 FROM t_hypo ORDER BY j NULLS FIRST, k4 DESC NULLS LAST LIMIT 10');
SELECT * FROM hypo_explain('SELECT j, k4 FROM t_hypo ORDER BY j DESC NULLS LAST, k4 NULLS FIRST LIMIT 10');
SELECT bpindex_hypo_reset();
SELECT indexrelid AS hypo_incl
FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k8) INCLUDE (payload)') \gset
SELECT * FROM hypo_explain('SELECT k8, payload FROM t_hypo WHERE k8 BETWEEN 4000 AND 4100');
CREATE INDEX t_hypo_real_incl ON t_hypo USING bpindex (k8) INCLUDE (payload);
SELECT abs(bpindex_hypo_relation_size(:hypo_incl) - pg_relation_size('t_hypo_real_incl'))
       / pg_relation_size('t_hypo_real_incl')::float8 < 0.15 AS include_within_15_percent;
DROP INDEX t_hypo_real_incl;
SELECT bpindex_hypo_reset();

-- what a real bpindex index refuses, a hypothetical one refuses too
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING btree (k8)');
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex ((k8 + 1))');
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k8) WITH (fillfactor = 5)');
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (nosuchcolumn)');
SELECT * FROM bpindex_hypo_create_index('SELECT 1');
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON no_such_table USING bpindex (k8)');
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (ctid)');
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k8) WHERE random() > 0.5');
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON pg_class USING bpindex (oid)');
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k8) TABLESPACE no_such_tablespace');
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX hypo_bad ON t_hypo USING bpindex (k8) WITH (log_size = 1000, block_size = 1000)');
SELECT count(*) FROM bpindex_hypo_list_indexes();

-- hypothetical indexes exist for a plain EXPLAIN only: never for
-- EXPLAIN ANALYZE or execution, which would have to open them
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname
FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k8)');
SELECT * FROM hypo_explain('SELECT k8 FROM t_hypo WHERE k8 = 4242');
SELECT k8 FROM t_hypo WHERE k8 = 4242;
CREATE FUNCTION executed_plan(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        CONTINUE WHEN line ~ 'Index Searches';
        RETURN NEXT regexp_replace(line, ' \(actual.*\)', '');
    END LOOP;
END $$;
SELECT * FROM executed_plan('SELECT k8 FROM t_hypo WHERE k8 = 4242');
DROP FUNCTION executed_plan(text);
PREPARE hypo_prepared AS SELECT k8 FROM t_hypo WHERE k8 = 4242;
EXPLAIN (COSTS OFF) EXECUTE hypo_prepared;
EXECUTE hypo_prepared;
DEALLOCATE hypo_prepared;
-- a function that queries the table while EXPLAIN simplifies the query
CREATE FUNCTION hypo_lookup(int8) RETURNS int8 LANGUAGE sql IMMUTABLE
AS $$ SELECT k8 FROM t_hypo WHERE k8 = $1 $$;
EXPLAIN (COSTS OFF) SELECT hypo_lookup(4242);
DROP FUNCTION hypo_lookup(int8);

-- a hypothetical index disappears with its table, with its creating
-- transaction and with its column, as a real one would
BEGIN;
CREATE TABLE t_hypo_gone (k int4, j int4);
SELECT count(*) FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo_gone USING bpindex (k)');
ROLLBACK;
CREATE TABLE t_hypo_gone (k int4, j int4);
SELECT count(*) FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo_gone USING bpindex (j)');
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname, tablename
FROM bpindex_hypo_list_indexes() ORDER BY 1;
ALTER TABLE t_hypo_gone DROP COLUMN j;
EXPLAIN (COSTS OFF) SELECT * FROM t_hypo_gone WHERE k = 1;
SELECT * FROM t_hypo_gone WHERE k = 1;
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname, tablename
FROM bpindex_hypo_list_indexes() ORDER BY 1;
SELECT count(*) FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo_gone USING bpindex (k)');
DROP TABLE t_hypo_gone;
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname, tablename
FROM bpindex_hypo_list_indexes() ORDER BY 1;
SELECT bpindex_hypo_reset();

DROP TABLE t_hypo, t_hypo_text;
DROP FUNCTION hypo_explain(text);
