# A streaming standby replays index builds (full-page records), VACUUM and
# inserts (generic WAL, checked page by page with wal_consistency_checking:
# log appends in hand-built generic records, flushes, leaf splits, internal
# splits and new roots, inserts and VACUUM on leaves with dead marks) and
# answers index and bitmap scans exactly like the primary's sequential scans; bpindex_check
# passes on the standby.  Page deletion and reuse are replayed too.  Parallel
# scans and parallel skip scans on the standby share the replayed leaves.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use BpindexTest;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
preload_bpindex($primary);
$primary->append_conf('postgresql.conf', qq{
wal_consistency_checking = 'bpindex'
shared_buffers = 16MB
max_wal_size = 1GB
log_statement = 'ddl'
});
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION bpindex');
# every record carries the images of its pages: compress them if possible
$primary->safe_psql('postgres', q{
	SELECT CASE WHEN 'lz4' = ANY(enumvals) THEN 'lz4' ELSE 'pglz' END AS method
	  FROM pg_settings WHERE name = 'wal_compression' \gset
	ALTER SYSTEM SET wal_compression = :'method';
	SELECT pg_reload_conf();
});
# a slot keeps the WAL the standby has yet to receive, however far behind
$primary->safe_psql('postgres',
	"SELECT pg_create_physical_replication_slot('standby_slot')");
$primary->backup('backup');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->append_conf('postgresql.conf', "primary_slot_name = 'standby_slot'");
$standby->start;

my @queries = (
	'SELECT k, v FROM repl_t WHERE k >= 500 ORDER BY k, v LIMIT 300',
	'SELECT count(*), sum(v) FROM repl_t WHERE k BETWEEN 10 AND 30000',
	'SELECT k FROM repl_t WHERE k < 100 OR k IS NULL ORDER BY k DESC');

# Compare index results on the standby with the primary's sequential scan.
sub check_standby
{
	my ($label) = @_;
	$primary->wait_for_catchup($standby, 'replay');
	for my $q (@queries)
	{
		is(index_result($standby, $q), seqscan_result($primary, $q),
			"$label: $q");
	}
}

load_table($primary, 'repl_t', 120000);
$primary->safe_psql('postgres',
	'CREATE INDEX repl_t_bp ON repl_t USING bpindex (k) WITH (fillfactor = 20)');
check_standby('after build');

$primary->safe_psql('postgres', 'DELETE FROM repl_t WHERE v % 3 = 0; VACUUM repl_t');
check_standby('after vacuum');

$primary->safe_psql('postgres', 'REINDEX INDEX repl_t_bp');
check_standby('after reindex');

my $plan = $standby->safe_psql('postgres',
	"SET enable_seqscan = off; EXPLAIN (COSTS OFF) $queries[0]");
like($plan, qr/Index (Only )?Scan using repl_t_bp/, 'standby uses the index');

# Inserts into indexes that start empty.  grow_t (int8: 512 entries a leaf,
# 450 children an internal page, fillfactor 60 so that ascending inserts
# leave 307 entries a leaf): random keys, then ascending ones, then NULLs,
# enough for two internal levels.  wide_t (four uuid columns and an
# int8, 80-byte entries, at fillfactor 10: ascending inserts leave 7 entries
# a leaf and 66 of 95 children an internal page): ascending keys grow it
# three internal levels deep in 60000 rows, random keys then split pages in
# the middle.  Some 200000 inserts in all.
$primary->safe_psql('postgres', q{
	CREATE TABLE grow_t (k int8, v int4,
		s text GENERATED ALWAYS AS (md5(k::text) || repeat('-', abs(v) % 30)) STORED);
	CREATE INDEX grow_t_bp ON grow_t USING bpindex (k) WITH (fillfactor = 60, packed_leaves = off);
	CREATE INDEX grow_t_s ON grow_t USING bpindex (s) WITH (fillfactor = 60);
	CREATE INDEX grow_t_inc ON grow_t USING bpindex (k) INCLUDE (v) WITH (fillfactor = 60);
	CREATE INDEX grow_t_kd ON grow_t USING bpindex (k DESC, v NULLS FIRST);
	CREATE TABLE wide_t (a uuid, b uuid, c uuid, d uuid, k int8);
	CREATE INDEX wide_t_bp ON wide_t USING bpindex (a, b, c, d, k) WITH (fillfactor = 10);
});

