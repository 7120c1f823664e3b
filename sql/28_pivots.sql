--
-- 28_pivots: suffix truncation.  The pivot between two leaves, and the
-- fences it becomes, is the first entry of the right leaf with the first
-- key column where it differs from the last entry of the left leaf cut to
-- the shortest prefix that still sorts after it, when that column's order
-- is bytewise and ascending (text under "C", bytea, bpchar); later text
-- and bytea key columns are then empty.  Other orders keep the column
-- whole.  Builds and splits cut their pivots alike.  Internal pages share
-- their room between pivots and keys, so short pivots make wide pages.
-- bpindex_page_items shows the pivots; results are compared with
-- sequential scans and every tree is checked with bpindex_check.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- The pivots (and low keys) of the internal pages of an index, as text.
CREATE FUNCTION piv_keys(idx regclass) RETURNS SETOF text LANGUAGE sql AS $$
    SELECT i.key
    FROM generate_series(1, pg_relation_size(idx) / current_setting('block_size')::int - 1) b,
         bpindex_page_items(idx, b::int4) i
    WHERE i.region = 'pivot' AND i.key IS NOT NULL
$$;

-- Internal pages and the most children one of them has.
CREATE FUNCTION piv_pages(idx regclass, OUT pages bigint, OUT widest bigint)
LANGUAGE sql AS $$
    SELECT count(*), max(n) FROM (
        SELECT b, count(*) AS n
        FROM generate_series(1, pg_relation_size(idx) / current_setting('block_size')::int - 1) b,
             bpindex_page_items(idx, b::int4) i
        WHERE i.region = 'pivot' GROUP BY b) p
$$;

--
-- text under "C": random hex strings and Greek letters (two bytes each).
-- Every pivot is a prefix of the key after it: the shortest that sorts
-- after the key before it and two bytes more (BP_SEPARATOR_SLACK), so
-- that without its last three bytes a hex pivot is a prefix of the key
-- before it, and without its last two it is not.
--
CREATE TABLE t_piv (k text COLLATE "C");
INSERT INTO t_piv SELECT md5(i::text) FROM generate_series(1, 30000) i;
INSERT INTO t_piv SELECT repeat(chr(945 + i % 20), 3) || chr(945 + i / 20 % 20) || md5(i::text)
FROM generate_series(1, 3000) i;
CREATE INDEX t_piv_bp ON t_piv USING bpindex (k);
SELECT bpindex_check('t_piv_bp', true);
CREATE TABLE t_piv_keys AS SELECT piv_keys('t_piv_bp') AS p;
SELECT count(*) > 100 AS many_pivots,
       avg(octet_length(p)) < 8 AS short,
       bool_and(starts_with((SELECT min(k) FROM t_piv WHERE k >= p), p)) AS prefix_of_next,
       bool_and((SELECT max(k) FROM t_piv WHERE k < p) IS NOT NULL) AS all_after_a_key,
       bool_and(starts_with((SELECT max(k) FROM t_piv WHERE k < p), left(p, -3)) AND
                NOT starts_with((SELECT max(k) FROM t_piv WHERE k < p), left(p, -2)))
           FILTER (WHERE p !~ '^[α-τ]') AS shortest_and_slack,
       bool_and(octet_length(p) < 32) FILTER (WHERE p ~ '^[α-τ]') AS greek_cut,
       count(*) FILTER (WHERE p ~ '^[α-τ]') > 5 AS greek_pivots
FROM t_piv_keys;
-- wide internal pages: one holds more children than the 103 of a page
-- whose pivots had a third of its room, as keyed internal pages had
SELECT levels FROM bpindex_stats('t_piv_bp');
SELECT widest > 103 AS wide_pages FROM piv_pages('t_piv_bp');
SELECT * FROM bp_queries('piv', ARRAY[
    $q$select k from t_piv where k = md5('4711')$q$,
    $q$select k from t_piv where k between 'a' and 'a1' order by k$q$,
    $q$select k from t_piv where k >= 'ffd' order by k desc$q$,
    $q$select count(*) from t_piv where k > 'β'$q$,
    $q$select k from t_piv where k >= 'γγγ' and k < 'γγδ' order by k$q$
]);
SELECT * FROM bp_failures('piv');

