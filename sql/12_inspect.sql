--
-- 12_inspect: the inspection functions and the reloptions.
--
-- bpindex_metap shows the layout chosen from the reloptions (or the
-- defaults); invalid reloptions are refused; ALTER INDEX SET changes the
-- layout at the next REINDEX.  bpindex_stats counts pages, entries and
-- fill after a build, after inserts and after everything was deleted.
-- bpindex_page_items shows every slot of a page: the entries of all
-- leaves are exactly the table's (key, ctid) pairs, headers are sorted,
-- every entry lies within its block's and its leaf's bounds, and the
-- internal pages link the leaves.  Errors for wrong blocks, wrong kinds
-- of relation and missing privileges.
--
-- Floating-point statistics are range-checked, not printed.
-- Before each VACUUM that must remove every deleted row,
-- bp_wait_for_horizon() (from 00_setup) waits until no other session can
-- still see them.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

--
-- bpindex_metap: the default layout and explicit ones.  The indexes of
-- insp_t keep plain leaves (packed_leaves = off), whose layout is the one
-- bpindex_metap reports and whose fill follows from it;
-- 18_packed inspects packed leaves.
--
CREATE TABLE insp_t (k int8, v int4) WITH (autovacuum_enabled = off);
INSERT INTO insp_t
SELECT CASE WHEN i % 101 = 0 THEN NULL ELSE abs(hashint4(i)::int8) % 50000 END, i
FROM generate_series(1, 30000) i;
VACUUM ANALYZE insp_t;
CREATE INDEX insp_default ON insp_t USING bpindex (k) WITH (packed_leaves = off);
CREATE INDEX insp_ff10 ON insp_t USING bpindex (k) WITH (fillfactor = 10, packed_leaves = off);
CREATE INDEX insp_ff100 ON insp_t USING bpindex (k) WITH (fillfactor = 100, packed_leaves = off);
CREATE INDEX insp_ff50 ON insp_t USING bpindex (k)
    WITH (fillfactor = 50, log_size = 64, block_size = 32, packed_leaves = off);
CREATE INDEX insp_log2 ON insp_t USING bpindex (k) WITH (log_size = 2, block_size = 2, packed_leaves = off);
CREATE INDEX insp_log200 ON insp_t USING bpindex (k) WITH (log_size = 200, packed_leaves = off);
CREATE INDEX insp_bs100 ON insp_t USING bpindex (k) WITH (block_size = 100, packed_leaves = off);
CREATE INDEX insp_multi ON insp_t USING bpindex (v, k) WITH (packed_leaves = off);
CREATE INDEX insp_expr ON insp_t USING bpindex ((k % 1000 = 0), (v::int2))
    WITH (packed_leaves = off) WHERE v < 30000;
-- every explicit option is in the metapage; the rest is chosen to fit:
-- with block_size set, as many blocks as fit; with log_size alone, about
-- as many blocks as slots per block in the room the log leaves
SELECT i AS index, c.reloptions, m.*
FROM unnest(ARRAY['insp_default', 'insp_ff10', 'insp_ff100', 'insp_ff50', 'insp_log2',
                  'insp_log200', 'insp_bs100', 'insp_multi', 'insp_expr']) WITH ORDINALITY AS u(i, n)
     JOIN pg_class c ON c.relname = u.i,
     LATERAL bpindex_metap(i::regclass) m
ORDER BY u.n;
-- the layout of each leaf fits its page: log, header and blocks take at
-- most the 8 kB page less its header, special space and fence keys
SELECT i AS index,
       (m.log_size + m.num_blocks * (m.block_size + 1)) * m.slot_width < 8192 - 24 - 16 - 2 * m.slot_width AS fits,
       m.leaf_capacity = m.num_blocks * (m.block_size - 1) AS capacity_keeps_a_free_slot_per_block
