#!/bin/bash
# Size benchmark: btree (with its deduplication) against bpindex on ten
# datasets (ascending ids and timestamps, random int8 and int4, columns
# with few values, uuid, two multi-column keys), after CREATE INDEX and
# after random inserts, in one run; then the effect of the smaller index:
# point lookups and 10k-row ranges on ascending ids with shared_buffers
# between the two indexes' sizes.  Checks the targets (ascending ids and
# timestamps <= 0.35x btree, random int8 <= 0.75x, columns with few values
# <= 0.8x, no dataset above 1.0x) and exits 1 if one is missed.
#
#   bash bench/size.sh [--pg 15|18] [rows] [inserted rows]
#
# Installs what is missing, builds and installs bpindex, runs in throwaway
# clusters (the settings are printed), writes bench/size_results.txt
# (bench/size_results-pg18.txt for 18) and bench/size.png.  Defaults:
# 10,000,000 rows and 1,000,000 inserts (about 30 minutes on 2 cores).
#
# Inner parts: bench/size_run.sh and bench/cache_run.sh, which run against
# any server given by PGHOST/PGPORT/PGDATABASE (with bpindex installed).
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
ROWS=${1:-10000000}
INSERTS=${2:-$((ROWS / 10))}
SETTINGS=(shared_buffers=2GB maintenance_work_mem=1GB max_wal_size=10GB
	checkpoint_timeout=1h synchronous_commit=off autovacuum=off)
CACHE_SETTINGS=(shared_buffers=128MB max_wal_size=10GB checkpoint_timeout=1h
	synchronous_commit=off autovacuum=off)

install_dependencies
build_and_install
ensure_plot_venv "$ROOT"
prepare_workdir
[ "$WORKDIR" = "$ROOT" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

suffix=""
[ "$PG_MAJOR" = 15 ] || suffix="-pg$PG_MAJOR"
OUT=$ROOT/bench/size_results$suffix.txt
result_header bench/size.sh "$ROWS" "$INSERTS" > "$OUT.new"
status=0
run_with_settings "$OUT.new" "${SETTINGS[@]}" -- bash bench/size_run.sh "$ROWS" "$INSERTS" ||
	status=$?
[ "$status" = 0 ] || { mv "$OUT.new" "$OUT"; exit "$status"; }

echo "# settings: ${CACHE_SETTINGS[*]}" | tee -a "$OUT.new"
run_with_settings "$OUT.new" "${CACHE_SETTINGS[@]}" -- bash bench/cache_run.sh "$ROWS" ||
	status=$?

# the targets, from the table's ratio column
awk '
	$2 != "build" && $2 != "insert" { next }
	{ limit = 1.0 }
	$1 ~ /^asc_/ { limit = 0.35 }
	$1 == "random_int8" { limit = 0.75 }
	$1 == "int8_1000" || $1 == "int4_100" { limit = 0.8 }
	{
		verdict = ($5 <= limit) ? "met" : "MISSED"
		if (verdict == "MISSED") missed = 1
		printf "target %s: %s %s %.3fx btree (<= %.2f)\n", verdict, $1, $2, $5, limit
	}
	END { exit missed }
' "$OUT.new" | tee -a "$OUT.new"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
mv "$OUT.new" "$OUT"
"$PLOT_PYTHON" bench/size_plot.py "$OUT" "$ROOT/bench/size$suffix.png"
echo "== wrote $OUT and bench/size$suffix.png"
exit "$status"
