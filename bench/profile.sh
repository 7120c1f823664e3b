#!/bin/bash
# Where the time goes: CPU profiles (perf) of the benchmark's read workloads
# on btree and on bpindex, for the explanations in bench/ANALYSIS.md.
#
#   bash bench/profile.sh [--keys N] [--seconds S]
#
# Builds and installs bpindex, starts a throwaway cluster, loads N uniform
# int8 keys (default 2,000,000) into two tables as bench/run.sh does, and
# for every workload and index runs pgbench (2 clients) while perf samples
# the server's processes. The samples are split into the index's own code
# (bpindex.so; nbtree's functions for btree), the bitmap (tidbitmap.c), the
# heap and visibility map, the executor and the rest. Writes
# bench/results/profile/profile.md and profile.json. Needs root or sudo (for perf
# and to run the server as the postgres user).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=../scripts/common.sh
. scripts/common.sh

NKEYS=2000000
SECONDS_PER_RUN=8
while [ $# -gt 0 ]; do
	case $1 in
		--keys) NKEYS=$2; shift 2 ;;
		--seconds) SECONDS_PER_RUN=$2; shift 2 ;;
		*) echo "usage: bash bench/profile.sh [--keys N] [--seconds S]" >&2; exit 2 ;;
	esac
done

install_dependencies
command -v perf >/dev/null || {
	$SUDO apt-get update -qq
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-perf >/dev/null
}
build_and_install

TMP=$(mktemp -d /tmp/bpindex-profile.XXXXXX)
chmod 755 "$TMP"
DATA=$TMP/data
PORT=54329
export PGHOST=$TMP PGPORT=$PORT PGUSER=postgres PGDATABASE=postgres
run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }
$SUDO chown postgres "$TMP"
stop_cluster() { run_pg "$PG_BIN/pg_ctl" -D "$DATA" -m immediate stop >/dev/null 2>&1 || true; $SUDO rm -rf "$TMP"; }
trap stop_cluster EXIT
run_pg "$PG_BIN/initdb" -D "$DATA" -A trust >/dev/null
cat <<EOF | run_pg tee -a "$DATA/postgresql.conf" >/dev/null
port = $PORT
unix_socket_directories = '$TMP'
listen_addresses = ''
shared_preload_libraries = 'bpindex'
shared_buffers = 2GB
synchronous_commit = off
max_parallel_workers_per_gather = 0
autovacuum = off
jit = off
max_wal_size = 8GB
maintenance_work_mem = 1GB
max_parallel_maintenance_workers = 0
EOF
# the same fixed malloc thresholds as bench/run.sh (see there)
run_pg env MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=67108864 \
	"$PG_BIN/pg_ctl" -D "$DATA" -l "$TMP/log" -w start >/dev/null

q() { "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }
echo "== loading $NKEYS keys"
q -c "CREATE EXTENSION bpindex" -c "CREATE EXTENSION pg_prewarm" \
  -c "CREATE TABLE keys AS SELECT g AS id, hashint8extended(g, 1) >> 1 AS k
      FROM generate_series(1, $NKEYS) g"
# as bench/run.sh loads them; VACUUM until the visibility map is set
# (index-only scans must not visit the heap)
for idx in btree bpindex; do
	q -c "CREATE TABLE bench_$idx (k int8 NOT NULL, payload int8 NOT NULL)" \
	  -c "INSERT INTO bench_$idx SELECT k, id FROM keys" \
	  -c "CREATE INDEX bench_${idx}_k ON bench_$idx USING $idx (k)"
	for attempt in 1 2 3; do
		q -c "CHECKPOINT" -c "VACUUM ANALYZE bench_$idx"
		[ "$(q -c "SELECT relallvisible = relpages FROM pg_class WHERE relname = 'bench_$idx'")" = t ] && break
		[ "$attempt" = 3 ] && { echo "profile: the visibility map of bench_$idx is not set" >&2; exit 1; }
	done
done
q -c "CREATE SEQUENCE ins_batch" -c "CREATE TABLE probe AS SELECT k FROM keys ORDER BY hashint8extended(id, 3)
      LIMIT $((NKEYS / 10))" -c "VACUUM ANALYZE probe"
q -c "SELECT pg_prewarm(c) FROM unnest(ARRAY['bench_btree', 'bench_bpindex', 'probe',
      'bench_btree_k', 'bench_bpindex_k']) c" >/dev/null

