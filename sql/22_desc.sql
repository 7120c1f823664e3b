--
-- 22_desc: DESC and NULLS FIRST key columns.  Each key column keeps its
-- own direction and NULL placement, as in btree: the leaves hold the
-- entries in that order (packed leaves code a DESC integer-like column by
-- the complement of its image, and a NULLS FIRST column's NULL as code 0
-- before its values), ordered scans return that order forward and its
-- reverse backward, and an index mixing directions serves an ORDER BY in
-- its order without a sort.  Every query is compared with the same query
-- run without any index (bp_queries from 00_setup), in index, index-only
-- and bitmap scans; bp_check expects a backward scan exactly when the
-- query's first ORDER BY item runs against the index's first column.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SET max_parallel_workers_per_gather = 0;
CREATE TABLE dsc (a int4, b int8, f float8, t timestamptz, u uuid, c int4);
INSERT INTO dsc
SELECT CASE WHEN i % 23 = 0 THEN NULL ELSE i % 50 END,
       CASE WHEN i % 17 = 0 THEN NULL ELSE (i::int8 * 7919) % 100003 END,
       CASE WHEN i % 19 = 0 THEN NULL WHEN i % 31 = 0 THEN 'NaN'::float8
            ELSE (i % 997) / 7.0::float8 END,
       timestamptz '2025-01-01 00:00:00+00' + (i % 5000) * interval '1 min',
       CASE WHEN i % 29 = 0 THEN NULL ELSE md5((i % 3000)::text)::uuid END,
       i
FROM generate_series(1, 30000) i;
CREATE INDEX dsc_b_desc ON dsc USING bpindex (b DESC);
CREATE INDEX dsc_b_desc_nl ON dsc USING bpindex (b DESC NULLS LAST);
CREATE INDEX dsc_b_nf ON dsc USING bpindex (b NULLS FIRST);
CREATE INDEX dsc_a_b ON dsc USING bpindex (a, b DESC) INCLUDE (c);
CREATE INDEX dsc_bd_a ON dsc USING bpindex (b DESC, a) INCLUDE (c);
CREATE INDEX dsc_f_t ON dsc USING bpindex (f DESC NULLS LAST, t);
CREATE INDEX dsc_u ON dsc USING bpindex (u DESC);
SELECT bp_wait_for_horizon();
VACUUM ANALYZE dsc;
SELECT pg_get_indexdef(oid) FROM pg_class
WHERE relname LIKE 'dsc\_%' AND relkind = 'i' ORDER BY relname;

-- the column properties equal btree's for the same definitions
CREATE INDEX dsc_bt_a_b ON dsc USING btree (a, b DESC) INCLUDE (c);
CREATE INDEX dsc_bt_f_t ON dsc USING btree (f DESC NULLS LAST, t);
CREATE INDEX dsc_bt_b_nf ON dsc USING btree (b NULLS FIRST);
SELECT bp.idx, c, p, pg_index_column_has_property(bp.idx, c, p) AS bpindex
FROM (VALUES ('dsc_a_b'::regclass, 'dsc_bt_a_b'::regclass),
             ('dsc_f_t', 'dsc_bt_f_t'), ('dsc_b_nf', 'dsc_bt_b_nf')) bp(idx, bt),
     generate_series(1, 2) c,
     unnest(ARRAY['asc', 'desc', 'nulls_first', 'nulls_last', 'orderable']) p
WHERE pg_index_column_has_property(bp.idx, c, p) IS DISTINCT FROM
      pg_index_column_has_property(bp.bt, c, p)
   OR (c = 1 AND p IN ('desc', 'nulls_first'))
ORDER BY 1, 2, 3;
DROP INDEX dsc_bt_a_b, dsc_bt_f_t, dsc_bt_b_nf;

-- how the leaves store them: integer-like and float columns packed, uuid
-- (compared bytewise) plain
SELECT relname, array_agg(DISTINCT encoding) AS encodings
FROM pg_class c, LATERAL bpindex_leaves(c.oid) l
WHERE relname LIKE 'dsc\_%' AND relkind = 'i' GROUP BY 1 ORDER BY 1;
SELECT bpindex_check(oid, true) FROM pg_class
WHERE relname LIKE 'dsc\_%' AND relkind = 'i' ORDER BY relname;

