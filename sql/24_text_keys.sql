--
-- 24_text_keys: variable-length keys.  text under the database's collation
-- (compared by the operator class) and under "C" (bytewise: the slot's
-- prefix decides unless equal), varchar, bpchar, bytea and numeric, in every
-- plan shape against a sequential scan (bp_matrix), with NULLs, empty
-- strings, keys sharing long prefixes, keys that differ only after the
-- slot's 8-byte prefix, multi-byte UTF-8, bpchar's trailing blanks, numeric
-- NaN, infinities and trailing zeros; the longest key and one byte more;
-- inserts that split leaves and internal pages; multi-column indexes mixing
-- fixed and variable-length columns.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- text: URLs sharing "https://example.com/" (longer than a prefix), emails,
-- Greek letters (two bytes each), NULLs and empty strings, duplicates
CREATE TABLE t_text (k text);
INSERT INTO t_text
SELECT CASE WHEN i % 23 = 0 THEN NULL
            WHEN i % 29 = 0 THEN ''
            WHEN i % 3 = 0 THEN 'https://example.com/path/' || (i * 7919 % 1000)
            WHEN i % 3 = 1 THEN 'user' || (i * 31 % 5000) || '@mail.example'
            ELSE repeat(chr(945 + i % 20), 1 + i % 5) || (i % 700)::text END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_text;
CREATE INDEX t_text_bp ON t_text USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k),
       pg_relation_size('t_text_bp') / current_setting('block_size')::int > 10 AS several_leaves
FROM t_text;
SELECT bpindex_check('t_text_bp', true);
SELECT * FROM bp_matrix('text', 't_text', 'k',
                        ARRAY['', 'https://example.com/path/17',
                              'https://example.com/path/5', 'user1@mail.example',
                              'zzz', 'αα3', 'ωω']);
SELECT * FROM bp_failures('text');

-- the same under "C": prefixes decide, ties go to the whole keys
CREATE TABLE t_text_c (k text COLLATE "C");
INSERT INTO t_text_c SELECT k FROM t_text;
VACUUM ANALYZE t_text_c;
CREATE INDEX t_text_c_bp ON t_text_c USING bpindex (k);
SELECT bpindex_check('t_text_c_bp', true);
SELECT * FROM bp_matrix('text C', 't_text_c', 'k',
                        ARRAY['', 'https://example.com/path/17',
                              'https://example.com/path/5', 'user1@mail.example',
                              'zzz', 'αα3', 'ωω']);
SELECT * FROM bp_failures('text C');
-- an index gives the order of its own collation only
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT k FROM t_text_c ORDER BY k LIMIT 3;
EXPLAIN (COSTS OFF) SELECT k FROM t_text ORDER BY k COLLATE "C" LIMIT 3;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- varchar uses text_ops, as btree's varchar columns do
CREATE TABLE t_varchar (k varchar(40));
INSERT INTO t_varchar SELECT k FROM t_text WHERE length(k) <= 40;
VACUUM ANALYZE t_varchar;
CREATE INDEX t_varchar_bp ON t_varchar USING bpindex (k);
SELECT * FROM bp_matrix('varchar', 't_varchar', 'k',
                        ARRAY['https://example.com/path/17', 'user1@mail.example']);
SELECT * FROM bp_failures('varchar');

-- bpchar: trailing blanks do not count ('ab' = 'ab  ')
CREATE TABLE t_bpchar (k char(10));
INSERT INTO t_bpchar
SELECT CASE WHEN i % 31 = 0 THEN NULL
            WHEN i % 5 = 0 THEN 'ab'
            ELSE substr(md5(i::text), 1, 1 + i % 10) END
FROM generate_series(1, 6000) i;
VACUUM ANALYZE t_bpchar;
CREATE INDEX t_bpchar_bp ON t_bpchar USING bpindex (k);
SELECT count(*) FILTER (WHERE k = 'ab   ') AS ab_with_blanks FROM t_bpchar;
SELECT * FROM bp_matrix('bpchar', 't_bpchar', 'k', ARRAY['0', 'ab', 'ab ', 'f']);
SELECT * FROM bp_failures('bpchar');
CREATE TABLE t_bpchar_c (k char(10) COLLATE "C");
INSERT INTO t_bpchar_c SELECT k FROM t_bpchar;
VACUUM ANALYZE t_bpchar_c;
CREATE INDEX t_bpchar_c_bp ON t_bpchar_c USING bpindex (k);
SELECT * FROM bp_matrix('bpchar C', 't_bpchar_c', 'k', ARRAY['0', 'ab', 'ab ', 'f']);
SELECT * FROM bp_failures('bpchar C');

