--
-- 10_check: bpindex_check(index regclass, heapallindexed boolean DEFAULT
-- false), which verifies the structure of a bpindex index and, with
-- heapallindexed, that every heap tuple visible to the current snapshot
-- has its entry.  It raises an ERROR on the first violation and returns
-- nothing otherwise.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- Every valid bpindex index the earlier files left in the database passes
-- both checks (the temporary ones of their sessions are gone)
CREATE FUNCTION check_all_bpindex(OUT indexes int, OUT failures text[])
LANGUAGE plpgsql AS $$
DECLARE
    idx regclass;
BEGIN
    indexes := 0;
    failures := '{}';
    FOR idx IN
        SELECT c.oid FROM pg_class c
            JOIN pg_am a ON a.oid = c.relam
            JOIN pg_index i ON i.indexrelid = c.oid
        WHERE a.amname = 'bpindex' AND c.relkind = 'i' AND i.indisvalid
        ORDER BY c.relname
    LOOP
        BEGIN
            PERFORM bpindex_check(idx);
            PERFORM bpindex_check(idx, heapallindexed => true);
        EXCEPTION WHEN OTHERS THEN
            failures := failures || format('%s: %s', idx, SQLERRM);
        END;
        indexes := indexes + 1;
    END LOOP;
END
$$;
SELECT indexes >= 28 AS at_least_those_of_09, failures FROM check_all_bpindex();
-- chk(index, heapallindexed): 'ok' where bpindex_check returns (void)
CREATE FUNCTION chk(idx regclass, heapallindexed boolean DEFAULT false)
RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bpindex_check(idx, heapallindexed);
    RETURN 'ok';
END
$$;
-- those of 09_inserts, by name
SELECT c.relname, chk(c.oid) AS structure, chk(c.oid, true) AS heapallindexed
FROM pg_class c JOIN pg_am a ON a.oid = c.relam
WHERE a.amname = 'bpindex' AND c.relkind = 'i' AND c.relname LIKE 't\_ins\_%'
ORDER BY c.relname;

-- The default is heapallindexed = false; named and positional arguments;
-- NULL arguments give NULL (the function is strict)
CREATE TABLE t_chk (k int4, v int4) WITH (fillfactor = 50, autovacuum_enabled = off);
CREATE INDEX t_chk_bp ON t_chk USING bpindex (k);
SELECT chk('t_chk_bp') AS empty_index;
INSERT INTO t_chk SELECT i * 7919 % 3000, i FROM generate_series(1, 3000) i;
SELECT bpindex_check('t_chk_bp');
SELECT bpindex_check('t_chk_bp', false);
SELECT bpindex_check('t_chk_bp', true);
SELECT bpindex_check(index => 't_chk_bp', heapallindexed => true);
SELECT bpindex_check(NULL) IS NULL AS null_index, bpindex_check('t_chk_bp', NULL) IS NULL AS null_flag;
SELECT pg_get_function_arguments('bpindex_check'::regproc),
       pg_get_function_result('bpindex_check'::regproc);

-- Rows the current transaction inserted are visible to its snapshot, so
-- heapallindexed looks for their entries; rows it deleted are not
BEGIN;
INSERT INTO t_chk SELECT i, -i FROM generate_series(3000, 4000) i;
DELETE FROM t_chk WHERE k < 100;
SELECT bpindex_check('t_chk_bp', true);
ROLLBACK;
-- the entries of the rolled-back rows stay in the index, pointing to dead
-- tuples: not a violation
SELECT bpindex_check('t_chk_bp', true);
SELECT entries FROM bpindex_stats('t_chk_bp');
-- HOT updates add no entry: the entry of the row points to the root of
-- its HOT chain, which heapallindexed follows
UPDATE t_chk SET v = -v WHERE k < 50;
SELECT entries FROM bpindex_stats('t_chk_bp');
SELECT bpindex_check('t_chk_bp', true);
VACUUM t_chk;
SELECT bpindex_check('t_chk_bp', true);
SELECT entries FROM bpindex_stats('t_chk_bp');

-- Anything but a valid bpindex index is refused with an error naming it
CREATE INDEX t_chk_bt ON t_chk USING btree (k);
SELECT bpindex_check('t_chk_bt');
SELECT bpindex_check('t_chk_bt', true);
SELECT bpindex_check('t_chk');
SELECT bpindex_check('t_chk', true);
CREATE SEQUENCE t_chk_seq;
SELECT bpindex_check('t_chk_seq');
CREATE VIEW t_chk_view AS SELECT * FROM t_chk;
SELECT bpindex_check('t_chk_view');
DROP VIEW t_chk_view;
DROP SEQUENCE t_chk_seq;
SELECT bpindex_check('no_such_index');
-- an index left invalid by a failed CREATE INDEX CONCURRENTLY
CREATE TABLE t_chk_invalid (k int4);
INSERT INTO t_chk_invalid VALUES (1), (5);
CREATE INDEX CONCURRENTLY t_chk_invalid_bp ON t_chk_invalid USING bpindex ((1 / (k - 5)));
SELECT indisvalid FROM pg_index WHERE indexrelid = 't_chk_invalid_bp'::regclass;
SELECT bpindex_check('t_chk_invalid_bp');
DROP TABLE t_chk_invalid;

