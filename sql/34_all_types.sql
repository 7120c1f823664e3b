--
-- 34_all_types: a default operator class for every type that has a
-- default btree operator class (1.7): enums, interval, money, "char",
-- name, macaddr, macaddr8, pg_lsn, xid8, tid, timetz, bit, varbit, inet
-- and cidr, jsonb, arrays, composite types, ranges, multiranges, tsvector,
-- tsquery and oidvector.
--
-- Each table holds a few thousand rows in an order unrelated to the key
-- order, with NULLs, duplicates and the type's extreme values, and is
-- indexed after it is loaded.  bp_matrix (00_setup) runs every query shape
-- through Index Scan, Index Only Scan and Bitmap Index Scan, checks the
-- plan and compares the rows with a sequential scan's; all_types_matrix
-- sums that up: the shapes, the rows of the sequential scans, and the
-- shapes that failed (none).  bpindex_check(heapallindexed) checks every
-- index.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- bpindex has a default operator class for every type btree has one for,
-- with btree's name and family name
SELECT bt.opcintype::regtype AS type, bt.opcname AS btree_class
FROM pg_opclass bt JOIN pg_opfamily btf ON btf.oid = bt.opcfamily
WHERE bt.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'btree')
  AND bt.opcdefault
  AND NOT EXISTS (
      SELECT FROM pg_opclass bp JOIN pg_opfamily bpf ON bpf.oid = bp.opcfamily
      WHERE bp.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bpindex')
        AND bp.opcdefault AND bp.opcintype = bt.opcintype
        AND bp.opcname = bt.opcname AND bpf.opfname = btf.opfname);
SELECT count(*) AS default_classes FROM pg_opclass
WHERE opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bpindex') AND opcdefault;

-- and their families hold btree's operators (strategies 1 to 5) and
-- comparison functions (support function 1) for the same pairs of types,
-- cross-type ones included: what one access method has and the other lacks
CREATE TEMP VIEW family_members AS
SELECT am.amname, f.opfname, o.amoplefttype::regtype::text AS lefttype,
       o.amoprighttype::regtype::text AS righttype,
       'operator ' || o.amopstrategy AS member, o.amopopr::regoperator::text AS what
FROM pg_amop o JOIN pg_opfamily f ON f.oid = o.amopfamily
     JOIN pg_am am ON am.oid = f.opfmethod
WHERE am.amname IN ('btree', 'bpindex')
  AND EXISTS (SELECT FROM pg_opclass c WHERE c.opcfamily = f.oid AND c.opcdefault)
UNION ALL
SELECT am.amname, f.opfname, p.amproclefttype::regtype::text,
       p.amprocrighttype::regtype::text,
       'function 1', p.amproc::regprocedure::text
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
     JOIN pg_am am ON am.oid = f.opfmethod
WHERE am.amname IN ('btree', 'bpindex') AND p.amprocnum = 1
  AND EXISTS (SELECT FROM pg_opclass c WHERE c.opcfamily = f.oid AND c.opcdefault);
(SELECT 'btree only' AS side, opfname, lefttype, righttype, member, what
 FROM family_members WHERE amname = 'btree'
 EXCEPT
 SELECT 'btree only', opfname, lefttype, righttype, member, what
 FROM family_members WHERE amname = 'bpindex')
UNION ALL
(SELECT 'bpindex only', opfname, lefttype, righttype, member, what
 FROM family_members WHERE amname = 'bpindex'
 EXCEPT
 SELECT 'bpindex only', opfname, lefttype, righttype, member, what
 FROM family_members WHERE amname = 'btree')
ORDER BY 1, 2, 3, 4, 5;
SELECT count(*) AS members FROM family_members WHERE amname = 'bpindex';
DROP VIEW family_members;

--
-- all_types_matrix(label, tab, probes): bp_matrix over column k of tab,
-- summed up
--
CREATE FUNCTION all_types_matrix(label text, tab text, probes text[])
RETURNS TABLE (shapes bigint, seqscan_rows numeric, failures text)
LANGUAGE sql AS $$
    SELECT count(*), sum(nrows),
           coalesce(string_agg(shape, '; ') FILTER (
               WHERE NOT (idx IN ('ok', '-') AND ionly IN ('ok', '-')
                          AND bitmap IN ('ok', '-'))), '')
    FROM bp_matrix(label, tab, 'k', probes)
$$;

-- all_types_summary(tab): rows, non-NULL keys, distinct keys, and whether
-- the index on it has several leaves
CREATE FUNCTION all_types_summary(tab text)
RETURNS TABLE (nrows bigint, keys bigint, distinct_keys bigint, several_leaves boolean)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT count(*), count(k), count(DISTINCT k), '
        '(SELECT count(*) > 2 FROM bpindex_leaves(%L)) FROM %I',
        tab || '_bp', tab);
END
$$;

--
-- Fixed-length types: compared through their support function in slots of
-- their width (money inline, as int8)
--

