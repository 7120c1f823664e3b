# Crash recovery.
#
# 1. An index built (WAL-logged) and then vacuumed (generic WAL) survives an
#    immediate shutdown, several times over, and still returns exactly what
#    a sequential scan returns.
# 2. Several clients insert concurrently (random and ascending keys, NULLs,
#    rolled-back inserts) into two growing indexes while the whole server
#    is killed with SIGKILL, round after round: after each restart the
#    indexes pass bpindex_check with heapallindexed, index and bitmap scans
#    equal a sequential scan, and inserts go on working.
# 3. Recovery stopped exactly between the two WAL records of a split (point
#    in time recovery to the LSN of the first record) leaves a page with an
#    incomplete split, as a crash at that moment would: of the root leaf, of
#    an inner leaf, of the root internal page and of an inner internal page.
#    The index is valid in that state, later inserts finish the split, and
#    inserts anywhere, ascending ones included, keep working.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
preload_bpindex($node);
$node->append_conf('postgresql.conf', "checkpoint_timeout = '1h'");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION bpindex');

my @queries = (
	'SELECT k, v FROM crash_t WHERE k >= 1000 ORDER BY k, v LIMIT 500',
	'SELECT count(*), sum(k) FROM crash_t WHERE k BETWEEN 100 AND 20000',
	'SELECT k FROM crash_t WHERE k IS NULL OR k < 50 ORDER BY k DESC NULLS FIRST',
	'SELECT count(*) FROM crash_t WHERE k = 4242');

for my $round (1 .. 3)
{
	my $fillfactor = 30 * $round;
	load_table($node, 'crash_t', 60000);
	$node->safe_psql('postgres',
		"CREATE INDEX crash_t_bp ON crash_t USING bpindex (k) WITH (fillfactor = $fillfactor)");
	# no checkpoint: the pages must come back from WAL alone
	$node->stop('immediate');
	$node->start;

	for my $q (@queries)
	{
		is(index_result($node, $q), seqscan_result($node, $q),
			"round $round after build: $q");
	}

	$node->safe_psql('postgres',
		'DELETE FROM crash_t WHERE v % 5 = 0; VACUUM crash_t');
	$node->stop('immediate');
	$node->start;

	for my $q (@queries)
	{
		is(index_result($node, $q), seqscan_result($node, $q),
			"round $round after vacuum: $q");
	}
	my $plan = $node->safe_psql('postgres',
		"SET enable_seqscan = off; EXPLAIN (COSTS OFF) $queries[0]");
	like($plan, qr/Index (Only )?Scan using crash_t_bp/, "round $round uses the index");
	$node->safe_psql('postgres', 'DROP TABLE crash_t');
}

###########################################################################
# 2. Crashes while several clients insert concurrently.
###########################################################################

# thousands of statements per second: keep the server log small
$node->append_conf('postgresql.conf', "log_statement = 'none'");
$node->reload;

# Keys: random ones in [0, 10^7), ascending ones from 10^7 up (u ascending
# too), NULLs, and inserts that roll back (their entries stay in the index).
# s is a text key made from k and v (URL-like, longer than a slot's prefix,
# of varying length), in indexes of their own.
$node->safe_psql('postgres', q{
	CREATE TABLE cc_t (k int8, v int4, u uuid,
		s text GENERATED ALWAYS AS ('https://example.com/' || lpad(k::text, 9, '0')
			|| '/' || repeat('x', abs(v) % 40)) STORED);
	CREATE SEQUENCE cc_seq;
	CREATE INDEX cc_t_k ON cc_t USING bpindex (k);
	CREATE INDEX cc_t_uk ON cc_t USING bpindex (u, k);
	CREATE INDEX cc_t_k_inc ON cc_t USING bpindex (k) INCLUDE (v, u);
	CREATE INDEX cc_t_kd ON cc_t USING bpindex (k DESC, v NULLS FIRST);
	CREATE INDEX cc_t_s ON cc_t USING bpindex (s);
	CREATE INDEX cc_t_us ON cc_t USING bpindex (u, s);
});
my %cc_scripts = (
	'cc_random.sql@4' => q{
\set r random(0, 9999999)
INSERT INTO cc_t SELECT (:r + g * 104729) % 10000000, g, gen_random_uuid()
  FROM generate_series(1, 10) g;
},
	'cc_ascending.sql@3' => q{
INSERT INTO cc_t SELECT 10000000 + n, 0, lpad(to_hex(n), 32, '0')::uuid
  FROM (SELECT nextval('cc_seq') AS n FROM generate_series(1, 10)) s;
},
	'cc_nulls.sql@1' => q{
\set r random(0, 9999999)
INSERT INTO cc_t SELECT NULL, :r, CASE WHEN g % 2 = 0 THEN gen_random_uuid() END
  FROM generate_series(1, 6) g;
},
	'cc_rollback.sql@1' => q{
\set r random(0, 9999999)
BEGIN;
INSERT INTO cc_t SELECT (:r + g * 7) % 10000000, -1, gen_random_uuid()
  FROM generate_series(1, 20) g;
ROLLBACK;
});

