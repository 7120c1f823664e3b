# Helpers of the benchmarks that write a committed result file of bench/
# (bench/size.sh, bench/retention.sh).  Sourced after scripts/common.sh,
# once select_pg and prepare_workdir have run.

# result_header SCRIPT ARGS... SETTING...: the first lines of a result
# file: the command that wrote it, when, on what, and its settings (the
# array SETTINGS).
result_header() {
	local script=$1
	shift
	echo "# bash $script$([ "$PG_MAJOR" = 15 ] || echo " --pg $PG_MAJOR") $*"
	echo "# run: $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)," \
		"PostgreSQL $PG_MAJOR, $(nproc) cores"
	echo "# settings: ${SETTINGS[*]}"
}

# run_with_settings OUT SETTING... [-e NAME=VALUE]... -- COMMAND...: COMMAND
# in a throwaway cluster with those settings (and those variables in the
# server's environment), its output shown and appended to OUT; returns
# COMMAND's status.
run_with_settings() {
	local out=$1 opts=() status
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		if [ "$1" = -e ]; then
			opts+=(-e "$2")
			shift 2
			continue
		fi
		opts+=(-o "$1")
		shift
	done
	shift
	set +e
	run_in_cluster "$WORKDIR" "${opts[@]}" -- "$@" |
		grep --line-buffered -v -e '^Creating new PostgreSQL cluster' -e '^Dropping cluster' |
		tee -a "$out"
	status=${PIPESTATUS[0]}
	set -e
	return "$status"
}
