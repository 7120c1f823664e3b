#!/bin/bash
# The main job: install what is missing, build and install bpindex, start
# a throwaway cluster, load a million rows, build a btree and a bpindex
# index on the same data and show their plans, sizes and timings.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$(pwd)" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT
echo "== demo on a throwaway cluster"
as_server_user bash -c "cd '$WORKDIR' && pg_virtualenv -v $PG_MAJOR \
	-o 'shared_buffers=512MB' -o 'max_parallel_workers_per_gather=0' \
	psql -X -v ON_ERROR_STOP=1 -f scripts/demo.sql"