FROM unnest(ARRAY['insp_default', 'insp_ff10', 'insp_ff100', 'insp_ff50', 'insp_log2',
                  'insp_log200', 'insp_bs100', 'insp_multi', 'insp_expr']) WITH ORDINALITY AS u(i, n),
     LATERAL bpindex_metap(i::regclass) m
ORDER BY u.n;
-- entry widths: the TID (6 bytes), a null bitmap byte, the keys at their
-- alignment, padded (int4 12, int8 16, uuid 24, bool 8)
CREATE TABLE insp_types (i2 int2, i4 int4, i8 int8, f4 float4, u uuid, b bool, d date, ts timestamptz);
CREATE INDEX insp_types_i2 ON insp_types USING bpindex (i2);
CREATE INDEX insp_types_i4 ON insp_types USING bpindex (i4);
CREATE INDEX insp_types_i8 ON insp_types USING bpindex (i8);
CREATE INDEX insp_types_f4 ON insp_types USING bpindex (f4);
CREATE INDEX insp_types_u ON insp_types USING bpindex (u);
CREATE INDEX insp_types_b ON insp_types USING bpindex (b);
CREATE INDEX insp_types_i4i8 ON insp_types USING bpindex (i4, i8);
CREATE INDEX insp_types_bu ON insp_types USING bpindex (b, u, i2);
CREATE INDEX insp_types_many ON insp_types USING bpindex (b, i2, i4, i8, f4, u, d, ts, b);
SELECT c.relname, m.key_columns, m.slot_width, m.log_size, m.num_blocks, m.block_size,
       m.leaf_capacity, m.internal_capacity, m.levels, m.root
FROM pg_class c, LATERAL bpindex_metap(c.oid) m
WHERE c.relname LIKE 'insp\_types\_%' ORDER BY c.oid;

--
-- invalid reloptions
--
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (fillfactor = 5);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (fillfactor = 101);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (log_size = 1);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (block_size = 1);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (log_size = -1);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (block_size = 2000);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (log_size = 1025);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (log_size = 'many');
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (foo = 1);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (deduplicate_items = on);
-- in range, but the layout does not fit a page: refused at CREATE INDEX,
-- naming the index, also for an empty table and an unlogged one
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (log_size = 1000, block_size = 1000);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (log_size = 1024);
CREATE INDEX insp_bad ON insp_t USING bpindex (k) WITH (log_size = 400, block_size = 1024);
CREATE INDEX insp_bad ON insp_types USING bpindex (u) WITH (block_size = 400);
CREATE UNLOGGED TABLE insp_unlogged (k int8);
CREATE INDEX insp_bad ON insp_unlogged USING bpindex (k) WITH (log_size = 1000, block_size = 1000);
DROP TABLE insp_unlogged;
SELECT count(*) FROM pg_class WHERE relname = 'insp_bad';
-- a log that holds more entries than the leaf's blocks is refused: a full
-- leaf could not split into two that fit
CREATE INDEX insp_bad ON insp_types USING bpindex (i8) WITH (log_size = 400, block_size = 2);
-- the largest layouts that fit
CREATE INDEX insp_big_log ON insp_types USING bpindex (i8) WITH (log_size = 230);
CREATE INDEX insp_big_block ON insp_types USING bpindex (i8) WITH (log_size = 2, block_size = 500);
SELECT c.relname, m.log_size, m.num_blocks, m.block_size, m.leaf_capacity
FROM pg_class c, LATERAL bpindex_metap(c.oid) m
WHERE c.relname IN ('insp_big_log', 'insp_big_block') ORDER BY 1;
DROP INDEX insp_big_log, insp_big_block;
-- leaves with the longest log still split into halves that fit, under
-- ascending and random inserts
CREATE TABLE insp_log (k int8);
CREATE INDEX insp_log_bp ON insp_log USING bpindex (k) WITH (log_size = 230);
INSERT INTO insp_log SELECT generate_series(1, 3000);
INSERT INTO insp_log SELECT (i * 7919) % 5003 FROM generate_series(1, 3000) i;
SELECT bpindex_check('insp_log_bp', true);
SELECT * FROM bp_queries('insp_log', ARRAY[
    'select k from insp_log where k between 100 and 200',
    'select k from insp_log order by k desc limit 20'
]);
SELECT * FROM bp_failures('insp_log');
DROP TABLE insp_log;
-- like every integer reloption, a fraction is rounded
CREATE INDEX insp_round ON insp_types USING bpindex (i8) WITH (block_size = 3.5, log_size = 2.4);
SELECT c.reloptions, m.log_size, m.block_size
FROM pg_class c, bpindex_metap('insp_round') m WHERE c.relname = 'insp_round';
DROP INDEX insp_round;

