--
-- 15_build: CREATE INDEX on one integer-like column sorts (key, heap TID)
-- pairs in memory, on one column of another type (or DESC, or NULLS FIRST)
-- (sort key, value, TID) triples through the column's sort support, and
-- hands either to a tuplesort once they would outgrow maintenance_work_mem;
-- indexes of several columns always use the tuplesort.  Either way the
-- index holds every row, by key and then heap TID.  DEBUG1 messages say
-- which sort ran; a serial build, since parallel ones always use the
-- tuplesort.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SET max_parallel_maintenance_workers = 0;
CREATE TABLE t_build (i2 int2, i4 int4, i8 int8, o oid, b bool, d date,
                      ts timestamp, i4b int4, tc text COLLATE "C", n numeric,
                      f float8, u uuid)
WITH (autovacuum_enabled = off);
-- 120,000 rows in a shuffled heap order: many duplicates, NULLs, and the
-- extremes of each type (int8's largest value must still sort before NULL)
INSERT INTO t_build
SELECT CASE WHEN g % 97 = 0 THEN NULL ELSE (g % 5003 - 2501)::int2 END,
       CASE WHEN g % 89 = 0 THEN NULL ELSE (g % 40009 - 20004) * 53681 END,
       CASE WHEN g % 83 = 0 THEN NULL
            WHEN g % 1000 = 1 THEN 9223372036854775807
            WHEN g % 1000 = 2 THEN -9223372036854775808
            ELSE (g % 60013 - 30006) * 153700000000007 END,
       CASE WHEN g % 79 = 0 THEN NULL ELSE (g::int8 * 2654435761 % 4294967296)::oid END,
       CASE WHEN g % 73 = 0 THEN NULL ELSE g % 3 = 0 END,
       CASE WHEN g % 71 = 0 THEN NULL ELSE date '2000-01-01' + (g % 9001 - 4500) END,
       CASE WHEN g % 67 = 0 THEN NULL
            ELSE timestamp '2000-01-01' + (g % 70001 - 35000) * interval '37 minutes' END,
       g % 1009,
       CASE WHEN g % 61 = 0 THEN NULL
            WHEN g % 3 = 0 THEN repeat('shared/prefix/', 4) || (g % 7001)
            ELSE substr(md5((g % 30011)::text), 1, 1 + g % 9) END,
       CASE WHEN g % 59 = 0 THEN NULL WHEN g % 1000 = 3 THEN 'NaN'
            ELSE round((g % 20011 - 10005)::numeric / 7, 1 + g % 3) END,
       CASE WHEN g % 53 = 0 THEN NULL WHEN g % 1000 = 4 THEN '-Infinity'
            ELSE (g % 9001) * 0.25 END,
       CASE WHEN g % 47 = 0 THEN NULL ELSE md5((g % 40009)::text)::uuid END
FROM generate_series(1, 120000) g
ORDER BY hashint4(g);
SELECT count(*), min(o), max(o), max(i8), min(i8) FROM t_build;

-- Does an ordered index scan of col return the rows in the order of a
-- sort by (col NULLS LAST, ctid)?  The plan must be an Index Scan on idx.
CREATE FUNCTION build_order_matches(idx text, cols text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    plan text;
    via_index tid[];
    via_sort tid[];
BEGIN
    SET LOCAL enable_seqscan = off;
    SET LOCAL enable_bitmapscan = off;
    SET LOCAL enable_sort = off;
    EXECUTE format('EXPLAIN (COSTS OFF) SELECT ctid FROM t_build ORDER BY %s', cols) INTO plan;
    IF plan NOT LIKE 'Index Scan using ' || idx || ' %' THEN
        RAISE EXCEPTION 'expected an Index Scan using %, got %', idx, plan;
    END IF;
    EXECUTE format('SELECT array_agg(ctid) FROM (SELECT ctid FROM t_build ORDER BY %s) s', cols)
        INTO via_index;
    SET LOCAL enable_seqscan = on;
    SET LOCAL enable_indexscan = off;
    SET LOCAL enable_sort = on;
    EXECUTE format('SELECT array_agg(ctid ORDER BY %s, ctid) FROM t_build', cols) INTO via_sort;
    RETURN via_index = via_sort AND cardinality(via_index) = 120000;
END $$;

-- the DEBUG messages below are the build's; a growing catalog cache says
-- so too ("rehashing catalog cache"), depending on what the session looked
-- up before: looking up every operator class first grows it past them
SELECT bool_and(amvalidate(oid)) AS opclasses_valid FROM pg_opclass
WHERE opcmethod IN (SELECT oid FROM pg_am WHERE amname IN ('btree', 'bpindex'));
-- in memory (the default maintenance_work_mem holds the entries)
SET client_min_messages = debug1;
CREATE INDEX t_build_i2 ON t_build USING bpindex (i2);
CREATE INDEX t_build_i4 ON t_build USING bpindex (i4);
CREATE INDEX t_build_i8 ON t_build USING bpindex (i8);
CREATE INDEX t_build_o ON t_build USING bpindex (o);
CREATE INDEX t_build_b ON t_build USING bpindex (b);
CREATE INDEX t_build_d ON t_build USING bpindex (d);
CREATE INDEX t_build_ts ON t_build USING bpindex (ts);
-- other types and orders: values, with abbreviated keys where the type has them
CREATE INDEX t_build_tc ON t_build USING bpindex (tc);
CREATE INDEX t_build_n ON t_build USING bpindex (n);
CREATE INDEX t_build_f ON t_build USING bpindex (f);
CREATE INDEX t_build_u ON t_build USING bpindex (u);
CREATE INDEX t_build_i4_desc ON t_build USING bpindex (i4 DESC NULLS LAST);
CREATE INDEX t_build_tc_first ON t_build USING bpindex (tc NULLS FIRST);
CREATE INDEX t_build_n_desc ON t_build USING bpindex (n DESC NULLS LAST);
-- two columns: always the tuplesort
CREATE INDEX t_build_two ON t_build USING bpindex (i4b, i2);
RESET client_min_messages;
SELECT c.relname, build_order_matches(c.relname, cols) AS order_ok,
       (SELECT true FROM bpindex_check(c.oid, true)) AS check_ok,
       (SELECT entries FROM bpindex_stats(c.oid)) AS entries
FROM (VALUES ('t_build_i2', 'i2'), ('t_build_i4', 'i4'), ('t_build_i8', 'i8'),
             ('t_build_o', 'o'), ('t_build_b', 'b'), ('t_build_d', 'd'),
             ('t_build_ts', 'ts'), ('t_build_two', 'i4b, i2'),
             ('t_build_tc', 'tc'), ('t_build_n', 'n'), ('t_build_f', 'f'),
             ('t_build_u', 'u'), ('t_build_i4_desc', 'i4 DESC NULLS LAST'), ('t_build_tc_first', 'tc NULLS FIRST'),
             ('t_build_n_desc', 'n DESC NULLS LAST')) v(name, cols)
JOIN pg_class c ON c.relname = v.name
ORDER BY 1;

-- with 1 MB of maintenance_work_mem (65,536 pairs, fewer values) the
-- entries collected so far move into a tuplesort; the index comes out the
-- same, page for page
SET maintenance_work_mem = '1MB';
SET client_min_messages = debug1;
CREATE INDEX t_build_i8_spilled ON t_build USING bpindex (i8);
CREATE INDEX t_build_o_spilled ON t_build USING bpindex (o);
CREATE INDEX t_build_tc_spilled ON t_build USING bpindex (tc);
CREATE INDEX t_build_u_spilled ON t_build USING bpindex (u);
CREATE INDEX t_build_n_desc_spilled ON t_build USING bpindex (n DESC NULLS LAST);
RESET client_min_messages;
RESET maintenance_work_mem;
SELECT c.relname, (SELECT true FROM bpindex_check(c.oid, true)) AS check_ok,
       (SELECT count(*) FROM bp_page_entries(c.oid) WHERE region IN ('log', 'block')) AS entries,
       bp_same_pages(c.oid, replace(c.relname, '_spilled', '')::regclass) AS same_pages
FROM pg_class c WHERE c.relname LIKE 't_build_%_spilled'
ORDER BY 1;

DROP TABLE t_build;
DROP FUNCTION build_order_matches(text, text);
RESET max_parallel_maintenance_workers;
