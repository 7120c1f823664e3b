--
-- 16_upgrade: ALTER EXTENSION bpindex UPDATE from the previous version,
-- in a database of its own, with an index that keeps working across it.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SELECT current_database() AS up_regress_db,
       current_database() || '_upgrade' AS up_db \gset
SET client_min_messages = warning;
DROP DATABASE IF EXISTS :"up_db";
RESET client_min_messages;
CREATE DATABASE :"up_db" TEMPLATE template0;
\c :"up_db"
CREATE EXTENSION bpindex VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'bpindex';
SELECT has_function_privilege('public', 'bpindex_metap(regclass)', 'EXECUTE') AS metap_public;
CREATE TABLE up_t (k int4);
INSERT INTO up_t SELECT i FROM generate_series(1, 1000) i;
CREATE INDEX up_t_bp ON up_t USING bpindex (k);
-- the 1.0 function of ten columns keeps working with the new library
SELECT levels, leaf_pages, entries, unused_pages FROM bpindex_stats('up_t_bp');
ALTER EXTENSION bpindex UPDATE TO '1.4';
SELECT extversion FROM pg_extension WHERE extname = 'bpindex';
-- 1.1: bpindex_metap shows raw index content and is for superusers
SELECT has_function_privilege('public', 'bpindex_metap(regclass)', 'EXECUTE') AS metap_public;
-- 1.2: bpindex_stats reports deleted and recyclable pages, and keeps its
-- privileges
CREATE TABLE up_t2 (k int4);
INSERT INTO up_t2 SELECT i FROM generate_series(1, 20000) i;
CREATE INDEX up_t2_bp ON up_t2 USING bpindex (k);
DELETE FROM up_t2 WHERE k <= 15000;
VACUUM up_t2;
SELECT levels, entries, deleted_pages > 0 AS deleted,
       recyclable_pages <= deleted_pages AS recyclable_ok
FROM bpindex_stats('up_t2_bp');
SELECT has_function_privilege('public', 'bpindex_stats(regclass)', 'EXECUTE') AS stats_public,
       has_function_privilege('pg_stat_scan_tables', 'bpindex_stats(regclass)', 'EXECUTE') AS stats_scan_tables;
DROP TABLE up_t2;
-- 1.4: operator classes of variable-length keys
CREATE TABLE up_text (t text);
INSERT INTO up_text SELECT md5(i::text) FROM generate_series(1, 2000) i;
CREATE INDEX up_text_bp ON up_text USING bpindex (t);
SELECT bpindex_check('up_text_bp', true);
SET enable_seqscan = off;
SELECT count(*) FROM up_text WHERE t < '1';
RESET enable_seqscan;
DROP TABLE up_text;
-- 1.5: leaves of text under "C" store keys without their shared prefix;
-- the 1.4 bpindex_leaves keeps working with the new library, and the 1.5
-- one shows the prefix
CREATE TABLE up_url (u text COLLATE "C");
INSERT INTO up_url SELECT 'https://www.example.com/item/' || lpad(i::text, 6, '0')
FROM generate_series(1, 5000) i;
CREATE INDEX up_url_bp ON up_url USING bpindex (u);
SELECT count(*) > 1 AS leaves, bool_and(low_key IS NOT NULL OR blkno = 1) AS fences
FROM bpindex_leaves('up_url_bp');
ALTER EXTENSION bpindex UPDATE TO '1.5';
SELECT extversion FROM pg_extension WHERE extname = 'bpindex';
SELECT min(prefix_bytes) >= 29 AS leaves_strip FROM bpindex_leaves('up_url_bp');
SELECT has_function_privilege('public', 'bpindex_leaves(regclass)', 'EXECUTE') AS leaves_public;
SET enable_seqscan = off;
SELECT count(*) FROM up_url WHERE u BETWEEN 'https://www.example.com/item/001000'
                                        AND 'https://www.example.com/item/002000';
RESET enable_seqscan;
SELECT bpindex_check('up_url_bp', true);
DROP TABLE up_url;
-- 1.6: bpindex's own WAL resource manager; bpindex_wal_ready says that
-- this server (which preloads bpindex) can write, and 1.5's indexes are
-- written on
ALTER EXTENSION bpindex UPDATE TO '1.6';
SELECT extversion FROM pg_extension WHERE extname = 'bpindex';
SELECT bpindex_wal_ready();
INSERT INTO up_t SELECT i FROM generate_series(1001, 3000) i;
SELECT bpindex_check('up_t_bp', true);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM up_t WHERE k BETWEEN 10 AND 20;
SELECT count(*) FROM up_t WHERE k BETWEEN 10 AND 20;
RESET enable_seqscan;
SELECT bpindex_check('up_t_bp', true);
-- 1.7: a default operator class for every type with a default btree
-- operator class; before the update an enum column has none
CREATE TYPE up_mood AS ENUM ('low', 'high');
CREATE TABLE up_types (m up_mood, j jsonb, iv interval);
INSERT INTO up_types
SELECT (ARRAY['low', 'high'])[1 + i % 2]::up_mood, jsonb_build_object('n', i % 50),
       (i % 30) * interval '1 hour'
FROM generate_series(1, 3000) i;
CREATE INDEX up_types_bp ON up_types USING bpindex (m, j, iv);
ALTER EXTENSION bpindex UPDATE TO '1.7';
SELECT extversion FROM pg_extension WHERE extname = 'bpindex';
SELECT count(*) AS btree_types_without_class
FROM pg_opclass bt
WHERE bt.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'btree') AND bt.opcdefault
  AND NOT EXISTS (SELECT FROM pg_opclass bp
                  WHERE bp.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bpindex')
                    AND bp.opcdefault AND bp.opcintype = bt.opcintype);