-- an enum whose labels were added out of the order of their oids: the
-- order is the labels', as btree's
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
ALTER TYPE mood ADD VALUE 'ecstatic' AFTER 'happy';
ALTER TYPE mood ADD VALUE 'awful' BEFORE 'sad';
CREATE TABLE t_mood (k mood);
INSERT INTO t_mood
SELECT CASE WHEN i % 20 = 0 THEN NULL
            ELSE (enum_range(NULL::mood))[1 + i * 7919 % 6] END
FROM generate_series(1, 6000) i;
CREATE INDEX t_mood_bp ON t_mood USING bpindex (k);
VACUUM ANALYZE t_mood;
SELECT * FROM all_types_summary('t_mood');
SELECT * FROM all_types_matrix('mood', 't_mood', ARRAY['awful', 'meh', 'happy', 'ecstatic']);
SELECT bpindex_check('t_mood_bp', true);

-- interval: '-178000000 years' to '178000000 years'
CREATE TABLE t_interval (k interval);
INSERT INTO t_interval
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN interval '178000000 years'
            WHEN i % 89 = 0 THEN interval '-178000000 years'
            ELSE (i * 7919 % 601 - 300) * interval '1 hour 7 minutes' END
FROM generate_series(1, 4000) i;
CREATE INDEX t_interval_bp ON t_interval USING bpindex (k);
VACUUM ANALYZE t_interval;
SELECT * FROM all_types_summary('t_interval');
SELECT * FROM all_types_matrix('interval', 't_interval',
    ARRAY['-178000000 years', '-100 hours', '0', '20:06:00', '178000000 years']);
SELECT bpindex_check('t_interval_bp', true);
-- equal intervals spelled differently: each row keeps its own spelling,
-- which an index-only scan returns
CREATE TABLE t_interval_eq (k interval);
INSERT INTO t_interval_eq
SELECT (ARRAY['1 day', '24 hours', '1440 minutes', '1 mon', '30 days', '720 hours',
              '1 day 1 hour', '25 hours'])[1 + i % 8]::interval
FROM generate_series(1, 800) i;
CREATE INDEX t_interval_eq_bp ON t_interval_eq USING bpindex (k);
VACUUM ANALYZE t_interval_eq;
SELECT * FROM bp_queries('interval eq', ARRAY[
    'select k from t_interval_eq where k = ''1 day''',
    'select k from t_interval_eq where k = ''720 hours''',
    'select k from t_interval_eq where k > ''1 day'' and k <= ''25 hours'''
]);
SELECT bpindex_check('t_interval_eq_bp', true);

-- money (through the inline comparison of int8: packed leaves), in the
-- C monetary locale
SET lc_monetary = 'C';
CREATE TABLE t_money (k money);
INSERT INTO t_money
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN '92233720368547758.07'::money
            WHEN i % 89 = 0 THEN '-92233720368547758.08'::money
            ELSE ((i * 7919 % 1201 - 600) * 12.5)::numeric::money END
FROM generate_series(1, 6000) i;
CREATE INDEX t_money_bp ON t_money USING bpindex (k);
VACUUM ANALYZE t_money;
SELECT * FROM all_types_summary('t_money');
SELECT * FROM all_types_matrix('money', 't_money',
    ARRAY['-92233720368547758.08', '-100.00', '0.00', '1250.00', '92233720368547758.07']);
SELECT encoding, count(*) > 0 AS leaves FROM bpindex_leaves('t_money_bp') GROUP BY 1;
SELECT bpindex_check('t_money_bp', true);
RESET lc_monetary;

-- "char": every byte, compared unsigned
CREATE TABLE t_char (k "char");
INSERT INTO t_char
SELECT CASE WHEN i % 20 = 0 THEN NULL ELSE (i * 7919 % 256 - 128)::"char" END
FROM generate_series(1, 6000) i;
CREATE INDEX t_char_bp ON t_char USING bpindex (k);
VACUUM ANALYZE t_char;
SELECT * FROM all_types_summary('t_char');
SELECT * FROM all_types_matrix('char', 't_char', ARRAY['', 'A', 'z', '\200', '\377']);
SELECT bpindex_check('t_char_bp', true);

