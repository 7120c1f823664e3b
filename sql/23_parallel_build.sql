--
-- 23_parallel_build: CREATE INDEX with parallel workers.  Workers scan
-- parts of the heap and sort their entries; the leader merges the runs
-- and fills the leaves as a serial build does, so a parallel build must
-- give page for page the same index as a serial one.  The number of
-- workers comes from max_parallel_maintenance_workers and the table's
-- parallel_workers, as for btree; a DEBUG1 message says how many started.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE pb (k int8, a int4, t timestamptz, c int4)
WITH (parallel_workers = 2, autovacuum_enabled = off);
INSERT INTO pb
SELECT CASE WHEN g % 101 = 0 THEN NULL ELSE (g::int8 * 7919) % 1000003 END,
       CASE WHEN g % 97 = 0 THEN NULL ELSE g % 300 END,
       timestamptz '2025-01-01 00:00:00+00' + (g % 50000) * interval '1 s',
       g
FROM generate_series(1, 300000) g;

SET maintenance_work_mem = '256MB';
SET max_parallel_maintenance_workers = 0;
CREATE INDEX pb_k_serial ON pb USING bpindex (k);
CREATE INDEX pb_at_serial ON pb USING bpindex (a, t DESC) INCLUDE (c);

SET max_parallel_maintenance_workers = 2;
SET client_min_messages = debug1;
CREATE INDEX pb_k_par ON pb USING bpindex (k);
CREATE INDEX pb_at_par ON pb USING bpindex (a, t DESC) INCLUDE (c);
SET parallel_leader_participation = off;
CREATE INDEX pb_k_noleader ON pb USING bpindex (k);
RESET parallel_leader_participation;
CREATE INDEX CONCURRENTLY pb_k_conc ON pb USING bpindex (k);
RESET client_min_messages;

SELECT bp_same_pages('pb_k_serial', 'pb_k_par') AS k_par,
       bp_same_pages('pb_at_serial', 'pb_at_par') AS at_par,
       bp_same_pages('pb_k_serial', 'pb_k_noleader') AS k_noleader,
       bp_same_pages('pb_k_serial', 'pb_k_conc') AS k_conc;
SELECT relname, (SELECT true FROM bpindex_check(oid, true)) AS check_ok,
       (SELECT entries FROM bpindex_stats(oid)) AS entries
FROM pg_class WHERE relname LIKE 'pb\_%' AND relkind = 'i' ORDER BY relname;

-- REINDEX in parallel, and a build in the transaction that filled the table
SET client_min_messages = debug1;
REINDEX INDEX pb_at_par;
BEGIN;
CREATE TABLE pb2 (k int4) WITH (parallel_workers = 2);
INSERT INTO pb2 SELECT (g * 31) % 100000 FROM generate_series(1, 200000) g;
CREATE INDEX pb2_k ON pb2 USING bpindex (k);
COMMIT;
RESET client_min_messages;
SELECT bp_same_pages('pb_at_serial', 'pb_at_par') AS at_reindexed;
SELECT * FROM bp_queries('parallel build', ARRAY[
    'select k from pb where k between 1000 and 5000 order by k',
    'select a, t from pb where a = 42 order by a, t desc',
    'select a, t, c from pb where a = 42',
    'select k from pb2 where k < 100 order by k'
]);
SELECT * FROM bp_failures('parallel build%');
DROP TABLE pb, pb2;
