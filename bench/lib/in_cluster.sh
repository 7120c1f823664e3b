#!/bin/bash
# Inner part of bench/run.sh, run by pg_virtualenv inside the throwaway
# cluster (PGHOST, PGPORT, PGUSER, PGDATABASE and PGPASSWORD are set).
# Loads the data, runs every workload on btree and on bpindex, alternating
# them, and appends one line per measurement to $OUT/raw.csv:
#
#   workload,variant,param,index,rep,metric,value
#
# run.sh passes the sizes and durations in the environment.
set -euo pipefail

: "${OUT:?}" "${NKEYS:?}" "${NINSERT:?}" "${NPROBE:?}" "${NRANGES:?}" "${CLIENTS:?}"
: "${REPS:?}" "${INS_REPS:?}" "${DUR_RANGE:?}" "${DUR_POINT:?}" "${MAXLENS:?}"

BENCH=$(cd "$(dirname "$0")/.." && pwd)
RAW=$OUT/raw.csv
LOG=$OUT/pgbench.log
PLANS=$OUT/plans.txt
SCRIPTS=$OUT/scripts
mkdir -p "$SCRIPTS"
echo "workload,variant,param,index,rep,metric,value" > "$RAW"
: > "$LOG"
: > "$PLANS"

# Keys are hashint8extended(id, 1) >> 1 for id in [1, NKEYS]: uniform over
# [-2^62, 2^62), so a range of width SPACING holds one key on average.
SPACING=$(( (1 << 62) / NKEYS * 2 ))
INDEXES="btree bpindex"

# Session settings of each kind of run (on top of the cluster's settings):
# ordered scans (find, iterate_range, YCSB A-E and X) must use the index's
# ordered path, map_range (and YCSB Y) the bitmap path.
OPT_ORDERED="-c enable_seqscan=off -c enable_bitmapscan=off -c enable_sort=off"
OPT_BITMAP="-c enable_seqscan=off -c enable_indexscan=off -c enable_indexonlyscan=off"

say() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { echo "bench: ERROR: $*" >&2; exit 1; }
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
record() { local IFS=,; echo "$*" >> "$RAW"; }

# The order of the two indexes in repetition $1: btree first in odd
# repetitions, bpindex first in even ones.
order() { if (( $1 % 2 )); then echo "btree bpindex"; else echo "bpindex btree"; fi; }

# Milliseconds one SQL statement takes, as psql's \timing reports it.
timed_ms() {
	local ms
	ms=$(q -c '\timing on' -c "$1" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1)
	[ -n "$ms" ] || die "no timing for: $1"
	echo "$ms"
}

# A pgbench script for one table, from a template in bench/pgbench.
render() { # template table
	local out="$SCRIPTS/${1%.sql}_$2.sql"
	sed "s/@T@/$2/g" "$BENCH/pgbench/$1" > "$out"
	echo "$out"
}

# Run pgbench; prints its tps (without connection time). $1: PGOPTIONS,
# $2: a label for the log, the rest: pgbench arguments (-T or -t, scripts).
pgb() {
	local opts=$1 label=$2 out tps failed
	shift 2
	if ! out=$(PGOPTIONS="$opts" pgbench -n -M prepared -c "$CLIENTS" -j "$CLIENTS" \
			-D nkeys="$NKEYS" -D spacing="$SPACING" "$@" 2>&1); then
		printf '%s\n' "$out" >&2
		die "pgbench failed ($label)"
	fi
	printf '== %s (PGOPTIONS=%s)\n%s\n\n' "$label" "$opts" "$out" >> "$LOG"
	failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' <<< "$out")
	[ "${failed:-0}" = 0 ] || die "pgbench reported $failed failed transactions ($label)"
	tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' <<< "$out")
	[ -n "$tps" ] || die "no tps in pgbench output ($label)"
	echo "$tps"
}

