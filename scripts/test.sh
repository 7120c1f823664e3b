#!/bin/bash
# Run every bpindex test suite against PostgreSQL 15 and 18, each in
# throwaway clusters:
#
#   bash scripts/test.sh            # both versions
#   bash scripts/test.sh --pg 15    # one version only (also --pg 18)
#
# The BPA unit tests and fuzz driver, which do not use PostgreSQL, run once;
# then for each version bpindex is built and installed into that version's
# directories and pg_regress, isolation and TAP run against it.  Exits
# non-zero if any suite fails, prints the diffs of the failures, and ends
# with the line "bpindex: N passed, M failed", summed over both versions.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
VERSIONS=$PG_VERSIONS_SUPPORTED
while [ $# -gt 0 ]; do
	if parse_pg_option "$@"; then
		VERSIONS=$PG_SELECTED
		shift "$PG_ARGS_USED"
		continue
	fi
	case $1 in
		-h|--help) usage; exit 0 ;;
		*) usage >&2; echo "unknown argument: $1" >&2; exit 2 ;;
	esac
done

passed=0
failed=0
failures=()
timings=()
failed_dirs=()
scratch=()
cleanup() { for d in ${scratch[@]+"${scratch[@]}"}; do rm -rf "$d"; done; }
trap cleanup EXIT

# Record the outcome of one suite from its own counts.
record() {
	local name=$1 rc=$2 npass=$3 nfail=$4
	if [ "$rc" -ne 0 ] && [ "$nfail" -eq 0 ]; then nfail=1; fi
	passed=$((passed + npass))
	failed=$((failed + nfail))
	[ "$nfail" -gt 0 ] && failures+=("$name")
	echo "== $name: $npass passed, $nfail failed"
}

# Counts from a pg_regress summary: "All N tests passed." / "M of N tests failed."
regress_counts() {
	local log=$1 total fail
	if grep -q "All [0-9]* tests passed" "$log"; then
		total=$(grep -o "All [0-9]* tests passed" "$log" | grep -o "[0-9]*")
		echo "$total 0"
	elif grep -q "[0-9]* of [0-9]* tests failed" "$log"; then
		fail=$(grep -o "[0-9]* of [0-9]* tests failed" "$log" | awk '{print $1}')
		total=$(grep -o "[0-9]* of [0-9]* tests failed" "$log" | awk '{print $3}')
		echo "$((total - fail)) $fail"
	else
		echo "0 1"
	fi
}

# A scratch copy of the tree (see prepare_workdir), removed at exit.
new_workdir() {
	prepare_workdir
	[ "$WORKDIR" = "$(pwd)" ] || scratch+=("$(dirname "$WORKDIR")")
}

# Print the diffs and logs of the failed suites of the tree in $1.
show_failures() {
	local dir=$1 diffs log
	for diffs in "$dir/regression.diffs" "$dir/output_iso/regression.diffs"; do
		[ -s "$diffs" ] && { echo "---- $diffs"; cat "$diffs"; }
	done
	[ -f "$dir/tap.log" ] || return 0
	# the scripts with a failed test, and those that died before their plan ended
	for script in $(grep -E "^t/[0-9a-z_]+\.pl .*(Wstat|Failed)" "$dir/tap.log" | sed 's/ .*//' | sort -u); do
		echo "---- $script:"
		grep -E "^(not ok|# +Failed test|# +(at|got|expected|Looks like))|Dubious|Wstat|Bad plan|died|aborted" "$dir/tap.log" | head -40
		log="$dir/tmp_check/log/regress_log_$(basename "$script" .pl)"
		[ -f "$log" ] && { echo "---- $log (last 80 lines)"; tail -80 "$log"; }
	done
}

# The sources of the last 1.4 library, which t/007_upgrade_1_4.pl builds to
# write indexes that this library must read (it skips without them: a tree
# without the repository's history cannot provide them).
LIBRARY_1_4=3d42a8c
extract_old_library() {
	local dir=$1
	rm -rf "$dir"
	if git cat-file -e "$LIBRARY_1_4^{commit}" 2>/dev/null; then
		mkdir -p "$dir" && git archive "$LIBRARY_1_4" | tar -x -C "$dir"
		[ "$(id -u)" != 0 ] || chown -R postgres: "$dir"
	else
		echo "== no commit $LIBRARY_1_4 in this tree: t/007_upgrade_1_4.pl skips"
	fi
}

