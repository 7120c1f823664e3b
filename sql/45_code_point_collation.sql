--
-- 45_code_point_collation: text under libc's C.UTF-8, whose order is that
-- of code points, so of UTF-8 bytes: bpindex compares such keys as bytes,
-- as under C (prefixes, ordered windows, stripped prefixes, shortened
-- pivots), and answers as PostgreSQL's own strcoll() order says.  Keys of
-- every UTF-8 length, cases and punctuation that a linguistic order would
-- interleave; text, varchar and bpchar; ASC, DESC and two columns; inserts
-- that split leaves; every plan shape against a sequential scan.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE COLLATION cu8 (provider = libc, locale = 'C.UTF-8');
CREATE TABLE cp (id int4, k text COLLATE cu8, vc varchar(80) COLLATE cu8,
                 bc char(12) COLLATE cu8)
WITH (autovacuum_enabled = off);
INSERT INTO cp
SELECT g,
       CASE WHEN g % 97 = 0 THEN NULL
            WHEN g % 5 = 0 THEN 'https://example.com/catalog/item/' || lpad((g % 700)::text, 4, '0') || '/' || md5(g::text)
            WHEN g % 5 = 1 THEN (ARRAY['a', 'B', 'é', 'É', 'ß', '€', '😀', 'a b', 'a-b', 'ab', 'Ab', '_z', '~'])[1 + g % 13] || (g % 300)::text
            WHEN g % 5 = 2 THEN chr(32 + g % 95) || chr(192 + g % 500) || chr(8000 + g % 3000) || g
            ELSE md5(g::text) END,
       chr(65 + g % 58) || repeat(chr(1000 + g % 200), g % 7) || g,
       chr(97 + g % 26) || chr(200 + g % 100) || (g % 50)::text
FROM generate_series(1, 12000) g;
CREATE INDEX cp_k ON cp USING bpindex (k);
CREATE INDEX cp_k_desc ON cp USING bpindex (k DESC NULLS FIRST);
CREATE INDEX cp_vc_id ON cp USING bpindex (vc, id);
CREATE INDEX cp_bc ON cp USING bpindex (bc);
VACUUM ANALYZE cp;
-- PostgreSQL's own order of these keys under the collation is their byte order
SELECT array_agg(k ORDER BY k) = array_agg(k ORDER BY k COLLATE "C") AS k_in_byte_order,
       array_agg(vc ORDER BY vc) = array_agg(vc ORDER BY vc COLLATE "C") AS vc_in_byte_order
FROM cp;
-- the index lays its leaves out for byte order: URL-like keys are stored
-- without the prefix their leaf's fences share, as under C
SELECT max(prefix_bytes) >= 8 AS stripped FROM bpindex_leaves('cp_k');
SELECT bpindex_check('cp_k', true), bpindex_check('cp_k_desc', true),
       bpindex_check('cp_vc_id', true), bpindex_check('cp_bc', true);
SELECT shape, idx, ionly, bitmap
FROM bp_matrix('code point text', 'cp', 'k',
               ARRAY['9', 'B', 'a b', 'ab', 'https://example.com/catalog/item/0350', 'ß1', 'É', '😀'])
WHERE 'DIFF' IN (idx, ionly, bitmap) OR 'PLAN' IN (idx, ionly, bitmap);
SELECT * FROM bp_queries('code point text', ARRAY[
    'select k from cp where k > ''a'' and k < ''b'' order by k',
    'select k from cp where k >= ''É'' order by k desc limit 30',
    'select k from cp where k < ''B'' order by k desc nulls first limit 40',
    'select vc, id from cp where vc between ''Z'' and ''b'' order by vc, id',
    'select vc, id from cp where vc = ''a'' || repeat(chr(1032), 4) || ''32'' and id > 0',
    'select bc from cp where bc between ''b'' and ''c'' order by bc',
    'select bc from cp where bc = ''uĐ22'''
]);

-- LIKE 'prefix%' uses the index through the bounds its prefix implies (the
-- LIKE a filter), as under C; btree needs text_pattern_ops for it here
EXPLAIN (COSTS OFF) SELECT k FROM cp WHERE k LIKE 'https://example.com/catalog/item/03%';
EXPLAIN (COSTS OFF) SELECT bc FROM cp WHERE bc LIKE 'uĐ2%';
SELECT r.* FROM unnest(ARRAY[
    'select k from cp where k like ''https://example.com/catalog/item/03%''',
    'select k from cp where k like ''é%''',
    'select k from cp where k like ''a b%''',
    'select k from cp where k like ''😀1_''',
    'select k from cp where k like ''ab1''',
    'select k, id from cp where k like ''' || chr(1114111) || '%''',
    'select vc, id from cp where vc like ''a' || chr(1032) || '%'' and id > 10',
    'select bc from cp where bc like ''uĐ2%'''
]) q, bp_lossy_check(q, 'cp_') r;

-- inserts of keys of every UTF-8 length split leaves and internal pages
INSERT INTO cp (id, k, vc, bc)
SELECT 20000 + g, chr(1 + g % 127) || chr(128 + g % 1900) || chr(2048 + g % 50000) || chr(65536 + g % 5000) || g,
       'v' || chr(3000 + g % 500) || g, chr(48 + g % 40) || g % 9
FROM generate_series(1, 15000) g;
VACUUM cp;
SELECT array_agg(k ORDER BY k) = array_agg(k ORDER BY k COLLATE "C") AS k_in_byte_order FROM cp;
SELECT bpindex_check('cp_k', true), bpindex_check('cp_k_desc', true),
       bpindex_check('cp_vc_id', true), bpindex_check('cp_bc', true);
SELECT shape, idx, ionly, bitmap
FROM bp_matrix('code point text', 'cp', 'k',
               ARRAY[chr(5) || chr(200), 'A', 'a-b', 'é', chr(3000), chr(70000)])
WHERE 'DIFF' IN (idx, ionly, bitmap) OR 'PLAN' IN (idx, ionly, bitmap);
SELECT * FROM bp_failures('code point%');
DROP TABLE cp;
DROP COLLATION cu8;
