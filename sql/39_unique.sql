--
-- 39_unique: unique bpindex indexes, with btree's semantics.  PostgreSQL 18
-- takes a unique index of any access method with an equality strategy as
-- an ON CONFLICT arbiter; PostgreSQL 15's ON CONFLICT takes btree only (and
-- raises an internal error for another), so there CREATE UNIQUE INDEX ...
-- USING bpindex is refused, for real and hypothetical indexes, and this
-- file stops (expected/39_unique_1.out).  (specs/unique_insert: concurrent
-- inserts of one key, committed and aborted.)
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SELECT current_setting('server_version_num')::int >= 180000 AS unique_indexes \gset
CREATE TABLE uq (id int8, email text, tenant int4, note text)
WITH (autovacuum_enabled = off);
INSERT INTO uq SELECT g, 'user' || g || '@example.com', g % 7, 'note ' || g
FROM generate_series(1, 20000) g;
\if :unique_indexes
\else
CREATE UNIQUE INDEX uq_id ON uq USING bpindex (id);
SELECT indexname FROM bpindex_hypo_create_index('CREATE UNIQUE INDEX ON uq USING bpindex (id)');
-- without UNIQUE the same index is built
CREATE INDEX uq_id ON uq USING bpindex (id);
\quit
\endif

CREATE UNIQUE INDEX uq_id ON uq USING bpindex (id);
CREATE UNIQUE INDEX uq_email ON uq USING bpindex (email);
CREATE UNIQUE INDEX uq_tenant_email ON uq USING bpindex (tenant, email) INCLUDE (id);
CREATE UNIQUE INDEX uq_lower ON uq USING bpindex (lower(email));
CREATE UNIQUE INDEX uq_note_7 ON uq USING bpindex (note) WHERE tenant = 0;
SELECT c.relname, i.indisunique, a.amname
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
WHERE i.indrelid = 'uq'::regclass ORDER BY 1;
VACUUM ANALYZE uq;

-- a violation names the index and the key, as btree's does
INSERT INTO uq VALUES (5, 'new-5', 1, 'x');
INSERT INTO uq VALUES (20001, 'user5@example.com', 1, 'x');
INSERT INTO uq VALUES (20001, 'USER5@example.com', 1, 'x');
INSERT INTO uq VALUES (20001, 'a', 1, 'x'), (20002, 'a', 1, 'y');
-- the partial index checks only the rows it covers
INSERT INTO uq VALUES (20001, 'b', 1, 'note 7');
INSERT INTO uq VALUES (20002, 'c', 0, 'note 7');
UPDATE uq SET id = 6 WHERE id = 7;
UPDATE uq SET email = 'user8@example.com' WHERE id = 9;
SELECT count(*) AS rows_added FROM uq WHERE id > 20000;

-- NULLs are distinct unless the index says NULLS NOT DISTINCT
INSERT INTO uq VALUES (NULL, NULL, NULL, 'n1'), (NULL, NULL, NULL, 'n2');
INSERT INTO uq VALUES (30000, 'u30000', NULL, 'n3'), (30001, 'u30001', NULL, 'n4');
INSERT INTO uq VALUES (30002, 'user12@example.com', NULL, 'n5');
CREATE TABLE uq_nnd (k int4, t text);
CREATE UNIQUE INDEX uq_nnd_k ON uq_nnd USING bpindex (k) NULLS NOT DISTINCT;
CREATE UNIQUE INDEX uq_nnd_kt ON uq_nnd USING bpindex (k, t);
INSERT INTO uq_nnd VALUES (NULL, 'a');
INSERT INTO uq_nnd VALUES (NULL, 'b');
INSERT INTO uq_nnd VALUES (1, NULL), (2, NULL);
INSERT INTO uq_nnd VALUES (1, 'x');
SELECT k, t FROM uq_nnd ORDER BY k NULLS FIRST, t;