-- random inserts split leaves and internal pages: their pivots are cut too
INSERT INTO t_piv SELECT md5((-i)::text) FROM generate_series(1, 40000) i;
SELECT bpindex_check('t_piv_bp', true);
SELECT levels FROM bpindex_stats('t_piv_bp');
SELECT count(*) > 300 AS many_pivots,
       avg(octet_length(p)) < 8 AS short,
       bool_and(starts_with((SELECT min(k) FROM t_piv WHERE k >= p), p)) AS prefix_of_next
FROM piv_keys('t_piv_bp') p;
SELECT * FROM bp_queries('piv split', ARRAY[
    $q$select k from t_piv where k = md5('-4711')$q$,
    $q$select k from t_piv where k between 'b' and 'b1' order by k desc$q$,
    $q$select count(*) from t_piv where k < '8'$q$
]);
SELECT * FROM bp_failures('piv split');

--
-- bytea: cut at any byte, zero bytes included: a few bytes of 16.
--
CREATE TABLE t_piv_bytea (k bytea);
INSERT INTO t_piv_bytea SELECT decode(md5(i::text), 'hex') FROM generate_series(1, 20000) i;
CREATE INDEX t_piv_bytea_bp ON t_piv_bytea USING bpindex (k);
SELECT bpindex_check('t_piv_bytea_bp', true);
SELECT count(*) > 50 AS many_pivots,
       max(octet_length(decode(substr(p, 3), 'hex'))) <= 6 AS all_short
FROM piv_keys('t_piv_bytea_bp') p;
SELECT * FROM bp_queries('piv bytea', ARRAY[
    $q$select k from t_piv_bytea where k = decode(md5('77'), 'hex')$q$,
    $q$select k from t_piv_bytea where k between '\x10'::bytea and '\x11'::bytea order by k$q$
]);
SELECT * FROM bp_failures('piv bytea');

--
-- bpchar under "C": a cut pivot does not end in a blank, which bpchar's
-- comparison ignores, so that it still sorts after the key before it:
-- '00012' before '0001212 34' gives '0001212 3' (the shortest prefix and
-- two bytes, then past the blank), not '0001212 '.  Whole keys show their
-- padding.
--
CREATE TABLE t_piv_bpchar (k char(12) COLLATE "C");
INSERT INTO t_piv_bpchar
SELECT lpad((i / 2)::text, 5, '0') || CASE WHEN i % 2 = 0 THEN '' ELSE '12 34' END
FROM generate_series(1, 40000) i;
CREATE INDEX t_piv_bpchar_bp ON t_piv_bpchar USING bpindex (k);
SELECT bpindex_check('t_piv_bpchar_bp', true);
SELECT count(*) > 50 AS many_pivots,
       count(*) FILTER (WHERE p ~ '^[0-9]{5}12 3$') > 10 AS cut_after_a_blank,
       bool_and(octet_length(p) = 12 OR p !~ ' $') AS none_cut_at_a_blank,
       bool_and((SELECT max(k) FROM t_piv_bpchar WHERE k < p::char(12)) < p::char(12)) AS after_the_key_before
FROM piv_keys('t_piv_bpchar_bp') p;
SELECT * FROM bp_queries('piv bpchar', ARRAY[
    $q$select k from t_piv_bpchar where k = '0012012 34'$q$,
    $q$select k from t_piv_bpchar where k between '00120' and '00130 ' order by k$q$
]);
SELECT * FROM bp_failures('piv bpchar');

