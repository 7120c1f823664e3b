#!/bin/bash
# Inner part of copy_ascending.sh, run inside a throwaway cluster.
set -euo pipefail
data=$(mktemp -d)/keys.tsv
seq 1 "$ROWS" | awk '{print $1 "\t" $1 % 1000}' > "$data"
psql -X -q -c "CREATE EXTENSION IF NOT EXISTS bpindex"
echo "rows: $ROWS, repetitions: $REPS"
psql -X -At -c "SELECT 'settings: shared_buffers=' || current_setting('shared_buffers') || ', synchronous_commit=' || current_setting('synchronous_commit') || ', ' || version()"

# Seconds one COPY takes into a fresh table with the given index method.
copy_seconds() {
	local method=$1 index=""
	[ "$method" != none ] && index="CREATE INDEX ON copy_t USING $method (k);"
	psql -X -q -c "DROP TABLE IF EXISTS copy_t; CREATE TABLE copy_t (k int8, v int4); $index CHECKPOINT;"
	psql -X -q -At -c "\\timing on" -c "COPY copy_t FROM '$data'" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | awk '{printf "%.3f\n", $1 / 1000}'
}

declare -A times
for rep in $(seq 1 "$REPS"); do
	for method in none btree bpindex; do
		t=$(copy_seconds "$method")
		times[$method]="${times[$method]:-} $t"
		echo "rep $rep $method: $t s"
	done
done
psql -X -q -c "DROP TABLE IF EXISTS copy_t"

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
none=$(echo "${times[none]}" | median)
btree=$(echo "${times[btree]}" | median)
bp=$(echo "${times[bpindex]}" | median)
awk -v n="$none" -v b="$btree" -v p="$bp" 'BEGIN {
	printf "median seconds: no index %.2f, btree %.2f, bpindex %.2f\n", n, b, p;
	printf "index cost (seconds over no index): btree %.2f, bpindex %.2f\n", b - n, p - n;
	printf "ratio btree/bpindex of index cost: %.2f (above 1: bpindex faster)\n", (b - n) / (p - n);
}'
rm -f "$data"
