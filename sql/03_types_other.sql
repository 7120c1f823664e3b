--
-- 03_types_other: bool and uuid columns, same scheme as 01_types_numeric.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- bool: only three distinct keys (false, true, NULL), so long runs of
-- duplicates span many leaves
CREATE TABLE t_bool (k bool);
INSERT INTO t_bool
SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE i * 7919 % 3 = 0 END
FROM generate_series(1, 6000) i;
VACUUM ANALYZE t_bool;
CREATE INDEX t_bool_bp ON t_bool USING bpindex (k);
SELECT k, count(*) FROM t_bool GROUP BY k ORDER BY k;
-- "k = true" is simplified to "k", which PostgreSQL only matches to
-- btree's own boolean operator family: bpindex sees no index condition
-- (bp_matrix therefore writes boolean equality probes as subqueries)
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT k FROM t_bool WHERE k = true;
EXPLAIN (COSTS OFF) SELECT k FROM t_bool WHERE k = (SELECT true);
EXPLAIN (COSTS OFF) SELECT k FROM t_bool WHERE k > false;
RESET enable_seqscan;
SELECT * FROM bp_matrix('bool', 't_bool', 'k', ARRAY['false', 'true']);
SELECT * FROM bp_failures('bool');

-- uuid: md5-derived values with duplicates, the all-zero and all-f uuids
CREATE TABLE t_uuid (k uuid);
INSERT INTO t_uuid
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN '00000000-0000-0000-0000-000000000000'
            WHEN i % 89 = 0 THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'
            ELSE md5((i * 7919 % 1201)::text)::uuid END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_uuid;
CREATE INDEX t_uuid_bp ON t_uuid USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k),
       count(*) FILTER (WHERE k = '00000000-0000-0000-0000-000000000000') AS zeros,
       count(*) FILTER (WHERE k = 'ffffffff-ffff-ffff-ffff-ffffffffffff') AS ffs,
       pg_relation_size('t_uuid_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_uuid;
-- probes: the extremes, a few stored values and absent ones
SELECT array_agg(u::text ORDER BY u) AS probes
FROM unnest(ARRAY['00000000-0000-0000-0000-000000000000',
                  'ffffffff-ffff-ffff-ffff-ffffffffffff',
                  '80000000-0000-0000-0000-000000000000',
                  md5('17')::uuid, md5('600')::uuid, md5('1200')::uuid,
                  md5('absent')::uuid]::uuid[]) AS u \gset
SELECT unnest(:'probes'::text[]) AS probe;
SELECT * FROM bp_matrix('uuid', 't_uuid', 'k', :'probes');
SELECT * FROM bp_failures('uuid');
