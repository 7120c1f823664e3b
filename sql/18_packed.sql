--
-- 18_packed: packed leaves (on-disk format 4).  Each leaf stores its
-- entries in the fewest bytes its contents need: integer-like keys as
-- offsets from the leaf's base, heap block numbers as offsets from a
-- per-leaf base, a column constant within a leaf in no bytes at all.
-- For each dataset of the size benchmark (bench/size.sh), at a small
-- scale: the leaves' widths as bpindex_leaves shows them, the index's
-- size against btree's, every query shape compared with a sequential
-- scan (bp_matrix, bp_queries), and bpindex_check, which decodes every
-- entry and checks it lies within its leaf's fences.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SET max_parallel_workers_per_gather = 0;

-- the widths of a freshly built index's leaves: how many leaves have
-- each combination of entry bytes, key bytes, block and offset bytes
CREATE FUNCTION pk_widths(idx regclass)
RETURNS TABLE (encoding text, entry_bytes int, key_bytes int[], block_bytes int,
               offset_bytes int, leaves bigint)
LANGUAGE sql AS $$
    SELECT encoding, entry_bytes, key_bytes, block_bytes, offset_bytes, count(*)
    FROM bpindex_leaves(idx) GROUP BY 1, 2, 3, 4, 5 ORDER BY 6 DESC, 2 LIMIT 3
$$;
-- the index against a btree index on the same columns, and its checks
CREATE FUNCTION pk_size(idx regclass, btree regclass)
RETURNS TABLE (leaves bigint, packed bigint, entries bigint, ratio_to_btree numeric,
               check_ok boolean)
LANGUAGE plpgsql AS $$
DECLARE
    s record;
BEGIN
    SELECT * INTO STRICT s FROM bpindex_stats(idx);
    PERFORM bpindex_check(idx, true);
    RETURN QUERY SELECT s.leaf_pages, s.packed_leaves, s.entries,
        round(pg_relation_size(idx)::numeric / pg_relation_size(btree), 1), true;
END
$$;

-- ascending ids: each leaf's keys span a few thousand values (2 bytes)
-- and its rows a few heap pages (1 byte)
CREATE TABLE pk_asc (k int8);
INSERT INTO pk_asc SELECT g FROM generate_series(1, 50000) g;
VACUUM ANALYZE pk_asc;
CREATE INDEX pk_asc_bp ON pk_asc USING bpindex (k);
CREATE INDEX pk_asc_bt ON pk_asc (k);
SELECT * FROM pk_widths('pk_asc_bp');
SELECT * FROM pk_size('pk_asc_bp', 'pk_asc_bt');
DROP INDEX pk_asc_bt;
SELECT * FROM bp_matrix('pk asc', 'pk_asc', 'k', ARRAY['0', '1', '25000', '50000', '60000']);
SELECT * FROM bp_failures('pk asc');
-- ascending inserts append to the rightmost leaf, whose codec has no
-- high fence to bound it: new keys and blocks beyond it re-encode it
INSERT INTO pk_asc SELECT g FROM generate_series(50001, 80000) g;
VACUUM ANALYZE pk_asc;
SELECT * FROM pk_widths('pk_asc_bp');
SELECT leaf_pages, packed_leaves, entries FROM bpindex_stats('pk_asc_bp');
SELECT bpindex_check('pk_asc_bp', true);
SELECT * FROM bp_matrix('pk asc ins', 'pk_asc', 'k', ARRAY['50000', '50001', '79999', '80000']);
SELECT * FROM bp_failures('pk asc ins');

-- an ascending insert that outgrows a leaf's codec re-encodes the leaf
-- with its blocks packed, so the stream goes on appending into new
-- blocks: spread over every block, its inserts would go through the log
-- and flush (and with a second stream below it, redistribute the leaf)
CREATE TABLE pk_recode (k int8);
INSERT INTO pk_recode SELECT g FROM generate_series(1, 200) g;
CREATE INDEX pk_recode_bp ON pk_recode USING bpindex (k);
SELECT entries, encoding, key_bytes FROM bpindex_leaves('pk_recode_bp');
INSERT INTO pk_recode VALUES (100000000);
SELECT entries, encoding, key_bytes FROM bpindex_leaves('pk_recode_bp');
SELECT count(DISTINCT block) AS blocks_in_use FROM bpindex_page_items('pk_recode_bp', 1)
WHERE region = 'block';
INSERT INTO pk_recode SELECT 100000000 + g FROM generate_series(1, 300) g;
SELECT count(*) FILTER (WHERE region = 'log') AS log_entries,
       count(DISTINCT block) FILTER (WHERE region = 'block') AS blocks_in_use