my @cc_queries = (
	'SELECT k, v FROM cc_t WHERE k >= 5000000 ORDER BY k, v LIMIT 300',
	'SELECT count(*), sum(k), sum(v) FROM cc_t WHERE k BETWEEN 1000000 AND 3000000',
	'SELECT count(*), sum(v) FROM cc_t WHERE k IS NULL',
	'SELECT k FROM cc_t WHERE k > 10000000 ORDER BY k DESC LIMIT 200',
	'SELECT count(*), sum(k) FROM cc_t WHERE k >= 10000000',
	"SELECT u, k FROM cc_t WHERE u >= '80000000-0000-0000-0000-000000000000' "
	  . 'ORDER BY u, k LIMIT 200',
	"SELECT count(*), sum(k) FROM cc_t WHERE u < '00000000-0000-0000-0001-000000000000'",
	'SELECT count(*), sum(k) FROM cc_t WHERE u IS NULL AND k < 5000000',
	'SELECT k, v, u FROM cc_t WHERE k BETWEEN 2000000 AND 2200000 ORDER BY k, v, u',
	'SELECT k, v FROM cc_t WHERE k < 3000000 ORDER BY k DESC, v NULLS FIRST LIMIT 300',
	"SELECT s FROM cc_t WHERE s >= 'https://example.com/005000000' ORDER BY s LIMIT 300",
	"SELECT count(*), sum(k) FROM cc_t WHERE s BETWEEN 'https://example.com/001' "
	  . "AND 'https://example.com/003'",
	"SELECT s FROM cc_t WHERE s > 'https://example.com/01' ORDER BY s DESC LIMIT 200",
	"SELECT u, s FROM cc_t WHERE u >= '80000000-0000-0000-0000-000000000000' "
	  . 'ORDER BY u, s LIMIT 200');

# Inserts after recovery, spread over every key range of both indexes, so
# that most leaves (those with an incomplete split included) get one.
sub insert_everywhere
{
	my ($tag) = @_;
	$node->safe_psql('postgres', qq{
		INSERT INTO cc_t SELECT (g * 1999) % 10000000, $tag, gen_random_uuid()
		  FROM generate_series(1, 5000) g;
		INSERT INTO cc_t SELECT 10000000 + (g * 37) % (SELECT last_value FROM cc_seq),
			$tag, lpad(to_hex((g * 37) % (SELECT last_value FROM cc_seq)), 32, '0')::uuid
		  FROM generate_series(1, 2000) g;
		INSERT INTO cc_t SELECT NULL, $tag, NULL FROM generate_series(1, 200) g;
	});
}

