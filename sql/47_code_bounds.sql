--
-- 47_code_bounds: range keys on the leading integer columns of a packed
-- leaf are tested as two bounds on its entries' codes (bpcodebound.c).
-- Values below the leaf's base and beyond its codes, with <, <=, >, >=
-- and =, under NULLS FIRST and NULLS LAST, on columns of one value (code
-- width 0) and on two columns with NULLs, must read as a sequential scan
-- does in every plan shape (assertion builds also check every bound
-- against the column-by-column test).  Descents over integer columns test
-- pivots the same way (bp_integer_bound), checked likewise.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- one leaf each: values 1..100 with NULLs (codes of one byte), under
-- NULLS FIRST and NULLS LAST
CREATE TABLE t_cb (a int4, b int8);
INSERT INTO t_cb SELECT CASE WHEN i % 17 = 0 THEN NULL ELSE i END, i % 7 FROM generate_series(1, 100) i;
CREATE INDEX t_cb_first ON t_cb USING bpindex (a NULLS FIRST);
CREATE TABLE t_cb_l AS SELECT * FROM t_cb;
CREATE INDEX t_cb_last ON t_cb_l USING bpindex (a);
-- one value only (a code width of 0), and two columns
CREATE TABLE t_cb_const (a int4, b int8);
INSERT INTO t_cb_const SELECT 7, CASE WHEN i % 13 = 0 THEN NULL ELSE i END FROM generate_series(1, 1000) i;
CREATE INDEX t_cb_const_a ON t_cb_const USING bpindex (a NULLS FIRST);
CREATE TABLE t_cb_pair AS SELECT * FROM t_cb_const;
CREATE INDEX t_cb_pair_ab ON t_cb_pair USING bpindex (a, b);
VACUUM ANALYZE t_cb, t_cb_l, t_cb_const, t_cb_pair;
SELECT leaf_pages, packed_leaves FROM bpindex_stats('t_cb_first');
SELECT leaf_pages, packed_leaves FROM bpindex_stats('t_cb_const_a');
SELECT key_bytes FROM bpindex_leaves('t_cb_const_a');


SELECT * FROM bp_queries('code bounds, one column, NULLS FIRST', ARRAY[
    'select a from t_cb where a > 1000',
    'select a from t_cb where a >= 1000',
    'select a from t_cb where a > 2147483646',
    'select a from t_cb where a < -1000',
    'select a from t_cb where a <= -1000',
    'select a from t_cb where a < -2147483647',
    'select a from t_cb where a > -1000',
    'select a from t_cb where a < 1000',
    'select a from t_cb where a = 1000',
    'select a from t_cb where a = -1000',
    'select a from t_cb where a > 99',
    'select a from t_cb where a < 2',
    'select a from t_cb where a between 3 and 3',
    'select a from t_cb where a > 50 and a < 50'
]);
SELECT * FROM bp_queries('code bounds, one column, NULLS LAST', ARRAY[
    'select a from t_cb_l where a > 1000',
    'select a from t_cb_l where a >= 1000',
    'select a from t_cb_l where a > 2147483646',
    'select a from t_cb_l where a < -1000',
    'select a from t_cb_l where a <= -1000',
    'select a from t_cb_l where a < -2147483647',
    'select a from t_cb_l where a > -1000',
    'select a from t_cb_l where a < 1000',
    'select a from t_cb_l where a = 1000',
    'select a from t_cb_l where a = -1000',
    'select a from t_cb_l where a > 99',
    'select a from t_cb_l where a < 2',
    'select a from t_cb_l where a between 3 and 3',
    'select a from t_cb_l where a > 50 and a < 50'
]);
SELECT * FROM bp_queries('code bounds, one value', ARRAY[
    'select a from t_cb_const where a < 5',
    'select a from t_cb_const where a <= 7',
    'select a from t_cb_const where a < 7',
    'select a from t_cb_const where a > 7',
    'select a from t_cb_const where a >= 7',
    'select a from t_cb_const where a > 5',
    'select a from t_cb_const where a = 8'
]);
SELECT * FROM bp_queries('code bounds, two columns', ARRAY[
    'select a, b from t_cb_pair where a = 7 and b < -1000',
    'select a, b from t_cb_pair where a = 7 and b <= -1000',
    'select a, b from t_cb_pair where a = 7 and b > 100000',
    'select a, b from t_cb_pair where a = 7 and b > -1000',
    'select a, b from t_cb_pair where a = 7 and b < 100000',
    'select a, b from t_cb_pair where a = 7 and b between 10 and 20',
    'select a, b from t_cb_pair where a < 7 and b > 5',
    'select a, b from t_cb_pair where a = 7 and b = 1000',
    'select a, b from t_cb_pair where a = 7 and b = 1001'
]);
SELECT bpindex_check('t_cb_first', true), bpindex_check('t_cb_last', true),
       bpindex_check('t_cb_const_a', true), bpindex_check('t_cb_pair_ab', true);