--
-- Partitioned tables: the partitioned index has no storage and is refused;
-- each partition's index is an ordinary bpindex index
--
CREATE TABLE t_chk_part (k int4, r int4) PARTITION BY RANGE (r);
CREATE TABLE t_chk_part1 PARTITION OF t_chk_part FOR VALUES FROM (0) TO (1000);
CREATE TABLE t_chk_part2 PARTITION OF t_chk_part FOR VALUES FROM (1000) TO (2000);
CREATE INDEX t_chk_part_bp ON t_chk_part USING bpindex (k);
INSERT INTO t_chk_part SELECT i * 7919 % 500, i % 2000 FROM generate_series(1, 8000) i ORDER BY hashint4(i);
-- a partition attached with its rows gets its index built by ATTACH
CREATE TABLE t_chk_part3 (k int4, r int4);
INSERT INTO t_chk_part3 SELECT i % 300, 2000 + i % 1000 FROM generate_series(1, 3000) i;
ALTER TABLE t_chk_part ATTACH PARTITION t_chk_part3 FOR VALUES FROM (2000) TO (3000);
INSERT INTO t_chk_part SELECT i % 700, 2000 + i % 1000 FROM generate_series(1, 3000) i ORDER BY hashint4(i);
ANALYZE t_chk_part;
SELECT c.relname AS partition, i.relname AS index, i.relkind, x.levels, x.entries,
       (SELECT count(*) FROM t_chk_part p WHERE p.tableoid = c.oid) AS rows
FROM pg_inherits h
     JOIN pg_class c ON c.oid = h.inhrelid
     JOIN pg_index ix ON ix.indrelid = c.oid
     JOIN pg_class i ON i.oid = ix.indexrelid,
     LATERAL bpindex_stats(i.oid) x
WHERE h.inhparent = 't_chk_part'::regclass
ORDER BY 1;
SELECT i.relname, chk(i.oid) AS structure, chk(i.oid, true) AS heapallindexed
FROM pg_inherits h JOIN pg_class i ON i.oid = h.inhrelid
WHERE h.inhparent = 't_chk_part_bp'::regclass
ORDER BY 1;
SELECT relkind FROM pg_class WHERE relname = 't_chk_part_bp';
SELECT bpindex_check('t_chk_part_bp');
SELECT bpindex_check('t_chk_part');
-- queries through the partitioned table use the partitions' indexes
SELECT * FROM bp_queries('check partitions', ARRAY[
    'select k from t_chk_part where k = 17',
    'select k from t_chk_part where k between 290 and 310',
    'select k from t_chk_part where k < 3',
    'select k from t_chk_part order by k limit 10',
    'select k from t_chk_part where k > 600 order by k desc'
]);
SELECT * FROM bp_failures('check partitions');
-- a detached partition keeps its index
ALTER TABLE t_chk_part DETACH PARTITION t_chk_part2;
INSERT INTO t_chk_part2 SELECT i, 1500 FROM generate_series(1, 1000) i;
SELECT chk(indexrelid, true) AS detached_partition
FROM pg_index WHERE indrelid = 't_chk_part2'::regclass;
DROP TABLE t_chk_part, t_chk_part2;

--
-- heapallindexed finds heap tuples without an entry.  Such an index can
-- be made without corrupting a page: a partial index or an expression
-- index over a function declared IMMUTABLE that later changes its result
-- (not allowed in practice, but PostgreSQL cannot stop it).  The
-- structure check alone still passes.
--
CREATE FUNCTION chk_pred(int4) RETURNS boolean IMMUTABLE LANGUAGE plpgsql
AS $$ BEGIN RETURN $1 <> 13; END $$;
CREATE FUNCTION chk_expr(int4) RETURNS int4 IMMUTABLE LANGUAGE plpgsql
AS $$ BEGIN RETURN $1; END $$;
CREATE TABLE t_chk_lie (k int4);
INSERT INTO t_chk_lie SELECT generate_series(1, 1000);
CREATE INDEX t_chk_lie_pred ON t_chk_lie USING bpindex (k) WHERE chk_pred(k);
CREATE INDEX t_chk_lie_expr ON t_chk_lie USING bpindex (chk_expr(k));
INSERT INTO t_chk_lie SELECT generate_series(1001, 3000);
SELECT chk('t_chk_lie_pred', true) AS pred, chk('t_chk_lie_expr', true) AS expr;
-- the row k = 13, at (0,13), was left out of the partial index
CREATE OR REPLACE FUNCTION chk_pred(int4) RETURNS boolean IMMUTABLE LANGUAGE plpgsql
AS $$ BEGIN RETURN true; END $$;
SELECT bpindex_check('t_chk_lie_pred');
SELECT bpindex_check('t_chk_lie_pred', true);
-- every entry of the expression index has the wrong key now
CREATE OR REPLACE FUNCTION chk_expr(int4) RETURNS int4 IMMUTABLE LANGUAGE plpgsql
AS $$ BEGIN RETURN $1 + 1; END $$;
SELECT bpindex_check('t_chk_lie_expr');
SELECT bpindex_check('t_chk_lie_expr', true);
-- REINDEX builds both indexes from the current definitions again
REINDEX TABLE t_chk_lie;
SELECT chk('t_chk_lie_pred', true) AS pred, chk('t_chk_lie_expr', true) AS expr;
DROP TABLE t_chk_lie;
DROP FUNCTION chk_pred(int4), chk_expr(int4);