my $rows_before = 0;
for my $round (1 .. 4)
{
	# crash once some 60000 more ascending keys are in (some 180000 rows)
	my $target =
	  $node->safe_psql('postgres', 'SELECT last_value FROM cc_seq') + 60000;
	my $bench = start_pgbench($node, \%cc_scripts, '-c', '4', '-j', '2', '-T', '60');
	ok(wait_for_pgbench($node, $bench,
			"SELECT last_value >= $target FROM cc_seq"),
		"round $round: clients are inserting");
	crash_node($node);
	my ($rc, $out, $err) = finish_pgbench($bench);
	isnt($rc, 0, "round $round: pgbench saw the crash")
	  or diag("pgbench output: $out\n$err");
	$node->start;

	my $rows = $node->safe_psql('postgres', 'SELECT count(*) FROM cc_t');
	cmp_ok($rows, '>', $rows_before, "round $round: the table grew ($rows rows)");
	note("round $round after crash: cc_t_k has "
		  . index_stat($node, 'cc_t_k', 'levels') . " levels, "
		  . index_stat($node, 'cc_t_k', 'incomplete_splits')
		  . " incomplete splits; cc_t_uk has "
		  . index_stat($node, 'cc_t_uk', 'levels') . " levels, "
		  . index_stat($node, 'cc_t_uk', 'incomplete_splits')
		  . " incomplete splits");
	check_index($node, 'cc_t_k', 1, "round $round after crash");
	check_index($node, 'cc_t_uk', 1, "round $round after crash");
	check_index($node, 'cc_t_k_inc', 1, "round $round after crash");
	check_index($node, 'cc_t_kd', 1, "round $round after crash");
	check_index($node, 'cc_t_s', 1, "round $round after crash");
	check_index($node, 'cc_t_us', 1, "round $round after crash");
	compare_scans($node, "round $round after crash", \@cc_queries);

	# inserts go on working after recovery
	insert_everywhere($round);
	check_index($node, 'cc_t_k', 1, "round $round after more inserts");
	check_index($node, 'cc_t_uk', 1, "round $round after more inserts");
	check_index($node, 'cc_t_k_inc', 1, "round $round after more inserts");
	check_index($node, 'cc_t_kd', 1, "round $round after more inserts");
	check_index($node, 'cc_t_s', 1, "round $round after more inserts");
	check_index($node, 'cc_t_us', 1, "round $round after more inserts");
	compare_scans($node, "round $round after more inserts",
		[ @cc_queries[ 0, 3, 5, 8, 9, 10, 11, 12, 13 ] ]);
	$rows_before = $node->safe_psql('postgres', 'SELECT count(*) FROM cc_t');
}

cmp_ok(index_stat($node, 'cc_t_k', 'levels'), '>=', 3, 'cc_t_k grew two internal levels');
cmp_ok(index_stat($node, 'cc_t_uk', 'levels'), '>=', 3, 'cc_t_uk grew two internal levels');
cmp_ok(index_stat($node, 'cc_t_s', 'levels'), '>=', 3, 'cc_t_s grew two internal levels');
# with the visibility map set, the INCLUDE index answers alone
$node->safe_psql('postgres', 'VACUUM ANALYZE cc_t');
like($node->safe_psql('postgres',
		"SET enable_seqscan = off; SET enable_bitmapscan = off; EXPLAIN (COSTS OFF) $cc_queries[8]"),
	qr/Index Only Scan using cc_t_k_inc/, 'the INCLUDE index answers its query alone');
like($node->safe_psql('postgres',
		"SET enable_seqscan = off; SET enable_bitmapscan = off; EXPLAIN (COSTS OFF) $cc_queries[9]"),
	qr/Index (Only )?Scan using cc_t_kd/, 'the DESC index gives its order without a sort');
for my $mode ('index', 'bitmap')
{
	my $set = $mode eq 'index'
	  ? 'SET enable_seqscan = off; SET enable_bitmapscan = off;'
	  : 'SET enable_seqscan = off; SET enable_indexscan = off; SET enable_indexonlyscan = off;';
	my $expect = $mode eq 'index' ? qr/Index (Only )?Scan/ : qr/Bitmap Index Scan/;
	for my $q (@cc_queries[ 1, 5 ])
	{
		like($node->safe_psql('postgres', "$set EXPLAIN (COSTS OFF) $q"),
			$expect, "$mode scan plan: $q");
	}
}
$node->stop;

###########################################################################
# 3. Recovery that stops between the two WAL records of a split.
###########################################################################