my @grow_queries = (
	'SELECT k, v FROM grow_t WHERE k >= 500000000 ORDER BY k, v LIMIT 300',
	'SELECT count(*), sum(k), sum(v) FROM grow_t WHERE k BETWEEN 100000000 AND 300000000',
	'SELECT k FROM grow_t WHERE k > 2000000000 ORDER BY k DESC LIMIT 200',
	'SELECT count(*), sum(k) FROM grow_t WHERE k > 2000050000',
	'SELECT count(*), sum(v) FROM grow_t WHERE k IS NULL',
	'SELECT count(*), sum(k), sum(v) FROM grow_t WHERE k >= 0',
	'SELECT k, v FROM grow_t WHERE k BETWEEN 300000000 AND 310000000 ORDER BY k, v',
	"SELECT s FROM grow_t WHERE s >= '8' ORDER BY s LIMIT 300",
	"SELECT count(*), sum(k) FROM grow_t WHERE s BETWEEN '2' AND '5'",
	'SELECT count(*) FROM grow_t WHERE s IS NULL');
my @wide_queries = (
	"SELECT a, k FROM wide_t WHERE a >= lpad(to_hex(5000), 32, '0')::uuid ORDER BY a, b, c, d, k LIMIT 300",
	"SELECT count(*), sum(k) FROM wide_t WHERE a BETWEEN '40000000-0000-0000-0000-000000000000' "
	  . "AND 'c0000000-0000-0000-0000-000000000000'",
	"SELECT k FROM wide_t WHERE a < lpad(to_hex(15000), 32, '0')::uuid "
	  . 'ORDER BY a DESC, b DESC, c DESC, d DESC, k DESC LIMIT 200',
	"SELECT count(*), sum(k) FROM wide_t WHERE a = lpad(to_hex(777), 32, '0')::uuid "
	  . "AND b > '80000000-0000-0000-0000-000000000000'",
	'SELECT count(*), sum(k) FROM wide_t WHERE k % 2 = 0 AND a IS NOT NULL');

# Compare standby index results with the primary's sequential scan and
# check the standby's copy of the indexes.
sub check_grown
{
	my ($label) = @_;
	$primary->wait_for_catchup($standby, 'replay');
	compare_scans($standby, "$label, grow_t", \@grow_queries, $primary);
	compare_scans($standby, "$label, wide_t", \@wide_queries, $primary);
	for my $index ('grow_t_bp', 'grow_t_inc', 'grow_t_kd', 'grow_t_s', 'wide_t_bp')
	{
		check_index($primary, $index, 1, "$label, primary");
		check_index($standby, $index, 0, "$label, standby");
		check_index($standby, $index, 1, "$label, standby");
	}
}

# random keys, 40000 rows a statement
for my $part (0 .. 2)
{
	$primary->safe_psql('postgres', qq{
		INSERT INTO grow_t SELECT (g::int8 * 2654435761) % 1000000007, g
		  FROM generate_series($part * 40000 + 1, ($part + 1) * 40000) g});
}
for my $part (0 .. 1)
{
	$primary->safe_psql('postgres', qq{
		INSERT INTO wide_t SELECT lpad(to_hex(g), 32, '0')::uuid, md5(g::text)::uuid,
			md5((g + 1)::text)::uuid, md5((g + 2)::text)::uuid, g
		  FROM generate_series($part * 30000 + 1, ($part + 1) * 30000) g});
}
check_grown('after random and ascending inserts');

# ascending keys, NULLs, random wide keys
$primary->safe_psql('postgres', q{
	INSERT INTO grow_t SELECT 2000000000 + g, g FROM generate_series(1, 60000) g});
$primary->safe_psql('postgres', q{
	INSERT INTO grow_t SELECT NULL, g FROM generate_series(1, 5000) g});
$primary->safe_psql('postgres', q{
	INSERT INTO wide_t SELECT md5(g::text)::uuid, md5((g + 1)::text)::uuid,
		md5((g + 2)::text)::uuid, md5((g + 3)::text)::uuid, g
	  FROM generate_series(1, 10000) g});
check_grown('after more inserts');

