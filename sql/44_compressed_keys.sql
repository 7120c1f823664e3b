--
-- 44_compressed_keys: an entry whose keys exceed the index's limit has its
-- longest keys compressed, as btree compresses long values, and is taken
-- if they then fit.  Compressed keys stay out of packed leaves and whole
-- in pivots; every plan shape, builds, inserts that split leaves and
-- internal pages, VACUUM and page deletion, REINDEX and bpindex_check read
-- them like other keys.  Keys that do not compress below the limit are
-- refused, naming the index and the row.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
-- a compressible value of len bytes that starts with a text of its own
CREATE FUNCTION ck_value(i int, len int) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT left(md5(i::text) || repeat('/' || (i % 7)::text || 'abcdefgh', len / 11 + 1), len) $$;
-- an incompressible one
CREATE FUNCTION ck_noise(i int, len int) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT left(string_agg(md5((i * 1000 + g)::text), ''), len)
      FROM generate_series(1, len / 32 + 1) g $$;

-- text in bytewise order: short keys, long ones up to the limit, and
-- compressible ones of 2,300 bytes to 100 kB, inserted one by one into an
-- index built over short keys
CREATE TABLE ck (id int, k text COLLATE "C") WITH (autovacuum_enabled = off);
INSERT INTO ck SELECT g, md5(g::text) FROM generate_series(1, 2000) g;
CREATE INDEX ck_k ON ck USING bpindex (k);
DO $$
BEGIN
    FOR i IN 1..300 LOOP
        INSERT INTO ck VALUES (10000 + i, ck_value(i, 2300 + (i * 331) % 30000));
        IF i % 3 = 0 THEN
            INSERT INTO ck VALUES (20000 + i, ck_noise(i, 300 + (i * 97) % 1900));
        END IF;
    END LOOP;
END $$;
INSERT INTO ck VALUES (30001, repeat('y', 100000)), (30002, repeat('y', 100000)),
                      (30003, 'https://example.com/' || ck_value(5, 9000));
SELECT count(*) AS rows, count(*) FILTER (WHERE octet_length(k) > 2584) AS beyond_limit,
       max(octet_length(k)) AS longest
FROM ck;
VACUUM ANALYZE ck;
SELECT bpindex_check('ck_k', true);
-- the compressed keys take far less room than their data
SELECT pg_relation_size('ck_k') < (SELECT sum(octet_length(k)) FROM ck) / 4 AS compressed;
-- every plan shape, against a sequential scan
SELECT shape, idx, ionly, bitmap
FROM bp_matrix('compressed text', 'ck', 'k',
               ARRAY[ck_value(40, 2300), ck_value(40, 2400), md5('77'), ck_value(120, 12000), repeat('y', 100000)])