-- descents over integer columns compare each pivot and fence with one
-- integer a column (bp_integer_bound): limits of equal value, = keys of
-- two values, skip scans over NULL prefixes, int2 and oid columns, both
-- directions, over indexes of many leaves
CREATE TABLE t_ib (a int4, b int8, c int2, o oid);
INSERT INTO t_ib SELECT CASE WHEN i % 23 = 0 THEN NULL ELSE i % 9 END,
    CASE WHEN i % 31 = 0 THEN NULL ELSE i END, (i % 50)::int2, (i % 7)::oid
    FROM generate_series(1, 30000) i;
CREATE INDEX t_ib_abc ON t_ib USING bpindex (a, b, c) WITH (fillfactor = 30);
CREATE INDEX t_ib_oc ON t_ib USING bpindex (o, c) WITH (fillfactor = 30);
VACUUM ANALYZE t_ib;
SELECT leaf_pages > 20 AS many_leaves FROM bpindex_stats('t_ib_abc');
SELECT * FROM bp_queries('integer bounds of descents', ARRAY[
    'select a, b, c from t_ib where b = 12345',
    'select a, b, c from t_ib where b = 12351',
    'select a, b, c from t_ib where b between 20000 and 20040',
    'select a, b, c from t_ib where b in (2, 4600, 29999)',
    'select a, b, c from t_ib where a = 4 and b > 15001 and b >= 15001',
    'select a, b, c from t_ib where a = 4 and b >= 15002 and b > 15001',
    'select a, b, c from t_ib where a = 4 and b < 9001 and b <= 9000',
    'select a, b, c from t_ib where a = 4 and a = any(array[5, 6])',
    'select a, b, c from t_ib where a = 4 and a = any(array[4, 6]) and b < 100',
    'select a, b, c from t_ib where a > 7 and b = 305',
    'select a, b, c from t_ib where a < 1 and b > 29000',
    'select a, b, c from t_ib where a = 4 and b = 15007 and c = 7',
    'select a, b, c from t_ib where a = 4 and b = 15007 and c > 4',
    'select a, b, c from t_ib where a = 4 and b = 15007 and c = 7::int2',
    'select a, b, c from t_ib where a = 4 and b = 15007 and c > 7::int2',
    'select a, b, c from t_ib where a = 4 and b = 15007 and c >= 7::int2',
    'select a, b, c from t_ib where b < 200 order by a desc, b desc, c desc',
    'select a, b, c from t_ib where b > 29800 order by a desc, b desc, c desc',
    'select a, b, c from t_ib where a is null and b > 29000',
    'select o, c from t_ib where o = 3 and c < 10',
    'select o, c from t_ib where c = 7',
    'select o, c from t_ib where o >= 6 and c between 40 and 41 order by o desc, c desc'
]);
SELECT bpindex_check('t_ib_abc', true), bpindex_check('t_ib_oc', true);