-- name (64 bytes, under its column's collation "C"), and name_ops's
-- cross-type operators with text, which btree's text_ops has too
CREATE TABLE t_namecol (k name);
INSERT INTO t_namecol
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN repeat('z', 63)
            WHEN i % 89 = 0 THEN ''
            ELSE 'name_' || (i * 7919 % 701) END
FROM generate_series(1, 4000) i;
CREATE INDEX t_namecol_bp ON t_namecol USING bpindex (k);
VACUUM ANALYZE t_namecol;
SELECT * FROM all_types_summary('t_namecol');
SELECT * FROM all_types_matrix('name', 't_namecol',
    ARRAY['', 'name_1', 'name_350', 'name_699', repeat('z', 63)]);
SELECT * FROM bp_queries('name text', ARRAY[
    'select k from t_namecol where k = ''name_17''::text',
    'select k from t_namecol where k < ''name_2''::text',
    'select k from t_namecol where k >= ''name_5''::text and k < ''name_6''::text order by k desc',
    'select k from t_namecol where k > ''name_690''::text order by k'
]);
SELECT bpindex_check('t_namecol_bp', true);
-- and text columns take name arguments
CREATE TABLE t_text_name (k text COLLATE "C");
INSERT INTO t_text_name SELECT 'name_' || (i * 7919 % 701) FROM generate_series(1, 3000) i;
CREATE INDEX t_text_name_bp ON t_text_name USING bpindex (k);
VACUUM ANALYZE t_text_name;
SELECT * FROM bp_queries('text name', ARRAY[
    'select k from t_text_name where k = ''name_17''::name',
    'select k from t_text_name where k >= ''name_5''::name and k < ''name_6''::name order by k'
]);

-- macaddr (6 bytes) and macaddr8 (8 bytes, by reference)
CREATE TABLE t_macaddr (k macaddr);
INSERT INTO t_macaddr
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'ff:ff:ff:ff:ff:ff'
            WHEN i % 89 = 0 THEN '00:00:00:00:00:00'
            ELSE ('08:00:2b:' || lpad(to_hex(i * 7919 % 256), 2, '0') || ':'
                  || lpad(to_hex(i % 7), 2, '0') || ':00')::macaddr END
FROM generate_series(1, 6000) i;
CREATE INDEX t_macaddr_bp ON t_macaddr USING bpindex (k);
VACUUM ANALYZE t_macaddr;
SELECT * FROM all_types_summary('t_macaddr');
SELECT * FROM all_types_matrix('macaddr', 't_macaddr',
    ARRAY['00:00:00:00:00:00', '08:00:2b:10:00:00', '08:00:2b:80:03:00', 'ff:ff:ff:ff:ff:ff']);
SELECT bpindex_check('t_macaddr_bp', true);
CREATE TABLE t_macaddr8 (k macaddr8);
INSERT INTO t_macaddr8
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'ff:ff:ff:ff:ff:ff:ff:ff'
            WHEN i % 89 = 0 THEN '00:00:00:00:00:00:00:00'
            ELSE ('08:00:2b:01:02:' || lpad(to_hex(i * 7919 % 256), 2, '0') || ':'
                  || lpad(to_hex(i % 5), 2, '0') || ':ff')::macaddr8 END
FROM generate_series(1, 6000) i;
CREATE INDEX t_macaddr8_bp ON t_macaddr8 USING bpindex (k);
VACUUM ANALYZE t_macaddr8;
SELECT * FROM all_types_summary('t_macaddr8');
SELECT * FROM all_types_matrix('macaddr8', 't_macaddr8',
    ARRAY['00:00:00:00:00:00:00:00', '08:00:2b:01:02:10:00:ff', '08:00:2b:01:02:80:03:ff',
          'ff:ff:ff:ff:ff:ff:ff:ff']);
SELECT bpindex_check('t_macaddr8_bp', true);

-- pg_lsn and xid8: unsigned 64-bit
CREATE TABLE t_pg_lsn (k pg_lsn);
INSERT INTO t_pg_lsn
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'FFFFFFFF/FFFFFFFF'::pg_lsn
            WHEN i % 89 = 0 THEN '0/0'::pg_lsn
            ELSE '0/0'::pg_lsn + (i * 7919 % 1201)::numeric * 10000000 END
FROM generate_series(1, 6000) i;
CREATE INDEX t_pg_lsn_bp ON t_pg_lsn USING bpindex (k);
VACUUM ANALYZE t_pg_lsn;
SELECT * FROM all_types_summary('t_pg_lsn');
SELECT * FROM all_types_matrix('pg_lsn', 't_pg_lsn',
    ARRAY['0/0', '0/10000000', '1/0', '2/80000000', 'FFFFFFFF/FFFFFFFF']);
SELECT bpindex_check('t_pg_lsn_bp', true);
CREATE TABLE t_xid8 (k xid8);
INSERT INTO t_xid8
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN '18446744073709551615'::xid8
            WHEN i % 89 = 0 THEN '0'::xid8
            ELSE (i * 7919 % 1201 * 1000000000::int8)::text::xid8 END
FROM generate_series(1, 6000) i;
CREATE INDEX t_xid8_bp ON t_xid8 USING bpindex (k);
VACUUM ANALYZE t_xid8;
SELECT * FROM all_types_summary('t_xid8');
SELECT * FROM all_types_matrix('xid8', 't_xid8',
    ARRAY['0', '1000000000', '600000000000', '18446744073709551615']);
SELECT bpindex_check('t_xid8_bp', true);

-- tid (6 bytes, short-aligned, by reference)
CREATE TABLE t_tid (k tid);
INSERT INTO t_tid
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN '(4294967295,65535)'::tid
            WHEN i % 89 = 0 THEN '(0,0)'::tid
            ELSE format('(%s,%s)', i * 7919 % 300, i % 11)::tid END
FROM generate_series(1, 6000) i;
CREATE INDEX t_tid_bp ON t_tid USING bpindex (k);
VACUUM ANALYZE t_tid;
SELECT * FROM all_types_summary('t_tid');
SELECT * FROM all_types_matrix('tid', 't_tid',
    ARRAY['(0,0)', '(10,5)', '(150,0)', '(4294967295,65535)']);
SELECT bpindex_check('t_tid_bp', true);

-- timetz (12 bytes): by the time in UTC, then by the zone
CREATE TABLE t_timetz (k timetz);
INSERT INTO t_timetz
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN '24:00:00-15:59'::timetz
            WHEN i % 89 = 0 THEN '00:00:00+15:59'::timetz
            ELSE ((time '00:00' + (i * 7919 % 1440) * interval '1 minute')::text
                  || (ARRAY['+02', '-05', '+00'])[1 + i % 3])::timetz END
FROM generate_series(1, 6000) i;
CREATE INDEX t_timetz_bp ON t_timetz USING bpindex (k);
VACUUM ANALYZE t_timetz;
SELECT * FROM all_types_summary('t_timetz');
SELECT * FROM all_types_matrix('timetz', 't_timetz',
    ARRAY['00:00:00+15:59', '06:00:00+00', '08:00:00+02', '12:00:00-05', '24:00:00-15:59']);
SELECT bpindex_check('t_timetz_bp', true);

--
-- Variable-length types: keys in the key area of their page, compared
-- with the support function
--

-- bit(12) and varbit, from the empty string to 2000 bits (a key with a
-- 4-byte header)
CREATE TABLE t_bit (k bit(12));
INSERT INTO t_bit
SELECT CASE WHEN i % 20 = 0 THEN NULL ELSE (i * 7919 % 4096)::bit(12) END
FROM generate_series(1, 6000) i;
CREATE INDEX t_bit_bp ON t_bit USING bpindex (k);
VACUUM ANALYZE t_bit;
SELECT * FROM all_types_summary('t_bit');
SELECT * FROM all_types_matrix('bit', 't_bit',
    ARRAY['000000000000', '000011110000', '100000000000', '111111111111']);
SELECT bpindex_check('t_bit_bp', true);
CREATE TABLE t_varbit (k varbit);
INSERT INTO t_varbit
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN repeat('1', 2000)::varbit
            ELSE substring((i * 7919)::bit(32)::varbit FROM 1 FOR i % 24) END
FROM generate_series(1, 6000) i;
CREATE INDEX t_varbit_bp ON t_varbit USING bpindex (k);
VACUUM ANALYZE t_varbit;
SELECT * FROM all_types_summary('t_varbit');
SELECT * FROM all_types_matrix('varbit', 't_varbit', ARRAY['', '0101', '1000', '1111111111']);
SELECT bpindex_check('t_varbit_bp', true);

-- inet: IPv4 and IPv6, with and without masks; cidr columns take inet_ops
-- (cidr is binary-coercible to inet), as with btree
CREATE TABLE t_inet (k inet);
INSERT INTO t_inet
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128'::inet
            WHEN i % 89 = 0 THEN '0.0.0.0/0'::inet
            WHEN i % 4 = 0 THEN ('10.' || (i * 7919 % 256) || '.' || (i % 7) || '.1/' || (8 + i % 25))::inet
            WHEN i % 4 = 1 THEN ('192.168.' || (i % 256) || '.' || (i * 7919 % 256))::inet
            WHEN i % 4 = 2 THEN ('2001:db8::' || to_hex(i * 7919 % 65536) || '/' || (32 + i % 97))::inet
            ELSE ('::ffff:' || to_hex(i * 7919 % 65536) || ':1')::inet END
FROM generate_series(1, 6000) i;
CREATE INDEX t_inet_bp ON t_inet USING bpindex (k);
VACUUM ANALYZE t_inet;
SELECT * FROM all_types_summary('t_inet');
SELECT * FROM all_types_matrix('inet', 't_inet',
    ARRAY['0.0.0.0/0', '10.100.3.1/16', '192.168.100.50', '2001:db8::8000/64',
          'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128']);
SELECT bpindex_check('t_inet_bp', true);
CREATE TABLE t_cidr (k cidr);
INSERT INTO t_cidr
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 3 = 0 THEN ('10.' || (i * 7919 % 256) || '.0.0/' || (16 + i % 9))::cidr
            ELSE ('2001:db8:' || to_hex(i * 7919 % 65536) || '::/' || (48 + i % 17))::cidr END
FROM generate_series(1, 6000) i;
CREATE INDEX t_cidr_bp ON t_cidr USING bpindex (k);
VACUUM ANALYZE t_cidr;
SELECT opcname FROM pg_opclass WHERE oid = (SELECT indclass[0] FROM pg_index
                                             WHERE indexrelid = 't_cidr_bp'::regclass);
SELECT * FROM all_types_summary('t_cidr');
SELECT * FROM all_types_matrix('cidr', 't_cidr',
    ARRAY['10.0.0.0/8', '10.128.0.0/9', '2001:db8:100::/48', '2001:db8:ff00::/40']);
SELECT bpindex_check('t_cidr_bp', true);

-- jsonb: scalars, arrays, objects and values of 300 bytes (keys with a
-- 4-byte header), in jsonb's btree order ([] below null, then strings,
-- numbers, booleans, arrays, objects)
CREATE TABLE t_jsonb (k jsonb);
INSERT INTO t_jsonb
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'null'::jsonb
            WHEN i % 89 = 0 THEN '{}'::jsonb
            WHEN i % 83 = 0 THEN '[]'::jsonb
            WHEN i % 6 = 0 THEN to_jsonb(i * 7919 % 500)
            WHEN i % 6 = 1 THEN to_jsonb('s' || i * 7919 % 300)
            WHEN i % 6 = 2 THEN jsonb_build_object('id', i * 7919 % 200, 'tags', jsonb_build_array('a', i % 5))
            WHEN i % 6 = 3 THEN jsonb_build_array(i % 10, 'x', i * 7919 % 50)
            WHEN i % 6 = 4 THEN to_jsonb(i % 3 = 0)
            ELSE jsonb_build_object('k' || i % 7, repeat('v', i * 7919 % 300)) END
