#!/bin/bash
# Skip scans: btree against bpindex, in one run: SELECT * FROM t WHERE
# b = c on an index on (a, b) with 10, 100 and 10,000 values of a, and the
# IN-list (5 values) and range (100 values) forms of it, and a IN (2
# values) AND b = c on (a, m, b) with 100 values of m, each with the
# plan the planner chooses and with the index forced (no sequential or
# bitmap scan).  Times, in ms to four decimals, are the best of two
# passes of eleven rounds, btree and bpindex alternating, each round a
# loop of about 20 ms of executions of the query planned once
# (skip_measure in bench/skip_scan_run.sh); the scan node and, on 18, the
# index searches are printed beside them.
#
#   bash bench/skip_scan.sh [--pg 15|18] [rows]
#
# Installs what is missing, builds and installs bpindex, runs in a
# throwaway cluster (the settings are printed) and replaces the section of
# that PostgreSQL version in bench/skip_scan_results.txt.  Default:
# 1,000,000 rows.
#
# Inner part: bench/skip_scan_run.sh, which runs against any server given
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
ROWS=${1:-1000000}
SETTINGS=(shared_buffers=1GB max_wal_size=20GB checkpoint_timeout=1h
	synchronous_commit=off autovacuum=off maintenance_work_mem=1GB
	max_parallel_maintenance_workers=0 max_parallel_workers_per_gather=0
	jit=off)

install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$ROOT" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

OUT=$ROOT/bench/skip_scan_results.txt
RUN=$OUT.pg$PG_MAJOR
{
	echo "## PostgreSQL $PG_MAJOR"
	result_header bench/skip_scan.sh "$ROWS"
} > "$RUN"
status=0
run_with_settings "$RUN" "${SETTINGS[@]}" -- bash bench/skip_scan_run.sh "$ROWS" ||
	status=$?
# the other versions' sections stay, this one's is replaced
{
	[ -f "$OUT" ] && awk -v v="## PostgreSQL $PG_MAJOR" \
		'/^## PostgreSQL / { keep = ($0 != v) } keep' "$OUT"
	cat "$RUN"
} > "$OUT.new"
rm -f "$RUN"
mv "$OUT.new" "$OUT"
echo "== wrote $OUT"
exit "$status"