my $pn = PostgreSQL::Test::Cluster->new('split');
$pn->init(has_archiving => 1, allows_streaming => 1);
preload_bpindex($pn);
$pn->start;
$pn->safe_psql('postgres', q{
	CREATE EXTENSION bpindex;
	CREATE TABLE s1 (k int8, v int4);
	CREATE INDEX s1_bp ON s1 USING bpindex (k) WITH (packed_leaves = off);
	CREATE TABLE s2 (a uuid, b uuid, k int8);
	CREATE INDEX s2_bp ON s2 USING bpindex (a, b, k) WITH (fillfactor = 10, packed_leaves = off);
});
$pn->backup('empty');
my $start_lsn = $pn->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');

# The split scenarios count leaves of a known capacity, so these two
# indexes keep plain leaves; the crashes above run on packed ones.
# s1 (int8, 512 entries a leaf): 300 committed rows in the root leaf, then a
# transaction whose ascending rows split the root leaf, then rows spread over
# the key range that split inner leaves.
$pn->safe_psql('postgres',
	'INSERT INTO s1 SELECT g * 10, g FROM generate_series(1, 300) g');
$pn->safe_psql('postgres',
	'INSERT INTO s1 SELECT g * 10, g FROM generate_series(301, 500) g');
$pn->safe_psql('postgres',
	'INSERT INTO s1 SELECT (g * 7919) % 5000, g FROM generate_series(1, 3000) g');
# s2 ((uuid, uuid, int8), 160 children an internal page, ascending inserts
# leave 14 entries a leaf): 1500 committed rows under a root at level 1, then
# ascending rows that split the root internal page (some 2000 rows) and then
# its right sibling (some 3400 rows).
$pn->safe_psql('postgres', q{
	INSERT INTO s2 SELECT lpad(to_hex(g), 32, '0')::uuid, md5(g::text)::uuid, g
	  FROM generate_series(1, 1500) g});
$pn->safe_psql('postgres', q{
	INSERT INTO s2 SELECT lpad(to_hex(g), 32, '0')::uuid, md5(g::text)::uuid, g
	  FROM generate_series(1501, 4500) g});
my $end_lsn = $pn->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
my $end_wal = $pn->safe_psql('postgres', "SELECT pg_walfile_name('$end_lsn')");
$pn->safe_psql('postgres', 'SELECT pg_switch_wal()');
$pn->poll_query_until('postgres',
	"SELECT last_archived_wal >= '$end_wal' FROM pg_stat_archiver")
  or die 'WAL was not archived';

# The WAL records of an index (bpindex's resource manager, which
# pg_waldump calls custom201): page-creating ones classified as
# leaf splits (two pages: the leaf and its new right sibling), internal
# splits (three pages: the page, its new sibling, the child whose split
# the record completes) and new roots (the new root, the metapage, the old
# root).  Blocks 0 and 1 (metapage and root leaf) come from CREATE INDEX.
sub split_records
{
	my ($index) = @_;
	my $rel = $pn->safe_psql('postgres', qq{
		SELECT (SELECT oid FROM pg_tablespace WHERE spcname = 'pg_default')
			|| '/' || (SELECT oid FROM pg_database WHERE datname = current_database())
			|| '/' || pg_relation_filenode('$index')});
	my ($stdout, $stderr) = run_command([
		$pn->installed_command('pg_waldump'), '--path', $pn->archive_dir,
		'--start', $start_lsn, '--end', $end_lsn,
		'--rmgr', 'custom201', '--relation', $rel ]);
	my %found = (leaf => [], internal => [], root => []);
	my $max_block = 1;
	for my $line (split /\n/, $stdout)
	{
		next unless $line =~ /lsn: ([0-9A-F]+\/[0-9A-F]+),/;
		my $lsn = $1;
		my @blocks = $line =~ /rel \Q$rel\E blk (\d+)/g;
		my $creates = grep { $_ > $max_block } @blocks;
		$max_block = $_ for grep { $_ > $max_block } @blocks;
		next unless $creates;
		my $kind =
			@blocks == 2 ? 'leaf'
		  : (grep { $_ == 0 } @blocks) ? 'root'
		  : 'internal';
		push @{ $found{$kind} }, $lsn;
	}
	note("$index: " . join(', ', map { scalar(@{ $found{$_} }) . " $_" } sort keys %found)
		  . " page-creating records");
	return \%found;
}