FROM bpindex_page_items('pk_recode_bp', 1);
SELECT bpindex_check('pk_recode_bp', true);
VACUUM ANALYZE pk_recode;
SELECT * FROM bp_matrix('pk recode', 'pk_recode', 'k', ARRAY['1', '200', '100000000', '100000150', '100000300']);
SELECT * FROM bp_failures('pk recode');

-- ascending timestamps, one per second
CREATE TABLE pk_ts (k timestamptz);
INSERT INTO pk_ts SELECT timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second'
FROM generate_series(1, 30000) g;
VACUUM ANALYZE pk_ts;
CREATE INDEX pk_ts_bp ON pk_ts USING bpindex (k);
CREATE INDEX pk_ts_bt ON pk_ts (k);
SELECT * FROM pk_widths('pk_ts_bp');
SELECT * FROM pk_size('pk_ts_bp', 'pk_ts_bt');
DROP INDEX pk_ts_bt;
SELECT * FROM bp_matrix('pk ts', 'pk_ts', 'k',
    ARRAY['2024-01-01 00:00:00+00', '2024-01-01 04:00:00+00', '2024-01-02 00:00:00+00']);
SELECT * FROM bp_failures('pk ts');

-- unique int8 keys spread over the whole type: wide codes, still fewer
-- bytes than a plain slot; random inserts go into the leaves' ranges
CREATE TABLE pk_rand (k int8);
INSERT INTO pk_rand SELECT (hashint8(g) & ((1::int8 << 62) - 1)) * 2 - (1::int8 << 62)
FROM generate_series(1, 30000) g;
VACUUM ANALYZE pk_rand;
CREATE INDEX pk_rand_bp ON pk_rand USING bpindex (k);
CREATE INDEX pk_rand_bt ON pk_rand (k);
SELECT * FROM pk_widths('pk_rand_bp');
SELECT * FROM pk_size('pk_rand_bp', 'pk_rand_bt');
INSERT INTO pk_rand SELECT (hashint8(g) & ((1::int8 << 62) - 1)) * 2 - (1::int8 << 62) + 1
FROM generate_series(30001, 40000) g;
VACUUM ANALYZE pk_rand;
SELECT * FROM pk_size('pk_rand_bp', 'pk_rand_bt');
DROP INDEX pk_rand_bt;
SELECT * FROM bp_queries('pk rand', ARRAY[
    'select k from pk_rand where k = (select min(k) from pk_rand)',
    'select k from pk_rand where k between -1000000000000000 and 1000000000000000',
    'select k from pk_rand where k < 0 order by k desc limit 20',
    'select k from pk_rand order by k']);
SELECT * FROM bp_failures('pk rand');

-- few values (a foreign key, about 940 rows each): a leaf spans two or
-- three values in 1-byte key codes; new rows go to the end of their
-- value's run
CREATE TABLE pk_fk (k int8);
INSERT INTO pk_fk SELECT hashint4(g) & 63 FROM generate_series(1, 60000) g;
VACUUM ANALYZE pk_fk;
CREATE INDEX pk_fk_bp ON pk_fk USING bpindex (k);
CREATE INDEX pk_fk_bt ON pk_fk (k);
SELECT * FROM pk_widths('pk_fk_bp');
SELECT * FROM pk_size('pk_fk_bp', 'pk_fk_bt');
INSERT INTO pk_fk SELECT hashint4(g) & 63 FROM generate_series(60001, 80000) g;
VACUUM ANALYZE pk_fk;
SELECT * FROM pk_size('pk_fk_bp', 'pk_fk_bt');
DROP INDEX pk_fk_bt;
SELECT * FROM bp_matrix('pk fk', 'pk_fk', 'k', ARRAY['-1', '0', '31', '63', '64']);
SELECT * FROM bp_failures('pk fk');

-- int2 and int4 with NULLs: NULL takes the top code of a leaf's width,
-- and a leaf of NULLs only stores no key bytes
CREATE TABLE pk_small (a int2, b int4);
INSERT INTO pk_small
SELECT CASE WHEN g % 10 = 0 THEN NULL ELSE (g * 7919 % 30000)::int2 END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE g % 100 END
FROM generate_series(1, 40000) g;
VACUUM ANALYZE pk_small;
CREATE INDEX pk_small_a ON pk_small USING bpindex (a);
CREATE INDEX pk_small_b ON pk_small USING bpindex (b);
SELECT * FROM pk_widths('pk_small_a');
SELECT * FROM pk_widths('pk_small_b');
SELECT count(*) AS null_leaves FROM bpindex_leaves('pk_small_a') WHERE low_key = 'NULL';
SELECT bpindex_check('pk_small_a', true), bpindex_check('pk_small_b', true);
SELECT * FROM bp_matrix('pk int2', 'pk_small', 'a', ARRAY['-1', '0', '15000', '29999', '30000']);
SELECT * FROM bp_failures('pk int2');
DROP INDEX pk_small_a;
SELECT * FROM bp_matrix('pk int4', 'pk_small', 'b', ARRAY['-1', '0', '50', '99']);
SELECT * FROM bp_failures('pk int4');