WHERE 'DIFF' IN (idx, ionly, bitmap) OR 'PLAN' IN (idx, ionly, bitmap);
SELECT * FROM bp_queries('compressed text', ARRAY[
    'select id from ck where k = repeat(''y'', 100000)',
    'select id from ck where k = ck_value(33, 2300 + (33 * 331) % 30000)',
    'select id from ck where k in (ck_value(34, 2300 + (34 * 331) % 30000), md5(''5''))'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_queries('compressed text', ARRAY[
    'select length(k) from ck where k = repeat(''y'', 100000)',
    'select md5(k), length(k) from ck where k >= ''c'' and k < ''d'' order by k desc',
    'select left(k, 40), length(k) from ck where k >= ''https:'' and k < ''https;'' order by k'
]);
-- a build over them, serial and parallel, holds the same entries
CREATE INDEX ck_k_built ON ck USING bpindex (k);
SELECT bpindex_check('ck_k_built', true);
SET max_parallel_maintenance_workers = 2;
SET min_parallel_table_scan_size = 0;
ALTER TABLE ck SET (parallel_workers = 2);
CREATE INDEX ck_k_parallel ON ck USING bpindex (k);
RESET max_parallel_maintenance_workers;
RESET min_parallel_table_scan_size;
SELECT bpindex_check('ck_k_parallel', true);
SELECT (SELECT entries FROM bpindex_stats('ck_k')) AS inserted,
       (SELECT entries FROM bpindex_stats('ck_k_built')) AS built,
       (SELECT entries FROM bpindex_stats('ck_k_parallel')) AS parallel;
DROP INDEX ck_k_built, ck_k_parallel;

-- deletes empty leaves of compressed keys (VACUUM deletes them, their
-- compressed fences move to neighbours); inserts fill them again
DELETE FROM ck WHERE k >= '2' AND k < '5';
SELECT bp_wait_for_horizon();
VACUUM ck;
SELECT deleted_pages > 0 AS leaves_deleted FROM bpindex_stats('ck_k');
INSERT INTO ck SELECT 40000 + i, ck_value(i, 2500 + i) || 'x' FROM generate_series(1, 300) i;
SELECT bpindex_check('ck_k', true);
VACUUM ck;
SELECT * FROM bp_queries('compressed text', ARRAY[
    'select md5(k) from ck where k > ck_value(8, 100) order by k limit 50',
    'select md5(k) from ck where k >= ''1'' and k < ''6'' order by k desc',
    'select count(*) from ck where k >= ''0'''
]);
REINDEX INDEX CONCURRENTLY ck_k;
SELECT bpindex_check('ck_k', true);

-- keys that do not compress below the limit are refused by inserts and
-- builds, with btree's kind of error
CREATE TABLE ck_noisy (k text);
CREATE INDEX ck_noisy_k ON ck_noisy USING bpindex (k);
INSERT INTO ck_noisy VALUES (ck_noise(1, 2600));
DROP INDEX ck_noisy_k;
INSERT INTO ck_noisy VALUES (ck_noise(2, 3000));
CREATE INDEX ck_noisy_k ON ck_noisy USING bpindex (k);
DROP TABLE ck_noisy;

-- the database's collation, DESC: pivots keep compressed keys whole
CREATE TABLE ckd (k text, n int4) WITH (autovacuum_enabled = off);
CREATE INDEX ckd_k ON ckd USING bpindex (k DESC NULLS FIRST);
INSERT INTO ckd SELECT CASE WHEN g % 50 = 0 THEN NULL
                            WHEN g % 3 = 0 THEN ck_value(g, 3000 + g)
                            ELSE 'short ' || g END, g
FROM generate_series(1, 1500) g;
SELECT bpindex_check('ckd_k', true);
SELECT shape, idx, ionly, bitmap
FROM bp_matrix('compressed desc', 'ckd', 'k', ARRAY[ck_value(300, 3300), 'short 5', ck_value(99, 3099)])
WHERE 'DIFF' IN (idx, ionly, bitmap) OR 'PLAN' IN (idx, ionly, bitmap);

-- two key columns: a compressed leading key that a skip scan walks, and
-- a compressed second key
CREATE TABLE ck2 (a text, b int4, c text) WITH (autovacuum_enabled = off);
INSERT INTO ck2 SELECT ck_value(g % 6, 5000), g, ck_value(g, 2400 + g % 500)
FROM generate_series(1, 3000) g;
CREATE INDEX ck2_ab ON ck2 USING bpindex (a, b);
VACUUM ANALYZE ck2;
SELECT bpindex_check('ck2_ab', true);
SELECT * FROM bp_queries('compressed columns', ARRAY[
    'select a = ck_value(2, 5000), b from ck2 where b between 100 and 140',
    'select b from ck2 where a = ck_value(4, 5000) and b < 200 order by a, b',
    'select md5(a), b from ck2 where a >= ck_value(3, 5000) and b between 17 and 30'
], ARRAY['index', 'indexonly', 'bitmap']);
CREATE INDEX ck2_bc ON ck2 USING bpindex (b, c);
SELECT bpindex_check('ck2_bc', true);
SELECT * FROM bp_queries('compressed columns', ARRAY[
    'select b, length(c) from ck2 where b = 2990 and c = ck_value(2990, 2400 + 2990 % 500)',
    'select b, length(c) from ck2 where b between 500 and 520 order by b desc, c desc'
], ARRAY['index', 'indexonly', 'bitmap']);

-- bytea, bpchar padded with blanks, jsonb and arrays
CREATE TABLE ckt (id int, by bytea, ch char(3000), j jsonb, a int4[])
WITH (autovacuum_enabled = off);
CREATE INDEX ckt_by ON ckt USING bpindex (by);
CREATE INDEX ckt_ch ON ckt USING bpindex (ch);
CREATE INDEX ckt_j ON ckt USING bpindex (j);
CREATE INDEX ckt_a ON ckt USING bpindex (a);
INSERT INTO ckt
SELECT g, convert_to(ck_value(g, 2000 + g * 10), 'UTF8'), 'c' || g,
       jsonb_build_object('k', ck_value(g, 2300 + g)),
       array_fill(g, ARRAY[600 + g % 50])
FROM generate_series(1, 400) g;
SELECT bpindex_check('ckt_by', true), bpindex_check('ckt_ch', true),
       bpindex_check('ckt_j', true), bpindex_check('ckt_a', true);
SELECT * FROM bp_queries('compressed types', ARRAY[
    'select id from ckt where by = convert_to(ck_value(37, 2370), ''UTF8'')',
    'select id from ckt where by > convert_to(ck_value(37, 2370), ''UTF8'') order by by limit 20',
    'select id, length(ch) from ckt where ch = ''c17''',
    'select id from ckt where ch between ''c2'' and ''c3'' order by ch desc',
    'select id from ckt where j = jsonb_build_object(''k'', ck_value(250, 2550))',
    'select id from ckt where a = array_fill(77, ARRAY[627])',
    'select id from ckt where a > array_fill(390, ARRAY[10]) order by a'
], ARRAY['index', 'bitmap']);

-- INCLUDE values are compressed too, and index-only scans return them
CREATE TABLE cki (id int4, s text) WITH (autovacuum_enabled = off);
CREATE INDEX cki_id ON cki USING bpindex (id) INCLUDE (s);
INSERT INTO cki SELECT g, CASE WHEN g % 2 = 0 THEN ck_value(g, 5000 + g) ELSE 'v' || g END
FROM generate_series(1, 600) g;
VACUUM cki;
SELECT bpindex_check('cki_id', true);
SELECT * FROM bp_queries('compressed include', ARRAY[
    'select id, s from cki where id between 100 and 160',
    'select id, md5(s) from cki where id > 550 order by id desc'
], ARRAY['index', 'indexonly']);

SELECT * FROM bp_failures('compressed%');
DROP TABLE ck, ckd, ck2, ckt, cki;
DROP FUNCTION ck_value(int, int), ck_noise(int, int);