--
-- ALTER INDEX SET: validated at once, applied by the next REINDEX
--
ALTER INDEX insp_default SET (log_size = 1);
ALTER INDEX insp_default SET (fillfactor = 200);
ALTER INDEX insp_default SET (foo = 1);
ALTER INDEX insp_default SET (log_size = 64);
SELECT reloptions FROM pg_class WHERE relname = 'insp_default';
-- the metapage still has the layout of the build, and inserts use it
SELECT fillfactor, log_size, num_blocks, block_size FROM bpindex_metap('insp_default');
INSERT INTO insp_t SELECT abs(hashint4(i)::int8) % 50000, i FROM generate_series(30001, 31000) i;
SELECT bpindex_check('insp_default', true);
SELECT fillfactor, log_size, num_blocks, block_size FROM bpindex_metap('insp_default');
REINDEX INDEX insp_default;
SELECT fillfactor, log_size, num_blocks, block_size FROM bpindex_metap('insp_default');
ALTER INDEX insp_default SET (fillfactor = 60, block_size = 16);
REINDEX INDEX insp_default;
SELECT fillfactor, log_size, num_blocks, block_size FROM bpindex_metap('insp_default');
-- a layout that does not fit is accepted by ALTER INDEX but refused by
-- REINDEX, which leaves the index as it was
ALTER INDEX insp_default SET (log_size = 1000, block_size = 1000);
REINDEX INDEX insp_default;
REINDEX INDEX CONCURRENTLY insp_default;
SELECT relname, indisvalid FROM pg_class JOIN pg_index ON indexrelid = pg_class.oid
WHERE relname LIKE 'insp\_default%' ORDER BY 1;
DROP INDEX insp_default_ccnew;
SELECT fillfactor, log_size, num_blocks, block_size FROM bpindex_metap('insp_default');
SELECT bpindex_check('insp_default', true);
-- RESET returns to the defaults
ALTER INDEX insp_default RESET (log_size, block_size, fillfactor);
REINDEX INDEX insp_default;
SELECT reloptions, m.fillfactor, m.log_size, m.num_blocks, m.block_size
FROM pg_class c, bpindex_metap('insp_default') m WHERE c.relname = 'insp_default';
SELECT * FROM bp_queries('inspect_altered', ARRAY[
    'select k from insp_t where k between 100 and 300',
    'select k from insp_t where k > 49900 order by k desc']);

--
-- bpindex_stats of freshly built indexes: one entry per row, leaves
-- filled to the fillfactor (as many leaves as bp_fill_target entries per
-- leaf need, or one more), every log empty, every block sorted, and
-- every page of the relation in the tree
--
CREATE FUNCTION insp_stats_ok(idx regclass)
RETURNS TABLE (levels int, internal_pages bigint, leaf_pages bigint,
               entries_match boolean, fill_near_fillfactor boolean,
               log_fill float8, sorted float8, empty_leaves bigint,
               incomplete_splits bigint, pages_add_up boolean)