SELECT opcname, amvalidate(oid) FROM pg_opclass
WHERE opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bpindex') AND NOT amvalidate(oid);
CREATE INDEX up_types_bp ON up_types USING bpindex (m, j, iv);
VACUUM ANALYZE up_types;
SELECT bpindex_check('up_types_bp', true);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM up_types WHERE m = 'high' AND j = '{"n": 7}';
SELECT count(*) FROM up_types WHERE m = 'high' AND j = '{"n": 7}';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) FROM up_types WHERE m = 'high' AND j = '{"n": 7}';
-- and the indexes of 1.6 keep taking inserts
INSERT INTO up_t SELECT i FROM generate_series(3001, 4000) i;
SELECT bpindex_check('up_t_bp', true);
DROP TABLE up_types;
DROP TYPE up_mood;
-- 1.8: btree's pattern operator classes (before the update there is none),
-- and a bpindex class for every btree class, by name
CREATE TABLE up_pat (s text, c char(8));
INSERT INTO up_pat SELECT 'w' || i, 'w' || (i % 100) FROM generate_series(1, 3000) i;
CREATE INDEX up_pat_bp ON up_pat USING bpindex (s text_pattern_ops);
ALTER EXTENSION bpindex UPDATE TO '1.8';
SELECT extversion FROM pg_extension WHERE extname = 'bpindex';
SELECT bt.opcname FROM pg_opclass bt
WHERE bt.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'btree')
  AND NOT EXISTS (SELECT FROM pg_opclass bp
                  WHERE bp.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bpindex')
                    AND bp.opcname = bt.opcname)
ORDER BY 1;
SELECT opcname, amvalidate(oid) FROM pg_opclass
WHERE opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bpindex') AND opcname LIKE '%pattern%'
ORDER BY 1;
CREATE INDEX up_pat_bp ON up_pat USING bpindex (s text_pattern_ops);
CREATE INDEX up_pat_c ON up_pat USING bpindex (c bpchar_pattern_ops);
SELECT bpindex_check('up_pat_bp', true), bpindex_check('up_pat_c', true);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM up_pat WHERE s LIKE 'w12%';
SELECT count(*) FROM up_pat WHERE s LIKE 'w12%';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) FROM up_pat WHERE s LIKE 'w12%';
DROP TABLE up_pat;
-- 1.9: internal pages of long pivots filled for fewer children; no SQL
-- object changes, and an index built before the update takes keys up to
-- the limit after it
CREATE TABLE up_long (k text);
CREATE INDEX up_long_bp ON up_long USING bpindex (k);
INSERT INTO up_long SELECT md5(g::text) FROM generate_series(1, 500) g;
ALTER EXTENSION bpindex UPDATE TO '1.9';
SELECT extversion FROM pg_extension WHERE extname = 'bpindex';
INSERT INTO up_long SELECT repeat('r', 2540) || md5(g::text) FROM generate_series(1, 80) g;
SELECT bpindex_check('up_long_bp', true);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*), sum(length(k)) FROM up_long WHERE k >= 'r';
SELECT count(*), sum(length(k)) FROM up_long WHERE k >= 'r';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*), sum(length(k)) FROM up_long WHERE k >= 'r';
DROP TABLE up_long;
-- 1.10: internal pages may omit their low key, leaves split before their
-- first entry; no SQL object changes, and an index built before the update
-- takes keys of btree's limit after it
CREATE TABLE up_limit (k text);
ALTER TABLE up_limit ALTER COLUMN k SET STORAGE plain;
CREATE INDEX up_limit_bp ON up_limit USING bpindex (k DESC);
INSERT INTO up_limit SELECT left(string_agg(md5(i || '.' || g), ''), 2500)
FROM generate_series(1, 40) i, generate_series(1, 79) g GROUP BY i;
ALTER EXTENSION bpindex UPDATE TO '1.10';
SELECT extversion FROM pg_extension WHERE extname = 'bpindex';
INSERT INTO up_limit SELECT left(string_agg(md5(i || ':' || g), ''), 2692)
FROM generate_series(1, 60) i, generate_series(1, 85) g GROUP BY i;
SELECT bpindex_check('up_limit_bp', true);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*), sum(length(k)) FROM up_limit WHERE k >= '8';
SELECT count(*), sum(length(k)) FROM up_limit WHERE k >= '8';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*), sum(length(k)) FROM up_limit WHERE k >= '8';
DROP TABLE up_limit;
-- the update scripts are the only way to 1.2 from 1.0, and a fresh install
-- reaches the same objects
SELECT version, installed FROM pg_available_extension_versions
WHERE name = 'bpindex' ORDER BY string_to_array(version, '.')::int[];
-- a hypothetical index does not outlive DROP EXTENSION: EXPLAIN and
-- queries on its table go on without it (the library stays loaded)
SELECT count(*) FROM bpindex_hypo_create_index('CREATE INDEX ON up_t USING bpindex (k)');
DROP EXTENSION bpindex CASCADE;
EXPLAIN (COSTS OFF) SELECT * FROM up_t WHERE k = 5;
SELECT * FROM up_t WHERE k = 5;
CREATE EXTENSION bpindex;
SELECT extversion FROM pg_extension WHERE extname = 'bpindex';
SELECT has_function_privilege('public', 'bpindex_metap(regclass)', 'EXECUTE') AS metap_public;
\c :"up_regress_db"
DROP DATABASE :"up_db";
