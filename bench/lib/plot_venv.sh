# ensure_plot_venv ROOT: a Python virtual environment with matplotlib under
# ROOT/bench/work/venv, for the benchmark's plots; sets PLOT_PYTHON.
# Sourced by bench/run.sh and bench/retention.sh, after scripts/common.sh.
ensure_plot_venv() {
	local venv=$1/bench/work/venv
	if ! "$venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
		echo "== installing matplotlib into $venv"
		mkdir -p "$1/bench/work"
		if ! python3 -m venv "$venv" 2>/dev/null; then
			rm -rf "$venv"
			apt_install python3-venv
			python3 -m venv "$venv"
		fi
		"$venv/bin/pip" install -q matplotlib ||
			{ echo "could not install matplotlib into $venv" >&2; return 1; }
	fi
	PLOT_PYTHON=$venv/bin/python
}
