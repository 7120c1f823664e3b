--
-- 41_include_varlena: INCLUDE columns of variable-length types (text,
-- varchar, numeric, arrays, jsonb), returned by index-only scans.  Their
-- values live in the leaf's key area beside the keys, are never compared,
-- and pivots leave them out.  With fixed-length and variable-length key
-- columns, DESC, NULLs, long values up to the entry's limit, inserts that
-- split leaves, VACUUM, serial and parallel builds, hypothetical indexes;
-- every scan shape against a sequential scan.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE iv (id int8, email text, name varchar(60), score numeric,
                 tags text[], doc jsonb, at timestamptz)
WITH (autovacuum_enabled = off, parallel_workers = 2);
INSERT INTO iv
SELECT g, 'user' || g || '@example' || g % 13 || '.com',
       CASE WHEN g % 11 = 0 THEN NULL WHEN g % 11 = 1 THEN '' ELSE 'Name ' || md5(g::text) END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE round(g / 7.0, 3) END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE ARRAY['t' || g % 5, repeat('x', g % 40)] END,
       jsonb_build_object('n', g, 'even', g % 2 = 0),
       '2024-01-01'::timestamptz + g * interval '1 minute'
FROM generate_series(1, 30000) g;
CREATE INDEX iv_id ON iv USING bpindex (id) INCLUDE (email, name);
CREATE INDEX iv_email ON iv USING bpindex (email) INCLUDE (score, tags);
CREATE INDEX iv_at ON iv USING bpindex (at DESC, id) INCLUDE (doc, name);
VACUUM ANALYZE iv;
SELECT bpindex_check('iv_id', true), bpindex_check('iv_email', true),
       bpindex_check('iv_at', true);
-- index-only scans return them
EXPLAIN (COSTS OFF) SELECT id, email, name FROM iv WHERE id BETWEEN 100 AND 110;
SELECT id, email, name FROM iv WHERE id BETWEEN 100 AND 110 ORDER BY id;
SELECT * FROM bp_queries('include varlena', ARRAY[
    'select id, email, name from iv where id between 1000 and 1300',
    'select id, email, name from iv where id between 1000 and 1300 order by id desc',
    'select id, name from iv where id in (11, 12, 29999, 5)',
    'select email, score, tags from iv where email between ''user100'' and ''user12'' order by email',
    'select email, tags from iv where email > ''user29'' order by email desc',
    'select at, id, doc, name from iv where at >= ''2024-01-10'' and at < ''2024-01-11'' order by at desc, id',
    'select count(*), sum(length(name)), sum(length(email)) from iv where id > 0'
]);

-- inserts after the build split the leaves: long values, NULLs, equal keys
-- with different INCLUDE values
INSERT INTO iv
SELECT 30000 + g, repeat('e', g % 400) || g, repeat('n', g % 60), g, ARRAY[repeat('y', g % 200)],
       CASE WHEN g % 3 = 0 THEN NULL ELSE jsonb_build_object('long', repeat('z', g % 300)) END,
       '2024-01-01'::timestamptz + (g % 5000) * interval '1 minute'
FROM generate_series(1, 20000) g;
INSERT INTO iv SELECT 7, 'dup-' || g, 'same key', g, NULL, NULL, now() FROM generate_series(1, 2000) g;
SELECT bpindex_check('iv_id', true), bpindex_check('iv_email', true),
       bpindex_check('iv_at', true);
SELECT * FROM bp_queries('include varlena after inserts', ARRAY[
    'select id, email, name from iv where id between 29900 and 30500',
    'select id, email, name from iv where id = 7',
    'select email, score, tags from iv where email >= ''eeee'' and email < ''eeef''',
    'select at, id, doc, name from iv where at >= ''2024-01-02'' and at < ''2024-01-02 02:00'' order by at desc, id',
    'select count(*), sum(length(email)), sum(length(name)) from iv where id >= 0'
]);

-- VACUUM removes entries and leaves; the rest still answer
DELETE FROM iv WHERE id % 4 = 0 OR id = 7;
VACUUM iv;
SELECT bpindex_check('iv_id', true), bpindex_check('iv_email', true),
       bpindex_check('iv_at', true);
SELECT * FROM bp_queries('include varlena after vacuum', ARRAY[
    'select id, email, name from iv where id between 29900 and 30500',
    'select count(*), sum(length(email)), sum(length(name)) from iv where id >= 0'
]);

-- the keys and INCLUDE values of an entry share its limit, after
-- compression (a value that does not compress below it is refused)
CREATE TABLE iv_long (k int4, s text);
CREATE INDEX iv_long_k ON iv_long USING bpindex (k) INCLUDE (s);
INSERT INTO iv_long VALUES (1, repeat('a', 800));
INSERT INTO iv_long VALUES (2, repeat('b', 2200));
INSERT INTO iv_long VALUES (6, repeat('d', 2400));
INSERT INTO iv_long VALUES (3, repeat('c', 5000));
INSERT INTO iv_long VALUES (7, (SELECT left(string_agg(md5((11 + g)::text), ''), 2400) FROM generate_series(1, 76) g));
INSERT INTO iv_long VALUES (8, (SELECT left(string_agg(md5((11 + g)::text), ''), 2600) FROM generate_series(1, 82) g));
INSERT INTO iv_long VALUES (4, NULL), (5, '');
SET enable_seqscan = off;
SELECT k, length(s) FROM iv_long WHERE k > 0 ORDER BY k;
RESET enable_seqscan;
DROP TABLE iv_long;

-- a parallel build writes the pages a serial one writes
SET maintenance_work_mem = '256MB';
SET max_parallel_maintenance_workers = 0;
CREATE INDEX iv_email_serial ON iv USING bpindex (email) INCLUDE (score, tags, name);
SET max_parallel_maintenance_workers = 2;
SET client_min_messages = debug1;
CREATE INDEX iv_email_par ON iv USING bpindex (email) INCLUDE (score, tags, name);
RESET client_min_messages;
RESET max_parallel_maintenance_workers;
RESET maintenance_work_mem;
SELECT bp_same_pages('iv_email_serial', 'iv_email_par') AS same_pages;
SELECT bpindex_check('iv_email_par', true);
DROP INDEX iv_email_serial, iv_email_par;

-- a hypothetical index with such columns estimates its size within 15% of
-- a real build's
ANALYZE iv;
CREATE INDEX iv_id_fresh ON iv USING bpindex (id) INCLUDE (email, name);
SELECT count(*) FROM bpindex_hypo_create_index('CREATE INDEX ON iv USING bpindex (id) INCLUDE (email, name)');
SELECT abs(bpindex_hypo_relation_size(h.indexrelid) - pg_relation_size('iv_id_fresh'))
           / pg_relation_size('iv_id_fresh')::float8 < 0.15 AS within_15_percent
FROM bpindex_hypo_list_indexes() h;
SELECT bpindex_hypo_reset();
DROP TABLE iv;
