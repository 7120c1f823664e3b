--
-- 11_maintenance: bpindex indexes through the life of a table.  Rounds of
-- deletes, VACUUM and inserts; VACUUM of empty and emptied tables, with
-- INDEX_CLEANUP OFF, in parallel and in several index passes; VACUUM
-- FULL, CLUSTER, REINDEX (also CONCURRENTLY), CREATE INDEX
-- CONCURRENTLY, TRUNCATE, ALTER COLUMN TYPE, SET LOGGED / UNLOGGED,
-- unlogged and temporary tables, partitioned tables, and DROP EXTENSION.
-- After each step every bpindex index of the table answers like a
-- sequential scan and passes bpindex_check(index, heapallindexed).
--
-- Keys are pseudo-random but deterministic (hashint8 of a row id), so the
-- row counts printed here do not change from run to run.  Autovacuum is
-- off for every table so that only this file vacuums them.
-- Before each VACUUM whose effect is checked, bp_wait_for_horizon() (from
-- 00_setup) waits until no other session, here or in another test run on
-- the same server, can still see the rows just deleted.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- the checks of this file are the rows of bp_results after this one
CREATE TABLE mt_start AS SELECT coalesce(max(seq), 0) AS seq FROM bp_results;

-- mt_key(id): the key of row id: spread over 0 .. 199999 with duplicates,
-- NULL for one row in 97
CREATE FUNCTION mt_key(id int8) RETURNS int8
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN id % 97 = 0 THEN NULL ELSE abs(hashint8(id)::int8) % 200000 END
$$;

-- mt_queries(tab): the queries every check runs against column k of tab
CREATE FUNCTION mt_queries(tab text) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
    SELECT ARRAY[
        format('select k from %s where k = 4242', tab),
        format('select k from %s where k between 1000 and 3000', tab),
        format('select k from %s where k >= 150000 and k < 151000', tab),
        format('select k from %s where k is null', tab),
        format('select k from %s where k < 800 order by k', tab),
        format('select k from %s where k > 199000 order by k desc', tab),
        format('select k from %s order by k limit 10', tab),
        format('select k from %s order by k desc limit 10', tab)]
$$;

--
-- mt_verify(label, tab): run mt_queries(tab) through every bpindex path
-- (bp_queries, recorded under label) and bpindex_check(index, true) on
-- every bpindex index of tab or of its partitions.  One row: the number
-- of queries, the row count of each, how many differ from a sequential
-- scan or have the wrong plan, and how many indexes passed the check (a
-- failing check raises its error).
--
CREATE FUNCTION mt_verify(label text, tab text)
RETURNS TABLE (queries int, nrows bigint[], failures int, indexes_checked int)
LANGUAGE plpgsql AS $$
DECLARE
    idx regclass;
BEGIN
    SELECT count(*), array_agg(q.nrows),
           count(*) FILTER (WHERE q.idx <> 'ok' OR q.ionly <> 'ok' OR q.bitmap NOT IN ('ok', '-'))
    INTO queries, nrows, failures
    FROM bp_queries(label, mt_queries(tab)) q;
    indexes_checked := 0;
    FOR idx IN
        SELECT i.indexrelid::regclass
        FROM (SELECT tab::regclass AS relid
              UNION SELECT relid FROM pg_partition_tree(tab::regclass)) p
             JOIN pg_index i ON i.indrelid = p.relid
             JOIN pg_class c ON c.oid = i.indexrelid
             JOIN pg_am a ON a.oid = c.relam
        WHERE a.amname = 'bpindex' AND c.relkind = 'i' AND i.indisvalid
        ORDER BY c.relname
    LOOP
        PERFORM bpindex_check(idx, true);
        indexes_checked := indexes_checked + 1;
    END LOOP;
    RETURN NEXT;
END
$$;

--
-- (a) Delete / VACUUM / insert churn: 50000 rows, then rounds that delete
-- about 80 % of them, VACUUM, and insert as many new rows with the same
-- key distribution.  Emptied space in the leaves is reused, so the index
-- does not grow much beyond its freshly built size.
--
CREATE TABLE mt_churn (id int8, k int8) WITH (autovacuum_enabled = off);
INSERT INTO mt_churn SELECT id, mt_key(id) FROM generate_series(1, 50000) id;
VACUUM ANALYZE mt_churn;
CREATE INDEX mt_churn_bp ON mt_churn USING bpindex (k);
CREATE TABLE mt_sizes AS
SELECT 0 AS round, pg_relation_size('mt_churn_bp') AS bytes;
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k) FROM mt_churn;
SELECT * FROM mt_verify('churn0', 'mt_churn');

-- delete about 80 % of the rows (which ones depends on the round)
CREATE FUNCTION mt_churn_delete(round int) RETURNS bigint
LANGUAGE sql AS $$
    WITH d AS (DELETE FROM mt_churn
               WHERE abs(hashint8(id * 31 + round)::int8) % 5 <> 0 RETURNING 1)
    SELECT count(*) FROM d
