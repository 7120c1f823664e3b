# Shared helpers of bpindex's demo and test commands (sourced, not run).
#
# They work on a fresh Debian 12 machine as root or as a user with sudo:
# packages are installed when missing, the extension is built and
# installed, and every server is a throwaway one.

PG_MAJOR=15
PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
PG_CONFIG=$PG_BIN/pg_config
export PG_CONFIG

if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi

# Install the Debian packages the build, the demo and the tests need.
install_dependencies() {
	local missing=()
	for pkg in make gcc postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR \
		postgresql-$PG_MAJOR-hypopg postgresql-common libipc-run-perl; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$pkg")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "== installing ${missing[*]}"
		$SUDO apt-get update -qq
		$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
	fi
}

# Build bpindex and install it into PostgreSQL's directories.
build_and_install() {
	echo "== building and installing bpindex"
	make -s PG_CONFIG="$PG_CONFIG"
	$SUDO make -s install PG_CONFIG="$PG_CONFIG" >/dev/null
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

# Run a command as the user that owns throwaway servers.
as_server_user() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- env PATH="$PG_BIN:$PATH" PG_CONFIG="$PG_CONFIG" "$@"
	else
		env PATH="$PG_BIN:$PATH" "$@"
	fi
}
