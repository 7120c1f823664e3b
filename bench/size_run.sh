#!/bin/bash
# Inner part of bench/size.sh: runs against the server given by the PG*
# environment variables.  Arguments: rows, inserted rows.
#
# For each dataset, one table with a btree and a bpindex index on the same
# columns: sizes after CREATE INDEX and after the inserts (both indexes
# take them), and bpindex's average leaf fill and bytes per stored entry.
set -euo pipefail
ROWS=${1:-10000000}
INSERTS=${2:-1000000}
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# name | columns | SELECT of row g (for g = 1..ROWS, then ROWS+1..ROWS+INSERTS)
DATASETS=(
	"asc_int8|k int8|g::int8"
	"asc_timestamptz|k timestamptz|timestamptz '2020-01-01' + g * interval '1 second'"
	"random_int8|k int8|(random() * 9.2e18)::int8"
	"random_int4|k int4|(random() * 2.1e9)::int4"
	"int8_1000|k int8|(random() * 999)::int8"
	"int4_100|k int4|(random() * 99)::int4"
	"int2_30k|k int2|(random() * 29999)::int2"
	"uuid|k uuid|md5(random()::text || g)::uuid"
	"int4_timestamptz|a int4, b timestamptz|(random() * 999)::int4, timestamptz '2020-01-01' + g * interval '1 second'"
	"int8x4|a int8, b int8, c int8, d int8|(random() * 99)::int8, (random() * 9999)::int8, (random() * 999999)::int8, (random() * 9.2e18)::int8"
)

q -c "CREATE EXTENSION IF NOT EXISTS bpindex"
printf '%-18s %-6s %12s %12s %7s %9s %9s\n' dataset phase btree_kB bpindex_kB ratio leaf_fill entry_B
for spec in "${DATASETS[@]}"; do
	IFS='|' read -r name columns expr <<<"$spec"
	keys=$(echo "$columns" | sed -E 's/ [a-z0-9]+( with time zone)?(,|$)/\2/g')
	q <<SQL
DROP TABLE IF EXISTS size_t;
CREATE TABLE size_t ($columns);
INSERT INTO size_t SELECT $expr FROM generate_series(1, $ROWS) g;
VACUUM ANALYZE size_t;
CREATE INDEX size_t_btree ON size_t ($keys);
CREATE INDEX size_t_bpindex ON size_t USING bpindex ($keys);
SQL
	for phase in build insert; do
		if [ "$phase" = insert ]; then
			q -c "INSERT INTO size_t SELECT $expr FROM generate_series($((ROWS + 1)), $((ROWS + INSERTS))) g"
		fi
		line=$(q -F ' ' <<SQL
SELECT pg_relation_size('size_t_btree') / 1024, pg_relation_size('size_t_bpindex') / 1024,
       round(pg_relation_size('size_t_bpindex')::numeric / pg_relation_size('size_t_btree'), 3),
       round(avg_leaf_fill::numeric, 3), round(avg_entry_bytes::numeric, 2)
FROM bpindex_stats('size_t_bpindex')
SQL
)
		# shellcheck disable=SC2086
		printf '%-18s %-6s %12s %12s %7s %9s %9s\n' "$name" "$phase" $line
	done
	# the index answers as a sequential scan does
	same=$(q <<SQL
SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = on;
SET enable_indexscan = off;
DROP INDEX size_t_btree;
SELECT (SELECT count(*) FROM size_t WHERE ($keys) IS NOT NULL) =
       (SELECT count(*) FROM (SELECT $keys FROM size_t ORDER BY $keys) s WHERE ($keys) IS NOT NULL);
SQL
)
	[ "$same" = t ] || { echo "$name: the bpindex scan disagrees with the table" >&2; exit 1; }
done
q -c "DROP TABLE size_t"
