#!/bin/bash
# Inner part of bench/app.sh: builds the application schema twice (every
# index a btree in app_btree_*, every index a bpindex in app_bpindex_*),
# then measures each shape for both, alternating, and prints the table.
# Runs against the server given by PGHOST/PGPORT/PGDATABASE.
#
#   bash bench/app_run.sh [scale]
set -euo pipefail
SCALE=${1:-1}
REPS=7
QUEUE_ROUNDS=3
QUEUE_SECONDS=8
q() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

CUSTOMERS=$((100000 * SCALE))
ORDERS=$((200000 * SCALE))
EVENTS=$((1000000 * SCALE))
# enough jobs that 2 clients at 15,000 tps do not drain the queue in a round
JOBS=$((500000 * SCALE))

q <<'SQL'
CREATE EXTENSION IF NOT EXISTS bpindex;
-- execution time in ms of one run of a query, from EXPLAIN ANALYZE
CREATE OR REPLACE FUNCTION app_ms(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO plan;
    RETURN (plan->0->>'Execution Time')::float8;
END $$;
-- the scan nodes of a query's plan and the indexes they use
CREATE OR REPLACE FUNCTION app_plan(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    nodes text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF line ~ '(Index|Seq) (Only )?Scan' THEN
            nodes := nodes || CASE WHEN nodes = '' THEN '' ELSE ', ' END ||
                     regexp_replace(trim(line), '^-> *', '');
        END IF;
    END LOOP;
    RETURN nodes;
END $$;
SQL

# the schema with indexes of access method $1
build_schema() {
	local am=$1 t=app_$1
	q <<SQL
DROP TABLE IF EXISTS ${t}_customers, ${t}_orders, ${t}_events, ${t}_churn, ${t}_jobs;
CREATE TABLE ${t}_customers (id int8, email text, ext uuid, created_at timestamptz);
INSERT INTO ${t}_customers
SELECT g, 'user' || g || '@example.com', md5(g::text)::uuid, '2020-01-01'::timestamptz + g * interval '1 min'
FROM generate_series(1, $CUSTOMERS) g ORDER BY hashint4(g);
CREATE INDEX ON ${t}_customers USING $am (id);
CREATE INDEX ON ${t}_customers USING $am (email);
CREATE INDEX ON ${t}_customers USING $am (ext);
CREATE TABLE ${t}_orders (id int8, customer_id int8, created_at timestamptz, total int4);
INSERT INTO ${t}_orders
SELECT g, 1 + abs(hashint4(g)) % $CUSTOMERS, '2021-01-01'::timestamptz + g * interval '1 min', g % 1000
FROM generate_series(1, $ORDERS) g;
CREATE INDEX ON ${t}_orders USING $am (id);
CREATE INDEX ON ${t}_orders USING $am (customer_id, created_at);
CREATE TABLE ${t}_events (id int8, order_id int8, kind text, happened_at timestamptz, payload int4);
INSERT INTO ${t}_events
SELECT g, CASE WHEN g % 3 = 0 THEN NULL ELSE 1 + abs(hashint4(g + 7)) % $ORDERS END,
       (ARRAY['view', 'cart', 'checkout', 'refund'])[g % 4 + 1],
       '2021-01-01'::timestamptz + g * interval '10 s', g % 100
FROM generate_series(1, $EVENTS) g;
CREATE INDEX ON ${t}_events USING $am (order_id);
CREATE INDEX ON ${t}_events USING $am (kind);
CREATE INDEX ON ${t}_events USING $am (kind, happened_at);
CREATE INDEX ON ${t}_events USING $am (happened_at);
CREATE TABLE ${t}_jobs (id int8, status text, run_at timestamptz, payload int4)
    WITH (fillfactor = 90);
CREATE INDEX ${t}_jobs_id ON ${t}_jobs USING $am (id);
CREATE INDEX ${t}_jobs_queue ON ${t}_jobs USING $am (run_at) WHERE status = 'queued';
VACUUM ANALYZE ${t}_customers, ${t}_orders, ${t}_events;
SQL
}

# a fresh queue of $JOBS queued jobs for access method $1
reset_queue() {
	q <<SQL
TRUNCATE app_$1_jobs;
INSERT INTO app_$1_jobs
SELECT g, 'queued', '2024-01-01'::timestamptz + g * interval '1 s', g FROM generate_series(1, $JOBS) g;
VACUUM ANALYZE app_$1_jobs;
CHECKPOINT;
SQL
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
spread() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'; }
ratio() { echo "$1 $2" | awk '{ if ($2 > 0) printf "%.2f", $1 / $2; else print "-" }'; }

row() {
	printf '%-58s | %10s | %10s | %5s | %-19s | %-19s\n' "$@"
}

build_schema btree
build_schema bpindex
for am in btree bpindex; do
	echo "# $am: $(q -c "SELECT pg_size_pretty(sum(pg_relation_size(indexrelid))) FROM pg_index
		WHERE indrelid::regclass::text LIKE 'app_${am}_%'") of indexes"
done
echo "# medians of $REPS runs alternating btree and bpindex (ms; the queue: transactions per second," \
	"$QUEUE_ROUNDS rounds of $QUEUE_SECONDS s with 2 clients; churn: index size after / before)"
echo "# ratio: bpindex's time / btree's (queue: btree's tps / bpindex's; churn: bpindex's growth / btree's); below 1 is bpindex ahead"
row shape "btree" "bpindex" ratio "btree spread" "bpindex spread"

# measure LABEL SETTINGS QUERY: QUERY with TAB for the table prefix
measure() {
	local label=$1 settings="SET client_min_messages = warning; $2" query=$3 am r
	declare -A times
	for am in btree bpindex; do
		times[$am]=""
	done
	for r in $(seq 1 "$REPS"); do
		for am in btree bpindex; do
			times[$am]+="$(q -c "$settings" -c "SELECT round(app_ms(\$q\$${query//TAB/app_$am}\$q\$)::numeric, 3)" | tail -1) "
		done
	done
	local mb mp
	mb=$(echo "${times[btree]}" | tr ' ' '\n' | grep . | median)
	mp=$(echo "${times[bpindex]}" | tr ' ' '\n' | grep . | median)
	row "$label" "$mb" "$mp" "$(ratio "$mp" "$mb")" \
		"$(echo "${times[btree]}" | tr ' ' '\n' | grep . | spread)" \
		"$(echo "${times[bpindex]}" | tr ' ' '\n' | grep . | spread)"
	echo "#   bpindex plan: $(q -c "$settings" -c "SELECT app_plan(\$q\$${query//TAB/app_bpindex}\$q\$)" | tail -1)"
}

NL="SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_material = off;"
measure "count(*) of 250k equal keys (kind = 'checkout')" "" \
	"SELECT count(*) FROM TAB_events WHERE kind = 'checkout'"
measure "count(*) of 333k NULLs (order_id IS NULL)" "" \
	"SELECT count(*) FROM TAB_events WHERE order_id IS NULL"
measure "(kind, happened_at) range of one day" "" \
	"SELECT count(*), sum(payload) FROM TAB_events WHERE kind = 'cart' AND happened_at BETWEEN '2021-02-01' AND '2021-02-02'"
measure "nested loop probing events.order_id (2,000 orders)" "$NL" \
	"SELECT count(*), sum(e.payload) FROM TAB_orders o JOIN TAB_events e ON e.order_id = o.id WHERE o.customer_id <= $((1000 * SCALE))"
measure "20,000 point lookups, text email" "$NL" \
	"SELECT count(*) FROM generate_series(1, 20000) g JOIN TAB_customers c ON c.email = 'user' || (1 + g * 7919 % $CUSTOMERS) || '@example.com'"
measure "20,000 point lookups, uuid" "$NL" \
	"SELECT count(*) FROM generate_series(1, 20000) g JOIN TAB_customers c ON c.ext = md5((1 + g * 7919 % $CUSTOMERS)::text)::uuid"
measure "20,000 point lookups, (customer_id, created_at)" "$NL SET enable_bitmapscan = off;" \
	"SELECT count(*) FROM (SELECT customer_id, created_at FROM app_btree_orders WHERE id % 10 = 0) s JOIN TAB_orders o ON o.customer_id = s.customer_id AND o.created_at = s.created_at"
measure "keyset page, row comparison" "" \
	"SELECT * FROM TAB_orders WHERE (customer_id, created_at) > ($((CUSTOMERS / 2)), '2021-03-01') ORDER BY customer_id, created_at LIMIT 10"
measure "keyset page, leading column bound added" "" \
	"SELECT * FROM TAB_orders WHERE customer_id >= $((CUSTOMERS / 2)) AND (customer_id, created_at) > ($((CUSTOMERS / 2)), '2021-03-01') ORDER BY customer_id, created_at LIMIT 10"

# version churn: 100,000 updates of random rows that change v (indexed, so
# no HOT) and not k, in transactions of 5,000; growth of the index on k
declare -A growth
for am in btree bpindex; do
	growth[$am]=$(q <<SQL | tail -1
DROP TABLE IF EXISTS app_${am}_churn;
CREATE TABLE app_${am}_churn (id int8, k int8, v int4);
INSERT INTO app_${am}_churn SELECT g, g, 0 FROM generate_series(1, $((200000 * SCALE))) g;
CREATE INDEX app_${am}_churn_k ON app_${am}_churn USING $am (k);
CREATE INDEX app_${am}_churn_v ON app_${am}_churn USING $am (v);
VACUUM ANALYZE app_${am}_churn;
CREATE TEMP TABLE before AS SELECT pg_relation_size('app_${am}_churn_k') AS size;
SELECT setseed(0.25);
DO \$\$ BEGIN
  FOR r IN 1..20 LOOP
    UPDATE app_${am}_churn SET v = v + 1
    WHERE id IN (SELECT 1 + (random() * ($((200000 * SCALE)) - 1))::int8 FROM generate_series(1, $((5000 * SCALE))));
    COMMIT;
  END LOOP;
END \$\$;
SELECT round(pg_relation_size('app_${am}_churn_k')::numeric / size, 2) FROM before;
SQL
)
done
row "100k non-HOT updates, key unchanged: index growth" "${growth[btree]}" "${growth[bpindex]}" \
	"$(ratio "${growth[bpindex]}" "${growth[btree]}")" "-" "-"

# job queue: FOR UPDATE SKIP LOCKED over a partial index, 2 clients
cat > /tmp/app_queue_btree.sql <<'SQL'
BEGIN;
SELECT id FROM app_btree_jobs WHERE status = 'queued' ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED \gset
UPDATE app_btree_jobs SET status = 'done' WHERE id = :id;
COMMIT;
SQL
sed 's/app_btree_/app_bpindex_/g' /tmp/app_queue_btree.sql > /tmp/app_queue_bpindex.sql
declare -A tps
for am in btree bpindex; do tps[$am]=""; done
for r in $(seq 1 "$QUEUE_ROUNDS"); do
	for am in btree bpindex; do
		reset_queue "$am"
		tps[$am]+="$(pgbench -n -c 2 -j 2 -T "$QUEUE_SECONDS" -f /tmp/app_queue_$am.sql 2>/dev/null |
			grep -Eo 'tps = [0-9.]+' | tail -1 | grep -Eo '[0-9.]+') "
	done
done
qb=$(echo "${tps[btree]}" | tr ' ' '\n' | grep . | median)
qp=$(echo "${tps[bpindex]}" | tr ' ' '\n' | grep . | median)
row "job queue: SKIP LOCKED, partial index, 2 clients (tps)" "$qb" "$qp" "$(ratio "$qb" "$qp")" \
	"$(echo "${tps[btree]}" | tr ' ' '\n' | grep . | spread)" \
	"$(echo "${tps[bpindex]}" | tr ' ' '\n' | grep . | spread)"

# the queue drained before VACUUM: every entry of the partial index is dead
for am in btree bpindex; do
	q -c "UPDATE app_${am}_jobs SET status = 'done' WHERE status = 'queued'" \
		-c "SELECT id FROM app_${am}_jobs WHERE status = 'queued' ORDER BY run_at LIMIT 1" >/dev/null
done
measure "drained queue: ORDER BY run_at LIMIT 1 before VACUUM" "" \
	"SELECT id FROM TAB_jobs WHERE status = 'queued' ORDER BY run_at LIMIT 1"

# retention: the oldest 100,000 events deleted, before VACUUM
for am in btree bpindex; do
	q -c "DELETE FROM app_${am}_events WHERE happened_at < '2021-01-01'::timestamptz + $((100000 * SCALE)) * interval '10 s'" \
		-c "SELECT min(happened_at) FROM app_${am}_events" >/dev/null
done
measure "retention: min(happened_at) after deleting the oldest 100k" "" \
	"SELECT min(happened_at) FROM TAB_events"

q -c "DROP TABLE IF EXISTS app_btree_customers, app_btree_orders, app_btree_events, app_btree_churn, app_btree_jobs,
	app_bpindex_customers, app_bpindex_orders, app_bpindex_events, app_bpindex_churn, app_bpindex_jobs"