my $s1_splits = split_records('s1_bp');
my $s2_splits = split_records('s2_bp');
cmp_ok(scalar(@{ $s1_splits->{leaf} }), '>=', 3, 's1_bp: leaf splits in WAL');
cmp_ok(scalar(@{ $s2_splits->{internal} }), '>=', 2, 's2_bp: internal splits in WAL');

# A copy of the cluster recovered up to and including the record at $lsn,
# then promoted.
sub recover_to
{
	my ($name, $lsn) = @_;
	my $r = PostgreSQL::Test::Cluster->new($name);
	$r->init_from_backup($pn, 'empty', has_restoring => 1, standby => 0);
	$r->append_conf('postgresql.conf', qq{
archive_mode = off
recovery_target_lsn = '$lsn'
recovery_target_inclusive = on
recovery_target_action = 'promote'
});
	$r->start;
	$r->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die "$name did not finish recovery";
	return $r;
}

my @s1_queries = (
	'SELECT k, v FROM s1 WHERE k >= 2000 ORDER BY k, v LIMIT 200',
	'SELECT count(*), sum(k) FROM s1 WHERE k BETWEEN 100 AND 4000',
	'SELECT k FROM s1 WHERE k > 2500 ORDER BY k DESC LIMIT 100',
	'SELECT count(*), sum(k) FROM s1 WHERE k > 100000');
my @s2_queries = (
	"SELECT a, k FROM s2 WHERE a >= lpad(to_hex(300), 32, '0')::uuid ORDER BY a, b, k LIMIT 200",
	"SELECT count(*), sum(k) FROM s2 WHERE a BETWEEN lpad(to_hex(100), 32, '0')::uuid "
	  . "AND lpad(to_hex(3000), 32, '0')::uuid",
	"SELECT k FROM s2 WHERE a < lpad(to_hex(2000), 32, '0')::uuid ORDER BY a DESC, b DESC, k DESC LIMIT 100",
	"SELECT count(*), sum(k) FROM s2 WHERE a > lpad(to_hex(100000), 32, '0')::uuid");

# Run an INSERT that must succeed; reports the error otherwise.
sub insert_ok
{
	my ($r, $sql, $label) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my ($rc, $out, $err) = $r->psql('postgres', $sql);
	is($rc . $err, '0', $label);
}

my $s1_ascending =
  'INSERT INTO s1 SELECT 100000 + g, 0 FROM generate_series(1, 1000) g';
my $s2_ascending = q{INSERT INTO s2 SELECT lpad(to_hex(g), 32, '0')::uuid,
	md5(g::text)::uuid, g FROM generate_series(100001, 102000) g};
# 300 rows with the same a: they go to one or two leaves and split them
sub s2_cluster
{
	my ($a) = @_;
	return qq{INSERT INTO s2 SELECT lpad(to_hex($a), 32, '0')::uuid,
		md5((g + 1000000 * $a)::text)::uuid, g FROM generate_series(1, 300) g};
}

# S1: the root leaf has split, the new root is missing.
{
	my $r = recover_to('split_root_leaf', $s1_splits->{leaf}[0]);
	is(index_stat($r, 's1_bp', 'levels') . '/' . index_stat($r, 's1_bp', 'incomplete_splits'),
		'1/1', 'root leaf split: one level, one incomplete split');
	check_index($r, 's1_bp', 1, 'root leaf split');
	compare_scans($r, 'root leaf split', \@s1_queries);
	# ascending keys go to the new right leaf, which fills up and splits
	insert_ok($r, $s1_ascending, 'root leaf split: ascending inserts split the right leaf');
	# keys of the left leaf: the insert finishes the split (a new root)
	insert_ok($r, 'INSERT INTO s1 SELECT g * 10 + 1, 0 FROM generate_series(1, 100) g',
		'root leaf split: inserts into the left leaf');
	cmp_ok(index_stat($r, 's1_bp', 'levels'), '>=', 2, 'root leaf split: the root was made');
	insert_ok($r, 'INSERT INTO s1 SELECT 200000 + g, 0 FROM generate_series(1, 1000) g',
		'root leaf split: ascending inserts afterwards');
	check_index($r, 's1_bp', 1, 'root leaf split, after inserts');
	compare_scans($r, 'root leaf split, after inserts', \@s1_queries);
	$r->stop;
}