$$;
-- bring the table back to 50000 rows with new ids
CREATE FUNCTION mt_churn_refill() RETURNS bigint
LANGUAGE sql AS $$
    WITH s AS (SELECT max(id) AS top, 50000 - count(*) AS n FROM mt_churn),
         i AS (INSERT INTO mt_churn
               SELECT id, mt_key(id) FROM s, generate_series(s.top + 1, s.top + s.n) id
               RETURNING 1)
    SELECT count(*) FROM i
$$;
-- after VACUUM: the index has exactly one entry per row, and VACUUM
-- stored that count (not an estimate) in pg_class
CREATE FUNCTION mt_churn_after_vacuum()
RETURNS TABLE (rows bigint, entries_match boolean, reltuples_match boolean,
               incomplete_splits bigint)
LANGUAGE sql AS $$
    SELECT (SELECT count(*) FROM mt_churn),
           s.entries = (SELECT count(*) FROM mt_churn),
           (SELECT reltuples FROM pg_class WHERE relname = 'mt_churn_bp')
               = (SELECT count(*) FROM mt_churn),
           s.incomplete_splits
    FROM bpindex_stats('mt_churn_bp') s
$$;

SELECT mt_churn_delete(1) AS deleted;
SELECT bp_wait_for_horizon();
VACUUM mt_churn;
SELECT * FROM mt_churn_after_vacuum();
SELECT * FROM mt_verify('churn1d', 'mt_churn');
SELECT mt_churn_refill() AS inserted;
SELECT * FROM mt_verify('churn1', 'mt_churn');
INSERT INTO mt_sizes VALUES (1, pg_relation_size('mt_churn_bp'));

SELECT mt_churn_delete(2) AS deleted;
SELECT bp_wait_for_horizon();
VACUUM mt_churn;
SELECT * FROM mt_churn_after_vacuum();
SELECT mt_churn_refill() AS inserted;
SELECT * FROM mt_verify('churn2', 'mt_churn');
INSERT INTO mt_sizes VALUES (2, pg_relation_size('mt_churn_bp'));

SELECT mt_churn_delete(3) AS deleted;
SELECT bp_wait_for_horizon();
VACUUM mt_churn;
SELECT * FROM mt_churn_after_vacuum();
SELECT mt_churn_refill() AS inserted;
SELECT * FROM mt_verify('churn3', 'mt_churn');
INSERT INTO mt_sizes VALUES (3, pg_relation_size('mt_churn_bp'));

SELECT mt_churn_delete(4) AS deleted;
SELECT bp_wait_for_horizon();
VACUUM mt_churn;
SELECT * FROM mt_churn_after_vacuum();
SELECT mt_churn_refill() AS inserted;
SELECT * FROM mt_verify('churn4', 'mt_churn');
INSERT INTO mt_sizes VALUES (4, pg_relation_size('mt_churn_bp'));

SELECT mt_churn_delete(5) AS deleted;
SELECT bp_wait_for_horizon();
VACUUM mt_churn;
SELECT * FROM mt_churn_after_vacuum();
SELECT mt_churn_refill() AS inserted;
SELECT * FROM mt_verify('churn5', 'mt_churn');
INSERT INTO mt_sizes VALUES (5, pg_relation_size('mt_churn_bp'));

-- after every round the index is at most 1.5 times its freshly built size
SELECT s.round, s.bytes <= 1.5 * f.bytes AS within_1_5x_fresh
FROM mt_sizes s, mt_sizes f
WHERE f.round = 0 AND s.round > 0
ORDER BY s.round;
-- the rounds left no empty leaf and no unfinished split
SELECT entries = 50000 AS entries_ok, empty_leaves, incomplete_splits, unused_pages
FROM bpindex_stats('mt_churn_bp');

--
-- (b) VACUUM and its effects
--
-- index scans are counted in pg_stat_all_indexes (the range lies inside
-- the column's histogram: for a bound in its first or last bucket,
-- PostgreSQL 18's planner reads the column's actual extremes from the
-- index, which counts as index scans too)
SELECT pg_stat_force_next_flush();
CREATE TABLE mt_scans AS
SELECT idx_scan, idx_tup_read FROM pg_stat_all_indexes WHERE indexrelname = 'mt_churn_bp';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM mt_churn WHERE k BETWEEN 101000 AND 103000;
SELECT count(*) FROM mt_churn WHERE k = 4242;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT pg_stat_force_next_flush();
SELECT s.idx_scan - b.idx_scan AS new_scans,
       s.idx_tup_read - b.idx_tup_read
           = (SELECT count(*) FROM mt_churn WHERE k BETWEEN 101000 AND 103000 OR k = 4242)
           AS tuples_read_match
FROM pg_stat_all_indexes s, mt_scans b
WHERE s.indexrelname = 'mt_churn_bp';

