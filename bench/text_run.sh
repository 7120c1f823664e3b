#!/bin/bash
# Inner part of bench/text.sh: runs against the server given by the PG*
# environment variables.  Argument: rows per column.
set -euo pipefail
ROWS=${1:-10000000}
NPROBE=$(( ROWS / 10 < 100000 ? ROWS / 10 : 100000 ))
NRANGES=100
NINSERT=$(( ROWS / 10 < 200000 ? ROWS / 10 : 200000 ))
REPS=3
q() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# the linguistic collation: ICU's root collation if the server has ICU
LING=$(q -c "SELECT coalesce((SELECT 'und-x-icu' FROM pg_collation WHERE collname = 'und-x-icu'), 'default')")

q <<SQL
CREATE EXTENSION IF NOT EXISTS bpindex;
-- the keys of each kind, in random heap order
CREATE OR REPLACE FUNCTION text_key(kind text, g int8) RETURNS text
LANGUAGE sql IMMUTABLE AS \$\$
    SELECT CASE kind
        WHEN 'email' THEN substr(md5(g::text), 1, (4 + g % 7)::int) || '.'
                          || substr(md5((g * 7)::text), 1, (3 + g % 5)::int) || '@'
                          || (ARRAY['gmail.com', 'example.org', 'mail.example.net',
                                    'corp.example.com'])[(1 + g % 4)::int]
        WHEN 'url' THEN 'https://www.example.com/products/category-' || (g % 100)
                        || '/item/' || lpad((hashint8(g) & 2147483647)::text, 10, '0')
        ELSE upper(substr(md5((g % ($ROWS / 4))::text), 1, 6))
    END
\$\$;
-- execution time in ms of one query, from EXPLAIN ANALYZE, and its scan node
CREATE OR REPLACE FUNCTION text_measure(query text, OUT ms float8, OUT node text)
LANGUAGE plpgsql AS \$\$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO plan;
    ms := (plan->0->>'Execution Time')::float8;
    node := coalesce((regexp_match(plan::text, '"Node Type": "(Index Only Scan|Index Scan|Bitmap Index Scan)"'))[1],
                     (regexp_match(plan::text, '"Node Type": "(Seq Scan)"'))[1]);
END
\$\$;
-- ms to run an ordered range of 10,000 keys from each of the starts
CREATE OR REPLACE FUNCTION text_ranges(tab text, starts text[]) RETURNS float8
LANGUAGE plpgsql AS \$\$
DECLARE
    t0 timestamptz := clock_timestamp();
    n bigint;
BEGIN
    FOR i IN 1 .. array_length(starts, 1) LOOP
        EXECUTE format('SELECT count(*) FROM (SELECT k FROM %I WHERE k >= \$1 ORDER BY k LIMIT 10000) s', tab)
        INTO n USING starts[i];
    END LOOP;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END
\$\$;
SQL

printf '%-58s | %10s | %10s | %5s | %s\n' workload btree bpindex ratio "scan node (btree / bpindex)"

# ratio of bpindex's to btree's number
ratio() { echo "$1 $2" | awk '{ if ($2 > 0) printf "%.2f", $1 / $2; else print "-" }'; }

for kind in email url code; do
	for coll in C "$LING"; do
		label="$kind, $(echo "$coll" | sed 's/default/database default/')"
		q <<SQL
DROP TABLE IF EXISTS tk_btree, tk_bpindex, tk_probe, tk_new;
CREATE TABLE tk_btree (k text COLLATE "$coll", v int4);
INSERT INTO tk_btree SELECT text_key('$kind', g), g FROM generate_series(1, $ROWS) g
  ORDER BY hashint8(g);
CREATE TABLE tk_bpindex (LIKE tk_btree);
INSERT INTO tk_bpindex SELECT * FROM tk_btree;
CREATE TABLE tk_probe AS SELECT k FROM tk_btree ORDER BY hashint8(v + 1) LIMIT $NPROBE;
CREATE TABLE tk_new AS SELECT text_key('$kind', g)::text COLLATE "$coll" AS k, g::int4 AS v
  FROM generate_series($ROWS + 1, $ROWS + $NINSERT) g ORDER BY hashint8(g);