# Check the generic plan (what pgbench -M prepared ends up using) of the
# query of a pgbench template on one table: it must contain node on the
# table's index. The plan goes to plans.txt. Variables become parameters in
# order of appearance, with the sample values below.
declare -A SAMPLE=([id]=1 [start]=0 [len]=100 [stop]=1000000000000 [width]=1000000000000)
check_plan() { # template index opts node
	local tbl="bench_$2" qry vars=() vals=() n=0 v
	qry=$(grep -v -e '^\\' -e '^--' -e '^[[:space:]]*$' "$BENCH/pgbench/$1" | sed "s/@T@/$tbl/g")
	mapfile -t vars < <(grep -oP '(?<!:):[a-z_]+' <<< "$qry" | awk '!seen[$0]++')
	for v in "${vars[@]}"; do
		n=$((n + 1))
		qry=${qry//$v/\$$n}
		vals+=("${SAMPLE[${v#:}]:?no sample value for $v}")
	done
	qry=${qry%;}
	local args
	args=$(IFS=,; echo "${vals[*]}")
	{
		echo "== $1 on $tbl (PGOPTIONS=$3), generic plan"
		PGOPTIONS="$3" q -c "PREPARE p AS $qry" -c "SET plan_cache_mode = force_generic_plan" \
			-c "EXPLAIN (COSTS OFF) EXECUTE p($args)"
		echo
	} >> "$PLANS"
	PGOPTIONS="$3" q -c "PREPARE p AS $qry" -c "SET plan_cache_mode = force_generic_plan" \
		-c "SELECT bench_require(bench_explain('EXECUTE p($args)', false, false), '$4', '${tbl}_k')" \
		> /dev/null || die "unexpected plan for $1 on $tbl (see above)"
}

# ---------------------------------------------------------------------------
say "settings"
q -c "CREATE EXTENSION bpindex" -c "CREATE EXTENSION pg_prewarm" -f "$BENCH/lib/functions.sql"
q -c "SELECT json_build_object(
		'version', version(),
		'bpindex_version', (SELECT extversion FROM pg_extension WHERE extname = 'bpindex'),
		'settings', (SELECT json_object_agg(name, current_setting(name) ORDER BY name)
					 FROM pg_settings WHERE name IN ('shared_buffers', 'synchronous_commit',
						'fsync', 'full_page_writes', 'wal_level', 'max_wal_size', 'checkpoint_timeout',
						'max_parallel_workers_per_gather', 'max_parallel_maintenance_workers',
						'maintenance_work_mem', 'work_mem', 'autovacuum', 'jit', 'huge_pages')))" \
	> "$OUT/postgres.json"
q -c "SELECT name || ' = ' || current_setting(name) FROM pg_settings
	  WHERE source NOT IN ('default', 'override') ORDER BY name"

say "loading $NKEYS keys into bench_btree and bench_bpindex (same rows, same order)"
q -c "CREATE TABLE keys AS SELECT g AS id, hashint8extended(g, 1) >> 1 AS k
	  FROM generate_series(1, $NKEYS) g"
for idx in $INDEXES; do
	q -c "CREATE TABLE bench_$idx (k int8 NOT NULL, payload int8 NOT NULL)" \
	  -c "INSERT INTO bench_$idx SELECT k, id FROM keys"
	q -c "CREATE INDEX bench_${idx}_k ON bench_$idx USING $idx (k)"
	# until the visibility map is set: index-only scans must not visit the
	# heap (with asynchronous commits one VACUUM is not always enough)
	for attempt in 1 2 3; do
		q -c "CHECKPOINT" -c "VACUUM ANALYZE bench_$idx"
		[ "$(q -c "SELECT relallvisible = relpages FROM pg_class
				   WHERE relname = 'bench_$idx'")" = t ] && break
		[ "$attempt" = 3 ] && die "the visibility map of bench_$idx is not set"
	done
done
q -c "CREATE TABLE probe AS SELECT k FROM keys ORDER BY hashint8extended(id, 3) LIMIT $NPROBE" \
  -c "VACUUM ANALYZE probe" -c "CREATE SEQUENCE ins_batch"
for idx in $INDEXES; do
	record size after_build "" "$idx" 1 bytes \
		"$(q -c "SELECT pg_relation_size('bench_${idx}_k')")"
	q -c "SELECT bench_prewarm('bench_$idx')" > /dev/null
done
q -c "SELECT bench_prewarm('probe')" > /dev/null

# ---------------------------------------------------------------------------
say "build: CREATE INDEX on $NKEYS int8 and int4 keys"
q -c "CREATE TABLE build_t AS SELECT k AS k8, (k >> 31)::int4 AS k4 FROM keys" \
  -c "VACUUM ANALYZE build_t" -c "SELECT bench_prewarm('build_t')" > /dev/null