-- VACUUM of an empty table whose index was built empty, then inserts
CREATE TABLE mt_empty (k int8) WITH (autovacuum_enabled = off);
CREATE INDEX mt_empty_bp ON mt_empty USING bpindex (k);
VACUUM mt_empty;
VACUUM ANALYZE mt_empty;
SELECT levels, leaf_pages, entries, empty_leaves FROM bpindex_stats('mt_empty_bp');
SELECT * FROM mt_verify('empty', 'mt_empty');
INSERT INTO mt_empty SELECT mt_key(id) FROM generate_series(1, 5000) id;
SELECT * FROM mt_verify('empty_filled', 'mt_empty');
-- a second VACUUM with nothing to remove (only amvacuumcleanup runs)
VACUUM mt_empty;
SELECT entries, (SELECT reltuples FROM pg_class WHERE relname = 'mt_empty_bp') AS reltuples
FROM bpindex_stats('mt_empty_bp');

-- every row deleted: VACUUM deletes every leaf but the rightmost, the
-- next VACUUM (once no snapshot is older than the deletions) recycles
-- them, and inserts of the same keys take the recycled pages
CREATE TABLE mt_all (id int8, k int8) WITH (autovacuum_enabled = off);
INSERT INTO mt_all SELECT id, mt_key(id) FROM generate_series(1, 30000) id;
CREATE INDEX mt_all_bp ON mt_all USING bpindex (k);
CREATE TABLE mt_all_before AS SELECT * FROM bpindex_stats('mt_all_bp');
DELETE FROM mt_all;
SELECT bp_wait_for_horizon();
VACUUM mt_all;
SELECT s.entries, s.leaf_pages, s.empty_leaves, s.levels = b.levels AS same_levels,
       s.deleted_pages = b.leaf_pages - 1 AS others_deleted
FROM bpindex_stats('mt_all_bp') s, mt_all_before b;
SELECT * FROM mt_verify('all_deleted', 'mt_all');
SELECT txid_current() IS NOT NULL AS xid_assigned;
SELECT bp_wait_for_horizon();
VACUUM mt_all;
SELECT deleted_pages = recyclable_pages AS all_recyclable FROM bpindex_stats('mt_all_bp');
INSERT INTO mt_all SELECT id, mt_key(id) FROM generate_series(1, 30000) id;
SELECT * FROM mt_verify('all_refilled', 'mt_all');
-- random keys split leaves in the middle, so more leaves than the build's
-- are needed: every recycled page is taken before the index grows
SELECT s.entries, s.empty_leaves, s.deleted_pages,
       pg_relation_size('mt_all_bp') / current_setting('block_size')::int
           = s.leaf_pages + s.internal_pages + 1 AS no_other_pages
FROM bpindex_stats('mt_all_bp') s;

-- entries of rows whose inserting transaction or subtransaction aborted,
-- and the old entries of rows whose key was updated, are dead too
BEGIN;
INSERT INTO mt_all SELECT id, mt_key(id) FROM generate_series(30001, 35000) id;
SAVEPOINT s;
INSERT INTO mt_all SELECT id, mt_key(id) FROM generate_series(35001, 36000) id;
ROLLBACK TO s;
INSERT INTO mt_all SELECT id, mt_key(id) FROM generate_series(36001, 36500) id;
ROLLBACK;
UPDATE mt_all SET k = k + 1 WHERE id % 10 = 0 AND k IS NOT NULL;
SELECT entries - (SELECT count(*) FROM mt_all) AS dead_entries
FROM bpindex_stats('mt_all_bp');
SELECT * FROM mt_verify('aborted_updated', 'mt_all');
SELECT bp_wait_for_horizon();
VACUUM mt_all;
SELECT entries - (SELECT count(*) FROM mt_all) AS dead_entries
FROM bpindex_stats('mt_all_bp');
SELECT * FROM mt_verify('aborted_updated_vacuumed', 'mt_all');

-- keys that only grow, old rows deleted: VACUUM deletes the emptied
-- leaves on the left (nothing would be inserted into their range again);
-- REINDEX also drops the deleted pages
CREATE TABLE mt_grow (k int8) WITH (autovacuum_enabled = off);
INSERT INTO mt_grow SELECT generate_series(1, 20000);
CREATE INDEX mt_grow_bp ON mt_grow USING bpindex (k);
INSERT INTO mt_grow SELECT generate_series(20001, 40000);
DELETE FROM mt_grow WHERE k <= 30000;
SELECT bp_wait_for_horizon();
VACUUM mt_grow;
CREATE TABLE mt_grow_before AS
SELECT s.*, pg_relation_size('mt_grow_bp') AS bytes FROM bpindex_stats('mt_grow_bp') s;
SELECT entries, empty_leaves, deleted_pages > 2 * leaf_pages AS mostly_deleted
FROM mt_grow_before;
SELECT * FROM mt_verify('grow', 'mt_grow');
REINDEX INDEX mt_grow_bp;
SELECT s.entries, s.empty_leaves, s.deleted_pages, s.leaf_pages <= b.leaf_pages AS no_more_leaves,
       pg_relation_size('mt_grow_bp') < b.bytes / 2 AS smaller
FROM bpindex_stats('mt_grow_bp') s, mt_grow_before b;
SELECT * FROM mt_verify('grow_reindexed', 'mt_grow');
DROP TABLE mt_grow, mt_grow_before;

