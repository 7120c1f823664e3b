#!/bin/bash
# Inner part of bench/retention.sh: runs against the server given by the
# PG* environment variables.  Arguments: rows, cycles.
set -euo pipefail
ROWS=${1:-1000000}
CYCLES=${2:-20}
STEP=$((ROWS / 10))
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

q <<SQL
CREATE EXTENSION IF NOT EXISTS bpindex;
DROP TABLE IF EXISTS ret_bpindex, ret_btree;
CREATE TABLE ret_bpindex (k int8, pad int4);
CREATE TABLE ret_btree (k int8, pad int4);
INSERT INTO ret_bpindex SELECT g, g FROM generate_series(1, $ROWS) g;
INSERT INTO ret_btree SELECT g, g FROM generate_series(1, $ROWS) g;
CREATE INDEX ret_bpindex_k ON ret_bpindex USING bpindex (k);
CREATE INDEX ret_btree_k ON ret_btree (k);
VACUUM ANALYZE ret_bpindex, ret_btree;
-- buffers (shared hit + read) and execution time of one query
CREATE OR REPLACE FUNCTION ret_measure(query text, OUT buffers int8, OUT ms float8)
LANGUAGE plpgsql AS \$\$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || query INTO plan;
    buffers := (plan->0->'Plan'->>'Shared Hit Blocks')::int8 +
               (plan->0->'Plan'->>'Shared Read Blocks')::int8;
    ms := (plan->0->>'Execution Time')::float8;
END
\$\$;
SQL

printf '%5s  %-8s %10s %8s %8s %8s %8s %8s %8s\n' cycle index size_kB min_buf min_ms max_buf max_ms lim_buf lim_ms
for ((c = 1; c <= CYCLES; c++)); do
	for idx in bpindex btree; do
		q -c "DELETE FROM ret_$idx WHERE k <= $((c * STEP))"
		q -c "INSERT INTO ret_$idx SELECT g, g FROM generate_series($((ROWS + (c - 1) * STEP + 1)), $((ROWS + c * STEP))) g"
		q -c "VACUUM ret_$idx"
	done
	for idx in bpindex btree; do
		line=$(q -F ' ' <<SQL
SELECT pg_relation_size('ret_${idx}_k') / 1024,
       (SELECT buffers FROM ret_measure('SELECT min(k) FROM ret_$idx')),
       (SELECT round(min(ms)::numeric, 3) FROM (SELECT (ret_measure('SELECT min(k) FROM ret_$idx')).ms FROM generate_series(1, 5)) x),
       (SELECT buffers FROM ret_measure('SELECT max(k) FROM ret_$idx')),
       (SELECT round(min(ms)::numeric, 3) FROM (SELECT (ret_measure('SELECT max(k) FROM ret_$idx')).ms FROM generate_series(1, 5)) x),
       (SELECT buffers FROM ret_measure('SELECT k FROM ret_$idx ORDER BY k LIMIT 100')),
       (SELECT round(min(ms)::numeric, 3) FROM (SELECT (ret_measure('SELECT k FROM ret_$idx ORDER BY k LIMIT 100')).ms FROM generate_series(1, 5)) x)
SQL
)
		# shellcheck disable=SC2086
		printf '%5s  %-8s %10s %8s %8s %8s %8s %8s %8s\n' $c $idx $line
		eval "size_${idx}_$c=$(echo $line | cut -d' ' -f1)"
		eval "minbuf_${idx}_$c=$(echo $line | cut -d' ' -f2)"
	done
done

ok=1
eval "bp2=\$size_bpindex_2 bpN=\$size_bpindex_$CYCLES btN=\$size_btree_$CYCLES"
echo "bpindex size: cycle 2 ${bp2} kB, cycle $CYCLES ${bpN} kB; btree cycle $CYCLES ${btN} kB"
if [ $((bpN * 10)) -le $((bp2 * 11)) ]; then echo "target met: bpindex size within 10% of cycle 2"; else echo "target MISSED: bpindex size grew more than 10% after cycle 2"; ok=0; fi
if [ "$bpN" -le "$btN" ]; then echo "target met: bpindex size not above btree's"; else echo "target MISSED: bpindex larger than btree"; ok=0; fi
worst=0
for ((c = 2; c <= CYCLES; c++)); do
	eval "d=\$((minbuf_bpindex_$c - minbuf_btree_$c))"
	[ "$d" -gt "$worst" ] && worst=$d
done
if [ "$worst" -le 2 ]; then echo "target met: min() buffers at most btree's + $worst"; else echo "target MISSED: min() buffers up to btree's + $worst"; ok=0; fi
[ $ok = 1 ]
