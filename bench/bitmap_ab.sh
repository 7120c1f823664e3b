#!/bin/bash
# The Bitmap Index Scan node's time with packed leaves against plain ones,
# beside btree, on one server: the full benchmark's map_range measurement
# (bench_bitmap_set: fixed ranges of up to 10,000 and 100,000 keys, each
# run through EXPLAIN ANALYZE, node times summed) on three copies of the
# full benchmark's table of 10M random int8 keys, indexed by btree, by
# bpindex and by bpindex WITH (packed_leaves = off).  The three alternate
# in every repetition, so a change of the machine's speed during the run
# hits all three alike.
#
#   bash bench/bitmap_ab.sh [--pg 15|18] [keys]
#
# Writes bench/bitmap_ab_results.txt.  Inner part: bench/bitmap_ab_run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
. scripts/common.sh
. bench/lib/committed_run.sh

while [ $# -gt 0 ] && parse_pg_option "$@"; do
	select_pg "$PG_SELECTED"
	shift "$PG_ARGS_USED"
done
KEYS=${1:-10000000}
# the full benchmark's settings (bench/run.sh)
SETTINGS=(shared_buffers=8GB synchronous_commit=off
	max_parallel_workers_per_gather=0 max_parallel_maintenance_workers=0
	maintenance_work_mem=1GB max_wal_size=32GB checkpoint_timeout=1h
	autovacuum=off jit=off)
# and its servers' malloc thresholds (bench/run.sh, bench/ANALYSIS.md)
MALLOC_ENV=(-e MALLOC_MMAP_THRESHOLD_=33554432 -e MALLOC_TRIM_THRESHOLD_=67108864)

install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$ROOT" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

suffix=""
[ "$PG_MAJOR" = 15 ] || suffix="-pg$PG_MAJOR"
OUT=$ROOT/bench/bitmap_ab_results$suffix.txt
result_header bench/bitmap_ab.sh "$KEYS" > "$OUT.new"
status=0
echo "# server environment: ${MALLOC_ENV[*]}" >> "$OUT.new"
run_with_settings "$OUT.new" "${SETTINGS[@]}" "${MALLOC_ENV[@]}" -- bash bench/bitmap_ab_run.sh "$KEYS" ||
	status=$?
mv "$OUT.new" "$OUT"
echo "== wrote $OUT"
exit "$status"