# The BPA unit tests, once: they test the BPA module outside the server.
select_pg "${VERSIONS%% *}"
install_dependencies || exit 1
echo "== BPA unit tests"
new_workdir
make -s -C "$WORKDIR/test/bpa" clean >/dev/null 2>&1
as_server_user make -s -C "$WORKDIR/test/bpa" check 2>&1 | tee "$WORKDIR/unit.log"
rc=${PIPESTATUS[0]}
read -r up uf < <(grep -Eo "^(bpa|bpcodec_test \(seed [0-9]+\)): [0-9]+ passed, [0-9]+ failed" "$WORKDIR/unit.log" |
	sed 's/.*: //' | awk '{p += $1; f += $3; n++} END {if (n == 2) print p, f; else print 0, 1}')
record "BPA unit tests" "$rc" "${up:-0}" "${uf:-1}"

for version in $VERSIONS; do
	select_pg "$version"
	started=$(date +%s)
	echo "==== PostgreSQL $version"
	# assertions compiled in: a broken invariant stops a test at once
	if ! install_dependencies || ! build_and_install BP_ASSERTS=1; then
		record "build and install (PostgreSQL $version)" 1 0 1
		continue
	fi
	new_workdir
	dirs_of_version=$WORKDIR

	echo "== pg_regress and isolation (PostgreSQL $version, throwaway cluster)"
	run_in_cluster "$WORKDIR" -o max_prepared_transactions=10 -- bash -c '
		make installcheck ISOLATION= TAP_TESTS= > regress.log 2>&1; echo $? > regress.rc
		make installcheck REGRESS= TAP_TESTS= > isolation.log 2>&1; echo $? > isolation.rc'
	cat "$WORKDIR/regress.log"
	read -r rp rf < <(regress_counts "$WORKDIR/regress.log")
	record "pg_regress (PostgreSQL $version)" "$(cat "$WORKDIR/regress.rc" 2>/dev/null || echo 1)" "$rp" "$rf"
	cat "$WORKDIR/isolation.log"
	read -r ip if_ < <(regress_counts "$WORKDIR/isolation.log")
	record "isolation (PostgreSQL $version)" "$(cat "$WORKDIR/isolation.rc" 2>/dev/null || echo 1)" "$ip" "$if_"

	echo "== TAP tests (PostgreSQL $version)"
	extract_old_library "$WORKDIR/t/old-1.4"
	mapfile -t tap_args < <(tap_make_args "$WORKDIR")
	as_server_user bash -c 'cd "$1" && shift && exec make installcheck REGRESS= ISOLATION= PROVE_FLAGS=--verbose "$@"' \
		_ "$WORKDIR" ${tap_args[@]+"${tap_args[@]}"} > "$WORKDIR/tap.log" 2>&1
	rc=$?
	grep -E "^(t/|ok|not ok|Files=|Result:|#)" "$WORKDIR/tap.log" | grep -v "^# *$" | tail -80
	tap_total=$(grep -Eo "Tests=[0-9]+" "$WORKDIR/tap.log" | tail -1 | grep -Eo "[0-9]+")
	tap_fail=$(grep -Ec "^(\[[^]]*\] *)?not ok" "$WORKDIR/tap.log")
	# a script that died counts as one more failure (its remaining tests never ran)
	tap_died=$(grep -Ec "^t/.*Wstat: [1-9].* Failed: 0\)" "$WORKDIR/tap.log")
	tap_fail=$((tap_fail + tap_died))
	record "TAP (PostgreSQL $version)" "$rc" "$(( ${tap_total:-0} - tap_fail ))" "$tap_fail"

	if [ ${#failures[@]} -gt 0 ] && [[ " ${failures[*]} " == *"PostgreSQL $version)"* ]]; then
		echo "== failures on PostgreSQL $version"
		show_failures "$dirs_of_version"
		failed_dirs+=("$version:$dirs_of_version")
	fi
	timings+=("PostgreSQL $version: $(( $(date +%s) - started )) s")
done

[ ${#timings[@]} -eq 0 ] || echo "== time taken (build, install and suites): ${timings[*]}"
# the failures once more at the end, where a truncated log still shows them
for entry in ${failed_dirs[@]+"${failed_dirs[@]}"}; do
	echo "== failures on PostgreSQL ${entry%%:*} (again)"
	show_failures "${entry#*:}" | tail -150
done
[ ${#failures[@]} -eq 0 ] || echo "== failures in: ${failures[*]}"
echo "bpindex: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
