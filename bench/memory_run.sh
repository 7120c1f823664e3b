#!/bin/bash
# Inner part of bench/memory.sh: runs against the server given by the PG*
# environment variables (PostgreSQL 18, debug_io_direct = data, shared
# buffers between the sizes of the two indexes).  Argument: rows.
set -euo pipefail
ROWS=${1:-10000000}
NLOOKUP=${NLOOKUP:-20000}
NWARM=${NWARM:-200000}
NRANGE=${NRANGE:-200}
q() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

q <<SQL
CREATE EXTENSION IF NOT EXISTS bpindex;
CREATE EXTENSION IF NOT EXISTS pg_buffercache;
-- the same random int8 keys in two tables, one index each
CREATE TABLE mem_btree (k int8);
CREATE TABLE mem_bpindex (k int8);
INSERT INTO mem_btree SELECT hashint8(g) FROM generate_series(1, $ROWS) g;
INSERT INTO mem_bpindex SELECT k FROM mem_btree;
CREATE INDEX mem_btree_k ON mem_btree USING btree (k);
CREATE INDEX mem_bpindex_k ON mem_bpindex USING bpindex (k);
VACUUM (FREEZE, ANALYZE) mem_btree;
VACUUM (FREEZE, ANALYZE) mem_bpindex;
-- ms for n index-only lookups of existing keys drawn with seed
CREATE FUNCTION mem_lookups(tab text, n int, seed float8) RETURNS float8
LANGUAGE plpgsql AS \$\$
DECLARE
    t0 timestamptz;
    c bigint;
    keys int8[];
BEGIN
    PERFORM setseed(seed);
    SELECT array_agg(hashint8(1 + floor(random() * $ROWS)::int8)) INTO keys
    FROM generate_series(1, n);
    t0 := clock_timestamp();
    FOR i IN 1 .. n LOOP
        EXECUTE format('SELECT count(*) FROM %I WHERE k = \$1', tab) INTO c USING keys[i];
    END LOOP;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END
\$\$;
-- ms for n index-only counts of 10,000 consecutive keys from random starts
CREATE FUNCTION mem_ranges(tab text, n int, seed float8) RETURNS float8
LANGUAGE plpgsql AS \$\$
DECLARE
    t0 timestamptz;
    c bigint;
    starts int8[];
BEGIN
    PERFORM setseed(seed);
    SELECT array_agg((random() * 2 - 1) * 9.2e18)::int8[] INTO starts
    FROM generate_series(1, n);
    t0 := clock_timestamp();
    FOR i IN 1 .. n LOOP
        EXECUTE format('SELECT count(*) FROM (SELECT k FROM %I WHERE k >= \$1 ORDER BY k LIMIT 10000) s', tab)
            INTO c USING starts[i];
    END LOOP;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END
\$\$;
-- drop a table's and its index's pages from shared buffers (a cold start:
-- with debug_io_direct = data there is no kernel page cache behind them)
CREATE FUNCTION mem_evict(tab text) RETURNS void LANGUAGE sql AS \$\$
    SELECT pg_buffercache_evict_relation(tab::regclass);
    SELECT pg_buffercache_evict_relation((tab || '_k')::regclass);
\$\$;
SQL

echo "## sizes"
q -c "SELECT relname, pg_size_pretty(pg_relation_size(oid)) FROM pg_class
      WHERE relname IN ('mem_btree_k', 'mem_bpindex_k') ORDER BY 1"
q -c "SELECT 'shared_buffers', current_setting('shared_buffers')"
q -c "SELECT 'debug_io_direct', current_setting('debug_io_direct')"

# ms of one measurement of index ix, forced to its index-only scan
run() { q -c "SET enable_seqscan = off; SET enable_bitmapscan = off; SELECT round($1('mem_$2', $3, $4)::numeric, 1)"; }
evict_all() { q -c "SELECT mem_evict('mem_btree'), mem_evict('mem_bpindex')" >/dev/null; }

# Cold: nothing of either index in memory.  Steady: the index alone in
# shared buffers, warmed by lookups of other keys than the measured ones
# (the larger index's misses keep evicting its own pages).  Each index is
# measured on its own, btree and bpindex alternating which goes first.
echo "## measurements (ms; btree | bpindex)"
for rep in 1 2 3; do
	order=(btree bpindex)
	[ $((rep % 2)) = 1 ] || order=(bpindex btree)
	declare -A r=()
	for ix in "${order[@]}"; do
		evict_all
		r[cold_lookups_$ix]=$(run mem_lookups "$ix" $NLOOKUP 0.$rep)
		evict_all
		r[cold_ranges_$ix]=$(run mem_ranges "$ix" $NRANGE 0.$rep)
		evict_all
		run mem_lookups "$ix" $NWARM 0.9$rep >/dev/null
		r[steady_lookups_$ix]=$(run mem_lookups "$ix" $NLOOKUP 0.5$rep)
		r[steady_ranges_$ix]=$(run mem_ranges "$ix" $NRANGE 0.5$rep)
		r[buffers_$ix]=$(q -c "SELECT count(*) FROM pg_buffercache b JOIN pg_class c ON c.relfilenode = b.relfilenode WHERE c.relname = 'mem_${ix}_k'")
	done
	echo "cold: $NLOOKUP point lookups|rep $rep|${r[cold_lookups_btree]}|${r[cold_lookups_bpindex]}"
	echo "cold: $NRANGE ranges of 10,000 keys|rep $rep|${r[cold_ranges_btree]}|${r[cold_ranges_bpindex]}"
	echo "steady: $NLOOKUP point lookups|rep $rep|${r[steady_lookups_btree]}|${r[steady_lookups_bpindex]}"
	echo "steady: $NRANGE ranges of 10,000 keys|rep $rep|${r[steady_ranges_btree]}|${r[steady_ranges_bpindex]}"
	echo "index blocks in shared buffers after its runs|rep $rep|${r[buffers_btree]}|${r[buffers_bpindex]}"
	unset r
done
q -c "SELECT relname, pg_relation_size(oid) / 8192 AS blocks FROM pg_class
      WHERE relname IN ('mem_btree_k', 'mem_bpindex_k') ORDER BY 1"
