#!/bin/bash
# Inner part of bench/size.sh's second run: with shared_buffers smaller
# than the btree index and larger than the bpindex one, point lookups and
# 10k-row range scans (index-only) on ascending int8 ids, each index in a
# table of its own.  Per index and workload: one pass to warm the cache,
# then a measured pass with the same keys: index blocks read (from outside
# shared buffers) and hit, and the time.  Arguments: rows, lookups, ranges.
set -euo pipefail
ROWS=${1:-10000000}
LOOKUPS=${2:-50000}
RANGES=${3:-500}
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

q <<SQL
CREATE EXTENSION IF NOT EXISTS bpindex;
DROP TABLE IF EXISTS cache_btree, cache_bpindex;
CREATE TABLE cache_btree (k int8);
CREATE TABLE cache_bpindex (k int8);
INSERT INTO cache_btree SELECT g FROM generate_series(1, $ROWS) g;
INSERT INTO cache_bpindex SELECT g FROM generate_series(1, $ROWS) g;
CREATE INDEX cache_btree_k ON cache_btree (k);
CREATE INDEX cache_bpindex_k ON cache_bpindex USING bpindex (k);
VACUUM ANALYZE cache_btree, cache_bpindex;
-- n point lookups or 10k-row ranges at keys from a fixed seed; milliseconds
CREATE FUNCTION cache_probe(tbl text, kind text, n int) RETURNS float8
LANGUAGE plpgsql AS \$\$
DECLARE
    t0 timestamptz := clock_timestamp();
    key int8;
    found int8;
    point text := format('SELECT k FROM %I WHERE k = \$1', tbl);
    range text := format('SELECT count(k) FROM %I WHERE k BETWEEN \$1 AND \$1 + 9999', tbl);
BEGIN
    PERFORM setseed(0.42);
    FOR i IN 1..n LOOP
        key := 1 + floor(random() * ($ROWS - 10000))::int8;
        EXECUTE CASE kind WHEN 'point' THEN point ELSE range END INTO found USING key;
    END LOOP;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END
\$\$;
SQL
q -c "SHOW shared_buffers" | sed 's/^/shared_buffers: /'
for idx in btree bpindex; do
	echo "index size ($idx): $(q -c "SELECT pg_size_pretty(pg_relation_size('cache_${idx}_k'))")"
done
q -c "EXPLAIN (COSTS OFF) SELECT count(k) FROM cache_bpindex WHERE k BETWEEN 1 AND 10000" | sed 's/^/plan: /'
printf '%-8s %-6s %8s %12s %12s %10s\n' index kind queries blks_read blks_hit ms
for kind in point range; do
	n=$LOOKUPS
	[ "$kind" = range ] && n=$RANGES
	for idx in btree bpindex; do
		settings="SET enable_seqscan = off; SET enable_bitmapscan = off; SET max_parallel_workers_per_gather = 0;"
		q -c "$settings SELECT cache_probe('cache_$idx', '$kind', $n)" >/dev/null
		q -c "SELECT pg_stat_reset_single_table_counters('cache_${idx}_k'::regclass)" >/dev/null
		ms=$(q -c "$settings SELECT round(cache_probe('cache_$idx', '$kind', $n)::numeric)")
		sleep 1
		blocks=$(q -F ' ' -c "SELECT idx_blks_read, idx_blks_hit FROM pg_statio_user_indexes WHERE indexrelid = 'cache_${idx}_k'::regclass")
		# shellcheck disable=SC2086
		printf '%-8s %-6s %8s %12s %12s %10s\n' $idx $kind $n $blocks $ms
	done
done
q -c "DROP TABLE cache_btree, cache_bpindex"