-- an ORDER BY in the index's order, or in its reverse, needs no sort
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT a, b, c FROM dsc WHERE a < 10 ORDER BY a, b DESC;
EXPLAIN (COSTS OFF) SELECT a, b, c FROM dsc WHERE a < 10 ORDER BY a DESC, b;
EXPLAIN (COSTS OFF) SELECT b FROM dsc ORDER BY b DESC NULLS LAST LIMIT 5;
EXPLAIN (COSTS OFF) SELECT f, t FROM dsc ORDER BY f DESC NULLS LAST, t LIMIT 5;
RESET enable_seqscan;
RESET enable_bitmapscan;

\set dsc_queries 'ARRAY[''select b from dsc where b > 50000 order by b desc'', ''select b from dsc where b < 1000 order by b'', ''select b from dsc order by b desc limit 50'', ''select b from dsc order by b nulls first limit 50'', ''select b from dsc order by b desc nulls last limit 50'', ''select b from dsc order by b limit 50'', ''select b, c from dsc where b is null'', ''select count(*) from dsc where b is not null'', ''select b from dsc where b between 3000 and 3300 order by b desc'', ''select b from dsc where b in (7919, 15838, 500, 99999, 3, 15838) order by b desc'', ''select b from dsc where b in (7919, 15838, 500, 99999, 3) order by b'', ''select a, b, c from dsc where a = 7 and b is not null order by a, b desc'', ''select a, b from dsc where a between 3 and 5 and b is not null order by a desc, b'', ''select a, b, c from dsc where a in (4, 9, 2) and b is not null order by a, b desc'', ''select a, b, c from dsc where a = 11 and b < 40000 order by a, b desc'', ''select a, b, c from dsc where a = 11 and b in (8, 56, 7919, 77000) order by b desc'', ''select a, b, c from dsc where a is null and b is not null order by a, b desc'', ''select f, t from dsc where f > 100 order by f desc nulls last, t'', ''select f, t from dsc where f is null'', ''select f, t from dsc where f = ''''NaN'''' order by f desc nulls last, t'', ''select u from dsc where u > ''''80000000-0000-0000-0000-000000000000'''' order by u desc'', ''select u from dsc where u is null'']'
SELECT * FROM bp_queries('desc', :dsc_queries);

-- inserts (leaf splits and re-encodes), deletes and VACUUM keep the order
INSERT INTO dsc
SELECT CASE WHEN i % 13 = 0 THEN NULL ELSE i % 60 END,
       CASE WHEN i % 11 = 0 THEN NULL ELSE (i::int8 * 104729) % 1000003 - 500000 END,
       CASE WHEN i % 7 = 0 THEN NULL ELSE i * -1.5 END,
       timestamptz '2024-06-01 00:00:00+00' - i * interval '1 s',
       md5((-i)::text)::uuid, -i
FROM generate_series(1, 30000) i;
DELETE FROM dsc WHERE c % 5 = 0;
SELECT bp_wait_for_horizon();
VACUUM ANALYZE dsc;
SELECT bpindex_check(oid, true) FROM pg_class
WHERE relname LIKE 'dsc\_%' AND relkind = 'i' ORDER BY relname;
SELECT * FROM bp_queries('desc after writes', :dsc_queries);

-- array keys on the DESC column of an INCLUDE index, in a parallel
-- index-only scan, forward and backward
\set b_list '(SELECT string_agg(((g * 7919) % 100003)::text, \', \') FROM generate_series(1, 600) g)'
SELECT * FROM par_run(format('select b, a from dsc where b in (%s) order by b desc, a', :b_list), true);
SELECT * FROM par_run(format('select b, a from dsc where b in (%s) order by b, a desc', :b_list), true);
SELECT * FROM par_run(format('select b, a, c from dsc where b in (%s)', :b_list));
SELECT * FROM par_run('select b, a from dsc where b > -400000 order by b desc, a', true);

SELECT * FROM bp_failures('desc%');
DROP TABLE dsc;