my %levels;
for my $index ('grow_t_bp', 'wide_t_bp')
{
	$levels{$index} = $standby->safe_psql('postgres',
		"SELECT levels FROM bpindex_metap('$index')");
	is($levels{$index}, $primary->safe_psql('postgres',
			"SELECT levels FROM bpindex_metap('$index')"),
		"$index: standby and primary agree on the levels");
}
cmp_ok($levels{grow_t_bp}, '>=', 3, 'grow_t_bp has two internal levels or more');
cmp_ok($levels{wide_t_bp}, '>=', 4, 'wide_t_bp has three internal levels or more');

# updates (new entries), deletes and VACUUM, then inserts into the space
$primary->safe_psql('postgres', q{
	UPDATE grow_t SET k = k + 1 WHERE v % 10 = 0;
	UPDATE grow_t SET v = -v WHERE v % 13 = 0;
	DELETE FROM grow_t WHERE v % 7 = 3;
	UPDATE wide_t SET b = md5(b::text)::uuid WHERE k % 5 = 0;
	DELETE FROM wide_t WHERE k % 9 = 0;
});
$primary->safe_psql('postgres', 'VACUUM grow_t, wide_t');
check_grown('after updates, deletes and vacuum');
$primary->safe_psql('postgres', q{
	INSERT INTO grow_t SELECT (g::int8 * 40503) % 1000000007, -g
	  FROM generate_series(1, 20000) g;
	INSERT INTO wide_t SELECT md5((g * 3)::text)::uuid, md5(g::text)::uuid,
		md5(g::text)::uuid, NULL, -g
	  FROM generate_series(1, 5000) g;
});
check_grown('after inserts following vacuum');

# an index scan on the primary marks the entries of deleted rows dead:
# hints outside what WAL carries, so the standby has none, and the WAL-logged
# changes of the same leaves that follow (inserts that flush and split
# them, VACUUM) replay consistently under wal_consistency_checking
$primary->safe_psql('postgres', 'DELETE FROM grow_t WHERE v % 11 = 5');
# the dead marks of both indexes of grow_t, whichever the scan used
my $dead_query = "SELECT count(*) FROM unnest(ARRAY['grow_t_bp', 'grow_t_inc', 'grow_t_kd']) i, "
  . "generate_series(1, pg_relation_size(i::regclass) / 8192 - 1) b, "
  . "LATERAL bpindex_page_items(i::regclass, b) p WHERE p.dead";
my $dead = 0;
# a scan marks them once the deletion is older than every snapshot (another
# session's, a moment after the DELETE, may still see the rows)
for (my $try = 0; $try < 100 && $dead == 0; $try++)
{
	usleep(100_000) if $try > 0;
	$primary->safe_psql('postgres',
		"SET enable_seqscan = off; SET enable_bitmapscan = off; "
		  . "SET enable_indexonlyscan = off; SELECT count(v) FROM grow_t WHERE k >= 0");
	$dead = $primary->safe_psql('postgres', $dead_query);
}
cmp_ok($dead, '>', 0, 'an index scan marked entries of deleted rows dead');
$primary->wait_for_catchup($standby, 'replay');
is($standby->safe_psql('postgres', $dead_query), '0',
	'the dead marks are not WAL-logged: the standby has none');
$primary->safe_psql('postgres', q{
	INSERT INTO grow_t SELECT (g::int8 * 7919) % 1000000007, g
	  FROM generate_series(1, 20000) g;
});
check_grown('after inserts into leaves with dead marks');
$primary->safe_psql('postgres', 'VACUUM grow_t');
check_grown('after VACUUM of leaves with dead marks');

# entries of pruned rows: VACUUM without index cleanup leaves their heap
# line pointers LP_DEAD and the entries in place; an index scan marks them,
# and the inserts that next flush, re-encode or split their leaves remove
# them first, WAL-logged like any flush (the pruning's own record has
# already resolved conflicts with the standby's snapshots)
my $extra_query = "SELECT sum(s.entries) - 3 * (SELECT count(*) FROM grow_t) "
  . "FROM unnest(ARRAY['grow_t_bp', 'grow_t_inc', 'grow_t_kd']) i, "
  . "LATERAL bpindex_stats(i::regclass) s";