CREATE INDEX ON tk_new (v);
VACUUM ANALYZE tk_btree, tk_bpindex, tk_probe, tk_new;
CHECKPOINT;
SQL
		declare -A build size probe ranges insert node_probe node_range
		for idx in btree bpindex; do
			build[$idx]=$(q <<SQL | grep -Eo '[0-9]+\.[0-9]+' | head -1
\timing on
CREATE INDEX tk_${idx}_k ON tk_$idx USING $idx (k);
SQL
)
			q -c "VACUUM ANALYZE tk_$idx"
			size[$idx]=$(q -c "SELECT round(pg_relation_size('tk_${idx}_k') / 1048576.0, 1)")
			read -r probe[$idx] node_probe[$idx] < <(q -F ' ' <<SQL
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_memoize = off;
SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT round(min(ms)::numeric, 1), min(node) FROM (
  SELECT (text_measure('SELECT count(*) FROM tk_probe p JOIN tk_$idx t ON t.k = p.k')).*
  FROM generate_series(1, $REPS)) m;
SQL
)
			ranges[$idx]=$(q <<SQL
SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT round(min(text_ranges('tk_$idx', (SELECT array_agg(k) FROM (SELECT k FROM tk_probe LIMIT $NRANGES) s)))::numeric, 1)
FROM generate_series(1, $REPS);
SQL
)
			node_range[$idx]=$(q -c "SET enable_seqscan = off; SET enable_bitmapscan = off;
				SELECT node FROM text_measure('SELECT k FROM tk_$idx WHERE k >= ''a'' ORDER BY k LIMIT 10000')")
		done
		# inserts: the index's own cost, against the same load without an index
		for idx in none btree bpindex; do
			insert[$idx]=$(q <<SQL
DROP TABLE IF EXISTS tk_ins;
CREATE TABLE tk_ins (LIKE tk_btree);
INSERT INTO tk_ins SELECT * FROM tk_btree;
$( [ "$idx" = none ] || echo "CREATE INDEX ON tk_ins USING $idx (k);" )
CHECKPOINT;
CREATE OR REPLACE FUNCTION pg_temp.load() RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
    FOR i IN 0 .. ($NINSERT - 1) / 1000 LOOP
        INSERT INTO tk_ins SELECT * FROM tk_new
          WHERE v > $ROWS + i * 1000 AND v <= $ROWS + (i + 1) * 1000;
    END LOOP;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END \$\$;
SELECT round(pg_temp.load()::numeric, 1);
SQL
)
		done
		own_bt=$(echo "${insert[btree]} ${insert[none]}" | awk '{printf "%.1f", $1 - $2}')
		own_bp=$(echo "${insert[bpindex]} ${insert[none]}" | awk '{printf "%.1f", $1 - $2}')
		printf '%-58s | %10s | %10s | %5s |\n' "$label: CREATE INDEX, ms" "${build[btree]}" "${build[bpindex]}" "$(ratio "${build[bpindex]}" "${build[btree]}")"
		printf '%-58s | %10s | %10s | %5s |\n' "$label: index size, MB" "${size[btree]}" "${size[bpindex]}" "$(ratio "${size[bpindex]}" "${size[btree]}")"
		printf '%-58s | %10s | %10s | %5s | %s / %s\n' "$label: probe join of $NPROBE keys, ms" "${probe[btree]}" "${probe[bpindex]}" "$(ratio "${probe[bpindex]}" "${probe[btree]}")" "${node_probe[btree]}" "${node_probe[bpindex]}"
		printf '%-58s | %10s | %10s | %5s | %s / %s\n' "$label: $NRANGES ordered ranges of 10,000 keys, ms" "${ranges[btree]}" "${ranges[bpindex]}" "$(ratio "${ranges[bpindex]}" "${ranges[btree]}")" "${node_range[btree]}" "${node_range[bpindex]}"
		printf '%-58s | %10s | %10s | %5s | %s\n' "$label: $NINSERT inserts, index's own ms" "$own_bt" "$own_bp" "$(ratio "$own_bp" "$own_bt")" "load without an index ${insert[none]} ms"
	done
done
q -c "DROP TABLE IF EXISTS tk_btree, tk_bpindex, tk_probe, tk_new, tk_ins"
