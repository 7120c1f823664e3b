#!/bin/bash
# COPY of N ascending int8 keys (default 10 million) into a table with no
# index, with a btree index and with a bpindex index, alternating, three
# repetitions; prints the median times and each index's own cost (time
# with the index minus time without), and the ratio btree/bpindex of those
# costs (above 1: bpindex is faster).
#
#   bash bench/copy_ascending.sh [rows] [repetitions]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

ROWS=${1:-10000000}
REPS=${2:-3}
install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$(pwd)" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

as_server_user bash -c "cd '$WORKDIR' && ROWS=$ROWS REPS=$REPS pg_virtualenv -v $PG_MAJOR \
	-o 'shared_preload_libraries=bpindex' -o 'shared_buffers=2GB' -o 'max_wal_size=20GB' -o 'checkpoint_timeout=1h' \
	-o 'synchronous_commit=off' -o 'max_parallel_workers_per_gather=0' \
	bash bench/copy_ascending_run.sh"
