#!/bin/bash
# Retention benchmark: a table of ascending int8 keys whose oldest tenth is
# deleted and a tenth added at the top every cycle, then VACUUM, once with
# a bpindex index and once with a btree index (same data, same cluster,
# alternating within each cycle).  Prints, per cycle, both index sizes and
# the buffers and time of min(k), max(k) and the first 100 keys
# (ORDER BY k LIMIT 100), then checks the targets: bpindex's size after
# the last cycle within 10 % of cycle 2's and not above btree's, min()
# buffers at most btree's + 2.  Exits 1 if a target is missed.
#
#   bash bench/retention.sh [--pg 15|18] [rows] [cycles]
#
# Installs what is missing, builds and installs bpindex, runs in a
# throwaway cluster (shared_buffers 1GB, autovacuum off, the settings are
# printed), and writes bench/retention_results.txt (the table) and
# bench/retention.png (the plot).  Defaults: 1,000,000 rows, 20 cycles.
#
# Inner part: bench/retention_run.sh, which runs against any server given
# by PGHOST/PGPORT/PGDATABASE (with bpindex installed).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
. scripts/common.sh
. bench/lib/plot_venv.sh
. bench/lib/committed_run.sh

while [ $# -gt 0 ] && parse_pg_option "$@"; do
	select_pg "$PG_SELECTED"
	shift "$PG_ARGS_USED"
done
ROWS=${1:-1000000}
CYCLES=${2:-20}
SETTINGS=(shared_buffers=1GB max_wal_size=10GB checkpoint_timeout=1h
	synchronous_commit=off autovacuum=off)

install_dependencies
build_and_install
ensure_plot_venv "$ROOT"
prepare_workdir
[ "$WORKDIR" = "$ROOT" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

OUT=$ROOT/bench/retention_results.txt
{
	result_header bench/retention.sh "$ROWS" "$CYCLES"
	echo "# buffers: shared hit + read of the query's first run; ms: best of five runs"
} > "$OUT.new"
status=0
run_with_settings "$OUT.new" "${SETTINGS[@]}" -- bash bench/retention_run.sh "$ROWS" "$CYCLES" ||
	status=$?
mv "$OUT.new" "$OUT"
"$PLOT_PYTHON" bench/retention_plot.py "$OUT" "$ROOT/bench/retention.png"
echo "== wrote $OUT and bench/retention.png"
exit "$status"