LANGUAGE sql AS $$
    SELECT s.levels, s.internal_pages, s.leaf_pages,
           s.entries = (SELECT count(*) FROM insp_t WHERE v < 30000 OR idx <> 'insp_expr'::regclass),
           s.leaf_pages - ceil(s.entries / round(bp_fill_target(idx) * m.leaf_capacity))
               BETWEEN 0 AND 1,
           s.avg_log_fill, s.sorted_block_fraction, s.empty_leaves, s.incomplete_splits,
           1 + s.internal_pages + s.leaf_pages + s.unused_pages
               = pg_relation_size(idx) / current_setting('block_size')::int
           AND s.levels = m.levels
    FROM bpindex_stats(idx) s, bpindex_metap(idx) m
$$;
REINDEX TABLE insp_t;
SELECT i AS index, s.*
FROM unnest(ARRAY['insp_default', 'insp_ff10', 'insp_ff100', 'insp_ff50', 'insp_log2',
                  'insp_log200', 'insp_bs100', 'insp_multi', 'insp_expr']) WITH ORDINALITY AS u(i, n),
     LATERAL insp_stats_ok(i::regclass) s
ORDER BY u.n;
CREATE TABLE insp_built AS
SELECT i AS index, s.*
FROM unnest(ARRAY['insp_default', 'insp_ff100', 'insp_ff50', 'insp_log2']) i,
     LATERAL bpindex_stats(i::regclass) s;
-- a lower fillfactor needs more leaves: about 9 times as many for 10 as
-- for 90
SELECT (SELECT leaf_pages FROM bpindex_stats('insp_ff10'))::float8
       / (SELECT leaf_pages FROM bpindex_stats('insp_default')) BETWEEN 8.5 AND 9.5 AS ratio_ok;
-- a one-leaf index
SELECT levels, internal_pages, leaf_pages, entries, avg_log_fill,
       sorted_block_fraction, empty_leaves, unused_pages
FROM bpindex_stats('insp_types_i8');

-- random inserts go to the logs and leave unsorted blocks behind
-- flushes (but blocks of block_size 2 hold one entry and stay sorted);
-- the fuller the leaves, the more of them split
INSERT INTO insp_t SELECT abs(hashint4(i)::int8) % 50000, i FROM generate_series(31001, 40000) i;
SELECT b.index, s.entries = (SELECT count(*) FROM insp_t) AS entries_match,
       s.avg_log_fill > 0 AS log_used, s.avg_log_fill <= 1 AS log_fill_ok,
       s.sorted_block_fraction < 1 AS some_unsorted, s.sorted_block_fraction > 0 AS some_sorted,
       s.avg_leaf_fill > 0 AND s.avg_leaf_fill <= 1 AS leaf_fill_ok,
       s.leaf_pages > b.leaf_pages AS split, s.incomplete_splits, s.unused_pages,
       s.internal_pages + s.leaf_pages + 1
           = pg_relation_size(b.index::regclass) / current_setting('block_size')::int AS pages_add_up
FROM insp_built b, LATERAL bpindex_stats(b.index::regclass) s
ORDER BY b.index;
-- ascending inserts past the last key split the rightmost leaf at the
-- fillfactor: the new leaves are about as full as the built ones
CREATE TABLE insp_asc (k int8) WITH (autovacuum_enabled = off);
INSERT INTO insp_asc SELECT generate_series(1, 1000);
CREATE INDEX insp_asc_bp ON insp_asc USING bpindex (k) WITH (fillfactor = 80);
INSERT INTO insp_asc SELECT generate_series(1001, 50000);
SELECT levels, entries,
       abs(avg_leaf_fill - bp_fill_target('insp_asc_bp')) < 0.05 AS filled_like_a_build,
       incomplete_splits
FROM bpindex_stats('insp_asc_bp');
SELECT bpindex_check('insp_asc_bp', true);
DROP TABLE insp_asc;