-- VACUUM (INDEX_CLEANUP OFF) leaves the entries of dead rows in the
-- index; scans skip them, and the next VACUUM removes them
DELETE FROM mt_all WHERE id % 3 = 0;
SELECT bp_wait_for_horizon();
VACUUM (INDEX_CLEANUP OFF) mt_all;
SELECT entries - (SELECT count(*) FROM mt_all) AS dead_entries_left
FROM bpindex_stats('mt_all_bp');
SELECT * FROM mt_verify('index_cleanup_off', 'mt_all');
SELECT bp_wait_for_horizon();
VACUUM mt_all;
SELECT entries - (SELECT count(*) FROM mt_all) AS dead_entries_left
FROM bpindex_stats('mt_all_bp');
SELECT * FROM mt_verify('index_cleanup_on', 'mt_all');

-- a parallel VACUUM: with two indexes, one is vacuumed by a worker
CREATE INDEX mt_all_bp2 ON mt_all USING bpindex (k, id) WITH (fillfactor = 50);
DELETE FROM mt_all WHERE id % 3 = 1;
SET min_parallel_index_scan_size = 0;
SELECT bp_wait_for_horizon();
VACUUM (PARALLEL 2) mt_all;
RESET min_parallel_index_scan_size;
SELECT entries = (SELECT count(*) FROM mt_all) AS entries_match
FROM bpindex_stats('mt_all_bp');
SELECT entries = (SELECT count(*) FROM mt_all) AS entries_match
FROM bpindex_stats('mt_all_bp2');
SELECT * FROM mt_verify('parallel_vacuum', 'mt_all');

-- more dead rows than fit maintenance_work_mem: VACUUM scans the index
-- several times (about 174000 dead TIDs fit in 1 MB)
CREATE TABLE mt_passes (k int4) WITH (autovacuum_enabled = off);
INSERT INTO mt_passes SELECT (i::int8 * 7919) % 400009 FROM generate_series(1, 400000) i;
CREATE INDEX mt_passes_bp ON mt_passes USING bpindex (k);
DELETE FROM mt_passes WHERE k % 10 <> 0;
SET maintenance_work_mem = '1MB';
SELECT bp_wait_for_horizon();
VACUUM mt_passes;
RESET maintenance_work_mem;
SELECT entries, (SELECT count(*) FROM mt_passes) AS rows,
       (SELECT reltuples FROM pg_class WHERE relname = 'mt_passes_bp') AS reltuples
FROM bpindex_stats('mt_passes_bp');
SELECT * FROM mt_verify('vacuum_passes', 'mt_passes');
DROP TABLE mt_passes;

--
-- (c) DDL that rebuilds, copies or drops indexes
--
CREATE TABLE mt_ddl (id int4, k int8, ts timestamp) WITH (autovacuum_enabled = off);
INSERT INTO mt_ddl
SELECT id, mt_key(id), '2024-01-01'::timestamp + mt_key(id) * interval '1 minute'
FROM generate_series(1, 20000) id;
CREATE INDEX mt_ddl_k ON mt_ddl USING bpindex (k);
CREATE INDEX mt_ddl_ts ON mt_ddl USING bpindex (ts, id) WITH (fillfactor = 70, log_size = 16);
DELETE FROM mt_ddl WHERE id % 4 = 0;
INSERT INTO mt_ddl
SELECT id, mt_key(id), '2024-01-01'::timestamp + mt_key(id) * interval '1 minute'
FROM generate_series(20001, 25000) id;
SELECT * FROM mt_verify('ddl_start', 'mt_ddl');
-- the second index, through its own queries
SELECT * FROM bp_queries('ddl_ts', ARRAY[
    'select ts, id from mt_ddl where ts = ''2024-01-03 00:00'' order by ts, id',
    'select ts, id from mt_ddl where ts >= ''2024-02-01'' and ts < ''2024-02-02'' order by ts desc, id desc',
    'select ts, id from mt_ddl where ts is null']);
-- relfilenodes, to see which commands rebuild the indexes
CREATE TABLE mt_files AS
SELECT relname, relfilenode FROM pg_class WHERE relname IN ('mt_ddl_k', 'mt_ddl_ts');
CREATE FUNCTION mt_rebuilt() RETURNS TABLE (relname name, rebuilt boolean)
LANGUAGE sql AS $$
    WITH cur AS (SELECT relname, relfilenode FROM pg_class
                 WHERE relname IN ('mt_ddl_k', 'mt_ddl_ts')),
         upd AS (UPDATE mt_files f SET relfilenode = c.relfilenode
                 FROM cur c WHERE c.relname = f.relname
                 RETURNING f.relname, f.relfilenode)
    SELECT c.relname, c.relfilenode <> f.relfilenode
    FROM cur c JOIN mt_files f USING (relname)
    ORDER BY 1
$$;

-- VACUUM FULL rewrites the table and rebuilds both indexes
VACUUM FULL mt_ddl;
SELECT * FROM mt_rebuilt();
SELECT * FROM mt_verify('vacuum_full', 'mt_ddl');

