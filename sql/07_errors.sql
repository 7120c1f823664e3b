--
-- 07_errors: what bpindex refuses, and DDL around its indexes.
--
-- Statements that add index entries after the build (INSERT, COPY,
-- UPDATE of the key, through a partial index or an exclusion constraint)
-- work: the index agrees with a sequential scan afterwards and passes
-- bpindex_check.  Unsupported index definitions fail at CREATE INDEX.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE t_err (k int4, v int4) WITH (fillfactor = 50, autovacuum_enabled = off);
INSERT INTO t_err SELECT i, i FROM generate_series(1, 1000) i;
VACUUM ANALYZE t_err;
CREATE INDEX t_err_bp ON t_err USING bpindex (k);

-- INSERT, COPY, UPDATE of the key
INSERT INTO t_err VALUES (1001, 1001);
INSERT INTO t_err SELECT i, i FROM generate_series(2000, 2010) i;
COPY t_err FROM stdin;
3000	3000
\.
UPDATE t_err SET k = k + 1 WHERE k = 500;
INSERT INTO t_err VALUES (NULL, NULL);
-- 1000 + 1 + 11 + 1 + 1 rows; 500 is now 501 (twice)
SELECT count(*), count(k), min(k), max(k), sum(k) FROM t_err;
SELECT * FROM bp_queries('modified', ARRAY[
    'select k, v from t_err where k between 499 and 502',
    'select k, v from t_err where k > 995',
    'select k, v from t_err where k is null',
    'select k, v from t_err where k >= 1000 order by k',
    'select k, v from t_err order by k desc limit 3'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('modified');
SELECT bpindex_check('t_err_bp', true);
-- the UPDATE left the old row version and its entry; VACUUM removes the
-- entry and the index counts one entry per row
SELECT entries FROM bpindex_stats('t_err_bp');
SELECT bp_wait_for_horizon();
VACUUM t_err;
SELECT reltuples FROM pg_class WHERE relname = 't_err_bp';
SELECT entries FROM bpindex_stats('t_err_bp');
SELECT bpindex_check('t_err_bp', true);
-- an index dropped and built again over the modified table gives the same
-- results (before any HOT update: CREATE INDEX over a HOT chain whose
-- old version is still recently dead would make the new index unusable
-- by the transactions already running, see indcheckxmin)
DROP INDEX t_err_bp;
INSERT INTO t_err VALUES (1002, 1002), (NULL, NULL);
CREATE INDEX t_err_bp ON t_err USING bpindex (k);
SELECT * FROM bp_queries('reindexed', ARRAY[
    'select k, v from t_err where k > 995',
    'select k, v from t_err where k is null'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('reindexed');

-- an UPDATE of another column that stays on its heap page (HOT) adds no
-- index entry, and index scans find the new row version
UPDATE t_err SET v = -v WHERE k BETWEEN 10 AND 12;
SELECT entries FROM bpindex_stats('t_err_bp');
SELECT * FROM bp_queries('hot', ARRAY[
    'select k, v from t_err where k between 9 and 13',
    'select k, v from t_err where k >= 10 order by k limit 4'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('hot');
SELECT bpindex_check('t_err_bp', true);
-- a partial index gets entries only for the rows that satisfy its
-- predicate: 5 and NULL are not indexed, 501 and 1001 are
CREATE TABLE t_part (k int4);
INSERT INTO t_part SELECT generate_series(1, 1000);
CREATE INDEX t_part_bp ON t_part USING bpindex (k) WHERE k > 500;
INSERT INTO t_part VALUES (5), (NULL);
INSERT INTO t_part VALUES (501), (1001);
SELECT entries FROM bpindex_stats('t_part_bp');
SELECT * FROM bp_queries('partial', ARRAY[
    'select k from t_part where k > 500 and k < 510',
    'select k from t_part where k > 990 order by k desc'
]);
SELECT * FROM bp_failures('partial');
SELECT bpindex_check('t_part_bp', true);

-- an exclusion constraint is checked through the index, when it is built
-- and for every row inserted afterwards
CREATE TABLE t_excl (k int4);
INSERT INTO t_excl SELECT generate_series(1, 500);
INSERT INTO t_excl VALUES (250);
ALTER TABLE t_excl ADD CONSTRAINT t_excl_k EXCLUDE USING bpindex (k WITH =);
DELETE FROM t_excl WHERE ctid = (SELECT max(ctid) FROM t_excl);
ALTER TABLE t_excl ADD CONSTRAINT t_excl_k EXCLUDE USING bpindex (k WITH =);
INSERT INTO t_excl VALUES (1000);
INSERT INTO t_excl VALUES (250);
INSERT INTO t_excl SELECT generate_series(501, 600);
INSERT INTO t_excl VALUES (601), (602), (601);
UPDATE t_excl SET k = k + 1 WHERE k = 1000;
UPDATE t_excl SET k = 2 WHERE k = 1001;
INSERT INTO t_excl VALUES (NULL), (NULL);
SELECT count(*), count(k), max(k) FROM t_excl;
SELECT * FROM bp_queries('exclusion', ARRAY[
    'select k from t_excl where k between 245 and 255',
    'select k from t_excl where k > 590',
    'select k from t_excl where k is null'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('exclusion');
SELECT bpindex_check('t_excl_k', true);

--
-- Index definitions bpindex refuses
--
CREATE TABLE t_def (a int4, b int8, t text, i point, n name);
INSERT INTO t_def SELECT i, i, i::text, point(i, i), i::text FROM generate_series(1, 100) i;
-- the default order, ASC NULLS LAST (DESC and NULLS FIRST: 22_desc)
CREATE INDEX t_def_asc ON t_def USING bpindex (a ASC NULLS LAST, b ASC);
SELECT pg_get_indexdef('t_def_asc'::regclass);
SELECT p.name, pg_index_column_has_property('t_def_asc'::regclass, 1, p.name)
FROM unnest(ARRAY['asc', 'desc', 'nulls_first', 'nulls_last', 'orderable',
                  'distance_orderable', 'returnable', 'search_array',
                  'search_nulls']) WITH ORDINALITY AS p(name, n)
ORDER BY p.n;
SELECT p.name, pg_index_has_property('t_def_asc'::regclass, p.name)
FROM unnest(ARRAY['clusterable', 'index_scan', 'bitmap_scan', 'backward_scan'])
     WITH ORDINALITY AS p(name, n)
ORDER BY p.n;
-- every property answer equals btree's for the same columns
CREATE INDEX t_def_bt ON t_def USING btree (a, b);
SELECT level, name, btree, bpindex
FROM (SELECT 'column ' || c AS level, p AS name,
             pg_index_column_has_property('t_def_bt'::regclass, c, p) AS btree,
             pg_index_column_has_property('t_def_asc'::regclass, c, p) AS bpindex
      FROM unnest(ARRAY['asc', 'desc', 'nulls_first', 'nulls_last', 'orderable',
                        'distance_orderable', 'returnable', 'search_array',
                        'search_nulls']) p, generate_series(1, 2) c
      UNION ALL
      SELECT 'index', p, pg_index_has_property('t_def_bt'::regclass, p),
             pg_index_has_property('t_def_asc'::regclass, p)
      FROM unnest(ARRAY['clusterable', 'index_scan', 'bitmap_scan', 'backward_scan']) p
      UNION ALL
      SELECT 'access method', p,
             pg_indexam_has_property((SELECT oid FROM pg_am WHERE amname = 'btree'), p),
             pg_indexam_has_property((SELECT oid FROM pg_am WHERE amname = 'bpindex'), p)
      FROM unnest(ARRAY['can_order', 'can_unique', 'can_multi_col', 'can_exclude',
                        'can_include']) p) props
WHERE btree IS DISTINCT FROM bpindex
ORDER BY 1, 2;
DROP INDEX t_def_asc, t_def_bt;
-- a type without a bpindex operator class (point has no btree one either)
CREATE INDEX ON t_def USING bpindex (i);
-- a variable-length type through a user-defined operator class works: its
-- support function compares the keys
CREATE OPERATOR CLASS text_test_ops FOR TYPE text USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 bttextcmp(text, text);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'text_test_ops';
CREATE INDEX t_def_text ON t_def USING bpindex (t text_test_ops);
CREATE INDEX t_def_text2 ON t_def USING bpindex (a, t text_test_ops);
SELECT bpindex_check('t_def_text', true), bpindex_check('t_def_text2', true);
DROP INDEX t_def_text, t_def_text2;
-- a fixed-length by-reference type through a user-defined operator class
-- works: name is 64 bytes, compared with its collation
CREATE OPERATOR CLASS name_test_ops FOR TYPE name USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 btnamecmp(name, name);
CREATE TABLE t_name (n name, k int2);
INSERT INTO t_name
SELECT CASE WHEN i % 13 = 0 THEN NULL ELSE 'name_' || (i * 7919 % 700) END, i % 3
FROM generate_series(1, 3000) i;
VACUUM ANALYZE t_name;
CREATE INDEX t_name_bp ON t_name USING bpindex (n name_test_ops, k);
SELECT * FROM bp_queries('name', ARRAY[
    'select n, k from t_name where n = ''name_17''',
    'select n, k from t_name where n = ''name_17'' and k > 2',
    'select n, k from t_name where n >= ''name_69'' and n < ''name_7''',
    'select n, k from t_name where n is null',
    'select n, k from t_name where k = 2',
    'select n, k from t_name order by n, k',
    'select n, k from t_name order by n desc, k desc limit 10',
    'select n, k from t_name where n < ''name_2'' order by n desc, k desc'
]);
SELECT * FROM bp_failures('name');
-- more fixed-length types through user-defined operator classes:
-- interval (16 bytes, double-aligned, by reference), timetz (12 bytes,
-- double-aligned), macaddr (6 bytes, int-aligned) and "char" (1 byte)
CREATE OPERATOR CLASS interval_test_ops FOR TYPE interval USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 interval_cmp(interval, interval);
CREATE OPERATOR CLASS timetz_test_ops FOR TYPE timetz USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 timetz_cmp(timetz, timetz);
CREATE OPERATOR CLASS macaddr_test_ops FOR TYPE macaddr USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 macaddr_cmp(macaddr, macaddr);
CREATE OPERATOR CLASS char_test_ops FOR TYPE "char" USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 btcharcmp("char", "char");
CREATE TABLE t_fixed (iv interval, tz timetz, m macaddr, c "char", s int2);
INSERT INTO t_fixed
SELECT CASE WHEN i % 17 = 0 THEN NULL ELSE (i * 7919 % 500) * interval '1 hour 3 minutes' END,
       CASE WHEN i % 19 = 0 THEN NULL ELSE '10:00+02'::timetz + (i % 300) * interval '1 minute' END,
       ('08:00:2b:01:02:' || lpad(to_hex(i * 7 % 256), 2, '0'))::macaddr,
       chr(65 + i % 26)::"char",
       i % 7
FROM generate_series(1, 5000) i;
VACUUM ANALYZE t_fixed;
CREATE INDEX t_fixed_iv ON t_fixed USING bpindex (iv interval_test_ops, m macaddr_test_ops, s);
CREATE INDEX t_fixed_tz ON t_fixed USING bpindex (tz timetz_test_ops);
CREATE INDEX t_fixed_c ON t_fixed USING bpindex (c char_test_ops, s);
SELECT * FROM bp_queries('fixed', ARRAY[
    'select iv, m, s from t_fixed where iv between ''10 hours'' and ''100 hours''',
    'select iv, m, s from t_fixed where iv = ''21 hours'' and m > ''08:00:2b:01:02:80''',
    'select iv, m, s from t_fixed where iv is null and m = ''08:00:2b:01:02:07''',
    'select iv, m, s from t_fixed where iv > ''20 days'' order by iv desc, m desc, s desc',
    'select tz from t_fixed where tz > ''12:00+02''',
    'select tz from t_fixed where tz <= ''10:05+02'' order by tz',
    'select c, s from t_fixed where c = ''C'' and s > 4',
    'select c, s from t_fixed where c >= ''X'' order by c desc, s desc'
]);
SELECT * FROM bp_failures('fixed');
-- entries wider than a page can hold four of: 32 name columns
SELECT format('CREATE INDEX t_name_wide ON t_name USING bpindex (%s)',
              string_agg(format('((n || %L)::name) name_test_ops', i), ', '))
FROM generate_series(1, 32) i \gexec
-- fillfactor must be from 10 to 100
CREATE INDEX ON t_def USING bpindex (a) WITH (fillfactor = 5);
CREATE INDEX ON t_def USING bpindex (a) WITH (fillfactor = 101);
CREATE INDEX ON t_def USING bpindex (a) WITH (fillfactor = 'abc');
CREATE INDEX ON t_def USING bpindex (a) WITH (pages_per_range = 4);
CREATE INDEX ON t_def USING bpindex (a) WITH (deduplicate_items = off);
CREATE INDEX t_def_ff10 ON t_def USING bpindex (a) WITH (fillfactor = 10);
CREATE INDEX t_def_ff100 ON t_def USING bpindex (a) WITH (fillfactor = 100);
SELECT relname, reloptions FROM pg_class WHERE relname LIKE 't_def_ff%' ORDER BY 1;
DROP INDEX t_def_ff10, t_def_ff100;
-- CLUSTER on a partial bpindex index is refused, as on btree
CREATE INDEX t_def_bp ON t_def USING bpindex (a) WHERE a > 10;
CLUSTER t_def USING t_def_bp;
DROP TABLE t_def;

--
-- Expression indexes over fixed-length expressions (no index-only scans:
-- the queries need the column, not the expression)
--
CREATE TABLE t_expr (k int4, ts timestamp);
INSERT INTO t_expr
SELECT CASE WHEN i % 17 = 0 THEN NULL ELSE i * 7919 % 1000 END,
       '2021-01-01'::timestamp + i * interval '37 minutes'
FROM generate_series(1, 3000) i;
VACUUM ANALYZE t_expr;
CREATE INDEX t_expr_bp ON t_expr USING bpindex ((k * 2));
CREATE INDEX t_expr_day ON t_expr USING bpindex ((ts::date), (k % 10));
SELECT * FROM bp_queries('expr', ARRAY[
    'select k from t_expr where k * 2 = 1000',
    'select k from t_expr where k * 2 < 11',
    'select k from t_expr where k * 2 between 1990 and 3000',
    'select k from t_expr where k * 2 is null',
    'select k * 2 from t_expr order by k * 2 desc limit 5',
    'select k from t_expr where k * 2 > 1900 order by k * 2',
    'select ts from t_expr where ts::date = ''2021-01-15''',
    'select ts from t_expr where ts::date = ''2021-01-15'' and k % 10 = 3',
    'select ts::date, k % 10 from t_expr where ts::date >= ''2021-03-01'' order by ts::date, k % 10'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('expr');

--
-- ALTER INDEX ... SET (fillfactor), REINDEX, CREATE INDEX CONCURRENTLY,
-- REINDEX CONCURRENTLY, table rewrites
--
CREATE TABLE t_alter (k int4);
INSERT INTO t_alter SELECT i * 7919 % 20000 FROM generate_series(1, 20000) i;
VACUUM ANALYZE t_alter;
CREATE INDEX t_alter_bp ON t_alter USING bpindex (k);
SELECT pg_relation_size('t_alter_bp') AS size_default \gset
ALTER INDEX t_alter_bp SET (fillfactor = 5);
ALTER INDEX t_alter_bp SET (fillfactor = 20);
SELECT reloptions FROM pg_class WHERE relname = 't_alter_bp';
-- the new fillfactor takes effect at REINDEX: leaves are filled less
REINDEX INDEX t_alter_bp;
SELECT pg_relation_size('t_alter_bp') > 3 * :size_default AS bigger_after_reindex;
SELECT * FROM bp_queries('alter', ARRAY[
    'select k from t_alter where k between 100 and 120',
    'select k from t_alter order by k desc limit 3'
]);
ALTER INDEX t_alter_bp RESET (fillfactor);
REINDEX TABLE t_alter;
SELECT reloptions, pg_relation_size('t_alter_bp') = :size_default AS default_size_again
FROM pg_class WHERE relname = 't_alter_bp';
REINDEX INDEX CONCURRENTLY t_alter_bp;
CREATE INDEX CONCURRENTLY t_alter_bp2 ON t_alter USING bpindex (k) WITH (fillfactor = 60);
SELECT indexrelid::regclass, indisvalid, indisready FROM pg_index
WHERE indrelid = 't_alter'::regclass ORDER BY 1;
DROP INDEX t_alter_bp2;
SELECT * FROM bp_queries('alter', ARRAY[
    'select k from t_alter where k = 777',
    'select k from t_alter where k < 50 order by k desc'
]);
-- VACUUM FULL and ALTER COLUMN TYPE rewrite the table and rebuild the
-- index (now over int8)
VACUUM FULL t_alter;
ALTER TABLE t_alter ALTER COLUMN k TYPE int8;
SELECT pg_get_indexdef('t_alter_bp'::regclass);
SELECT * FROM bp_queries('alter', ARRAY[
    'select k from t_alter where k = 777',
    'select k from t_alter where k > 19990 order by k',
    'select k from t_alter where k < 5::int4'
]);
SELECT * FROM bp_failures('alter');

--
-- UNLOGGED and temporary tables
--
CREATE UNLOGGED TABLE t_unlogged (k int8, d date);
INSERT INTO t_unlogged
SELECT i * 7919 % 3000, '2020-01-01'::date + i % 100 FROM generate_series(1, 3000) i;
VACUUM ANALYZE t_unlogged;
CREATE INDEX t_unlogged_bp ON t_unlogged USING bpindex (d, k);
SELECT relpersistence FROM pg_class WHERE relname = 't_unlogged_bp';
SELECT * FROM bp_queries('unlogged', ARRAY[
    'select d, k from t_unlogged where d = ''2020-02-01'' and k > 1500',
    'select d, k from t_unlogged order by d desc, k desc limit 5'
]);
SELECT * FROM bp_failures('unlogged');
-- an unlogged table created empty: its index starts from the init fork
CREATE UNLOGGED TABLE t_unlogged_empty (k int4);
CREATE INDEX t_unlogged_empty_bp ON t_unlogged_empty USING bpindex (k);
SET enable_seqscan = off;
SELECT count(*) FROM t_unlogged_empty WHERE k > 0;
RESET enable_seqscan;
CREATE TEMP TABLE t_temp (k float4);
INSERT INTO t_temp SELECT i / 3.0 FROM generate_series(1, 2000) i;
VACUUM ANALYZE t_temp;
CREATE INDEX t_temp_bp ON t_temp USING bpindex (k);
SELECT * FROM bp_queries('temp', ARRAY[
    'select k from t_temp where k between 10 and 11',
    'select k from t_temp order by k desc limit 3'
]);
SELECT * FROM bp_failures('temp');

--
-- One validation of the layout options, for CREATE INDEX and ALTER INDEX
-- SET alike: what ALTER accepts, every rebuild (REINDEX, TRUNCATE,
-- VACUUM FULL, a restored dump) can use.
--
CREATE TABLE err_opts (k int4);
INSERT INTO err_opts SELECT i FROM generate_series(1, 1000) i;
CREATE INDEX err_opts_bp ON err_opts USING bpindex (k);
ALTER INDEX err_opts_bp SET (block_size = 1000, log_size = 1024);
ALTER INDEX err_opts_bp SET (log_size = 400);
ALTER INDEX err_opts_bp SET (log_size = 200, block_size = 20);
SELECT reloptions FROM pg_class WHERE relname = 'err_opts_bp';
REINDEX INDEX err_opts_bp;
TRUNCATE err_opts;
INSERT INTO err_opts SELECT i FROM generate_series(1, 1000) i;
VACUUM FULL err_opts;
SELECT log_size, block_size FROM bpindex_metap('err_opts_bp');
ALTER INDEX err_opts_bp RESET (log_size, block_size);
REINDEX INDEX err_opts_bp;
SELECT log_size > 0 AS default_log FROM bpindex_metap('err_opts_bp');
DROP TABLE err_opts;

--
-- An operator class whose support function does not compare its input
-- type is refused at CREATE INDEX, and amvalidate reports it
--
CREATE TABLE err_opclass (k int4);
CREATE OPERATOR CLASS int4_wrong_ops FOR TYPE int4 USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 btint8cmp(int8, int8);
CREATE INDEX err_opclass_bp ON err_opclass USING bpindex (k int4_wrong_ops);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'int4_wrong_ops';
DROP OPERATOR FAMILY int4_wrong_ops USING bpindex;
DROP TABLE err_opclass;

--
-- Uniqueness through an exclusion constraint, and ON CONFLICT DO NOTHING
-- with it
--
CREATE TABLE err_excl (k int4, v text, EXCLUDE USING bpindex (k WITH =));
INSERT INTO err_excl SELECT i, 'first' FROM generate_series(1, 500) i;
INSERT INTO err_excl VALUES (42, 'again');
INSERT INTO err_excl VALUES (42, 'again'), (501, 'new') ON CONFLICT DO NOTHING;
SELECT count(*), count(*) FILTER (WHERE v = 'new') AS new FROM err_excl;
SELECT k, v FROM err_excl WHERE k IN (42, 501) ORDER BY k;
DROP TABLE err_excl;

-- a family whose cross-type operator has no comparison function, and
-- lacks the other strategies for that pair: amvalidate names each gap
CREATE OPERATOR FAMILY int_partial_ops USING bpindex;
CREATE OPERATOR CLASS int4_partial_ops FOR TYPE int4 USING bpindex FAMILY int_partial_ops AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 btint4cmp(int4, int4);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'int4_partial_ops';
ALTER OPERATOR FAMILY int_partial_ops USING bpindex ADD OPERATOR 1 < (int4, int8);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'int4_partial_ops';
DROP OPERATOR FAMILY int_partial_ops USING bpindex;

-- wide fixed-width entries: ten name columns (648-byte slots) take rows;
-- with a variable-length column beside them, an entry leaves its keys no
-- room, and CREATE INDEX says so
CREATE TABLE t_wide10 (c0 name, c1 name, c2 name, c3 name, c4 name,
                       c5 name, c6 name, c7 name, c8 name, c9 name, t text);
CREATE INDEX t_wide10_bp ON t_wide10 USING bpindex (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9);
INSERT INTO t_wide10 SELECT 'a' || g, 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j' || g, NULL
FROM generate_series(1, 50) g;
SET enable_seqscan = off;
SELECT c9 FROM t_wide10 WHERE c0 = 'a7';
RESET enable_seqscan;
SELECT bpindex_check('t_wide10_bp', true);
CREATE INDEX t_wide10_t ON t_wide10 USING bpindex (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, t);
CREATE INDEX t_wide9_t ON t_wide10 USING bpindex (c0, c1, c2, c3, c4, c5, c6, c7, c8, t);
INSERT INTO t_wide10 VALUES ('x', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', repeat('t', 2000));
SELECT bpindex_check('t_wide9_t', true);
DROP TABLE t_wide10;