-- uuid: the bytes as they are, with a null byte only in leaves that hold
-- a NULL
CREATE TABLE pk_uuid (k uuid);
INSERT INTO pk_uuid SELECT CASE WHEN g % 50 = 0 THEN NULL ELSE md5(g::text)::uuid END
FROM generate_series(1, 20000) g;
VACUUM ANALYZE pk_uuid;
CREATE INDEX pk_uuid_bp ON pk_uuid USING bpindex (k);
SELECT * FROM pk_widths('pk_uuid_bp');
SELECT bpindex_check('pk_uuid_bp', true);
SELECT * FROM bp_queries('pk uuid', ARRAY[
    'select k from pk_uuid where k = md5(''77'')::uuid',
    'select k from pk_uuid where k < ''10000000-0000-0000-0000-000000000000''',
    'select k from pk_uuid where k is null',
    'select k from pk_uuid order by k desc limit 30']);
SELECT * FROM bp_failures('pk uuid');

-- (int4, timestamptz) and four int8 columns: a leading column constant
-- within a leaf costs nothing, the next ones are packed as well
CREATE TABLE pk_multi (a int4, b timestamptz, c int8, d int8, e int8, f int8);
INSERT INTO pk_multi
SELECT g % 10, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute',
       g % 3, g % 1000, g, hashint8(g)
FROM generate_series(1, 40000) g;
VACUUM ANALYZE pk_multi;
CREATE INDEX pk_multi_ab ON pk_multi USING bpindex (a, b);
CREATE INDEX pk_multi_cdef ON pk_multi USING bpindex (c, d, e, f);
SELECT * FROM pk_widths('pk_multi_ab');
SELECT * FROM pk_widths('pk_multi_cdef');
SELECT bpindex_check('pk_multi_ab', true), bpindex_check('pk_multi_cdef', true);
SELECT * FROM bp_queries('pk multi', ARRAY[
    'select a, b from pk_multi where a = 3 and b between ''2024-01-10'' and ''2024-01-12''',
    'select a, b from pk_multi where a = 7 order by b desc limit 10',
    'select c, d, e, f from pk_multi where c = 1 and d = 500',
    'select c, d, e, f from pk_multi where c = 2 and d between 10 and 12 and e > 30000',
    'select c, d, e from pk_multi where c = 0 order by d, e limit 25']);
SELECT * FROM bp_failures('pk multi');

-- floats: an order-preserving image of their bits; a leaf holding -0 or
-- a NaN other than PostgreSQL's stays plain, and equal values still find
-- each other across packed and plain leaves
CREATE TABLE pk_float (k float8);
INSERT INTO pk_float SELECT (g % 2000) / 8.0 FROM generate_series(1, 20000) g;
INSERT INTO pk_float VALUES ('-0'), ('0'), ('NaN'), ('Infinity'), ('-Infinity'), (NULL);
VACUUM ANALYZE pk_float;
CREATE INDEX pk_float_bp ON pk_float USING bpindex (k);
SELECT encoding, count(*) > 0 AS some FROM bpindex_leaves('pk_float_bp') GROUP BY 1 ORDER BY 1;
SELECT bpindex_check('pk_float_bp', true);
SELECT * FROM bp_matrix('pk float', 'pk_float', 'k', ARRAY['-0', '0', '1.5', 'NaN', 'Infinity']);
SELECT * FROM bp_failures('pk float');

-- packed_leaves = off keeps every leaf plain: the same answers, more pages
CREATE INDEX pk_asc_plain ON pk_asc USING bpindex (k) WITH (packed_leaves = off);
SELECT encoding, count(*) > 0 AS some FROM bpindex_leaves('pk_asc_plain') GROUP BY 1;
SELECT pg_relation_size('pk_asc_plain') > 3 * pg_relation_size('pk_asc_bp') AS plain_larger;
DROP INDEX pk_asc_bp;
SELECT * FROM bp_matrix('pk plain', 'pk_asc', 'k', ARRAY['0', '40000', '80000']);
SELECT * FROM bp_failures('pk plain');
-- the option can be switched: REINDEX builds packed leaves again
ALTER INDEX pk_asc_plain SET (packed_leaves = on);
REINDEX INDEX pk_asc_plain;
SELECT encoding, count(*) > 0 AS some FROM bpindex_leaves('pk_asc_plain') GROUP BY 1;
-- bpindex_leaves refuses an index of another access method
SELECT * FROM bpindex_leaves('pg_class_oid_index');

DROP TABLE pk_asc, pk_recode, pk_ts, pk_rand, pk_fk, pk_small, pk_uuid, pk_multi, pk_float;
DROP FUNCTION pk_widths(regclass), pk_size(regclass, regclass);