-- CLUSTER rewrites the table in the order of a bpindex index (NULLs
-- last, as the index keeps them) and rebuilds both indexes
SELECT pg_index_has_property('mt_ddl_k', 'clusterable');
CLUSTER mt_ddl USING mt_ddl_k;
SELECT * FROM mt_rebuilt();
SELECT * FROM mt_verify('cluster', 'mt_ddl');
SELECT indexrelid::regclass AS clustered_on FROM pg_index
WHERE indrelid = 'mt_ddl'::regclass AND indisclustered;
-- the heap now holds the rows in (k) order, NULLs after every key
SELECT count(*) FILTER (WHERE prev_k > k OR (prev_k IS NULL AND prev_ctid IS NOT NULL AND k IS NOT NULL))
       AS out_of_order
FROM (SELECT k, lag(k) OVER w AS prev_k, lag(ctid) OVER w AS prev_ctid
      FROM mt_ddl WINDOW w AS (ORDER BY ctid)) s;
-- on a two-column index, and CLUSTER without USING takes the index marked
ALTER TABLE mt_ddl CLUSTER ON mt_ddl_ts;
CLUSTER mt_ddl;
SELECT * FROM mt_rebuilt();
SELECT * FROM mt_verify('cluster_ts', 'mt_ddl');
SELECT count(*) FILTER (WHERE (prev_ts, prev_id) > (ts, id)) AS out_of_order,
       count(*) FILTER (WHERE ts IS NULL AND next_ts IS NOT NULL) AS nulls_not_last
FROM (SELECT ts, id, lag(ts) OVER w AS prev_ts, lag(id) OVER w AS prev_id,
             lead(ts) OVER w AS next_ts
      FROM mt_ddl WINDOW w AS (ORDER BY ctid)) s;

-- REINDEX in every form
REINDEX INDEX mt_ddl_k;
SELECT * FROM mt_rebuilt();
SELECT * FROM mt_verify('reindex_index', 'mt_ddl');
REINDEX TABLE mt_ddl;
SELECT * FROM mt_rebuilt();
SELECT * FROM mt_verify('reindex_table', 'mt_ddl');
REINDEX INDEX CONCURRENTLY mt_ddl_k;
SELECT * FROM mt_rebuilt();
SELECT * FROM mt_verify('reindex_index_conc', 'mt_ddl');
REINDEX TABLE CONCURRENTLY mt_ddl;
SELECT * FROM mt_rebuilt();
SELECT * FROM mt_verify('reindex_table_conc', 'mt_ddl');
-- the reloptions survive every rebuild
SELECT relname, reloptions FROM pg_class WHERE relname IN ('mt_ddl_k', 'mt_ddl_ts') ORDER BY 1;
SELECT fillfactor, log_size FROM bpindex_metap('mt_ddl_ts');
-- inserts into the rebuilt indexes
INSERT INTO mt_ddl
SELECT id, mt_key(id), '2024-01-01'::timestamp + mt_key(id) * interval '1 minute'
FROM generate_series(25001, 27000) id;
SELECT * FROM mt_verify('reindexed_inserts', 'mt_ddl');

-- CREATE INDEX CONCURRENTLY (built empty, then validated by a bulk
-- delete pass that collects every TID and inserts what is missing)
DROP INDEX mt_ddl_k;
CREATE INDEX CONCURRENTLY mt_ddl_k ON mt_ddl USING bpindex (k);
SELECT indisvalid, indisready FROM pg_index WHERE indexrelid = 'mt_ddl_k'::regclass;
SELECT * FROM mt_verify('create_conc', 'mt_ddl');
INSERT INTO mt_ddl
SELECT id, mt_key(id), '2024-01-01'::timestamp + mt_key(id) * interval '1 minute'
FROM generate_series(27001, 28000) id;
SELECT * FROM mt_verify('create_conc_inserts', 'mt_ddl');
-- a concurrent build that fails (its layout does not fit a page) leaves
-- an invalid index that nothing uses (and that mt_verify skips)
CREATE INDEX CONCURRENTLY mt_ddl_bad ON mt_ddl USING bpindex (k)
    WITH (log_size = 1000, block_size = 1000);
SELECT indisvalid FROM pg_index WHERE indexrelid = 'mt_ddl_bad'::regclass;
INSERT INTO mt_ddl VALUES (28001, 4242, NULL);
SELECT * FROM mt_verify('invalid_index', 'mt_ddl');
DROP INDEX mt_ddl_bad;

