--
-- 02_types_datetime: date, time, timestamp and timestamptz columns, and
-- the cross-type operators of datetime_ops.  Same scheme as
-- 01_types_numeric: 12000 rows with NULLs, duplicates, the extreme finite
-- values of each type and +/-infinity, the index built after the load,
-- every query shape compared with a sequential scan.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SET timezone = 'America/New_York';
SET datestyle = 'ISO, YMD';

-- date
CREATE TABLE t_date (k date);
INSERT INTO t_date
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'infinity'
            WHEN i % 89 = 0 THEN '-infinity'
            WHEN i % 83 = 0 THEN '4714-11-24 BC'
            WHEN i % 79 = 0 THEN '5874897-12-31'
            ELSE '2020-01-01'::date + (i * 7919 % 401 - 200) END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_date;
CREATE INDEX t_date_bp ON t_date USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       pg_relation_size('t_date_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_date;
SELECT * FROM bp_matrix('date', 't_date', 'k',
    ARRAY['-infinity', '4714-11-24 BC', '1999-12-31', '2019-12-31', '2020-01-01',
          '2020-02-29', '5874897-12-31', 'infinity']);
SELECT * FROM bp_failures('date');

-- time: 00:00 and 24:00 are both valid and distinct
CREATE TABLE t_time (k time);
INSERT INTO t_time
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN '24:00'
            WHEN i % 89 = 0 THEN '00:00'
            WHEN i % 83 = 0 THEN '23:59:59.999999'
            WHEN i % 79 = 0 THEN '00:00:00.000001'
            ELSE '00:00'::time + (i * 7919 % 1439) * interval '1 minute 0.5 second' END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_time;
CREATE INDEX t_time_bp ON t_time USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       pg_relation_size('t_time_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_time;
SELECT * FROM bp_matrix('time', 't_time', 'k',
    ARRAY['00:00', '00:00:00.000001', '06:30', '12:00:30', '23:59:59.999999', '24:00']);
SELECT * FROM bp_failures('time');

-- timestamp
CREATE TABLE t_timestamp (k timestamp);
INSERT INTO t_timestamp
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'infinity'
            WHEN i % 89 = 0 THEN '-infinity'
            WHEN i % 83 = 0 THEN '4714-11-24 00:00:00 BC'
            WHEN i % 79 = 0 THEN '294276-12-31 23:59:59.999999'
            ELSE '2020-01-01 00:00'::timestamp
                 + (i * 7919 % 1201 - 600) * interval '37 minutes 13.5 seconds' END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_timestamp;
CREATE INDEX t_timestamp_bp ON t_timestamp USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       pg_relation_size('t_timestamp_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_timestamp;
SELECT * FROM bp_matrix('timestamp', 't_timestamp', 'k',
    ARRAY['-infinity', '4714-11-24 00:00:00 BC', '2019-12-31 12:00', '2020-01-01 00:00',
          '2020-01-05 06:12:15', '294276-12-31 23:59:59.999999', 'infinity']);
SELECT * FROM bp_failures('timestamp');

-- timestamptz, around the switch to daylight saving time of 2020-03-08
CREATE TABLE t_timestamptz (k timestamptz);
INSERT INTO t_timestamptz
SELECT CASE WHEN i % 20 = 0 THEN NULL
            WHEN i % 97 = 0 THEN 'infinity'
            WHEN i % 89 = 0 THEN '-infinity'
            WHEN i % 83 = 0 THEN '4714-11-24 00:00:00+00 BC'
            WHEN i % 79 = 0 THEN '294276-12-31 23:59:59.999999+00'
            ELSE '2020-03-08 02:00-05'::timestamptz
                 + (i * 7919 % 1201 - 600) * interval '7 minutes 3 seconds' END
FROM generate_series(1, 12000) i;
VACUUM ANALYZE t_timestamptz;
CREATE INDEX t_timestamptz_bp ON t_timestamptz USING bpindex (k);
SELECT count(*), count(k), count(DISTINCT k), min(k), max(k),
       pg_relation_size('t_timestamptz_bp') / current_setting('block_size')::int >= 6 AS several_leaves
FROM t_timestamptz;
SELECT * FROM bp_matrix('timestamptz', 't_timestamptz', 'k',
    ARRAY['-infinity', '4714-11-24 00:00:00+00 BC', '2020-03-07 00:00-05',
          '2020-03-08 01:59:51-05', '2020-03-08 03:00-04', '2020-03-09 12:00+00',
          'infinity']);
SELECT * FROM bp_failures('timestamptz');

--
-- Cross-type quals of datetime_ops.  The date/timestamptz and
-- timestamp/timestamptz comparisons depend on the time zone, set above.
--
SELECT * FROM bp_queries('cross datetime', ARRAY[
    'select k from t_date where k >= ''2020-01-01 12:00''::timestamp',
    'select k from t_date where k = ''2020-01-01 00:00''::timestamp',
    'select k from t_date where k = ''2020-01-01 00:00:01''::timestamp',
    'select k from t_date where k < ''2020-01-01 00:00:01''::timestamp',
    'select k from t_date where k > ''infinity''::timestamp',
    'select k from t_date where k >= ''infinity''::timestamp',
    'select k from t_date where k <= ''-infinity''::timestamp',
    'select k from t_date where k between ''2019-12-01''::timestamp and ''2020-01-31 23:59''::timestamp',
    'select k from t_date where k > ''2020-01-01 03:00+00''::timestamptz',
    'select k from t_date where k = ''2020-01-01 05:00+00''::timestamptz',
    'select k from t_date where k >= ''2020-01-01 12:00''::timestamp order by k limit 5',
    'select k from t_date where k < ''2020-01-01 04:59+00''::timestamptz order by k desc limit 5',
    'select k from t_timestamp where k >= ''2020-01-01''::date',
    'select k from t_timestamp where k = ''2020-01-01''::date',
    'select k from t_timestamp where k < ''infinity''::date',
    'select k from t_timestamp where k > ''2020-01-01 00:00-05''::timestamptz',
    'select k from t_timestamp where k <= ''2019-12-31 23:59:59.999999-05''::timestamptz order by k desc limit 5',
    'select k from t_timestamptz where k >= ''2020-03-08''::date',
    'select k from t_timestamptz where k < ''2020-03-08''::date',
    'select k from t_timestamptz where k = ''-infinity''::date',
    'select k from t_timestamptz where k >= ''2020-03-08 03:00''::timestamp',
    'select k from t_timestamptz where k = ''2020-03-08 03:00''::timestamp',
    'select k from t_timestamptz where k between ''2020-03-08 01:00''::timestamp and ''2020-03-08 04:00''::timestamp',
    'select k from t_timestamptz where k > ''2020-03-08''::date and k < ''2020-03-08 05:00''::timestamp order by k',
    'select k from t_timestamptz where k <= ''2020-03-08 03:30''::timestamp order by k desc limit 5'
]);
SELECT * FROM bp_failures('cross datetime');
-- the same date-vs-timestamptz qual under another time zone selects other rows
SET timezone = 'UTC';
SELECT * FROM bp_queries('cross datetime utc', ARRAY[
    'select k from t_date where k > ''2020-01-01 03:00+00''::timestamptz',
    'select k from t_timestamptz where k < ''2020-03-08''::date'
]);
SELECT * FROM bp_failures('cross datetime utc');
RESET timezone;
RESET datestyle;