SPACING=$(( (1 << 62) / NKEYS * 2 ))
ORDERED="-c enable_seqscan=off -c enable_bitmapscan=off -c enable_sort=off"
BITMAP="-c enable_seqscan=off -c enable_indexscan=off -c enable_indexonlyscan=off"
# name | PGOPTIONS | pgbench templates, each with an optional @weight (or sql:
# a statement run once) | max_len
WORKLOADS=(
	"build (CREATE INDEX)||sql:CREATE INDEX bench_@I@_k2 ON bench_@I@ USING @I@ (k)|0"
	"probe join||sql:SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_memoize = off; SELECT count(*) FROM probe p JOIN bench_@I@ t ON t.k = p.k|0"
	"find|$ORDERED|find_uniform.sql|0"
	"iterate_range 100,000, index only|$ORDERED|iterate_k_uniform.sql|100000"
	"iterate_range 10,000, with payload (YCSB X)|$ORDERED|iterate_k_payload_uniform.sql|10000"
	"map_range 10,000 (YCSB Y)|$BITMAP|map_uniform.sql|10000"
	"map_range 100,000|$BITMAP|map_uniform.sql|100000"
	"YCSB E (uniform)|$ORDERED|iterate_k_payload_uniform.sql@95 insert_uniform.sql@5|100"
	"insert, one row, uniform keys (YCSB Load)||insert_uniform.sql|0"
	"insert, 1,000 ascending keys a statement||ins_ascending.sql|0"
)

OUT=$ROOT/bench/results/profile
mkdir -p "$OUT"
REPORTS=$TMP/reports
mkdir -p "$REPORTS"
: > "$REPORTS/runs.tsv"
n=0
for w in "${WORKLOADS[@]}"; do
	IFS='|' read -r name opts template maxlen <<< "$w"
	for idx in btree bpindex; do
		n=$((n + 1))
		echo "== $name, $idx"
		if [[ $template == sql:* ]]; then
			# one statement, perf on the whole machine for its duration
			statement=${template#sql:}
			statement=${statement//@I@/$idx}
			$SUDO perf record -q -F 999 -g -a -o "$TMP/perf.data" -- \
				"$PG_BIN/psql" -X -q -c '\timing on' -c "$statement" > "$TMP/psql.out" 2>&1
			ms=$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' "$TMP/psql.out" | tail -n 1)
			tps=$(python3 -c "print(1000 / $ms)")
			q -c "DROP INDEX IF EXISTS bench_${idx}_k2"
		else
			scripts=()
			for part in $template; do
				file=${part%@*}
				weight=""
				[[ $part == *@* ]] && weight="@${part##*@}"
				script=$TMP/script${#scripts[@]}.sql
				sed "s/@T@/bench_$idx/g" "bench/pgbench/$file" > "$script"
				scripts+=(-f "$script$weight")
			done
			# as the benchmark does: each run starts from a checkpoint, so the
			# WAL it writes does not depend on what the run before it wrote
			q -c "ALTER SEQUENCE ins_batch RESTART" -c "CHECKPOINT"
			PGOPTIONS="$opts" "$PG_BIN/pgbench" -n -M prepared -c 2 -j 2 -T "$SECONDS_PER_RUN" \
				-D nkeys="$NKEYS" -D spacing="$SPACING" -D maxlen="$maxlen" \
				"${scripts[@]}" > "$TMP/pgbench.out" 2>&1 &
			bench=$!
			sleep 1
			pids=$(pgrep -d, -P "$(head -n 1 "$DATA/postmaster.pid")" -f "postgres: postgres postgres")
			$SUDO perf record -q -F 999 -g -p "$pids" -o "$TMP/perf.data" \
				-- sleep $((SECONDS_PER_RUN - 2)) 2>/dev/null
			wait "$bench"
			tps=$(sed -n 's/^tps = \([0-9.]*\) (without.*/\1/p' "$TMP/pgbench.out")
		fi
		$SUDO perf report -i "$TMP/perf.data" --stdio --no-children -g none \
			--comm postgres --sort dso,sym --percent-limit 0 2>/dev/null > "$REPORTS/$n.txt"
		printf '%s\t%s\t%s\t%s\n' "$n" "$name" "$idx" "$tps" >> "$REPORTS/runs.tsv"
	done
done

python3 bench/lib/profile_report.py "$REPORTS" "$OUT/profile.md" "$OUT/profile.json" "$NKEYS"
echo "== done: bench/results/profile/profile.md"