-- TRUNCATE gives both indexes new, empty files
TRUNCATE mt_ddl;
SELECT * FROM mt_rebuilt();
SELECT levels, leaf_pages, entries FROM bpindex_stats('mt_ddl_k');
SELECT * FROM mt_verify('truncated', 'mt_ddl');
INSERT INTO mt_ddl
SELECT id, mt_key(id), '2024-01-01'::timestamp + mt_key(id) * interval '1 minute'
FROM generate_series(1, 10000) id;
SELECT * FROM mt_verify('truncate_inserts', 'mt_ddl');
-- TRUNCATE of a table created in the same transaction truncates its
-- files in place; inserts before and after it use the same index
BEGIN;
CREATE TABLE mt_trunc (k int8);
CREATE INDEX mt_trunc_bp ON mt_trunc USING bpindex (k);
INSERT INTO mt_trunc SELECT i FROM generate_series(1, 20000) i;
TRUNCATE mt_trunc;
INSERT INTO mt_trunc SELECT i FROM generate_series(19000, 21000) i;
INSERT INTO mt_trunc SELECT mt_key(i) FROM generate_series(1, 3000) i;
SELECT * FROM mt_verify('truncate_same_xact', 'mt_trunc');
COMMIT;
SELECT * FROM mt_verify('truncate_same_xact_committed', 'mt_trunc');
DROP TABLE mt_trunc;

-- ALTER COLUMN TYPE rewrites the table and rebuilds the index on the
-- column with the new type (int8 entries are 16 bytes, int4 entries 12)
SELECT slot_width FROM bpindex_metap('mt_ddl_k');
ALTER TABLE mt_ddl ALTER COLUMN k TYPE int4;
SELECT * FROM mt_rebuilt();
SELECT pg_get_indexdef('mt_ddl_k'::regclass);
SELECT slot_width FROM bpindex_metap('mt_ddl_k');
SELECT * FROM mt_verify('alter_type_int4', 'mt_ddl');
INSERT INTO mt_ddl VALUES (10001, 2147483647, NULL), (10002, -2147483648, NULL);
SELECT * FROM mt_verify('alter_type_int4_inserts', 'mt_ddl');
ALTER TABLE mt_ddl ALTER COLUMN k TYPE int8 USING k::int8 * 2;
SELECT slot_width FROM bpindex_metap('mt_ddl_k');
SELECT * FROM mt_verify('alter_type_int8', 'mt_ddl');

-- SET UNLOGGED and SET LOGGED rewrite the table and its indexes
ALTER TABLE mt_ddl SET UNLOGGED;
SELECT relname, relpersistence FROM pg_class WHERE relname IN ('mt_ddl', 'mt_ddl_k') ORDER BY 1;
INSERT INTO mt_ddl SELECT id, mt_key(id), NULL FROM generate_series(10003, 12000) id;
SELECT * FROM mt_verify('set_unlogged', 'mt_ddl');
ALTER TABLE mt_ddl SET LOGGED;
SELECT relname, relpersistence FROM pg_class WHERE relname IN ('mt_ddl', 'mt_ddl_k') ORDER BY 1;
SELECT * FROM mt_verify('set_logged', 'mt_ddl');
DROP TABLE mt_ddl;

-- an unlogged table: the index has an init fork, and inserts split its
-- leaves without WAL
CREATE UNLOGGED TABLE mt_unlogged (k int8) WITH (autovacuum_enabled = off);
INSERT INTO mt_unlogged SELECT mt_key(i) FROM generate_series(1, 5000) i;
CREATE INDEX mt_unlogged_bp ON mt_unlogged USING bpindex (k) WITH (fillfactor = 100);
SELECT relpersistence, pg_relation_size(oid, 'init') > 0 AS has_init_fork
FROM pg_class WHERE relname = 'mt_unlogged_bp';
SELECT leaf_pages AS unlogged_built_leaves FROM bpindex_stats('mt_unlogged_bp') \gset
INSERT INTO mt_unlogged SELECT mt_key(i) FROM generate_series(5001, 20000) i;
SELECT leaf_pages > 2 * :unlogged_built_leaves AS split, entries FROM bpindex_stats('mt_unlogged_bp');
SELECT * FROM mt_verify('unlogged', 'mt_unlogged');
DELETE FROM mt_unlogged WHERE k % 2 = 0;
SELECT bp_wait_for_horizon();
VACUUM mt_unlogged;
SELECT * FROM mt_verify('unlogged_vacuumed', 'mt_unlogged');
DROP TABLE mt_unlogged;

-- a temporary table: the index lives in local buffers
CREATE TEMP TABLE mt_temp (k int8);
INSERT INTO mt_temp SELECT mt_key(i) FROM generate_series(1, 3000) i;
CREATE INDEX mt_temp_bp ON mt_temp USING bpindex (k);
INSERT INTO mt_temp SELECT mt_key(i) FROM generate_series(3001, 15000) i;
SELECT relpersistence FROM pg_class WHERE relname = 'mt_temp_bp';
SELECT * FROM mt_verify('temp', 'mt_temp');
DELETE FROM mt_temp WHERE k % 3 = 0;
VACUUM mt_temp;
SELECT entries = (SELECT count(*) FROM mt_temp) AS entries_match FROM bpindex_stats('mt_temp_bp');
SELECT * FROM mt_verify('temp_vacuumed', 'mt_temp');
REINDEX TABLE mt_temp;
SELECT * FROM mt_verify('temp_reindexed', 'mt_temp');
DROP TABLE mt_temp;

