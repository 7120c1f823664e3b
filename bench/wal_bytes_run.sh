#!/bin/bash
# Inner part of bench/wal_bytes.sh: runs against the server given by the
# PG* environment variables.  Arguments: rows loaded, rows inserted.
set -euo pipefail
ROWS=${1:-1000000}
INSERTS=${2:-200000}
BATCH=100
q() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

q <<SQL
CREATE EXTENSION IF NOT EXISTS bpindex;
CREATE EXTENSION IF NOT EXISTS pg_walinspect;
SQL

# One measurement: a table of ROWS keys made by key_sql (of g), its index
# built, a CHECKPOINT, then INSERTS rows in statements of BATCH; prints
# the index's WAL bytes per inserted row and the total per row.
measure() {
	local am=$1 shape=$2 type=$3 key_sql=$4 rmgr
	[ "$am" = btree ] && rmgr=Btree || rmgr=bpindex
	q <<SQL
DROP TABLE IF EXISTS wal_t;
CREATE TABLE wal_t (k $type, v int4) WITH (autovacuum_enabled = off);
INSERT INTO wal_t SELECT $key_sql, g FROM generate_series(1, $ROWS) g;
CREATE INDEX wal_t_k ON wal_t USING $am (k);
VACUUM wal_t;
CHECKPOINT;
SELECT pg_current_wal_insert_lsn() AS start \gset
DO \$\$
BEGIN
    FOR b IN 0 .. $INSERTS / $BATCH - 1 LOOP
        INSERT INTO wal_t SELECT $(echo "$key_sql" | sed "s/\bg\b/($ROWS + b * $BATCH + i)/g"), 0
        FROM generate_series(1, $BATCH) i;
        COMMIT;
    END LOOP;
END
\$\$;
SELECT pg_current_wal_insert_lsn() AS stop \gset
-- every record up to stop flushed, so that pg_walinspect reads them
CHECKPOINT;
SELECT format('%-7s  %-10s  %-5s  %8s  %8s  %9s',
              '$am', '$shape', '$type',
              round(sum(combined_size) FILTER (WHERE "resource_manager/record_type" = '$rmgr') / $INSERTS::numeric, 1),
              round(pg_wal_lsn_diff(:'stop', :'start') / $INSERTS::numeric, 1),
              sum(count) FILTER (WHERE "resource_manager/record_type" = '$rmgr'))
FROM pg_get_wal_stats(:'start', :'stop');
SQL
}

echo "# $ROWS rows loaded and indexed, CHECKPOINT, then $INSERTS inserted in statements of $BATCH"
echo "# index: the index's own WAL bytes per inserted row (its resource manager's records, full-page images included)"
echo "# total: all WAL bytes per inserted row (heap and commits included)"
printf '%-7s  %-10s  %-5s  %8s  %8s  %9s\n' am keys type index total records
for shape in random ascending text; do
	for am in btree bpindex; do
		case $shape in
			random) measure "$am" random int8 "hashint8(g::int8)" ;;
			ascending) measure "$am" ascending int8 "g::int8" ;;
			text) measure "$am" text text "md5(g::text)" ;;
		esac
	done
done