-- deleted and aborted rows are no conflict; an updated row's old version
-- is none either
DELETE FROM uq WHERE id = 10;
INSERT INTO uq VALUES (10, 'user10@example.com', 3, 'again');
BEGIN;
INSERT INTO uq VALUES (40000, 'aborted@example.com', 1, 'x');
ROLLBACK;
INSERT INTO uq VALUES (40000, 'aborted@example.com', 1, 'x');
BEGIN;
DELETE FROM uq WHERE id = 11;
INSERT INTO uq VALUES (11, 'user11@example.com', 4, 'same transaction');
COMMIT;
UPDATE uq SET note = note || '!' WHERE id BETWEEN 100 AND 300;
UPDATE uq SET id = id + 100000 WHERE id BETWEEN 100 AND 300;
UPDATE uq SET id = id - 100000 WHERE id BETWEEN 100100 AND 100300;
SELECT count(*) FROM uq WHERE id BETWEEN 100 AND 300;

-- ON CONFLICT with a bpindex arbiter
EXPLAIN (COSTS OFF)
INSERT INTO uq VALUES (12, 'x', 1, 'x') ON CONFLICT (id) DO NOTHING;
INSERT INTO uq VALUES (12, 'x', 1, 'x') ON CONFLICT (id) DO NOTHING;
INSERT INTO uq VALUES (12, 'x', 1, 'x') ON CONFLICT (id) DO UPDATE
SET note = 'upserted ' || excluded.email RETURNING id, email, note;
INSERT INTO uq VALUES (50000, 'user13@example.com', 1, 'x')
ON CONFLICT (email) DO UPDATE SET note = 'email taken' RETURNING id, email, note;
INSERT INTO uq VALUES (50001, 'fresh@example.com', 1, 'x')
ON CONFLICT (email) DO UPDATE SET note = 'email taken' RETURNING id, email, note;
INSERT INTO uq VALUES (50001, 'other@example.com', 1, 'x') ON CONFLICT DO NOTHING;
-- an ON CONFLICT that inserts two rows of one key in one statement
INSERT INTO uq VALUES (60000, 'p', 1, 'x'), (60000, 'q', 1, 'y')
ON CONFLICT (id) DO UPDATE SET note = 'second';

-- every scan shape answers like a sequential scan; the heap and the
-- indexes agree
SELECT * FROM bp_queries('unique', ARRAY[
    'select id from uq where id between 90 and 320 order by id',
    'select id from uq where id = 12',
    'select email from uq where email between ''user1'' and ''user2'' order by email desc',
    'select count(*) from uq where id is null',
    'select tenant, email, id from uq where tenant = 3 and email > ''user9'' order by tenant, email'
]);
SELECT bpindex_check('uq_id', true), bpindex_check('uq_email', true),
       bpindex_check('uq_tenant_email', true), bpindex_check('uq_lower', true),
       bpindex_check('uq_note_7', true);

-- the planner knows the index is unique: a left join to it on its key is
-- removed, as with a btree
CREATE TABLE uq_ref (ref int8);
INSERT INTO uq_ref SELECT g FROM generate_series(1, 100) g;
EXPLAIN (COSTS OFF) SELECT r.* FROM uq_ref r LEFT JOIN uq ON uq.id = r.ref;

-- CREATE INDEX of duplicates: live ones are refused as btree refuses them;
-- deleted ones (not vacuumed away) and rows this transaction deleted are
-- not duplicates
CREATE TABLE uq_build (k int8, t text) WITH (autovacuum_enabled = off);
INSERT INTO uq_build SELECT g, 't' || g FROM generate_series(1, 5000) g;
INSERT INTO uq_build VALUES (2500, 'dup'), (4999, 't4999');
CREATE UNIQUE INDEX uq_build_k ON uq_build USING bpindex (k);
CREATE UNIQUE INDEX uq_build_t ON uq_build USING bpindex (t);
SET max_parallel_maintenance_workers = 0;
CREATE UNIQUE INDEX uq_build_kt ON uq_build USING bpindex (k, t);
RESET max_parallel_maintenance_workers;
-- the row this transaction deletes is no duplicate, nor is a deleted row
-- that VACUUM has not removed yet
BEGIN;
DELETE FROM uq_build WHERE ctid = (SELECT max(ctid) FROM uq_build WHERE k = 4999);
CREATE UNIQUE INDEX uq_build_t ON uq_build USING bpindex (t);
COMMIT;
DELETE FROM uq_build WHERE t = 'dup';
CREATE UNIQUE INDEX uq_build_k ON uq_build USING bpindex (k);
-- rows this transaction inserted are
CREATE TABLE uq_own (k int4);
BEGIN;
INSERT INTO uq_own VALUES (1), (2), (1);
CREATE UNIQUE INDEX uq_own_k ON uq_own USING bpindex (k);
ROLLBACK;
-- as in btree, a failed CONCURRENTLY build leaves an invalid index
INSERT INTO uq_own VALUES (1), (2), (1);
CREATE UNIQUE INDEX CONCURRENTLY uq_own_k ON uq_own USING bpindex (k);
SELECT indisvalid FROM pg_index WHERE indexrelid = 'uq_own_k'::regclass;
DROP TABLE uq_own;
SELECT bpindex_check('uq_build_k', true), bpindex_check('uq_build_t', true);
-- CONCURRENTLY and REINDEX check too
CREATE UNIQUE INDEX CONCURRENTLY uq_build_k3 ON uq_build USING bpindex (k);
REINDEX INDEX uq_build_k;
REINDEX INDEX CONCURRENTLY uq_build_t;
INSERT INTO uq_build VALUES (4999, 'later');
INSERT INTO uq_build VALUES (NULL, 'later');
SELECT bpindex_check('uq_build_k3', true), bpindex_check('uq_build_t', true);