--
-- bpindex_page_items
--
-- a small two-column index in one leaf: blocks from the build, then the
-- log after inserts; NULLs show as NULL inside the key
CREATE TABLE insp_small (a int4, b int8);
INSERT INTO insp_small
SELECT CASE WHEN i % 5 = 0 THEN NULL ELSE i % 7 END, i FROM generate_series(1, 12) i;
CREATE INDEX insp_small_bp ON insp_small USING bpindex (a, b) WITH (log_size = 4, block_size = 3);
SELECT root, levels, log_size, block_size FROM bpindex_metap('insp_small_bp');
SELECT * FROM bpindex_page_items('insp_small_bp', 1);
-- inserts go to the log, except one that sorts after every entry (NULLs
-- sort last), which goes straight into the last block
INSERT INTO insp_small VALUES (3, 100), (NULL, 101), (0, 102);
SELECT * FROM bpindex_page_items('insp_small_bp', 1) WHERE region = 'log';
SELECT * FROM bpindex_page_items('insp_small_bp', 1)
WHERE region = 'block' AND block = (SELECT max(block) FROM bpindex_page_items('insp_small_bp', 1));
-- two more inserts fill the log: it is flushed into the blocks
INSERT INTO insp_small VALUES (6, 103), (5, 104);
SELECT region, count(*) FROM bpindex_page_items('insp_small_bp', 1) GROUP BY 1 ORDER BY 1;
SELECT * FROM bpindex_page_items('insp_small_bp', 1) WHERE region = 'block'
ORDER BY block, ctid;
SELECT bpindex_check('insp_small_bp', true);

-- The three-level index insp_ff10 after random inserts and deletes
DELETE FROM insp_t WHERE v % 7 = 0;
INSERT INTO insp_t
SELECT CASE WHEN i % 101 = 0 THEN NULL ELSE abs(hashint4(i)::int8) % 50000 END, i
FROM generate_series(40001, 42000) i;
SELECT bp_wait_for_horizon();
VACUUM insp_t;
-- every page of the index, by block number
CREATE TABLE insp_items AS
SELECT b AS blkno, p.itemno, p.region, p.block, p.key, p.ctid AS tid, p.child
FROM generate_series(1, pg_relation_size('insp_ff10') / current_setting('block_size')::int - 1) b,
     LATERAL bpindex_page_items('insp_ff10', b) p;
-- a sort key for an entry shown as text: (key, ctid), NULL last
CREATE FUNCTION insp_sk(key text, ctid tid) RETURNS record
LANGUAGE sql IMMUTABLE AS $$
    SELECT ROW(coalesce(nullif(key, 'NULL')::numeric, 'Infinity'::numeric), ctid)
$$;
CREATE TABLE insp_pages AS
SELECT blkno, bool_or(region = 'pivot') AS internal,
       bool_or(region = 'low key') AS has_low, bool_or(region = 'high key') AS has_high,
       count(*) FILTER (WHERE region IN ('log', 'block')) AS entries
FROM insp_items GROUP BY blkno;
ANALYZE insp_items, insp_pages;
SELECT count(*) FILTER (WHERE internal) AS internal_pages,
       count(*) FILTER (WHERE NOT internal) AS leaf_pages,
       sum(entries) AS entries,
       count(*) FILTER (WHERE NOT has_low) AS leftmost_pages,
       count(*) FILTER (WHERE NOT has_high) AS rightmost_pages
FROM insp_pages;
SELECT levels, internal_pages, leaf_pages, entries FROM bpindex_stats('insp_ff10');
-- the regions of the leaves
SELECT region, count(*) > 0 AS present FROM insp_items i JOIN insp_pages p USING (blkno)
WHERE NOT p.internal GROUP BY 1 ORDER BY 1;
-- the log and block slots of all leaves are exactly the table's rows
SELECT (SELECT count(*) FROM insp_items WHERE region IN ('log', 'block')) AS index_entries,
       (SELECT count(*) FROM insp_t) AS table_rows,
       (SELECT count(*) FROM (SELECT key, tid FROM insp_items WHERE region IN ('log', 'block')
                              EXCEPT ALL
                              SELECT coalesce(k::text, 'NULL'), ctid FROM insp_t) x) AS only_in_index,
       (SELECT count(*) FROM (SELECT coalesce(k::text, 'NULL'), ctid FROM insp_t
                              EXCEPT ALL
                              SELECT key, tid FROM insp_items WHERE region IN ('log', 'block')) x) AS only_in_table;
