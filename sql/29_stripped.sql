--
-- 29_stripped: a packed leaf of an index whose one key column is ordered
-- bytewise (text under "C", bytea, bpchar under "C") stores its entries'
-- keys without the prefix its fences share, which bpindex_leaves shows as
-- prefix_bytes, and rebuilds them whole as it reads them.  Every plan
-- shape is compared with a sequential scan (bp_matrix), sizes with btree
-- on a copy of the same rows, the tree with bpindex_check.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- URL-like keys with a 38-byte common prefix: leaves strip it and more
-- (the prefix their entries share), and the index takes well under half
-- of btree's pages
CREATE TABLE t_strip (k text COLLATE "C", id int4);
INSERT INTO t_strip
SELECT 'https://www.example.com/products/item/' || lpad((i % 5000)::text, 5, '0') || '/' || (i / 5000), i
FROM generate_series(1, 40000) i;
CREATE TABLE t_strip_bt AS SELECT * FROM t_strip;
VACUUM ANALYZE t_strip, t_strip_bt;
CREATE INDEX t_strip_bp ON t_strip USING bpindex (k);
CREATE INDEX t_strip_btree ON t_strip_bt (k);
SELECT pg_relation_size('t_strip_bp') < 0.5 * pg_relation_size('t_strip_btree') AS under_half_of_btree;
SELECT min(prefix_bytes) >= 38 AS leaves_strip_the_prefix
FROM bpindex_leaves('t_strip_bp');
-- the end leaves too, which have one fence only: their prefix is a key of
-- its own
SELECT count(*) AS end_leaves, min(prefix_bytes) >= 38 AS end_leaves_strip
FROM bpindex_leaves('t_strip_bp') WHERE low_key IS NULL OR high_key IS NULL;
SELECT bpindex_check('t_strip_bp', true);
SELECT * FROM bp_matrix('stripped urls', 't_strip', 'k',
                        ARRAY['', 'https://www.example.com/products/item/00007/3',
                              'https://www.example.com/products/item/02500',
                              'https://www.example.com/products/item/02500/0',
                              'https://www.example.com/products/item/04999/8', 'z']);
SELECT * FROM bp_failures('stripped urls');

-- a merge join marks and restores its inner index-only scan, whose keys
-- are rebuilt whole; the same join by hash gives the same rows
CREATE TABLE t_strip_outer AS
SELECT k FROM t_strip WHERE id % 11 = 0 UNION ALL SELECT k FROM t_strip WHERE id % 11 = 0;
ANALYZE t_strip_outer;
SET enable_hashjoin = off;
SET enable_nestloop = off;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE FUNCTION t_strip_plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF line ~ 'Join|Index' THEN
            RETURN NEXT btrim(line, ' ->');
        END IF;
    END LOOP;
END $$;
SELECT * FROM t_strip_plan('SELECT count(*) FROM t_strip_outer o JOIN t_strip i ON i.k = o.k');
CREATE TABLE t_strip_merge AS
SELECT count(*) AS n, sum(hashtext(i.k)) AS digest FROM t_strip_outer o JOIN t_strip i ON i.k = o.k;
RESET ALL;
SET enable_mergejoin = off;
SELECT m.n, m.n = h.n AND m.digest = h.digest AS merge_equals_hash
FROM t_strip_merge m,
     (SELECT count(*) AS n, sum(hashtext(i.k)) AS digest
      FROM t_strip_outer o JOIN t_strip i ON i.k = o.k) h;
RESET ALL;

-- page deletion: the leftmost leaves emptied, their successor becomes the
-- first leaf (no low key) and keeps its stripped prefix; keys without it
-- (below every other) then re-encode or split that leaf
DELETE FROM t_strip WHERE k < 'https://www.example.com/products/item/01000';
SELECT bp_wait_for_horizon();
VACUUM t_strip;
SELECT deleted_pages > 0 AS deleted FROM bpindex_stats('t_strip_bp');
SELECT prefix_bytes >= 38 AS first_leaf_keeps_its_prefix
FROM bpindex_leaves('t_strip_bp') ORDER BY low_key IS NOT NULL, blkno LIMIT 1;
SELECT bpindex_check('t_strip_bp', true);
INSERT INTO t_strip SELECT 'https://www.example.com/a/' || i, -i FROM generate_series(1, 300) i;
INSERT INTO t_strip SELECT 'https://www.example.com/products/item/01000/' || i, -1000 - i
FROM generate_series(1, 300) i;
SELECT bpindex_check('t_strip_bp', true);
SELECT * FROM bp_matrix('stripped after deletion', 't_strip', 'k',
                        ARRAY['https://www.example.com/a/15',
                              'https://www.example.com/products/item/01000/150',
                              'https://www.example.com/products/item/03000']);