# S4: an inner leaf has split, its downlink is missing.
{
	my $r = recover_to('split_inner_leaf', $s1_splits->{leaf}[2]);
	is(index_stat($r, 's1_bp', 'levels') . '/' . index_stat($r, 's1_bp', 'incomplete_splits'),
		'2/1', 'inner leaf split: two levels, one incomplete split');
	check_index($r, 's1_bp', 1, 'inner leaf split');
	compare_scans($r, 'inner leaf split', \@s1_queries);
	insert_ok($r, 'INSERT INTO s1 SELECT (g * 4999) % 5000, 0 FROM generate_series(1, 5000) g',
		'inner leaf split: inserts over the whole key range');
	is(index_stat($r, 's1_bp', 'incomplete_splits'), '0',
		'inner leaf split: the split was finished');
	insert_ok($r, $s1_ascending, 'inner leaf split: ascending inserts');
	check_index($r, 's1_bp', 1, 'inner leaf split, after inserts');
	compare_scans($r, 'inner leaf split, after inserts', \@s1_queries);
	$r->stop;
}

# S2: the root internal page has split, the new root is missing.
{
	my $r = recover_to('split_root_internal', $s2_splits->{internal}[0]);
	is(index_stat($r, 's2_bp', 'levels') . '/' . index_stat($r, 's2_bp', 'incomplete_splits'),
		'2/1', 'root internal split: two levels, one incomplete split');
	check_index($r, 's2_bp', 1, 'root internal split');
	compare_scans($r, 'root internal split', \@s2_queries);
	# ascending keys go under the new right internal page and split it
	insert_ok($r, $s2_ascending,
		'root internal split: ascending inserts split the right internal page');
	# leaf splits under the left and the right internal page finish the splits
	insert_ok($r, s2_cluster(100), 'root internal split: inserts under the left page');
	insert_ok($r, s2_cluster(1800), 'root internal split: inserts under the right page');
	cmp_ok(index_stat($r, 's2_bp', 'levels'), '>=', 3, 'root internal split: the root was made');
	is(index_stat($r, 's2_bp', 'incomplete_splits'), '0',
		'root internal split: the splits were finished');
	check_index($r, 's2_bp', 1, 'root internal split, after inserts');
	compare_scans($r, 'root internal split, after inserts', \@s2_queries);
	$r->stop;
}

# S3: an inner internal page has split, its downlink is missing.
{
	my $r = recover_to('split_inner_internal', $s2_splits->{internal}[1]);
	is(index_stat($r, 's2_bp', 'levels') . '/' . index_stat($r, 's2_bp', 'incomplete_splits'),
		'3/1', 'inner internal split: three levels, one incomplete split');
	check_index($r, 's2_bp', 1, 'inner internal split');
	compare_scans($r, 'inner internal split', \@s2_queries);
	# clusters of rows across the keys of the ascending load, until one
	# splits a leaf under the split page and so finishes its split
	my $clusters = 0;
	for my $a (1500, 2000, 2500, 3000, 3500, 4000)
	{
		insert_ok($r, s2_cluster($a), "inner internal split: inserts at $a");
		$clusters++;
		last if index_stat($r, 's2_bp', 'incomplete_splits') eq '0';
	}
	is(index_stat($r, 's2_bp', 'incomplete_splits'), '0',
		"inner internal split: the split was finished ($clusters clusters)");
	insert_ok($r, $s2_ascending, 'inner internal split: ascending inserts');
	check_index($r, 's2_bp', 1, 'inner internal split, after inserts');
	compare_scans($r, 'inner internal split, after inserts', \@s2_queries);
	$r->stop;
}

$pn->stop;
done_testing();