$primary->safe_psql('postgres', 'DELETE FROM grow_t WHERE v % 17 = 4');
$primary->safe_psql('postgres', 'VACUUM (INDEX_CLEANUP OFF) grow_t');
my $extra_before = $primary->safe_psql('postgres', $extra_query);
cmp_ok($extra_before, '>', 0,
	'VACUUM without index cleanup left the entries of the deleted rows');
$primary->safe_psql('postgres',
	"SET enable_seqscan = off; SET enable_bitmapscan = off; "
	  . "SET enable_indexonlyscan = off; SELECT count(v) FROM grow_t WHERE k >= 0");
$primary->safe_psql('postgres', q{
	INSERT INTO grow_t SELECT (g::int8 * 15485863) % 1000000007, g
	  FROM generate_series(1, 20000) g;
});
# each index had a third of the extra entries; the scanned one loses most
# of its third (all of it in the leaves whose logs filled)
cmp_ok($primary->safe_psql('postgres', $extra_query), '<=', $extra_before * 5 / 6,
	'inserts removed the marked entries of pruned rows from the scanned index');
check_grown('after inserts removed the entries of pruned rows');

# page deletion: VACUUM empties leaves (the lowest keys of grow_t, whose
# leftmost leaves merge into right siblings, and a middle range, whose
# leaves merge into left siblings), deletes them in records of up to four
# pages, and once no snapshot is older, records them as free; inserts then
# reuse them.  The standby replays all of it consistently.
$primary->safe_psql('postgres', q{
	DELETE FROM grow_t WHERE k < 300000000 OR k BETWEEN 600000000 AND 800000000;
	DELETE FROM wide_t WHERE k BETWEEN 10000 AND 40000;
});
$primary->safe_psql('postgres', 'VACUUM grow_t, wide_t');
cmp_ok(index_stat($primary, 'grow_t_bp', 'deleted_pages'), '>', 100,
	'VACUUM deleted leaves of grow_t_bp');
cmp_ok(index_stat($primary, 'wide_t_bp', 'deleted_pages'), '>', 100,
	'VACUUM deleted leaves of wide_t_bp');
check_grown('after VACUUM deleted leaves');
# recyclable once no snapshot on the primary (and on the standby, when
# hot_standby_feedback reports its queries) is older than the deletions:
# retry for a while, each time after a new transaction id
my $recyclable = 0;
for (my $try = 0; $try < 120 && $recyclable <= 100; $try++)
{
	sleep 1 if $try > 0;
	$primary->safe_psql('postgres', 'SELECT txid_current()');
	$primary->safe_psql('postgres', 'VACUUM grow_t, wide_t');
	$recyclable = index_stat($primary, 'grow_t_bp', 'recyclable_pages');
}
cmp_ok($recyclable, '>', 100, 'the deleted pages of grow_t_bp are recyclable');
$primary->safe_psql('postgres', q{
	INSERT INTO grow_t SELECT (g::int8 * 2654435761) % 1000000007, g
	  FROM generate_series(1, 40000) g;
	INSERT INTO wide_t SELECT lpad(to_hex(g), 32, '0')::uuid, md5(g::text)::uuid,
		md5((g + 1)::text)::uuid, md5((g + 2)::text)::uuid, g
	  FROM generate_series(10000, 25000) g;
});
cmp_ok(index_stat($primary, 'grow_t_bp', 'deleted_pages'), '<', $recyclable,
	'inserts reused deleted pages of grow_t_bp');
check_grown('after inserts into recycled pages');

$plan = $standby->safe_psql('postgres',
	"SET enable_seqscan = off; SET enable_indexscan = off; "
	  . "SET enable_indexonlyscan = off; EXPLAIN (COSTS OFF) $wide_queries[1]");
like($plan, qr/Bitmap Index Scan on wide_t_bp/, 'standby uses a bitmap scan');