-- the header of every leaf is strictly ascending
SELECT count(*) AS header_slots,
       count(*) FILTER (WHERE prev IS NOT NULL AND NOT (prev < insp_sk(key, tid))) AS out_of_order
FROM (SELECT key, tid, lag(insp_sk(key, tid)) OVER (PARTITION BY blkno ORDER BY block) AS prev
      FROM insp_items WHERE region = 'header') h;
-- every entry of a block lies in [header[block], header[block + 1]),
-- except that block 0 has no lower bound
SELECT count(*) AS block_slots,
       count(*) FILTER (WHERE (e.block > 0 AND insp_sk(e.key, e.tid) < insp_sk(lo.key, lo.tid))
                           OR (hi.blkno IS NOT NULL
                               AND insp_sk(e.key, e.tid) >= insp_sk(hi.key, hi.tid))) AS outside_block
FROM insp_items e
     JOIN insp_items lo ON lo.blkno = e.blkno AND lo.region = 'header' AND lo.block = e.block
     LEFT JOIN insp_items hi ON hi.blkno = e.blkno AND hi.region = 'header' AND hi.block = e.block + 1
WHERE e.region = 'block';
-- every entry of a leaf lies within its fence keys: low <= entry < high
SELECT count(*) AS entries,
       count(*) FILTER (WHERE (lo.blkno IS NOT NULL
                               AND insp_sk(e.key, e.tid) < insp_sk(lo.key, lo.tid))
                           OR (hi.blkno IS NOT NULL
                               AND insp_sk(e.key, e.tid) >= insp_sk(hi.key, hi.tid))) AS outside_fences
FROM insp_items e
     LEFT JOIN insp_items lo ON lo.blkno = e.blkno AND lo.region = 'low key'
     LEFT JOIN insp_items hi ON hi.blkno = e.blkno AND hi.region = 'high key'
WHERE e.region IN ('log', 'block');
-- the high key of each page is the low key of its right-link
SELECT count(*) AS links,
       count(*) FILTER (WHERE lo.key IS DISTINCT FROM hi.key OR lo.tid IS DISTINCT FROM hi.tid) AS mismatched
FROM insp_items hi LEFT JOIN insp_items lo ON lo.blkno = hi.child AND lo.region = 'low key'
WHERE hi.region = 'high key';
-- the root: an internal page with no fences, its first pivot minus
-- infinity (NULL), and every other pivot ascending
SELECT m.root, m.levels, p.region, count(*) AS items,
       count(*) FILTER (WHERE p.key IS NULL) AS null_pivots,
       count(DISTINCT p.child) AS children
FROM bpindex_metap('insp_ff10') m, bpindex_page_items('insp_ff10', m.root) p
GROUP BY 1, 2, 3;
SELECT itemno, key IS NULL AS minus_infinity, ctid IS NULL AS no_tid
FROM bpindex_page_items('insp_ff10', (SELECT root FROM bpindex_metap('insp_ff10')))
WHERE itemno = 1;
-- the pivots of every internal page ascend, and the first pivot of a page
-- with a low key is that low key
SELECT count(*) AS pivots,
       count(*) FILTER (WHERE prev IS NOT NULL AND NOT (prev < insp_sk(key, tid))) AS out_of_order
FROM (SELECT key, tid, lag(insp_sk(key, tid)) OVER (PARTITION BY blkno ORDER BY itemno) AS prev
      FROM insp_items WHERE region = 'pivot' AND key IS NOT NULL) x;