FROM generate_series(1, 6000) i;
CREATE INDEX t_jsonb_bp ON t_jsonb USING bpindex (k);
VACUUM ANALYZE t_jsonb;
SELECT * FROM all_types_summary('t_jsonb');
SELECT * FROM all_types_matrix('jsonb', 't_jsonb',
    ARRAY['[]', 'null', '"s150"', '42', 'true', '[5, "x", 10]', '{}',
          '{"id": 100, "tags": ["a", 0]}']);
SELECT bpindex_check('t_jsonb_bp', true);
-- equal numbers spelled differently: each row keeps its own spelling
CREATE TABLE t_jsonb_eq (k jsonb);
INSERT INTO t_jsonb_eq
SELECT (ARRAY['1', '1.0', '1.00', '[1.0, 2]', '[1, 2.00]', '{"a": 1.5}', '{"a": 1.50}'])[1 + i % 7]::jsonb
FROM generate_series(1, 700) i;
CREATE INDEX t_jsonb_eq_bp ON t_jsonb_eq USING bpindex (k);
VACUUM ANALYZE t_jsonb_eq;
SELECT * FROM bp_queries('jsonb eq', ARRAY[
    'select k from t_jsonb_eq where k = ''1''',
    'select k from t_jsonb_eq where k = ''[1, 2]''',
    'select k from t_jsonb_eq where k >= ''{"a": 1.5}'''
]);
SELECT bpindex_check('t_jsonb_eq_bp', true);

