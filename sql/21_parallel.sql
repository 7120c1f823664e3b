--
-- 21_parallel: parallel index scans and index-only scans (amcanparallel).
-- The leader and its workers take the range's leaves one at a time from
-- the scan's shared state; each returns its leaves in index order, so a
-- Gather Merge gives ordered output.  Every query runs as a parallel
-- bpindex scan (the plan must show it under a Gather or Gather Merge, and
-- workers must have been launched) and is compared with the same query
-- run without any index and without workers (par_run, from 00_setup).
-- Skip scans run in parallel too, one leaf at a time.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE par (k int8, v int4, w int4);
INSERT INTO par
SELECT CASE WHEN i % 997 = 0 THEN NULL ELSE (i::int8 * 7919) % 300007 END, i % 1000, i
FROM generate_series(1, 300000) i;
CREATE INDEX par_k ON par USING bpindex (k);
CREATE INDEX par_vk ON par USING bpindex (v, k) INCLUDE (w);
VACUUM ANALYZE par;

-- counts and sums over ranges: parallel index and index-only scans
SELECT * FROM par_run('select count(*), sum(k) from par where k between 1000 and 250000');
SELECT * FROM par_run('select sum(w) from par where k > 100 and k < 200000');
SELECT * FROM par_run('select count(*) from par where k is null');
SELECT * FROM par_run('select count(*), sum(w) from par where v between 10 and 900');
SELECT * FROM par_run('select v, k, w from par where v = 7 and k > 1000');
-- ordered output through Gather Merge, forward and backward
SELECT * FROM par_run('select k from par where k > 5000 order by k limit 20000', true);
SELECT * FROM par_run('select k, v from par where k < 290000 order by k desc limit 20000', true);
SELECT * FROM par_run('select v, k from par where v >= 500 order by v, k', true);
-- array keys: the participants share the elements' ranges
SELECT * FROM par_run(format('select k, w from par where k in (%s) order by k',
                             (SELECT string_agg((g * 149)::text, ', ')
                              FROM generate_series(0, 2000) g)), true);
SELECT * FROM par_run('select count(*), sum(k) from par where v = any (array(select g from generate_series(0, 999, 3) g))');
SELECT * FROM par_run('select v, k from par where v in (999, 3, 500) and k > 100000 order by v desc, k desc', true);
-- a Gather on the inner side of a nested loop runs its parallel scan
-- again for each outer row (amparallelrescan)
SET enable_material = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT * FROM par_run('select g, count(k), sum(k) from (values (1), (2), (3)) v(g) left join (select k from par where k between 1000 and 51000 offset 0) p on g < 10 group by g');
RESET enable_material;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- a scan whose range is empty, and one whose keys cannot match
SELECT * FROM par_run('select count(*) from par where k > 400000');
SELECT * FROM par_run('select count(*) from par where k = any (''{}''::int8[])');

-- skip scans: quals on k only, through the 1,000 values of v (par_vk).
-- The participants read one leaf at a time and seek the next value of v
-- when the last one's range ends in the leaf read: forward and backward,
-- index-only, ordered through Gather Merge, a range on v beside, IS NULL
DROP INDEX par_k;
SELECT * FROM par_run('select count(*), sum(w) from par where k between 1000 and 200000');
SELECT * FROM par_run('select v, k from par where k < 100000 order by v, k', true);
SELECT * FROM par_run('select v, k, w from par where k > 200000 order by v desc, k desc', true);
SELECT * FROM par_run('select v, k, w from par where v > 600 and k between 5000 and 190000');
SELECT * FROM par_run('select count(*), sum(v) from par where k is not null and k < 150000');
-- every value of v has entries in the range: no leaf is read twice
SELECT * FROM par_run('select count(*), sum(k) from par where k > 100');
-- a participant's descents count as index searches (18): a parallel scan
-- that did not skip would descend once; this one seeks each value of v
-- whose range ends in a leaf, two descents at most per value
CREATE FUNCTION par_searches(query text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    PERFORM par_settings();
    RETURN bp_index_searches(query);
END $$;
SELECT coalesce(par_searches('select count(*), sum(w) from par where k between 1000 and 20000') BETWEEN 100 AND 2010,
                current_setting('server_version_num')::int < 180000) AS searches_per_value;
DROP FUNCTION par_searches(text);

DROP TABLE par;