-- bytea: zero bytes inside and at the end, keys that are prefixes of others
CREATE TABLE t_bytea (k bytea);
INSERT INTO t_bytea
SELECT CASE WHEN i % 37 = 0 THEN NULL
            WHEN i % 11 = 0 THEN '\x'::bytea
            WHEN i % 4 = 0 THEN decode(substr(md5(i::text), 1, 2 * (1 + i % 12)), 'hex')
            WHEN i % 4 = 1 THEN '\x0000000000000000'::bytea || int4send(i % 900)
            WHEN i % 4 = 2 THEN '\x61626364656667'::bytea || '\x00'::bytea
            ELSE '\x61626364656667'::bytea END
FROM generate_series(1, 8000) i;
VACUUM ANALYZE t_bytea;
CREATE INDEX t_bytea_bp ON t_bytea USING bpindex (k);
SELECT bpindex_check('t_bytea_bp', true);
SELECT * FROM bp_matrix('bytea', 't_bytea', 'k',
                        ARRAY['\x', '\x0000000000000000000001', '\x61626364656667',
                              '\x6162636465666700', '\x80', '\xff']);
SELECT * FROM bp_failures('bytea');

-- numeric: NaN above everything, infinities, trailing zeros
CREATE TABLE t_numeric (k numeric);
INSERT INTO t_numeric
SELECT CASE WHEN i % 41 = 0 THEN NULL
            WHEN i % 43 = 0 THEN 'NaN'
            WHEN i % 47 = 0 THEN 'Infinity'
            WHEN i % 53 = 0 THEN '-Infinity'
            WHEN i % 7 = 0 THEN 1.0
            ELSE (i * 7919 % 100003) / 7.0 - 7000 END
FROM generate_series(1, 10000) i;
VACUUM ANALYZE t_numeric;
CREATE INDEX t_numeric_bp ON t_numeric USING bpindex (k);
SELECT * FROM bp_matrix('numeric', 't_numeric', 'k',
                        ARRAY['-Infinity', '-1.5', '1', '1.000', '5000', 'Infinity', 'NaN']);
SELECT * FROM bp_failures('numeric');
-- 1.0 = 1.00 = 1: each scan finds all of them, and an index-only scan
-- returns each row's own spelling
CREATE TABLE t_numeric_eq (k numeric);
INSERT INTO t_numeric_eq
SELECT (ARRAY[1.0, 1.00, 1, 1.000, 2.50, 2.5])[1 + i % 6] FROM generate_series(1, 3000) i;
VACUUM ANALYZE t_numeric_eq;
CREATE INDEX t_numeric_eq_bp ON t_numeric_eq USING bpindex (k);
SELECT c.* FROM unnest(ARRAY['index', 'indexonly', 'bitmap']) AS m(mode),
     LATERAL bp_check('select k::text from t_numeric_eq where k = 1.00000', m.mode) AS c;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT k::text, count(*) FROM t_numeric_eq WHERE k = 1 GROUP BY 1 ORDER BY 1;