for rep in $(seq 1 "$REPS"); do
	for col in k8 k4; do
		type=int${col#k}
		for idx in $(order "$rep"); do
			q -c "CHECKPOINT"
			ms=$(timed_ms "CREATE INDEX build_t_idx ON build_t USING $idx ($col)")
			record build "$type" "" "$idx" "$rep" ms "$ms"
			record build "$type" "" "$idx" "$rep" bytes \
				"$(q -c "SELECT pg_relation_size('build_t_idx')")"
			q -c "DROP INDEX build_t_idx"
			say "  rep $rep $type $idx: $ms ms"
		done
	done
done
q -c "DROP TABLE build_t"

# ---------------------------------------------------------------------------
say "find: point lookups (pgbench, ${DUR_POINT}s) and a probe join of $NPROBE keys"
for idx in $INDEXES; do
	check_plan find_uniform.sql "$idx" "$OPT_ORDERED" "Index Scan"
	render find_uniform.sql "bench_$idx" > /dev/null
done
for rep in $(seq 1 "$REPS"); do
	for idx in $(order "$rep"); do
		tps=$(pgb "$OPT_ORDERED" "find $idx rep $rep" -T "$DUR_POINT" \
			-f "$SCRIPTS/find_uniform_bench_$idx.sql")
		record find point "" "$idx" "$rep" tps "$tps"
		res=$(q -F, -c "SELECT exec_ms, matched FROM bench_probe_join('bench_$idx')")
		[ "${res#*,}" = "$NPROBE" ] || die "probe join on bench_$idx matched ${res#*,} of $NPROBE keys"
		record find probe_join "" "$idx" "$rep" ms "${res%,*}"
		say "  rep $rep $idx: $tps lookups/s, probe join ${res%,*} ms"
	done
done
{
	echo "== probe join on bench_bpindex, EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF)"
	q -c "SET enable_hashjoin = off" -c "SET enable_mergejoin = off" -c "SET enable_memoize = off" \
	  -c "SET enable_bitmapscan = off" \
	  -c "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) SELECT count(*) FROM probe p JOIN bench_bpindex t ON t.k = p.k"
	echo
} >> "$PLANS"

# ---------------------------------------------------------------------------
say "iterate_range: ORDER BY k LIMIT len, len uniform in [0, max_len] (pgbench, ${DUR_RANGE}s)"
for variant in k k_payload; do
	node="Index Only Scan"
	[ "$variant" = k_payload ] && node="Index Scan"
	for idx in $INDEXES; do
		check_plan "iterate_${variant}_uniform.sql" "$idx" "$OPT_ORDERED" "$node"
		render "iterate_${variant}_uniform.sql" "bench_$idx" > /dev/null
	done
done
for maxlen in $MAXLENS; do
	for variant in k k_payload; do
		for rep in $(seq 1 "$REPS"); do
			for idx in $(order "$rep"); do
				tps=$(pgb "$OPT_ORDERED" "iterate_range $variant max_len $maxlen $idx rep $rep" \
					-T "$DUR_RANGE" -D maxlen="$maxlen" \
					-f "$SCRIPTS/iterate_${variant}_uniform_bench_$idx.sql")
				record iterate_range "$variant" "$maxlen" "$idx" "$rep" tps "$tps"
				say "  max_len $maxlen $variant rep $rep $idx: $tps tps"
			done
		done
	done
done

# ---------------------------------------------------------------------------
say "map_range: count(*) of [start, start + range) by Bitmap Index Scan (pgbench, ${DUR_RANGE}s; EXPLAIN of $NRANGES fixed ranges)"
for idx in $INDEXES; do
	check_plan map_uniform.sql "$idx" "$OPT_BITMAP" "Bitmap Index Scan"
	render map_uniform.sql "bench_$idx" > /dev/null
done
for maxlen in $MAXLENS; do
	for rep in $(seq 1 "$REPS"); do
		for idx in $(order "$rep"); do
			tps=$(pgb "$OPT_BITMAP" "map_range max_len $maxlen $idx rep $rep" \
				-T "$DUR_RANGE" -D maxlen="$maxlen" -f "$SCRIPTS/map_uniform_bench_$idx.sql")
			record map_range count "$maxlen" "$idx" "$rep" tps "$tps"
			res=$(q -F, -c "SELECT node_ms, node_rows, exec_ms
							FROM bench_bitmap_set('bench_$idx', $maxlen, $NRANGES, $SPACING)")
			IFS=, read -r node_ms node_rows exec_ms <<< "$res"
			record map_range bitmap_node "$maxlen" "$idx" "$rep" ms "$node_ms"
			record map_range bitmap_node "$maxlen" "$idx" "$rep" rows "$node_rows"
			record map_range bitmap_node "$maxlen" "$idx" "$rep" exec_ms "$exec_ms"
			say "  max_len $maxlen rep $rep $idx: $tps tps; node $node_ms ms for $node_rows entries"
		done
	done
done

# ---------------------------------------------------------------------------
# YCSB (thesis table 6.7). Inserted rows carry payload -1; after every run
# that inserts, they are deleted and vacuumed away, and every such run
# starts after a CHECKPOINT, so each run starts from the same rows.
ycsb_scripts() { # workload dist idx
	local s="$SCRIPTS" t="bench_$3"
	case $1 in
		Load) echo "-f $s/insert_$2_$t.sql" ;;
		A) echo "-f $s/find_$2_$t.sql@50 -f $s/insert_$2_$t.sql@50" ;;
		B) echo "-f $s/find_$2_$t.sql@95 -f $s/insert_$2_$t.sql@5" ;;
		C) echo "-f $s/find_$2_$t.sql" ;;
		E) echo "-D maxlen=100 -f $s/iterate_k_payload_$2_$t.sql@95 -f $s/insert_$2_$t.sql@5" ;;
		X) echo "-D maxlen=10000 -f $s/iterate_k_payload_$2_$t.sql" ;;
		Y) echo "-D maxlen=10000 -f $s/map_$2_$t.sql" ;;
	esac
}
for dist in uniform zipf; do
	for idx in $INDEXES; do
		for tpl in find insert iterate_k_payload map; do
			render "${tpl}_$dist.sql" "bench_$idx" > /dev/null
		done
		[ "$dist" = uniform ] && continue	# checked above
		check_plan "find_$dist.sql" "$idx" "$OPT_ORDERED" "Index Scan"
		check_plan "iterate_k_payload_$dist.sql" "$idx" "$OPT_ORDERED" "Index Scan"
		check_plan "map_$dist.sql" "$idx" "$OPT_BITMAP" "Bitmap Index Scan"
	done
	name=$dist
	[ "$dist" = zipf ] && name=zipfian
	say "YCSB, $name keys (pgbench, ${DUR_POINT}s per run)"
	for wl in Load A B C E X Y; do
		opts=$OPT_ORDERED
		[ "$wl" = Y ] && opts=$OPT_BITMAP
		writes=false
		case $wl in Load|A|B|E) writes=true ;; esac
		for rep in $(seq 1 "$REPS"); do
			for idx in $(order "$rep"); do
				$writes && q -c "CHECKPOINT"
				# shellcheck disable=SC2046
				tps=$(pgb "$opts" "YCSB $wl $name $idx rep $rep" -T "$DUR_POINT" \
					$(ycsb_scripts "$wl" "$dist" "$idx"))
				record ycsb "$name" "$wl" "$idx" "$rep" tps "$tps"
				msg=""
				if $writes; then
					n=$(q -c "WITH d AS (DELETE FROM bench_$idx WHERE payload = -1 RETURNING 1)
							  SELECT count(*) FROM d")
					q -c "VACUUM bench_$idx"
					record ycsb "$name" "$wl" "$idx" "$rep" rows_inserted "$n"
					msg=" ($n rows inserted, deleted again)"
				fi
				say "  $wl rep $rep $idx: $tps ops/s$msg"
			done
		done
	done
done

# ---------------------------------------------------------------------------
# Insert workload: $NINSERT keys in statements of 1,000 rows into a fresh
# copy of the $NKEYS-key table (rebuilt before every run, so every run
# starts from the same state), with a btree index, a bpindex index or none.
batches=$(( (NINSERT / 1000 + CLIENTS - 1) / CLIENTS ))
rows=$(( batches * CLIENTS * 1000 ))
say "insert: $rows keys in statements of 1,000 rows into a copy of the $NKEYS-key table"
for kind in random ascending; do
	render "ins_$kind.sql" ins_t > /dev/null
	for rep in $(seq 1 "$INS_REPS"); do
		for idx in none $(order "$rep"); do
			q -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS ins_t" \
			  -c "CREATE TABLE ins_t (k int8 NOT NULL, payload int8 NOT NULL)" \
			  -c "INSERT INTO ins_t SELECT k, id FROM keys"
			[ "$idx" != none ] && q -c "CREATE INDEX ins_t_k ON ins_t USING $idx (k)"
			q -c "VACUUM ANALYZE ins_t" -c "SELECT bench_prewarm('ins_t')" \
			  -c "ALTER SEQUENCE ins_batch RESTART" -c "CHECKPOINT" > /dev/null
			tps=$(pgb "" "insert $kind $idx rep $rep" -t "$batches" -f "$SCRIPTS/ins_${kind}_ins_t.sql")
			n=$(q -c "SELECT count(*) FROM ins_t")
			[ "$n" = $((NKEYS + rows)) ] || die "ins_t has $n rows, expected $((NKEYS + rows))"
			record insert "$kind" "$rows" "$idx" "$rep" rows_per_s "$(awk -v t="$tps" 'BEGIN {printf "%.1f", t * 1000}')"
			if [ "$idx" != none ]; then
				record insert "$kind" "$rows" "$idx" "$rep" bytes_after \
					"$(q -c "SELECT pg_relation_size('ins_t_k')")"
			fi
			say "  $kind rep $rep $idx: $(awk -v t="$tps" 'BEGIN {printf "%.0f", t * 1000}') rows/s"
		done
	done
done
q -c "DROP TABLE ins_t"
{
	echo "== row counts"
	q -c "SELECT 'bench_btree', count(*) FROM bench_btree UNION ALL SELECT 'bench_bpindex', count(*) FROM bench_bpindex"
} >> "$PLANS"
say "checking both bench indexes (bpindex_check with heapallindexed)"
q -c "SELECT bpindex_check('bench_bpindex_k', true)" > /dev/null
say "done"
