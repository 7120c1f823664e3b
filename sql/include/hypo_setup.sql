-- Shared by 13_hypo and 33_hypopg (included, not a test of its own):
-- hypo_explain() and the table t_hypo.  The including test drops both.
-- EXPLAIN (COSTS OFF) with the OIDs in hypothetical index names masked
CREATE FUNCTION hypo_explain(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        RETURN NEXT regexp_replace(line, '<\d+>', '<oid>', 'g');
    END LOOP;
END $$;

CREATE TABLE t_hypo (k8 int8, k4 int4, j int4, payload int4);
INSERT INTO t_hypo
SELECT (i::int8 * 7919) % 1000003, (i::int8 * 104729) % 1000033, i % 5000, i
FROM generate_series(1, 200000) i;
VACUUM ANALYZE t_hypo;
SET max_parallel_workers_per_gather = 0;
