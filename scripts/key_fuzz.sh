#!/bin/bash
# The randomized test of keyed leaves under size pressure (sql/30_key_fuzz.sql
# runs 60 steps of each table in the test command), run long:
#
#   bash scripts/key_fuzz.sh [--pg 15|18] [--steps N] [--seed S]
#
# Builds bpindex with assertions, installs it, and in a throwaway cluster
# drives eight tables (text under C and the database's collation, DESC,
# varchar, bpchar, bytea, (text, int4), plain leaves), and a ninth under
# ICU's root collation where the server has ICU, through N steps each
# (default 600) of sql/include/key_fuzz.sql, from seed S (default 0.5;
# -1 to 1).  Every step is checked against sequential scans and with
# bpindex_check(heapallindexed).  Exits non-zero, with the failing step, if
# any check fails; prints what the run covered and how long it took.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

STEPS=600
SEED=0.5
while [ $# -gt 0 ]; do
	if parse_pg_option "$@"; then
		select_pg "$PG_SELECTED"
		shift "$PG_ARGS_USED"
		continue
	fi
	case $1 in
		--steps) STEPS=$2; shift 2 ;;
		--seed) SEED=$2; shift 2 ;;
		*) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done

install_dependencies || exit 1
build_and_install BP_ASSERTS=1 || exit 1
prepare_workdir
[ "$WORKDIR" = "$(pwd)" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

cat > "$WORKDIR/key_fuzz_run.sql" <<SQL
SET client_min_messages = warning;
CREATE EXTENSION bpindex;
\\i sql/include/key_fuzz.sql
SELECT setseed($SEED);
$(sed -n "/^SELECT kf_setup/,/^$/p" sql/30_key_fuzz.sql | sed '/^$/d')
SELECT kf_setup('text_icu', 'text COLLATE "und-x-icu"', 'CREATE INDEX %I ON %I USING bpindex (k)')
FROM pg_collation WHERE collname = 'und-x-icu';
\\o /dev/null
SELECT s FROM kf_runs, kf_steps(kf_runs.name, 0, $((STEPS - 1))) s ORDER BY kf_runs.name \\gexec
\\o
SELECT name, s.* FROM kf_runs, kf_summary(kf_runs.name) s ORDER BY name;
SQL
[ "$(id -u)" != 0 ] || chown postgres: "$WORKDIR/key_fuzz_run.sql"
echo "== key_fuzz: $STEPS steps per table, seed $SEED, PostgreSQL $PG_MAJOR"
started=$(date +%s)
run_in_cluster "$WORKDIR" -- bash -c 'psql -X -q -f key_fuzz_run.sql > key_fuzz.out 2>&1'
cat "$WORKDIR/key_fuzz.out"
echo "== key_fuzz took $(( $(date +%s) - started )) s"
if grep -q "ERROR" "$WORKDIR/key_fuzz.out"; then
	echo "== key_fuzz: FAILED (the first error above names the table and the step)"
	exit 1
fi
echo "== key_fuzz: every step passed"
