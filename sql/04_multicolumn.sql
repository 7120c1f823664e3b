--
-- 04_multicolumn: indexes over several columns.  Quals on the leading
-- column, on all columns, on later columns only, equality or IS NULL on
-- the leading column plus a range on the next, and ordered scans forward
-- and backward, each compared with a sequential scan (bp_queries runs
-- every query in Index Scan, Index Only Scan and, when unordered, Bitmap
-- Index Scan mode).
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- (int4, int8): 40 x 30 values, NULLs in both columns, duplicate pairs
CREATE TABLE t_mc1 (a int4, b int8);
INSERT INTO t_mc1
SELECT CASE WHEN i % 23 = 0 THEN NULL ELSE i * 7919 % 40 END,
       CASE WHEN i % 17 = 0 THEN NULL ELSE i * 104729 % 211 % 30 END
FROM generate_series(1, 6000) i;
VACUUM ANALYZE t_mc1;
CREATE INDEX t_mc1_bp ON t_mc1 USING bpindex (a, b);
SELECT count(*), count(a), count(b), count(DISTINCT (a, b)) FROM t_mc1;
SELECT * FROM bp_queries('mc1', ARRAY[
    -- leading column
    'select a, b from t_mc1 where a = 7',
    'select a, b from t_mc1 where a < 3',
    'select a, b from t_mc1 where a >= 38',
    'select a, b from t_mc1 where a = 40',
    'select a, b from t_mc1 where a is null',
    'select a, b from t_mc1 where a is not null',
    -- both columns
    'select a, b from t_mc1 where a = 7 and b = 15',
    'select a, b from t_mc1 where a = 7 and b = 30',
    'select a, b from t_mc1 where a = 7 and b > 25',
    'select a, b from t_mc1 where a = 7 and b <= 5',
    'select a, b from t_mc1 where a = 7 and b between 10 and 20',
    'select a, b from t_mc1 where a = 7 and b is null',
    'select a, b from t_mc1 where a = 7 and b is not null',
    'select a, b from t_mc1 where a = 0 and b < 0',
    'select a, b from t_mc1 where a = 39 and b > 28',
    'select a, b from t_mc1 where a is null and b > 20',
    'select a, b from t_mc1 where a is null and b is null',
    'select a, b from t_mc1 where a is not null and b is null',
    'select a, b from t_mc1 where a > 30 and b < 5',
    'select a, b from t_mc1 where a between 10 and 12 and b = 5',
    'select a, b from t_mc1 where a < 5 and b > 25',
    'select a, b from t_mc1 where a = 7 and b > 20 and b = 15',
    'select a, b from t_mc1 where a = 7 and a < 9 and b >= 10 and b < 16',
    'select a, b from t_mc1 where a is null and a > 5',
    'select a, b from t_mc1 where a is not null and a = 7 and b is not null and b < 3',
    -- second column only
    'select a, b from t_mc1 where b = 15',
    'select a, b from t_mc1 where b > 27',
    'select a, b from t_mc1 where b is null',
    'select a, b from t_mc1 where b < 0',
    -- cross-type constants on both columns
    'select a, b from t_mc1 where a = 7::int8 and b < 12::int4',
    'select a, b from t_mc1 where a = 7::int2 and b >= 12::int2',
    -- ordered
    'select a, b from t_mc1 order by a, b',
    'select a, b from t_mc1 order by a desc, b desc',
    'select a, b from t_mc1 order by a, b limit 10',
    'select a, b from t_mc1 order by a desc, b desc limit 10',
    'select a from t_mc1 order by a limit 25',
    'select a from t_mc1 order by a desc limit 25',
    'select a, b from t_mc1 where a = 7 order by b',
    'select a, b from t_mc1 where a = 7 order by b desc',
    'select a, b from t_mc1 where a = 7 order by a, b limit 5',
    'select a, b from t_mc1 where a = 7 and b > 10 order by a, b limit 5',
    'select a, b from t_mc1 where a = 7 and b < 20 order by a desc, b desc limit 5',
    'select a, b from t_mc1 where a = 7 and b >= 25 order by b desc',
    'select a, b from t_mc1 where a >= 36 order by a, b',
    'select a, b from t_mc1 where a < 5 order by a desc, b desc',
    'select a, b from t_mc1 where a > 30 and b < 5 order by a, b',
    'select a, b from t_mc1 where a > 30 and b < 5 order by a desc, b desc',
    'select a, b from t_mc1 where b = 15 order by a, b',
    'select a, b from t_mc1 where b is null order by a desc, b desc',
    'select a, b from t_mc1 where a is null order by a, b',
    'select a, b from t_mc1 where a is null order by a desc, b desc limit 7',
    'select a, b from t_mc1 where a is not null order by a desc, b desc limit 7'
]);
SELECT * FROM bp_failures('mc1');

-- (date, float8, bool, int2): columns of different widths and alignments.
CREATE TABLE t_mc2 (d date, f float8, flag bool, s int2);
INSERT INTO t_mc2
SELECT CASE WHEN i % 29 = 0 THEN NULL
            WHEN i % 31 = 0 THEN 'infinity'
            ELSE '2024-01-01'::date + i * 7919 % 40 END,
       CASE WHEN i % 19 = 0 THEN NULL
            WHEN i % 37 = 0 THEN 'NaN'
            WHEN i % 41 = 0 THEN '-0'
            ELSE ((i * 104729 % 21 - 10) / 4.0)::float8 END,
       CASE WHEN i % 13 = 0 THEN NULL ELSE i % 3 = 0 END,
       i % 4