# compressed keys (values beyond the index's limit that compress below it):
# inserts that split leaves and internal pages, a build, deletes and the
# VACUUM that deletes their leaves replay on the standby, whose scans find
# them as the primary's sequential scan does
$primary->safe_psql('postgres', q{
	CREATE TABLE long_t (id int4, k text COLLATE "C");
	INSERT INTO long_t SELECT g, md5(g::text) FROM generate_series(1, 3000) g;
	CREATE INDEX long_t_k ON long_t USING bpindex (k);
	INSERT INTO long_t SELECT 10000 + g,
		left(md5(g::text) || repeat('/' || g % 7 || 'abcdefgh', 1000), 2300 + g * 7)
	  FROM generate_series(1, 1500) g;
	CREATE INDEX long_t_kd ON long_t USING bpindex (k DESC, id);
	DELETE FROM long_t WHERE k >= '3' AND k < '6';
});
# the leaves are emptied once no snapshot (the standby's ones too, which
# hot_standby_feedback reports every few seconds) sees the deleted rows:
# VACUUM again for a while until it deletes some
my $long_deleted = 0;
for (my $try = 0; $try < 60 && $long_deleted == 0; $try++)
{
	sleep 1 if $try > 0;
	$primary->safe_psql('postgres', 'VACUUM long_t');
	$long_deleted = index_stat($primary, 'long_t_k', 'deleted_pages');
}
cmp_ok($long_deleted, '>', 0, 'VACUUM deleted leaves of compressed keys');
$primary->safe_psql('postgres', q{
	INSERT INTO long_t SELECT 20000 + g,
		left(md5(g::text) || repeat('/' || g % 5 || 'ijklmnop', 1000), 3000 + g)
	  FROM generate_series(1, 500) g;
});
$primary->wait_for_catchup($standby, 'replay');
compare_scans($standby, 'compressed keys', [
	"SELECT id, length(k) FROM long_t WHERE k >= '2' AND k < '7' ORDER BY k",
	"SELECT id FROM long_t WHERE k = left(md5('77') || repeat('/0abcdefgh', 1000), 2839)",
	"SELECT id, md5(k) FROM long_t WHERE k > 'e' ORDER BY k DESC, id DESC LIMIT 100",
	"SELECT count(*), sum(length(k)) FROM long_t WHERE k >= '0'" ], $primary);
for my $index ('long_t_k', 'long_t_kd')
{
	check_index($primary, $index, 1, 'compressed keys, primary');
	check_index($standby, $index, 1, 'compressed keys, standby');
}

# keys near the limit that do not compress (2,572 bytes, sharing 2,540):
# internal pages of three such pivots are filled for fewer children than
# the index's capacity, by splits and new roots that replay on the standby
$primary->safe_psql('postgres', q{
	CREATE TABLE longest_t (id int4, k text COLLATE "C");
	CREATE INDEX longest_t_k ON longest_t USING bpindex (k);
	INSERT INTO longest_t SELECT g, md5(g::text) FROM generate_series(1, 2000) g;
	INSERT INTO longest_t SELECT 10000 + g, repeat('r', 2540) || md5(g::text)
	  FROM generate_series(1, 300) g;
	DELETE FROM longest_t WHERE id % 4 = 0;
	VACUUM longest_t;
	INSERT INTO longest_t SELECT 20000 + g, repeat('r', 2540) || md5((7 * g)::text) || 'x'
	  FROM generate_series(1, 200) g;
});
$primary->wait_for_catchup($standby, 'replay');
compare_scans($standby, 'keys near the limit', [
	"SELECT id, md5(k) FROM longest_t WHERE k >= repeat('r', 2540) ORDER BY k",
	"SELECT id FROM longest_t WHERE k = repeat('r', 2540) || md5('77')",
	"SELECT id, md5(k) FROM longest_t WHERE k > repeat('r', 2540) || 'e' ORDER BY k DESC LIMIT 50",
	"SELECT count(*) FROM longest_t WHERE k < 'f'" ], $primary);
check_index($primary, 'longest_t_k', 1, 'keys near the limit, primary');
check_index($standby, 'longest_t_k', 1, 'keys near the limit, standby');

