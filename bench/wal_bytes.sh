#!/bin/bash
# WAL bytes per inserted row: btree against bpindex, in one run, for
# random and ascending int8 keys and for random text keys, after a
# CHECKPOINT with full_page_writes on (so that every page's first change
# carries its image, as in production).  Each index's own WAL is read from
# pg_walinspect (its resource manager's records: Btree, bpindex), so the
# heap's records do not count; the total per row is shown too.
#
#   bash bench/wal_bytes.sh [--pg 15|18] [rows] [inserts]
#
# Installs what is missing, builds and installs bpindex, runs in a
# throwaway cluster and writes bench/wal_bytes_results.txt
# (bench/wal_bytes_results-pg18.txt for 18).  Default: 1,000,000 rows
# loaded and indexed, then 200,000 inserted in statements of 100 rows.
#
# Inner part: bench/wal_bytes_run.sh, which runs against any server given
# by PGHOST/PGPORT/PGDATABASE (with bpindex preloaded and pg_walinspect).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
. scripts/common.sh
. bench/lib/committed_run.sh

while [ $# -gt 0 ] && parse_pg_option "$@"; do
	select_pg "$PG_SELECTED"
	shift "$PG_ARGS_USED"
done
ROWS=${1:-1000000}
INSERTS=${2:-200000}
SETTINGS=(shared_buffers=1GB max_wal_size=10GB checkpoint_timeout=1h
	synchronous_commit=off autovacuum=off full_page_writes=on wal_compression=off
	wal_keep_size=8GB)

install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$ROOT" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

suffix=""
[ "$PG_MAJOR" = 15 ] || suffix="-pg$PG_MAJOR"
OUT=$ROOT/bench/wal_bytes_results$suffix.txt
result_header bench/wal_bytes.sh "$ROWS" "$INSERTS" > "$OUT.new"
status=0
run_with_settings "$OUT.new" "${SETTINGS[@]}" -- bash bench/wal_bytes_run.sh "$ROWS" "$INSERTS" ||
	status=$?
mv "$OUT.new" "$OUT"
echo "== wrote $OUT"
exit "$status"