-- arrays through array_ops: int4[] with NULL elements, empty, two
-- dimensions and other lower bounds; text[] under the column's collation
CREATE TABLE t_int4_array (k int4[]);
INSERT INTO t_int4_array
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN '{}'::int4[]
            WHEN i % 89 = 0 THEN '{{1,2},{3,4}}'::int4[]
            WHEN i % 83 = 0 THEN '[0:1]={1,2}'::int4[]
            WHEN i % 79 = 0 THEN ARRAY[NULL, 1]
            ELSE ARRAY[i * 7919 % 50, i % 7] END
FROM generate_series(1, 6000) i;
CREATE INDEX t_int4_array_bp ON t_int4_array USING bpindex (k);
VACUUM ANALYZE t_int4_array;
SELECT * FROM all_types_summary('t_int4_array');
SELECT * FROM all_types_matrix('int4[]', 't_int4_array',
    ARRAY['{}', '[0:1]={1,2}', '{1,2}', '{{1,2},{3,4}}', '{10,3}', '{49,6}', '{NULL,1}']);
SELECT bpindex_check('t_int4_array_bp', true);
CREATE TABLE t_text_array (k text[]);
INSERT INTO t_text_array
SELECT CASE WHEN i % 20 = 0 THEN NULL
            ELSE ARRAY['k' || i * 7919 % 100, repeat('y', i % 3)] END
FROM generate_series(1, 6000) i;
CREATE INDEX t_text_array_bp ON t_text_array USING bpindex (k);
VACUUM ANALYZE t_text_array;
SELECT * FROM all_types_summary('t_text_array');
SELECT * FROM all_types_matrix('text[]', 't_text_array',
    ARRAY['{k0,""}', '{k10,y}', '{k50,yy}', '{k99,""}']);
SELECT bpindex_check('t_text_array_bp', true);

-- composite types through record_ops, column by column; a row of NULL
-- fields is a value (IS NULL is true of it, but it is no NULL key)
CREATE TYPE pair AS (a int8, b text);
CREATE TABLE t_pair (k pair);
INSERT INTO t_pair
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN ROW(NULL, NULL)::pair
            WHEN i % 89 = 0 THEN ROW(-9223372036854775808, '')::pair
            WHEN i % 13 = 0 THEN ROW(i * 7919 % 50, repeat('b', 150 + i % 50))::pair
            ELSE ROW(i * 7919 % 50, 'b' || i % 7)::pair END
FROM generate_series(1, 6000) i;
CREATE INDEX t_pair_bp ON t_pair USING bpindex (k);
VACUUM ANALYZE t_pair;
SELECT * FROM all_types_summary('t_pair');
SELECT * FROM all_types_matrix('pair', 't_pair',
    ARRAY['(-9223372036854775808,"")', '(0,b3)', '(25,b0)', '(49,b6)', '(,)']);
