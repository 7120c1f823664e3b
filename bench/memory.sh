#!/bin/bash
# Larger than memory: btree against bpindex when the index does not fit in
# shared buffers and there is no kernel page cache behind them
# (debug_io_direct = data), with shared buffers between the sizes of the
# two indexes: bpindex fits, btree does not.  The same random int8 keys in
# two tables, one index each; index-only point lookups and ranges of 10,000
# keys, cold (nothing of the index in memory) and in a steady state (each
# index alone in shared buffers, warmed by lookups of other keys than the
# measured ones), three repetitions, btree and bpindex alternating.
#
#   bash bench/memory.sh [--pg 18] [rows]
#
# PostgreSQL 18 only (15 has no debug_io_direct).  Installs what is
# missing, builds and installs bpindex, runs in a throwaway cluster (the
# settings are printed) and writes bench/memory_results.txt.  Default:
# 10,000,000 rows, shared buffers of 13 MB per million rows.
#
# Inner part: bench/memory_run.sh, which runs against any server given by
# PGHOST/PGPORT/PGDATABASE (PostgreSQL 18 with bpindex and pg_buffercache).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
. scripts/common.sh
. bench/lib/committed_run.sh

select_pg 18
while [ $# -gt 0 ] && parse_pg_option "$@"; do
	select_pg "$PG_SELECTED"
	shift "$PG_ARGS_USED"
done
if [ "$PG_MAJOR" = 15 ]; then
	echo "bench/memory.sh: PostgreSQL 15 has no debug_io_direct; use --pg 18" >&2
	exit 2
fi
ROWS=${1:-10000000}
SETTINGS=("shared_buffers=$(( ROWS * 13 / 1000000 < 4 ? 4 : ROWS * 13 / 1000000 ))MB"
	debug_io_direct=data max_wal_size=20GB checkpoint_timeout=1h
	synchronous_commit=off autovacuum=off maintenance_work_mem=1GB
	max_parallel_maintenance_workers=0 max_parallel_workers_per_gather=0
	jit=off)

install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$ROOT" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

OUT=$ROOT/bench/memory_results.txt
result_header bench/memory.sh "$ROWS" > "$OUT.new"
status=0
run_with_settings "$OUT.new" "${SETTINGS[@]}" -- bash bench/memory_run.sh "$ROWS" ||
	status=$?
mv "$OUT.new" "$OUT"
echo "== wrote $OUT"
exit "$status"
