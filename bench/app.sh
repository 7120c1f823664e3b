#!/bin/bash
# Application benchmark: the shapes an application schema runs (a job
# queue, retention, version churn, counts of equal keys, a composite range,
# nested-loop probes, point lookups on composite, uuid and text keys, a
# keyset page), once with every index a btree and once with every index a
# bpindex, in one cluster, the two alternating within each repetition.
# Prints, per shape, the median of each (ms, or transactions per second
# for the queue, or growth for the churn), the ratio bpindex / btree in
# "time" terms (below 1: bpindex faster or smaller) and the spread
# (min-max) of both.
#
#   bash bench/app.sh [--pg 15|18] [scale]
#
# Installs what is missing, builds and installs bpindex, runs in a
# throwaway cluster (settings printed), and writes bench/app_results.txt
# (a section per PostgreSQL version) and bench/app.png.  scale 1 (the
# default) is 1,000,000 events, 200,000 orders, 100,000 customers and
# 500,000 queued jobs.
#
# Inner part: bench/app_run.sh, which runs against any server given by
# PGHOST/PGPORT/PGDATABASE (with bpindex installed).
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
SCALE=${1:-1}
SETTINGS=(shared_buffers=1GB max_wal_size=10GB checkpoint_timeout=1h
	synchronous_commit=off autovacuum=off max_parallel_workers_per_gather=0
	jit=off)

install_dependencies
build_and_install
ensure_plot_venv "$ROOT"
prepare_workdir
[ "$WORKDIR" = "$ROOT" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

OUT=$ROOT/bench/app_results.txt
RUN=$OUT.pg$PG_MAJOR
{
	echo "## PostgreSQL $PG_MAJOR"
	result_header bench/app.sh "$SCALE"
} > "$RUN"
status=0
run_with_settings "$RUN" "${SETTINGS[@]}" -- bash bench/app_run.sh "$SCALE" || status=$?
{
	[ -f "$OUT" ] && awk -v v="## PostgreSQL $PG_MAJOR" \
		'/^## PostgreSQL / { keep = ($0 != v) } keep' "$OUT"
	cat "$RUN"
} > "$OUT.new"
rm -f "$RUN"
mv "$OUT.new" "$OUT"
"$PLOT_PYTHON" bench/app_plot.py "$OUT" "$ROOT/bench/app.png"
echo "== wrote $OUT and bench/app.png"
exit "$status"