SELECT * FROM bp_queries('pair null', ARRAY[
    'select k from t_pair where k = ''(,)''::pair',
    'select k from t_pair where k >= ''(49,b)''::pair order by k'
]);
SELECT bpindex_check('t_pair_bp', true);

-- ranges through range_ops: int4range (empty, unbounded), tstzrange
-- (double-aligned, infinite bounds)
CREATE TABLE t_int4range (k int4range);
INSERT INTO t_int4range
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'empty'::int4range
            WHEN i % 89 = 0 THEN '(,)'::int4range
            WHEN i % 83 = 0 THEN int4range(i, NULL)
            WHEN i % 79 = 0 THEN int4range(NULL, i)
            ELSE int4range(i * 7919 % 500, i * 7919 % 500 + i % 9) END
FROM generate_series(1, 6000) i;
CREATE INDEX t_int4range_bp ON t_int4range USING bpindex (k);
VACUUM ANALYZE t_int4range;
SELECT * FROM all_types_summary('t_int4range');
SELECT * FROM all_types_matrix('int4range', 't_int4range',
    ARRAY['empty', '(,5)', '(,)', '[10,15)', '[250,)']);
SELECT bpindex_check('t_int4range_bp', true);
CREATE TABLE t_tstzrange (k tstzrange);
INSERT INTO t_tstzrange
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN '[-infinity,infinity]'::tstzrange
            WHEN i % 89 = 0 THEN tstzrange(NULL, '2024-01-01 00:00+00')
            ELSE tstzrange('2024-01-01 00:00+00'::timestamptz + (i * 7919 % 500) * interval '1 hour',
                           '2024-01-01 00:00+00'::timestamptz + (i * 7919 % 500) * interval '1 hour'
                           + (i % 5) * interval '1 day', '[]') END
FROM generate_series(1, 6000) i;
CREATE INDEX t_tstzrange_bp ON t_tstzrange USING bpindex (k);
VACUUM ANALYZE t_tstzrange;
SELECT * FROM all_types_summary('t_tstzrange');
SELECT * FROM all_types_matrix('tstzrange', 't_tstzrange',
    ARRAY['[-infinity,infinity]', '(,"2024-01-01 00:00+00")',
          '["2024-01-05 00:00+00","2024-01-06 00:00+00"]', '["2024-01-21 00:00+00",)']);
SELECT bpindex_check('t_tstzrange_bp', true);

-- multiranges through multirange_ops
CREATE TABLE t_int4multirange (k int4multirange);
INSERT INTO t_int4multirange
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN '{}'::int4multirange
            WHEN i % 89 = 0 THEN '{(,)}'::int4multirange
            ELSE int4multirange(int4range(i * 7919 % 500, i * 7919 % 500 + 3),
                                int4range(i * 7919 % 500 + 5, i * 7919 % 500 + 5 + i % 4)) END
FROM generate_series(1, 6000) i;
CREATE INDEX t_int4multirange_bp ON t_int4multirange USING bpindex (k);
VACUUM ANALYZE t_int4multirange;
SELECT * FROM all_types_summary('t_int4multirange');
SELECT * FROM all_types_matrix('int4multirange', 't_int4multirange',
    ARRAY['{}', '{(,)}', '{[1,4),[6,8)}', '{[100,103)}', '{[400,403),[405,407)}']);
SELECT bpindex_check('t_int4multirange_bp', true);

-- tsvector and tsquery (a type of plain storage, whose keys keep 4-byte
-- headers), with long values
CREATE TABLE t_tsvector (k tsvector);
INSERT INTO t_tsvector
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN ''::tsvector
            WHEN i % 89 = 0 THEN to_tsvector('simple', (SELECT string_agg('long' || g, ' ')
                                                        FROM generate_series(1, 40 + i % 9) g))
            ELSE to_tsvector('simple', 'word' || i * 7919 % 100 || ' other' || i % 7) END