SELECT count(*) AS pages_with_low_key,
       count(*) FILTER (WHERE pv.key IS DISTINCT FROM lo.key OR pv.tid IS DISTINCT FROM lo.tid) AS first_pivot_differs
FROM insp_items lo
     JOIN (SELECT DISTINCT ON (blkno) * FROM insp_items WHERE region = 'pivot'
           ORDER BY blkno, itemno) pv ON pv.blkno = lo.blkno
WHERE lo.region = 'low key';
-- each child's low key is its pivot (the leftmost child has none)
SELECT count(*) AS downlinks,
       count(*) FILTER (WHERE pv.key IS DISTINCT FROM lo.key OR pv.tid IS DISTINCT FROM lo.tid) AS mismatched
FROM insp_items pv LEFT JOIN insp_items lo ON lo.blkno = pv.child AND lo.region = 'low key'
WHERE pv.region = 'pivot';
-- every page but the root is the child of exactly one pivot
SELECT count(*) AS pages,
       count(*) FILTER (WHERE n.parents IS DISTINCT FROM 1) AS not_one_parent
FROM insp_pages p
     LEFT JOIN (SELECT child, count(*) AS parents FROM insp_items
                WHERE region = 'pivot' GROUP BY child) n ON n.child = p.blkno
WHERE p.blkno <> (SELECT root FROM bpindex_metap('insp_ff10'));
-- following the right-links from the leftmost leaf visits every leaf
WITH RECURSIVE chain(blkno, n) AS (
    SELECT blkno, 1 FROM insp_pages WHERE NOT internal AND NOT has_low
    UNION ALL
    SELECT hi.child, c.n + 1 FROM chain c
         JOIN insp_items hi ON hi.blkno = c.blkno AND hi.region = 'high key'
)
SELECT count(*) AS leaves_in_chain, count(DISTINCT blkno) AS distinct_leaves,
       (SELECT count(*) FROM insp_pages WHERE NOT internal) AS leaf_pages
FROM chain;
SELECT bpindex_check('insp_ff10', true);

-- block 0 is the metapage; blocks past the end do not exist
SELECT pg_relation_size('insp_small_bp') / current_setting('block_size')::int AS blocks;
SELECT * FROM bpindex_page_items('insp_small_bp', 0);
SELECT * FROM bpindex_page_items('insp_small_bp', 2);
SELECT * FROM bpindex_page_items('insp_small_bp', -1);
SELECT * FROM bpindex_page_items('insp_small_bp', 4294967296);
SELECT * FROM bpindex_page_items('insp_small_bp', NULL);

--
-- Everything deleted, then VACUUM: every leaf is emptied and deleted but
-- the rightmost, and so is every level-1 page but the rightmost (each one
-- merged into its sibling with its last leaf); the root stays
--
CREATE TABLE insp_before AS SELECT * FROM bpindex_stats('insp_ff10');
DELETE FROM insp_t;
SELECT bp_wait_for_horizon();
VACUUM insp_t;
SELECT s.levels = b.levels AS same_levels, s.leaf_pages, s.internal_pages,
       s.deleted_pages = b.leaf_pages + b.internal_pages - 3 + b.deleted_pages AS others_deleted,
       s.entries, s.empty_leaves = s.leaf_pages AS all_empty, s.avg_leaf_fill, s.avg_log_fill,
       s.incomplete_splits, s.unused_pages
FROM bpindex_stats('insp_ff10') s, insp_before b;
SELECT count(*) AS slots FROM generate_series(1, pg_relation_size('insp_ff10') / 8192 - 1) b,
     LATERAL bpindex_page_items('insp_ff10', b) p
