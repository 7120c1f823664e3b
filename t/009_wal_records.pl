# bpindex's WAL resource manager: every record kind is written, shown by
# pg_walinspect (rm_identify and rm_desc run in the server) and listed by
# pg_waldump (as custom201), and replayed by crash recovery, after which
# bpindex_check(heapallindexed) passes and index scans answer like
# sequential scans.  A server that does not preload bpindex reads its
# indexes but refuses every write with an error that names the index and
# the setting, and changes nothing.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use BpindexTest;

my $node = PostgreSQL::Test::Cluster->new('wal_records');
# wal_level replica: standbys could run queries, so page reuse is announced
$node->init(allows_streaming => 1);
preload_bpindex($node);
$node->append_conf('postgresql.conf', qq{
autovacuum = off
checkpoint_timeout = '1h'
max_wal_size = '1GB'
# pg_walinspect reads the WAL since each round began, across the
# checkpoints that follow crash recovery
wal_keep_size = '1GB'
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION bpindex');
$node->safe_psql('postgres', 'CREATE EXTENSION pg_walinspect');
is($node->safe_psql('postgres', 'SELECT bpindex_wal_ready()'), 't',
	'a server that preloads bpindex can write');

$node->safe_psql('postgres', q{
	CREATE TABLE w (k int8, v int4) WITH (autovacuum_enabled = off);
	CREATE INDEX w_k ON w USING bpindex (k);
	CHECKPOINT;
});
my $start = $node->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');

# appends, flushes, splits, a new root, downlinks
$node->safe_psql('postgres',
	'INSERT INTO w SELECT (g * 7919) % 100000, g FROM generate_series(1, 60000) g');
# VACUUM removes entries and deletes the leaves it empties; a second
# VACUUM makes them recyclable, and inserts into the emptied range reuse them
$node->safe_psql('postgres', 'DELETE FROM w WHERE k BETWEEN 20000 AND 60000');
$node->safe_psql('postgres', 'VACUUM w');
# transactions after the deletions, so that the deleted pages become
# recyclable: the next VACUUM gives them to the free space map
$node->safe_psql('postgres', 'SELECT txid_current()') for 1 .. 3;
$node->safe_psql('postgres', 'VACUUM w');
$node->safe_psql('postgres',
	'INSERT INTO w SELECT 20000 + (g * 7919) % 40000, g FROM generate_series(1, 30000) g');
# dead marks, then pruned heap tuples, then inserts into the same leaves:
# the insert removes the marked entries whose line pointers are dead
$node->safe_psql('postgres', 'DELETE FROM w WHERE k BETWEEN 70000 AND 75000');
$node->safe_psql('postgres', q{
	SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT count(*) FROM w WHERE k BETWEEN 70000 AND 75000;
	SELECT count(*) FROM w WHERE k BETWEEN 70000 AND 75000;
});
# a page read prunes its dead tuples: a sequential scan of the table
$node->safe_psql('postgres', 'SELECT count(*) FROM w WHERE v < 0');
$node->safe_psql('postgres',
	'INSERT INTO w SELECT 70000 + g % 5000, g FROM generate_series(1, 20000) g');
# updates that leave w_k's keys unchanged (w_v changes: no HOT): once a
# leaf fills, bottom-up deletion removes the entries of old versions,
# announcing the newest XID that deleted them
$node->safe_psql('postgres', 'CREATE INDEX w_v ON w USING bpindex (v)');
$node->safe_psql('postgres', "UPDATE w SET v = v + 1 WHERE k % 8 = $_") for 0 .. 7;
$node->safe_psql('postgres', "UPDATE w SET v = v + 1 WHERE k % 8 = $_") for 0 .. 7;
my $end = $node->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');

my $kinds = $node->safe_psql('postgres', qq{
	SELECT string_agg(record_type, ' ' ORDER BY record_type)
	FROM (SELECT DISTINCT record_type FROM pg_get_wal_records_info('$start', '$end')
	      WHERE resource_manager = 'bpindex') s});
note("record kinds: $kinds");
for my $kind (qw(INSERT REWRITE SPLIT NEWROOT VACUUM DELETE REUSE DEAD PINS HORIZON))
{
	like($kinds, qr/\b$kind\b/, "pg_walinspect shows $kind records");
}
unlike($node->safe_psql('postgres', qq{
	SELECT count(*) FROM pg_get_wal_records_info('$start', '$end')
	WHERE resource_manager = 'Generic'}), qr/^[1-9]/, 'no generic WAL records');

# rm_desc: pages as images or fragments, and the cleanup locks
# (a page's first change after a checkpoint is logged as its image)
my $page = qr/(image|(new, )?\d+ fragments, \d+ bytes)/;
my %desc_pattern = (
	INSERT  => qr/^page 0: $page$/,
	SPLIT   => qr/^page 0: $page; page 1: new, \d+ fragments, \d+ bytes, cleanup lock$/,
	VACUUM  => qr/^page 0: $page, cleanup lock$/,
	DELETE  => qr/cleanup lock/,
	REUSE   => qr/^blkno \d+, deleted at xid \d+:\d+$/,
	HORIZON => qr/^blkno \d+, tuples deleted up to xid \d+:\d+$/,
	PINS    => qr/^\d+ leaves$/);
for my $kind (sort keys %desc_pattern)
{
	my $desc = $node->safe_psql('postgres', qq{
		SELECT description FROM pg_get_wal_records_info('$start', '$end')
		WHERE resource_manager = 'bpindex' AND record_type = '$kind' LIMIT 1});
	like($desc, $desc_pattern{$kind}, "rm_desc of $kind: $desc");
}

# pg_waldump cannot load bpindex's rm_desc: it names the records custom201
my $walfile = $node->safe_psql('postgres', "SELECT pg_walfile_name('$start')");
my ($stdout, $stderr) = run_command([
	$node->installed_command('pg_waldump'), '--start', $start, '--end', $end,
	'--rmgr', 'custom201', '--path', $node->data_dir . '/pg_wal' ]);
my @records = grep { /rmgr: custom201/ } split /\n/, $stdout;
cmp_ok(scalar(@records), '>', 100, 'pg_waldump lists bpindex records as custom201');
like($records[0], qr/blkref #0: rel \d+\/\d+\/\d+ (fork main )?blk \d+/,
	'pg_waldump shows the blocks of a bpindex record');

# crash recovery replays every kind
my @queries = (
	'SELECT count(*), sum(k), sum(v) FROM w WHERE k >= 0',
	'SELECT k, v FROM w WHERE k BETWEEN 19990 AND 20100 ORDER BY k, v',
	'SELECT count(*), sum(v) FROM w WHERE k BETWEEN 70000 AND 75000',
	'SELECT k FROM w ORDER BY k DESC LIMIT 50');
my %before = map { $_ => seqscan_result($node, $_) } @queries;
$node->stop('immediate');
$node->start;
check_index($node, 'w_k', 1, 'after crash recovery');
for my $q (@queries)
{
	is(index_result($node, $q), $before{$q}, "after crash recovery: $q");
}

# kill -9 while clients insert, delete, scan (setting dead marks) and
# VACUUM, once the WAL since the round began holds records of every kind
# those writes produce; then recovery, bpindex_check(heapallindexed) and
# index scans against sequential scans
$node->safe_psql('postgres', 'CREATE SEQUENCE w_seq START 200000');
my %scripts = (
	'random.sql@3' => q{
\set r random(0, 99999)
INSERT INTO w SELECT (:r + g * 7919) % 100000, g FROM generate_series(1, 50) g;
},
	'ascending.sql@2' => q{
INSERT INTO w SELECT nextval('w_seq'), 0 FROM generate_series(1, 50);
},
	'delete.sql@1' => q{
\set r random(0, 99999)
DELETE FROM w WHERE k BETWEEN :r AND :r + 5000;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM w WHERE k BETWEEN :r AND :r + 5000;
SELECT count(*) FROM w WHERE k BETWEEN :r AND :r + 5000;
});
my %vacuum = ('vacuum.sql' => q{
VACUUM w;
SELECT txid_current();
\sleep 300 ms
});
my @kinds = qw(INSERT REWRITE SPLIT DOWNLINK VACUUM DELETE PINS);
my %seen;

# The kinds of bpindex records written since $from, read a stretch at a
# time while the clients run, until every one of @kinds has appeared;
# false if the clients end first or time runs out.
sub wait_for_kinds
{
	my ($bench, $from, $round_seen) = @_;
	for my $i (1 .. 5 * $PostgreSQL::Test::Utils::timeout_default)
	{
		my $to = $node->safe_psql('postgres', 'SELECT pg_current_wal_flush_lsn()');
		# a stretch with no whole record flushed yet (or none at all) reads
		# nothing: it is read again, longer, next time
		my ($rc, $kinds) = $node->psql('postgres', qq{
			SELECT string_agg(DISTINCT record_type, ' ')
			FROM pg_get_wal_records_info('$from', '$to')
			WHERE resource_manager = 'bpindex'});
		if ($rc == 0)
		{
			$round_seen->{$_} = 1 for split / /, $kinds;
			$from = $to;
		}
		return 1 unless grep { !$round_seen->{$_} } @kinds;
		$bench->{h}->pump_nb if $bench->{h}->pumpable;
		return 0 unless $bench->{h}->pumpable;
		usleep(200_000);
	}
	return 0;
}

for my $round (1 .. 3)
{
	my $from = $node->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
	my $writers = start_pgbench($node, \%scripts, '-c', '3', '-j', '3', '-T', '120');
	my $vacuumer = start_pgbench($node, \%vacuum, '-c', '1', '-T', '120');
	my %round_seen;
	ok(wait_for_kinds($writers, $from, \%round_seen),
		"round $round: records of every kind written before the crash")
	  or diag('seen: ' . join(' ', sort keys %round_seen));
	$seen{$_} = 1 for keys %round_seen;
	crash_node($node);
	finish_pgbench($_) for ($writers, $vacuumer);
	$node->start;
	check_index($node, 'w_k', 1, "round $round after the crash");
	compare_scans($node, "round $round after the crash", \@queries);
}
note('kinds written before the crashes: ' . join(' ', sort keys %seen));

# without the preload: reads work, every write is refused
$node->append_conf('postgresql.conf', "shared_preload_libraries = ''");
$node->restart;
is($node->safe_psql('postgres', 'SELECT bpindex_wal_ready()'), 'f',
	'without the preload bpindex_wal_ready() is false');
is(index_result($node, $queries[0]), seqscan_result($node, $queries[0]),
	'without the preload the index answers reads');
for my $write (
	'INSERT INTO w VALUES (1, 1)',
	'CREATE INDEX w_k2 ON w USING bpindex (k)',
	'REINDEX INDEX w_k',
	'VACUUM w')
{
	# VACUUM reaches the index only when it has dead tuples to remove
	$node->safe_psql('postgres', 'DELETE FROM w WHERE k = 5') if $write =~ /VACUUM/;
	my ($rc, $out, $err) = $node->psql('postgres', $write);
	isnt($rc, 0, "without the preload: $write fails");
	like($err,
		qr/ERROR:  bpindex index "w_k2?" cannot be written: bpindex is not in shared_preload_libraries.*HINT:  Add bpindex to shared_preload_libraries/s,
		"without the preload: $write names the index and the setting");
}
for my $q (@queries)
{
	is(index_result($node, $q), seqscan_result($node, $q),
		"after the refused writes: $q");
}

$node->append_conf('postgresql.conf', "shared_preload_libraries = 'bpindex'");
$node->restart;
$node->safe_psql('postgres', 'INSERT INTO w VALUES (1, 1)');
check_index($node, 'w_k', 1, 'with the preload again');

$node->stop;
done_testing();