FROM generate_series(1, 6000) i;
CREATE INDEX t_tsvector_bp ON t_tsvector USING bpindex (k);
VACUUM ANALYZE t_tsvector;
SELECT * FROM all_types_summary('t_tsvector');
SELECT * FROM all_types_matrix('tsvector', 't_tsvector',
    ARRAY['', 'word50', '''other1'':2 ''word5'':1', '''other6'':2 ''word99'':1']);
SELECT bpindex_check('t_tsvector_bp', true);
CREATE TABLE t_tsquery (k tsquery);
INSERT INTO t_tsquery
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 89 = 0 THEN (SELECT string_agg('long' || g, ' & ')
                                  FROM generate_series(1, 8 + i % 9) g)::tsquery
            ELSE ('w' || i * 7919 % 100 || ' & !x' || i % 7)::tsquery END
FROM generate_series(1, 6000) i;
CREATE INDEX t_tsquery_bp ON t_tsquery USING bpindex (k);
VACUUM ANALYZE t_tsquery;
SELECT * FROM all_types_summary('t_tsquery');
SELECT * FROM all_types_matrix('tsquery', 't_tsquery',
    ARRAY['w50', 'w5 & !x1', 'w99 & !x6', 'a | b | c']);
SELECT bpindex_check('t_tsquery_bp', true);

-- oidvector (plain storage: its functions read values without detoasting,
-- so every key keeps a 4-byte header), up to 60 oids
CREATE TABLE t_oidvector (k oidvector);
INSERT INTO t_oidvector
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN ''::oidvector
            WHEN i % 89 = 0 THEN '4294967295 4294967295'::oidvector
            WHEN i % 83 = 0 THEN (SELECT string_agg(g::text, ' ')
                                  FROM generate_series(1, 30 + i % 31) g)::oidvector
            ELSE (i * 7919 % 50 || ' ' || i % 7)::oidvector END
FROM generate_series(1, 6000) i;
CREATE INDEX t_oidvector_bp ON t_oidvector USING bpindex (k);
VACUUM ANALYZE t_oidvector;
SELECT * FROM all_types_summary('t_oidvector');
SELECT * FROM all_types_matrix('oidvector', 't_oidvector',
    ARRAY['', '1', '0 6', '25 3', '49 0', '4294967295 4294967295']);
SELECT bpindex_check('t_oidvector_bp', true);

--
-- DESC NULLS FIRST columns of some of these types
--
SELECT s
FROM unnest(ARRAY['t_mood', 't_interval', 't_namecol', 't_macaddr8', 't_jsonb',
                  't_int4_array', 't_pair', 't_tsquery']) tab,
     LATERAL unnest(ARRAY[format('DROP INDEX %I', tab || '_bp'),
                          format('CREATE INDEX %I ON %I USING bpindex (k DESC NULLS FIRST)',
                                 tab || '_bp', tab)]) s \gexec
SELECT pg_get_indexdef('t_jsonb_bp'::regclass);
SELECT * FROM all_types_matrix('mood desc', 't_mood', ARRAY['awful', 'meh', 'happy', 'ecstatic']);
SELECT * FROM all_types_matrix('interval desc', 't_interval',
    ARRAY['-178000000 years', '-100 hours', '0', '20:06:00', '178000000 years']);
SELECT * FROM all_types_matrix('name desc', 't_namecol',
    ARRAY['', 'name_1', 'name_350', 'name_699', repeat('z', 63)]);
SELECT * FROM all_types_matrix('macaddr8 desc', 't_macaddr8',
    ARRAY['00:00:00:00:00:00:00:00', '08:00:2b:01:02:10:00:ff', 'ff:ff:ff:ff:ff:ff:ff:ff']);
SELECT * FROM all_types_matrix('jsonb desc', 't_jsonb',
    ARRAY['[]', 'null', '"s150"', '42', 'true', '[5, "x", 10]', '{}']);
SELECT * FROM all_types_matrix('int4[] desc', 't_int4_array',
    ARRAY['{}', '{1,2}', '{10,3}', '{NULL,1}']);
SELECT * FROM all_types_matrix('pair desc', 't_pair',
    ARRAY['(-9223372036854775808,"")', '(25,b0)', '(,)']);
SELECT * FROM all_types_matrix('tsquery desc', 't_tsquery', ARRAY['w50', 'w99 & !x6']);
SELECT bpindex_check(tab || '_bp', true)
FROM unnest(ARRAY['t_mood', 't_interval', 't_namecol', 't_macaddr8', 't_jsonb',
                  't_int4_array', 't_pair', 't_tsquery']) tab;

--
-- Several new types in one index, with keys of 4-byte headers whose type
-- needs double alignment (int8[] of 21 elements) after keys of every
-- length, and fixed-length INCLUDE columns
--
CREATE TABLE t_multi (m mood, t text, a int8[], iv interval, mac macaddr);
INSERT INTO t_multi
SELECT (enum_range(NULL::mood))[1 + i % 6], repeat('x', i % 5),
       CASE WHEN i % 17 = 0 THEN NULL
            ELSE array_fill((i * 7919 % 50)::int8, ARRAY[20]) || i::int8 END,
       (i % 13) * interval '1 day',
       ('08:00:2b:01:02:' || lpad(to_hex(i % 256), 2, '0'))::macaddr
FROM generate_series(1, 6000) i;
CREATE INDEX t_multi_bp ON t_multi USING bpindex (m, t, a DESC) INCLUDE (iv, mac);
VACUUM ANALYZE t_multi;
SELECT * FROM bp_queries('multi', ARRAY[
    'select m, t, a, iv, mac from t_multi where m = ''ok'' and t = ''xx'' and a < array_fill(7::int8, ARRAY[21])',
    'select m, t, a from t_multi where m = ''meh'' and t = ''xxx'' and a is null',
    'select m, t, a from t_multi where m >= ''happy'' order by m, t, a desc',
    'select m, t, a from t_multi where m < ''sad'' order by m desc, t desc, a',
    'select m, t from t_multi where m = ''awful'' and t > '''' order by m, t'
]);
SELECT bpindex_check('t_multi_bp', true);
-- inserts after the build, which split and re-encode leaves, then
-- deletes and a VACUUM that removes their entries
INSERT INTO t_multi
SELECT (enum_range(NULL::mood))[1 + i % 6], repeat('x', i % 7),
       array_fill((i % 50)::int8, ARRAY[1 + i % 30]),
       (i % 11) * interval '1 hour', '08:00:2b:00:00:01'
FROM generate_series(1, 4000) i;
SELECT bpindex_check('t_multi_bp', true);
DELETE FROM t_multi WHERE m IN ('meh', 'ecstatic') OR t = 'x';
SELECT bp_wait_for_horizon();
VACUUM t_multi;
SELECT entries = (SELECT count(*) FROM t_multi) AS one_entry_a_row
FROM bpindex_stats('t_multi_bp');
SELECT bpindex_check('t_multi_bp', true);
SELECT * FROM bp_queries('multi inserted', ARRAY[
    'select m, t, a, iv from t_multi where m = ''ok'' and t = ''xx'' and a < array_fill(7::int8, ARRAY[21])',
    'select m, t, a from t_multi where m >= ''happy'' order by m, t, a desc'
]);

--
-- Keys beyond the limit (2,257 bytes for these) are compressed; those that
-- do not compress below it are refused with an error naming the index, by
-- inserts and by CREATE INDEX
--
CREATE TABLE t_big (j jsonb, a int4[], p pair);
CREATE INDEX t_big_j ON t_big USING bpindex (j);
CREATE INDEX t_big_a ON t_big USING bpindex (a);
CREATE INDEX t_big_p ON t_big USING bpindex (p);
INSERT INTO t_big (j) VALUES (jsonb_build_object('k', repeat('x', 700)));
INSERT INTO t_big (j) VALUES (jsonb_build_object('k', repeat('x', 2200)));
INSERT INTO t_big (j) VALUES (jsonb_build_object('k', repeat('x', 2300)));
-- compressed in the table and in the index
INSERT INTO t_big (j) VALUES (jsonb_build_object('k', repeat('x', 9000)));
INSERT INTO t_big (j) VALUES (jsonb_build_object('k', (SELECT left(string_agg(md5((3 + g)::text), ''), 2500) FROM generate_series(1, 80) g)));
INSERT INTO t_big (j) VALUES (jsonb_build_object('k', (SELECT left(string_agg(md5((3 + g)::text), ''), 2600) FROM generate_series(1, 82) g)));
INSERT INTO t_big (a) SELECT array_agg(g) FROM generate_series(1, 190) g;
INSERT INTO t_big (a) SELECT array_agg(g) FROM generate_series(1, 500) g;
INSERT INTO t_big (a) SELECT array_agg(g) FROM generate_series(1, 600) g;
INSERT INTO t_big (a) SELECT array_agg(g) FROM generate_series(1, 700) g;
INSERT INTO t_big (p) VALUES (ROW(1, repeat('b', 2200)));
INSERT INTO t_big (p) VALUES (ROW(1, repeat('b', 2300)));
INSERT INTO t_big (p) VALUES (ROW(1, (SELECT left(string_agg(md5((5 + g)::text), ''), 2500) FROM generate_series(1, 80) g)));
INSERT INTO t_big (p) VALUES (ROW(1, (SELECT left(string_agg(md5((5 + g)::text), ''), 2600) FROM generate_series(1, 82) g)));
SELECT count(j), count(a), count(p) FROM t_big;
SELECT bpindex_check('t_big_j', true), bpindex_check('t_big_a', true), bpindex_check('t_big_p', true);
DROP INDEX t_big_a;
INSERT INTO t_big (a) SELECT array_agg(g) FROM generate_series(1, 700) g;
CREATE INDEX t_big_a ON t_big USING bpindex (a);

--
-- A domain over text takes text_ops, as with btree: it is not refused
-- (the citext case, a type of its own binary-coercible to text, is in
-- 36_citext)
--
CREATE DOMAIN short_text AS text CHECK (length(VALUE) < 20);
CREATE TABLE t_domain (k short_text);
INSERT INTO t_domain
SELECT CASE WHEN i % 20 = 0 THEN NULL ELSE 'dom_' || (i * 7919 % 500) END
FROM generate_series(1, 4000) i;
CREATE INDEX t_domain_bp ON t_domain USING bpindex (k);
VACUUM ANALYZE t_domain;
SELECT opcname FROM pg_opclass WHERE oid = (SELECT indclass[0] FROM pg_index
                                             WHERE indexrelid = 't_domain_bp'::regclass);
SELECT * FROM all_types_matrix('domain', 't_domain', ARRAY['dom_1', 'dom_250', 'dom_499']);
SELECT bpindex_check('t_domain_bp', true);
-- a hypothetical index of these types is accepted too
SELECT count(*) FROM bpindex_hypo_create_index('CREATE INDEX ON t_domain USING bpindex (k)');
SELECT count(*) FROM bpindex_hypo_create_index('CREATE INDEX ON t_mood USING bpindex (k)');
SELECT count(*) FROM bpindex_hypo_create_index('CREATE INDEX ON t_jsonb USING bpindex (k)');
SELECT bpindex_hypo_reset();
