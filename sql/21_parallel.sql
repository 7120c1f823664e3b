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

-- an = ANY on k, after the prefix v, filters the entries of each value's
-- range (in a serial scan it drives primitive scans inside each prefix)
SELECT * FROM par_run(format('select count(*), sum(w) from par where k = any (''{%s}''::int8[])',
                             (SELECT string_agg((g * 13)::text, ',')
                              FROM generate_series(0, 20000) g)));
SELECT * FROM par_run(format('select v, k from par where k = any (''{%s}''::int8[]) order by v, k',
                             (SELECT string_agg((g * 11)::text, ',')
                              FROM generate_series(0, 24000) g)), true);
SELECT * FROM par_run(format('select v, k from par where k = any (''{%s}''::int8[]) order by v desc, k desc',
                             (SELECT string_agg((g * 7)::text, ',')
                              FROM generate_series(0, 30000) g)), true);

-- skip scans beside an = ANY on the leading column: each element's range
-- is a skip scan through the values of v, element after element; an
-- element without entries, forward and backward, index-only
CREATE TABLE par3 (g int4, v int4, k int8, w int4);
INSERT INTO par3 SELECT i % 5, (i / 5) % 400, (i::int8 * 7919) % 300007, i
FROM generate_series(1, 300000) i;
CREATE INDEX par3_gvk ON par3 USING bpindex (g, v, k) INCLUDE (w);
VACUUM ANALYZE par3;
SELECT * FROM par_run('select g, v, k from par3 where g in (1, 3) and k between 1000 and 60000 order by g, v, k', true);
SELECT * FROM par_run('select g, v, k, w from par3 where g = any (''{4, 9, 0, 2}'') and k < 40000 order by g desc, v desc, k desc', true);
SELECT * FROM par_run('select count(*), sum(w) from par3 where g in (-1, 2, 7) and k > 250000');
SELECT * FROM par_run('select count(*) from par3 where g in (8, 9) and k > 250000');
SELECT * FROM par_run('select g, v, k from par3 where g in (0, 4) and v between 100 and 120 and k > 150000 order by g, v, k', true);
SELECT * FROM par_run('select g, v, k, w from par3 where g in (1, 2) and k < 80000 order by g, v, k', true);
-- it skips: a scan that read each element's range whole would descend
-- once per element; this one seeks each value of v of both elements
SELECT coalesce(par_searches('select count(*) from par3 where g in (1, 3) and k between 1000 and 60000') BETWEEN 100 AND 1610,
                current_setting('server_version_num')::int < 180000) AS skips_per_element;
DROP FUNCTION par_searches(text);
DROP TABLE par3;

DROP TABLE par;
