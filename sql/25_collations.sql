--
-- 25_collations: text keys under an ICU collation (the operator class
-- compares them, never a stored sort key), and a nondeterministic
-- collation, which bpindex refuses.  A server built without ICU skips both
-- (expected/25_collations_1.out).
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SELECT EXISTS (SELECT FROM pg_collation WHERE collname = 'und-x-icu') AS have_icu \gset
\if :have_icu
-- ICU's root order: case and accents second to letters, unlike "C"
CREATE TABLE t_icu (k text COLLATE "und-x-icu");
INSERT INTO t_icu
SELECT CASE WHEN i % 19 = 0 THEN NULL
            WHEN i % 4 = 0 THEN upper(substr(md5(i::text), 1, 3 + i % 9))
            WHEN i % 4 = 1 THEN 'é' || substr(md5(i::text), 1, 2 + i % 7)
            WHEN i % 4 = 2 THEN 'e' || substr(md5(i::text), 1, 2 + i % 7)
            ELSE substr(md5(i::text), 1, 3 + i % 9) END
FROM generate_series(1, 8000) i;
VACUUM ANALYZE t_icu;
CREATE INDEX t_icu_bp ON t_icu USING bpindex (k);
SELECT bpindex_check('t_icu_bp', true);
SELECT * FROM bp_matrix('icu', 't_icu', 'k', ARRAY['0', 'A', 'a1', 'e', 'é', 'F', 'zz']);
SELECT * FROM bp_failures('icu');
-- CREATE INDEX sorts ICU keys in memory with the collation's abbreviated
-- keys, or in a tuplesort once they outgrow maintenance_work_mem: the same
-- pages either way, in the order of a sort by (k, ctid)
CREATE TABLE t_icu_build (k text COLLATE "und-x-icu");
INSERT INTO t_icu_build
SELECT CASE WHEN i % 23 = 0 THEN NULL
            WHEN i % 3 = 0 THEN 'Été-' || (i % 997)
            WHEN i % 3 = 1 THEN 'ete-' || (i % 991)
            ELSE substr(md5((i % 20011)::text), 1, 2 + i % 11) END
FROM generate_series(1, 60000) i
ORDER BY hashint4(i);
SET max_parallel_maintenance_workers = 0;
SET client_min_messages = debug1;
CREATE INDEX t_icu_build_memory ON t_icu_build USING bpindex (k);
SET maintenance_work_mem = '1MB';
CREATE INDEX t_icu_build_spilled ON t_icu_build USING bpindex (k);
RESET maintenance_work_mem;
RESET client_min_messages;
RESET max_parallel_maintenance_workers;
SELECT bp_same_pages('t_icu_build_memory', 't_icu_build_spilled') AS same_pages,
       (SELECT true FROM bpindex_check('t_icu_build_memory', true)) AS check_ok;
DROP INDEX t_icu_build_spilled;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT ctid FROM t_icu_build ORDER BY k;
CREATE TEMP TABLE t_icu_by_index AS
SELECT row_number() OVER () AS n, tid
FROM (SELECT ctid AS tid FROM t_icu_build ORDER BY k) s;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE i.tid IS DISTINCT FROM s.tid) AS out_of_order
FROM (SELECT row_number() OVER (ORDER BY k, ctid) AS n, ctid AS tid
      FROM t_icu_build) s
FULL JOIN t_icu_by_index i USING (n);
RESET enable_indexscan;
RESET enable_indexonlyscan;
DROP TABLE t_icu_build, t_icu_by_index;
-- a nondeterministic collation is refused, naming the column and collation
CREATE COLLATION bp_case_insensitive (provider = icu, locale = 'und-u-ks-level2',
                                      deterministic = false);
CREATE TABLE t_nd (k text COLLATE bp_case_insensitive);
CREATE INDEX t_nd_bp ON t_nd USING bpindex (k);
DROP TABLE t_nd;
DROP COLLATION bp_case_insensitive;
\else
SELECT 'ICU is not available: skipped' AS note;
\endif