--
-- A partitioned table: CREATE INDEX on the parent creates a bpindex
-- index on every partition
--
CREATE TABLE mt_parted (k int8, id int8) PARTITION BY RANGE (k);
CREATE TABLE mt_parted_1 PARTITION OF mt_parted FOR VALUES FROM (MINVALUE) TO (50000);
CREATE TABLE mt_parted_2 PARTITION OF mt_parted FOR VALUES FROM (50000) TO (150000);
CREATE TABLE mt_parted_3 PARTITION OF mt_parted FOR VALUES FROM (150000) TO (MAXVALUE);
CREATE TABLE mt_parted_null PARTITION OF mt_parted DEFAULT;
INSERT INTO mt_parted SELECT mt_key(id), id FROM generate_series(1, 20000) id;
CREATE INDEX mt_parted_k ON mt_parted USING bpindex (k);
-- the indexes of the partition tree and their access methods
CREATE FUNCTION mt_parted_indexes()
RETURNS TABLE (index regclass, tab regclass, relkind "char", am name,
               parent regclass, valid boolean)
LANGUAGE sql AS $$
    SELECT t.relid, i.indrelid::regclass, c.relkind, a.amname, t.parentrelid,
           i.indisvalid
    FROM pg_partition_tree('mt_parted_k') t
         JOIN pg_class c ON c.oid = t.relid
         JOIN pg_am a ON a.oid = c.relam
         JOIN pg_index i ON i.indexrelid = t.relid
    ORDER BY t.level, t.relid::regclass::text
