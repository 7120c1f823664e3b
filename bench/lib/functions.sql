-- Helper functions of the benchmark, created in the throwaway cluster by
-- bench/lib/in_cluster.sh. They run EXPLAIN and check plan shapes, so a
-- comparison never silently measures another access path than intended.

-- EXPLAIN (FORMAT JSON) of a query, with ANALYZE and TIMING as asked.
CREATE FUNCTION bench_explain(query text, do_analyze boolean, do_timing boolean)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	IF do_analyze THEN
		EXECUTE format('EXPLAIN (ANALYZE, TIMING %s, FORMAT JSON) %s',
					   CASE WHEN do_timing THEN 'ON' ELSE 'OFF' END, query) INTO plan;
	ELSE
		EXECUTE format('EXPLAIN (FORMAT JSON) %s', query) INTO plan;
	END IF;
	RETURN plan;
END $$;

-- Raise an error unless the plan has a node of the given type (on the given
-- index when index is not NULL).
CREATE FUNCTION bench_require(plan jsonb, node text, index text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF index IS NULL THEN
		IF NOT jsonb_path_exists(plan, '$.** ? (@."Node Type" == $n)',
								 jsonb_build_object('n', node)) THEN
			RAISE EXCEPTION 'bench: expected a % node in the plan: %', node, plan;
		END IF;
	ELSIF NOT jsonb_path_exists(plan, '$.** ? (@."Node Type" == $n && @."Index Name" == $i)',
								jsonb_build_object('n', node, 'i', index)) THEN
		RAISE EXCEPTION 'bench: expected % using % in the plan: %', node, index, plan;
	END IF;
END $$;

-- pg_prewarm a table and all its indexes into shared buffers.
CREATE FUNCTION bench_prewarm(tbl regclass)
RETURNS int8 LANGUAGE sql AS $$
	SELECT pg_prewarm(tbl)
		 + coalesce((SELECT sum(pg_prewarm(indexrelid))::int8 FROM pg_index
					 WHERE indrelid = tbl), 0)
$$;

-- The probe join: every key of table probe looked up in tbl by a nested
-- loop with an inner Index Only Scan on tbl's index <tbl>_k. Returns the
-- execution time in ms of EXPLAIN (ANALYZE, TIMING OFF): per-node timing is
-- off so a million inner loops do not pay for two clock reads each.
CREATE FUNCTION bench_probe_join(tbl text, OUT exec_ms float8, OUT matched int8)
LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	SET LOCAL enable_hashjoin = off;
	SET LOCAL enable_mergejoin = off;
	SET LOCAL enable_memoize = off;
	SET LOCAL enable_bitmapscan = off;
	plan := bench_explain(format('SELECT count(*) FROM probe p JOIN %I t ON t.k = p.k', tbl),
						  true, false);
	PERFORM bench_require(plan, 'Nested Loop', NULL);
	PERFORM bench_require(plan, 'Index Only Scan', tbl || '_k');
	exec_ms := (plan -> 0 ->> 'Execution Time')::float8;
	matched := jsonb_path_query_first(plan, '$.** ? (@."Node Type" == "Nested Loop")."Actual Rows"')::int8;
END $$;

-- map_range's pure index time: a fixed, deterministic set of nranges ranges
-- [start, start + len * spacing), len in [0, maxlen], each run through
-- EXPLAIN (ANALYZE, FORMAT JSON) with the bitmap path forced. Sums the
-- Bitmap Index Scan node's "Actual Total Time" and "Actual Rows", and the
-- statements' execution times.
CREATE FUNCTION bench_bitmap_set(tbl text, maxlen int8, nranges int, spacing int8,
								 OUT node_ms float8, OUT node_rows int8, OUT exec_ms float8)
LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
	node jsonb;
	start int8;
	len int8;
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_indexonlyscan = off;
	node_ms := 0; node_rows := 0; exec_ms := 0;
	FOR i IN 1 .. nranges LOOP
		start := hashint8extended(i, 11) >> 1;
		len := abs(hashint8extended(i, 12) % (maxlen + 1));
		plan := bench_explain(format('SELECT count(*) FROM %I WHERE k >= %s AND k < %s',
									 tbl, start, start + len * spacing), true, true);
		node := jsonb_path_query_first(plan, '$.** ? (@."Node Type" == "Bitmap Index Scan")');
		IF node IS NULL OR node ->> 'Index Name' IS DISTINCT FROM tbl || '_k' THEN
			RAISE EXCEPTION 'bench: expected a Bitmap Index Scan on %_k: %', tbl, plan;
		END IF;
		node_ms := node_ms + (node ->> 'Actual Total Time')::float8;
		node_rows := node_rows + (node ->> 'Actual Rows')::numeric::int8;
		exec_ms := exec_ms + (plan -> 0 ->> 'Execution Time')::float8;
	END LOOP;
END $$;