-- a parallel build checks too (the leader checks the merged entries), and
-- so does a serial build whose in-memory sort spills into a tuplesort
CREATE TABLE uq_par (k int8, t text) WITH (parallel_workers = 2, autovacuum_enabled = off);
INSERT INTO uq_par SELECT g, 't' || g FROM generate_series(1, 100000) g;
INSERT INTO uq_par VALUES (77777, 'again');
SET max_parallel_maintenance_workers = 2;
SET client_min_messages = debug1;
CREATE UNIQUE INDEX uq_par_k ON uq_par USING bpindex (k);
CREATE UNIQUE INDEX uq_par_t ON uq_par USING bpindex (t);
RESET max_parallel_maintenance_workers;
SET max_parallel_maintenance_workers = 0;
SET maintenance_work_mem = '1MB';
CREATE UNIQUE INDEX uq_par_k ON uq_par USING bpindex (k);
RESET client_min_messages;
DELETE FROM uq_par WHERE t = 'again';
CREATE UNIQUE INDEX uq_par_k ON uq_par USING bpindex (k);
RESET maintenance_work_mem;
RESET max_parallel_maintenance_workers;
SELECT bpindex_check('uq_par_k', true), bpindex_check('uq_par_t', true);
DROP TABLE uq_par;

-- one key with many versions: entries of one key over several leaves.
-- Every update in one transaction keeps the key's old versions live to
-- the index; an insert checks them all and puts its entry into the last
-- leaf, right of the first
CREATE TABLE uq_versions (k int8, v int4) WITH (autovacuum_enabled = off);
INSERT INTO uq_versions SELECT g, 0 FROM generate_series(1, 200) g;
CREATE UNIQUE INDEX uq_versions_k ON uq_versions USING bpindex (k);
CREATE INDEX uq_versions_v ON uq_versions USING bpindex (v);
DO $$ BEGIN FOR i IN 1..2500 LOOP UPDATE uq_versions SET v = v + 1 WHERE k = 100; END LOOP; END $$;
SELECT leaf_pages >= 3 AS key_spans_leaves, entries FROM bpindex_stats('uq_versions_k');
INSERT INTO uq_versions VALUES (100, -1);
DELETE FROM uq_versions WHERE k = 100;
INSERT INTO uq_versions VALUES (100, -1);
INSERT INTO uq_versions VALUES (100, -2);
SELECT k, v FROM uq_versions WHERE k BETWEEN 99 AND 101 ORDER BY k;
SELECT bpindex_check('uq_versions_k', true);
SELECT * FROM bp_queries('unique, versions', ARRAY[
    'select k from uq_versions where k between 95 and 105 order by k'
]);

-- a unique bpindex index can be a table's replica identity; PRIMARY KEY
-- and UNIQUE constraints stay btree's (PostgreSQL's rule)
CREATE TABLE uq_ri (k int8 NOT NULL, v text);
CREATE UNIQUE INDEX uq_ri_k ON uq_ri USING bpindex (k);
ALTER TABLE uq_ri REPLICA IDENTITY USING INDEX uq_ri_k;
SELECT relreplident FROM pg_class WHERE relname = 'uq_ri';
ALTER TABLE uq_ri ADD CONSTRAINT uq_ri_pk PRIMARY KEY USING INDEX uq_ri_k;
DROP TABLE uq_ri;

