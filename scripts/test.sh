#!/bin/bash
# Run every bpindex test suite: BPA unit tests and fuzz driver, pg_regress,
# isolation and TAP, each against throwaway clusters.  Exits non-zero if
# any suite fails and prints the diffs of the failures.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

install_dependencies || exit 1
build_and_install || exit 1
prepare_workdir
[ "$WORKDIR" = "$(pwd)" ] || trap 'rm -rf "$(dirname "$WORKDIR")"' EXIT

passed=0
failed=0
failures=()

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

echo "== BPA unit tests"
make -s -C "$WORKDIR/test/bpa" clean >/dev/null 2>&1
as_server_user make -s -C "$WORKDIR/test/bpa" check 2>&1 | tee "$WORKDIR/unit.log"
rc=${PIPESTATUS[0]}
read -r up uf < <(grep -Eo "^bpa: [0-9]+ passed, [0-9]+ failed" "$WORKDIR/unit.log" | tail -1 |
	awk '{print $2, $4}')
record "BPA unit tests" "$rc" "${up:-0}" "${uf:-1}"

echo "== pg_regress and isolation (throwaway cluster)"
as_server_user bash -c "cd '$WORKDIR' && pg_virtualenv -v $PG_MAJOR -o 'max_prepared_transactions=10' bash -c '
	make installcheck ISOLATION= TAP_TESTS= > regress.log 2>&1; echo \$? > regress.rc
	make installcheck REGRESS= TAP_TESTS= > isolation.log 2>&1; echo \$? > isolation.rc'"
cat "$WORKDIR/regress.log"
read -r rp rf < <(regress_counts "$WORKDIR/regress.log")
record "pg_regress" "$(cat "$WORKDIR/regress.rc" 2>/dev/null || echo 1)" "$rp" "$rf"
cat "$WORKDIR/isolation.log"
read -r ip if_ < <(regress_counts "$WORKDIR/isolation.log")
record "isolation" "$(cat "$WORKDIR/isolation.rc" 2>/dev/null || echo 1)" "$ip" "$if_"

echo "== TAP tests"
as_server_user bash -c "cd '$WORKDIR' && make installcheck REGRESS= ISOLATION= PROVE_FLAGS='--verbose'" \
	> "$WORKDIR/tap.log" 2>&1
rc=$?
grep -E "^(t/|ok|not ok|Files=|Result:|#)" "$WORKDIR/tap.log" | grep -v "^# *$" | tail -80
tap_total=$(grep -Eo "Tests=[0-9]+" "$WORKDIR/tap.log" | tail -1 | grep -Eo "[0-9]+")
tap_fail=$(grep -Ec "^not ok" "$WORKDIR/tap.log")
record "TAP" "$rc" "$(( ${tap_total:-0} - tap_fail ))" "$tap_fail"

if [ ${#failures[@]} -gt 0 ]; then
	echo "== failures in: ${failures[*]}"
	for diffs in "$WORKDIR/regression.diffs" "$WORKDIR/output_iso/regression.diffs"; do
		[ -s "$diffs" ] && { echo "---- $diffs"; cat "$diffs"; }
	done
	for log in "$WORKDIR"/tmp_check/log/regress_log_*; do
		[ -f "$log" ] && grep -q "not ok" "$WORKDIR/tap.log" && { echo "---- $log"; tail -60 "$log"; }
	done
fi
echo "bpindex: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