WHERE p.region IN ('log', 'block');
SELECT i AS index, s.entries, s.empty_leaves = s.leaf_pages AS all_empty
FROM unnest(ARRAY['insp_default', 'insp_ff100', 'insp_ff50', 'insp_log2', 'insp_log200',
                  'insp_bs100', 'insp_multi', 'insp_expr']) WITH ORDINALITY AS u(i, n),
     LATERAL bpindex_stats(i::regclass) s
ORDER BY u.n;
SELECT bpindex_check('insp_ff10', true);
SELECT bpindex_check('insp_multi', true);

--
-- Relations that are not (valid) bpindex indexes
--
CREATE INDEX insp_btree ON insp_t USING btree (k);
CREATE INDEX insp_hash ON insp_t USING hash (k);
CREATE VIEW insp_view AS SELECT * FROM insp_t;
CREATE SEQUENCE insp_seq;
SELECT * FROM bpindex_metap('insp_btree');
SELECT * FROM bpindex_stats('insp_btree');
SELECT * FROM bpindex_page_items('insp_btree', 1);
SELECT bpindex_check('insp_btree');
SELECT * FROM bpindex_metap('insp_hash');
SELECT * FROM bpindex_metap('insp_t');
SELECT * FROM bpindex_stats('insp_t');
SELECT * FROM bpindex_page_items('insp_t', 1);
SELECT bpindex_check('insp_t', true);
SELECT * FROM bpindex_metap('insp_view');
SELECT bpindex_check('insp_seq');
SELECT * FROM bpindex_metap('insp_no_such_index');
SELECT * FROM bpindex_metap(0);
SELECT * FROM bpindex_metap(NULL);
SELECT bpindex_check(NULL);
-- an invalid index, left behind by a failed CREATE INDEX CONCURRENTLY
CREATE INDEX CONCURRENTLY insp_invalid ON insp_t USING bpindex (k)
    WITH (log_size = 1000, block_size = 1000);
SELECT indisvalid FROM pg_index WHERE indexrelid = 'insp_invalid'::regclass;
SELECT * FROM bpindex_metap('insp_invalid');
SELECT * FROM bpindex_stats('insp_invalid');
SELECT * FROM bpindex_page_items('insp_invalid', 1);
SELECT bpindex_check('insp_invalid');
DROP INDEX insp_invalid;

--
-- Privileges: bpindex_metap and bpindex_page_items are for superusers only
--
SELECT p.proname, has_function_privilege('public', p.oid, 'EXECUTE') AS public_execute
FROM pg_proc p
WHERE p.proname IN ('bpindex_metap', 'bpindex_stats', 'bpindex_page_items', 'bpindex_check')
ORDER BY 1;
CREATE ROLE regress_bp_inspect_user;
GRANT SELECT ON insp_small TO regress_bp_inspect_user;
SET ROLE regress_bp_inspect_user;
SELECT * FROM bpindex_page_items('insp_small_bp', 1);
RESET ROLE;
-- even with EXECUTE granted, the function checks for a superuser
GRANT EXECUTE ON FUNCTION bpindex_page_items(regclass, int8) TO regress_bp_inspect_user;
SET ROLE regress_bp_inspect_user;
SELECT * FROM bpindex_page_items('insp_small_bp', 1);
-- bpindex_stats and bpindex_check are revoked from PUBLIC too (like
-- pgstatindex and amcheck); bpindex_metap shows raw metapage content
SELECT levels, leaf_pages, entries FROM bpindex_stats('insp_small_bp');
SELECT root, levels, log_size FROM bpindex_metap('insp_small_bp');
SELECT bpindex_check('insp_small_bp', true);
RESET ROLE;
REVOKE EXECUTE ON FUNCTION bpindex_page_items(regclass, int8) FROM regress_bp_inspect_user;
REVOKE SELECT ON insp_small FROM regress_bp_inspect_user;
DROP ROLE regress_bp_inspect_user;

DROP VIEW insp_view;
DROP SEQUENCE insp_seq;
DROP TABLE insp_t, insp_types, insp_small, insp_items, insp_pages, insp_before, insp_built;