-- a partitioned table's unique index (on the partition key) holds in
-- every partition, and is an ON CONFLICT arbiter
CREATE TABLE uq_part (k int8, v text) PARTITION BY RANGE (k);
CREATE TABLE uq_part_1 PARTITION OF uq_part FOR VALUES FROM (0) TO (1000);
CREATE TABLE uq_part_2 PARTITION OF uq_part FOR VALUES FROM (1000) TO (2000);
CREATE UNIQUE INDEX uq_part_k ON uq_part USING bpindex (k);
INSERT INTO uq_part SELECT g, 'v' FROM generate_series(0, 1999) g;
INSERT INTO uq_part VALUES (1500, 'dup');
INSERT INTO uq_part VALUES (1500, 'dup'), (2, 'dup')
ON CONFLICT (k) DO UPDATE SET v = 'upserted' RETURNING *;
SELECT count(*), count(DISTINCT k) FROM uq_part;
DROP TABLE uq_part;

-- hypothetical unique indexes: the planner removes a left join to a
-- hypothetical unique index's key too
EXPLAIN (COSTS OFF) SELECT x.id FROM uq x LEFT JOIN uq_ref r ON r.ref = x.id;
SELECT count(*) FROM bpindex_hypo_create_index('CREATE UNIQUE INDEX ON uq_ref USING bpindex (ref)');
EXPLAIN (COSTS OFF) SELECT x.id FROM uq x LEFT JOIN uq_ref r ON r.ref = x.id;
SELECT bpindex_hypo_reset();

-- foreign keys may reference the columns of a unique bpindex index: the
-- referencing rows are checked through it, deletes and updates of
-- referenced keys are refused or cascade
CREATE TABLE uq_fk_parent (id int8 NOT NULL, name text);
CREATE UNIQUE INDEX uq_fk_parent_id ON uq_fk_parent USING bpindex (id);
INSERT INTO uq_fk_parent SELECT g, 'p' || g FROM generate_series(1, 1000) g;
CREATE TABLE uq_fk_child (pid int8 REFERENCES uq_fk_parent (id) ON DELETE CASCADE,
                          note text);
CREATE TABLE uq_fk_strict (pid int8 REFERENCES uq_fk_parent (id));
INSERT INTO uq_fk_child SELECT g % 100 + 1, 'c' FROM generate_series(1, 500) g;
INSERT INTO uq_fk_strict VALUES (7), (8);
INSERT INTO uq_fk_child VALUES (1001, 'no parent');
UPDATE uq_fk_parent SET id = 5000 WHERE id = 7;
DELETE FROM uq_fk_parent WHERE id = 8;
DELETE FROM uq_fk_parent WHERE id BETWEEN 1 AND 10 AND id NOT IN (7, 8);
SELECT count(*) AS children_left, min(pid) AS lowest_parent FROM uq_fk_child;
SELECT count(*) AS orphans FROM uq_fk_child c
WHERE NOT EXISTS (SELECT 1 FROM uq_fk_parent p WHERE p.id = c.pid);
SELECT bpindex_check('uq_fk_parent_id', true);
DROP TABLE uq_fk_child, uq_fk_strict, uq_fk_parent;

-- compressed keys: a value beyond the limit that compresses is checked
-- like any other, whether its duplicate is stored compressed or not yet
-- compared, and ON CONFLICT finds it
CREATE TABLE uq_long (k text, n int4);
CREATE UNIQUE INDEX uq_long_k ON uq_long USING bpindex (k);
INSERT INTO uq_long SELECT repeat(md5(g::text), 100) || g, g FROM generate_series(1, 200) g;
INSERT INTO uq_long VALUES (repeat(md5('17'), 100) || 17, 0);
INSERT INTO uq_long VALUES (repeat(md5('17'), 100) || 18, 0);
INSERT INTO uq_long VALUES (repeat(md5('18'), 100) || 18, 0)
ON CONFLICT (k) DO UPDATE SET n = uq_long.n + 1000;
SELECT n, length(k) FROM uq_long WHERE k = repeat(md5('18'), 100) || 18;
SELECT count(*) FROM uq_long;
SELECT bpindex_check('uq_long_k', true);
DROP TABLE uq_long;
