#!/bin/bash
# Feature benchmark: btree against bpindex, in one run, on what a btree
# user reaches for besides the thesis' workloads: an IN list of 100 keys
# with ORDER BY ... LIMIT (array keys, forward and backward), a count over
# a wide range by a parallel index-only scan with 2 workers (and serially,
# for reference), and CREATE INDEX with 2 workers (and serially).  Times
# are the best of five runs (queries) or one run (builds) per index.
#
#   bash bench/features.sh [--pg 15|18] [rows]
#
# Installs what is missing, builds and installs bpindex, runs in a
# throwaway cluster (the settings are printed) and writes
# bench/features_results.txt (bench/features_results-pg18.txt for 18).
# Default: 10,000,000 rows (a few minutes on 2 cores).
#
# Inner part: bench/features_run.sh, which runs against any server given
# by PGHOST/PGPORT/PGDATABASE (with bpindex installed).
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
SETTINGS=(shared_buffers=2GB max_wal_size=10GB checkpoint_timeout=1h
	synchronous_commit=off autovacuum=off max_worker_processes=8
	max_parallel_workers=4 jit=off)

install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$ROOT" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

suffix=""
[ "$PG_MAJOR" = 15 ] || suffix="-pg$PG_MAJOR"
OUT=$ROOT/bench/features_results$suffix.txt
result_header bench/features.sh "$ROWS" > "$OUT.new"
status=0
run_with_settings "$OUT.new" "${SETTINGS[@]}" -- bash bench/features_run.sh "$ROWS" ||
	status=$?
mv "$OUT.new" "$OUT"
echo "== wrote $OUT"
exit "$status"
