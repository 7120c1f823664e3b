#!/bin/bash
# Inner part of bench/bitmap_ab.sh: runs against the server given by the
# PG* environment variables.  Argument: keys.
set -euo pipefail
KEYS=${1:-10000000}
REPS=4
NRANGES=500
# a range of width SPACING holds one key on average (bench/lib/in_cluster.sh)
SPACING=$(( (1 << 62) / KEYS * 2 ))
q() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

q -c "CREATE EXTENSION IF NOT EXISTS bpindex" -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm"
q -f "$(dirname "$0")/lib/functions.sql"
q <<SQL
CREATE TABLE keys AS SELECT g AS id, hashint8extended(g, 1) >> 1 AS k
FROM generate_series(1, $KEYS) g;
CREATE TABLE bench_btree (k int8 NOT NULL, payload int8 NOT NULL);
CREATE TABLE bench_packed (k int8 NOT NULL, payload int8 NOT NULL);
CREATE TABLE bench_plain (k int8 NOT NULL, payload int8 NOT NULL);
INSERT INTO bench_btree SELECT k, id FROM keys;
INSERT INTO bench_packed SELECT k, id FROM keys;
INSERT INTO bench_plain SELECT k, id FROM keys;
CREATE INDEX bench_btree_k ON bench_btree USING btree (k);
CREATE INDEX bench_packed_k ON bench_packed USING bpindex (k);
CREATE INDEX bench_plain_k ON bench_plain USING bpindex (k) WITH (packed_leaves = off);
VACUUM ANALYZE;
CHECKPOINT;
SQL
echo "index sizes: $(q -c "SELECT string_agg(format('%s %s', relname, pg_size_pretty(pg_relation_size(oid))), ', ' ORDER BY relname) FROM pg_class WHERE relname LIKE 'bench\_%\_k'")"

# warm: every table and index in shared buffers
for t in btree packed plain; do
	q -c "SELECT bench_prewarm('bench_$t')" > /dev/null
	q -c "SELECT * FROM bench_bitmap_set('bench_$t', 100000, 50, $SPACING)" > /dev/null
done

RAW=$(mktemp)
for rep in $(seq 1 $REPS); do
	for maxlen in 100000 10000; do
		for t in btree packed plain; do
			echo "$maxlen $t $(q -F ' ' -c "SELECT node_ms, node_rows FROM bench_bitmap_set('bench_$t', $maxlen, $NRANGES, $SPACING)")" >> "$RAW"
		done
	done
done
echo "Bitmap Index Scan node time, ms summed over $NRANGES ranges (mean of $REPS repetitions), and ratio to btree"
printf '%-22s | %10s | %10s | %10s | %6s | %6s\n' "ranges of up to" btree packed plain packed plain
awk -v reps="$REPS" '
	{ ms[$1 " " $2] += $3; rows[$1 " " $2] = $4 }
	END {
		for (m = 100000; m >= 10000; m /= 10) {
			bt = ms[m " btree"] / reps; pk = ms[m " packed"] / reps; pl = ms[m " plain"] / reps
			if (rows[m " packed"] != rows[m " btree"] || rows[m " plain"] != rows[m " btree"])
				{ print "rows differ for " m; exit 1 }
			printf "%-22s | %10.1f | %10.1f | %10.1f | %6.2f | %6.2f\n", m " keys", bt, pk, pl, pk / bt, pl / bt
		}
	}' "$RAW"
echo "per repetition (maxlen index node_ms rows):"
cat "$RAW"
rm -f "$RAW"