FROM generate_series(1, 6000) i;
VACUUM ANALYZE t_mc2;
CREATE INDEX t_mc2_bp ON t_mc2 USING bpindex (d, f, flag, s);
SELECT count(*), count(d), count(f), count(flag), count(DISTINCT (d, f, flag)) FROM t_mc2;
SELECT * FROM bp_queries('mc2', ARRAY[
    'select d, f, flag from t_mc2 where d = ''2024-01-10''',
    'select d, f, flag from t_mc2 where d >= ''2024-02-05''',
    'select d, f, flag from t_mc2 where d = ''infinity''',
    'select d, f, flag from t_mc2 where d is null',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f > 0',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f = 0',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f = ''NaN''',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f is null',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f = 1.25 and flag = (select true)',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f = 1.25 and flag is null',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f >= 1.25 and flag < true',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f is null and flag is null',
    'select d, f, flag from t_mc2 where d is null and f < 0',
    'select d, f, flag from t_mc2 where d is null and f is null and flag > false',
    'select d, f, flag from t_mc2 where d between ''2024-01-05'' and ''2024-01-08'' and flag = (select false)',
    'select d, f, flag from t_mc2 where f = ''NaN''',
    'select d, f, flag from t_mc2 where f = 0 and flag is not null',
    'select d, f, flag from t_mc2 where flag is null',
    'select d, f, flag, s from t_mc2 where d = ''2024-01-10'' and f = 1.25 and flag = (select true) and s = 3',
    'select d, f, flag, s from t_mc2 where s = 2 and flag is null',
    'select d, f, flag from t_mc2 where d > ''2024-01-01 12:00''::timestamp and f < 1::float4',
    'select d, f, flag, s from t_mc2 order by d, f, flag, s',
    'select d, f, flag, s from t_mc2 order by d desc, f desc, flag desc, s desc',
    'select d, f, flag from t_mc2 order by d, f, flag limit 10',
    'select d, f, flag from t_mc2 order by d desc, f desc, flag desc limit 10',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' order by f, flag',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' order by f desc, flag desc',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f = 1.25 order by flag desc',
    'select d, f, flag from t_mc2 where d = ''2024-01-10'' and f > 1 order by f limit 5',
    'select d, f, flag from t_mc2 where d >= ''2024-02-05'' order by d desc, f desc, flag desc limit 20',
    'select d, f, flag from t_mc2 where d is null order by d, f, flag'
]);
SELECT * FROM bp_failures('mc2');

-- (bool, int2, uuid, timestamp): four columns, 1-, 2-, 16- (char
-- aligned) and 8-byte wide
CREATE TABLE t_mc3 (flag bool, s int2, u uuid, t timestamp);
INSERT INTO t_mc3
SELECT CASE WHEN i % 11 = 0 THEN NULL ELSE i % 2 = 0 END,
       CASE WHEN i % 13 = 0 THEN NULL ELSE i * 7919 % 7 - 3 END,
       CASE WHEN i % 17 = 0 THEN NULL ELSE md5((i % 5)::text)::uuid END,
       CASE WHEN i % 19 = 0 THEN NULL
            ELSE '2000-01-01'::timestamp + (i * 104729 % 9) * interval '1 day' END
FROM generate_series(1, 5000) i;
VACUUM ANALYZE t_mc3;
CREATE INDEX t_mc3_bp ON t_mc3 USING bpindex (flag, s, u, t);
SELECT * FROM bp_queries('mc3', ARRAY[
    'select flag, s, u, t from t_mc3 where flag = (select true) and s = 2 and u = md5(''3'')::uuid and t = ''2000-01-05''',
    'select flag, s, u, t from t_mc3 where flag = (select true) and s = 2 and u = md5(''3'')::uuid and t > ''2000-01-05''',
    'select flag, s, u, t from t_mc3 where flag is null and s is null and u is not null',
    'select flag, s, u, t from t_mc3 where flag = (select false) and s is null and u < md5(''3'')::uuid',
    'select flag, s, u, t from t_mc3 where s = -3 and t < ''2000-01-03''',
    'select flag, s, u, t from t_mc3 where u is null and t is not null',
    'select flag, s, u, t from t_mc3 where t = ''2000-01-09''',
    'select flag, s, u, t from t_mc3 order by flag, s, u, t',
    'select flag, s, u, t from t_mc3 order by flag desc, s desc, u desc, t desc',
    'select flag, s, u, t from t_mc3 where flag = (select true) and s = 0 order by u desc, t desc limit 10',
    'select flag, s, u, t from t_mc3 where flag is null and s = 1 order by flag, s, u, t'
]);
SELECT * FROM bp_failures('mc3');

-- (int8, bool): a slot whose last column ends at an odd offset is padded
-- to the alignment of its widest column
CREATE TABLE t_mc4 (a int8, b bool);
INSERT INTO t_mc4
SELECT CASE WHEN i % 23 = 0 THEN NULL ELSE i * 7919 % 300 - 150 END,
       CASE WHEN i % 7 = 0 THEN NULL ELSE i % 2 = 0 END
FROM generate_series(1, 5000) i;
VACUUM ANALYZE t_mc4;
CREATE INDEX t_mc4_bp ON t_mc4 USING bpindex (a, b);
SELECT * FROM bp_queries('mc4', ARRAY[
    'select a, b from t_mc4 where a = 17',
    'select a, b from t_mc4 where a = 17 and b = (select true)',
    'select a, b from t_mc4 where a between -20 and 20 and b is null',
    'select a, b from t_mc4 where a is null and b is not null',
    'select a, b from t_mc4 where b = (select false)',
    'select a, b from t_mc4 order by a, b',
    'select a, b from t_mc4 order by a desc, b desc limit 50',
    'select a, b from t_mc4 where a >= 100 order by a, b limit 20'
]);
SELECT * FROM bp_failures('mc4');