$$;
SELECT * FROM mt_parted_indexes();
SELECT tablename, indexname, indexdef FROM pg_indexes
WHERE tablename LIKE 'mt\_parted%' ORDER BY tablename;
-- inserts through the parent go to each partition's index
INSERT INTO mt_parted SELECT mt_key(id), id FROM generate_series(20001, 30000) id;
SELECT tableoid::regclass::text AS partition, count(*) FROM mt_parted GROUP BY 1 ORDER BY 1;
-- queries through the parent: the quals on k prune partitions (one
-- partition's index or a few); ordered scans over all partitions merge
-- the partitions' ordered index scans without sorting
SELECT * FROM mt_verify('parted', 'mt_parted');
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT k FROM mt_parted WHERE k BETWEEN 1000 AND 3000;
EXPLAIN (COSTS OFF) SELECT k FROM mt_parted ORDER BY k DESC LIMIT 10;
EXPLAIN (COSTS OFF) SELECT k FROM mt_parted WHERE k > 40000 AND k < 60000 ORDER BY k;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- and the same queries through each partition directly
SELECT * FROM mt_verify('parted_1', 'mt_parted_1');
SELECT * FROM mt_verify('parted_null', 'mt_parted_null');
-- DETACH PARTITION: the partition keeps its index, now standalone
ALTER TABLE mt_parted_3 RENAME TO mt_parted_3_old;
ALTER TABLE mt_parted DETACH PARTITION mt_parted_3_old;
SELECT c.relname, i.indisvalid, a.amname,
       EXISTS (SELECT FROM pg_inherits WHERE inhrelid = c.oid) AS has_parent
FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid JOIN pg_am a ON a.oid = c.relam
WHERE i.indrelid = 'mt_parted_3_old'::regclass;
SELECT * FROM mt_verify('detached', 'mt_parted_3_old');
INSERT INTO mt_parted_3_old SELECT mt_key(id) + 1000000, id FROM generate_series(1, 1000) id;
SELECT * FROM mt_verify('detached_inserts', 'mt_parted_3_old');
-- a detached partition's index can be dropped, a partition's cannot
DROP INDEX mt_parted_3_k_idx;
DROP INDEX mt_parted_1_k_idx;
-- ATTACH PARTITION: a table with a matching bpindex index gets it
-- attached; one without an index gets a new one; one with only a btree
-- index on k gets a bpindex index beside it
CREATE TABLE mt_parted_3 (k int8, id int8);
INSERT INTO mt_parted_3 SELECT k, id FROM mt_parted_3_old WHERE k < 300000;
CREATE INDEX mt_parted_3_own ON mt_parted_3 USING bpindex (k);
CREATE TABLE mt_parted_4 (k int8, id int8);
INSERT INTO mt_parted_4 SELECT 300000 + mt_key(id) % 100000, id FROM generate_series(1, 3000) id WHERE id % 97 <> 0;
CREATE TABLE mt_parted_5 (k int8, id int8);
INSERT INTO mt_parted_5 SELECT 400000 + mt_key(id), id FROM generate_series(1, 3000) id WHERE id % 97 <> 0;
CREATE INDEX mt_parted_5_bt ON mt_parted_5 USING btree (k);
ALTER TABLE mt_parted ATTACH PARTITION mt_parted_3 FOR VALUES FROM (150000) TO (300000);
ALTER TABLE mt_parted ATTACH PARTITION mt_parted_4 FOR VALUES FROM (300000) TO (400000);
ALTER TABLE mt_parted ATTACH PARTITION mt_parted_5 FOR VALUES FROM (400000) TO (MAXVALUE);
SELECT * FROM mt_parted_indexes();
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'mt_parted_5' ORDER BY 1;
INSERT INTO mt_parted SELECT mt_key(id), id FROM generate_series(30001, 33000) id;
SELECT * FROM mt_verify('parted_attached', 'mt_parted');
SELECT * FROM bp_queries('parted_attached_wide', ARRAY[
    'select k from mt_parted where k >= 290000 and k < 410000',
    'select k from mt_parted where k > 199990 order by k limit 20',
    'select k from mt_parted where k < 400010 order by k desc limit 20']);
-- CREATE INDEX ON ONLY the parent: invalid until every partition's index
-- is attached
CREATE INDEX mt_parted_id ON ONLY mt_parted USING bpindex (id);
SELECT indisvalid FROM pg_index WHERE indexrelid = 'mt_parted_id'::regclass;
CREATE INDEX mt_parted_1_id ON mt_parted_1 USING bpindex (id);
CREATE INDEX mt_parted_2_id ON mt_parted_2 USING bpindex (id);
CREATE INDEX mt_parted_3_id ON mt_parted_3 USING bpindex (id);
CREATE INDEX mt_parted_4_id ON mt_parted_4 USING bpindex (id);
CREATE INDEX mt_parted_5_id ON mt_parted_5 USING bpindex (id);
CREATE INDEX mt_parted_null_id ON mt_parted_null USING bpindex (id);
ALTER INDEX mt_parted_id ATTACH PARTITION mt_parted_null_id;
ALTER INDEX mt_parted_id ATTACH PARTITION mt_parted_1_id;
ALTER INDEX mt_parted_id ATTACH PARTITION mt_parted_2_id;
ALTER INDEX mt_parted_id ATTACH PARTITION mt_parted_3_id;
ALTER INDEX mt_parted_id ATTACH PARTITION mt_parted_4_id;
SELECT indisvalid FROM pg_index WHERE indexrelid = 'mt_parted_id'::regclass;
ALTER INDEX mt_parted_id ATTACH PARTITION mt_parted_5_id;
SELECT indisvalid FROM pg_index WHERE indexrelid = 'mt_parted_id'::regclass;
SELECT * FROM bp_queries('parted_id', ARRAY[
    'select id from mt_parted where id between 100 and 200',
    'select id from mt_parted where id > 32990 order by id']);
-- the inspection functions need a leaf index, not the partitioned one
SELECT bpindex_check('mt_parted_k');
SELECT * FROM bpindex_stats('mt_parted_k');
DROP TABLE mt_parted, mt_parted_3_old;

-- every check of this file: how many, and the failures
SELECT count(*) AS checks, count(*) FILTER (WHERE NOT ok) AS failures
FROM bp_results WHERE seq > (SELECT seq FROM mt_start);
SELECT label, shape, idx, ionly, bitmap FROM bp_results
WHERE NOT ok AND seq > (SELECT seq FROM mt_start)
ORDER BY seq;

--
-- DROP EXTENSION with dependent indexes, in a database of its own so
-- that the list of dependent objects does not depend on the other test
-- files (whose indexes in this database would be dropped too)
--
SELECT current_database() AS mt_regress_db,
       current_database() || '_dropext' AS mt_drop_db \gset
SET client_min_messages = warning;
DROP DATABASE IF EXISTS :"mt_drop_db";
RESET client_min_messages;
CREATE DATABASE :"mt_drop_db" TEMPLATE template0;
\c :"mt_drop_db"
CREATE EXTENSION bpindex;
CREATE TABLE mt_drop (k int8, d date);
INSERT INTO mt_drop SELECT i % 1000, date '2024-01-01' + i % 300 FROM generate_series(1, 5000) i;
CREATE INDEX mt_drop_k ON mt_drop USING bpindex (k);
CREATE INDEX mt_drop_kd ON mt_drop USING bpindex (k, d) WITH (fillfactor = 50);
-- refused: the indexes depend on the extension's operator classes
DROP EXTENSION bpindex;
SELECT count(*) FROM pg_indexes WHERE tablename = 'mt_drop';
-- CASCADE drops the indexes and keeps the table
DROP EXTENSION bpindex CASCADE;
SELECT count(*) FROM pg_indexes WHERE tablename = 'mt_drop';
SELECT count(*) FROM pg_am WHERE amname = 'bpindex';
SELECT count(*), sum(k) FROM mt_drop;
INSERT INTO mt_drop VALUES (5, '2024-05-05');
-- and the extension can be created again and index the table
CREATE EXTENSION bpindex;
CREATE INDEX mt_drop_k ON mt_drop USING bpindex (k);
SET enable_seqscan = off;
SELECT count(*) FROM mt_drop WHERE k = 5;
SELECT bpindex_check('mt_drop_k', true);
\c :"mt_regress_db"
DROP DATABASE :"mt_drop_db";
-- the extension of this database is untouched
SELECT extname FROM pg_extension WHERE extname = 'bpindex';
