#!/bin/bash
# Inner part of bench/skip_scan.sh: runs against the server given by the
# PG* environment variables.  Argument: rows per table.  The last rows: an
# = ANY on the leading column of a three-column index, skipping the middle.
set -euo pipefail
ROWS=${1:-1000000}
REPS=11
q() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

q <<'SQL'
CREATE EXTENSION IF NOT EXISTS bpindex;
-- the best time in ms of one execution of a query over reps rounds, each
-- round a loop of n executions (about 20 ms) in a function of its own, so
-- that the query is planned once and the time is the executor's, without
-- EXPLAIN's instrumentation; its scan node and index searches from one
-- EXPLAIN ANALYZE (18; 0 where not reported)
CREATE OR REPLACE FUNCTION skip_measure(query text, reps int, OUT ms float8,
                                        OUT node text, OUT searches int)
LANGUAGE plpgsql AS $$
DECLARE
    plan json;
    n int;
    t0 timestamptz;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO plan;
    node := coalesce((regexp_match(plan::text, '"Node Type": "(Index Only Scan|Index Scan|Bitmap Index Scan)"'))[1],
                     (regexp_match(plan::text, '"Node Type": "(Seq Scan)"'))[1]);
    searches := coalesce((regexp_match(plan::text, '"Index Searches": (\d+)'))[1]::int, 0);
    n := greatest(1, least(2000, ceil(20 / greatest((plan->0->>'Execution Time')::float8, 0.001))::int));
    EXECUTE format('CREATE OR REPLACE FUNCTION pg_temp.skip_loop(n int) RETURNS void LANGUAGE plpgsql AS %L',
                   format('BEGIN FOR i IN 1 .. n LOOP PERFORM * FROM (%s) q; END LOOP; END', query));
    PERFORM pg_temp.skip_loop(1);
    FOR i IN 1 .. reps LOOP
        t0 := clock_timestamp();
        PERFORM pg_temp.skip_loop(n);
        ms := least(ms, extract(epoch FROM clock_timestamp() - t0) * 1000 / n);
    END LOOP;
END
$$;
SQL

printf '%-52s | %9s | %9s | %5s | %s\n' workload btree bpindex ratio \
	"scan node, index searches (btree / bpindex)"

# ratio of bpindex's to btree's number
ratio() { echo "$1 $2" | awk '{ if ($2 > 0) printf "%.2f", $1 / $2; else print "-" }'; }

# one row: the query on sk_btree and sk_bpindex with the plan the planner
# chooses (how = planner) or the index forced
measure_row() {
	local label=$1 shape=$2 how=$3 idx set_forced pass t
	declare -A ms node searches
	set_forced=""
	[ "$how" = planner ] || set_forced="SET enable_seqscan = off; SET enable_bitmapscan = off;"
	# two passes, the indexes alternating: a slow spell of the machine
	# during one index's rounds does not decide the ratio
	for pass in 1 2; do
		for idx in btree bpindex; do
			read -r t node[$idx] searches[$idx] < <(q -F ' ' <<SQL | sed 's/Index Only Scan/Index-Only-Scan/; s/Index Scan/Index-Scan/; s/Bitmap Index Scan/Bitmap-Index-Scan/; s/Seq Scan/Seq-Scan/'
$set_forced
SELECT round(ms::numeric, 4), node, searches FROM skip_measure('SELECT * FROM sk_$idx WHERE $shape', $REPS);
SQL
)
			ms[$idx]=$(echo "${ms[$idx]:-$t} $t" | awk '{ print ($2 < $1) ? $2 : $1 }')
		done
	done
	printf '%-52s | %9s | %9s | %5s | %s %s / %s %s\n' "$label, $how" "${ms[btree]}" "${ms[bpindex]}" \
		"$(ratio "${ms[bpindex]}" "${ms[btree]}")" "${node[btree]}" "${searches[btree]}" \
		"${node[bpindex]}" "${searches[bpindex]}"
}

MID=$(( ROWS / 2 + 7 ))
for ndist in 10 100 10000; do
	q <<SQL
DROP TABLE IF EXISTS sk_btree, sk_bpindex;
CREATE TABLE sk_btree (a int4, b int8, c int4);
INSERT INTO sk_btree SELECT g % $ndist, g, g FROM generate_series(1, $ROWS) g;
CREATE TABLE sk_bpindex (LIKE sk_btree);
INSERT INTO sk_bpindex SELECT * FROM sk_btree;
CREATE INDEX ON sk_btree USING btree (a, b);
CREATE INDEX ON sk_bpindex USING bpindex (a, b);
VACUUM ANALYZE sk_btree, sk_bpindex;
CHECKPOINT;
SQL
	shapes=("b = $MID"
		"b IN ($(( MID - 90000 )), $(( MID - 7 )), $MID, $(( MID + 12345 )), $(( MID + 99999 )))"
		"b BETWEEN $MID AND $(( MID + 100 ))")
	labels=("b = c" "b IN (5 values)" "b BETWEEN c AND c + 100")
	for i in 0 1 2; do
		for how in planner forced; do
			measure_row "$ndist values: ${labels[$i]}" "${shapes[$i]}" "$how"
		done
	done
done

# = ANY on the leading column of (a, m, b), 10 values of a and 100 of m:
# each element's range is a skip scan over m
q <<SQL
DROP TABLE IF EXISTS sk_btree, sk_bpindex;
CREATE TABLE sk_btree (a int4, m int4, b int8);
INSERT INTO sk_btree SELECT g % 10, (g / 10) % 100, g FROM generate_series(1, $ROWS) g;
CREATE TABLE sk_bpindex (LIKE sk_btree);
INSERT INTO sk_bpindex SELECT * FROM sk_btree;
CREATE INDEX ON sk_btree USING btree (a, m, b);
CREATE INDEX ON sk_bpindex USING bpindex (a, m, b);
VACUUM ANALYZE sk_btree, sk_bpindex;
CHECKPOINT;
SQL
for how in planner forced; do
	measure_row "(a, m, b), 10 x 100: a IN (2 values) AND b = c" \
		"a IN ($(( MID % 10 )), $(( (MID + 4) % 10 ))) AND b = $MID" "$how"
done
q -c "DROP TABLE IF EXISTS sk_btree, sk_bpindex"
