#!/bin/bash
# The main job: install what is missing, build and install bpindex, start
# a throwaway cluster, load a million rows, build a btree and a bpindex
# index on the same data and show their plans, sizes and timings.
#
#   bash scripts/demo.sh [--pg 15|18]     (PostgreSQL 15 unless told)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

while [ $# -gt 0 ]; do
	if parse_pg_option "$@"; then
		select_pg "$PG_SELECTED"
		shift "$PG_ARGS_USED"
		continue
	fi
	echo "usage: bash scripts/demo.sh [--pg 15|18]" >&2
	exit 2
done

install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$(pwd)" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT
echo "== demo on a throwaway cluster (PostgreSQL $PG_MAJOR)"
run_in_cluster "$WORKDIR" -o shared_buffers=512MB -o max_parallel_workers_per_gather=0 -- \
	psql -X -v ON_ERROR_STOP=1 -f scripts/demo.sql