SELECT k::text, count(*) FROM t_numeric_eq WHERE k = 1 GROUP BY 1 ORDER BY 1;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- the longest key accepted as it is: 2,726 bytes of text (a 4-byte header
-- makes 2,730, a third of a page: a page holds two such keys beside short
-- ones; btree's longest is 2,692); one byte more is refused, naming the
-- index and the row, unless it compresses (44_compressed_keys)
CREATE TABLE t_long (k text);
CREATE INDEX t_long_bp ON t_long USING bpindex (k);
INSERT INTO t_long VALUES (repeat('x', 2584));
INSERT INTO t_long VALUES ((SELECT left(string_agg(md5((0 + g)::text), ''), 2692) FROM generate_series(1, 85) g));
INSERT INTO t_long VALUES ((SELECT left(string_agg(md5((0 + g)::text), ''), 2726) FROM generate_series(1, 86) g));
INSERT INTO t_long VALUES ((SELECT left(string_agg(md5((0 + g)::text), ''), 2727) FROM generate_series(1, 86) g));
INSERT INTO t_long VALUES (repeat('x', 2585));
INSERT INTO t_long SELECT repeat(chr(97 + i % 26), 700) || i FROM generate_series(1, 300) i;
-- keys that share 2,200 bytes: every leaf and pivot holds few of them
INSERT INTO t_long SELECT repeat('q', 2200) || md5(i::text) FROM generate_series(1, 200) i;
-- keys that share 2,540 bytes: three pivots of them leave an internal page
-- room for a few children only, which it is filled for
INSERT INTO t_long SELECT repeat('r', 2540) || md5(i::text) FROM generate_series(1, 120) i;
-- a varchar(255) of emoji (1,020 bytes) and a 1,578-byte URL
INSERT INTO t_long SELECT repeat(U&'\+01F600', 255) || i FROM generate_series(1, 50) i;
INSERT INTO t_long SELECT 'https://example.com/' || string_agg(md5(i::text || g::text), '/') || '?' || i
FROM generate_series(1, 50) i, generate_series(1, 47) g GROUP BY i;
SELECT octet_length(k) AS bytes, count(*) FROM t_long
WHERE octet_length(k) > 1000 GROUP BY 1 ORDER BY 1;
-- a value stored compressed in the table is stored compressed in the index
INSERT INTO t_long VALUES (repeat('y', 100000));
SELECT count(*), max(length(k)) FROM t_long;
SELECT bpindex_check('t_long_bp', true);
SELECT levels > 3 AS deep_tree FROM bpindex_stats('t_long_bp');
-- some internal pages of the longest pivots were filled for fewer children
-- than the index's capacity: their header (nitems, capacity) follows the
-- page header and the fences' two slots
CREATE EXTENSION pageinspect;
SELECT count(*) > 0 AS fewer_children
FROM bpindex_metap('t_long_bp') m,
     generate_series(1, pg_relation_size('t_long_bp') / 8192 - 1) b,
     LATERAL get_raw_page('t_long_bp', b::int) AS raw,
     LATERAL (SELECT 24 + (2 * m.slot_width + 7) / 8 * 8 AS header) h
WHERE get_byte(raw, 8192 - 16) & 4 <> 0 AND get_byte(raw, 8192 - 16) & 64 = 0
  AND get_byte(raw, h.header + 2) + 256 * get_byte(raw, h.header + 3) < m.internal_capacity;
DROP EXTENSION pageinspect;
-- (only failing shapes are shown: the probes of 2,000 bytes and more would fill pages)
SELECT shape, idx, ionly, bitmap
FROM bp_matrix('long', 't_long', 'k', ARRAY['a', repeat('x', 2584), repeat('q', 2200) || 'c', repeat('r', 2540) || '8', 'z'])
WHERE 'DIFF' IN (idx, ionly, bitmap) OR 'PLAN' IN (idx, ionly, bitmap);
SELECT * FROM bp_failures('long');
-- deletes empty leaves of long keys; reinserts fill them again
DELETE FROM t_long WHERE k LIKE 'qqqq%' AND md5(k) < '8';
VACUUM t_long;
INSERT INTO t_long SELECT repeat('q', 2200) || md5(i::text) || 'x' FROM generate_series(1, 100) i;
SELECT bpindex_check('t_long_bp', true);
SELECT count(*) FROM t_long WHERE k >= repeat('q', 2200) AND k < repeat('q', 2200) || 'z';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM t_long WHERE k >= repeat('q', 2200) AND k < repeat('q', 2200) || 'z';
RESET enable_seqscan;
RESET enable_bitmapscan;
-- REINDEX builds the same keys
REINDEX INDEX t_long_bp;
SELECT bpindex_check('t_long_bp', true);

-- keys at btree's limit (2,692 bytes, incompressible) that pivots keep
-- whole (a DESC column is not cut short): a page holds two of them, not
-- three, and an internal page omits its low key to keep two children or
-- three (a leaf whose low key, high key and new entry are that long splits
-- before the entry, an empty left half, as inserts after the VACUUM below do)
CREATE TABLE t_limit (id int, k text);
ALTER TABLE t_limit ALTER COLUMN k SET STORAGE plain;
CREATE INDEX t_limit_bp ON t_limit USING bpindex (k DESC);
INSERT INTO t_limit
SELECT i * 10 + j, p.prefix || md5(j::text)
FROM generate_series(1, 120) i, generate_series(1, 3) j,
     LATERAL (SELECT left(string_agg(md5(i || '-' || g), ''), 2660) AS prefix
              FROM generate_series(1, 84) g) p
ORDER BY md5(i || '/' || j);
SELECT octet_length(k) AS bytes, count(*) FROM t_limit GROUP BY 1;
SELECT bpindex_check('t_limit_bp', true);
SELECT count(*) > 0 AS low_keys_omitted
FROM generate_series(1, pg_relation_size('t_limit_bp') / 8192 - 1) b,
     LATERAL bpindex_page_items('t_limit_bp', b) i
WHERE i.region = 'low key (not stored)';
SELECT * FROM bp_queries('limit', ARRAY[
    'select k from t_limit order by k desc',
    'select k from t_limit order by k',
    'select k from t_limit where k > ''8'' order by k desc',
    'select count(*) from t_limit where k between ''3'' and ''b'''
]);
-- VACUUM deletes emptied leaves (merging parents that omit their low key)
DELETE FROM t_limit WHERE id % 10 <> 2 OR id % 4 = 0;
VACUUM t_limit;
SELECT bpindex_check('t_limit_bp', true);
SELECT deleted_pages > 0 AS pages_deleted FROM bpindex_stats('t_limit_bp');
INSERT INTO t_limit
SELECT 5000 + i, left(string_agg(md5(i || '+' || g), ''), 2692)
FROM generate_series(1, 100) i, generate_series(1, 85) g GROUP BY i;
SELECT bpindex_check('t_limit_bp', true);
SELECT * FROM bp_queries('limit after VACUUM', ARRAY[
    'select k from t_limit order by k desc',
    'select k from t_limit where k < ''c'' order by k',
    'select count(*) from t_limit where k >= ''4'''
]);
REINDEX INDEX t_limit_bp;
SELECT bpindex_check('t_limit_bp', true);
SELECT levels < 12 AS built_two_children_a_page FROM bpindex_stats('t_limit_bp');
DROP TABLE t_limit;
-- such keys inserted at one edge of the index (rising keys of a DESC
-- column): a split of a page of one child a side keeps the edge's half at
-- one child, so that the next split there does not split every page above
-- it (the tree grew a level every two rows)
CREATE TABLE t_edge (k text);
ALTER TABLE t_edge ALTER COLUMN k SET STORAGE plain;
CREATE INDEX t_edge_bp ON t_edge USING bpindex (k DESC);
INSERT INTO t_edge
SELECT lpad(g::text, 6, '0') || (SELECT left(string_agg(md5(g || '.' || i), ''), 2686)
                                 FROM generate_series(1, 84) i)
FROM generate_series(1, 300) g;
SELECT levels <= 12 AS logarithmic FROM bpindex_stats('t_edge_bp');
SELECT bpindex_check('t_edge_bp', true);
SELECT * FROM bp_queries('edge', ARRAY[
    'select k from t_edge order by k desc',
    'select k from t_edge where k < ''000150'' order by k'
]);
DROP TABLE t_edge;
-- layout options that leave a leaf little room (log_size, block_size) do
-- not lower the limit: leaves of long keys take the automatic layout, at
-- CREATE INDEX and after ALTER INDEX SET
CREATE TABLE t_long_opts (k text);
CREATE INDEX t_long_opts_bp ON t_long_opts USING bpindex (k) WITH (log_size = 64, block_size = 64);
INSERT INTO t_long_opts SELECT repeat('b', 2200) || i FROM generate_series(1, 200) i;
INSERT INTO t_long_opts SELECT md5(i::text) FROM generate_series(1, 2000) i;
ALTER INDEX t_long_opts_bp RESET (log_size, block_size);
INSERT INTO t_long_opts SELECT repeat('c', 2200) || i FROM generate_series(1, 100) i;
ALTER INDEX t_long_opts_bp SET (log_size = 64, block_size = 64);
INSERT INTO t_long_opts SELECT repeat('b', 2200) || i || 'x' FROM generate_series(1, 100) i;
SELECT bpindex_check('t_long_opts_bp', true);
SELECT shape, idx, ionly, bitmap
FROM bp_matrix('long_opts', 't_long_opts', 'k', ARRAY['a', repeat('b', 2200) || '5', 'd'])
WHERE 'DIFF' IN (idx, ionly, bitmap) OR 'PLAN' IN (idx, ionly, bitmap);
SELECT * FROM bp_failures('long_opts');
DROP TABLE t_long_opts;
-- a build refuses them too
CREATE TABLE t_long2 (k text);
INSERT INTO t_long2 VALUES ((SELECT left(string_agg(md5((7 + g)::text), ''), 2727) FROM generate_series(1, 86) g));
CREATE INDEX t_long2_bp ON t_long2 USING bpindex (k);

-- inserts: random keys split leaves and internal pages; every entry is
-- found and the tree checks out
CREATE TABLE t_text_ins (id int, k text);
CREATE INDEX t_text_ins_bp ON t_text_ins USING bpindex (k);
INSERT INTO t_text_ins
SELECT i, md5(i::text) || repeat('-', i % 50) FROM generate_series(1, 30000) i;
INSERT INTO t_text_ins
SELECT i, 'https://example.com/' || lpad(i::text, 6, '0') FROM generate_series(1, 5000) i;
SELECT levels > 1 AS has_internal, entries FROM bpindex_stats('t_text_ins_bp');
SELECT bpindex_check('t_text_ins_bp', true);
VACUUM ANALYZE t_text_ins;
SELECT * FROM bp_matrix('text inserts', 't_text_ins', 'k',
                        ARRAY['0', md5('77'), 'https://example.com/002500', 'f']);
SELECT * FROM bp_failures('text inserts');
-- deletes and VACUUM, then more inserts into the same leaves
DELETE FROM t_text_ins WHERE id % 3 = 0;
VACUUM t_text_ins;
INSERT INTO t_text_ins
SELECT i, md5(i::text) || 'x' FROM generate_series(1, 10000) i;
SELECT bpindex_check('t_text_ins_bp', true);
SELECT * FROM bp_matrix('text vacuum', 't_text_ins', 'k',
                        ARRAY['0', md5('77'), 'f']);
SELECT * FROM bp_failures('text vacuum');

-- multi-column: (tenant int8, email text)
CREATE TABLE t_tenant (tenant int8, email text);
INSERT INTO t_tenant
SELECT i % 20, 'user' || (i * 7919 % 30000) || '@tenant' || (i % 20) || '.example'
FROM generate_series(1, 20000) i;
VACUUM ANALYZE t_tenant;
CREATE INDEX t_tenant_bp ON t_tenant USING bpindex (tenant, email);
SELECT bpindex_check('t_tenant_bp', true);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT email FROM t_tenant WHERE tenant = 7 AND email >= 'user5' ORDER BY tenant, email LIMIT 5;
SELECT email FROM t_tenant WHERE tenant = 7 AND email >= 'user5' ORDER BY tenant, email LIMIT 5;
RESET enable_seqscan;
SELECT * FROM bp_check('select email from t_tenant where tenant = 7 and email between ''user1'' and ''user2''', 'indexonly');
SELECT * FROM bp_check('select tenant, email from t_tenant where tenant between 3 and 4 and email < ''user3'' order by tenant, email', 'index');
SELECT * FROM bp_check('select email from t_tenant where tenant = 11 and email >= ''user1'' and email < ''user2''', 'bitmap');
-- a fixed-length column after a text key: index-only scans return both
CREATE INDEX t_tenant_bp2 ON t_tenant USING bpindex (email, tenant);
SELECT * FROM bp_check('select email, tenant from t_tenant where email between ''user1'' and ''user12'' order by email, tenant', 'indexonly');
SELECT * FROM bp_check('select email, tenant from t_tenant where email > ''user9'' order by email desc, tenant desc', 'indexonly');