# keys at btree's limit (2,692 bytes) that pivots keep whole (DESC): a page
# holds two of them; internal pages omit their low key and leaves split
# before their entries, and VACUUM deletes emptied leaves under parents
# that omit theirs, all replayed on the standby
$primary->safe_psql('postgres', q{
	CREATE TABLE limit_t (id int4, k text);
	ALTER TABLE limit_t ALTER COLUMN k SET STORAGE plain;
	CREATE INDEX limit_t_k ON limit_t USING bpindex (k DESC);
	INSERT INTO limit_t SELECT i, left(string_agg(md5(i || '-' || g), ''), 2692)
	  FROM generate_series(1, 400) i, generate_series(1, 85) g
	  GROUP BY i ORDER BY md5(i::text);
	DELETE FROM limit_t WHERE id % 3 <> 0;
	VACUUM limit_t;
	INSERT INTO limit_t SELECT 1000 + i, left(string_agg(md5(i || '+' || g), ''), 2692)
	  FROM generate_series(1, 200) i, generate_series(1, 85) g GROUP BY i;
});
$primary->wait_for_catchup($standby, 'replay');
ok( $primary->safe_psql('postgres', q{
	SELECT count(*) > 0 FROM generate_series(1, pg_relation_size('limit_t_k') / 8192 - 1) b,
	  LATERAL bpindex_page_items('limit_t_k', b) i
	WHERE i.region = 'low key (not stored)'}) eq 't',
	'keys at the limit: internal pages omit their low key');
ok($primary->safe_psql('postgres',
		"SELECT deleted_pages > 0 FROM bpindex_stats('limit_t_k')") eq 't',
	'keys at the limit: VACUUM deleted leaves');
compare_scans($standby, 'keys at the limit', [
	"SELECT id, md5(k) FROM limit_t ORDER BY k DESC",
	"SELECT id, md5(k) FROM limit_t WHERE k < '8' ORDER BY k",
	"SELECT id FROM limit_t WHERE k = (SELECT k FROM limit_t WHERE id = 1007)",
	"SELECT count(*) FROM limit_t WHERE k >= 'c'" ], $primary);
check_index($primary, 'limit_t_k', 1, 'keys at the limit, primary');
check_index($standby, 'limit_t_k', 1, 'keys at the limit, standby');

# parallel scans on the standby: the participants share the leaves that
# replay split and emptied (plain and skip scans, with = ANY on the leading
# column and after the skipped one), as the primary's sequential scan finds
$primary->safe_psql('postgres', q{
	CREATE TABLE par_sb (g int4, v int4, k int8);
	INSERT INTO par_sb SELECT g % 4, (g / 4) % 300, (g * 7919) % 200003
	FROM generate_series(1, 120000) g;
	CREATE INDEX par_sb_gvk ON par_sb USING bpindex (g, v, k);
	INSERT INTO par_sb SELECT g % 4, (g / 13) % 300, 100000 + g % 50000
	FROM generate_series(1, 60000) g;
	DELETE FROM par_sb WHERE v BETWEEN 40 AND 90;
	VACUUM ANALYZE par_sb;
});
$primary->wait_for_catchup($standby, 'replay');
my $parallel_settings = 'SET enable_seqscan = off; SET enable_bitmapscan = off; '
  . 'SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; '
  . 'SET min_parallel_index_scan_size = 0; SET max_parallel_workers_per_gather = 2; '
  . 'SET cpu_tuple_cost = 1; SET cpu_index_tuple_cost = 1; ';
for my $q (
	'SELECT g, v, k FROM par_sb WHERE g IN (1, 2) AND k BETWEEN 50000 AND 150000 ORDER BY g, v, k',
	'SELECT g, v, k FROM par_sb WHERE g = ANY (ARRAY[3, 0]) AND k < 120000 ORDER BY g DESC, v DESC, k DESC',
	'SELECT count(*), sum(k) FROM par_sb WHERE v = ANY (ARRAY[1, 50, 100, 150, 200, 250, 299]) AND k > 1000',
	'SELECT count(*), sum(k) FROM par_sb WHERE k BETWEEN 20000 AND 180000')
{
	my $plan = $standby->safe_psql('postgres',
		"$parallel_settings EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $q");
	like($plan, qr/Workers Launched: [1-9].*Parallel Index (Only )?Scan (Backward )?using par_sb_gvk/s,
		"standby runs a parallel scan: $q");
	is($standby->safe_psql('postgres', "$parallel_settings $q"),
		seqscan_result($primary, $q), "standby's parallel scan: $q");
}

$standby->stop;
$primary->stop;
ok(!$standby->log_contains(qr/inconsistent page/),
	'no inconsistent page found by wal_consistency_checking on the standby');
ok(!$standby->log_contains(qr/PANIC|server process .* was terminated/),
	'no PANIC or crashed process on the standby');
done_testing();
