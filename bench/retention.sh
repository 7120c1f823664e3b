#!/bin/bash
# Retention benchmark: a table of ascending int8 keys whose oldest tenth is
# deleted and a tenth added at the top every cycle, then VACUUM, once with
# a bpindex index and once with a btree index (same data, same cluster,
# alternating within each cycle).  Prints, per cycle, both index sizes and
# the buffers and time of min(k), max(k) and the first 100 keys
# (ORDER BY k LIMIT 100), then checks the targets: bpindex's size after the
# last cycle within 10 % of cycle 2's and not above btree's, min() buffers
# at most btree's + 2.
#
#   bash bench/retention.sh [rows] [cycles]
#
# Inner part: bench/retention_run.sh, which runs against any server given
# by PGHOST/PGPORT/PGDATABASE (with bpindex installed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

ROWS=${1:-1000000}
CYCLES=${2:-20}
install_dependencies
build_and_install
prepare_workdir
[ "$WORKDIR" = "$(pwd)" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

as_server_user bash -c "cd '$WORKDIR' && pg_virtualenv -v $PG_MAJOR \
	-o 'shared_buffers=1GB' -o 'max_wal_size=10GB' -o 'checkpoint_timeout=1h' \
	-o 'synchronous_commit=off' -o 'autovacuum=off' \
	bash bench/retention_run.sh $ROWS $CYCLES"
