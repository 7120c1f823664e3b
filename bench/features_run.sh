#!/bin/bash
# Inner part of bench/features.sh: runs against the server given by the
# PG* environment variables.  Argument: rows.
set -euo pipefail
ROWS=${1:-10000000}
REPS=5
q() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

q <<SQL
CREATE EXTENSION IF NOT EXISTS bpindex;
DROP TABLE IF EXISTS feat_bpindex, feat_btree;
CREATE TABLE feat_bpindex (k int8, v int4) WITH (parallel_workers = 2);
INSERT INTO feat_bpindex
SELECT (g::int8 * 2654435761) % 10000000000, g FROM generate_series(1, $ROWS) g;
CREATE TABLE feat_btree (LIKE feat_bpindex) WITH (parallel_workers = 2);
INSERT INTO feat_btree SELECT * FROM feat_bpindex;
VACUUM ANALYZE feat_bpindex, feat_btree;
-- execution time in ms and workers launched of one query, from EXPLAIN ANALYZE
CREATE OR REPLACE FUNCTION feat_measure(query text, OUT ms float8, OUT workers int,
                                        OUT node text)
LANGUAGE plpgsql AS \$\$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO plan;
    ms := (plan->0->>'Execution Time')::float8;
    workers := coalesce((regexp_match(plan::text, '"Workers Launched": (\d+)'))[1]::int, 0);
    node := (regexp_match(plan::text, '"Node Type": "((?:Parallel )?(?:Index Only Scan|Index Scan|Bitmap Index Scan))"'))[1];
END
\$\$;
SQL

# the keys of the IN list: 100 of the table's keys, spread over it
IN_LIST=$(q -c "SELECT string_agg(k::text, ', ') FROM (SELECT k FROM feat_btree WHERE v % ($ROWS / 100) = 7 LIMIT 100) s")
LO=$(q -c "SELECT percentile_disc(0.2) WITHIN GROUP (ORDER BY k) FROM feat_btree")
HI=$(q -c "SELECT percentile_disc(0.8) WITHIN GROUP (ORDER BY k) FROM feat_btree")

# best of REPS runs of a query on each table, with the settings given:
# prints "workload | btree ms | bpindex ms | ratio | workers | node"
measure() {
	local label=$1 settings=$2 query=$3 idx line bt bp
	for idx in btree bpindex; do
		line=$(q -F ' ' <<SQL
$settings
SELECT round(min(ms)::numeric, 3), max(workers), min(node)
FROM (SELECT (feat_measure(replace(\$q\$$query\$q\$, 'TAB', 'feat_$idx'))).*
      FROM generate_series(1, $REPS)) m;
SQL
)
		eval "ms_$idx=\$(echo \$line | cut -d' ' -f1)"
		eval "info_$idx=\"\$(echo \$line | cut -d' ' -f2-)\""
	done
	printf '%-62s | %9s | %9s | %5s | %s / %s\n' "$label" "$ms_btree" "$ms_bpindex" \
		"$(echo "$ms_bpindex $ms_btree" | awk '{printf "%.2f", $1 / $2}')" "$info_btree" "$info_bpindex"
}

# CREATE INDEX time in ms, serial and with 2 workers
build() {
	local label=$1 workers=$2 idx bt bp t
	for idx in btree bpindex; do
		t=$(q <<SQL | tail -1
SET maintenance_work_mem = '1GB';
SET max_parallel_maintenance_workers = $workers;
DROP INDEX IF EXISTS feat_${idx}_k;
CHECKPOINT;
\timing on
CREATE INDEX feat_${idx}_k ON feat_$idx USING $idx (k);
SQL
)
		eval "ms_$idx=\$(echo \"\$t\" | grep -Eo '[0-9]+\\.[0-9]+' | head -1)"
	done
	printf '%-62s | %9s | %9s | %5s | %s\n' "$label" "$ms_btree" "$ms_bpindex" \
		"$(echo "$ms_bpindex $ms_btree" | awk '{printf "%.2f", $1 / $2}')" "$workers workers requested"
}

printf '%-62s | %9s | %9s | %5s | %s\n' workload "btree ms" "bpindex ms" ratio "workers launched / scan node (btree / bpindex)"
build "CREATE INDEX, $ROWS int8 keys, serial" 0
build "CREATE INDEX, $ROWS int8 keys, 2 workers" 2
q -c "VACUUM ANALYZE feat_bpindex, feat_btree"

SERIAL="SET enable_seqscan = off; SET enable_bitmapscan = off; SET max_parallel_workers_per_gather = 0;"
PARALLEL="SET enable_seqscan = off; SET enable_bitmapscan = off; SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_index_scan_size = 0;"
measure "IN list of 100 keys, ORDER BY k LIMIT 50" "$SERIAL" \
	"SELECT k FROM TAB WHERE k IN ($IN_LIST) ORDER BY k LIMIT 50"
measure "IN list of 100 keys, ORDER BY k DESC LIMIT 50" "$SERIAL" \
	"SELECT k FROM TAB WHERE k IN ($IN_LIST) ORDER BY k DESC LIMIT 50"
measure "count(*) over 60% of the keys, serial" "$SERIAL" \
	"SELECT count(*) FROM TAB WHERE k BETWEEN $LO AND $HI"
measure "count(*) over 60% of the keys, 2 workers" "$PARALLEL" \
	"SELECT count(*) FROM TAB WHERE k BETWEEN $LO AND $HI"