SELECT * FROM bp_failures('stripped after deletion');

-- keys whose leaves share fewer than 8 bytes stay whole: rebuilding them
-- would cost scans more than the bytes save
CREATE TABLE t_strip_short (k text COLLATE "C");
INSERT INTO t_strip_short SELECT md5(i::text) FROM generate_series(1, 20000) i;
CREATE INDEX t_strip_short_bp ON t_strip_short USING bpindex (k);
SELECT max(prefix_bytes) AS short_prefixes_kept, count(*) > 10 AS leaves
FROM bpindex_leaves('t_strip_short_bp');
DROP TABLE t_strip_short;

-- bytea keys with a common prefix of 300 bytes: whole keys take 4-byte
-- headers, stripped ones 1-byte headers
CREATE TABLE t_strip_bytea (k bytea, id int4);
INSERT INTO t_strip_bytea
SELECT convert_to(repeat('p', 300) || lpad((i * 7919 % 20000)::text, 6, '0'), 'UTF8'), i
FROM generate_series(1, 20000) i;
CREATE INDEX t_strip_bytea_bp ON t_strip_bytea USING bpindex (k);
SELECT min(prefix_bytes) >= 300 AS leaves_strip_the_prefix
FROM bpindex_leaves('t_strip_bytea_bp');
SELECT bpindex_check('t_strip_bytea_bp', true);
SELECT * FROM bp_matrix('stripped bytea', 't_strip_bytea', 'k',
                        ARRAY[convert_to(repeat('p', 300) || '000100', 'UTF8')::text,
                              convert_to(repeat('p', 300) || '010000', 'UTF8')::text,
                              convert_to(repeat('p', 301), 'UTF8')::text]);
SELECT * FROM bp_failures('stripped bytea');

-- bpchar under "C": trailing blanks do not count, and are never stripped
-- as part of the prefix
CREATE TABLE t_strip_bpchar (k char(40) COLLATE "C", id int4);
INSERT INTO t_strip_bpchar
SELECT 'order-' || lpad((i / 3)::text, 7, '0') || CASE WHEN i % 3 = 0 THEN '' ELSE ' x' || (i % 3) END, i
FROM generate_series(1, 30000) i;
CREATE INDEX t_strip_bpchar_bp ON t_strip_bpchar USING bpindex (k);
SELECT min(prefix_bytes) >= 8 AS leaves_strip
FROM bpindex_leaves('t_strip_bpchar_bp');
SELECT bpindex_check('t_strip_bpchar_bp', true);
SELECT * FROM bp_matrix('stripped bpchar', 't_strip_bpchar', 'k',
                        ARRAY['order-0000100', 'order-0000100 x1', 'order-0005000 x2', 'order-0009999']);
SELECT * FROM bp_failures('stripped bpchar');
SELECT count(*) FROM t_strip_bpchar WHERE k = 'order-0000100   ';

-- random inserts into stripped leaves (splits and re-encodings), then
-- every shape again
INSERT INTO t_strip
SELECT 'https://www.example.com/products/item/' || lpad((i * 37 % 5000)::text, 5, '0') || '/n' || i, 100000 + i
FROM generate_series(1, 20000) i;
SELECT bpindex_check('t_strip_bp', true);
SELECT min(prefix_bytes) >= 38 AS url_leaves_still_strip
FROM bpindex_leaves('t_strip_bp') WHERE low_key > 'https://www.example.com/products/item/01001';
SELECT * FROM bp_matrix('stripped after inserts', 't_strip', 'k',
                        ARRAY['https://www.example.com/products/item/01234',
                              'https://www.example.com/products/item/01234/n1',
                              'https://www.example.com/products/item/04000/n9']);
SELECT * FROM bp_failures('stripped after inserts');
DROP TABLE t_strip, t_strip_bt, t_strip_outer, t_strip_merge, t_strip_bytea, t_strip_bpchar;
DROP FUNCTION t_strip_plan(text);