--
-- Orders that are not bytewise ascending keep the column whole: DESC, and
-- numeric, and a linguistic collation where one exists.
--
CREATE TABLE t_piv_desc (k text COLLATE "C");
INSERT INTO t_piv_desc SELECT md5(i::text) FROM generate_series(1, 20000) i;
CREATE INDEX t_piv_desc_bp ON t_piv_desc USING bpindex (k DESC);
SELECT bpindex_check('t_piv_desc_bp', true);
SELECT count(*) > 50 AS many_pivots, bool_and(octet_length(p) = 32) AS all_whole
FROM piv_keys('t_piv_desc_bp') p;
-- the capacity of internal pages follows the keys of the pivots: whole
-- 32-byte keys leave room for fewer children than cut ones, in slots of
-- the same width
SELECT d.slot_width = c.slot_width AS same_slots,
       d.internal_capacity < c.internal_capacity AS fewer_for_whole_keys
FROM bpindex_metap('t_piv_desc_bp') d, bpindex_metap('t_piv_bp') c;
SELECT * FROM bp_queries('piv desc', ARRAY[
    $q$select k from t_piv_desc where k between 'a' and 'a1' order by k desc$q$
]);
SELECT * FROM bp_failures('piv desc');

CREATE TABLE t_piv_num (k numeric);
INSERT INTO t_piv_num SELECT i * 1.0001 FROM generate_series(1, 20000) i;
CREATE INDEX t_piv_num_bp ON t_piv_num USING bpindex (k);
SELECT bpindex_check('t_piv_num_bp', true);
SELECT count(*) > 10 AS many_pivots,
       bool_and(EXISTS (SELECT FROM t_piv_num WHERE k = p::numeric)) AS all_keys
FROM piv_keys('t_piv_num_bp') p;

-- ICU's root collation, where the server has ICU (true without it)
CREATE FUNCTION piv_icu_all_whole() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_collation WHERE collname = 'und-x-icu') THEN
        RETURN true;
    END IF;
    CREATE TABLE t_piv_icu (k text COLLATE "und-x-icu");
    INSERT INTO t_piv_icu SELECT md5(i::text) FROM generate_series(1, 20000) i;
    CREATE INDEX t_piv_icu_bp ON t_piv_icu USING bpindex (k);
    PERFORM bpindex_check('t_piv_icu_bp', true);
    RETURN (SELECT count(*) > 50 AND bool_and(octet_length(p) = 32)
            FROM piv_keys('t_piv_icu_bp') p);
END
$$;
SELECT piv_icu_all_whole();

--
-- Two key columns: when the first differs and is cut, the second is
-- empty; when the first is equal, the second is cut.  A numeric second
-- column is kept.
--
CREATE TABLE t_piv_mc (a text COLLATE "C", b text COLLATE "C", n numeric);
INSERT INTO t_piv_mc SELECT 'tenant' || lpad((i % 20)::text, 3, '0') || '-' || md5(i::text),
                            md5((-i)::text), i
FROM generate_series(1, 20000) i;
INSERT INTO t_piv_mc SELECT 'shared', md5(i::text), i FROM generate_series(1, 20000) i;
CREATE INDEX t_piv_mc_bp ON t_piv_mc USING bpindex (a, b);
CREATE INDEX t_piv_mcn_bp ON t_piv_mc USING bpindex (a, n);
SELECT bpindex_check('t_piv_mc_bp', true), bpindex_check('t_piv_mcn_bp', true);
SELECT count(*) FILTER (WHERE p ~ '^\(tenant' AND p ~ ', \)$') > 10 AS first_cut_second_empty,
       count(*) FILTER (WHERE p ~ '^\(shared, ' AND octet_length(p) < 24) > 10 AS second_cut,
       bool_and(p ~ ', \)$' OR p ~ '^\(shared, ') AS nothing_else
FROM piv_keys('t_piv_mc_bp') p;
SELECT bool_and(p ~ ', [0-9.]+\)$') AS numeric_kept
FROM piv_keys('t_piv_mcn_bp') p;
SELECT * FROM bp_queries('piv mc', ARRAY[
    $q$select a, b from t_piv_mc where a = 'shared' and b between '1' and '12' order by a, b$q$,
    $q$select a, b from t_piv_mc where a > 'tenant005' and a < 'tenant006' order by a desc, b desc$q$,
    $q$select count(*) from t_piv_mc where a = 'shared' and b > 'f'$q$
]);
SELECT * FROM bp_failures('piv mc');
