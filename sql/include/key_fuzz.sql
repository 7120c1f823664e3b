--
-- key_fuzz: a randomized driver of keyed leaves under size pressure.
--
-- A run works on one table kf_<name> (k KEYTYPE, v int4) with a bpindex
-- index on k (or on (k, v)) and takes steps drawn from random(), seeded by
-- the caller (setseed), so that a run is repeatable.  Each step inserts
-- keys whose lengths follow a distribution that changes every few steps
-- (short, long, any length up to the limit, the boundaries of the leaf's
-- layout), inserts duplicates of mixed lengths, deletes rows (scattered or
-- a whole key range, so that leaves empty), or updates keys; every fifth
-- step is a VACUUM.  After every step kf_check compares ordered index
-- scans (forward and backward), index-only scans, range scans, bitmap scans
-- and equality probes with the same queries with index paths disabled,
-- confirms from EXPLAIN that the forced plans use the index, and runs
-- bpindex_check(heapallindexed).  A difference raises an ERROR naming the
-- step; kf_log keeps what each step did.
--
-- kf_setup(name, key type, index definition) creates the table,
-- kf_steps(name, first, last) returns the statements of those steps
-- (for psql's \gexec, which runs the VACUUMs at top level), and
-- kf_summary(name) what the run covered.
--

-- The longest key a run inserts: the limit of every run, 2,730 bytes (a
-- third of a page) with its 4-byte varlena header, above btree's 2,696
-- (a text of 2,692 bytes in a one-column index).
CREATE FUNCTION kf_max_len() RETURNS int LANGUAGE sql IMMUTABLE
AS $$ SELECT 2726 $$;

-- Each run's table: how a text value becomes a key (to_key, %s the text)
-- and a key becomes text (from_key, %s the column).
CREATE TABLE kf_runs (
    name text PRIMARY KEY,
    to_key text,
    from_key text
);

CREATE TABLE kf_log (
    name text,
    step int,
    op text,
    rows_changed bigint,
    min_len int,
    max_len int,
    leaf_pages bigint,
    deleted_pages bigint
);

-- Bytes of a key drawn from phase's distribution of lengths.
CREATE FUNCTION kf_len(phase int) RETURNS int LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    boundaries int[] := ARRAY[0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64,
                              65, 127, 128, 255, 256, 300, 327, 400, 500, 600,
                              700, 800, 810, 814, 815, 816, 1000, 1024, 1500,
                              2000, 2200, 2250, 2253, 2254, 2400, 2500,
                              2560, 2568, 2584, 2585, 2600, 2688, 2692,
                              2693, 2700, 2720, 2725, 2726];
BEGIN
    RETURN CASE phase % 6
        WHEN 0 THEN floor(random() * 25)::int                  -- short
        WHEN 1 THEN 300 + floor(random() * (kf_max_len() - 299))::int  -- long
        WHEN 2 THEN floor(random() * (kf_max_len() + 1))::int  -- any
        WHEN 3 THEN boundaries[1 + floor(random() * array_length(boundaries, 1))::int]
        WHEN 4 THEN CASE WHEN random() < 0.5 THEN floor(random() * 12)::int
                  ELSE kf_max_len() - floor(random() * 40)::int END  -- both ends
        ELSE CASE WHEN random() < 0.3 THEN floor(random() * 25)::int
                  ELSE kf_max_len() + 1 + floor(random() * 12000)::int END  -- compressed
    END;
END $$;

-- A key of exactly len bytes of one of several shapes: random hex, a long
-- shared prefix (URL-like), a run of one letter, or multi-byte UTF-8; one
-- longer than the limit repeats a random word after a random start, so
-- that it compresses below it.
CREATE FUNCTION kf_key(len int) RETURNS text LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    shape float8 := random();
    body text := '';
    result text;
BEGIN
    IF len > kf_max_len() THEN
        body := md5(random()::text);
        result := left(body, 1 + floor(random() * 32)::int) ||
                  repeat(substr(md5(random()::text), 1, 2 + floor(random() * 10)::int), len / 2);
        result := CASE WHEN shape < 0.5 THEN result ELSE repeat('é', 40) || result END;
        RETURN left(result, len - (octet_length(left(result, len)) - len));
    END IF;
    WHILE length(body) < len + 32 LOOP
        body := body || md5(random()::text);
    END LOOP;
    IF shape < 0.35 THEN
        result := body;
    ELSIF shape < 0.7 THEN
        result := 'https://example.com/catalog/item/' ||
                  lpad(floor(random() * 500)::text, 4, '0') || '/' || body;
    ELSIF shape < 0.85 THEN
        result := repeat('x', len - 3) || substr(body, 1, 3);
    ELSE
        -- two-byte characters, then ASCII to reach len bytes exactly
        result := repeat('é', (len / 4)) || body;
    END IF;
    -- cut to len bytes without splitting a character
    WHILE octet_length(result) > len LOOP
        result := left(result, length(result) - greatest(1, (octet_length(result) - len) / 2));
    END LOOP;
    WHILE octet_length(result) < len LOOP
        result := result || 'z';
    END LOOP;
    RETURN result;
END $$;

-- Create table kf_<name> (k keytype, v int4) and its index, made by
-- index_def with %I for the index's name and %I for the table's.  bytea
-- keys are the UTF-8 bytes of the text keys.
CREATE FUNCTION kf_setup(name text, keytype text, index_def text,
                         initial int DEFAULT 200)
RETURNS void LANGUAGE plpgsql
AS $$
DECLARE
    to_key text := CASE WHEN keytype = 'bytea' THEN 'convert_to(%s, ''UTF8'')'
                        ELSE '(%s)::' || keytype END;
    from_key text := CASE WHEN keytype = 'bytea' THEN 'convert_from(%s, ''UTF8'')'
                          ELSE '(%s)::text' END;
BEGIN
    INSERT INTO kf_runs VALUES (name, to_key, from_key);
    EXECUTE format('CREATE TABLE %I (k %s, v int4) WITH (autovacuum_enabled = off)',
                   'kf_' || name, keytype);
    -- the index is built over short keys; long ones arrive later
    EXECUTE format('INSERT INTO %I SELECT %s, g FROM generate_series(1, %s) g',
                   'kf_' || name, format(to_key, 'kf_key(floor(random() * 20)::int)'),
                   initial);
    EXECUTE format(index_def, 'kf_' || name || '_idx', 'kf_' || name);
END $$;

-- Run name's expression of a key made from text expression x.
CREATE FUNCTION kf_to_key(name text, x text) RETURNS text LANGUAGE sql STABLE
AS $$ SELECT format(to_key, x) FROM kf_runs r WHERE r.name = kf_to_key.name $$;

-- Run name's expression of the text of key expression x.
CREATE FUNCTION kf_from_key(name text, x text) RETURNS text LANGUAGE sql STABLE
AS $$ SELECT format(from_key, x) FROM kf_runs r WHERE r.name = kf_from_key.name $$;

-- The statements of steps first..last of run name: a VACUUM every fifth
-- step, kf_step for the others.
CREATE FUNCTION kf_steps(name text, first int, last int)
RETURNS SETOF text LANGUAGE sql
AS $$
    SELECT stmt
    FROM generate_series(first, last) s,
         unnest(CASE WHEN s % 5 = 4
                     THEN ARRAY[format('VACUUM %I', 'kf_' || name),
                                format('SELECT kf_check(%L, %s, %L)', name, s, 'vacuum')]
                     ELSE ARRAY[format('SELECT kf_step(%L, %s)', name, s)] END)
             WITH ORDINALITY AS u(stmt, n)
    ORDER BY s, n
$$;

-- One random change of run name's table, then kf_check.
CREATE FUNCTION kf_step(name text, step int) RETURNS void LANGUAGE plpgsql
AS $$
DECLARE
    tbl text := 'kf_' || name;
    phase int := step / 7;
    dice float8 := random();
    k_text text := kf_from_key(name, 'k');
    op text;
    changed bigint := 0;
    n int;
    lens int[];
BEGIN
    IF dice < 0.40 THEN
        op := 'insert';
        n := 1 + floor(random() * 40)::int;
        SELECT array_agg(kf_len(phase)) INTO lens FROM generate_series(1, n);
        EXECUTE format('INSERT INTO %I SELECT %s, floor(random() * 1000)::int
                        FROM unnest($1) l', tbl, kf_to_key(name, 'kf_key(l)')) USING lens;
        GET DIAGNOSTICS changed = ROW_COUNT;
    ELSIF dice < 0.55 THEN
        op := 'duplicates';
        -- copies of a few existing keys, and of a new one
        EXECUTE format('INSERT INTO %I
                        SELECT k, floor(random() * 1000)::int
                        FROM (SELECT k FROM %I ORDER BY random() LIMIT 3) s,
                             generate_series(1, 1 + floor(random() * 60)::int)', tbl, tbl);
        GET DIAGNOSTICS changed = ROW_COUNT;
        EXECUTE format('INSERT INTO %I
                        SELECT %s, d FROM (SELECT kf_key(kf_len(%s)) AS key) s,
                             generate_series(1, 1 + floor(random() * 50)::int) d',
                       tbl, kf_to_key(name, 'key'), phase + 1);
        GET DIAGNOSTICS n = ROW_COUNT;
        changed := changed + n;
    ELSIF dice < 0.65 THEN
        op := 'neighbours';
        -- keys that share all but their last characters with existing ones
        EXECUTE format('INSERT INTO %I
                        SELECT %s, 0
                        FROM (SELECT %s AS t FROM %I WHERE k IS NOT NULL
                              ORDER BY random() LIMIT 20) s
                        WHERE octet_length(t) BETWEEN 1 AND %s',
                       tbl,
                       kf_to_key(name, 'left(t, -1 - floor(random() * 3)::int) || chr(97 + floor(random() * 26)::int)'),
                       k_text, tbl, kf_max_len() - 1);
        GET DIAGNOSTICS changed = ROW_COUNT;
    ELSIF dice < 0.77 THEN
        op := 'delete scattered';
        EXECUTE format('DELETE FROM %I WHERE random() < 0.25', tbl);
        GET DIAGNOSTICS changed = ROW_COUNT;
    ELSIF dice < 0.87 THEN
        op := 'delete range';
        -- every row of a run of keys, so that whole leaves empty
        EXECUTE format('DELETE FROM %I WHERE k IN
                        (SELECT k FROM %I ORDER BY k
                         OFFSET floor(random() * (SELECT count(*) FROM %I))::int
                         LIMIT 50 + floor(random() * 300)::int)', tbl, tbl, tbl);
        GET DIAGNOSTICS changed = ROW_COUNT;
    ELSIF dice < 0.95 THEN
        op := 'update';
        -- new versions with keys of the current phase (new TIDs)
        EXECUTE format('UPDATE %I SET k = %s WHERE random() < 0.1',
                       tbl, kf_to_key(name, format('kf_key(kf_len(%s))', phase)));
        GET DIAGNOSTICS changed = ROW_COUNT;
    ELSE
        op := 'nulls';
        EXECUTE format('INSERT INTO %I SELECT NULL, g FROM generate_series(1, 20) g', tbl);
        GET DIAGNOSTICS changed = ROW_COUNT;
    END IF;
    PERFORM kf_check(name, step, op, changed);
END $$;

-- Does the plan of query, under the current settings, use index idx?
CREATE FUNCTION kf_uses_index(query text, idx text) RETURNS bool LANGUAGE plpgsql
AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF line ~ ('(using|on) ' || idx || '( |$)') THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;

-- Set the planner's access paths for the transaction: 'seq' (no index
-- path), 'index' (index and index-only scans, no sort), 'bitmap', or
-- 'all' (every path).
CREATE FUNCTION kf_set_path(path text) RETURNS void LANGUAGE sql
AS $$
    SELECT set_config('enable_seqscan', (path IN ('seq', 'all'))::text, true),
           set_config('enable_indexscan', (path IN ('index', 'all'))::text, true),
           set_config('enable_indexonlyscan', (path IN ('index', 'all'))::text, true),
           set_config('enable_bitmapscan', (path IN ('bitmap', 'all'))::text, true),
           set_config('enable_sort', (path <> 'index')::text, true);
$$;

-- A digest of query's rows (one text column) through path (kf_set_path),
-- in the order the scan returns them if ordered, else as a set.  Through
-- an index the plan must use idx.
CREATE FUNCTION kf_digest(query text, path text, idx text, ordered bool)
RETURNS text LANGUAGE plpgsql
AS $$
DECLARE
    result text;
BEGIN
    PERFORM kf_set_path(path);
    IF path <> 'seq' AND NOT kf_uses_index(query, idx) THEN
        RAISE EXCEPTION 'the % plan of "%" does not use %', path, query, idx;
    END IF;
    EXECUTE format('SELECT count(*) || '' '' || coalesce(md5(string_agg(coalesce(x, ''<null>''), ''|'' %s)), '''')
                    FROM (%s) q(x)',
                   CASE WHEN ordered THEN '' ELSE 'ORDER BY x COLLATE "C"' END, query)
        INTO result;
    PERFORM kf_set_path('all');
    RETURN result;
END $$;

-- Compare query's rows through path with a sequential scan's.
CREATE FUNCTION kf_compare(name text, step int, query text, path text,
                           ordered bool DEFAULT true)
RETURNS void LANGUAGE plpgsql
AS $$
DECLARE
    expected text := kf_digest(query, 'seq', NULL, ordered);
    got text := kf_digest(query, path, 'kf_' || name || '_idx', ordered);
BEGIN
    IF got IS DISTINCT FROM expected THEN
        RAISE EXCEPTION 'key_fuzz %, step %: % scan of "%" gave % (rows, digest), a sequential scan %',
            name, step, path, query, got, expected;
    END IF;
END $$;

-- Check run name's index after a step: scans against sequential scans and
-- bpindex_check(heapallindexed); log the step.
CREATE FUNCTION kf_check(name text, step int, op text, changed bigint DEFAULT 0)
RETURNS void LANGUAGE plpgsql
AS $$
DECLARE
    tbl text := 'kf_' || name;
    k_text text := kf_from_key(name, 'k');
    lo text;
    hi text;
    probe text;
    min_len int;
    max_len int;
BEGIN
    -- ordered scans both ways (index-only when the visibility map allows)
    PERFORM kf_compare(name, step, format('SELECT %s FROM %I ORDER BY k', k_text, tbl), 'index');
    PERFORM kf_compare(name, step, format('SELECT %s FROM %I ORDER BY k DESC', k_text, tbl), 'index');
    -- ranges from two existing keys: with a heap column, ordered with
    -- LIMIT both ways, and by bitmap
    EXECUTE format('SELECT %s FROM %I WHERE k IS NOT NULL ORDER BY random() LIMIT 1', k_text, tbl) INTO lo;
    EXECUTE format('SELECT %s FROM %I WHERE k IS NOT NULL ORDER BY random() LIMIT 1', k_text, tbl) INTO hi;
    IF lo IS NOT NULL THEN
        PERFORM kf_compare(name, step,
            format('SELECT %s || v FROM %I WHERE k >= %s AND k <= %s',
                   k_text, tbl, kf_to_key(name, quote_literal(lo)), kf_to_key(name, quote_literal(hi))),
            'index', false);
        PERFORM kf_compare(name, step,
            format('SELECT %s FROM %I WHERE k > %s ORDER BY k DESC LIMIT 40',
                   k_text, tbl, kf_to_key(name, quote_literal(lo))),
            'index');
        PERFORM kf_compare(name, step,
            format('SELECT %s FROM %I WHERE k >= %s ORDER BY k LIMIT 40',
                   k_text, tbl, kf_to_key(name, quote_literal(hi))),
            'index');
        PERFORM kf_compare(name, step,
            format('SELECT %s || v FROM %I WHERE k >= %s AND k < %s',
                   k_text, tbl, kf_to_key(name, quote_literal(lo)), kf_to_key(name, quote_literal(hi))),
            'bitmap', false);
        -- equality: a key and its neighbours one character shorter and longer
        FOR probe IN SELECT unnest(ARRAY[lo, hi, left(lo, -1), lo || 'a']) LOOP
            PERFORM kf_compare(name, step,
                format('SELECT v::text FROM %I WHERE k = %s',
                       tbl, kf_to_key(name, quote_literal(probe))), 'index', false);
            PERFORM kf_compare(name, step,
                format('SELECT v::text FROM %I WHERE k = %s',
                       tbl, kf_to_key(name, quote_literal(probe))), 'bitmap', false);
        END LOOP;
    END IF;
    PERFORM kf_compare(name, step, format('SELECT v::text FROM %I WHERE k IS NULL', tbl),
                       'index', false);
    PERFORM bpindex_check(tbl || '_idx', true);
    EXECUTE format('SELECT min(octet_length(%s)), max(octet_length(%s)) FROM %I',
                   k_text, k_text, tbl) INTO min_len, max_len;
    INSERT INTO kf_log
    SELECT name, step, op, changed, min_len, max_len, leaf_pages, deleted_pages
    FROM bpindex_stats((tbl || '_idx')::regclass);
END $$;

-- What run name covered, as facts that hold for any seed of a long
-- enough run: every step checked, keys long (700 bytes or more) and short
-- (under 300) in the index at once, keys stored compressed (longer than
-- the limit), inserts, deletes and VACUUMs, leaves split and deleted.
CREATE FUNCTION kf_summary(name text)
RETURNS TABLE (steps bigint, all_ops bool, long_and_short_keys bool,
               compressed_keys bool, leaves_split bool, leaves_deleted bool)
LANGUAGE sql
AS $$
    SELECT count(*),
           count(*) FILTER (WHERE op IN ('insert', 'duplicates', 'neighbours')) > 0 AND
           count(*) FILTER (WHERE op LIKE 'delete%') > 0 AND
           count(*) FILTER (WHERE op = 'vacuum') > 0,
           bool_or(max_len >= 700 AND min_len < 300),
           bool_or(max_len > kf_max_len()),
           max(leaf_pages) > 10,
           max(deleted_pages) > 0
    FROM kf_log WHERE kf_log.name = kf_summary.name
$$;
