#!/bin/bash
# Text keys: btree against bpindex, in one run, on three kinds of text
# columns (random emails, URL-like paths with a long shared prefix, short
# codes with duplicates), each under the "C" collation and under a
# linguistic one (ICU's root collation where the server has ICU, else the
# database's default): CREATE INDEX time, index size, point lookups (a
# nested-loop probe join of random keys, inner Index Only Scan), ordered
# ranges of 10,000 keys (Index Only Scan) and random inserts in statements
# of 1,000 rows (the index's own cost: time with the index minus without).
# Times are the best of three runs (queries) or one run (builds, inserts).
#
#   bash bench/text.sh [--pg 15|18] [rows]
#
# Installs what is missing, builds and installs bpindex, runs in a
# throwaway cluster (the settings are printed) and writes
# bench/text_results.txt (bench/text_results-pg18.txt for 18).
# Default: 10,000,000 rows per column.
#
# Inner part: bench/text_run.sh, which runs against any server given by
# PGHOST/PGPORT/PGDATABASE (with bpindex installed).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
. scripts/common.sh
. bench/lib/committed_run.sh

while [ $# -gt 0 ] && parse_pg_option "$@"; do
	select_pg "$PG_SELECTED"
	shift "$PG_ARGS_USED"
done
ROWS=${1:-10000000}
SETTINGS=(shared_buffers=4GB max_wal_size=20GB checkpoint_timeout=1h
	synchronous_commit=off autovacuum=off maintenance_work_mem=1GB
	max_parallel_maintenance_workers=0 max_parallel_workers_per_gather=0
	jit=off)

install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$ROOT" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

suffix=""
[ "$PG_MAJOR" = 15 ] || suffix="-pg$PG_MAJOR"
OUT=$ROOT/bench/text_results$suffix.txt
result_header bench/text.sh "$ROWS" > "$OUT.new"
status=0
run_with_settings "$OUT.new" "${SETTINGS[@]}" -- bash bench/text_run.sh "$ROWS" ||
	status=$?
mv "$OUT.new" "$OUT"
echo "== wrote $OUT"
exit "$status"
